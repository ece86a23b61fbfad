#pragma once
// Move families for the row engine's dense levels (row_bfs.hpp).
//
// Where the moves fall into families {g^j : j in J} of generators g whose
// row cycles all have g's order n (a face turn, its half turn and its
// inverse), the rows fall into cycles r_0, r_1 = g(r_0), ..., and row r_k
// receives from each r_(k-j) by g^j, through the column permutation of
// that (row, move). A cycle is then built at once by one thread: sources
// that arrive through the same permutation are ORed before it is applied,
// a (permutation, sources) term that several rows of the cycle want is
// applied once, and sources through the identity need none. Pocket cube:
// a U cycle needs no permutation at all, and an R or F cycle two, since R2
// twists nothing and R and R' arriving from the two neighbours of a row
// twist alike.
//
// A space that says which moves are powers of which (a definition file's)
// is swept instead: MoveSweep below, for any permutations of the columns.
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

namespace cubenum::bfs {

// An action id that stands for the identity permutation of the columns.
inline constexpr std::uint32_t kIdentityAction = ~std::uint32_t{0};

inline constexpr std::uint32_t kMaxFamilyOrder = 8;

// The moves that act on the rows as powers g^j of one generator g, and what
// each row of each of g's cycles collects.
struct MoveFamily {
  std::uint32_t order = 0;            // of g on the rows: every cycle has this length
  std::vector<int> moves;             // the members
  std::vector<std::uint32_t> powers;  // powers[i]: moves[i] acts as g^powers[i]
  std::vector<std::uint32_t> rows;    // the cycles of g, `order` rows each: r, g(r), ...
  struct Term {
    std::uint32_t action;  // the permutation applied (an action id)
    std::uint8_t sources;  // the cycle's rows ORed before it (bit k: row k)
  };
  std::vector<std::uint32_t> first_term;  // [cycle], one past the end: the last entry
  std::vector<Term> terms;
  std::vector<std::uint8_t> plain;   // [cycle * order + k]: rows that come unpermuted
  std::vector<std::uint64_t> wants;  // [cycle * order + k]: the terms it adds (bit t)
  std::size_t cycles() const { return rows.size() / order; }
};

// A move g all of whose powers g^1 .. g^(order-1) are moves (order: g's
// order on the states). Row r_k of each of g's cycles on the rows (of
// length n, which divides the order) receives T_k, the union over j <
// order of g^j(F_(k-j)), F being the frontier rows. A running union around
// the cycle, acc <- F_k | g(acc), holds exactly T_k from its (order-1)th
// step on, since g^order is the identity: order + n - 2 permutations give
// every row of the cycle, against n (order - 1) a move at a time (turnstile:
// 10 against 30 for a cycle of 6 rows).
// What a space tells of move m (PoweredMoves in row_bfs.hpp): m is
// generator^power, and generator^order is the identity.
struct MovePower {
  int generator = 0;
  std::uint32_t power = 1;
  std::uint32_t order = 1;
};

struct MoveSweep {
  int generator = 0;                  // the move g
  std::uint32_t order = 0;            // of g on the states
  std::vector<std::uint32_t> rows;    // the cycles one after another: r, g(r), ...
  std::vector<std::uint32_t> starts;  // cycle i is rows[starts[i] .. starts[i + 1])
  std::size_t cycles() const { return starts.size() - 1; }
};

// The sweeps of every move's generator, or none unless each move is a
// power of a generator whose powers are all moves. generator_of(m) gives
// {g, the power of g that m is, g's order}; row_step(r, m) the row m takes
// r to.
template <class GeneratorOf, class RowStep>
std::vector<MoveSweep> find_sweeps(std::uint32_t rows, int moves, GeneratorOf&& generator_of,
                                   RowStep&& row_step) {
  std::vector<std::uint64_t> powers(static_cast<std::size_t>(moves), 0);  // bit j: g^j is a move
  for (int m = 0; m < moves; ++m) {
    const auto [g, power, order] = generator_of(m);
    if (g < 0 || g >= moves || order < 2 || order > 63 || power == 0 || power >= order) return {};
    const auto [gg, g_power, g_order] = generator_of(g);
    if (gg != g || g_power != 1 || g_order != order) return {};
    powers[static_cast<std::size_t>(g)] |= std::uint64_t{1} << power;
  }
  std::vector<MoveSweep> sweeps;
  for (int m = 0; m < moves; ++m) {
    const auto [g, power, order] = generator_of(m);
    if (g != m) continue;
    if (powers[static_cast<std::size_t>(g)] != (std::uint64_t{1} << order) - 2) return {};
    MoveSweep sweep{g, order, {}, {0}};
    std::vector<bool> seen(rows, false);
    for (std::uint32_t start = 0; start < rows; ++start) {
      if (seen[start]) continue;
      std::uint32_t r = start;
      do {
        seen[r] = true;
        sweep.rows.push_back(r);
        r = row_step(r, g);
      } while (r != start);
      sweep.starts.push_back(static_cast<std::uint32_t>(sweep.rows.size()));
    }
    sweeps.push_back(std::move(sweep));
  }
  return sweeps;
}

namespace detail {

// The cycles of move g on the rows (next_row[r * moves + m]: the row m
// takes r to), appended to `cycle_rows` one after another: r, g(r), ...
// Returns their common length, or 0 unless all have one length from 2 to
// max_length.
inline std::uint32_t row_cycles(const std::vector<std::uint32_t>& next_row, int moves, int g,
                                std::uint32_t max_length, std::vector<std::uint32_t>& cycle_rows) {
  const auto n_moves = static_cast<std::size_t>(moves);
  const auto rows = static_cast<std::uint32_t>(next_row.size() / n_moves);
  std::vector<bool> seen(rows, false);
  std::uint32_t order = 0;
  for (std::uint32_t start = 0; start < rows; ++start) {
    if (seen[start]) continue;
    std::uint32_t r = start, length = 0;
    do {
      seen[r] = true;
      cycle_rows.push_back(r);
      r = next_row[r * n_moves + static_cast<std::size_t>(g)];
      ++length;
    } while (r != start && length <= max_length);
    if (r != start || length < 2 || (order != 0 && length != order)) return 0;
    order = length;
  }
  return order;
}

// What each row of each cycle collects: unpermuted rows, and terms shared
// by the rows that want the same permutation of the same sources.
// action_of(q, m): the action id of move m on row q.
template <class ActionOf>
void plan(MoveFamily& family, ActionOf&& action_of) {
  const std::uint32_t n = family.order;
  family.plain.assign(family.rows.size(), 0);
  family.wants.assign(family.rows.size(), 0);
  for (std::size_t cycle = 0; cycle < family.cycles(); ++cycle) {
    family.first_term.push_back(static_cast<std::uint32_t>(family.terms.size()));
    const std::uint32_t* row = family.rows.data() + cycle * n;
    for (std::uint32_t k = 0; k < n; ++k) {
      // Sources of row k grouped by the permutation they come through.
      std::array<MoveFamily::Term, kMaxFamilyOrder> wanted_at;
      std::size_t wanted = 0;
      for (std::size_t i = 0; i < family.moves.size(); ++i) {
        const std::uint32_t from = (k + n - family.powers[i]) % n;
        const std::uint32_t action = action_of(row[from], family.moves[i]);
        const auto bit = static_cast<std::uint8_t>(1U << from);
        if (action == kIdentityAction) {
          family.plain[cycle * n + k] |= bit;
          continue;
        }
        auto same =
            std::find_if(wanted_at.begin(), wanted_at.begin() + static_cast<std::ptrdiff_t>(wanted),
                         [&](const MoveFamily::Term& t) { return t.action == action; });
        if (same == wanted_at.begin() + static_cast<std::ptrdiff_t>(wanted))
          wanted_at[wanted++] = {action, bit};
        else
          same->sources |= bit;
      }
      for (const MoveFamily::Term& t : std::span(wanted_at).first(wanted)) {
        const auto begin = family.terms.begin() + family.first_term.back();
        const auto index = std::find_if(begin, family.terms.end(),
                                        [&](const MoveFamily::Term& u) {
                                          return u.action == t.action && u.sources == t.sources;
                                        }) -
                           begin;
        if (begin + index == family.terms.end()) family.terms.push_back(t);
        family.wants[cycle * n + k] |= std::uint64_t{1} << index;
      }
    }
    if (family.terms.size() - family.first_term.back() > 64)
      throw std::length_error("row_bfs: more than 64 terms in a cycle");
  }
  family.first_term.push_back(static_cast<std::uint32_t>(family.terms.size()));
}

}  // namespace detail

// Every move in a family, with its plan, or an empty list if some move is
// in none. next_row[r * moves + m]: the row move m takes r to.
template <class ActionOf>
std::vector<MoveFamily> find_families(const std::vector<std::uint32_t>& next_row, int moves,
                                      ActionOf&& action_of) {
  const auto n_moves = static_cast<std::size_t>(moves);
  const auto rows = static_cast<std::uint32_t>(next_row.size() / n_moves);
  std::vector<MoveFamily> families;
  std::vector<bool> covered(n_moves, false);
  for (int g = 0; g < moves; ++g) {
    if (covered[static_cast<std::size_t>(g)]) continue;
    MoveFamily family;
    family.order = detail::row_cycles(next_row, moves, g, kMaxFamilyOrder, family.rows);
    if (family.order == 0) return {};
    // power[r]: g^j(r) for j = 1, 2, ...; the moves that act like it join.
    std::vector<std::uint32_t> power(rows);
    for (std::uint32_t r = 0; r < rows; ++r) power[r] = r;
    for (std::uint32_t j = 1; j < family.order; ++j) {
      for (std::uint32_t r = 0; r < rows; ++r)
        power[r] = next_row[power[r] * n_moves + static_cast<std::size_t>(g)];
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
    if (family.moves.size() > kMaxFamilyOrder) return {};  // moves alike on the rows: no plans
    detail::plan(family, action_of);
    families.push_back(std::move(family));
  }
  return families;
}

}  // namespace cubenum::bfs
