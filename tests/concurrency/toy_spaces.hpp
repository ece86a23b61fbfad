#pragma once
// A small space with known BFS layers for the engine tests: permutations of
// n elements, moves are adjacent transpositions. The distance of a
// permutation from the identity is its number of inversions, so layer k
// holds the Mahonian number M(n, k).

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "cubenum/bfs/row_policies.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/ranking.hpp"

namespace cubenum::testing {

// Every direction policy, and the row engine's runs from state 0 under one
// of them, on at most `threads` threads: one for each storage (three
// bitplanes; two bits as depth mod 3; two bits with the frontier told
// apart), all of which must agree.
inline const std::vector<bfs::DirectionPolicy> kPolicies = {
    bfs::DirectionPolicy::Auto, bfs::DirectionPolicy::TopDown, bfs::DirectionPolicy::BottomUp};

template <class Space>
std::vector<bfs::RowBfsResult> run_rows(const Space& space, bfs::DirectionPolicy policy,
                                        int threads) {
  cubenum::ThreadLimit limit(threads);
  const std::uint64_t source = 0;
  const std::span<const std::uint64_t> sources(&source, 1);
  bfs::RowBfsOptions options;
  options.policy = policy;
  std::vector<bfs::RowBfsResult> runs;
  runs.push_back(bfs::row_bfs<bfs::PlaneRows>(space, sources, options));
  runs.push_back(bfs::row_bfs<bfs::TwoBitRows>(space, sources, options));
  options.codes = bfs::RowCodes::Frontier;
  runs.push_back(bfs::row_bfs<bfs::TwoBitRows>(space, sources, options));
  return runs;
}

inline const char* const kStorageNames[] = {"planes", "two bits (depth mod 3)",
                                            "two bits (frontier)"};

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

// Product spaces for the row engine's ProductRows: rows and columns each with their own
// moves. `Coordinate` is a set of n points with k permutations of it
// (as tables); the product's moves are pairs (row permutation, column
// permutation).
struct ProductToy {
  std::uint32_t row_count = 0, column_count = 0;
  std::vector<std::vector<std::uint32_t>> row_moves, column_moves;  // [move][point]
  std::vector<int> inverses;

  std::uint32_t rows() const { return row_count; }
  std::uint32_t columns() const { return column_count; }
  int moves() const { return static_cast<int>(row_moves.size()); }
  std::uint32_t row_step(std::uint32_t r, int m) const {
    return row_moves[static_cast<std::size_t>(m)][r];
  }
  std::uint32_t column_step(std::uint32_t c, int m) const {
    return column_moves[static_cast<std::size_t>(m)][c];
  }
  int inverse(int m) const { return inverses[static_cast<std::size_t>(m)]; }
  std::uint64_t size() const { return std::uint64_t{row_count} * column_count; }

  // The same graph for frontier_bfs, an engine that knows nothing of rows.
  template <class Visit>
  bool for_each_neighbour(std::uint64_t rank, Visit&& visit) const {
    const auto r = static_cast<std::uint32_t>(rank / column_count);
    const auto c = static_cast<std::uint32_t>(rank % column_count);
    for (int m = 0; m < moves(); ++m)
      if (visit(std::uint64_t{row_step(r, m)} * column_count + column_step(c, m))) return true;
    return false;
  }

  // Adds move (rows, columns) and, unless it is its own inverse, its inverse.
  void add_move(std::vector<std::uint32_t> rows_to, std::vector<std::uint32_t> columns_to) {
    auto invert = [](const std::vector<std::uint32_t>& to) {
      std::vector<std::uint32_t> from(to.size());
      for (std::uint32_t i = 0; i < to.size(); ++i) from[to[i]] = i;
      return from;
    };
    const int m = moves();
    const bool involution = invert(rows_to) == rows_to && invert(columns_to) == columns_to;
    row_moves.push_back(rows_to);
    column_moves.push_back(columns_to);
    inverses.push_back(involution ? m : m + 1);
    if (!involution) {
      row_moves.push_back(invert(rows_to));
      column_moves.push_back(invert(columns_to));
      inverses.push_back(m);
    }
  }
};

inline std::vector<std::uint32_t> identity_map(std::uint32_t n) {
  std::vector<std::uint32_t> to(n);
  for (std::uint32_t i = 0; i < n; ++i) to[i] = i;
  return to;
}

inline std::vector<std::uint32_t> rotation_map(std::uint32_t n, std::uint32_t by) {
  std::vector<std::uint32_t> to(n);
  for (std::uint32_t i = 0; i < n; ++i) to[i] = (i + by) % n;
  return to;
}

// Cycle a x cycle b, a step along one of them at a time: the distance of
// (r, c) from (0, 0) is the sum of the two cyclic distances.
inline ProductToy torus(std::uint32_t a, std::uint32_t b) {
  ProductToy toy{a, b, {}, {}, {}};
  toy.add_move(rotation_map(a, 1), identity_map(b));
  toy.add_move(identity_map(a), rotation_map(b, 1));
  return toy;
}

// The layers of a product of two spaces whose moves act on one factor at a
// time: distances add, so layer counts convolve.
inline std::vector<std::uint64_t> convolve(const std::vector<std::uint64_t>& x,
                                           const std::vector<std::uint64_t>& y) {
  std::vector<std::uint64_t> out(x.size() + y.size() - 1, 0);
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = 0; j < y.size(); ++j) out[i + j] += x[i] * y[j];
  return out;
}

