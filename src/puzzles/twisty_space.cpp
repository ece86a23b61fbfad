// The ranked state space of a definition file: orbits, the constraints the
// moves keep, the row/column layout, and the tables the row engine reads.
#include "cubenum/puzzles/twisty_space.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "cubenum/bfs/row_families.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/ranking.hpp"

namespace cubenum::twisty {
namespace {

constexpr std::uint8_t kFree = 0xFF;  // a position no part has filled yet

// The largest ranked space cubenum lays out (rows fit 32 bits, columns 16).
constexpr double kMaxStates = 0x1p48;

unsigned parity_of(std::span<const std::uint8_t> perm) {
  std::vector<bool> seen(perm.size(), false);
  unsigned parity = 0;
  for (std::size_t i = 0; i < perm.size(); ++i) {
    if (seen[i]) continue;
    std::size_t length = 0;
    for (std::size_t j = i; !seen[j]; j = perm[j]) {
      seen[j] = true;
      ++length;
    }
    parity ^= (length + 1) & 1U;  // a cycle of even length is odd
  }
  return parity;
}

std::uint64_t binomial(unsigned n, unsigned k) {
  std::uint64_t r = 1;
  for (unsigned i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

// Rank of a k-subset of positions (bit i: position i) in colex order.
std::uint64_t combination_rank(const std::vector<bool>& chosen) {
  std::uint64_t rank = 0;
  unsigned k = 0;
  for (unsigned i = 0; i < chosen.size(); ++i)
    if (chosen[i]) rank += binomial(i, ++k);
  return rank;
}

// The largest potential (see Orbit) the orbit's twists have: for each
// divisor d of the radix, from the largest, phi is propagated from position
// 0 along every move and checked; the pieces of one kind must also share
// their base (identical pieces are told apart by nothing else). Then the
// digits become free parts: radix / d values, moved by
// (phi(from) + add - phi(to)) / d.
void find_potential(Orbit& o, const std::vector<std::uint8_t>& solved_digits) {
  const std::size_t k = o.size();
  for (unsigned d = o.radix; d > 1; --d) {
    if (o.radix % d != 0) continue;
    std::vector<int> phi(k, -1);
    std::vector<std::size_t> queue{0};
    phi[0] = 0;
    bool ok = true;
    for (std::size_t head = 0; head < queue.size() && ok; ++head) {
      const std::size_t j = queue[head];
      for (std::size_t m = 0; m < o.from.size() && ok; ++m)
        for (std::size_t i = 0; i < k && ok; ++i) {
          if (o.from[m][i] != j) continue;  // the piece at j moves to i
          const int want = static_cast<int>((static_cast<unsigned>(phi[j]) + o.add[m][i]) % d);
          if (phi[i] < 0) {
            phi[i] = want;
            queue.push_back(i);
          } else {
            ok = phi[i] == want;
          }
        }
    }
    if (!ok || queue.size() != k) continue;
    std::vector<int> base(o.kinds(), -1);
    for (std::size_t i = 0; i < k && ok; ++i) {
      const int b = static_cast<int>((solved_digits[i] + d - static_cast<unsigned>(phi[i])) % d);
      int& kind_base = base[o.kind[i]];
      if (kind_base >= 0 && kind_base != b) ok = false;
      kind_base = b;
    }
    if (!ok) continue;
    o.potential = d;
    o.phi.assign(phi.begin(), phi.end());
    o.kind_base.assign(base.begin(), base.end());
    const unsigned free = o.radix / d;
    for (std::size_t m = 0; m < o.from.size(); ++m)
      for (std::size_t i = 0; i < k; ++i) {
        const int shift = (phi[o.from[m][i]] + o.add[m][i] - phi[i]) / static_cast<int>(d);
        o.add[m][i] = static_cast<std::uint8_t>((shift % static_cast<int>(free) + free) % free);
      }
    o.radix = free;
    return;
  }
}

std::string plural(std::uint64_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

}  // namespace

// A digit (twist / step) as the free part of a piece of kind `kind` at
// position i, and back: digit = phi(i) + base(kind) + potential * free,
// mod potential * radix.
unsigned Orbit::free_digit(std::size_t i, unsigned of_kind, unsigned digit) const {
  if (potential == 1) return digit;
  const unsigned full = radix * potential;
  return ((digit + 2 * full - phi[i] - kind_base[of_kind]) % full) / potential;
}

unsigned Orbit::full_digit(std::size_t i, unsigned of_kind, unsigned free) const {
  if (potential == 1) return free;
  return (phi[i] + kind_base[of_kind] + potential * free) % (radix * potential);
}

bool Orbit::fits(std::size_t i, unsigned of_kind, unsigned digit) const {
  return potential == 1 ||
         (digit + potential - phi[i] % potential) % potential == kind_base[of_kind];
}

TwistySpace::TwistySpace(const Definition& def, std::vector<Move> moves,
                         const SpaceOptions& options)
    : def_(def), moves_(std::move(moves)) {
  if (moves_.empty()) throw InputError(def_.file, 0, "no moves to search with");
  // Inverses: the move whose effect undoes m (the powers of a move include
  // its inverse, and --quarter keeps it).
  const Arrangement id = def_.identity();
  for (const Move& m : moves_) {
    int inverse = -1;
    for (std::size_t j = 0; j < moves_.size() && inverse < 0; ++j)
      if (apply(def_.sets, m.effect, moves_[j].effect) == id) inverse = static_cast<int>(j);
    if (inverse < 0) throw std::logic_error("twisty: a move without its inverse");
    inverse_.push_back(inverse);
  }
  find_orbits(def_);
  choose_layout(options);
  find_parities();
  find_contexts();
  table_bytes_ = count_table_bytes(options);
  if (options.before_tables) options.before_tables(*this);
  if (options.tables) build_tables(options);
  solved_rank_ = rank(def_.solved);
}

TwistySpace::~TwistySpace() = default;

// ---- orbits and their constraints

void TwistySpace::find_orbits(const Definition& def) {
  for (unsigned s = 0; s < def.sets.size(); ++s) {
    const PieceSet& set = def.sets[s];
    std::vector<unsigned> root(set.slots);
    std::iota(root.begin(), root.end(), 0U);
    auto find = [&](unsigned x) {
      while (root[x] != x) x = root[x] = root[root[x]];
      return x;
    };
    for (const Move& m : moves_)
      for (unsigned i = 0; i < set.slots; ++i) {
        const unsigned a = find(i), b = find(m.effect.perm[s][i]);
        if (a != b) root[std::max(a, b)] = std::min(a, b);
      }
    for (unsigned first = 0; first < set.slots; ++first) {
      if (find(first) != first) continue;
      Orbit o;
      o.set = s;
      for (unsigned i = first; i < set.slots; ++i)
        if (find(i) == first) o.slots.push_back(static_cast<std::uint8_t>(i));
      // Kinds: the pieces in the orbit, in increasing order of their numbers.
      std::vector<std::uint8_t> pieces;
      for (std::uint8_t slot : o.slots) pieces.push_back(def.solved.perm[s][slot]);
      o.piece = pieces;
      std::sort(o.piece.begin(), o.piece.end());
      o.piece.erase(std::unique(o.piece.begin(), o.piece.end()), o.piece.end());
      o.count.assign(o.piece.size(), 0);
      for (std::uint8_t p : pieces) {
        const auto k = static_cast<std::uint8_t>(
            std::lower_bound(o.piece.begin(), o.piece.end(), p) - o.piece.begin());
        o.kind.push_back(k);
        ++o.count[k];
      }
      // Where each move takes the orbit's pieces from.
      std::vector<int> position(set.slots, -1);
      for (std::size_t i = 0; i < o.slots.size(); ++i) position[o.slots[i]] = static_cast<int>(i);
      for (const Move& m : moves_) {
        std::vector<std::uint8_t> from;
        for (std::uint8_t slot : o.slots)
          from.push_back(static_cast<std::uint8_t>(position[m.effect.perm[s][slot]]));
        o.from.push_back(std::move(from));
      }
      // Twists: the step every twist keeps, then the sum the moves keep.
      o.orientations = set.orientations;
      const unsigned om = set.orientations;
      unsigned step = om;
      for (const Move& m : moves_)
        for (std::uint8_t slot : o.slots) step = std::gcd(step, unsigned{m.effect.ori[s][slot]});
      const unsigned first_twist = def.solved.ori[s][o.slots[0]];
      for (std::uint8_t slot : o.slots)
        step = std::gcd(step, (def.solved.ori[s][slot] + om - first_twist) % om);
      if (step == 0 || step == om) step = om;  // twists never change
      o.step = step;
      o.radix = om / step;
      o.offset = first_twist % step;
      for (const Move& m : moves_) {
        std::vector<std::uint8_t> add;
        for (std::uint8_t slot : o.slots)
          add.push_back(static_cast<std::uint8_t>(o.radix == 1 ? 0 : m.effect.ori[s][slot] / step));
        o.add.push_back(std::move(add));
      }
      if (o.radix > 1) {
        std::vector<std::uint8_t> solved_digits;
        for (std::uint8_t slot : o.slots)
          solved_digits.push_back(
              static_cast<std::uint8_t>(((def.solved.ori[s][slot] + om - o.offset) % om) / step));
        find_potential(o, solved_digits);
        // The sum of the (free) digits the moves keep.
        unsigned modulus = o.radix;
        for (const auto& add : o.add)
          modulus = std::gcd(modulus, std::accumulate(add.begin(), add.end(), 0U) % o.radix);
        o.sum_modulus = modulus == 0 ? o.radix : modulus;
        unsigned sum = 0;
        for (std::size_t i = 0; i < o.size(); ++i)
          sum += o.free_digit(i, o.kind[i], solved_digits[i]);
        o.sum_target = sum % o.sum_modulus;
      }
      o.has_parity = o.size() >= 2 && o.kinds() == o.size();
      if (o.has_parity) o.solved_parity = parity_of(o.kind);
      orbits_.push_back(std::move(o));
    }
  }
  find_couplings();
  for (const Orbit& o : orbits_) {
    base_.push_back(base_.empty() ? 0 : base_.back() + orbits_[base_.size() - 1].size());
    if (o.has_parity && o.size() > 20)
      throw InputError(def.file, 0,
                       fmt::format("set {} has {} distinct pieces in one orbit: too many states "
                                   "to enumerate",
                                   def.sets[o.set].name, o.size()));
  }
}

// Orbits whose pieces follow an earlier orbit's distinct pieces: a
// bijection beta of the positions with from_B[m][beta(i)] =
// beta(from_A[m][i]) for every move, found from each choice of beta(0)
// by propagation along the moves.
void TwistySpace::find_couplings() {
  for (std::size_t b = 0; b < orbits_.size(); ++b) {
    Orbit& follower = orbits_[b];
    if (follower.kinds() < 2) continue;
    const std::size_t k = follower.size();
    for (std::size_t a = 0; a < b && follower.coupled_to < 0; ++a) {
      const Orbit& leader = orbits_[a];
      if (leader.size() != k || leader.kinds() != k || leader.coupled_to >= 0) continue;
      for (std::size_t start = 0; start < k && follower.coupled_to < 0; ++start) {
        std::vector<int> beta(k, -1);
        std::vector<bool> used(k, false);
        std::vector<std::size_t> queue{0};
        beta[0] = static_cast<int>(start);
        used[start] = true;
        bool ok = true;
        for (std::size_t head = 0; head < queue.size() && ok; ++head) {
          const std::size_t i = queue[head];
          for (std::size_t m = 0; m < moves_.size() && ok; ++m) {
            const std::size_t j = leader.from[m][i];
            const int image = follower.from[m][static_cast<std::size_t>(beta[i])];
            if (beta[j] < 0) {
              ok = !used[static_cast<std::size_t>(image)];
              beta[j] = image;
              used[static_cast<std::size_t>(image)] = true;
              queue.push_back(j);
            } else {
              ok = beta[j] == image;
            }
          }
        }
        if (!ok || queue.size() != k) continue;
        follower.coupled_to = static_cast<int>(a);
        follower.beta.assign(beta.begin(), beta.end());
        follower.follow.assign(k, 0);
        for (std::size_t i = 0; i < k; ++i)
          follower.follow[leader.kind[i]] = follower.kind[static_cast<std::size_t>(beta[i])];
        follower.has_parity = false;  // its arrangement is the leader's
      }
    }
  }
}

// The kinds of a coupled orbit's pieces, from its leader's.
void TwistySpace::follow_leaders(Position& p) const {
  for (std::size_t o = 0; o < orbits_.size(); ++o) {
    const Orbit& follower = orbits_[o];
    if (follower.coupled_to < 0) continue;
    const auto a = static_cast<std::size_t>(follower.coupled_to);
    for (std::size_t i = 0; i < follower.size(); ++i)
      p.kind[base_[o] + follower.beta[i]] = follower.follow[p.kind[base_[a] + i]];
  }
}

// Parities the moves tie: Gaussian elimination over GF(2) of the moves'
// parities on the orbits of distinct pieces, the orbits in the order of
// their last part, so that an orbit's parity is fixed only by orbits
// decoded before it.
void TwistySpace::find_parities() {
  std::vector<unsigned> order;
  std::vector<std::size_t> last_part(orbits_.size(), 0);
  for (std::size_t i = 0; i < parts_.size(); ++i)
    if (parts_[i].kind == Part::Kind::Pieces) last_part[parts_[i].orbit] = i;
  for (unsigned o = 0; o < orbits_.size(); ++o)
    if (orbits_[o].has_parity) order.push_back(o);
  std::sort(order.begin(), order.end(),
            [&](unsigned a, unsigned b) { return last_part[a] < last_part[b]; });
  std::vector<std::vector<std::uint8_t>> rows;
  for (std::size_t m = 0; m < moves_.size(); ++m) {
    std::vector<std::uint8_t> row;
    for (unsigned o : order)
      row.push_back(static_cast<std::uint8_t>(parity_of(orbits_[o].from[m])));
    rows.push_back(std::move(row));
  }
  std::vector<int> pivot_row(order.size(), -1);
  std::size_t rank = 0;
  for (std::size_t c = 0; c < order.size() && rank < rows.size(); ++c) {
    std::size_t r = rank;
    while (r < rows.size() && rows[r][c] == 0) ++r;
    if (r == rows.size()) continue;
    std::swap(rows[r], rows[rank]);
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (i != rank && rows[i][c] != 0)
        for (std::size_t j = 0; j < order.size(); ++j) rows[i][j] ^= rows[rank][j];
    pivot_row[c] = static_cast<int>(rank++);
  }
  for (std::size_t c = 0; c < order.size(); ++c) {
    if (pivot_row[c] >= 0) continue;
    Orbit& o = orbits_[order[c]];
    o.parity_fixed = true;
    for (std::size_t p = 0; p < c; ++p)
      if (pivot_row[p] >= 0 && rows[static_cast<std::size_t>(pivot_row[p])][c] != 0)
        o.parity_sources.push_back(order[p]);
    Part& last = parts_[last_part[order[c]]];
    last.halved = true;
    last.size /= 2;
  }
  // (The product of all parts is at most 2^48, checked by whole_parts.)
  std::uint64_t row_count = 1, columns = 1;
  for (std::size_t i = 0; i < parts_.size(); ++i)
    (i < row_parts_ ? row_count : columns) *= parts_[i].size;
  if (row_count > std::numeric_limits<std::uint32_t>::max())
    throw InputError(
        def_.file, 0,
        fmt::format("{} ranked states would need {} for the BFS (2 bits a state), and make {} rows "
                    "of {} columns, more than the {} rows cubenum lays out",
                    row_count * columns, progress::bytes_text(double(row_count * columns) / 4),
                    row_count, columns, std::numeric_limits<std::uint32_t>::max()));
  rows_ = static_cast<std::uint32_t>(row_count);
  columns_ = static_cast<std::uint32_t>(columns);
}

// ---- the layout

namespace {

// The subset of `parts` with the largest product within `cap` (exhaustive
// for up to 16 parts, else greedy, biggest first); returns the product.
std::uint64_t best_subset(const std::vector<Part>& parts, std::uint64_t cap,
                          std::vector<bool>& chosen) {
  const std::size_t n = parts.size();
  chosen.assign(n, false);
  std::uint64_t best = 0;
  if (n <= 16) {
    std::vector<bool> in(n);
    for (std::uint32_t mask = 0; mask < (1U << n); ++mask) {
      std::uint64_t product = 1;
      for (std::size_t i = 0; i < n; ++i) {
        in[i] = (mask >> i & 1U) != 0;
        if (in[i] && product <= cap)
          product = parts[i].size > cap ? cap + 1 : product * parts[i].size;
      }
      if (product <= cap && product > best) best = product, chosen = in;
    }
    return best;
  }
  std::vector<std::size_t> by_size(n);
  std::iota(by_size.begin(), by_size.end(), std::size_t{0});
  std::sort(by_size.begin(), by_size.end(),
            [&](std::size_t a, std::size_t b) { return parts[a].size > parts[b].size; });
  best = 1;
  for (std::size_t i : by_size)
    if (parts[i].size <= cap / best) best *= parts[i].size, chosen[i] = true;
  return best;
}

}  // namespace

// Every orbit's pieces (when there are two kinds or more) and twists (when
// they can change) as whole parts.
std::vector<Part> TwistySpace::whole_parts() const {
  std::vector<Part> whole;
  double total = 1;
  for (unsigned i = 0; i < orbits_.size(); ++i) {
    const Orbit& o = orbits_[i];
    if (o.kinds() > 1 && o.coupled_to < 0) {
      const std::uint64_t size = multinomial(o.count);
      whole.push_back({Part::Kind::Pieces, i, 0, o.kinds(), false, size});
      total *= size == 0 ? kMaxStates * 2 : double(size);
    }
    if (o.radix > 1) {
      const double size =
          std::pow(double(o.radix), double(o.size() - 1)) * double(o.radix / o.sum_modulus);
      whole.push_back({Part::Kind::Twists, i, 0, 0, false,
                       size < kMaxStates ? static_cast<std::uint64_t>(size) : 0});
      total *= size;
    }
  }
  if (total > kMaxStates)
    throw InputError(def_.file, 0,
                     fmt::format("about {:.3g} states: more than cubenum can enumerate "
                                 "(at most 2^48)",
                                 total));
  return whole;
}

namespace {

// The cost model behind the layout (seconds, measured on dino, lo33 and
// skewb with one thread): each (row, move) pair of each level costs about
// kPairSeconds of bookkeeping, and each entry of a column permutation
// about kEntrySeconds to build. The states' own work is the same in every
// layout.
constexpr double kPairSeconds = 30e-9;
constexpr double kEntrySeconds = 100e-9;
constexpr double kLevels = 15;

struct Layout {
  std::vector<Part> row, column;
  double cost = 0;
};

}  // namespace

// Column parts: the whole parts with the largest product within the limit;
// or an arrangement cut in two, its last kinds in the column (with the
// whole parts that still fit) and its first in the row. A cut column's
// permutations depend on which slots the row's pieces take (its context),
// so the cut is chosen by the cost model: fewer rows against more tables.
void TwistySpace::choose_layout(const SpaceOptions& options) {
  const std::vector<Part> whole = whole_parts();
  double total = 1;
  for (const Part& p : whole) total *= double(p.size);
  const std::uint64_t limit = options.max_columns;
  const double moves = double(moves_.size());
  std::vector<bool> in_column;
  Layout best;
  const std::uint64_t columns = best_subset(whole, limit, in_column);
  for (std::size_t i = 0; i < whole.size(); ++i)
    (in_column[i] ? best.column : best.row).push_back(whole[i]);
  best.cost = total / double(columns) * moves * kLevels * kPairSeconds;
  for (std::size_t x = 0; x < whole.size(); ++x) {
    if (whole[x].kind != Part::Kind::Pieces) continue;
    const Orbit& o = orbits_[whole[x].orbit];
    std::vector<Part> rest = whole;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(x));
    for (unsigned first = 1; first + 1 < o.kinds(); ++first) {
      const std::vector<std::uint8_t> tail(o.count.begin() + first, o.count.end());
      const auto free = std::accumulate(tail.begin(), tail.end(), 0U);
      const std::uint64_t chunk = multinomial(tail);
      if (chunk == 0 || chunk > limit) continue;
      std::vector<bool> with;
      const std::uint64_t others = best_subset(rest, limit / chunk, with);
      const double cols = double(chunk * others);
      // Contexts: the slots the row's pieces take, and a parity bit.
      const double contexts = double(binomial(static_cast<unsigned>(o.size()), free)) * 2;
      const double tables = contexts * moves * cols;
      if (tables * 2 > double(options.max_action_bytes)) continue;
      const double cost = total / cols * moves * kLevels * kPairSeconds + tables * kEntrySeconds;
      if (cost >= best.cost) continue;
      std::vector<std::uint8_t> head(o.count.begin(), o.count.begin() + first);
      head.push_back(static_cast<std::uint8_t>(free));
      best = Layout{{Part{Part::Kind::Pieces, whole[x].orbit, 0, first, false, multinomial(head)}},
                    {Part{Part::Kind::Pieces, whole[x].orbit, first, o.kinds(), false, chunk}},
                    cost};
      for (std::size_t i = 0; i < rest.size(); ++i)
        (with[i] ? best.column : best.row).push_back(rest[i]);
      cut_orbit_ = static_cast<int>(whole[x].orbit);
      cut_kinds_ = first;
    }
  }
  // Row parts, then column parts; a cut orbit's row part is first in the
  // row and its column part first in the column.
  parts_ = best.row;
  row_parts_ = parts_.size();
  parts_.insert(parts_.end(), best.column.begin(), best.column.end());
}

// ---- positions and their codes

namespace {
constexpr std::size_t kMaxParts = 64;
constexpr std::uint32_t kNoRow =
    ~std::uint32_t{0};  // 2^48 states have at most 48 parts of 2 or more
}  // namespace

// No part filled yet; an orbit of one kind of piece has no part and holds
// that kind everywhere.
Position TwistySpace::blank() const {
  const std::size_t n = orbits_.empty() ? 0 : base_.back() + orbits_.back().size();
  Position p{std::vector<std::uint8_t>(n, kFree), std::vector<std::uint8_t>(n, 0)};
  for (std::size_t o = 0; o < orbits_.size(); ++o)
    if (orbits_[o].kinds() == 1)
      std::fill_n(p.kind.begin() + static_cast<std::ptrdiff_t>(base_[o]), orbits_[o].size(), 0);
  return p;
}

unsigned TwistySpace::orbit_parity(const Position& p, unsigned orbit) const {
  return permutation_parity(
      std::span<const std::uint8_t>(p.kind.data() + base_[orbit], orbits_[orbit].size()));
}

// The parity the moves leave orbit `orbit` (parity_fixed) given its sources.
unsigned TwistySpace::required_parity(const Position& p, unsigned orbit) const {
  const Orbit& o = orbits_[orbit];
  unsigned parity = o.solved_parity;
  for (unsigned source : o.parity_sources)
    parity ^= orbit_parity(p, source) ^ orbits_[source].solved_parity;
  return parity;
}

void TwistySpace::decode_part(const Part& part, std::uint64_t value, Position& p) const {
  const Orbit& o = orbits_[part.orbit];
  const std::size_t k = o.size();
  if (part.kind == Part::Kind::Twists) {
    std::uint8_t* digit = p.digit.data() + base_[part.orbit];
    const unsigned q = o.sum_modulus;
    if (q == 1) {
      digits_unrank(value, o.radix, {digit, k});
      return;
    }
    const unsigned lasts = o.radix / q;  // values of the last digit
    digits_unrank(value / lasts, o.radix, {digit, k - 1});
    unsigned sum = 0;
    for (std::size_t i = 0; i + 1 < k; ++i) sum += digit[i];
    digit[k - 1] =
        static_cast<std::uint8_t>((o.sum_target + q - sum % q) % q + q * (value % lasts));
    return;
  }
  std::uint8_t* kind = p.kind.data() + base_[part.orbit];
  if (part.first_kind == 0) std::fill(kind, kind + k, kFree);
  std::array<std::uint8_t, 256> free, counts, labels;  // the first m, named + 1 used
  std::size_t m = 0;
  for (std::size_t i = 0; i < k; ++i)
    if (kind[i] == kFree) free[m++] = static_cast<std::uint8_t>(i);
  const unsigned named = part.end_kind - part.first_kind;
  unsigned placed = 0;
  for (unsigned j = 0; j < named; ++j) placed += counts[j] = o.count[part.first_kind + j];
  counts[named] = static_cast<std::uint8_t>(m - placed);  // the filler: kinds after this part
  multiset_unrank(part.halved ? 2 * value : value, {counts.data(), named + 1}, {labels.data(), m});
  for (std::size_t j = 0; j < m; ++j)
    if (labels[j] < named) kind[free[j]] = static_cast<std::uint8_t>(part.first_kind + labels[j]);
  if (part.halved && orbit_parity(p, part.orbit) != required_parity(p, part.orbit))
    std::swap(kind[free[m - 2]], kind[free[m - 1]]);
}

std::uint64_t TwistySpace::encode_part(const Part& part, const Position& p) const {
  const Orbit& o = orbits_[part.orbit];
  const std::size_t k = o.size();
  if (part.kind == Part::Kind::Twists) {
    const std::uint8_t* digit = p.digit.data() + base_[part.orbit];
    const unsigned q = o.sum_modulus;
    if (q == 1) return digits_rank({digit, k}, o.radix);
    return digits_rank({digit, k - 1}, o.radix) * (o.radix / q) + digit[k - 1] / q;
  }
  const std::uint8_t* kind = p.kind.data() + base_[part.orbit];
  const unsigned named = part.end_kind - part.first_kind;
  std::atomic<std::uint32_t>* memo =
      encoded_.empty() ? nullptr : encoded_[static_cast<std::size_t>(&part - parts_.data())].get();
  if (memo != nullptr) {
    // The memo's key: each slot's label + 1 (the part's kinds, then one
    // label for every later kind), 0 for a slot of an earlier part.
    std::uint32_t key = 0;
    for (std::size_t i = 0; i < k; ++i)
      key = key * (named + 2) + (kind[i] < part.first_kind
                                     ? 0
                                     : 1 + std::min<unsigned>(kind[i] - part.first_kind, named));
    const std::uint32_t known = memo[key].load(std::memory_order_relaxed);
    if (known != kUnknown) return known;
    const std::uint64_t rank = rank_pieces(part, kind);
    // Every thread that computes it stores the same value.
    memo[key].store(static_cast<std::uint32_t>(rank), std::memory_order_relaxed);
    return rank;
  }
  return rank_pieces(part, kind);
}

// The multiset rank of a pieces part's labels, in the slots of its orbit
// (`kind`) that earlier parts left.
std::uint64_t TwistySpace::rank_pieces(const Part& part, const std::uint8_t* kind) const {
  const Orbit& o = orbits_[part.orbit];
  const std::size_t k = o.size();
  const unsigned named = part.end_kind - part.first_kind;
  std::array<std::uint8_t, 256> counts, labels;  // the first named + 1, m used
  std::size_t m = 0;
  for (std::size_t i = 0; i < k; ++i)
    if (kind[i] >= part.first_kind)
      labels[m++] = static_cast<std::uint8_t>(std::min<unsigned>(kind[i] - part.first_kind, named));
  unsigned placed = 0;
  for (unsigned j = 0; j < named; ++j) placed += counts[j] = o.count[part.first_kind + j];
  counts[named] = static_cast<std::uint8_t>(m - placed);
  std::uint64_t rank = multiset_rank({labels.data(), m}, {counts.data(), named + 1});
  return part.halved ? rank / 2 : rank;
}

// A memo for each pieces part whose label patterns number at most 2^16
// (a rank costs a few hundred instructions; a look-up, one load).
void TwistySpace::make_encode_memos() {
  encoded_.resize(parts_.size());
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    const Part& part = parts_[i];
    if (part.kind != Part::Kind::Pieces || part.size > kUnknown) continue;
    const double patterns =
        std::pow(double(part.end_kind - part.first_kind + 2), double(orbits_[part.orbit].size()));
    if (patterns > double(1 << 16)) continue;
    const auto n = static_cast<std::size_t>(patterns);
    encoded_[i] = std::make_unique<std::atomic<std::uint32_t>[]>(n);
    for (std::size_t j = 0; j < n; ++j) encoded_[i][j].store(kUnknown, std::memory_order_relaxed);
  }
}

void TwistySpace::decode_parts(std::size_t first, std::size_t last, std::uint64_t value,
                               Position& p) const {
  std::array<std::uint64_t, kMaxParts> digits{};
  for (std::size_t i = last; i-- > first;) {
    digits[i] = value % parts_[i].size;
    value /= parts_[i].size;
  }
  for (std::size_t i = first; i < last; ++i) decode_part(parts_[i], digits[i], p);
}

std::uint64_t TwistySpace::encode_parts(std::size_t first, std::size_t last,
                                        const Position& p) const {
  std::uint64_t value = 0;
  for (std::size_t i = first; i < last; ++i)
    value = value * parts_[i].size + encode_part(parts_[i], p);
  return value;
}

void TwistySpace::apply_move(const Position& in, int m, Position& out) const {
  const auto move = static_cast<std::size_t>(m);
  for (std::size_t o = 0; o < orbits_.size(); ++o) {
    const Orbit& orbit = orbits_[o];
    const std::uint8_t* from = orbit.from[move].data();
    const std::uint8_t* add = orbit.add[move].data();
    const std::size_t b = base_[o], k = orbit.size();
    // Through local pointers: a byte written through a vector's element may
    // alias the vector itself, and every access would load its data again.
    const std::uint8_t* in_kind = in.kind.data() + b;
    std::uint8_t* out_kind = out.kind.data() + b;
    for (std::size_t i = 0; i < k; ++i) out_kind[i] = in_kind[from[i]];
    if (orbit.radix > 1) {
      const std::uint8_t* in_digit = in.digit.data() + b;
      std::uint8_t* out_digit = out.digit.data() + b;
      const unsigned radix = orbit.radix;
      for (std::size_t i = 0; i < k; ++i)
        out_digit[i] = static_cast<std::uint8_t>((in_digit[from[i]] + add[i]) % radix);
    }
  }
}

std::optional<Position> TwistySpace::from_arrangement(const Arrangement& a) const {
  Position p = blank();
  for (std::size_t o = 0; o < orbits_.size(); ++o) {
    const Orbit& orbit = orbits_[o];
    std::vector<std::uint8_t> count(orbit.kinds(), 0);
    unsigned sum = 0;
    for (std::size_t i = 0; i < orbit.size(); ++i) {
      const std::uint8_t slot = orbit.slots[i];
      const auto it =
          std::lower_bound(orbit.piece.begin(), orbit.piece.end(), a.perm[orbit.set][slot]);
      if (it == orbit.piece.end() || *it != a.perm[orbit.set][slot]) return std::nullopt;
      const auto kind = static_cast<std::uint8_t>(it - orbit.piece.begin());
      p.kind[base_[o] + i] = kind;
      ++count[kind];
      const unsigned twist =
          (a.ori[orbit.set][slot] + orbit.orientations - orbit.offset) % orbit.orientations;
      if (twist % orbit.step != 0 || !orbit.fits(i, kind, twist / orbit.step)) return std::nullopt;
      const unsigned free = orbit.free_digit(i, kind, twist / orbit.step);
      p.digit[base_[o] + i] = static_cast<std::uint8_t>(free);
      sum += free;
    }
    if (count != orbit.count || sum % orbit.sum_modulus != orbit.sum_target) return std::nullopt;
  }
  for (std::size_t o = 0; o < orbits_.size(); ++o)
    if (orbits_[o].parity_fixed &&
        orbit_parity(p, static_cast<unsigned>(o)) != required_parity(p, static_cast<unsigned>(o)))
      return std::nullopt;
  Position followed = p;
  follow_leaders(followed);
  if (followed.kind != p.kind) return std::nullopt;
  return p;
}

Arrangement TwistySpace::to_arrangement(const Position& position) const {
  Position p = position;
  follow_leaders(p);
  Arrangement a = def_.solved;
  for (std::size_t o = 0; o < orbits_.size(); ++o) {
    const Orbit& orbit = orbits_[o];
    for (std::size_t i = 0; i < orbit.size(); ++i) {
      const std::uint8_t slot = orbit.slots[i];
      a.perm[orbit.set][slot] = orbit.piece[p.kind[base_[o] + i]];
      const unsigned digit = orbit.full_digit(i, p.kind[base_[o] + i], p.digit[base_[o] + i]);
      a.ori[orbit.set][slot] = static_cast<std::uint8_t>(orbit.offset + orbit.step * digit);
    }
  }
  return a;
}

bool TwistySpace::contains(const Arrangement& a) const {
  return from_arrangement(a).has_value();
}

std::uint64_t TwistySpace::rank(const Arrangement& a) const {
  const std::optional<Position> p = from_arrangement(a);
  if (!p) throw std::invalid_argument("twisty: a position outside the ranked space");
  return encode_parts(0, row_parts_, *p) * columns_ + encode_parts(row_parts_, parts_.size(), *p);
}

Arrangement TwistySpace::unrank(std::uint64_t rank) const {
  Position p = blank();
  decode_parts(0, row_parts_, rank / columns_, p);
  decode_parts(row_parts_, parts_.size(), rank % columns_, p);
  return to_arrangement(p);
}

std::uint64_t TwistySpace::step(std::uint64_t rank, int m) const {
  Position p = blank(), q = blank();
  decode_parts(0, row_parts_, rank / columns_, p);
  decode_parts(row_parts_, parts_.size(), rank % columns_, p);
  apply_move(p, m, q);
  return encode_parts(0, row_parts_, q) * columns_ + encode_parts(row_parts_, parts_.size(), q);
}

// ---- the row engine's tables

// What a column permutation depends on besides the move: which slots of the
// cut orbit the row's pieces take (and the parity its column part must
// have), and the parity the row fixes for column-side orbits.
std::uint32_t TwistySpace::context_of(const Position& row) const {
  std::uint64_t context = 0;
  if (cut_orbit_ >= 0) {
    const auto cut = static_cast<unsigned>(cut_orbit_);
    const Orbit& o = orbits_[cut];
    const std::uint8_t* kind = row.kind.data() + base_[cut];
    std::vector<bool> taken(o.size());
    for (std::size_t i = 0; i < o.size(); ++i) taken[i] = kind[i] < cut_kinds_;
    context = combination_rank(taken);
    if (parts_[row_parts_].halved) {
      // The parity of the row's placement with the free slots filled in order.
      Position filled = row;
      std::uint8_t next = static_cast<std::uint8_t>(cut_kinds_);
      for (std::size_t i = 0; i < o.size(); ++i)
        if (!taken[i]) filled.kind[base_[cut] + i] = next++;
      context = context * 2 + (orbit_parity(filled, cut) ^ required_parity(row, cut));
    }
  }
  for (unsigned o : context_parities_) {
    unsigned bit = 0;
    for (unsigned source : orbits_[o].parity_sources)
      if (is_row_orbit(source)) bit ^= orbit_parity(row, source) ^ orbits_[source].solved_parity;
    context = context * 2 + bit;
  }
  return static_cast<std::uint32_t>(context);
}

bool TwistySpace::is_row_orbit(unsigned orbit) const {
  for (std::size_t i = row_parts_; i < parts_.size(); ++i)
    if (parts_[i].orbit == orbit && parts_[i].kind == Part::Kind::Pieces) return false;
  return true;
}

// The column contexts: which slots of the cut orbit the row's pieces take,
// and the parities the row fixes for column-side orbits.
void TwistySpace::find_contexts() {
  std::uint64_t contexts = 1;
  if (cut_orbit_ >= 0) {
    const Orbit& o = orbits_[static_cast<std::size_t>(cut_orbit_)];
    unsigned taken = 0;
    for (unsigned k = 0; k < cut_kinds_; ++k) taken += o.count[k];
    contexts =
        binomial(static_cast<unsigned>(o.size()), taken) * (parts_[row_parts_].halved ? 2 : 1);
  }
  for (unsigned o = 0; o < orbits_.size(); ++o) {
    if (!orbits_[o].parity_fixed || is_row_orbit(o) || static_cast<int>(o) == cut_orbit_) continue;
    for (unsigned source : orbits_[o].parity_sources)
      cut_parity_tied_ = cut_parity_tied_ || static_cast<int>(source) == cut_orbit_;
    bool from_row = false;
    for (unsigned source : orbits_[o].parity_sources) from_row = from_row || is_row_orbit(source);
    if (from_row) {
      context_parities_.push_back(o);
      contexts *= 2;
    }
  }
  parity_contexts_ = (cut_orbit_ >= 0 && parts_[row_parts_].halved ? 2U : 1U)
                     << context_parities_.size();
  if (contexts > (1U << 24))
    throw InputError(def_.file, 0, fmt::format("{} column contexts: too many", contexts));
  contexts_ = static_cast<std::uint32_t>(contexts);
}

// An upper bound of what build_tables allocates, and of the tables a search
// builds on first use, from the layout alone; each term is an allocation
// below (with malloc's 16 bytes a block where there are many blocks).
std::uint64_t TwistySpace::count_table_bytes(const SpaceOptions& options) const {
  const double rows = rows_, columns = columns_, contexts = contexts_;
  const double moves = double(moves_.size()), slots = contexts * moves;
  double bytes = 0;
  // Encoding memos: 4 bytes a label pattern (make_encode_memos).
  for (const Part& part : parts_) {
    if (part.kind != Part::Kind::Pieces || part.size > kUnknown) continue;
    const double patterns =
        std::pow(double(part.end_kind - part.first_kind + 2), double(orbits_[part.orbit].size()));
    if (patterns <= double(1 << 16)) bytes += patterns * 4 + 16;
  }
  bytes += double(parts_.size()) * 8;
  // A row's context, a context's row; the rows' steps.
  if (contexts_ > 1) bytes += rows * 4 + contexts * 4;
  if (rows_ > 1 && rows * moves <= double(options.max_row_table_entries)) bytes += rows * moves * 4;
  // Per (context, move): a network pointer, a once_flag, a table pointer,
  // the table it uses, an id.
  bytes += slots * (8 + sizeof(std::once_flag) + 8 + 8 + 4);
  // The contexts that occur (a vector grown by doubling). When the tables
  // of those are built up front: the first slot of each signature; for
  // each of theirs (at most max_action_bytes of tables), a unique slot and
  // where its context starts (vectors grown by doubling), and the map of
  // signatures: a node of a string and an index, the string's own block
  // when it is longer than 15 characters (the cut orbit's free positions
  // and three numbers, grown by doubling).
  bytes += contexts * 8;
  const double built = std::min(slots, double(options.max_action_bytes) / (columns * 2));
  const double key =
      cut_orbit_ < 0 ? 0 : 2 * (double(orbits_[std::size_t(cut_orbit_)].size()) + 26) + 32;
  bytes += slots * 8 + built * (16 + 16 + 96 + key);
  // One context's moves at once: which entries the inverses gave.
  bytes += moves * columns;
  // The column permutations, 2 bytes a column, built up front or on first use.
  bytes += slots * (columns * 2 + 16);
  // Beneš networks, when they fit: stages x bits / 8 bytes of masks each
  // (and the object, its pointer kept), routed on first use. (Routing one
  // takes 17 bytes a bit for a while, a thread's scratch like the search's
  // own: not counted.)
  std::uint64_t bits = 64;
  while (bits < columns_) bits *= 2;
  const double stages = 2 * std::countr_zero(bits) - 1;
  const double networks = slots * stages * double(bits) / 8;
  if (networks <= double(options.max_network_bytes) &&
      rows * columns >= double(options.min_network_states))
    bytes += networks + slots * (64 + 16);
  return static_cast<std::uint64_t>(std::ceil(bytes));
}

void TwistySpace::build_tables(const SpaceOptions& options) {
  make_encode_memos();
  const auto n_moves = moves_.size();
  if (contexts_ > 1) {
    context_of_row_.resize(rows_);
    context_row_ = std::make_unique<std::atomic<std::uint32_t>[]>(contexts_);
    for (std::uint32_t c = 0; c < contexts_; ++c) context_row_[c].store(kNoRow);
  }
  if (rows_ > 1 && std::uint64_t{rows_} * n_moves <= options.max_row_table_entries)
    row_table_.resize(std::size_t{rows_} * n_moves);
  if (contexts_ > 1 || !row_table_.empty()) {
    parallel_for_chunks(rows_, 256, [&](std::size_t begin, std::size_t end) {
      Position p = blank(), q = blank();
      for (std::size_t r = begin; r != end; ++r) {
        decode_parts(0, row_parts_, r, p);
        if (contexts_ > 1) {
          const std::uint32_t c = context_of(p);
          context_of_row_[r] = c;
          context_row_[c].store(static_cast<std::uint32_t>(r), std::memory_order_relaxed);
        }
        if (row_table_.empty()) continue;
        for (std::size_t m = 0; m < n_moves; ++m) {
          apply_move(p, static_cast<int>(m), q);
          row_table_[r * n_moves + m] = static_cast<std::uint32_t>(encode_parts(0, row_parts_, q));
        }
      }
    });
  }
  networks_ =
      std::make_unique<std::atomic<const BitPermutation*>[]>(std::size_t{contexts_} * n_moves);
  std::uint64_t bits = 64;
  while (bits < columns_) bits *= 2;
  const auto stages = static_cast<std::uint64_t>(2 * std::countr_zero(bits) - 1);
  networks_fit_ = double(contexts_) * double(n_moves) * double(stages * bits / 8) <=
                      double(options.max_network_bytes) &&
                  double(rows_) * double(columns_) >= double(options.min_network_states);
  // Networks of up to 32 words stay in registers; bigger ones stream their
  // masks, and cost more a word and stage (bench/core_bench.cpp).
  network_words_ = static_cast<std::uint32_t>(bits / 64);
  permute_nanoseconds_ =
      networks_fit_ ? (network_words_ <= 32 ? 0.25 : 0.4) * double(stages) * double(network_words_)
                    : std::numeric_limits<double>::infinity();
  const std::size_t slots = std::size_t{contexts_} * n_moves;
  action_once_ = std::make_unique<std::once_flag[]>(slots);
  action_tables_.resize(slots);
  table_of_.assign(slots, nullptr);
  action_ids_.assign(slots, 0);
  // Every permutation of the contexts that occur, now and in parallel,
  // unless there are too many to keep (then each is built on first use).
  // Slots with equal signatures share one table: built once, one network.
  std::vector<std::uint32_t> used;
  for (std::uint32_t c = 0; c < contexts_; ++c)
    if (contexts_ == 1 || context_row_[c].load() != kNoRow) used.push_back(c);
  if (double(used.size()) * double(n_moves) * columns_ * 2 > double(options.max_action_bytes))
    return;
  std::vector<std::size_t> first_of(slots, 0);
  std::vector<std::size_t> unique;
  {
    std::map<std::string, std::size_t> by_signature;
    for (std::uint32_t c : used)
      for (std::size_t m = 0; m < n_moves; ++m) {
        const std::size_t i = std::size_t{c} * n_moves + m;
        const auto [at, fresh] = by_signature.emplace(signature(c, static_cast<int>(m)), i);
        first_of[i] = at->second;
        if (fresh) unique.push_back(i);
      }
  }
  build_unique_actions(unique);
  for (std::uint32_t c : used)
    for (std::size_t m = 0; m < n_moves; ++m) {
      const std::size_t i = std::size_t{c} * n_moves + m;
      if (first_of[i] == i) continue;
      std::call_once(action_once_[i], [&] {
        table_of_[i] = table_of_[first_of[i]];
        action_ids_[i] = action_ids_[first_of[i]];
      });
    }
}

// The tables of these slots (in context order), each context's at once:
// a column is decoded once for all its moves. In parallel over contexts and
// over columns, unless there is little to build (a second thread costs more
// than a few thousand entries).
void TwistySpace::build_unique_actions(const std::vector<std::size_t>& slots) const {
  const auto n_moves = moves_.size();
  std::vector<std::size_t> starts;  // slots[starts[g]..starts[g + 1]): one context
  for (std::size_t u = 0; u < slots.size(); ++u)
    if (u == 0 || slots[u] / n_moves != slots[u - 1] / n_moves) starts.push_back(u);
  starts.push_back(slots.size());
  const bool small = slots.size() * columns_ < (1U << 16);
  const std::size_t grain = small ? starts.size() : 1;
  parallel_for_chunks(starts.size() - 1, grain, [&](std::size_t begin, std::size_t end) {
    for (std::size_t g = begin; g != end; ++g) {
      const auto context = static_cast<std::uint32_t>(slots[starts[g]] / n_moves);
      std::vector<int> moves;
      std::vector<std::unique_ptr<std::uint16_t[]>> tables;
      std::vector<std::uint16_t*> out;
      for (std::size_t u = starts[g]; u != starts[g + 1]; ++u) {
        moves.push_back(static_cast<int>(slots[u] % n_moves));
        tables.push_back(std::make_unique<std::uint16_t[]>(columns_));
        out.push_back(tables.back().get());
      }
      const std::uint32_t chunk = small ? columns_ : 4096;
      parallel_for_chunks(columns_, chunk, [&](std::size_t first, std::size_t last) {
        build_actions(context, moves, out, static_cast<std::uint32_t>(first),
                      static_cast<std::uint32_t>(last));
      });
      for (std::size_t k = 0; k < moves.size(); ++k) {
        const std::size_t slot = slots[starts[g] + k];
        std::call_once(action_once_[slot], [&] { install_action(slot, std::move(tables[k])); });
      }
    }
  });
}

// What a context's permutation for move m depends on: how the move takes
// the cut orbit's free slots to the free slots after it (their order), the
// parities the contexts before and after fix, and the move itself when the
// column has other parts. Equal signatures, equal permutations.
std::string TwistySpace::signature(std::uint32_t context, int m) const {
  std::string key;
  if (cut_orbit_ < 0 || cut_parity_tied_) return std::to_string(context) + "/" + std::to_string(m);
  const auto cut = static_cast<std::size_t>(cut_orbit_);
  const std::uint32_t row = context_row_[context].load(std::memory_order_relaxed);
  Position p = blank();
  decode_parts(0, row_parts_, row, p);
  const Orbit& o = orbits_[cut];
  const std::uint8_t* kind = p.kind.data() + base_[cut];
  std::vector<int> rank_in_free(o.size(), -1);
  int free = 0;
  for (std::size_t i = 0; i < o.size(); ++i)
    if (kind[i] == kFree) rank_in_free[i] = free++;
  const auto& from = o.from[static_cast<std::size_t>(m)];
  for (std::size_t i = 0; i < o.size(); ++i)
    if (rank_in_free[from[i]] >= 0) key += static_cast<char>(rank_in_free[from[i]]);
  const std::uint32_t after = context_of_row_[row_step(row, m)];
  key += "/" + std::to_string(context % parity_contexts_) + "/" +
         std::to_string(after % parity_contexts_);
  if (parts_.size() - row_parts_ > 1) key += "/" + std::to_string(m);
  return key;
}

std::uint32_t TwistySpace::row_step(std::uint32_t r, int m) const {
  if (rows_ == 1) return 0;
  const auto n_moves = moves_.size();
  if (!row_table_.empty())
    return row_table_[std::size_t{r} * n_moves + static_cast<std::size_t>(m)];
  thread_local Position p, q;
  if (p.kind.size() != blank().kind.size()) p = blank(), q = blank();
  decode_parts(0, row_parts_, r, p);
  apply_move(p, m, q);
  return static_cast<std::uint32_t>(encode_parts(0, row_parts_, q));
}

const std::uint16_t* TwistySpace::action(std::uint32_t r, int m) const {
  return action_for(contexts_ > 1 ? context_of_row_[r] : 0, m);
}

const std::uint16_t* TwistySpace::action_for(std::uint32_t context, int m) const {
  const std::size_t i = std::size_t{context} * moves_.size() + static_cast<std::size_t>(m);
  std::call_once(action_once_[i], [&] {
    auto table = std::make_unique<std::uint16_t[]>(columns_);
    std::uint16_t* out = table.get();
    build_actions(context, {&m, 1}, {&out, 1}, 0, columns_);
    install_action(i, std::move(table));
  });
  return table_of_[i];
}

// Called once for each slot, under its once_flag.
void TwistySpace::install_action(std::size_t slot, std::unique_ptr<std::uint16_t[]> table) const {
  bool identity = true;
  for (std::uint32_t c = 0; c < columns_ && identity; ++c) identity = table[c] == c;
  table_of_[slot] = table.get();
  action_ids_[slot] = identity ? bfs::kIdentityAction : static_cast<std::uint32_t>(slot);
  action_tables_[slot] = std::move(table);
}

bfs::MovePower TwistySpace::move_power(int m) const {
  const Move& move = moves_[static_cast<std::size_t>(m)];
  std::size_t g = 0;
  while (moves_[g].base != move.base) ++g;
  return {static_cast<int>(g), move.power / moves_[g].power, move.order};
}

std::uint32_t TwistySpace::action_id(std::uint32_t r, int m) const {
  const std::uint32_t context = contexts_ > 1 ? context_of_row_[r] : 0;
  action_for(context, m);
  return action_ids_[std::size_t{context} * moves_.size() + static_cast<std::size_t>(m)];
}

void TwistySpace::permute(std::uint32_t id, const std::uint64_t* in, std::uint64_t* out) const {
  std::atomic<const BitPermutation*>& slot = networks_[id];
  const BitPermutation* network = slot.load(std::memory_order_acquire);
  if (network == nullptr) {
    const auto n_moves = static_cast<std::uint32_t>(moves_.size());
    const std::uint16_t* table = action_for(id / n_moves, static_cast<int>(id % n_moves));
    const std::vector<std::uint32_t> to(table, table + columns_);
    auto routed = std::make_unique<BitPermutation>(to);  // routed outside the lock
    std::lock_guard lock(networks_mutex_);
    network = slot.load(std::memory_order_relaxed);
    if (network == nullptr) {
      network = routed.get();
      slot.store(network, std::memory_order_release);
      network_storage_.push_back(std::move(routed));
    }
  }
  network->apply(in, (columns_ + 63) / 64, out);
}

// out[k][c]: where moves[k] takes column c of a row of this context, for
// the columns [first_column, end_column). Any row of the context gives the
// same permutations.
void TwistySpace::build_actions(std::uint32_t context, std::span<const int> moves,
                                std::span<std::uint16_t* const> out, std::uint32_t first_column,
                                std::uint32_t end_column) const {
  const std::uint32_t row =
      contexts_ > 1 ? context_row_[context].load(std::memory_order_relaxed) : 0;
  Position p = blank();
  decode_parts(0, row_parts_, row, p);
  Position q = p;
  // A column is decoded from the first of its parts that differs from the
  // column before's (the last part changes at every column, the others
  // seldom), starting from the kinds as they were before that part:
  // before[i], the kinds before column part i.
  const std::size_t n = parts_.size() - row_parts_;
  std::vector<std::vector<std::uint8_t>> before(std::max<std::size_t>(n, 1), p.kind);
  std::array<std::uint64_t, kMaxParts> digits{}, previous{};
  bool decoded = false;
  // With one context, the inverse of a move takes d back to c where the
  // move takes c to d: when this call builds every column, the entry of
  // the inverse (partner[k], if it is among the moves) comes with each one
  // computed, and is not computed again (known). A half turn is its own.
  constexpr std::size_t kNone = ~std::size_t{0};
  std::vector<std::size_t> partner(moves.size(), kNone);
  std::vector<std::uint8_t> known;
  if (contexts_ == 1 && first_column == 0 && end_column == columns_) {
    for (std::size_t k = 0; k < moves.size(); ++k)
      for (std::size_t j = 0; j < moves.size() && partner[k] == kNone; ++j)
        if (moves[j] == inverse(moves[k])) partner[k] = j;
    known.assign(moves.size() * columns_, 0);
  }
  const auto is_known = [&](std::size_t k, std::uint32_t c) {
    return !known.empty() && known[k * columns_ + c] != 0;
  };
  for (std::uint32_t c = first_column; c < end_column; ++c) {
    bool needed = false;
    for (std::size_t k = 0; k < moves.size() && !needed; ++k) needed = !is_known(k, c);
    if (!needed) continue;
    std::uint64_t value = c;
    for (std::size_t i = n; i-- > 0;) {
      digits[i] = value % parts_[row_parts_ + i].size;
      value /= parts_[row_parts_ + i].size;
    }
    std::size_t from = 0;
    if (decoded)
      while (from + 1 < n && digits[from] == previous[from]) ++from;
    std::copy(before[from].begin(), before[from].end(), p.kind.begin());
    for (std::size_t i = from; i < n; ++i) {
      if (i > from) std::copy(p.kind.begin(), p.kind.end(), before[i].begin());
      decode_part(parts_[row_parts_ + i], digits[i], p);
    }
    std::copy_n(digits.begin(), n, previous.begin());
    decoded = true;
    for (std::size_t k = 0; k < moves.size(); ++k) {
      if (is_known(k, c)) continue;
      apply_move(p, moves[k], q);
      const auto d = static_cast<std::uint16_t>(encode_parts(row_parts_, parts_.size(), q));
      out[k][c] = d;
      if (partner[k] != kNone) {
        out[partner[k]][d] = static_cast<std::uint16_t>(c);
        known[partner[k] * columns_ + d] = 1;
      }
    }
  }
}

// ---- what the ranking found

std::vector<std::string> TwistySpace::notes() const {
  std::vector<std::string> lines;
  for (unsigned s = 0; s < def_.sets.size(); ++s) {
    const PieceSet& set = def_.sets[s];
    std::vector<std::string> parts;
    for (unsigned o = 0; o < orbits_.size(); ++o) {
      const Orbit& orbit = orbits_[o];
      if (orbit.set != s) continue;
      std::string text = orbit.kinds() == orbit.size()
                             ? fmt::format("{} distinct pieces", orbit.size())
                             : fmt::format("{} of {}", plural(orbit.size(), "piece"),
                                           plural(orbit.kinds(), "kind"));
      if (orbit.kinds() == 1 && orbit.size() == 1) text = "1 fixed piece";
      if (orbit.radix > 1) {
        text += fmt::format(", twists {} of {}", orbit.radix * orbit.potential, orbit.orientations);
        if (orbit.sum_modulus > 1)
          text += fmt::format(" summing to {} mod {}", orbit.sum_target, orbit.sum_modulus);
        if (orbit.potential > 1)
          text +=
              fmt::format(", tied to the positions mod {} ({} free)", orbit.potential, orbit.radix);
      }
      if (orbit.coupled_to >= 0)
        text += fmt::format(", moving with {}[{}]",
                            def_.sets[orbits_[static_cast<std::size_t>(orbit.coupled_to)].set].name,
                            orbits_[static_cast<std::size_t>(orbit.coupled_to)].slots[0] + 1);
      if (orbit.parity_fixed) {
        std::vector<std::string> names;
        for (unsigned source : orbit.parity_sources)
          names.push_back(fmt::format("{}[{}]", def_.sets[orbits_[source].set].name,
                                      orbits_[source].slots[0] + 1));
        text += names.empty() ? ", even permutations only"
                              : fmt::format(", parity tied to {}", fmt::join(names, " + "));
      }
      parts.push_back(fmt::format("slots {}: {}", orbit.slots[0] + 1, text));
    }
    lines.push_back(fmt::format("set {} ({} slots, {}): {}", set.name, set.slots,
                                plural(parts.size(), "orbit"), fmt::join(parts, "; ")));
  }
  lines.push_back(fmt::format("layout: {} rows x {} columns{}", rows_, columns_,
                              contexts_ > 1 ? fmt::format(", {} column contexts", contexts_) : ""));
  return lines;
}

}  // namespace cubenum::twisty
