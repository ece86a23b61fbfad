// The sudoku cube: reading the seed's instance and the whole grid search.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/sudoku_cube.hpp"

namespace {

namespace sc = cubenum::sudoku_cube;

void BM_SudokuCubeGridSearch(benchmark::State& state) {
  cubenum::ThreadLimit limit(static_cast<std::size_t>(state.range(0)));
  const sc::Instance seed = sc::load_instance(sc::default_instance_path());
  for (auto _ : state) benchmark::DoNotOptimize(sc::solve_grid(seed).solutions.size());
}
BENCHMARK(BM_SudokuCubeGridSearch)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_SudokuCubeParseInstance(benchmark::State& state) {
  std::ifstream in(sc::default_instance_path());
  std::stringstream text;
  text << in.rdbuf();
  const std::string content = text.str();
  for (auto _ : state) {
    std::istringstream stream(content);
    benchmark::DoNotOptimize(sc::parse_instance(stream, "seed.txt"));
  }
}
BENCHMARK(BM_SudokuCubeParseInstance)->Unit(benchmark::kMicrosecond);

}  // namespace
