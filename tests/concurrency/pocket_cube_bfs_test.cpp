// The pocket cube's BFS gives the same levels in every direction and at any
// thread count, in both metrics. Under ThreadSanitizer it runs only on 2
// threads in the auto direction (which uses every way of building a row);
// the normal build runs the whole matrix (a few ms a run).
#include <gtest/gtest.h>

#include <vector>

#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/pocket_cube.hpp"
#include "sanitizer.hpp"

namespace cubenum::pocket_cube {
namespace {

using cubenum::testing::kUnderThreadSanitizer;

TEST(PocketCubeBfs, SameLevelsInEveryDirectionAndAtAnyThreadCount) {
  // Published tables (Scherphuis, jaapsch.net/puzzles/cube2.htm; OEIS A079762
  // for the quarter turns, A079761 for the half turns).
  const std::vector<std::uint64_t> quarter = {
      1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276};
  const std::vector<std::uint64_t> half = {1,     9,      54,     321,     1847,   9992,
                                           50136, 227536, 870072, 1887748, 623800, 2644};
  std::vector<bfs::DirectionPolicy> policies = {bfs::DirectionPolicy::Auto};
  std::vector<int> thread_counts = {2};
  if (!kUnderThreadSanitizer) {
    policies.insert(policies.end(),
                    {bfs::DirectionPolicy::TopDown, bfs::DirectionPolicy::BottomUp});
    thread_counts.insert(thread_counts.end(), {1, 3});
  }
  for (Metric metric : {Metric::Quarter, Metric::Half}) {
    for (auto policy : policies) {
      for (int threads : thread_counts) {
        cubenum::ThreadLimit limit(threads);
        const Enumeration e = enumerate(metric, false, policy);
        EXPECT_EQ(e.distribution, metric == Metric::Quarter ? quarter : half)
            << metric_name(metric) << " " << static_cast<int>(policy) << " " << threads;
        if (policy != bfs::DirectionPolicy::Auto) continue;
        // Auto pushes the sparse levels and gathers the dense ones by move
        // cycles (in QTM too: U' acts on the rows as U^3).
        bfs::RowWork work;
        for (const auto& level : e.levels) work += level.work;
        EXPECT_GT(work.pushed, 0U);
        EXPECT_GT(work.cycled, 0U);
      }
    }
  }
}

}  // namespace
}  // namespace cubenum::pocket_cube
