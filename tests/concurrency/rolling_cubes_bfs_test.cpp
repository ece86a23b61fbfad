// The rolling-cubes BFS under several threads (also run under
// ThreadSanitizer): same layers as one thread, in both directions.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "cubenum/puzzles/rolling_cubes.hpp"

namespace cubenum::rolling {
namespace {

TEST(RollingBfsConcurrency, SameLayersAtFourThreadsInBothDirections) {
  const RollingCubesSpace space(2, 3);  // 46,656 states
  const std::uint64_t source = space.rank(uniform_grid(2, 3, 0));
  std::vector<std::uint64_t> expected;
  {
    tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
    expected = rolling_bfs(space, source).distribution();
  }
  tbb::global_control four(tbb::global_control::max_allowed_parallelism, 4);
  for (auto policy : {bfs::DirectionPolicy::TopDown, bfs::DirectionPolicy::BottomUp}) {
    RollingBfsOptions options;
    options.policy = policy;
    const auto result = rolling_bfs(space, source, options);
    EXPECT_EQ(result.distribution(), expected);
    EXPECT_EQ(result.reached, space.size());  // 2x3 is connected (brute force in the unit test)
  }
}

}  // namespace
}  // namespace cubenum::rolling
