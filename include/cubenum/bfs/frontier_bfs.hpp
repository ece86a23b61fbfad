#pragma once
// Level-synchronous parallel BFS over a perfectly ranked state space.
//
// Three bitmaps of one bit per state: visited, frontier, next. A level runs
// in one of two directions (Beamer's direction-optimising BFS):
//   top-down:  each frontier state claims its unvisited neighbours in
//              `visited` and marks the ones it claimed in `next` (atomic
//              fetch_or, after a plain load shows the bit unset);
//   bottom-up: each unvisited state looks for a neighbour in the frontier;
//              a thread owns whole words of `next`, so no atomics.
// The choice depends only on the level's counts, never on timing, and both
// directions produce the same level sets: counts never depend on it or on
// the number of threads.
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
// stopped.
template <class S>
concept RankedSpace = requires(const S& space, std::uint64_t rank) {
  { space.size() } -> std::convertible_to<std::uint64_t>;
  {
    space.for_each_neighbour(rank, [](std::uint64_t) { return false; })
    } -> std::same_as<bool>;
};

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
};

struct BfsResult {
  std::vector<LevelStats> levels;  // levels[d]: states at distance d, d = 0..max
  std::uint64_t reached = 0;
  AtomicBitmap visited;
  std::optional<DepthTable> depths;

  unsigned max_depth() const { return static_cast<unsigned>(levels.size()) - 1; }
  std::vector<std::uint64_t> distribution() const {
    std::vector<std::uint64_t> d;
    for (const auto& level : levels) d.push_back(level.states);
    return d;
  }
};

namespace detail {

inline constexpr std::size_t kGrainWords = 256;

// Bits of word w that are states (the last word may be partly past the end).
inline std::uint64_t valid_bits(std::uint64_t states, std::size_t w) {
  const std::uint64_t first = std::uint64_t{w} * 64;
  return states - first >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (states - first)) - 1;
}

template <class F>
void for_words(std::size_t words, F&& body) {
  parallel_for_chunks(words, kGrainWords, [&](std::size_t begin, std::size_t end) {
    for (std::size_t w = begin; w != end; ++w) body(w);
  });
}

// A neighbour is claimed in `visited` itself (the thread whose fetch_or sets
// the bit owns it), so only newly reached states touch `next`: one random
// bitmap access per neighbour instead of two. advance() then ORs `next` into
// `visited` again, which changes nothing.
template <RankedSpace S>
void expand_top_down(const S& space, AtomicBitmap& visited, const AtomicBitmap& frontier,
                     AtomicBitmap& next) {
  for_words(frontier.words(), [&](std::size_t w) {
    for (std::uint64_t bits = frontier.load_word(w); bits != 0; bits &= bits - 1) {
      const std::uint64_t rank = std::uint64_t{w} * 64 + std::countr_zero(bits);
      space.for_each_neighbour(rank, [&](std::uint64_t n) {
        if (visited.try_set(n)) next.try_set(n);
        return false;
      });
    }
  });
}

template <RankedSpace S>
void expand_bottom_up(const S& space, const AtomicBitmap& visited, const AtomicBitmap& frontier,
                      AtomicBitmap& next) {
  const std::uint64_t states = space.size();
  for_words(visited.words(), [&](std::size_t w) {
    std::uint64_t found = 0;
    for (std::uint64_t bits = ~visited.load_word(w) & valid_bits(states, w); bits != 0;
         bits &= bits - 1) {
      const int bit = std::countr_zero(bits);
      const std::uint64_t rank = std::uint64_t{w} * 64 + bit;
      if (space.for_each_neighbour(rank, [&](std::uint64_t n) { return frontier.test(n); }))
        found |= std::uint64_t{1} << bit;
    }
    next.store_word(w, found);
  });
}

// visited |= next; frontier = next; next = 0; returns the new states.
inline std::uint64_t advance(AtomicBitmap& visited, AtomicBitmap& frontier, AtomicBitmap& next,
                             DepthTable* depths, unsigned depth) {
  return parallel_sum<std::uint64_t>(visited.words(), kGrainWords,
                                     [&](std::size_t begin, std::size_t end) {
                                       std::uint64_t sum = 0;
                                       for (std::size_t w = begin; w != end; ++w) {
                                         const std::uint64_t fresh = next.load_word(w);
                                         frontier.store_word(w, fresh);
                                         if (fresh == 0) continue;
                                         next.store_word(w, 0);
                                         visited.store_word(w, visited.load_word(w) | fresh);
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

  Stopwatch clock;
  for (std::uint64_t s : sources) next.try_set(s);
  std::uint64_t fresh = detail::advance(result.visited, frontier, next, depths, 0);
  LevelStats level{0, fresh, clock.seconds(), Direction::TopDown};

  while (fresh != 0) {
    result.levels.push_back(level);
    result.reached += fresh;
    if (options.on_level) options.on_level(level, frontier);

    clock.restart();
    const Direction direction = detail::choose(options.policy, fresh, states - result.reached);
    if (direction == Direction::TopDown)
      detail::expand_top_down(space, result.visited, frontier, next);
    else
      detail::expand_bottom_up(space, result.visited, frontier, next);
    fresh = detail::advance(result.visited, frontier, next, depths, level.depth + 1);
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
