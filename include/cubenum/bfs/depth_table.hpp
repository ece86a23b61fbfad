#pragma once
// Two bits per state: the BFS depth mod 3, as in Korf's two-bit BFS. It is
// enough to walk a shortest path: a neighbour one step closer to the source
// is the one whose depth is one less mod 3.
#include <cstdint>
#include <memory>

#include "cubenum/core/atomic_bitmap.hpp"

namespace cubenum::bfs {

class DepthTable {
 public:
  static constexpr int kUnseen = -1;

  explicit DepthTable(std::uint64_t states) : cells_(2 * states) {}

  // Depth mod 3 of `rank`, or kUnseen. Stored as 1 + depth mod 3 so that the
  // zeroed memory of a new table means "unseen".
  int depth_mod3(std::uint64_t rank) const {
    const auto code = static_cast<int>((cells_.load_word(rank / 32) >> (2 * (rank % 32))) & 3U);
    return code - 1;
  }

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

  std::uint64_t bytes() const { return cells_.words() * sizeof(std::uint64_t); }
  AtomicBitmap& cells() { return cells_; }  // for checkpoints
  const AtomicBitmap& cells() const { return cells_; }

 private:
  AtomicBitmap cells_;  // 2 bits per state
};

}  // namespace cubenum::bfs
