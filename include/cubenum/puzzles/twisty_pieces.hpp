#pragma once
// Positions by piece, the form the optimal search moves (twisty_ida.hpp):
// each piece of each set, numbered by the slot it holds when solved, as one
// byte (its slot times the set's twists, plus its twist), and each move as
// a table of those bytes per set. A move is one look-up a piece, where the
// definition's form (by slot) gathers and adds.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cubenum/puzzles/twisty.hpp"

namespace cubenum::twisty {

class PieceMoves {
 public:
  // An InputError where a set has more slots times twists than a byte holds.
  PieceMoves(const Definition& def, const std::vector<Move>& moves);

  const Definition& definition() const { return def_; }
  const std::vector<Move>& moves() const { return moves_; }
  std::size_t pieces() const { return first_.back(); }
  // The bytes of set s are [first_piece(s), first_piece(s + 1)).
  std::size_t first_piece(std::size_t set) const { return first_[set]; }
  // Whether piece p of set s has no identical piece.
  bool distinct(std::size_t set, std::size_t piece) const { return distinct_[set][piece]; }

  // Writes x by piece (pieces() bytes); identical pieces are numbered in
  // the order of their slots.
  void encode(const Arrangement& x, std::uint8_t* out) const;
  // Whether `pieces` is the solved position (identical pieces alike).
  bool solved(const std::uint8_t* pieces) const {
    return all_distinct_ ? std::equal(solved_.begin(), solved_.end(), pieces)
                         : solved_alike(pieces);
  }

  // Whether a position's inverse is a position at the same distance, so
  // that a lower bound of the inverse's distance bounds the position's:
  // every piece distinct and untwisted when solved, and every move's
  // inverse a move.
  bool invertible() const { return invertible_; }
  // The inverse of x: where x has piece p in slot s with twist t, its
  // inverse has piece s in slot p with twist -t. Only where invertible().
  void invert(const std::uint8_t* in, std::uint8_t* out) const {
    for (std::size_t s = 0; s + 1 < first_.size(); ++s) {
      const std::uint8_t* slot = &slot_of_[s * 256];
      const std::uint8_t* undone = &twist_undone_[s * 256];
      const unsigned twists = def_.sets[s].orientations;
      for (std::size_t p = first_[s], byte = 0; p < first_[s + 1]; ++p, byte += twists)
        out[first_[s] + slot[in[p]]] = static_cast<std::uint8_t>(byte + undone[in[p]]);
    }
  }

  // The table of `move` on the bytes of set s: slot * twists + twist.
  const std::uint8_t* table(std::size_t move, std::size_t set) const {
    return &tables_[(move * def_.sets.size() + set) * 256];
  }
  void apply(const std::uint8_t* in, std::size_t move, std::uint8_t* out) const {
    for (std::size_t s = 0; s + 1 < first_.size(); ++s) {
      const std::uint8_t* t = table(move, s);
      for (std::size_t p = first_[s]; p < first_[s + 1]; ++p) out[p] = t[in[p]];
    }
  }

 private:
  bool solved_alike(const std::uint8_t* pieces) const;
  bool check_invertible() const;

  Definition def_;
  std::vector<Move> moves_;
  std::vector<std::size_t> first_;           // [set], and the total at the end
  std::vector<std::vector<bool>> distinct_;  // [set][piece]
  // [set][byte]: its slot, and its twist's inverse.
  std::vector<std::uint8_t> slot_of_, twist_undone_;
  std::vector<std::uint8_t> tables_;  // [move][set][byte]
  std::vector<std::uint8_t> solved_;  // the solved position by piece
  bool all_distinct_ = true;
  bool invertible_ = false;
};

}  // namespace cubenum::twisty
