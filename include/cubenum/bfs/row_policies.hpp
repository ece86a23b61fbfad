#pragma once
// Two kinds of spaces that the row engine (row_bfs.hpp) runs faster than
// through tables alone, as adapters that name their column permutations
// and apply them to a whole row at once (PermutableRows):
//
//   ProductRows: spaces whose moves act on rows and columns apart,
//     move m: (r, c) -> (row_step(r, m), column_step(c, m)), as with
//     Kociemba's coordinates (the pocket cube's corner permutation and
//     twist). A move's permutation is the same for every row: a Beneš
//     network (core/bit_permutation.hpp) of up to 1024 columns, in
//     registers.
//   ShiftRows: spaces whose moves take row r to row_step(r, m) and add
//     shift(r, m) to the column digit by digit (columns are Digits
//     base-Radix digits), as with the pocket cube's twists kept by piece:
//     a permutation is a vector, applied as a few masked shifts of the
//     whole row (core/digit_shift.hpp); the zero vector is none.
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "cubenum/bfs/row_bfs.hpp"
#include "cubenum/core/bit_permutation.hpp"
#include "cubenum/core/digit_shift.hpp"
#include "cubenum/core/parallel.hpp"

namespace cubenum::bfs {

// rank = row * columns() + column. inverse(m) undoes m on both coordinates.
template <class S>
concept ProductSpace = requires(const S& space, std::uint32_t i, int m) {
  { space.rows() } -> std::convertible_to<std::uint32_t>;
  { space.columns() } -> std::convertible_to<std::uint32_t>;
  { space.moves() } -> std::convertible_to<int>;
  { space.row_step(i, m) } -> std::convertible_to<std::uint32_t>;
  { space.column_step(i, m) } -> std::convertible_to<std::uint32_t>;
  { space.inverse(m) } -> std::convertible_to<int>;
};

template <class S>
concept ShiftSpace = requires(const S& space, std::uint32_t r, int m) {
  { S::kRadix } -> std::convertible_to<unsigned>;
  { S::kDigits } -> std::convertible_to<unsigned>;
  { space.rows() } -> std::convertible_to<std::uint32_t>;
  { space.moves() } -> std::convertible_to<int>;
  { space.row_step(r, m) } -> std::convertible_to<std::uint32_t>;
  { space.shift(r, m) } -> std::convertible_to<std::uint32_t>;
};

inline constexpr std::uint32_t kMaxPermutedColumns = 1024;  // networks and shifts in registers

class ProductRows {
 public:
  template <ProductSpace S>
  explicit ProductRows(const S& space)
      : rows_(space.rows()), columns_(space.columns()), moves_(space.moves()) {
    if (columns_ > kMaxPermutedColumns)
      throw std::length_error("ProductRows: more than 1024 columns");
    const auto n = static_cast<std::size_t>(moves_);
    next_row_.resize(std::size_t{rows_} * n);
    for (std::uint32_t r = 0; r < rows_; ++r)
      for (std::size_t m = 0; m < n; ++m)
        next_row_[r * n + m] = space.row_step(r, static_cast<int>(m));
    tables_.assign(n, std::vector<std::uint16_t>(columns_));
    for (std::size_t m = 0; m < n; ++m) {
      inverse_.push_back(space.inverse(static_cast<int>(m)));
      for (std::uint32_t c = 0; c < columns_; ++c)
        tables_[m][c] = static_cast<std::uint16_t>(space.column_step(c, static_cast<int>(m)));
    }
    networks_.resize(n);
    identity_.resize(n);
    parallel_for_chunks(n, 1, [&](std::size_t begin, std::size_t end) {
      for (std::size_t m = begin; m != end; ++m) {
        const std::vector<std::uint32_t> to(tables_[m].begin(), tables_[m].end());
        networks_[m] = BitPermutation(to);
        bool identity = true;
        for (std::uint32_t c = 0; c < columns_ && identity; ++c) identity = to[c] == c;
        identity_[m] = identity ? 1 : 0;
      }
    });
  }

  std::uint32_t rows() const { return rows_; }
  std::uint32_t columns() const { return columns_; }
  int moves() const { return moves_; }
  int inverse(int m) const { return inverse_[static_cast<std::size_t>(m)]; }
  std::uint32_t row_step(std::uint32_t r, int m) const {
    return next_row_[std::size_t{r} * static_cast<std::size_t>(moves_) +
                     static_cast<std::size_t>(m)];
  }
  const std::uint16_t* action(std::uint32_t, int m) const {
    return tables_[static_cast<std::size_t>(m)].data();
  }

