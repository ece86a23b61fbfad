// Foam pieces on shapes of unit cubes: an exhaustive count on the 2x1x1
// cuboid and first solutions of the star (30 faces) and the 3x3x3 cube.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>

#include "cubenum/core/parallel.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/puzzles/foam_shape.hpp"
#include "cubenum/search/selection_set.hpp"

namespace {

using namespace cubenum;

const std::string kData = std::string(CUBENUM_DATA_DIR);

puzzles::FoamSet set_of(const std::string& name) {
  return puzzles::load_foam_set(kData + "/foam/" + name + ".txt");
}

// The 2x1x1 from 12 pieces on one thread; with `choices` 0 as
// `--no-choices` counts it, without canonical forms.
void BM_FoamShapeCountCuboidOriginalBlueGreen(benchmark::State& state) {
  cubenum::ThreadLimit one(1);
  const auto shape = puzzles::load_foam_shape("cuboid:2x1x1");
  const auto pool = puzzles::foam_shape_pool({set_of("happy-cube-original")},
                                             puzzles::FoamBy::Identity, {"blue", "green"});
  progress::set_mode(progress::Mode::Never);
  Progress placements("bench", 0, "placements");
  search::AssemblyOptions options;
  options.nodes = &placements;
  options.count_selections = state.range(0) != 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(puzzles::count_foam_shape(shape, pool, options).raw);
  state.counters["placements"] =
      benchmark::Counter(static_cast<double>(placements.done()), benchmark::Counter::kIsRate);
}

// The 3x1x1 from Marble's three colours (18 pieces) on one thread, by
// identity and by shape in one search (`--by both`): where the fill order
// tells the search's speed (faces by shared cells, not by neighbours:
// results/foam-shapes.md).
void BM_FoamShapeCount3x1x1MarbleThreeColours(benchmark::State& state) {
  cubenum::ThreadLimit one(1);
  const auto shape = puzzles::load_foam_shape("cuboid:3x1x1");
  const auto pool =
      puzzles::foam_shape_pool({set_of("happy-cube-marble")}, puzzles::FoamBy::Identity,
                               {"blue", "green", "red"}, /*via_shapes=*/true);
  progress::set_mode(progress::Mode::Never);
  Progress placements("bench", 0, "placements");
  search::AssemblyOptions options;
  options.nodes = &placements;
  options.tally_by_shape = true;
  for (auto _ : state)
    benchmark::DoNotOptimize(puzzles::count_foam_shape(shape, pool, options).raw);
  state.counters["placements"] =
      benchmark::Counter(static_cast<double>(placements.done()), benchmark::Counter::kIsRate);
}

// The 2x1x1 from three Little Genius themes (18 pieces in 8 shapes) by
// shape on one thread: the search (method 0) against the layers (1).
void BM_FoamShapeCountCuboidLittleGeniusThemes(benchmark::State& state) {
  cubenum::ThreadLimit one(1);
  const auto shape = puzzles::load_foam_shape("cuboid:2x1x1");
  const auto pool =
      puzzles::foam_shape_pool({set_of("happy-cube-little-genius")}, puzzles::FoamBy::Shape,
                               {"nature", "fruits", "animals"});
  progress::set_mode(progress::Mode::Never);
  for (auto _ : state)
    benchmark::DoNotOptimize(state.range(0) == 0
                                 ? puzzles::count_foam_shape(shape, pool).raw
                                 : puzzles::count_foam_shape_by_layers(shape, pool).raw);
}

void first_solution(benchmark::State& state, const std::string& shape_file,
                    const std::vector<std::string>& sets) {
  const auto shape = puzzles::load_foam_shape(kData + "/shapes/" + shape_file);
  std::vector<puzzles::FoamSet> loaded;
  for (const auto& s : sets) loaded.push_back(set_of(s));
  const auto pool = puzzles::foam_shape_pool(loaded, puzzles::FoamBy::Identity);
  search::FirstOptions options;
  for (auto _ : state) {
    const auto found = puzzles::first_foam_shape(shape, pool, options);
    if (found.solutions.empty()) state.SkipWithError("no solution");
    ++options.seed;
  }
}

void BM_FoamShapeFirstStarOriginal(benchmark::State& state) {
  first_solution(state, "star.slv.cubes.txt", {"happy-cube-original"});
}

void BM_FoamShapeFirstCube3AllSeries(benchmark::State& state) {
  first_solution(state, "cube3x3x3.slv.cubes.txt",
                 {"happy-cube-little-genius", "happy-cube-marble", "happy-cube-micro",
                  "happy-cube-original", "happy-cube-profi"});
}

// A count's piece choices: a million selections of 24 of 36 distinct
// pieces (the 2x2x2 from a box), nearly all new, into a set packed by the
// pieces' copies (1: one bit a piece, one word) or not (0: 16 bits a kind,
// six words).
void BM_SelectionSetInsert2x2x2Box(benchmark::State& state) {
  std::vector<std::vector<std::uint16_t>> selections(1 << 20);
  std::mt19937_64 random(5);
  std::vector<std::uint16_t> box(36);
  for (std::uint16_t k = 0; k < 36; ++k) box[k] = k;
  for (auto& s : selections) {
    std::shuffle(box.begin(), box.end(), random);
    s.assign(box.begin(), box.begin() + 24);
  }
  std::size_t bytes = 0;
  for (auto _ : state) {
    search::SelectionSet set = state.range(0) != 0
                                   ? search::SelectionSet(std::vector<std::uint16_t>(36, 1))
                                   : search::SelectionSet();
    for (const auto& s : selections) set.insert(s);
    bytes = set.slot_bytes();
    benchmark::DoNotOptimize(set.size());
  }
  state.counters["slot_bytes"] = static_cast<double>(bytes);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(selections.size()));
}

}  // namespace

BENCHMARK(BM_SelectionSetInsert2x2x2Box)
    ->ArgName("packed")
    ->Arg(1)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FoamShapeCountCuboidOriginalBlueGreen)
    ->ArgName("choices")
    ->Arg(1)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FoamShapeCount3x1x1MarbleThreeColours)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FoamShapeCountCuboidLittleGeniusThemes)
    ->ArgName("layers")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FoamShapeFirstStarOriginal)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FoamShapeFirstCube3AllSeries)->Unit(benchmark::kMillisecond);
