#pragma once
// Perfect ranks of the pieces of a state: permutations (lexicographic, in
// O(n) word operations after Korf and Schultze: a bitmask of the elements
// already seen and a popcount give each Lehmer digit) and mixed-radix
// orientation digits.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cubenum {

// 128-bit products for the multiset ranks below (GCC and Clang).
__extension__ typedef unsigned __int128 Wide;

constexpr std::uint64_t factorial(unsigned n) {
  return n <= 1 ? 1 : n * factorial(n - 1);
}

constexpr std::uint64_t power(std::uint64_t base, unsigned exponent) {
  std::uint64_t r = 1;
  while (exponent-- > 0) r *= base;
  return r;
}

// Lexicographic rank of a permutation of 0..n-1 (n <= 20): the identity is 0,
// the reversal n!-1.
constexpr std::uint64_t permutation_rank(std::span<const std::uint8_t> perm) {
  const auto n = static_cast<unsigned>(perm.size());
  std::uint32_t seen = 0;
  std::uint64_t rank = 0;
  for (unsigned i = 0; i < n; ++i) {
    const std::uint32_t below = (std::uint32_t{1} << perm[i]) - 1;
    const unsigned lehmer = perm[i] - static_cast<unsigned>(std::popcount(seen & below));
    rank = rank * (n - i) + lehmer;
    seen |= std::uint32_t{1} << perm[i];
  }
  return rank;
}

// Inverse of permutation_rank: writes the permutation of 0..out.size()-1.
constexpr void permutation_unrank(std::uint64_t rank, std::span<std::uint8_t> out) {
  const auto n = static_cast<unsigned>(out.size());
  std::uint8_t lehmer[20] = {};
  for (unsigned i = n; i-- > 0;) {
    const unsigned base = n - i;
    lehmer[i] = static_cast<std::uint8_t>(rank % base);
    rank /= base;
  }
  std::uint32_t unused = n == 32 ? ~0U : (std::uint32_t{1} << n) - 1;
  for (unsigned i = 0; i < n; ++i) {
    std::uint32_t m = unused;
    for (unsigned k = 0; k < lehmer[i]; ++k) m &= m - 1;  // drop the lowest set bits
    const auto element = static_cast<std::uint8_t>(std::countr_zero(m));
    out[i] = element;
    unused &= ~(std::uint32_t{1} << element);
  }
}

// 0 for an even permutation (of at most 64 elements), 1 for an odd one (the
// parity of the sum of the Lehmer digits, which is the number of
// inversions).
constexpr unsigned permutation_parity(std::span<const std::uint8_t> perm) {
  std::uint64_t seen = 0;
  unsigned inversions = 0;
  for (std::uint8_t p : perm) {
    inversions += static_cast<unsigned>(std::popcount(seen & ~((std::uint64_t{2} << p) - 1)));
    seen |= std::uint64_t{1} << p;
  }
  return inversions & 1U;
}

// Binomial coefficients C(n, k) for n <= 64 (Pascal's triangle; 0 where
// k > n): kBinomial(n, k).
struct Binomials {
  std::uint64_t c[65][65] = {};
  constexpr Binomials() {
    for (unsigned n = 0; n <= 64; ++n) {
      c[n][0] = 1;
      for (unsigned k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k < n ? c[n - 1][k] : 0);
    }
  }
  constexpr std::uint64_t operator()(unsigned n, unsigned k) const { return k > n ? 0 : c[n][k]; }
};
inline constexpr Binomials kBinomial;

// Colexicographic rank of a k-subset of 0..n-1 (the set bits of `chosen`)
// among all C(n, k): the sum of C(c_j, j + 1) over its elements c_0 < c_1
// < ... The lowest k elements rank 0.
constexpr std::uint64_t combination_rank(std::uint64_t chosen) {
  std::uint64_t rank = 0;
  for (unsigned j = 1; chosen != 0; ++j, chosen &= chosen - 1)
    rank += kBinomial(static_cast<unsigned>(std::countr_zero(chosen)), j);
  return rank;
}

// Inverse of combination_rank: the k-subset of rank `rank`, as a mask.
constexpr std::uint64_t combination_unrank(std::uint64_t rank, unsigned k) {
  std::uint64_t chosen = 0;
  for (unsigned j = k; j > 0; --j) {
    unsigned c = j - 1;  // the largest c with C(c, j) <= rank
    while (c < 63 && kBinomial(c + 1, j) <= rank) ++c;
    rank -= kBinomial(c, j);
    chosen |= std::uint64_t{1} << c;
  }
  return chosen;
}

