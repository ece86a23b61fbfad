// Building a definition file's space of symmetry classes (twisty_class_
// space.hpp) as `twisty bfs --over classes` does before its first level:
// the C table, R's tables and each class's steps, or the block tables.
//   TilesClassSpace  data/twisty/tiles-3x3.tws (twsearch's turnfour): C the
//                    9 tiles (362,880 values, 8 symmetries), R their twists
//                    tied to the cells, shifted by C's arrangement;
//   DinoClassSpace   data/twisty/dino.tws: C the blocks of its 12 edges
//                    (34,650 values, 48 symmetries), the block tables.
// Items are values of C. The argument is the thread count.
#include <benchmark/benchmark.h>

#include <string>

#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/twisty_class_space.hpp"
#include "cubenum/puzzles/twisty_symmetry.hpp"

namespace {

namespace tw = cubenum::twisty;

void ClassSpaceBuild(benchmark::State& state, const std::string& file) {
  cubenum::ThreadLimit limit(state.range(0));
  const tw::Definition def = tw::load_definition(std::string(CUBENUM_DATA_DIR "/twisty/") + file);
  const auto moves = tw::expand_moves(def, {});
  const tw::SymmetryGroup group(def, moves, {});
  const tw::TwistySpace space(def, moves);
  const tw::SymCoordinate split = tw::choose_sym_coordinate(space, group);
  std::uint64_t classes = 0;
  for (auto _ : state) {
    const tw::ClassSpace built(space, group, split);
    classes = built.c_classes();
    benchmark::DoNotOptimize(classes);
  }
  state.counters["c_classes"] = static_cast<double>(classes);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(split.values));
}

void BM_TilesClassSpace(benchmark::State& state) {
  ClassSpaceBuild(state, "tiles-3x3.tws");
}
void BM_DinoClassSpace(benchmark::State& state) {
  ClassSpaceBuild(state, "dino.tws");
}
BENCHMARK(BM_TilesClassSpace)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DinoClassSpace)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
