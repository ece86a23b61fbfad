#include "cubenum/core/ranking.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

namespace cubenum {
namespace {

// std::next_permutation walks permutations in lexicographic order, so the
// k-th one it produces must have rank k: an independent check of the rank.
TEST(PermutationRank, MatchesLexicographicOrderForSeven) {
  std::array<std::uint8_t, 7> p{};
  std::iota(p.begin(), p.end(), 0);
  std::uint64_t k = 0;
  do {
    ASSERT_EQ(permutation_rank(p), k);
    std::array<std::uint8_t, 7> back{};
    permutation_unrank(k, back);
    ASSERT_EQ(back, p);
    ++k;
  } while (std::next_permutation(p.begin(), p.end()));
  EXPECT_EQ(k, factorial(7));
}

TEST(PermutationRank, RoundTripsForTwelve) {
  std::array<std::uint8_t, 12> p{};
  for (std::uint64_t r = 0; r < factorial(12); r += 9973) {
    permutation_unrank(r, p);
    ASSERT_EQ(permutation_rank(p), r);
  }
  std::array<std::uint8_t, 12> reversed{};
  for (int i = 0; i < 12; ++i) reversed[i] = static_cast<std::uint8_t>(11 - i);
  EXPECT_EQ(permutation_rank(reversed), factorial(12) - 1);
}

// Parity by counting inversions pair by pair.
TEST(PermutationParity, AgreesWithInversionCount) {
  std::array<std::uint8_t, 6> p{};
  std::iota(p.begin(), p.end(), 0);
  do {
    unsigned inversions = 0;
    for (int i = 0; i < 6; ++i)
      for (int j = i + 1; j < 6; ++j) inversions += p[i] > p[j];
    ASSERT_EQ(permutation_parity(p), inversions % 2);
  } while (std::next_permutation(p.begin(), p.end()));
}

TEST(OrientationRank, RoundTripsAndKeepsSumZero) {
  std::array<std::uint8_t, 7> twist{};
  for (std::uint64_t r = 0; r < power(3, 6); ++r) {
    orientation_unrank(r, 3, twist);
    ASSERT_EQ(std::accumulate(twist.begin(), twist.end(), 0U) % 3, 0U);
    ASSERT_EQ(orientation_rank(twist, 3), r);
  }
}

TEST(DigitsRank, IsBaseSixNumber) {
  const std::array<std::uint8_t, 3> d = {1, 2, 3};
  EXPECT_EQ(digits_rank(d, 6), 1U * 36 + 2 * 6 + 3);
  std::array<std::uint8_t, 3> back{};
  digits_unrank(51, 6, back);
  EXPECT_EQ(back, d);
}

}  // namespace
}  // namespace cubenum
