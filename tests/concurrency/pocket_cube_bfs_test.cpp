// The pocket cube's BFS gives the same levels in every direction and at any
// thread count (kept small: this file also runs under ThreadSanitizer).
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "cubenum/puzzles/pocket_cube.hpp"

namespace cubenum::pocket_cube {
namespace {

TEST(PocketCubeBfs, SameLevelsInEveryDirectionAndAtAnyThreadCount) {
  // Published QTM table (Scherphuis, jaapsch.net/puzzles/cube2.htm).
  const std::vector<std::uint64_t> published = {
      1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276};
  for (auto policy : {bfs::DirectionPolicy::TopDown, bfs::DirectionPolicy::BottomUp,
                      bfs::DirectionPolicy::Auto}) {
    for (int threads : {1, 2}) {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
      EXPECT_EQ(enumerate(Metric::Quarter, false, policy).distribution, published);
    }
  }
}

}  // namespace
}  // namespace cubenum::pocket_cube
