#pragma once
// God's-number runs and optimal solves of a permutation puzzle from a
// definition file: the BFS over its ranked space (bfs/row_bfs.hpp), the
// antipodes as move sequences, shortest paths walked through the depth
// table, and depth tables kept in files.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cubenum/bfs/frontier_bfs.hpp"
#include "cubenum/bfs/row_bfs.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/puzzles/twisty.hpp"
#include "cubenum/puzzles/twisty_space.hpp"
#include "cubenum/puzzles/twisty_symmetry.hpp"

namespace cubenum::twisty {

// Bytes a BFS of the space needs: the two-bit table, the per-row counts,
// and the move tables.
std::uint64_t bfs_bytes(const TwistySpace& space);

// The classes of one level's positions (twisty_symmetry.hpp): those the
// least of their orbit under the group, and under the group and inversion.
struct LevelClasses {
  std::uint64_t classes = 0, with_inverse = 0;
  LevelClasses& operator+=(const LevelClasses& o) {
    classes += o.classes;
    with_inverse += o.with_inverse;
    return *this;
  }
};

// What classes are up to: the symmetries (x -> S x S^-1), and whole-puzzle
// turns applied after a position (x -> x t; the identity alone: none).
struct ClassGroup {
  const SymmetryGroup* symmetries = nullptr;
  std::vector<Arrangement> turns;  // effects, the identity first
};

// Whether `rank` is the least of its class (with_inverse: of its class up
// to inversion too, when the group has it): each count 1 or 0.
LevelClasses least_of_class(const TwistySpace& space, const ClassGroup& group, std::uint64_t rank);
// The classes among one level's positions, on every thread: the row
// engine's level, or a process's part of the frontier engine's (ranks
// first, first + 1, ...).
LevelClasses count_classes(const TwistySpace& space, const ClassGroup& group,
                           const bfs::LevelRows& level);
LevelClasses count_classes(const TwistySpace& space, const ClassGroup& group,
                           const AtomicBitmap& level, std::uint64_t first);

// The whole-puzzle turns among the group's candidates (positions that are
// symmetries, as the 2x2x2's U D'): those the moves reach from solved; the
// identity first. `space` needs no tables unless a turn is far from solved:
// a BFS over positions then decides, with tables built for it, where
// `positions_fit` (else an InputError naming --up-to-rotation).
std::vector<Arrangement> whole_turns(const TwistySpace& space, const SymmetryGroup& group,
                                     bool positions_fit = true);

// What both searches below take: the direction, the antipodes to show as
// move sequences, checkpoints at level boundaries, the classes to count.
struct SearchOptions {
  bfs::DirectionPolicy policy = bfs::DirectionPolicy::Auto;
  std::size_t antipodes = 0;
  CheckpointWriter* checkpoint = nullptr;
  double checkpoint_every = 60;
  const CheckpointReader* resume = nullptr;
  std::function<bool()> should_stop;
  // Counts each level's classes under this group (`classes` of the
  // result): the row engine then tells levels apart exactly and keeps no
  // depth table, so no antipodes are found.
  const ClassGroup* classes_of = nullptr;
  // Where the BFS starts (empty: solved); depth 0 holds them all.
  std::vector<std::uint64_t> sources;
};

struct EnumerateOptions : SearchOptions {
  std::function<void(const bfs::RowLevel&)> on_level;
  std::function<void(std::uint64_t rows_done)> on_progress;
};

struct Enumeration {
  bfs::RowBfsResult bfs;
  // Move sequences that take the solved position to a few antipodes.
  std::vector<std::vector<int>> antipodes;
  std::vector<LevelClasses> classes;  // by depth, with SearchOptions::classes_of
};

Enumeration enumerate(const TwistySpace& space, const EnumerateOptions& options);

// Across processes (mpirun): the frontier engine (bfs/frontier_bfs.hpp)
// over the same ranks, each process holding the bitmaps of its part of
// them and shipping the neighbours others own; the same levels and the
// same antipodes as enumerate. At most bfs::kMaxNeighbours moves.
// (antipodes > 0 keeps a depth table, depth mod 3.)
struct SharedEnumerateOptions : SearchOptions {
  std::function<void(const bfs::LevelStats&)> on_level;
  std::function<void(std::uint64_t scanned)> on_progress;
};

struct SharedEnumeration {
  bfs::BfsResult bfs;  // levels and reached: every process's
  std::vector<std::vector<int>> antipodes;
  std::vector<LevelClasses> classes;  // every process's
};

SharedEnumeration enumerate_shared(const TwistySpace& space, const SharedEnumerateOptions& options,
                                   Cluster& cluster);

// Bytes one of `processes` processes needs for enumerate_shared: its part
// of three bitmaps and of the depth table, the whole frontier once
// gathered (bottom-up levels), and the move tables.
std::uint64_t shared_bfs_bytes(const TwistySpace& space, int processes, bool depth_table);

// The moves that take `rank` to the solved position, shortest, from a
// depth table of a BFS from solved; empty if it is solved. Throws
// InputError if the BFS never reached it.
std::vector<int> path_to_solved(const TwistySpace& space, const bfs::RowDepths& depths,
                                std::uint64_t rank);

// The inverse sequence: the moves that undo `moves`, in reverse order.
std::vector<int> inverse_sequence(const TwistySpace& space, const std::vector<int>& moves);

std::string sequence_text(const TwistySpace& space, const std::vector<int>& moves);

// A depth table in a file, with what identifies its space (the definition's
// contents, the moves, the layout): loading refuses a table of another
// space, or a truncated or damaged file.
void save_table(const std::string& path, const TwistySpace& space, const bfs::RowDepths& depths);
// What identifies the space (the tables' and checkpoints' key).
std::string space_identity(const TwistySpace& space);
// What identifies a search's moves and the definition they act on: their
// names, and a digest of their effects and the solved position.
std::string moves_identity(const std::vector<Move>& moves, const Arrangement& solved);
bfs::RowDepths load_table(const std::string& path, const TwistySpace& space);

}  // namespace cubenum::twisty
