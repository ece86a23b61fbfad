// The polycube engine (search/voxel_cover.hpp): search nodes (placements
// that fit and pass the dead-region cut) per second on the pentomino
// rectangles and boxes, on one thread and on two, with each rule for the
// next cell (0: the lowest, 1: the one with the fewest ways); and the
// set-up (placements, the target's group, the orbits of the first piece).
#include <benchmark/benchmark.h>

#include <string>

#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/polycube.hpp"
#include "cubenum/search/voxel_cover.hpp"

namespace {

using cubenum::search::CellChoice;
using cubenum::search::VoxelCover;

cubenum::polycube::Problem load(const std::string& name) {
  return cubenum::polycube::read_polycube_text(std::string(CUBENUM_DATA_DIR "/polycubes/") + name)
      .problems.at(0);
}

void count(benchmark::State& state, const std::string& file) {
  const auto problem = load(file);
  VoxelCover cover(problem, file);
  cover.set_cell_choice(state.range(1) == 0 ? CellChoice::lowest : CellChoice::fewest_fits);
  cubenum::ThreadLimit limit(static_cast<std::size_t>(state.range(0)));
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    const auto c = cover.count();
    nodes += c.nodes;
    benchmark::DoNotOptimize(c.raw);
  }
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}

void BM_PolycubeCount6x10(benchmark::State& state) {
  count(state, "pentomino-6x10.txt");
}
BENCHMARK(BM_PolycubeCount6x10)
    ->ArgsProduct({{1, 2}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_PolycubeCount2x5x6(benchmark::State& state) {
  count(state, "pentomino-2x5x6.txt");
}
BENCHMARK(BM_PolycubeCount2x5x6)
    ->ArgsProduct({{1, 2}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_PolycubeSetUp3x4x5(benchmark::State& state) {
  const auto problem = load("pentomino-3x4x5.txt");
  for (auto _ : state) {
    const VoxelCover cover(problem, "pentomino-3x4x5");
    benchmark::DoNotOptimize(cover.placements());
  }
}
BENCHMARK(BM_PolycubeSetUp3x4x5)->Unit(benchmark::kMillisecond);

}  // namespace
