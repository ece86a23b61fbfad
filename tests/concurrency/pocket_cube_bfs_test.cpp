// The pocket cube's BFS gives the same levels in every direction and at any
// thread count. Under ThreadSanitizer one full BFS costs about 13 s, so there
// it runs once, on 2 threads in the auto direction (both directions run);
// the normal build runs the whole matrix (about 70 ms a run).
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <vector>

#include "cubenum/puzzles/pocket_cube.hpp"

namespace cubenum::pocket_cube {
namespace {

#if defined(__SANITIZE_THREAD__)
constexpr bool kUnderThreadSanitizer = true;
#else
constexpr bool kUnderThreadSanitizer = false;
#endif

TEST(PocketCubeBfs, SameLevelsInEveryDirectionAndAtAnyThreadCount) {
  // Published QTM table (Scherphuis, jaapsch.net/puzzles/cube2.htm; OEIS A079762).
  const std::vector<std::uint64_t> published = {
      1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276};
  std::vector<bfs::DirectionPolicy> policies = {bfs::DirectionPolicy::Auto};
  std::vector<int> thread_counts = {2};
  if (!kUnderThreadSanitizer) {
    policies.insert(policies.end(),
                    {bfs::DirectionPolicy::TopDown, bfs::DirectionPolicy::BottomUp});
    thread_counts.insert(thread_counts.end(), {1, 3});
  }
  for (auto policy : policies) {
    for (int threads : thread_counts) {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
      const Enumeration e = enumerate(Metric::Quarter, false, policy);
      EXPECT_EQ(e.distribution, published) << static_cast<int>(policy) << " " << threads;
      if (policy == bfs::DirectionPolicy::Auto) {
        bool top_down = false, bottom_up = false;
        for (const auto& level : e.levels) {
          top_down |= level.direction == bfs::Direction::TopDown;
          bottom_up |= level.direction == bfs::Direction::BottomUp;
        }
        EXPECT_TRUE(top_down && bottom_up);
      }
    }
  }
}

}  // namespace
}  // namespace cubenum::pocket_cube
