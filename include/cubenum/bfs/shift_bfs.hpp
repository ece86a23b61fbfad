#pragma once
// Level-synchronous BFS over spaces whose states are (row, column) pairs in
// which a move takes row r to row_step(r, m) and adds shift(r, m), itself a
// column, to the column digit by digit (columns are kDigits base-kRadix
// digits; see cubenum/core/digit_shift.hpp).
// The pocket cube with its twists kept by piece, not by slot, is one: a
// turn permutes the pieces (the row) and twists the pieces it moves by
// amounts that depend on the slots they are in (the shift). U, U2, U', R2
// and F2 twist nothing, so five of HTM's nine moves carry a row unchanged.
//
// The planes (visited, frontier, next) are rows of bits, as in
// product_bfs.hpp, and the thread that owns a row is the only one that
// writes it. A level is built one of two ways:
//  - row by row: for each move into row p, the source row's frontier
//    states are pushed one by one, p's open columns pulled one by one, or
//    the whole row shifted, whichever the two rows' counts say is cheaper;
//  - cycle by cycle, on dense levels when the moves fall into families
//    {g^j : j in J} of generators g whose row cycles all have g's order:
//    the rows of one cycle collect what the family's moves bring from each
//    other. Sources with the same shift are ORed before the shift, and a
//    (shift, sources) term wanted by several rows of the cycle is shifted
//    once. Pocket cube: a U cycle needs no shift at all and an R or F cycle
//    two, since R2 adds nothing and R and R' arriving from the two
//    neighbours of a row add the same vector.
// The way depends only on counts, never on the thread count, and every way
// finds the same states.
#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "cubenum/bfs/product_bfs.hpp"
#include "cubenum/core/digit_shift.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/stopwatch.hpp"

namespace cubenum::bfs {

template <class S>
concept ShiftSpace = requires(const S& space, std::uint32_t r, int m) {
  { S::kRadix } -> std::convertible_to<unsigned>;
  { S::kDigits } -> std::convertible_to<unsigned>;
  { space.rows() } -> std::convertible_to<std::uint32_t>;
  { space.moves() } -> std::convertible_to<int>;
  { space.row_step(r, m) } -> std::convertible_to<std::uint32_t>;
  { space.shift(r, m) } -> std::convertible_to<std::uint32_t>;
};

namespace detail {

// A whole-row shift costs about as much as this many columns pushed or
// pulled one by one.
inline constexpr std::uint32_t kBitsPerShift = 8;
inline constexpr std::uint32_t kMaxFamilyOrder = 8;

// Moves that act on the rows as powers g^j of one generator g.
struct ShiftFamily {
  std::uint32_t order = 0;            // of g on the rows: every cycle has this length
  std::vector<int> moves;             // the members
  std::vector<std::uint32_t> powers;  // powers[i]: moves[i] acts as g^powers[i]
  std::vector<std::uint32_t> rows;    // the cycles of g, `order` rows each: r, g(r), ...
  // Per cycle: its shifted terms, and per row of the cycle what it collects.
  struct Term {
    std::uint16_t shift;   // the vector added (a column)
    std::uint8_t sources;  // the cycle's rows ORed before the shift (bit k: row k)
  };
  std::vector<std::uint32_t> first_term;  // [cycle], one past the end: the last entry
  std::vector<Term> terms;
  std::vector<std::uint8_t> plain;   // [cycle * order + k]: rows that come unshifted
  std::vector<std::uint64_t> wants;  // [cycle * order + k]: the terms it adds (bit t)
  std::size_t cycles() const { return rows.size() / order; }
};

template <unsigned Radix, unsigned Digits>
struct ShiftTables {
  using Shift = DigitShift<Radix, Digits>;
  static constexpr std::uint32_t kColumns = Shift::kColumns;

  int moves = 0;
  std::uint32_t rows = 0;
  std::vector<std::uint32_t> source_row;  // [p * moves + m]: the row m carries into p
  std::vector<std::uint16_t> shift_in;    // [p * moves + m]: what m adds on its way into p
  std::vector<std::uint16_t> shift_back;  // [p * moves + m]: its negation
  std::vector<ShiftFamily> families;      // when every move is in one; else empty
  Shift shift;