// Division of a multiple of d by d, for 1 <= d <= 255, without a divide:
// shift out d's factors of two, then multiply by the inverse of its odd
// part modulo 2^64 (exact because d divides the number).
struct ExactDivisors {
  std::uint64_t inverse[256] = {};
  unsigned shift[256] = {};
  constexpr ExactDivisors() {
    for (unsigned d = 1; d < 256; ++d) {
      shift[d] = static_cast<unsigned>(std::countr_zero(d));
      const std::uint64_t odd = d >> shift[d];
      std::uint64_t inv = odd;  // right to 3 bits; each step doubles them
      for (int i = 0; i < 5; ++i) inv *= 2 - odd * inv;
      inverse[d] = inv;
    }
  }
  constexpr std::uint64_t divide(std::uint64_t multiple, unsigned d) const {
    return (multiple >> shift[d]) * inverse[d];
  }
};
inline constexpr ExactDivisors kExactDivisors;

// Arrangements of a multiset: m! / (c_0! c_1! ...) for counts c summing to
// m. 0 when it would not fit in 64 bits.
constexpr std::uint64_t multinomial(std::span<const std::uint8_t> counts) {
  // Each step exact (a binomial coefficient times the rest) and no
  // smaller than the last; without a divide while the product fits.
  std::uint64_t total = 1;
  unsigned placed = 0;
  for (std::uint8_t c : counts)
    for (unsigned k = 1; k <= c; ++k) {
      std::uint64_t product = 0;
      if (!__builtin_mul_overflow(total, ++placed, &product)) {
        total = kExactDivisors.divide(product, k);
        continue;
      }
      const Wide exact = Wide{total} * placed / k;
      if (exact >> 64 != 0) return 0;
      total = static_cast<std::uint64_t>(exact);
    }
  return total;
}

// Lexicographic rank of a sequence of labels 0..L-1 among all orderings of
// the same multiset (`counts[v]`: how often v occurs; consumed). For
// distinct labels it equals permutation_rank.
// Every count 0 or 1 but maybe the last label's (the filler a pieces part
// gives the kinds after it), at most 20 labels of at most 64 values: the
// same rank as a Lehmer code in which a place's weight is the remaining
// places' arrangements, n! / fillers!, and the smaller unused labels are
// counted from a mask (the filler, largest, after all of them).
constexpr bool distinct_but_last(std::span<const std::uint8_t> counts, std::size_t labels) {
  if (labels > 20 || counts.empty() || counts.size() > 64) return false;
  for (std::size_t v = 0; v + 1 < counts.size(); ++v)
    if (counts[v] > 1) return false;
  return true;
}

// [n][f]: n! / f!, the orderings of n places holding f fillers and n - f
// distinct labels (0 where f > n).
struct FallingFactorials {
  std::uint64_t value[21][21] = {};
  constexpr FallingFactorials() {
    for (unsigned n = 0; n <= 20; ++n)
      for (unsigned f = 0; f <= n; ++f) value[n][f] = factorial(n) / factorial(f);
  }
};
inline constexpr FallingFactorials kFallingFactorials;

// The mask of labels but the last with a count; counts consumed but the last's.
constexpr std::uint64_t unused_mask(std::span<std::uint8_t> counts) {
  std::uint64_t unused = 0;
  for (std::size_t v = 0; v + 1 < counts.size(); ++v) {
    unused |= std::uint64_t{counts[v]} << v;
    counts[v] = 0;
  }
  return unused;
}

