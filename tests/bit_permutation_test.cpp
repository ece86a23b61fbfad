// The Beneš network moves every bit where a naive bit-by-bit permutation
// moves it.
#include "cubenum/core/bit_permutation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace cubenum {
namespace {

std::vector<std::uint64_t> naive_apply(const std::vector<std::uint32_t>& to,
                                       const std::vector<std::uint64_t>& bits) {
  std::vector<std::uint64_t> out(bits.size(), 0);
  for (std::size_t i = 0; i < bits.size() * 64; ++i) {
    const std::size_t target = i < to.size() ? to[i] : i;
    if ((bits[i / 64] >> (i % 64)) & 1U) out[target / 64] |= std::uint64_t{1} << (target % 64);
  }
  return out;
}

TEST(BitPermutation, AgreesWithNaivePermutationOnRandomCases) {
  std::mt19937_64 random(2026);
  for (std::uint32_t n : {1U, 2U, 7U, 63U, 64U, 65U, 100U, 128U, 200U, 729U, 1024U, 2187U, 40320U}) {
    for (int trial = 0; trial < 5; ++trial) {
      std::vector<std::uint32_t> to(n);
      std::iota(to.begin(), to.end(), 0U);
      std::shuffle(to.begin(), to.end(), random);
      const BitPermutation permutation(to);
      ASSERT_GE(permutation.words() * 64, n);
      for (int sample = 0; sample < 4; ++sample) {
        std::vector<std::uint64_t> bits(permutation.words());
        for (auto& word : bits) word = random() & random();  // about a quarter of the bits
        const auto expected = naive_apply(to, bits);
        permutation.apply(bits.data());
        EXPECT_EQ(bits, expected) << "n " << n;
      }
      // Every single bit lands where `to` sends it.
      for (std::uint32_t i = 0; i < n; i += 1 + n / 50) {
        std::vector<std::uint64_t> bit(permutation.words(), 0);
        bit[i / 64] = std::uint64_t{1} << (i % 64);
        permutation.apply(bit.data());
        const std::uint32_t target = to[i];
        EXPECT_EQ((bit[target / 64] >> (target % 64)) & 1U, 1U) << "n " << n << " bit " << i;
      }
    }
  }
}

TEST(BitPermutation, StagesRunOutToInAndBack) {
  // 1024 bits: 19 stages.
  const std::vector<unsigned> expected = {512, 256, 128, 64, 32, 16, 8,   4,   2,  1,
                                          2,   4,   8,   16, 32, 64, 128, 256, 512};
  for (unsigned s = 0; s < expected.size(); ++s)
    EXPECT_EQ(BitPermutation::distance(10, s), expected[s]);
}

TEST(BitPermutation, IdentityKeepsEveryBitAndPermutationsCompose) {
  std::vector<std::uint32_t> identity(300);
  std::iota(identity.begin(), identity.end(), 0U);
  std::mt19937_64 random(7);
  const BitPermutation none(identity);
  std::vector<std::uint64_t> bits(none.words());
  for (auto& word : bits) word = random();
  const auto before = bits;
  none.apply(bits.data());
  EXPECT_EQ(bits, before);

  std::vector<std::uint32_t> f = identity, g = identity, fg(300);
  std::shuffle(f.begin(), f.end(), random);
  std::shuffle(g.begin(), g.end(), random);
  for (std::size_t i = 0; i < fg.size(); ++i) fg[i] = g[f[i]];  // f first, then g
  const BitPermutation pf(f), pg(g), pfg(fg);
  std::vector<std::uint64_t> a(pf.words()), b(pf.words());
  // Random bits in the 300 permuted positions only (300 = 4 x 64 + 44).
  for (std::size_t w = 0; w < a.size(); ++w)
    a[w] = b[w] = random() & (w < 4 ? ~0ULL : w == 4 ? (1ULL << 44) - 1 : 0);
  pf.apply(a.data());
  pg.apply(a.data());
  pfg.apply(b.data());
  EXPECT_EQ(a, b);
}

TEST(BitPermutation, RejectsWhatIsNotAPermutation) {
  EXPECT_THROW(BitPermutation(std::vector<std::uint32_t>{0, 0}), std::invalid_argument);
  EXPECT_THROW(BitPermutation(std::vector<std::uint32_t>{0, 2}), std::invalid_argument);
}

}  // namespace
}  // namespace cubenum