  template <ShiftSpace S>
  explicit ShiftTables(const S& space) : moves(space.moves()), rows(space.rows()) {
    const auto n_moves = static_cast<std::size_t>(moves);
    // One thread reads the space (in parallel it took longer: the main thread
    // waiting on its loop picked up the mapping of the planes, which a worker
    // does meanwhile, see shift_bfs()).
    std::vector<std::uint16_t> negation(kColumns);
    for (std::uint32_t c = 0; c < kColumns; ++c)
      negation[c] = static_cast<std::uint16_t>(Shift::negation(c));
    std::vector<std::uint32_t> next_row(std::size_t{rows} * n_moves);
    source_row.assign(next_row.size(), ~std::uint32_t{0});
    shift_in.resize(next_row.size());
    shift_back.resize(next_row.size());
    for (std::uint32_t q = 0; q < rows; ++q)
      for (std::size_t m = 0; m < n_moves; ++m) {
        const std::uint32_t p = space.row_step(q, static_cast<int>(m));
        const std::uint32_t add = space.shift(q, static_cast<int>(m));
        if (p >= rows || source_row[p * n_moves + m] != ~std::uint32_t{0})
          throw std::invalid_argument("shift_bfs: a move does not permute the rows");
        if (add >= kColumns) throw std::invalid_argument("shift_bfs: a shift is not a column");
        next_row[q * n_moves + m] = p;
        source_row[p * n_moves + m] = q;
        shift_in[p * n_moves + m] = static_cast<std::uint16_t>(add);
        shift_back[p * n_moves + m] = negation[add];
      }
    find_families(next_row);
  }

  // Column c plus the vector v, digit by digit.
  std::uint32_t add(std::uint32_t c, std::uint32_t v) const { return Shift::sum(c, v); }

 private:
  // Every move in a family, or `families` left empty.
  void find_families(const std::vector<std::uint32_t>& next_row) {
    const auto n_moves = static_cast<std::size_t>(moves);
    std::vector<bool> covered(n_moves, false);
    for (int g = 0; g < moves; ++g) {
      if (covered[static_cast<std::size_t>(g)]) continue;
      ShiftFamily family;
      family.order = row_cycles(next_row, moves, g, kMaxFamilyOrder, family.rows);
      if (family.order == 0) {
        families.clear();
        return;
      }
      // power[r]: g^j(r) for j = 1, 2, ...; the moves that act like it join.
      std::vector<std::uint32_t> power(rows);
      for (std::uint32_t r = 0; r < rows; ++r) power[r] = r;
      for (std::uint32_t j = 1; j < family.order; ++j) {
        for (std::uint32_t r = 0; r < rows; ++r) power[r] = next_row[power[r] * n_moves + g];
        for (int m = 0; m < moves; ++m) {
          if (covered[static_cast<std::size_t>(m)]) continue;
          bool same = true;
          for (std::uint32_t r = 0; r < rows && same; ++r)
            same = next_row[r * n_moves + static_cast<std::size_t>(m)] == power[r];
          if (!same) continue;
          covered[static_cast<std::size_t>(m)] = true;
          family.moves.push_back(m);
          family.powers.push_back(j);
        }
      }
      if (family.moves.size() > kMaxFamilyOrder) {  // moves alike on the rows: no plans
        families.clear();
        return;
      }
      plan(family);
      families.push_back(std::move(family));
    }
  }

