// The rolling-cubes BFS under several threads (also run under
// ThreadSanitizer): same layers as one thread, in both directions.
#include <gtest/gtest.h>

#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/rolling_cubes.hpp"

namespace cubenum::rolling {
namespace {

TEST(RollingBfsConcurrency, SameLayersAtFourThreadsInBothDirections) {
  const RollingCubesSpace space(2, 3);  // 46,656 states
  const std::uint64_t source = space.rank(uniform_grid(2, 3, 0));
  std::vector<std::uint64_t> expected;
  {
    cubenum::ThreadLimit one(1);
    expected = rolling_bfs(space, source).distribution();
  }
  cubenum::ThreadLimit four(4);
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
