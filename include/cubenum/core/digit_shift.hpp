#pragma once
// Adding a vector to every column of a row of bits, digit by digit.
//
// A column c of up to 1024 stands for Digits base-Radix digits,
// c = d_0 + d_1 R + d_2 R^2 + ... Adding a to digit i modulo R moves each
// bit of the row whose digit i is below R - a up by a R^i, and every other
// bit down by (R - a) R^i: two masked shifts of the whole row. A vector
// with k non-zero digits costs k such steps, each a few operations on four
// AVX2 registers with every distance known to the compiler (GCC/Clang
// vector extensions), about 8 ns; a Beneš network for a general permutation
// of the same row costs about 70 ns.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

namespace cubenum {

template <unsigned Radix, unsigned Digits>
class DigitShift {
 public:
  static constexpr std::uint32_t power(unsigned i) { return i == 0 ? 1 : Radix * power(i - 1); }
  static constexpr std::uint32_t kColumns = power(Digits);
  static constexpr std::uint32_t kRowWords = (kColumns + 63) / 64;
  static_assert(Radix >= 2 && kColumns <= 1024, "a row must fit in 1024 bits");

  // 1024 bits, held in registers (four with AVX2).
  using Row = std::uint64_t __attribute__((vector_size(128)));
  // A vector is written as a column too: sum of a_i R^i (0: no change).
  // The digit-by-digit sum of two columns, and a column's negation:
  static std::uint32_t sum(std::uint32_t a, std::uint32_t b) {
    return kLowSums[a % kLow * kLow + b % kLow] + kLow * kHighSums[a / kLow * kHigh + b / kLow];
  }
  static std::uint32_t negation(std::uint32_t a) {
    std::uint32_t out = 0;
    for (std::uint32_t i = 0, place = 1; i < Digits; ++i, a /= Radix, place *= Radix)
      out += (Radix - a % Radix) % Radix * place;
    return out;
  }

  DigitShift() {
    for (std::uint32_t c = 0; c < kColumns; ++c)
      for (unsigned i = 0; i < Digits; ++i) {
        const std::uint32_t digit = c / power(i) % Radix;
        for (unsigned a = 1; a < Radix; ++a) set(masks_[i][a][digit >= Radix - a ? 1 : 0], c);
      }
  }

  // Adds the vector with this code to every column of `row`.
  void apply(std::uint32_t vector, Row& row) const {
    for (unsigned i = 0; i < Digits && vector != 0; ++i, vector /= Radix)
      if (const unsigned a = vector % Radix; a != 0) kSteps[i * Radix + a](masks_[i][a], row);
  }

  // A row of kRowWords words in and out of registers, as whole vectors of
  // four words (copied through memory instead, they stall on store
  // forwarding). Neither touches a word past the row: another thread may
  // own the next one.
  static void load(const std::uint64_t* words, Row& row) {
    union {
      Row whole;
      Quarter quarters[4];
    } parts;
    quarter<0>(words, parts.quarters[0]);
    quarter<1>(words, parts.quarters[1]);
    quarter<2>(words, parts.quarters[2]);
    quarter<3>(words, parts.quarters[3]);
    row = parts.whole;
  }
  static void store(const Row& row, std::uint64_t* words) {
    constexpr auto all = std::make_index_sequence<kRowWords / 4>{};
    store_quarters(row, words, all);
    for (std::uint32_t w = kRowWords / 4 * 4; w < kRowWords; ++w) words[w] = row[w];
  }

 private:
  static constexpr std::uint32_t kLow = power(Digits / 2), kHigh = kColumns / kLow;
  template <std::uint32_t N>
  static constexpr std::array<std::uint16_t, N * N> sums() {
    std::array<std::uint16_t, N * N> table{};
    for (std::uint32_t a = 0; a < N; ++a)
      for (std::uint32_t b = 0; b < N; ++b) {
        std::uint32_t out = 0;
        for (std::uint32_t x = a, y = b, place = 1; place < N;
             x /= Radix, y /= Radix, place *= Radix)
          out += (x % Radix + y % Radix) % Radix * place;
        table[a * N + b] = static_cast<std::uint16_t>(out);
      }
    return table;
  }
  static constexpr std::array<std::uint16_t, kLow* kLow> kLowSums = sums<kLow>();
  static constexpr std::array<std::uint16_t, kHigh* kHigh> kHighSums = sums<kHigh>();

  using Quarter = std::uint64_t __attribute__((vector_size(32), aligned(8), may_alias));
  // Words 4Q .. 4Q + 3 of a row, zero past its end.
  // (No function returns a Quarter: without AVX that would warn of an ABI
  // change.)
  template <unsigned Q>
  static void quarter(const std::uint64_t* words, Quarter& part) {
    if constexpr (4 * Q + 4 <= kRowWords) {
      part = *reinterpret_cast<const Quarter*>(words + 4 * Q);
    } else {
      part = Quarter{};
      for (unsigned w = 4 * Q; w < kRowWords; ++w) part[w - 4 * Q] = words[w];
    }
  }
  template <std::size_t... Q>
  static void store_quarters(const Row& row, std::uint64_t* words, std::index_sequence<Q...>) {
    ((*reinterpret_cast<Quarter*>(words + 4 * Q) =
          __builtin_shufflevector(row, row, 4 * Q, 4 * Q + 1, 4 * Q + 2, 4 * Q + 3)),
     ...);
  }
  static void set(Row& mask, std::uint32_t c) { mask[c / 64] |= std::uint64_t{1} << (c % 64); }

  // Word k of the result is word k - K of x (zero outside the row).
  template <int K, std::size_t... W>
  static Row words_up(const Row& x, std::index_sequence<W...>) {
    return __builtin_shufflevector(x, Row{},
                                   (int(W) - K >= 0 && int(W) - K < 16 ? int(W) - K : 16)...);
  }
  // The row moved by N bits towards higher columns (N < 0: lower).
  template <int N>
  static Row shifted(const Row& x) {
    constexpr int words = (N >= 0 ? N : -N) / 64, bits = (N >= 0 ? N : -N) % 64;
    constexpr auto all = std::make_index_sequence<16>{};
    if constexpr (N >= 0) {
      if constexpr (bits == 0)
        return words_up<words>(x, all);
      else
        return (words_up<words>(x, all) << bits) | (words_up<words + 1>(x, all) >> (64 - bits));
    } else {
      if constexpr (bits == 0)
        return words_up<-words>(x, all);
      else
        return (words_up<-words>(x, all) >> bits) | (words_up<-words - 1>(x, all) << (64 - bits));
    }
  }
  // Digit I plus A: masks[0] holds the columns that move up, masks[1] the rest.
  template <unsigned I, unsigned A>
  static void step(const std::array<Row, 2>& masks, Row& row) {
    if constexpr (A != 0) {
      constexpr int up = static_cast<int>(A * power(I)),
                    down = static_cast<int>((Radix - A) * power(I));
      row = shifted<up>(row & masks[0]) | shifted<-down>(row & masks[1]);
    }
  }
  using Step = void (*)(const std::array<Row, 2>&, Row&);
  template <std::size_t... S>
  static constexpr std::array<Step, sizeof...(S)> steps(std::index_sequence<S...>) {
    return {&step<S / Radix, S % Radix>...};
  }
  static constexpr std::array<Step, Digits* Radix> kSteps =
      steps(std::make_index_sequence<Digits * Radix>{});

  std::array<std::array<std::array<Row, 2>, Radix>, Digits> masks_{};  // [digit][amount]
};

}  // namespace cubenum