// `arrangements` is multinomial(counts), where the caller knows it (0:
// not known).
constexpr std::uint64_t multiset_rank(std::span<const std::uint8_t> labels,
                                      std::span<std::uint8_t> counts,
                                      std::uint64_t arrangements = 0) {
  if (distinct_but_last(counts, labels.size())) {
    const auto last = static_cast<std::uint8_t>(counts.size() - 1);
    unsigned fillers = counts[last];
    std::uint64_t unused = unused_mask(counts), rank = 0;
    auto left = static_cast<unsigned>(labels.size());
    for (std::uint8_t label : labels) {
      const std::uint64_t bit = std::uint64_t{1} << label;
      const std::uint64_t smaller = label == last ? unused : unused & (bit - 1);
      rank += static_cast<std::uint64_t>(std::popcount(smaller)) *
              kFallingFactorials.value[--left][fillers];
      if (label == last)
        --fillers;
      else
        unused &= ~bit;
    }
    counts[last] = 0;
    return rank;
  }
  if (arrangements == 0) arrangements = multinomial(counts);
  auto left = static_cast<unsigned>(labels.size());
  std::uint64_t rank = 0;
  if (arrangements < (std::uint64_t{1} << 55) && left < 256) {  // total * count fits in 64 bits
    std::uint64_t total = arrangements;
    for (std::uint8_t label : labels) {
      // Orderings that put v here: total * counts[v] / left, a whole number
      // for each v, so their sum over v < label is one exact division.
      unsigned smaller = 0;
      for (unsigned v = 0; v < label; ++v) smaller += counts[v];
      rank += kExactDivisors.divide(total * smaller, left);
      total = kExactDivisors.divide(total * counts[label], left);
      --counts[label];
      --left;
    }
    return rank;
  }
  Wide total = arrangements;
  for (std::uint8_t label : labels) {
    unsigned smaller = 0;
    for (unsigned v = 0; v < label; ++v) smaller += counts[v];
    rank += static_cast<std::uint64_t>(total * smaller / left);
    total = total * counts[label] / left;
    --counts[label];
    --left;
  }
  return rank;
}

// Inverse of multiset_rank: fills `labels` (counts consumed).
constexpr void multiset_unrank(std::uint64_t rank, std::span<std::uint8_t> counts,
                               std::span<std::uint8_t> labels) {
  if (distinct_but_last(counts, labels.size())) {
    const auto last = static_cast<std::uint8_t>(counts.size() - 1);
    unsigned fillers = counts[last];
    std::uint64_t unused = unused_mask(counts);
    auto left = static_cast<unsigned>(labels.size());
    for (std::uint8_t& label : labels) {
      // Each unused label's orderings of the places left, then the filler's.
      const std::uint64_t f = kFallingFactorials.value[--left][fillers];
      const std::uint64_t before_filler = static_cast<std::uint64_t>(std::popcount(unused)) * f;
      if (rank >= before_filler) {
        rank -= before_filler;
        label = last;
        --fillers;
        continue;
      }
      std::uint64_t skip = rank / f;
      rank %= f;
      std::uint64_t bits = unused;
      for (; skip > 0; --skip) bits &= bits - 1;
      label = static_cast<std::uint8_t>(std::countr_zero(bits));
      unused &= ~(std::uint64_t{1} << label);
    }
    counts[last] = 0;
    return;
  }
  const std::uint64_t arrangements = multinomial(counts);
  auto left = static_cast<unsigned>(labels.size());
  // total * count fits in 64 bits
  const bool narrow = arrangements < (std::uint64_t{1} << 55) && left < 256;
  Wide total = arrangements;
  std::uint64_t total64 = arrangements;
  for (std::uint8_t& label : labels) {
    unsigned v = 0;
    for (;; ++v) {
      const std::uint64_t block = narrow ? kExactDivisors.divide(total64 * counts[v], left)
                                         : static_cast<std::uint64_t>(total * counts[v] / left);
      if (rank < block) {
        total = block;
        total64 = block;
        break;
      }
      rank -= block;
    }
    label = static_cast<std::uint8_t>(v);
    --counts[v];
    --left;
  }
}

// Digits in base `base`, the first digit most significant.
constexpr std::uint64_t digits_rank(std::span<const std::uint8_t> digits, unsigned base) {
  std::uint64_t rank = 0;
  for (std::uint8_t d : digits) rank = rank * base + d;
  return rank;
}

constexpr void digits_unrank(std::uint64_t rank, unsigned base, std::span<std::uint8_t> out) {
  for (std::size_t i = out.size(); i-- > 0;) {
    out[i] = static_cast<std::uint8_t>(rank % base);
    rank /= base;
  }
}

// Orientation coordinate of n pieces whose orientations sum to 0 mod base
// (corner twists, edge flips): the first n-1 digits, base^(n-1) values.
constexpr std::uint64_t orientation_rank(std::span<const std::uint8_t> orientation, unsigned base) {
  return digits_rank(orientation.first(orientation.size() - 1), base);
}

constexpr void orientation_unrank(std::uint64_t rank, unsigned base,
                                  std::span<std::uint8_t> orientation) {
  digits_unrank(rank, base, orientation.first(orientation.size() - 1));
  unsigned sum = 0;
  for (std::size_t i = 0; i + 1 < orientation.size(); ++i) sum += orientation[i];
  orientation.back() = static_cast<std::uint8_t>((base - sum % base) % base);
}

}  // namespace cubenum
