#pragma once
// The row engine's cost model (row_bfs.hpp): which way serves each (row,
// move) pair, and whether a level goes cycle by cycle.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "cubenum/bfs/frontier_interface.hpp"
#include "cubenum/bfs/row_families.hpp"
#include "cubenum/bfs/row_interface.hpp"

namespace cubenum::bfs::detail {

// Cycles pay once the frontier and the open states both exceed this many per
// row on average (pocket cube HTM: a cycle level costs about the same
// however full it is).
inline constexpr std::uint64_t kDenseCycleRows = 1;

// The costs of RowLevels<S, Storage>'s ways, from its space, storage and
// cycles (which it owns: they outlive the model).
template <RowSpace S, class Storage>
class RowCostModel {
 public:
  enum class Way : std::uint8_t { Push, Pull, Permute };

  RowCostModel(const S& space, const Storage& storage, const std::vector<MoveFamily>& families,
               const std::vector<MoveSweep>& sweeps)
      : space_(space),
        storage_(storage),
        families_(families),
        sweeps_(sweeps),
        moves_(space.moves()) {
    if constexpr (PermutableRows<S>) {
      permute_cost_ = space.permute_nanoseconds() + 0.5 * storage.scan_words(space.columns());
      sweep_cost_ = sweeps_cost();
    }
  }

  // Whether the next level goes cycle by cycle: by families once the level
  // is dense (their cost hardly depends on how dense), by sweeps when the
  // cost model puts a level of them below one row by row.
  bool by_cycles(std::uint64_t fresh, std::uint64_t open, const RowBfsOptions& options) const {
    if (options.policy != DirectionPolicy::Auto || (families_.empty() && sweeps_.empty()))
      return false;
    if (options.always_cycles) return true;
    const double rows = space_.rows();
    if (sweeps_.empty()) return double(std::min(fresh, open)) > rows * double(kDenseCycleRows);
    // Pushes as whole rows cost per state as fitted on turnstile's large
    // levels, whose moves' tables fall out of L2; pulls and permutations
    // as in choose().
    const double f = double(fresh) / rows, o = double(open) / rows;
    const double per_move =
        std::min({6.0 * f + 0.25 * storage_.scan_words(static_cast<std::uint32_t>(f)), 1.7 * o,
                  permute_cost_});
    return sweep_cost_ < rows * moves_ * per_move;
  }

  // The cost model, in nanoseconds (measured on 2x2x2 and skewb, one
  // thread): a push per source state and per word of q scanned, a pull per
  // open state, a permutation what the space says.
  Way choose(DirectionPolicy policy, std::uint32_t sources, std::uint32_t left) const {
    if (policy == DirectionPolicy::TopDown) return Way::Push;
    if (policy == DirectionPolicy::BottomUp) return Way::Pull;
    const double push = 2.0 * sources + 0.25 * storage_.scan_words(sources);
    const double pull = 1.7 * left;
    if (permute_cost_ < push && permute_cost_ < pull) return Way::Permute;
    return push <= pull ? Way::Push : Way::Pull;
  }

 private:
  // What a level by sweeps costs, in the cost model's nanoseconds: a
  // permutation a step (an OR where the generator leaves the columns be),
  // and for each row and sweep its frontier read, its open states read and
  // its new ones recorded: a cost a word scanned fitted to 233's and
  // 2x2x2's levels on one thread, so that each takes the faster way.
  double sweeps_cost() const {
    const double scan = storage_.scan_words(space_.columns());
    double cost = double(sweeps_.size()) * space_.rows() * 6.0 * scan;
    const double or_cost = 0.5 * scan;
    for (const MoveSweep& sweep : sweeps_)
      for (std::size_t c = 0; c < sweep.cycles(); ++c) {
        const std::uint32_t* rows = sweep.rows.data() + sweep.starts[c];
        const std::uint32_t n = sweep.starts[c + 1] - sweep.starts[c];
        for (std::uint32_t s = 1; s <= sweep.order + n - 2; ++s)
          cost += space_.action_id(rows[(s - 1) % n], sweep.generator) == kIdentityAction
                      ? or_cost
                      : permute_cost_;
      }
    return cost;
  }

  const S& space_;
  const Storage& storage_;
  const std::vector<MoveFamily>& families_;
  const std::vector<MoveSweep>& sweeps_;
  int moves_;
  double permute_cost_ = std::numeric_limits<double>::infinity();
  double sweep_cost_ = std::numeric_limits<double>::infinity();
};

}  // namespace cubenum::bfs::detail
