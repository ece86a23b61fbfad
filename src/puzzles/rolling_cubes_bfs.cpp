// The rolling-cubes BFS (rank-order streaming over bitmaps) and the
// shortest-solution walk and count.
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <stdexcept>

#include "cubenum/core/stopwatch.hpp"
#include "cubenum/puzzles/rolling_cubes.hpp"

namespace cubenum::rolling {
namespace {

constexpr std::size_t kGrainWords = 512;

// Bits of word w that are states (the last word may be partly past the end).
std::uint64_t valid_bits(std::uint64_t states, std::size_t w) {
  const std::uint64_t first = std::uint64_t{w} * 64;
  return states - first >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (states - first)) - 1;
}

// Walks the states of a range of words in rank order, tracking the empty
// cell (the block) without a division per state.
class BlockCursor {
 public:
  BlockCursor(const RollingCubesSpace& space, std::uint64_t first)
      : space_(space),
        empty_(static_cast<unsigned>(first / space.block())),
        start_(empty_ * space.block()) {}

  // Visits each neighbour rank of `rank` (>= every earlier rank given)
  // until visit returns true.
  template <class Visit>
  bool for_each_neighbour(std::uint64_t rank, Visit&& visit) {
    while (rank - start_ >= space_.block()) {
      ++empty_;
      start_ += space_.block();
    }
    const std::uint64_t digits = rank - start_;
    const std::uint64_t nibbles = space_.to_nibbles(digits);
    for (const auto& step : space_.steps(empty_))
      if (visit(space_.neighbour(step, digits, nibbles))) return true;
    return false;
  }

 private:
  const RollingCubesSpace& space_;
  unsigned empty_;
  std::uint64_t start_;
};

template <class Body>
void for_word_ranges(std::size_t words, const RollingBfsOptions& options,
                     std::atomic<std::uint64_t>& done, Body&& body) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, words, kGrainWords),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      body(r.begin(), r.end());
                      const std::uint64_t states = (r.end() - r.begin()) * 64;
                      const std::uint64_t total = done.fetch_add(states) + states;
                      if (options.on_progress) options.on_progress(total);
                    });
}

// `next` holds visited plus the states found so far in this level, so a
// neighbour costs one random probe (of next), not two.
void expand_top_down(const RollingCubesSpace& space, const AtomicBitmap& frontier,
                     AtomicBitmap& next, const RollingBfsOptions& options) {
  std::atomic<std::uint64_t> done{0};
  for_word_ranges(frontier.words(), options, done, [&](std::size_t begin, std::size_t end) {
    BlockCursor cursor(space, std::uint64_t{begin} * 64);
    // Neighbours not yet in next are gathered without a branch, then set:
    // whether a neighbour is new is unpredictable, a mispredicted branch.
    std::array<std::uint64_t, 64 * 4> fresh;
    for (std::size_t w = begin; w != end; ++w) {
      std::size_t count = 0;
      for (std::uint64_t bits = frontier.load_word(w); bits != 0; bits &= bits - 1)
        cursor.for_each_neighbour(std::uint64_t{w} * 64 + std::countr_zero(bits),
                                  [&](std::uint64_t n) {
                                    fresh[count] = n;
                                    count += !next.test(n);
                                    return false;
                                  });
      for (std::size_t i = 0; i < count; ++i) next.try_set(fresh[i]);
    }
  });
}

void expand_bottom_up(const RollingCubesSpace& space, const AtomicBitmap& visited,
                      const AtomicBitmap& frontier, AtomicBitmap& next,
                      const RollingBfsOptions& options) {
  const std::uint64_t states = space.size();
  std::atomic<std::uint64_t> done{0};
  for_word_ranges(visited.words(), options, done, [&](std::size_t begin, std::size_t end) {
    BlockCursor cursor(space, std::uint64_t{begin} * 64);
    for (std::size_t w = begin; w != end; ++w) {
      std::uint64_t found = 0;
      for (std::uint64_t bits = ~visited.load_word(w) & valid_bits(states, w); bits != 0;
           bits &= bits - 1) {
        const int bit = std::countr_zero(bits);
        if (cursor.for_each_neighbour(std::uint64_t{w} * 64 + bit,
                                      [&](std::uint64_t n) { return frontier.test(n); }))
          found |= std::uint64_t{1} << bit;
      }
      next.store_word(w, visited.load_word(w) | found);
    }
  });
}

// On entry next = visited + this level's states. frontier = next & ~visited;
// visited = next (so next = visited again, ready for the next level);
// returns the new states.
std::uint64_t advance(AtomicBitmap& visited, AtomicBitmap& frontier, const AtomicBitmap& next,
                      bfs::DepthTable* depths, unsigned depth) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, visited.words(), kGrainWords), std::uint64_t{0},
      [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t sum) {
        for (std::size_t w = r.begin(); w != r.end(); ++w) {
          const std::uint64_t old = visited.load_word(w);
          const std::uint64_t fresh = next.load_word(w) & ~old;
          frontier.store_word(w, fresh);
          if (fresh == 0) continue;
          visited.store_word(w, old | fresh);
          if (depths != nullptr) depths->record_word(w, fresh, depth);
          sum += static_cast<std::uint64_t>(std::popcount(fresh));
        }
        return sum;
      },
      std::plus<>());
}