  // What each row of each cycle collects: unshifted rows, and terms shared
  // by the rows that want the same shift of the same sources.
  void plan(ShiftFamily& family) const {
    const auto n_moves = static_cast<std::size_t>(moves);
    const std::uint32_t n = family.order;
    family.plain.assign(family.rows.size(), 0);
    family.wants.assign(family.rows.size(), 0);
    for (std::size_t cycle = 0; cycle < family.cycles(); ++cycle) {
      family.first_term.push_back(static_cast<std::uint32_t>(family.terms.size()));
      const std::uint32_t* row = family.rows.data() + cycle * n;
      for (std::uint32_t k = 0; k < n; ++k) {
        // Sources of row k grouped by the shift they bring.
        std::array<ShiftFamily::Term, kMaxFamilyOrder> wanted_at;
        auto wanted = std::span(wanted_at).first(0);
        for (std::size_t i = 0; i < family.moves.size(); ++i) {
          const std::uint32_t from = (k + n - family.powers[i]) % n;
          const std::uint16_t v =
              shift_in[row[k] * n_moves + static_cast<std::size_t>(family.moves[i])];
          if (v == 0) {
            family.plain[cycle * n + k] |= static_cast<std::uint8_t>(1U << from);
            continue;
          }
          const auto bit = static_cast<std::uint8_t>(1U << from);
          auto same = std::find_if(wanted.begin(), wanted.end(),
                                   [&](const ShiftFamily::Term& t) { return t.shift == v; });
          if (same == wanted.end()) {
            wanted_at[wanted.size()] = {v, bit};
            wanted = std::span(wanted_at).first(wanted.size() + 1);
          } else
            same->sources |= bit;
        }
        for (const ShiftFamily::Term& t : wanted) {
          const auto begin = family.terms.begin() + family.first_term.back();
          const auto index = std::find_if(begin, family.terms.end(),
                                          [&](const ShiftFamily::Term& u) {
                                            return u.shift == t.shift && u.sources == t.sources;
                                          }) -
                             begin;
          if (begin + index == family.terms.end()) family.terms.push_back(t);
          family.wants[cycle * n + k] |= std::uint64_t{1} << index;
        }
      }
      if (family.terms.size() - family.first_term.back() > 64)
        throw std::length_error("shift_bfs: more than 64 terms in a cycle");
    }
    family.first_term.push_back(static_cast<std::uint32_t>(family.terms.size()));
  }
};

template <unsigned Radix, unsigned Digits>
class ShiftLevels : public RowPlanes {
 public:
  using Tables = ShiftTables<Radix, Digits>;
  using Shift = typename Tables::Shift;
  using Row = typename Shift::Row;
  static constexpr std::uint32_t kWords = Shift::kRowWords;

  ShiftLevels(const Tables& tables, std::array<RowBitmap, 3> planes)
      : RowPlanes(std::move(planes), tables.rows, Tables::kColumns), tables_(tables) {
    for (std::uint32_t c = 0; c < Tables::kColumns; ++c)
      valid_[c / 64] |= std::uint64_t{1} << (c % 64);
  }

  // Row p of the next frontier from p's sources, one move at a time;
  // returns its number of states.
  std::uint32_t expand_row(std::uint32_t p, DirectionPolicy policy, RowWork& work) {
    std::uint64_t* out = next_.row(p);
    std::uint32_t fresh = 0;
    if (unvisited_[p] != 0 && has_source(p)) fresh = collect(p, policy, work, out);
    if (fresh == 0) clear_next(p);
    next_count_[p] = fresh;
    return fresh;
  }

  // The rows of cycle `index` of `family` collect what the family's moves
  // bring from the cycle's other rows; the family given first overwrites
  // the rows' old contents. The family given last keeps only new states,
  // marks them visited and returns how many (else 0).
  std::uint64_t expand_cycle(const ShiftFamily& family, std::size_t index, bool first, bool last,
                             RowWork& work) {
    const std::uint32_t n = family.order;
    const std::uint32_t* rows = family.rows.data() + index * n;
    std::uint32_t sources = 0;
    for (std::uint32_t k = 0; k < n; ++k) sources += frontier_count_[rows[k]];
    if (sources != 0) {
      work.cycled += n * family.moves.size();
      return gather(family, index, first, last);
    }
    if (first)
      for (std::uint32_t k = 0; k < n; ++k) clear_next(rows[k]);
    std::uint64_t fresh = 0;
    if (last)
      for (std::uint32_t k = 0; k < n; ++k) fresh += finish_row(rows[k]);
    return fresh;
  }

