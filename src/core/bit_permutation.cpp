// The Beneš network's switch settings, by the looping algorithm (Beneš
// 1964; Waksman 1968): the outer stages at distance d send one bit of each
// pair {i, i^d} into each half (bit d clear or set) so that the two bits
// bound for each output pair arrive from different halves; what remains is
// a permutation that keeps bit d of every position, routed the same way at
// distance d/2, down to distance 1.
#include "cubenum/core/bit_permutation.hpp"

#include <algorithm>
#include <stdexcept>

namespace cubenum {
namespace {

constexpr std::uint32_t kUnset = ~std::uint32_t{0};

// A permutation and its inverse, with room for the next one: routing
// allocates nothing per stage.
struct Routing {
  std::vector<std::uint32_t> to, from, next_to, next_from;
  std::vector<std::uint8_t> half;
};

void set_bit(std::uint64_t* mask, std::uint32_t i) {
  mask[i / 64] |= std::uint64_t{1} << (i % 64);
}

// The input and output stages at distance d; leaves in `r` the permutation
// between them, which keeps bit d of every position.
void split(Routing& r, std::uint32_t d, std::uint64_t* in, std::uint64_t* out) {
  const auto n = static_cast<std::uint32_t>(r.to.size());
  // half[i]: the half that the bit starting at i crosses the middle in.
  std::fill(r.half.begin(), r.half.end(), std::uint8_t{2});
  for (std::uint32_t start = 0; start < n; ++start)
    for (std::uint32_t i = start; r.half[i] == 2; i = r.from[r.to[i ^ d] ^ d]) {
      r.half[i] = 0;      // so its input partner takes half 1, and so must the
      r.half[i ^ d] = 1;  // bit bound for the partner of that one's target
    }
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t side = r.half[i] != 0 ? d : 0;
    if ((i & d) == 0 && side != 0) set_bit(in, i);
    if ((r.to[i] & d) == 0 && side != 0) set_bit(out, r.to[i]);
    const std::uint32_t x = (i & ~d) | side, y = (r.to[i] & ~d) | side;
    r.next_to[x] = y;
    r.next_from[y] = x;
  }
  r.to.swap(r.next_to);
  r.from.swap(r.next_from);
}

}  // namespace

BitPermutation::BitPermutation(std::span<const std::uint32_t> to) {
  std::uint32_t n = 64;
  while (n < to.size()) n *= 2;
  words_ = n / 64;
  Routing r{std::vector<std::uint32_t>(n), std::vector<std::uint32_t>(n, kUnset),
            std::vector<std::uint32_t>(n), std::vector<std::uint32_t>(n),
            std::vector<std::uint8_t>(n)};
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t target = i < to.size() ? to[i] : i;
    if (target >= n || (i < to.size() && target >= to.size()) || r.from[target] != kUnset)
      throw std::invalid_argument("BitPermutation: not a permutation");
    r.to[i] = target;
    r.from[target] = i;
  }
  // Stages in the order of distance(): outer to inner, then back out.
  const auto log_bits = static_cast<unsigned>(std::countr_zero(n));
  const unsigned stages = 2 * log_bits - 1;
  masks_.assign(std::size_t{stages} * words_, 0);
  auto mask = [&](unsigned stage) { return masks_.data() + std::size_t{stage} * words_; };
  for (unsigned s = 0; s + 1 < log_bits; ++s)
    split(r, distance(log_bits, s), mask(s), mask(stages - 1 - s));
  // What is left swaps neighbours or keeps them.
  for (std::uint32_t i = 0; i < n; i += 2)
    if (r.to[i] == i + 1) set_bit(mask(log_bits - 1), i);
  // A word swap's mask goes in both words (see stage()).
  for (unsigned s = 0; s < stages; ++s) {
    const unsigned d = distance(log_bits, s);
    if (d < 64) continue;
    for (std::size_t w = 0; w < words_; ++w)
      if ((w & (d / 64)) != 0) mask(s)[w] = mask(s)[w ^ (d / 64)];
  }
}

}  // namespace cubenum
