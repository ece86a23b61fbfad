// product_bfs agrees with layer counts known in closed form, with the
// generic frontier_bfs, and with itself in every direction and at any
// thread count; move cycles are used where the moves have them.
#include "cubenum/bfs/product_bfs.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <bit>
#include <stdexcept>

#include "cubenum/bfs/frontier_bfs.hpp"
#include "toy_spaces.hpp"

namespace cubenum {
namespace {

using testing::ProductToy;

using testing::kPolicies;

bfs::ProductBfsResult run(const ProductToy& toy, bfs::DirectionPolicy policy, int threads) {
  return testing::run_rows([](const auto&... a) { return bfs::product_bfs(a...); }, toy, policy,
                           threads);
}

TEST(ProductBfs, TorusLayersAreSumsOfCyclicDistances) {
  // 201 columns: four words a row, the last one partly padding.
  for (auto [a, b] : {std::pair{9U, 201U}, std::pair{1U, 64U}, std::pair{6U, 7U}}) {
    const ProductToy toy = testing::torus(a, b);
    for (auto policy : kPolicies)
      for (int threads : {1, 2, 4})
        EXPECT_EQ(run(toy, policy, threads).distribution(), testing::torus_layers(a, b))
            << a << "x" << b << " policy " << static_cast<int>(policy) << " threads " << threads;
  }
}

TEST(ProductBfs, SwapPairsGiveConvolvedMahonianRows) {
  // 120 rows x 720 columns (12 words a row, like the pocket cube's twists).
  const ProductToy toy = testing::swap_pairs<5, 6>();
  const auto expected = testing::convolve(testing::mahonian(5), testing::mahonian(6));
  for (auto policy : kPolicies)
    for (int threads : {1, 2, 3}) {
      const auto result = run(toy, policy, threads);
      EXPECT_EQ(result.distribution(), expected) << static_cast<int>(policy) << " " << threads;
      EXPECT_EQ(result.reached, 120U * 720U);
    }
}

TEST(ProductBfs, MoveCyclesGiveTheSameLevelsAsFrontierBfs) {
  for (std::uint64_t seed : {1, 2, 3}) {
    const ProductToy toy = testing::cycle_families(600, seed);
    const std::uint64_t source = 0;
    const auto expected = bfs::frontier_bfs(toy, {&source, 1}).distribution();
    bool cycled = false;
    for (auto policy : kPolicies)
      for (int threads : {1, 2, 3}) {
        const auto result = run(toy, policy, threads);
        EXPECT_EQ(result.distribution(), expected) << static_cast<int>(policy) << " " << threads;
        for (const auto& level : result.levels) cycled |= level.work.cycled != 0;
      }
    EXPECT_TRUE(cycled) << "seed " << seed << ": no level went by move cycles";
  }
}

TEST(ProductBfs, FindsMoveCyclesOnlyWhereEveryPowerIsAMove) {
  const ProductToy families = testing::cycle_families(40, 1);
  const bfs::detail::ProductTables tables(families);
  ASSERT_EQ(tables.families.size(), 2U);
  for (const auto& family : tables.families) {
    EXPECT_EQ(family.order(), 4U);
    EXPECT_EQ(family.cycles(), 4U);  // 16 rows in cycles of 4
  }
  // Steps of one (and their inverses) have no half steps among the moves.
  EXPECT_TRUE(bfs::detail::ProductTables(testing::torus(8, 8)).families.empty());
}

TEST(ProductBfs, RowsOfMoreThan1024ColumnsAreRefused) {
  EXPECT_THROW(run(testing::torus(2, 1025), bfs::DirectionPolicy::Auto, 1), std::length_error);
  EXPECT_EQ(run(testing::torus(2, 1024), bfs::DirectionPolicy::Auto, 1).reached, 2048U);
}

TEST(ProductBfs, OnLevelSeesEachLevelsStates) {
  const ProductToy toy = testing::torus(5, 130);
  std::vector<std::uint64_t> seen;
  bfs::ProductBfsOptions options;
  options.on_level = [&](const bfs::ProductLevel& level, const bfs::RowBitmap& states) {
    EXPECT_EQ(level.depth, seen.size());
    std::uint64_t count = 0;
    for (std::uint32_t r = 0; r < states.rows(); ++r)
      for (std::uint32_t w = 0; w < states.row_words(); ++w)
        count += static_cast<std::uint64_t>(std::popcount(states.row(r)[w]));
    seen.push_back(count);
  };
  const std::uint64_t source = 0;
  bfs::product_bfs(toy, {&source, 1}, options);
  EXPECT_EQ(seen, testing::torus_layers(5, 130));
}

}  // namespace
}  // namespace cubenum