 private:
  // The cycle's rows gather their terms; as expand_cycle.
  std::uint64_t gather(const ShiftFamily& family, std::size_t index, bool first, bool last) {
    const std::uint32_t n = family.order;
    const std::uint32_t* rows = family.rows.data() + index * n;
    std::array<Row, kMaxFamilyOrder + 1> from;  // the cycle's rows, then an empty one
    for (std::uint32_t k = 0; k < n; ++k) Shift::load(frontier_.row(rows[k]), from[k]);
    from[n] = from[0] ^ from[0];
    const std::uint32_t first_term = family.first_term[index];
    const std::uint32_t terms = family.first_term[index + 1] - first_term;
    std::array<Row, 64> shifted;
    std::uint64_t fresh = 0;
    for (std::uint32_t t = 0; t < terms; ++t) {
      const ShiftFamily::Term& term = family.terms[first_term + t];
      ored(from, term.sources, n, shifted[t]);
      tables_.shift.apply(term.shift, shifted[t]);
    }
    for (std::uint32_t k = 0; k < n; ++k) {
      Row found;
      ored(from, family.plain[index * n + k], n, found);
      for (std::uint64_t w = family.wants[index * n + k]; w != 0; w &= w - 1)
        found |= shifted[static_cast<std::size_t>(std::countr_zero(w))];
      std::uint64_t* out = next_.row(rows[k]);
      if (!first) {
        Row before;
        Shift::load(out, before);
        found |= before;
      }
      if (last) fresh += keep_new(rows[k], found);
      Shift::store(found, out);
    }
    return fresh;
  }

  // `found` loses row p's visited states, which gain the rest; returns how
  // many are new.
  std::uint32_t keep_new(std::uint32_t p, Row& found) {
    Row seen;
    Shift::load(visited_.row(p), seen);
    found &= ~seen;
    Shift::store(seen | found, visited_.row(p));
    std::uint32_t fresh = 0;
    for (std::uint32_t w = 0; w < kWords; ++w)
      fresh += static_cast<std::uint32_t>(std::popcount(found[w]));
    unvisited_[p] -= fresh;
    next_count_[p] = fresh;
    return fresh;
  }

  // The OR of the rows in `which` (from[empty] when none).
  static void ored(const std::array<Row, kMaxFamilyOrder + 1>& from, unsigned which,
                   std::uint32_t empty, Row& sum) {
    sum = from[which == 0 ? empty : static_cast<std::size_t>(std::countr_zero(which))];
    for (unsigned bits = which & (which - 1); bits != 0; bits &= bits - 1)
      sum |= from[static_cast<std::size_t>(std::countr_zero(bits))];
  }

  bool has_source(std::uint32_t p) const {
    const std::uint32_t* sources = tables_.source_row.data() + std::size_t{p} * moves();
    std::uint32_t any = 0;
    for (std::size_t m = 0; m < moves(); ++m) any |= frontier_count_[sources[m]];
    return any != 0;
  }

  std::size_t moves() const { return static_cast<std::size_t>(tables_.moves); }

  std::uint32_t collect(std::uint32_t p, DirectionPolicy policy, RowWork& work,
                        std::uint64_t* out) {
    std::array<std::uint64_t, kWords> open;
    const std::uint64_t* seen = visited_.row(p);
    for (std::uint32_t w = 0; w < kWords; ++w) open[w] = ~seen[w] & valid_[w];
    std::uint32_t left = unvisited_[p];
    for (std::size_t m = 0; m < moves() && left != 0; ++m) {
      const std::size_t at = std::size_t{p} * moves() + m;
      const std::uint32_t q = tables_.source_row[at];
      const std::uint32_t from = frontier_count_[q];
      if (from == 0) continue;
      if (policy == DirectionPolicy::Auto && std::min(from, left) > kBitsPerShift) {
        left -= shift_row(q, tables_.shift_in[at], open);
        ++work.permuted;
      } else if (policy == DirectionPolicy::TopDown ||
                 (policy == DirectionPolicy::Auto && from <= left)) {
        left -= push_row(q, tables_.shift_in[at], open);
        ++work.pushed;
      } else {
        left -= pull_row(q, tables_.shift_back[at], open);
        ++work.pulled;
      }
    }
    const std::uint32_t fresh = unvisited_[p] - left;
    if (fresh == 0) return 0;
    std::uint64_t* mark = visited_.row(p);
    for (std::uint32_t w = 0; w < kWords; ++w) {
      out[w] = ~mark[w] & valid_[w] & ~open[w];
      mark[w] |= out[w];
    }
    unvisited_[p] = left;
    return fresh;
  }

