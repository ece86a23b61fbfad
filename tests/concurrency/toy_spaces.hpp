#pragma once
// A small space with known BFS layers for the engine tests: permutations of
// n elements, moves are adjacent transpositions. The distance of a
// permutation from the identity is its number of inversions, so layer k
// holds the Mahonian number M(n, k).
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "cubenum/core/ranking.hpp"

namespace cubenum::testing {

template <unsigned N>
struct AdjacentSwapSpace {
  std::uint64_t size() const { return factorial(N); }

  template <class Visit>
  bool for_each_neighbour(std::uint64_t rank, Visit&& visit) const {
    std::array<std::uint8_t, N> p{};
    permutation_unrank(rank, p);
    for (unsigned i = 0; i + 1 < N; ++i) {
      std::swap(p[i], p[i + 1]);
      if (visit(permutation_rank(p))) return true;
      std::swap(p[i], p[i + 1]);
    }
    return false;
  }
};

// The same space with states packed as 4-bit digits, for the hashed engine.
template <unsigned N>
struct PackedAdjacentSwapSpace {
  template <class Visit>
  void for_each_neighbour(std::uint64_t key, Visit&& visit) const {
    for (unsigned i = 0; i + 1 < N; ++i) {
      const std::uint64_t a = (key >> (4 * i)) & 15, b = (key >> (4 * (i + 1))) & 15;
      std::uint64_t swapped = key & ~(std::uint64_t{0xFF} << (4 * i));
      visit(swapped | a << (4 * (i + 1)) | b << (4 * i));
    }
  }
  static std::uint64_t identity() {
    std::uint64_t key = 0;
    for (unsigned i = 0; i < N; ++i) key |= std::uint64_t{i} << (4 * i);
    return key;
  }
};

// Mahonian numbers by their recurrence M(n,k) = sum_{j<n} M(n-1, k-j).
inline std::vector<std::uint64_t> mahonian(unsigned n) {
  std::vector<std::uint64_t> row{1};
  for (unsigned m = 2; m <= n; ++m) {
    std::vector<std::uint64_t> next(row.size() + m - 1, 0);
    for (std::size_t k = 0; k < row.size(); ++k)
      for (unsigned j = 0; j < m; ++j) next[k + j] += row[k];
    row = next;
  }
  return row;
}

}  // namespace cubenum::testing
