// The BFS engines agree with each other, with known layer counts, and with
// themselves at any thread count and in either direction.
#include <gtest/gtest.h>

#include <array>
#include <utility>
#include <vector>

#include "cubenum/bfs/frontier_bfs.hpp"
#include "cubenum/bfs/hashed_bfs.hpp"
#include "cubenum/core/parallel.hpp"
#include "toy_spaces.hpp"

namespace cubenum {
namespace {

using testing::AdjacentSwapSpace;
using testing::mahonian;
using testing::PackedAdjacentSwapSpace;

TEST(Mahonian, HandCheckedRowForFour) {
  // The 24 permutations of 4 by inversions, counted by hand.
  EXPECT_EQ(mahonian(4), (std::vector<std::uint64_t>{1, 3, 5, 6, 5, 3, 1}));
}

class FrontierBfs : public ::testing::TestWithParam<std::tuple<bfs::DirectionPolicy, int>> {};

TEST_P(FrontierBfs, LayersAreMahonianNumbers) {
  const auto [policy, threads] = GetParam();
  cubenum::ThreadLimit limit(threads);
  const std::uint64_t source = 0;
  bfs::BfsOptions options;
  options.policy = policy;
  const auto result = bfs::frontier_bfs(AdjacentSwapSpace<8>{}, {&source, 1}, options);
  EXPECT_EQ(result.distribution(), mahonian(8));
  EXPECT_EQ(result.reached, factorial(8));
  EXPECT_EQ(result.visited.count(), factorial(8));
}

std::string direction_name(bfs::DirectionPolicy policy) {
  return policy == bfs::DirectionPolicy::Auto      ? "Auto"
         : policy == bfs::DirectionPolicy::TopDown ? "TopDown"
                                                   : "BottomUp";
}

// Named as "BottomUp_2Threads", not by the bytes of the parameters.
std::string direction_and_threads(
    const ::testing::TestParamInfo<std::tuple<bfs::DirectionPolicy, int>>& info) {
  const auto [policy, threads] = info.param;
  return direction_name(policy) + "_" + std::to_string(threads) + "Threads";
}

// Every direction policy at 1, 2 and 4 threads.
const auto kDirectionsAndThreads =
    ::testing::Combine(::testing::Values(bfs::DirectionPolicy::Auto, bfs::DirectionPolicy::TopDown,
                                         bfs::DirectionPolicy::BottomUp),
                       ::testing::Values(1, 2, 4));

INSTANTIATE_TEST_SUITE_P(DirectionsAndThreads, FrontierBfs, kDirectionsAndThreads,
                         direction_and_threads);

// Two-bit mode (the depth table alone): the same levels and the same table
// as with bitmaps, over several chunks of 2^16 states (9! = 362,880).
class TwoBitBfs : public ::testing::TestWithParam<std::tuple<bfs::DirectionPolicy, int>> {};

TEST_P(TwoBitBfs, SameLevelsAndDepthsAsBitmaps) {
  const auto [policy, threads] = GetParam();
  const std::uint64_t source = 5;
  bfs::BfsOptions options;
  options.depth_table = true;
  const auto bitmaps = bfs::frontier_bfs(AdjacentSwapSpace<9>{}, {&source, 1}, options);
  cubenum::ThreadLimit limit(threads);
  options.policy = policy;
  options.two_bit = true;
  const auto two_bit = bfs::frontier_bfs(AdjacentSwapSpace<9>{}, {&source, 1}, options);
  EXPECT_EQ(two_bit.distribution(), bitmaps.distribution());
  EXPECT_EQ(two_bit.distribution(), mahonian(9));  // from 5 as from 0: the graph is a group's
  EXPECT_EQ(two_bit.visited.bits(), 0U);           // no bitmaps
  ASSERT_TRUE(two_bit.depths.has_value());
  std::uint64_t differ = 0;
  for (std::uint64_t r = 0; r < factorial(9); ++r)
    differ += two_bit.depths->depth_mod3(r) != bitmaps.depths->depth_mod3(r);
  EXPECT_EQ(differ, 0U);
}

INSTANTIATE_TEST_SUITE_P(DirectionsAndThreads, TwoBitBfs, kDirectionsAndThreads,
                         direction_and_threads);

// Permutations of 9 whose moves are all 36 transpositions (more than
// kMaxNeighbours, the gather buffer's bound): a permutation's distance is
// 9 less its cycles, so layer k holds the unsigned Stirling number of the
// first kind c(9, 9 - k), from the published table (OEIS A008275). Top-down
// (the levels that gather), bitmaps and two bits, 1 and 2 threads.
struct AnySwapSpace {
  std::uint64_t size() const { return factorial(9); }
  template <class Visit>
  bool for_each_neighbour(std::uint64_t rank, Visit&& visit) const {
    std::array<std::uint8_t, 9> p{};
    permutation_unrank(rank, p);
    for (unsigned i = 0; i < 9; ++i)
      for (unsigned j = i + 1; j < 9; ++j) {
        std::swap(p[i], p[j]);
        if (visit(permutation_rank(p))) return true;
        std::swap(p[i], p[j]);
      }
    return false;
  }
};

TEST(FrontierBfs, MoreNeighboursThanTheBufferBound) {
  const std::vector<std::uint64_t> stirling{1, 36, 546, 4536, 22449, 67284, 118124, 109584, 40320};
  const std::uint64_t source = 0;
  for (bool two_bit : {false, true})
    for (int threads : {1, 2}) {
      SCOPED_TRACE(::testing::Message() << (two_bit ? "two-bit " : "") << threads << " threads");
      cubenum::ThreadLimit limit(threads);
      bfs::BfsOptions options;
      options.policy = bfs::DirectionPolicy::TopDown;
      options.two_bit = two_bit;
      EXPECT_EQ(bfs::frontier_bfs(AnySwapSpace{}, {&source, 1}, options).distribution(), stirling);
    }
}

// The table's word views against its cells one by one.
TEST(DepthTable, WordViewsAgreeWithTheCells) {
  bfs::DepthTable table(200);  // the last word half past the end: read as unseen
  for (std::uint64_t r = 0; r < 200; r += 3) EXPECT_TRUE(table.try_record(r, r % 7));
  EXPECT_FALSE(table.try_record(3, 0));  // recorded already
  for (std::size_t w = 0; w < 4; ++w) {
    std::uint64_t unseen = 0, at[3] = {0, 0, 0};
    for (unsigned i = 0; i < 64; ++i) {
      const int d = 64 * w + i < 200 ? table.depth_mod3(64 * w + i) : -1;
      (d < 0 ? unseen : at[d]) |= std::uint64_t{1} << i;
    }
    EXPECT_EQ(table.unseen_word(w), unseen) << w;
    for (unsigned d = 0; d < 3; ++d) EXPECT_EQ(table.word_at(w, d + 3), at[d]) << w << " " << d;
  }
  unsigned seen = 0;
  for (std::size_t i = 0; i < table.cells().words(); ++i) seen += table.seen_in_cells(i);
  EXPECT_EQ(seen, 67U);  // 0, 3, ..., 198
}

TEST(FrontierBfs, AutoUsesBothDirections) {
  const std::uint64_t source = 0;
  const auto result = bfs::frontier_bfs(AdjacentSwapSpace<8>{}, {&source, 1});
  bool top_down = false, bottom_up = false;
  for (const auto& level : result.levels) {
    top_down |= level.direction == bfs::Direction::TopDown;
    bottom_up |= level.direction == bfs::Direction::BottomUp;
  }
  EXPECT_TRUE(top_down && bottom_up);
}

TEST(FrontierBfs, DepthTableGivesShortestPaths) {
  const std::uint64_t source = 0;
  const AdjacentSwapSpace<7> space;
  bfs::BfsOptions options;
  options.depth_table = true;
  const auto result = bfs::frontier_bfs(space, {&source, 1}, options);
  ASSERT_TRUE(result.depths.has_value());
  // The reversal has all 21 pairs inverted: 21 swaps away.
  const std::uint64_t reversal = factorial(7) - 1;
  const auto path = bfs::path_to_source(space, *result.depths, {&source, 1}, reversal);
  ASSERT_EQ(path.size(), 22U);
  EXPECT_EQ(path.front(), reversal);
  EXPECT_EQ(path.back(), source);
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    bool adjacent = false;
    space.for_each_neighbour(path[i], [&](std::uint64_t n) { return adjacent = n == path[i + 1]; });
    EXPECT_TRUE(adjacent);
  }
}

TEST(FrontierBfs, OnLevelSeesEachLevelOnce) {
  const std::uint64_t source = 0;
  std::vector<std::uint64_t> seen;
  bfs::BfsOptions options;
  options.on_level = [&](const bfs::LevelStats& level, const bfs::LevelStates& states) {
    EXPECT_EQ(level.depth, seen.size());
    seen.push_back(states.level->count());
  };
  bfs::frontier_bfs(AdjacentSwapSpace<6>{}, {&source, 1}, options);
  EXPECT_EQ(seen, mahonian(6));
}

TEST(HashedBfs, AgreesWithFrontierBfsAtAnyThreadCount) {
  for (int threads : {1, 2, 4}) {
    cubenum::ThreadLimit limit(threads);
    const std::uint64_t key = PackedAdjacentSwapSpace<8>::identity();
    const auto hashed = bfs::hashed_bfs(PackedAdjacentSwapSpace<8>{}, {&key, 1}, factorial(8));
    EXPECT_EQ(hashed.distribution, mahonian(8));
    EXPECT_EQ(hashed.reached, factorial(8));
  }
}

}  // namespace

namespace bfs {
// How GoogleTest prints the parameter (found by argument-dependent lookup).
void PrintTo(DirectionPolicy policy, std::ostream* out) {
  *out << direction_name(policy);
}
}  // namespace bfs
}  // namespace cubenum