  // Frontier row q's states, shifted by v, leave `open`; returns how many
  // were open.
  std::uint32_t push_row(std::uint32_t q, std::uint32_t v,
                         std::array<std::uint64_t, kWords>& open) const {
    const std::uint64_t* from = frontier_.row(q);
    std::uint32_t found = 0;
    for (std::uint32_t w = 0; w < kWords; ++w)
      for (std::uint64_t bits = from[w]; bits != 0; bits &= bits - 1) {
        const std::uint32_t c =
            tables_.add(w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)), v);
        const std::uint64_t mask = std::uint64_t{1} << (c % 64);
        found += (open[c / 64] & mask) != 0 ? 1 : 0;
        open[c / 64] &= ~mask;
      }
    return found;
  }

  // The open columns whose column minus the shift (v is its negation) is
  // in frontier row q leave `open`; returns how many.
  std::uint32_t pull_row(std::uint32_t q, std::uint32_t v,
                         std::array<std::uint64_t, kWords>& open) const {
    const std::uint64_t* from = frontier_.row(q);
    std::uint32_t found = 0;
    for (std::uint32_t w = 0; w < kWords; ++w) {
      std::uint64_t hit = 0;
      for (std::uint64_t bits = open[w]; bits != 0; bits &= bits - 1) {
        const int b = std::countr_zero(bits);
        const std::uint32_t c = tables_.add(w * 64 + static_cast<std::uint32_t>(b), v);
        hit |= ((from[c / 64] >> (c % 64)) & 1U) << b;
      }
      open[w] &= ~hit;
      found += static_cast<std::uint32_t>(std::popcount(hit));
    }
    return found;
  }

  // Frontier row q shifted as a whole; its states leave `open`.
  std::uint32_t shift_row(std::uint32_t q, std::uint32_t v,
                          std::array<std::uint64_t, kWords>& open) const {
    Row row;
    Shift::load(frontier_.row(q), row);
    tables_.shift.apply(v, row);
    std::array<std::uint64_t, kWords> moved;
    Shift::store(row, moved.data());
    std::uint32_t found = 0;
    for (std::uint32_t w = 0; w < kWords; ++w) {
      found += static_cast<std::uint32_t>(std::popcount(moved[w] & open[w]));
      open[w] &= ~moved[w];
    }
    return found;
  }

  const Tables& tables_;
  std::array<std::uint64_t, kWords> valid_{};
};

// Cycles pay once the frontier and the unvisited states both exceed this
// many per row on average (pocket cube HTM: a cycle level costs about the
// same however full it is).
inline constexpr std::uint64_t kDenseShiftRows = 1;

}  // namespace detail

// BFS from `sources` (row * columns + column, all at depth 0) over every
// reachable state. Columns: S::kRadix ^ S::kDigits, at most 1024.
template <ShiftSpace S>
ProductBfsResult shift_bfs(const S& space, std::span<const std::uint64_t> sources,
                           const ProductBfsOptions& options = {}) {
  constexpr unsigned kRadix = S::kRadix, kDigits = S::kDigits;
  using Tables = detail::ShiftTables<kRadix, kDigits>;
  Stopwatch clock;
  std::optional<const Tables> built;
  auto planes =
      detail::map_planes_while(space.rows(), Tables::kColumns, [&] { built.emplace(space); });
  const Tables& tables = *built;
  detail::ShiftLevels<kRadix, kDigits> state(tables, std::move(planes));
  const std::uint64_t dense = std::uint64_t{tables.rows} * detail::kDenseShiftRows;
  return detail::run_levels(tables, state, Tables::kColumns, sources, options, clock,
                            [&](std::uint64_t frontier, std::uint64_t unvisited) {
                              return !tables.families.empty() &&
                                     options.policy == DirectionPolicy::Auto &&
                                     std::min(frontier, unvisited) > dense;
                            });
}

}  // namespace cubenum::bfs
