// The pocket cube's encodings, as the seed and its successors used them, and
// whole-BFS throughput (items = positions reached, so items/s = states/s):
//   SeedStickers   24 stickers, the seed's id (least of the 24 rotations'
//                  digit strings) in a std::unordered_set, 12 quarter turns;
//                  the first 8 QTM levels (159,120 positions), one thread.
//   PackedHashed   8 corners packed in 64 bits (Kociemba's cubie moves) in
//                  the lock-free XXH3 set: the whole QTM BFS.
//   CoordBitmap    corner coordinates, move tables, bitmaps: the frontier
//                  engine's whole QTM / HTM BFS (one rank per state);
//   CoordRows      the same coordinates in the product engine: a row of 729
//                  twist bits (by slot) per permutation, moved whole through
//                  Beneš networks;
//   PieceRows      twists by piece in the shift engine: a turn moves a row
//                  and adds a twist vector to its columns (pocket_cube::
//                  enumerate, what `cubenum pocket-cube bfs` runs).
// The argument is the thread count; rates use wall-clock time.
#include <benchmark/benchmark.h>

#include <string>
#include <unordered_set>
#include <vector>

#include "cubenum/bfs/frontier_bfs.hpp"
#include "cubenum/bfs/hashed_bfs.hpp"
#include "cubenum/bfs/row_policies.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/pocket_cube.hpp"
#include "cubenum/puzzles/pocket_cube_packed.hpp"
#include "cubenum/puzzles/twisty_space.hpp"

namespace {

namespace pc = cubenum::pocket_cube;

void BM_SeedStickersBfs8Levels(benchmark::State& state) {
  std::vector<pc::Turn> turns;
  for (int f = 0; f < cubenum::kFaceCount; ++f)
    for (std::uint8_t q : {1, 3}) turns.push_back({static_cast<cubenum::Face>(f), q});
  std::uint64_t reached = 0;
  for (auto _ : state) {
    std::unordered_set<std::string> seen{pc::seed_id(pc::solved_stickers())};
    std::vector<pc::Stickers> frontier{pc::solved_stickers()};
    for (int level = 0; level < 8; ++level) {
      std::vector<pc::Stickers> next;
      for (const pc::Stickers& s : frontier)
        for (const pc::Turn& t : turns) {
          const pc::Stickers n = pc::apply_turn(s, t);
          if (seen.insert(pc::seed_id(n)).second) next.push_back(n);
        }
      frontier.swap(next);
    }
    reached = seen.size();
    benchmark::DoNotOptimize(reached);
  }
  state.counters["positions"] = static_cast<double>(reached);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(reached));
}
BENCHMARK(BM_SeedStickersBfs8Levels)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PackedHashedBfsQtm(benchmark::State& state) {
  cubenum::ThreadLimit limit(state.range(0));
  const std::uint64_t solved = pc::PackedPocketCube::solved();
  std::uint64_t reached = 0;
  for (auto _ : state) {
    reached =
        cubenum::bfs::hashed_bfs(pc::PackedPocketCube(false), {&solved, 1}, pc::kPositionCount)
            .reached;
    benchmark::DoNotOptimize(reached);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(reached));
}
BENCHMARK(BM_PackedHashedBfsQtm)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2)
    ->UseRealTime();

void CoordBitmapBfs(benchmark::State& state, pc::Metric metric) {
  cubenum::ThreadLimit limit(state.range(0));
  std::uint64_t reached = 0;
  const std::uint64_t solved = 0;
  for (auto _ : state) {
    reached = cubenum::bfs::frontier_bfs(pc::PocketCubeSpace(metric), {&solved, 1}).reached;
    benchmark::DoNotOptimize(reached);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(reached));
}

void CoordRowsBfs(benchmark::State& state, pc::Metric metric) {
  cubenum::ThreadLimit limit(state.range(0));
  std::uint64_t reached = 0;
  const std::uint64_t solved = 0;
  for (auto _ : state) {
    reached = cubenum::bfs::row_bfs<cubenum::bfs::PlaneRows>(
                  cubenum::bfs::ProductRows(pc::PocketCubeSpace(metric)), {&solved, 1})
                  .reached;
    benchmark::DoNotOptimize(reached);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(reached));
}

void PieceRowsBfs(benchmark::State& state, pc::Metric metric) {
  cubenum::ThreadLimit limit(state.range(0));
  std::uint64_t reached = 0;
  for (auto _ : state) {
    reached = pc::enumerate(metric, false).states();
    benchmark::DoNotOptimize(reached);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(reached));
}
// The same puzzle from its definition file (data/twisty/pocket-cube.tws,
// moves U, F, R): the generic ranking and tables, two bits a state, as
// `twisty bfs` runs it; the space is built in each iteration, as in a run.
void TwistyRowsBfs(benchmark::State& state, bool quarter) {
  namespace tw = cubenum::twisty;
  cubenum::ThreadLimit limit(state.range(0));
  const tw::Definition def = tw::load_definition(CUBENUM_DATA_DIR "/twisty/pocket-cube.tws");
  const auto moves = tw::expand_moves(def, {{"U", "F", "R"}, quarter});
  std::uint64_t reached = 0;
  for (auto _ : state) {
    const tw::TwistySpace space(def, moves);
    const std::uint64_t solved = space.solved_rank();
    reached = cubenum::bfs::row_bfs(space, {&solved, 1}).reached;
    benchmark::DoNotOptimize(reached);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(reached));
}
void BM_TwistyRowsBfsQtm(benchmark::State& state) {
  TwistyRowsBfs(state, true);
}
void BM_TwistyRowsBfsHtm(benchmark::State& state) {
  TwistyRowsBfs(state, false);
}
BENCHMARK(BM_TwistyRowsBfsQtm)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TwistyRowsBfsHtm)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PieceRowsBfsQtm(benchmark::State& state) {
  PieceRowsBfs(state, pc::Metric::Quarter);
}
void BM_PieceRowsBfsHtm(benchmark::State& state) {
  PieceRowsBfs(state, pc::Metric::Half);
}
BENCHMARK(BM_PieceRowsBfsQtm)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PieceRowsBfsHtm)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
void BM_CoordRowsBfsQtm(benchmark::State& state) {
  CoordRowsBfs(state, pc::Metric::Quarter);
}
void BM_CoordRowsBfsHtm(benchmark::State& state) {
  CoordRowsBfs(state, pc::Metric::Half);
}
BENCHMARK(BM_CoordRowsBfsQtm)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CoordRowsBfsHtm)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
void BM_CoordBitmapBfsQtm(benchmark::State& state) {
  CoordBitmapBfs(state, pc::Metric::Quarter);
}
void BM_CoordBitmapBfsHtm(benchmark::State& state) {
  CoordBitmapBfs(state, pc::Metric::Half);
}
BENCHMARK(BM_CoordBitmapBfsQtm)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CoordBitmapBfsHtm)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
