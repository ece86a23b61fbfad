// Rolling cubes: the full 3x3 run against a plain single-threaded
// implementation, and the encoding benchmark (rank + bitmap, packed state
// in an XXH3 set, the seed's tuple-of-tuples layout as a map keyed by a
// vector of vectors).
#include <benchmark/benchmark.h>

#include <map>
#include <queue>
#include <vector>

#include "cubenum/bfs/frontier_bfs.hpp"
#include "cubenum/bfs/hashed_bfs.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/rolling_cubes.hpp"
#include "rolling_cubes_baseline.hpp"

namespace {

using namespace cubenum;
using namespace cubenum::rolling;

// Everything `cubenum rolling-cubes bfs` computes, as the CLI does it.
void BM_RollingCubesFullBfs(benchmark::State& state) {
  const auto rows = static_cast<unsigned>(state.range(0)),
             cols = static_cast<unsigned>(state.range(1));
  cubenum::ThreadLimit limit(static_cast<std::size_t>(state.range(2)));
  for (auto _ : state) {
    const RollingCubesSpace space(rows, cols);
    const std::uint64_t start = space.rank(uniform_grid(rows, cols, 0));
    const std::uint64_t goal = space.rank(uniform_grid(rows, cols, 1));
    RollingBfsOptions options;
    options.watch = goal;
    const auto result = rolling_bfs(space, start, options);
    const auto solution =
        shortest_solution(space, *result.depths, start, goal, *result.watch_depth);
    const auto count =
        count_shortest_sequences(space, *result.depths, start, goal, solution.length, ~0ULL);
    benchmark::DoNotOptimize(count);
    state.counters["states"] = static_cast<double>(result.reached);
  }
}
BENCHMARK(BM_RollingCubesFullBfs)
    ->ArgsProduct({{3}, {3}, {1, 2}})
    ->ArgNames({"rows", "cols", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_RollingCubesPlainBaseline(benchmark::State& state) {
  const auto rows = static_cast<unsigned>(state.range(0)),
             cols = static_cast<unsigned>(state.range(1));
  for (auto _ : state) {
    const auto result = bench::plain_rolling_bfs(rows, cols);
    benchmark::DoNotOptimize(result.sequences);
    state.counters["sequences"] = static_cast<double>(result.sequences);
  }
}
BENCHMARK(BM_RollingCubesPlainBaseline)
    ->Args({3, 3})
    ->ArgNames({"rows", "cols"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();

// --- The encoding benchmark: BFS distribution only, one thread. ---

void BM_RollingCubesEncodingRankBitmap(benchmark::State& state) {
  const auto rows = static_cast<unsigned>(state.range(0)),
             cols = static_cast<unsigned>(state.range(1));
  cubenum::ThreadLimit limit(1);
  const RollingCubesSpace space(rows, cols);
  const std::uint64_t start = space.rank(uniform_grid(rows, cols, 0));
  for (auto _ : state) {
    RollingBfsOptions options;
    options.depth_table = false;
    benchmark::DoNotOptimize(rolling_bfs(space, start, options).reached);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * space.size()));
}

void BM_RollingCubesEncodingPackedXxh3Set(benchmark::State& state) {
  const auto rows = static_cast<unsigned>(state.range(0)),
             cols = static_cast<unsigned>(state.range(1));
  cubenum::ThreadLimit limit(1);
  const PackedRollingCubes space(rows, cols);
  const std::uint64_t start = PackedRollingCubes::pack(uniform_grid(rows, cols, 0));
  const std::uint64_t states = RollingCubesSpace(rows, cols).size();
  for (auto _ : state)
    benchmark::DoNotOptimize(bfs::hashed_bfs(space, {&start, 1}, states).reached);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * states));
}

// The seed's layout: a state is a tuple of row tuples (None for the empty
// cell), kept in a dictionary. Here: a std::map keyed by vector<vector<int>>.
void BM_RollingCubesEncodingMapOfNestedVectors(benchmark::State& state) {
  const auto rows = static_cast<int>(state.range(0)), cols = static_cast<int>(state.range(1));
  using Nested = std::vector<std::vector<int>>;
  const int dr[4] = {1, -1, 0, 0}, dc[4] = {0, 0, 1, -1};
  std::int64_t states = 0;
  for (auto _ : state) {
    Nested start(static_cast<std::size_t>(rows),
                 std::vector<int>(static_cast<std::size_t>(cols), 0));
    start[static_cast<std::size_t>(rows / 2)][static_cast<std::size_t>(cols / 2)] = -1;
    std::map<Nested, int> depth{{start, 0}};
    std::queue<Nested> queue;
    queue.push(start);
    while (!queue.empty()) {
      const Nested grid = queue.front();
      queue.pop();
      int er = 0, ec = 0;
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
          if (grid[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] < 0) er = r, ec = c;
      for (int m = 0; m < 4; ++m) {
        const int fr = er + dr[m], fc = ec + dc[m];
        if (fr < 0 || fc < 0 || fr >= rows || fc >= cols) continue;
        Nested next = grid;
        auto& from = next[static_cast<std::size_t>(fr)][static_cast<std::size_t>(fc)];
        next[static_cast<std::size_t>(er)][static_cast<std::size_t>(ec)] =
            kRollTable[static_cast<std::size_t>(m)][static_cast<std::size_t>(from)];
        from = -1;
        if (depth.emplace(next, depth[grid] + 1).second) queue.push(std::move(next));
      }
    }
    states = static_cast<std::int64_t>(depth.size());
  }
  state.SetItemsProcessed(state.iterations() * states);
}

#define ENCODING_SIZES \
  ArgsProduct({{2}, {3, 4}})->ArgNames({"rows", "cols"})->Unit(benchmark::kMillisecond)
BENCHMARK(BM_RollingCubesEncodingRankBitmap)->ENCODING_SIZES;
BENCHMARK(BM_RollingCubesEncodingPackedXxh3Set)->ENCODING_SIZES;
BENCHMARK(BM_RollingCubesEncodingMapOfNestedVectors)->ENCODING_SIZES;
#undef ENCODING_SIZES

}  // namespace
