#pragma once
// A bit set of W 64-bit words, its operations unrolled over the words (the
// polycube search's cells and placements: search/voxel_cover.cpp).
#include <array>
#include <bit>
#include <cstdint>

namespace cubenum {

template <int W>
struct Bits {
  std::array<std::uint64_t, W> w{};

  static Bits from(const std::uint64_t* words, int n) {
    Bits b;
    for (int i = 0; i < n; ++i) b.w[i] = words[i];
    return b;
  }
  bool intersects(const Bits& o) const {
    std::uint64_t any = 0;
    for (int i = 0; i < W; ++i) any |= w[i] & o.w[i];
    return any != 0;
  }
  bool none() const {
    std::uint64_t any = 0;
    for (int i = 0; i < W; ++i) any |= w[i];
    return any == 0;
  }
  int count() const {
    int n = 0;
    for (int i = 0; i < W; ++i) n += std::popcount(w[i]);
    return n;
  }
  bool test(int bit) const { return w[bit / 64] >> (bit % 64) & 1; }
  void flip(int bit) { w[bit / 64] ^= std::uint64_t{1} << (bit % 64); }
  // The lowest bit that is clear (-1: none).
  int lowest_clear() const {
    for (int i = 0; i < W; ++i)
      if (~w[i] != 0) return i * 64 + std::countr_one(w[i]);
    return -1;
  }
  int lowest_set() const {
    for (int i = 0; i < W; ++i)
      if (w[i] != 0) return i * 64 + std::countr_zero(w[i]);
    return -1;
  }
  Bits operator|(const Bits& o) const {
    Bits r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] | o.w[i];
    return r;
  }
  Bits operator&(const Bits& o) const {
    Bits r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] & o.w[i];
    return r;
  }
  Bits operator^(const Bits& o) const {
    Bits r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] ^ o.w[i];
    return r;
  }
  Bits operator~() const {
    Bits r;
    for (int i = 0; i < W; ++i) r.w[i] = ~w[i];
    return r;
  }
  bool operator==(const Bits&) const = default;
  Bits shifted_up(int k) const {  // towards higher cells
    Bits r;
    const int q = k / 64, s = k % 64;
    for (int i = W - 1; i >= q; --i) {
      r.w[i] = w[i - q] << s;
      if (s != 0 && i - q - 1 >= 0) r.w[i] |= w[i - q - 1] >> (64 - s);
    }
    return r;
  }
  Bits shifted_down(int k) const {
    Bits r;
    const int q = k / 64, s = k % 64;
    for (int i = 0; i + q < W; ++i) {
      r.w[i] = w[i + q] >> s;
      if (s != 0 && i + q + 1 < W) r.w[i] |= w[i + q + 1] << (64 - s);
    }
    return r;
  }
};

}  // namespace cubenum
