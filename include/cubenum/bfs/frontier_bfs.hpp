#pragma once
// Level-synchronous parallel BFS over a perfectly ranked state space.
//
// Three bitmaps of one bit per state: `visited` (before this level),
// `frontier` (the last level) and `next` (visited plus what this level has
// found so far). A level runs in one of two directions (Beamer's
// direction-optimising BFS):
//   top-down:  each frontier state sets its neighbours in `next` (atomic
//              fetch_or, and only after a plain load shows the bit unset):
//              one random bitmap probe per neighbour;
//   bottom-up: each unvisited state looks for a neighbour in the frontier;
//              a thread owns whole words of `next`, so no atomics.
// Words are scanned in rank order, through an optional cursor of the space
// that decodes consecutive ranks cheaply. The choice of direction depends
// only on the level's counts, never on timing, and both directions produce
// the same level sets: counts never depend on it or on the thread count.
#include <array>
#include <atomic>
#include <bit>
#include <concepts>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "cubenum/bfs/depth_table.hpp"
#include "cubenum/core/atomic_bitmap.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/stopwatch.hpp"

namespace cubenum::bfs {

// A state space with a perfect rank onto [0, size()) and an undirected move
// graph (every move has an inverse move), so that the predecessors of a
// state are its neighbours. for_each_neighbour calls visit(rank) for each
// neighbour and stops early when visit returns true; it returns whether it
// stopped. A state has at most kMaxNeighbours neighbours.
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

// Most neighbours a state may have: bounds the per-word gather buffer.
inline constexpr unsigned kMaxNeighbours = 32;

enum class Direction : std::uint8_t { TopDown, BottomUp };
enum class DirectionPolicy : std::uint8_t { Auto, TopDown, BottomUp };

struct LevelStats {
  unsigned depth = 0;
  std::uint64_t states = 0;  // states first reached at this depth
  double seconds = 0;
  Direction direction = Direction::TopDown;
};

struct BfsOptions {
  DirectionPolicy policy = DirectionPolicy::Auto;
  bool depth_table = false;  // keep depth mod 3 of every state
  // Called after each level with the level's states as a bitmap.
  std::function<void(const LevelStats&, const AtomicBitmap& level)> on_level;
  // Stops the search after the first level for which it returns true.
  std::function<bool(const LevelStats&, const AtomicBitmap& level)> stop_after;
  // Called now and then during a level, from any thread, with the number of
  // states scanned in the level so far (for progress lines).
  std::function<void(std::uint64_t scanned)> on_progress;

