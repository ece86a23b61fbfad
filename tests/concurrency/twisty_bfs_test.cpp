// The row engine gives the same levels at any thread count and in every
// direction, on definition files laid out whole and cut (column
// permutations that depend on the row), with both kinds of codes. Under
// ThreadSanitizer it runs 2 threads in the auto direction (every way of
// building a row: push, pull, permute) and by sweeps; the normal build runs
// the matrix.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "cubenum/bfs/row_bfs.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/twisty.hpp"
#include "cubenum/puzzles/twisty_space.hpp"
#include "sanitizer.hpp"

namespace cubenum::twisty {
namespace {

using cubenum::testing::kUnderThreadSanitizer;

std::vector<std::uint64_t> levels(const TwistySpace& space, bfs::DirectionPolicy policy,
                                  bfs::RowCodes codes, bool always_cycles = false) {
  const std::uint64_t source = space.solved_rank();
  bfs::RowBfsOptions options;
  options.policy = policy;
  options.codes = codes;
  options.always_cycles = always_cycles;
  return bfs::row_bfs(space, {&source, 1}, options).distribution();
}

TEST(TwistyBfs, SameLevelsAtAnyThreadCountInEveryDirection) {
  // Published (Scherphuis, jaapsch.net/puzzles/cube2.htm; OEIS A079762):
  // the pocket cube in quarter turns, one corner fixed. Under TSan, the
  // <U, R> subgroup (29,160 positions) against one thread.
  const std::vector<std::uint64_t> quarter = {
      1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276};
  const Definition def = load_definition(CUBENUM_DATA_DIR "/twisty/pocket-cube.tws");
  const MoveChoice choice =
      kUnderThreadSanitizer ? MoveChoice{{"U", "R"}, true} : MoveChoice{{"U", "F", "R"}, true};
  SpaceOptions whole, cut;
  cut.max_columns = 200;  // the corners cut: permutations by context
  std::vector<bfs::DirectionPolicy> policies = {bfs::DirectionPolicy::Auto};
  std::vector<int> thread_counts = {2};
  if (!kUnderThreadSanitizer) {
    policies.insert(policies.end(),
                    {bfs::DirectionPolicy::TopDown, bfs::DirectionPolicy::BottomUp});
    thread_counts.insert(thread_counts.end(), {1, 3});
  }
  for (const SpaceOptions* options : {&whole, &cut}) {
    const TwistySpace space(def, expand_moves(def, choice), *options);
    std::vector<std::uint64_t> expected = quarter;
    if (kUnderThreadSanitizer) {
      cubenum::ThreadLimit one(1);
      expected = levels(space, bfs::DirectionPolicy::Auto, bfs::RowCodes::DepthMod3);
      EXPECT_EQ(std::accumulate(expected.begin(), expected.end(), std::uint64_t{0}), 29160U);
    }
    for (auto codes : {bfs::RowCodes::DepthMod3, bfs::RowCodes::Frontier})
      for (auto policy : policies)
        for (int threads : thread_counts) {
          if (codes == bfs::RowCodes::Frontier && policy != bfs::DirectionPolicy::Auto) continue;
          cubenum::ThreadLimit limit(threads);
          EXPECT_EQ(levels(space, policy, codes), expected)
              << space.notes().back() << ", policy " << static_cast<int>(policy) << ", " << threads
              << " threads";
        }
  }
}

// Sweeps (every level by the rows' cycles, one thread a cycle) against
// the same space row by row on one thread: the half turn metric, where
// every power of U, F and R is a move. Published (Scherphuis, OEIS
// A079761); under TSan the <U, R> subgroup.
TEST(TwistyBfs, SweepsGiveTheSameLevelsAtAnyThreadCount) {
  const Definition def = load_definition(CUBENUM_DATA_DIR "/twisty/pocket-cube.tws");
  const MoveChoice choice =
      kUnderThreadSanitizer ? MoveChoice{{"U", "R"}, false} : MoveChoice{{"U", "F", "R"}, false};
  SpaceOptions whole, cut;
  cut.max_columns = 200;
  for (const SpaceOptions* options : {&whole, &cut}) {
    const TwistySpace space(def, expand_moves(def, choice), *options);
    std::vector<std::uint64_t> expected = {1,     9,      54,     321,     1847,   9992,
                                           50136, 227536, 870072, 1887748, 623800, 2644};
    if (kUnderThreadSanitizer) {
      cubenum::ThreadLimit one(1);
      expected = levels(space, bfs::DirectionPolicy::TopDown, bfs::RowCodes::DepthMod3);
      EXPECT_EQ(std::accumulate(expected.begin(), expected.end(), std::uint64_t{0}), 29160U);
    }
    for (auto codes : {bfs::RowCodes::DepthMod3, bfs::RowCodes::Frontier})
      for (int threads : {2, 3}) {
        cubenum::ThreadLimit limit(threads);
        EXPECT_EQ(levels(space, bfs::DirectionPolicy::Auto, codes, true), expected)
            << space.notes().back() << ", " << threads << " threads";
      }
  }
}

}  // namespace
}  // namespace cubenum::twisty
