#pragma once
// The frontier engine's interface (frontier_bfs.hpp): the space it
// searches, its options and checkpoint boundary, and the levels and result
// it reports.
#include <concepts>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cubenum/bfs/depth_table.hpp"
#include "cubenum/core/atomic_bitmap.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"

namespace cubenum::bfs {

// A state space with a perfect rank onto [0, size()) and an undirected move
// graph (every move has an inverse move), so that the predecessors of a
// state are its neighbours. for_each_neighbour calls visit(rank) for each
// neighbour and stops early when visit returns true; it returns whether it
// stopped.
//
// A space may also offer `cursor(first_rank)`: an object with the same
// for_each_neighbour, called with increasing ranks from first_rank on, that
// may carry state between them (the rolling cubes track the empty cell
// instead of dividing every rank).
template <class S>
concept RankedSpace = requires(const S& space, std::uint64_t rank) {
  { space.size() } -> std::convertible_to<std::uint64_t>;
  {
    space.for_each_neighbour(rank, [](std::uint64_t) { return false; })
    } -> std::same_as<bool>;
};

// The neighbours a state has at most in the spaces that bound their moves
// by it: sizes the top-down gather buffer (64 states' neighbours), which a
// state with more empties as it fills.
inline constexpr unsigned kMaxNeighbours = 32;

enum class Direction : std::uint8_t { TopDown, BottomUp };
enum class DirectionPolicy : std::uint8_t { Auto, TopDown, BottomUp };

// auto | top-down | bottom-up; InputError naming --direction otherwise.
inline DirectionPolicy parse_direction_policy(const std::string& text) {
  if (text == "auto") return DirectionPolicy::Auto;
  if (text == "top-down") return DirectionPolicy::TopDown;
  if (text == "bottom-up") return DirectionPolicy::BottomUp;
  throw InputError("--direction", 0,
                   "unknown direction '" + text + "' (expected auto, top-down or bottom-up)");
}

inline const char* direction_text(Direction direction) {
  return direction == Direction::TopDown ? "top-down" : "bottom-up";
}

struct LevelStats {
  unsigned depth = 0;
  std::uint64_t states = 0;  // states first reached at this depth
  double seconds = 0;
  Direction direction = Direction::TopDown;
  // Across processes: what the level sent to other processes, summed over
  // them all (point-to-point messages, the neighbour ranks put into them,
  // repeats included, and their bytes).
  std::uint64_t messages = 0, sent_ranks = 0, sent_bytes = 0;
};

struct BfsBoundary;

// A level's states as on_level sees them, this process's part (indexed by
// rank - part.first): the level's bitmap, or in two-bit mode only which
// states are reached by now (the depth table cannot tell the level's states
// from those three levels older).
struct LevelStates {
  const AtomicBitmap* level = nullptr;    // null in two-bit mode
  const AtomicBitmap* visited = nullptr;  // null in two-bit mode
  const DepthTable* depths = nullptr;     // when kept
  bool reached(std::uint64_t local) const {
    return visited != nullptr ? visited->test(local)
                              : depths->depth_mod3(local) != DepthTable::kUnseen;
  }
};

struct BfsOptions {
  DirectionPolicy policy = DirectionPolicy::Auto;
  // The processes sharing the search; null or one process: this one alone.
  // Every process calls frontier_bfs with the same space and sources, and
  // the callbacks below see their own part only (BfsResult::part).
  Cluster* cluster = nullptr;
  bool depth_table = false;  // keep depth mod 3 of every state
  bool two_bit = false;      // the depth table alone (implies depth_table)
  // Called after each level with the level's states.
  std::function<void(const LevelStats&, const LevelStates& level)> on_level;
  // Stops the search after the first level for which it returns true.
  std::function<bool(const LevelStats&, const LevelStates& level)> stop_after;
  // Called now and then during a level, from any thread, with the number of
  // states scanned in the level so far (for progress lines).
  std::function<void(std::uint64_t scanned)> on_progress;

  // Checkpoints. Polled between chunks of a level, from any thread: when it
  // returns true the level is abandoned and the search returns `stopped`
  // (the last boundary's state is untouched: a level writes only `next`).
  // In two-bit mode it is asked after each level, which stops at its end.
  std::function<bool()> should_stop;
  // Called at each level boundary (after on_level and stop_after) with
  // the state to continue from, and once more with `stopping` when the
  // search stops.
  std::function<void(const BfsBoundary&, bool stopping)> at_boundary;
  // Called once, instead of starting from the sources, to fill in a saved
  // boundary (levels and reached first, then the bitmaps).
  std::function<void(BfsBoundary&)> restore;
};

// The search between two levels: all it needs to go on.
struct BfsBoundary {
  std::vector<LevelStats>& levels;  // every level so far; the last one is `frontier`
  std::uint64_t& reached;
  AtomicBitmap& visited;  // the states of every level so far
  AtomicBitmap& frontier;
  DepthTable* depths;  // when kept
  // Across processes: the cluster; the bitmaps and the table are this
  // process's part, `levels` and `reached` are everyone's.
  Cluster* cluster = nullptr;
  // Two-bit mode (`visited` and `frontier` empty): the last level's states
  // in each chunk of kChunkStates.
  std::vector<std::uint64_t>* frontier_chunks = nullptr;
};

// Two-bit mode's chunks of states.
inline constexpr std::uint64_t kChunkStates = std::uint64_t{1} << 16;

struct BfsResult {
  std::vector<LevelStats> levels;  // levels[d]: states at distance d, d = 0..max (all processes)
  std::uint64_t reached = 0;       // by all processes
  // The ranks this process holds: `visited` and `depths` are indexed by
  // rank - part.first (the whole space when alone).
  RankPart part;
  AtomicBitmap visited;  // empty in two-bit mode
  std::optional<DepthTable> depths;
  bool stopped = false;  // by should_stop, before the end
  bool resumed = false;  // from options.restore

  unsigned max_depth() const { return static_cast<unsigned>(levels.size()) - 1; }
  std::vector<std::uint64_t> distribution() const {
    std::vector<std::uint64_t> d;
    for (const auto& level : levels) d.push_back(level.states);
    return d;
  }
};

}  // namespace cubenum::bfs
