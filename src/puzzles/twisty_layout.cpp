// The ranked space's layout: which parts are the row's and which the
// column's, chosen by a cost model.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "cubenum/core/error.hpp"
#include "cubenum/core/ranking.hpp"
#include "twisty_space_internal.hpp"

namespace cubenum::twisty {
namespace {

// The largest ranked space cubenum lays out (rows fit 32 bits, columns 16).
constexpr double kMaxStates = 0x1p48;

}  // namespace

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

}  // namespace cubenum::twisty