// Layers of the torus by convolving the layers of the two cycles.
inline std::vector<std::uint64_t> torus_layers(std::uint32_t a, std::uint32_t b) {
  auto cycle = [](std::uint32_t n) {
    std::vector<std::uint64_t> layers(n / 2 + 1, 0);
    for (std::uint32_t i = 0; i < n; ++i) ++layers[std::min(i, n - i)];
    return layers;
  };
  return convolve(cycle(a), cycle(b));
}

// Permutations of n points (rows) and of k points (columns), each with
// adjacent swaps that leave the other coordinate alone: the layers are the
// convolution of the two Mahonian rows.
template <unsigned N, unsigned K>
ProductToy swap_pairs() {
  auto swaps = [](auto tag) {
    constexpr unsigned n = decltype(tag)::value;
    std::vector<std::vector<std::uint32_t>> maps(n - 1, std::vector<std::uint32_t>(factorial(n)));
    for (std::uint64_t rank = 0; rank < factorial(n); ++rank) {
      std::array<std::uint8_t, n> p{};
      permutation_unrank(rank, p);
      for (unsigned i = 0; i + 1 < n; ++i) {
        std::swap(p[i], p[i + 1]);
        maps[i][rank] = static_cast<std::uint32_t>(permutation_rank(p));
        std::swap(p[i], p[i + 1]);
      }
    }
    return maps;
  };
  ProductToy toy{static_cast<std::uint32_t>(factorial(N)),
                 static_cast<std::uint32_t>(factorial(K)),
                 {},
                 {},
                 {}};
  for (auto& rows_to : swaps(std::integral_constant<unsigned, N>{}))
    toy.add_move(rows_to, identity_map(toy.column_count));
  for (auto& columns_to : swaps(std::integral_constant<unsigned, K>{}))
    toy.add_move(identity_map(toy.row_count), columns_to);
  return toy;
}

// A space whose moves come in cycle families, like face turns in the half
// turn metric: on rows Z_4 x Z_4 and `columns` points, g_x^j moves x by j
// and the columns by alpha^j, g_y^j moves y by j and the columns by beta^j
// (j = 1, 2, 3), with alpha and beta random permutations of order 4.
inline ProductToy cycle_families(std::uint32_t columns, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  auto order_four = [&] {
    std::vector<std::uint32_t> points = identity_map(columns), to = identity_map(columns);
    std::shuffle(points.begin(), points.end(), random);
    for (std::uint32_t i = 0; i + 4 <= columns; i += 4)
      for (std::uint32_t k = 0; k < 4; ++k) to[points[i + k]] = points[i + (k + 1) % 4];
    return to;
  };
  auto power = [](const std::vector<std::uint32_t>& to, int j) {
    std::vector<std::uint32_t> out = identity_map(static_cast<std::uint32_t>(to.size()));
    for (int k = 0; k < j; ++k)
      for (auto& x : out) x = to[x];
    return out;
  };
  auto shift = [](int axis, int by) {
    std::vector<std::uint32_t> to(16);
    for (std::uint32_t r = 0; r < 16; ++r) {
      std::uint32_t x = r % 4, y = r / 4;
      (axis == 0 ? x : y) = (axis == 0 ? x + by : y + by) % 4;
      to[r] = x + 4 * y;
    }
    return to;
  };
  ProductToy toy{16, columns, {}, {}, {}};
  const std::vector<std::uint32_t> alpha = order_four(), beta = order_four();
  for (int axis = 0; axis < 2; ++axis) {
    const auto& sigma = axis == 0 ? alpha : beta;
    const int first = toy.moves();
    for (int j = 1; j <= 3; ++j) {  // the three powers, each other's inverses by hand
      toy.row_moves.push_back(shift(axis, j));
      toy.column_moves.push_back(power(sigma, j));
    }
    toy.inverses.insert(toy.inverses.end(), {first + 2, first + 1, first});
  }
  return toy;
}

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
