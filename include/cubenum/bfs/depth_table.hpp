#pragma once
// Two bits per state: the BFS depth mod 3, as in Korf's two-bit BFS. It is
// enough to walk a shortest path: a neighbour one step closer to the source
// is the one whose depth is one less mod 3.
#include <bit>
#include <cstdint>
#include <memory>

#include "cubenum/core/atomic_bitmap.hpp"

namespace cubenum::bfs {

class DepthTable {
 public:
  static constexpr int kUnseen = -1;

  // Whole bitmap words of 64 states: the word views read both halves.
  explicit DepthTable(std::uint64_t states) : cells_(2 * ((states + 63) / 64 * 64)) {}

  // Depth mod 3 of `rank`, or kUnseen. Stored as 1 + depth mod 3 so that the
  // zeroed memory of a new table means "unseen".
  int depth_mod3(std::uint64_t rank) const {
    const auto code = static_cast<int>((cells_.load_word(rank / 32) >> (2 * (rank % 32))) & 3U);
    return code - 1;
  }

  // Asks for the cell of `rank` ahead of depth_mod3.
  void prefetch(std::uint64_t rank) const { cells_.prefetch(rank / 32); }

  // Records `depth` for the 64 states of bitmap word w (bits set in `mask`).
  // One thread owns the word: two plain stores.
  void record_word(std::size_t w, std::uint64_t mask, unsigned depth) {
    const std::uint64_t code = depth % 3 + 1;
    for (int half = 0; half < 2; ++half) {
      std::uint64_t bits = half == 0 ? mask & 0xFFFFFFFFULL : mask >> 32;
      if (bits == 0) continue;
      std::uint64_t word = cells_.load_word(2 * w + half);
      while (bits != 0) {
        const int i = __builtin_ctzll(bits);
        bits &= bits - 1;
        word = (word & ~(std::uint64_t{3} << (2 * i))) | code << (2 * i);
      }
      cells_.store_word(2 * w + half, word);
    }
  }

  // Records `depth` for an unseen `rank`, from any thread (every thread
  // recording the same depth); true if this call recorded it.
  bool try_record(std::uint64_t rank, unsigned depth) {
    const std::size_t w = rank / 32;
    const unsigned shift = 2 * (rank % 32);
    if ((cells_.load_word(w) >> shift & 3U) != 0) return false;
    const std::uint64_t code = depth % 3 + 1;
    return (cells_.fetch_or_word(w, code << shift) >> shift & 3U) == 0;
  }

  // The 64 states of bitmap word w whose depth mod 3 is `depth` % 3
  // (`unseen`: those not reached), as a bitmap word.
  std::uint64_t word_at(std::size_t w, unsigned depth) const { return matching(w, depth % 3 + 1); }
  std::uint64_t unseen_word(std::size_t w) const { return matching(w, 0); }
  // Reached states among the 32 of table word i.
  unsigned seen_in_cells(std::size_t i) const {
    const std::uint64_t cells = cells_.load_word(i);
    return static_cast<unsigned>(std::popcount((cells | cells >> 1) & kLowBits));
  }

  std::uint64_t bytes() const { return cells_.words() * sizeof(std::uint64_t); }
  AtomicBitmap& cells() { return cells_; }  // for checkpoints
  const AtomicBitmap& cells() const { return cells_; }

 private:
  static constexpr std::uint64_t kLowBits = 0x5555555555555555ULL;
  // Bit i set where cell i of the 32 has `code`, for both table words.
  std::uint64_t matching(std::size_t w, std::uint64_t code) const {
    return half_matching(cells_.load_word(2 * w), code) |
           half_matching(cells_.load_word(2 * w + 1), code) << 32;
  }
  static std::uint64_t half_matching(std::uint64_t cells, std::uint64_t code) {
    const std::uint64_t x = cells ^ (code * kLowBits);  // a matching cell: 00
    std::uint64_t bits = ~(x | x >> 1) & kLowBits;      // its low bit set
    // Gather the even bits into the low 32.
    bits = (bits | bits >> 1) & 0x3333333333333333ULL;
    bits = (bits | bits >> 2) & 0x0F0F0F0F0F0F0F0FULL;
    bits = (bits | bits >> 4) & 0x00FF00FF00FF00FFULL;
    bits = (bits | bits >> 8) & 0x0000FFFF0000FFFFULL;
    return (bits | bits >> 16) & 0x00000000FFFFFFFFULL;
  }

  AtomicBitmap cells_;  // 2 bits per state
};

}  // namespace cubenum::bfs
