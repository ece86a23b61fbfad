// The nine-colour cube: the full count (search, canonical forms, kinds) at
// a given thread count, the bare sequential search, and one canonical form.
#include <benchmark/benchmark.h>

#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/nine_colour_cube.hpp"

namespace {

namespace nc = cubenum::nine_colour;

void BM_NineColourCount(benchmark::State& state) {
  cubenum::ThreadLimit limit(static_cast<std::size_t>(state.range(0)));
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    const nc::NineColourCounts counts = nc::count_colourings();
    nodes = counts.search_nodes;
    benchmark::DoNotOptimize(counts.classes.up_to_colours);
  }
  state.counters["nodes/s"] =
      benchmark::Counter(double(nodes), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_NineColourCount)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_NineColourSequentialSearch(benchmark::State& state) {
  for (auto _ : state) {
    std::size_t n = 0;
    nc::for_each_solution([&](const nc::Colouring&) { ++n; });
    benchmark::DoNotOptimize(n);
  }
}
BENCHMARK(BM_NineColourSequentialSearch)->Unit(benchmark::kMillisecond);

void BM_NineColourCanonicalForm48(benchmark::State& state) {
  nc::Colouring first{};
  nc::for_each_solution([&](const nc::Colouring& c) {
    if (first == nc::Colouring{}) first = c;
  });
  for (auto _ : state) benchmark::DoNotOptimize(nc::canonical_form(first, 48));
}
BENCHMARK(BM_NineColourCanonicalForm48);

}  // namespace