  // Checkpoints. Polled between chunks of a level, from any thread: when it
  // returns true the level is abandoned and the search returns `stopped`
  // (the last boundary's state is untouched: a level writes only `next`).
  std::function<bool()> should_stop;
  // Called at each level boundary (after on_level and stop_after) with
  // the state to continue from, and once more with `stopping` when the
  // search stops.
  std::function<void(const struct BfsBoundary&, bool stopping)> at_boundary;
  // Called once, instead of starting from the sources, to fill in a saved
  // boundary (levels and reached first, then the bitmaps).
  std::function<void(struct BfsBoundary&)> restore;
};

// The search between two levels: all it needs to go on.
struct BfsBoundary {
  std::vector<LevelStats>& levels;  // every level so far; the last one is `frontier`
  std::uint64_t& reached;
  AtomicBitmap& visited;  // the states of every level so far
  AtomicBitmap& frontier;
  DepthTable* depths;  // when kept
};

struct BfsResult {
  std::vector<LevelStats> levels;  // levels[d]: states at distance d, d = 0..max
  std::uint64_t reached = 0;
  AtomicBitmap visited;
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

namespace detail {

inline constexpr std::size_t kGrainWords = 512;

// Bits of word w that are states (the last word may be partly past the end).
inline std::uint64_t valid_bits(std::uint64_t states, std::size_t w) {
  const std::uint64_t first = std::uint64_t{w} * 64;
  return states - first >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (states - first)) - 1;
}

// The cursor of a space without one of its own: the space itself.
template <class S>
struct PlainCursor {
  const S& space;
  template <class Visit>
  bool for_each_neighbour(std::uint64_t rank, Visit&& visit) const {
    return space.for_each_neighbour(rank, visit);
  }
};

template <RankedSpace S>
auto cursor_at(const S& space, std::uint64_t first) {
  if constexpr (requires { space.cursor(first); })
    return space.cursor(first);
  else
    return PlainCursor<S>{space};
}

// Runs body(cursor, w) for every word w, in chunks of words in rank order.
template <RankedSpace S, class Body>
void for_words(const S& space, std::size_t words, const BfsOptions& options, Body&& body) {
  std::atomic<std::uint64_t> scanned{0};
  parallel_for_chunks(words, kGrainWords, [&](std::size_t begin, std::size_t end) {
    if (options.should_stop && options.should_stop()) return;
    auto cursor = cursor_at(space, std::uint64_t{begin} * 64);
    for (std::size_t w = begin; w != end; ++w) body(cursor, w);
    if (options.on_progress) options.on_progress(scanned += (end - begin) * 64);
  });
}

template <RankedSpace S>
void expand_top_down(const S& space, const AtomicBitmap& frontier, AtomicBitmap& next,
                     const BfsOptions& options) {
  for_words(space, frontier.words(), options, [&](auto& cursor, std::size_t w) {
    // Neighbours not yet in `next` are gathered without a branch, then set:
    // whether a neighbour is new is unpredictable, a mispredicted branch.
    std::array<std::uint64_t, 64 * kMaxNeighbours> fresh;
    std::size_t count = 0;
    for (std::uint64_t bits = frontier.load_word(w); bits != 0; bits &= bits - 1)
      cursor.for_each_neighbour(std::uint64_t{w} * 64 + std::countr_zero(bits),
                                [&](std::uint64_t n) {
                                  fresh[count] = n;
                                  count += !next.test(n);
                                  return false;
                                });
    for (std::size_t i = 0; i < count; ++i) next.try_set(fresh[i]);
  });
}

template <RankedSpace S>
void expand_bottom_up(const S& space, const AtomicBitmap& visited, const AtomicBitmap& frontier,
                      AtomicBitmap& next, const BfsOptions& options) {
  const std::uint64_t states = space.size();
  for_words(space, visited.words(), options, [&](auto& cursor, std::size_t w) {
    const std::uint64_t old = visited.load_word(w);
    std::uint64_t found = 0;
    for (std::uint64_t bits = ~old & valid_bits(states, w); bits != 0; bits &= bits - 1) {
      const int bit = std::countr_zero(bits);
      if (cursor.for_each_neighbour(std::uint64_t{w} * 64 + bit,
                                    [&](std::uint64_t n) { return frontier.test(n); }))
        found |= std::uint64_t{1} << bit;
    }
    next.store_word(w, old | found);
  });
}

// On entry next = visited + this level's states. frontier = next & ~visited;
// visited = next (so next equals visited again for the next level); returns
// the number of new states.
inline std::uint64_t advance(AtomicBitmap& visited, AtomicBitmap& frontier,
                             const AtomicBitmap& next, DepthTable* depths, unsigned depth) {
  return parallel_sum<std::uint64_t>(visited.words(), kGrainWords,
                                     [&](std::size_t begin, std::size_t end) {
                                       std::uint64_t sum = 0;
                                       for (std::size_t w = begin; w != end; ++w) {
                                         const std::uint64_t old = visited.load_word(w);
                                         const std::uint64_t fresh = next.load_word(w) & ~old;
                                         frontier.store_word(w, fresh);
                                         if (fresh == 0) continue;
                                         visited.store_word(w, old | fresh);
                                         if (depths != nullptr)
                                           depths->record_word(w, fresh, depth);
                                         sum += static_cast<std::uint64_t>(std::popcount(fresh));
                                       }
                                       return sum;
                                     });
}

// Beamer's rule with uniform degree: go bottom-up once the frontier is more
// than 1/alpha of the unvisited states. Beamer's alpha = 14 suits power-law
// graphs, where most unvisited vertices touch the frontier. In puzzle graphs
// (uniform small degree, levels growing by a steady factor) an unvisited
// state that is not in the next level scans all its neighbours in vain, so
// bottom-up pays only once most unvisited states are in the next level:
// alpha = 2 (pocket cube, QTM, 1 thread: 147 ms -> 66 ms with alpha 14 -> 2;
// results/pocket-cube.md).
inline constexpr std::uint64_t kBottomUpAlpha = 2;

inline Direction choose(DirectionPolicy policy, std::uint64_t frontier, std::uint64_t unvisited) {
  if (policy == DirectionPolicy::TopDown) return Direction::TopDown;
  if (policy == DirectionPolicy::BottomUp) return Direction::BottomUp;
  return frontier * kBottomUpAlpha > unvisited ? Direction::BottomUp : Direction::TopDown;
}

}  // namespace detail

// BFS from `sources` (all at depth 0) over every reachable state.
template <RankedSpace S>
BfsResult frontier_bfs(const S& space, std::span<const std::uint64_t> sources,
                       const BfsOptions& options = {}) {
  const std::uint64_t states = space.size();
  BfsResult result;
  result.visited = AtomicBitmap(states);
  AtomicBitmap frontier(states), next(states);
  if (options.depth_table) result.depths.emplace(states);
  DepthTable* depths = result.depths ? &*result.depths : nullptr;

  BfsBoundary boundary{result.levels, result.reached, result.visited, frontier, depths};
  Stopwatch clock;
  LevelStats level;
  bool restored = false;  // the level is a saved one, already counted
  if (options.restore) {
    options.restore(boundary);
    result.resumed = restored = true;
    // `next` equals `visited` between levels.
    parallel_for_chunks(next.words(), detail::kGrainWords, [&](std::size_t b, std::size_t e) {
      for (std::size_t w = b; w != e; ++w) next.store_word(w, result.visited.load_word(w));
    });
    level = result.levels.back();
  } else {
    for (std::uint64_t s : sources) next.try_set(s);
    const std::uint64_t fresh = detail::advance(result.visited, frontier, next, depths, 0);
    level = LevelStats{0, fresh, clock.seconds(), Direction::TopDown};
  }

  for (;; restored = false) {
    if (!restored) {
      if (level.states == 0) break;
      result.levels.push_back(level);
      result.reached += level.states;
      if (options.on_level) options.on_level(level, frontier);
      if (options.stop_after && options.stop_after(level, frontier)) break;
    }
    if (options.at_boundary) options.at_boundary(boundary, false);

    clock.restart();
    const Direction direction =
        detail::choose(options.policy, level.states, states - result.reached);
    if (direction == Direction::TopDown)
      detail::expand_top_down(space, frontier, next, options);
    else
      detail::expand_bottom_up(space, result.visited, frontier, next, options);
    if (options.should_stop && options.should_stop()) {
      result.stopped = true;
      if (options.at_boundary) options.at_boundary(boundary, true);
      break;
    }
    const std::uint64_t fresh =
        detail::advance(result.visited, frontier, next, depths, level.depth + 1);
    level = LevelStats{level.depth + 1, fresh, clock.seconds(), direction};
  }
  return result;
}

// Walks from `rank` to a source along a shortest path using the depth
// table of a BFS from those sources. Returns the path's states, `rank`
// first and a source last; empty if `rank` was not reached.
template <RankedSpace S>
std::vector<std::uint64_t> path_to_source(const S& space, const DepthTable& depths,
                                          std::span<const std::uint64_t> sources,
                                          std::uint64_t rank) {
  std::vector<std::uint64_t> path;
  if (depths.depth_mod3(rank) == DepthTable::kUnseen) return path;
  auto is_source = [&](std::uint64_t r) {
    for (std::uint64_t s : sources)
      if (s == r) return true;
    return false;
  };
  path.push_back(rank);
  while (!is_source(rank)) {
    const int closer = (depths.depth_mod3(rank) + 2) % 3;
    space.for_each_neighbour(rank, [&](std::uint64_t n) {
      if (depths.depth_mod3(n) != closer) return false;
      rank = n;
      return true;
    });
    path.push_back(rank);
  }
  return path;
}

}  // namespace cubenum::bfs
