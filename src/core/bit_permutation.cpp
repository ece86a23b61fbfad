// The Beneš network's switch settings, by the looping algorithm (Beneš
// 1964; Waksman 1968): the outer stages at distance d send one bit of each
// pair {i, i^d} into each half (bit d clear or set) so that the two bits
// bound for each output pair arrive from different halves; what remains is
// a permutation that keeps bit d of every position, routed the same way at
// distance d/2, down to distance 1.
#include "cubenum/core/bit_permutation.hpp"

#include <stdexcept>

namespace cubenum {
namespace {

constexpr std::uint32_t kUnset = ~std::uint32_t{0};

struct Routing {
  std::vector<std::uint32_t> to, from;  // the permutation and its inverse
};

void set_bit(std::vector<std::uint64_t>& mask, std::uint32_t i) {
  mask[i / 64] |= std::uint64_t{1} << (i % 64);
}

// The input and output stages at distance d; leaves in `r` the permutation
// between them, which keeps bit d of every position.
void split(Routing& r, std::uint32_t d, std::vector<std::uint64_t>& in,
           std::vector<std::uint64_t>& out) {
  const auto n = static_cast<std::uint32_t>(r.to.size());
  // half[i]: the half that the bit starting at i crosses the middle in.
  std::vector<std::uint8_t> half(n, 2);
  for (std::uint32_t start = 0; start < n; ++start)
    for (std::uint32_t i = start; half[i] == 2; i = r.from[r.to[i ^ d] ^ d]) {
      half[i] = 0;      // so its input partner takes half 1, and so must the
      half[i ^ d] = 1;  // bit bound for the partner of that one's target
    }
  Routing middle{std::vector<std::uint32_t>(n), std::vector<std::uint32_t>(n)};
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t side = half[i] != 0 ? d : 0;
    if ((i & d) == 0 && side != 0) set_bit(in, i);
    if ((r.to[i] & d) == 0 && side != 0) set_bit(out, r.to[i]);
    const std::uint32_t x = (i & ~d) | side, y = (r.to[i] & ~d) | side;
    middle.to[x] = y;
    middle.from[y] = x;
  }
  r = std::move(middle);
}

}  // namespace

BitPermutation::BitPermutation(std::span<const std::uint32_t> to) {
  std::uint32_t n = 64;
  while (n < to.size()) n *= 2;
  words_ = n / 64;
  Routing r{std::vector<std::uint32_t>(n), std::vector<std::uint32_t>(n, kUnset)};
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t target = i < to.size() ? to[i] : i;
    if (target >= n || (i < to.size() && target >= to.size()) || r.from[target] != kUnset)
      throw std::invalid_argument("BitPermutation: not a permutation");
    r.to[i] = target;
    r.from[target] = i;
  }
  std::vector<std::vector<std::uint64_t>> inputs, outputs;
  std::vector<unsigned> distances;
  for (std::uint32_t d = n / 2; d >= 2; d /= 2) {
    inputs.emplace_back(words_, 0);
    outputs.emplace_back(words_, 0);
    distances.push_back(d);
    split(r, d, inputs.back(), outputs.back());
  }
  // What is left swaps neighbours or keeps them.
  std::vector<std::uint64_t> middle(words_, 0);
  for (std::uint32_t i = 0; i < n; i += 2)
    if (r.to[i] == i + 1) set_bit(middle, i);

  // Stages in the order of distance(): outer to inner, then back out.
  auto add_stage = [&](unsigned d, const std::vector<std::uint64_t>& mask) {
    const std::size_t first = masks_.size();
    masks_.insert(masks_.end(), mask.begin(), mask.end());
    if (d >= 64)  // a word swap's mask goes in both words (see stage())
      for (std::size_t w = 0; w < words_; ++w)
        if ((w & (d / 64)) != 0) masks_[first + w] = masks_[first + (w ^ (d / 64))];
  };
  for (std::size_t s = 0; s < distances.size(); ++s) add_stage(distances[s], inputs[s]);
  add_stage(1, middle);
  for (std::size_t s = distances.size(); s-- > 0;) add_stage(distances[s], outputs[s]);
}

}  // namespace cubenum
