// DigitShift against the definition: bit c of a row goes to the column whose
// digits are c's plus the vector's, digit by digit modulo the radix.
#include "cubenum/core/digit_shift.hpp"

#include <gtest/gtest.h>

#include <random>

namespace cubenum {
namespace {

template <unsigned R, unsigned D>
std::uint32_t naive_add(std::uint32_t c, std::uint32_t vector) {
  std::uint32_t out = 0, place = 1;
  for (unsigned i = 0; i < D; ++i, c /= R, vector /= R, place *= R)
    out += (c % R + vector % R) % R * place;
  return out;
}

template <unsigned R, unsigned D>
void check_every_vector(unsigned rows) {
  using Shift = DigitShift<R, D>;
  const Shift shift;
  std::mt19937_64 random(R * 100 + D);
  for (unsigned n = 0; n < rows; ++n) {
    std::array<std::uint64_t, 16> words{};
    for (std::uint32_t c = 0; c < Shift::kColumns; ++c)
      if (random() % 3 == 0) words[c / 64] |= std::uint64_t{1} << (c % 64);
    for (std::uint32_t v = 0; v < Shift::kColumns; ++v) {
      typename Shift::Row row;
      Shift::load(words.data(), row);
      shift.apply(v, row);
      std::array<std::uint64_t, 16> out{};
      Shift::store(row, out.data());
      for (std::uint32_t c = 0; c < Shift::kColumns; ++c) {
        const std::uint32_t to = naive_add<R, D>(c, v);
        ASSERT_EQ((words[c / 64] >> (c % 64)) & 1, (out[to / 64] >> (to % 64)) & 1)
            << "radix " << R << ", vector " << v << ", column " << c;
      }
      for (std::uint32_t w = Shift::kRowWords; w < 16; ++w) ASSERT_EQ(out[w], 0U);
    }
  }
}

TEST(DigitShift, MovesEveryColumnByItsDigitSum) {
  check_every_vector<3, 6>(3);   // the pocket cube's twists: 729 columns
  check_every_vector<2, 10>(1);  // 1024 columns, every bit used
  check_every_vector<5, 4>(2);   // 625 columns
  check_every_vector<7, 1>(4);   // one digit, a single word
}

TEST(DigitShift, SumsAndNegationsAreDigitByDigit) {
  using Shift = DigitShift<3, 6>;
  for (std::uint32_t a = 0; a < Shift::kColumns; a += 7)
    for (std::uint32_t b = 0; b < Shift::kColumns; ++b) {
      ASSERT_EQ(Shift::sum(a, b), (naive_add<3, 6>(a, b)));
      ASSERT_EQ(Shift::sum(b, Shift::negation(b)), 0U);
    }
  EXPECT_EQ(Shift::sum(2, 1), 0U);          // 2 + 1 = 0 (mod 3), no carry
  EXPECT_EQ(Shift::sum(243 * 2, 243), 0U);  // the top digit too
  EXPECT_EQ(Shift::negation(1 + 2 * 3), 2U + 1 * 3);
}

}  // namespace
}  // namespace cubenum