// Top-down costs about (frontier x 3 neighbours) random probes, bottom-up
// about one probe per unvisited state until a frontier neighbour is found;
// both stream in rank order. Depends only on counts, never on timing.
bfs::Direction choose(bfs::DirectionPolicy policy, std::uint64_t frontier,
                      std::uint64_t unvisited) {
  if (policy == bfs::DirectionPolicy::TopDown) return bfs::Direction::TopDown;
  if (policy == bfs::DirectionPolicy::BottomUp) return bfs::Direction::BottomUp;
  return frontier * 2 > unvisited ? bfs::Direction::BottomUp : bfs::Direction::TopDown;
}

__extension__ typedef unsigned __int128 Count;

std::string to_decimal(Count n) {
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(n % 10)));
    n /= 10;
  } while (n != 0);
  return s;
}

struct Counted {
  std::uint64_t rank;
  Count count;
};

}  // namespace

std::vector<std::uint64_t> RollingBfsResult::distribution() const {
  std::vector<std::uint64_t> d;
  for (const auto& level : levels) d.push_back(level.states);
  return d;
}

RollingBfsResult rolling_bfs(const RollingCubesSpace& space, std::uint64_t source,
                             const RollingBfsOptions& options) {
  const std::uint64_t states = space.size();
  RollingBfsResult result;
  AtomicBitmap visited(states), frontier(states), next(states);
  if (options.depth_table) result.depths.emplace(states);
  bfs::DepthTable* depths = result.depths ? &*result.depths : nullptr;

  Stopwatch clock;
  next.try_set(source);
  std::uint64_t fresh = advance(visited, frontier, next, depths, 0);
  bfs::LevelStats level{0, fresh, clock.seconds(), bfs::Direction::TopDown};
  while (fresh != 0) {
    result.levels.push_back(level);
    result.reached += fresh;
    if (options.on_level) options.on_level(level);
    if (options.watch && !result.watch_depth && frontier.test(*options.watch)) {
      result.watch_depth = level.depth;
      if (options.stop_at_watch) break;
    }

    clock.restart();
    const bfs::Direction direction = choose(options.policy, fresh, states - result.reached);
    if (direction == bfs::Direction::TopDown)
      expand_top_down(space, frontier, next, options);
    else
      expand_bottom_up(space, visited, frontier, next, options);
    fresh = advance(visited, frontier, next, depths, level.depth + 1);
    level = bfs::LevelStats{level.depth + 1, fresh, clock.seconds(), direction};
  }
  return result;
}

ShortestSolution shortest_solution(const RollingCubesSpace& space, const bfs::DepthTable& depths,
                                   std::uint64_t start, std::uint64_t goal, unsigned depth) {
  ShortestSolution solution;
  solution.length = depth;
  solution.states = bfs::path_to_source(space, depths, {&start, 1}, goal);
  if (solution.states.size() != depth + 1)
    throw std::logic_error("shortest_solution: depth table disagrees with the goal's depth");
  std::reverse(solution.states.begin(), solution.states.end());
  for (std::size_t i = 0; i + 1 < solution.states.size(); ++i)
    solution.moves.push_back(space.move_between(solution.states[i], solution.states[i + 1]));
  return solution;
}

std::optional<std::string> count_shortest_sequences(const RollingCubesSpace& space,
                                                    const bfs::DepthTable& depths,
                                                    std::uint64_t start, std::uint64_t goal,
                                                    unsigned depth,
                                                    std::uint64_t max_layer_states) {
  std::vector<Counted> layer{{goal, 1}};
  for (unsigned k = depth; k-- > 0;) {
    const int closer = static_cast<int>(k % 3);
    tbb::enumerable_thread_specific<std::vector<Counted>> found;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, layer.size(), 4096),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        auto& local = found.local();
                        for (std::size_t i = r.begin(); i != r.end(); ++i)
                          space.for_each_neighbour(layer[i].rank, [&](std::uint64_t n) {
                            if (depths.depth_mod3(n) == closer)
                              local.push_back({n, layer[i].count});
                            return false;
                          });
                      });
    std::vector<Counted> edges;
    std::size_t total = 0;
    for (auto& local : found) total += local.size();
    if (total > max_layer_states) return std::nullopt;
    edges.reserve(total);
    for (auto& local : found) edges.insert(edges.end(), local.begin(), local.end());
    tbb::parallel_sort(edges.begin(), edges.end(),
                       [](const Counted& a, const Counted& b) { return a.rank < b.rank; });
    // Merge the edges into the layer: one entry per state, counts summed.
    layer.clear();
    for (const Counted& e : edges) {
      if (!layer.empty() && layer.back().rank == e.rank) {
        if (__builtin_add_overflow(layer.back().count, e.count, &layer.back().count))
          throw std::overflow_error("count_shortest_sequences: more than 2^128 sequences");
      } else {
        layer.push_back(e);
      }
    }
  }
  if (layer.size() != 1 || layer[0].rank != start)
    throw std::logic_error("count_shortest_sequences: depth table disagrees with the goal's depth");
  return to_decimal(layer[0].count);
}

}  // namespace cubenum::rolling