  std::uint32_t action_id(std::uint32_t, int m) const {
    return identity_[static_cast<std::size_t>(m)] != 0 ? kIdentityAction
                                                       : static_cast<std::uint32_t>(m);
  }
  void permute(std::uint32_t id, const Word* in, Word* out) const {
    const BitPermutation& network = networks_[id];
    network.apply(in, (columns_ + 63) / 64, out);
  }
  std::uint32_t permute_words() const { return static_cast<std::uint32_t>(networks_[0].words()); }
  // Measured: a 729-column row through its network, about 70 ns.
  double permute_nanoseconds() const { return 70.0 * permute_words() / 16; }

 private:
  std::uint32_t rows_, columns_;
  int moves_;
  std::vector<std::uint32_t> next_row_;             // [r * moves + m]
  std::vector<std::vector<std::uint16_t>> tables_;  // [m][c]
  std::vector<int> inverse_;
  std::vector<BitPermutation> networks_;  // [m]
  std::vector<std::uint8_t> identity_;    // [m]: a byte each (written by different threads)
};

template <unsigned Radix, unsigned Digits>
class ShiftRows {
 public:
  using Shift = DigitShift<Radix, Digits>;
  static constexpr std::uint32_t kColumns = Shift::kColumns;

  template <ShiftSpace S>
  explicit ShiftRows(const S& space) : rows_(space.rows()), moves_(space.moves()) {
    const auto n = static_cast<std::size_t>(moves_);
    next_row_.resize(std::size_t{rows_} * n);
    shift_.resize(next_row_.size());
    std::vector<bool> used(kColumns, false);
    for (std::uint32_t r = 0; r < rows_; ++r)
      for (std::size_t m = 0; m < n; ++m) {
        next_row_[r * n + m] = space.row_step(r, static_cast<int>(m));
        const std::uint32_t v = space.shift(r, static_cast<int>(m));
        if (next_row_[r * n + m] >= rows_ || v >= kColumns)
          throw std::invalid_argument("ShiftRows: a move leaves the rows or the columns");
        shift_[r * n + m] = static_cast<std::uint16_t>(v);
        used[v] = true;
      }
    find_inverses();
    // The tables of the vectors that occur: c -> c + v.
    tables_.resize(kColumns);
    for (std::uint32_t v = 0; v < kColumns; ++v) {
      if (!used[v]) continue;
      tables_[v].resize(kColumns);
      for (std::uint32_t c = 0; c < kColumns; ++c)
        tables_[v][c] = static_cast<std::uint16_t>(Shift::sum(c, v));
    }
  }

  std::uint32_t rows() const { return rows_; }
  std::uint32_t columns() const { return kColumns; }
  int moves() const { return moves_; }
  int inverse(int m) const { return inverse_[static_cast<std::size_t>(m)]; }
  std::uint32_t row_step(std::uint32_t r, int m) const { return next_row_[at(r, m)]; }
  const std::uint16_t* action(std::uint32_t r, int m) const {
    return tables_[shift_[at(r, m)]].data();
  }

  std::uint32_t action_id(std::uint32_t r, int m) const {
    const std::uint32_t v = shift_[at(r, m)];
    return v == 0 ? kIdentityAction : v;
  }
  void permute(std::uint32_t id, const Word* in, Word* out) const {
    typename Shift::Row row;
    Shift::load(in, row);
    digits_.apply(id, row);
    Shift::store(row, out);
  }
  std::uint32_t permute_words() const { return Shift::kRowWords; }
  // Measured: a 729-column row, about 8 ns a digit shifted (digit_shift.hpp).
  double permute_nanoseconds() const { return 8.0 * Digits / 2; }

 private:
  std::size_t at(std::uint32_t r, int m) const {
    return std::size_t{r} * static_cast<std::size_t>(moves_) + static_cast<std::size_t>(m);
  }

  // Move m' undoes m when it takes every row back and adds the negation
  // (row 0 first: it rules out nearly every candidate).
  void find_inverses() {
    for (int m = 0; m < moves_; ++m) {
      int found = -1;
      for (int k = 0; k < moves_ && found < 0; ++k) {
        bool undoes = true;
        for (std::uint32_t r = 0; r < rows_ && undoes; r = r == 0 ? 1 : r + 1) {
          const std::uint32_t q = next_row_[at(r, m)];
          undoes = next_row_[at(q, k)] == r && Shift::sum(shift_[at(r, m)], shift_[at(q, k)]) == 0;
        }
        if (undoes) found = k;
      }
      if (found < 0) throw std::invalid_argument("ShiftRows: a move without an inverse");
      inverse_.push_back(found);
    }
  }

  std::uint32_t rows_;
  int moves_;
  std::vector<std::uint32_t> next_row_;             // [r * moves + m]
  std::vector<std::uint16_t> shift_;                // [r * moves + m]
  std::vector<std::vector<std::uint16_t>> tables_;  // [v][c], for the vectors that occur
  std::vector<int> inverse_;
  Shift digits_;
};

}  // namespace cubenum::bfs
