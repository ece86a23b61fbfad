#include "cubenum/core/ranking.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <numeric>
#include <random>
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

namespace cubenum {
namespace {

// std::next_permutation walks the distinct orderings of a multiset in
// lexicographic order, so the k-th has multiset rank k: an independent
// check, for identical pieces (and for distinct ones, where the rank is
// permutation_rank's).
// Exact division by multiplication against the hardware's divide, for
// every divisor and random multiples up to 2^63.
TEST(ExactDivisors, AgreeWithDivision) {
  std::mt19937_64 rng(3);
  for (unsigned d = 1; d < 256; ++d)
    for (int i = 0; i < 1000; ++i) {
      const std::uint64_t quotient = rng() >> (1 + rng() % 63) >> 8;
      ASSERT_EQ(kExactDivisors.divide(quotient * d, d), quotient) << d;
    }
}

TEST(MultisetRank, MatchesLexicographicOrderOfDistinctArrangements) {
  for (const std::vector<std::uint8_t>& start :
       {std::vector<std::uint8_t>{0, 0, 1, 1, 2, 2, 2}, std::vector<std::uint8_t>{0, 1, 1, 1, 1},
        std::vector<std::uint8_t>{0, 1, 2, 3, 4, 5}, std::vector<std::uint8_t>{0, 0, 0},
        // Distinct labels and a filler (the last label, several times),
        // one label without pieces.
        std::vector<std::uint8_t>{0, 1, 2, 4, 4, 4}, std::vector<std::uint8_t>{1, 2, 2}}) {
    std::vector<std::uint8_t> counts(3 + start.size(), 0);
    for (std::uint8_t v : start) ++counts[v];
    counts.resize(static_cast<std::size_t>(*std::max_element(start.begin(), start.end())) + 1);
    std::vector<std::uint8_t> p = start;
    std::uint64_t k = 0;
    do {
      std::vector<std::uint8_t> c = counts;
      ASSERT_EQ(multiset_rank(p, c), k);
      std::vector<std::uint8_t> back(p.size());
      c = counts;
      multiset_unrank(k, c, back);
      ASSERT_EQ(back, p);
      ++k;
    } while (std::next_permutation(p.begin(), p.end()));
    EXPECT_EQ(k, multinomial(counts));
  }
  // 7! / (2! 2! 3!) = 210, by hand.
  const std::uint8_t counts[] = {2, 2, 3};
  EXPECT_EQ(multinomial(counts), 210U);
}

// Past 2^55 arrangements the rank takes 128-bit products: a round trip of
// 24 pieces of 6 kinds (24! / (4!)^6, about 3.2e15), of 16 distinct and 4
// fillers, and of 20 distinct.
TEST(MultisetRank, RoundTripsForLargeMultisets) {
  std::vector<std::uint8_t> counts(6, 4), p;
  for (std::uint8_t v = 0; v < 6; ++v) p.insert(p.end(), 4, v);
  std::mt19937 random(5);
  for (int trial = 0; trial < 100; ++trial) {
    std::shuffle(p.begin(), p.end(), random);
    std::vector<std::uint8_t> c = counts, back(p.size());
    const std::uint64_t r = multiset_rank(p, c);
    c = counts;
    multiset_unrank(r, c, back);
    ASSERT_EQ(back, p);
  }
  // 16 distinct labels and 4 fillers: 20! / 4!, about 1.0e17.
  std::vector<std::uint8_t> filled(20, 16), filled_counts(17, 1);
  std::iota(filled.begin(), filled.begin() + 16, 0);
  filled_counts[16] = 4;
  for (int trial = 0; trial < 100; ++trial) {
    std::shuffle(filled.begin(), filled.end(), random);
    std::vector<std::uint8_t> c = filled_counts, back(filled.size());
    const std::uint64_t r = multiset_rank(filled, c);
    ASSERT_LT(r, factorial(20) / factorial(4));
    c = filled_counts;
    multiset_unrank(r, c, back);
    ASSERT_EQ(back, filled);
  }
  std::vector<std::uint8_t> distinct(20), ones(20, 1);
  std::iota(distinct.begin(), distinct.end(), 0);
  std::shuffle(distinct.begin(), distinct.end(), random);
  std::vector<std::uint8_t> c = ones;
  EXPECT_EQ(multiset_rank(distinct, c), permutation_rank(distinct));
}

// Every 4-subset of 0..9, walked in colexicographic order (by the mask as a
// number, which orders subsets by their largest element first), must rank
// 0, 1, 2, ... C(10, 4) - 1 = 209 (10! / (4! 6!), by hand); the binomials
// are Pascal's triangle (C(64, 32) = 1832624140942590534, a published
// value), and 30-subsets of 64 round-trip.
TEST(CombinationRank, MatchesColexicographicOrder) {
  std::uint64_t k = 0;
  for (std::uint64_t mask = 0; mask < 1024; ++mask) {
    if (std::popcount(mask) != 4) continue;
    ASSERT_EQ(combination_rank(mask), k);
    ASSERT_EQ(combination_unrank(k, 4), mask);
    ++k;
  }
  EXPECT_EQ(k, 210U);
  EXPECT_EQ(kBinomial(10, 4), 210U);
  EXPECT_EQ(kBinomial(64, 32), 1832624140942590534ULL);
  EXPECT_EQ(kBinomial(3, 5), 0U);
  std::mt19937_64 random(3);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<unsigned> slots(64);
    std::iota(slots.begin(), slots.end(), 0U);
    std::shuffle(slots.begin(), slots.end(), random);
    std::uint64_t mask = 0;
    for (unsigned i = 0; i < 30; ++i) mask |= std::uint64_t{1} << slots[i];
    const std::uint64_t r = combination_rank(mask);
    ASSERT_LT(r, kBinomial(64, 30));
    ASSERT_EQ(combination_unrank(r, 30), mask);
  }
}

}  // namespace
}  // namespace cubenum
