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
                         : misplaced(pieces) == 0;
  }

  // Whether a position's inverse is a position at the same distance, so
  // that a lower bound of the inverse's distance bounds the position's:
  // every piece distinct and untwisted when solved, and every move's
  // inverse a move.
  bool invertible() const { return invertible_; }
  // The inverse of x: where x has piece p in slot s with twist t, its
  // inverse has piece s in slot p with twist -t. Only where invertible().
  void invert(const std::uint8_t* in, std::uint8_t* out) const {
    const std::size_t sets = first_.size() - 1;
    for (std::size_t s = 0; s < sets; ++s) {
      const std::uint8_t* slot = &slot_of_[s * 256];
      const std::uint8_t* undone = &twist_undone_[s * 256];
      const unsigned twists = def_.sets[s].orientations;
      std::uint8_t* set = out + first_[s];
      for (std::size_t p = first_[s], end = first_[s + 1], byte = 0; p < end; ++p, byte += twists)
        set[slot[in[p]]] = static_cast<std::uint8_t>(byte + undone[in[p]]);
    }
  }

  // The table of `move` on the bytes of set s: slot * twists + twist.
  const std::uint8_t* table(std::size_t move, std::size_t set) const {
    return &tables_[(move * def_.sets.size() + set) * 256];
  }
  // x after `move`. (Here and in invert the bounds are read into locals: a
  // byte written through `out` may alias any member, which the loop would
  // otherwise read again at every byte.)
  void apply(const std::uint8_t* in, std::size_t move, std::uint8_t* out) const {
    const std::size_t sets = first_.size() - 1;
    const std::uint8_t* t = table(move, 0);
    for (std::size_t s = 0, p = 0; s < sets; ++s, t += 256)
      for (const std::size_t end = first_[s + 1]; p < end; ++p) out[p] = t[in[p]];
  }
  // Whether `move` solves `in`: solved(apply(in, move)), stopping at the
  // first piece out of place.
  bool solved_after(const std::uint8_t* in, std::size_t move) const {
    for (std::size_t s = 0; s + 1 < first_.size(); ++s) {
      const std::uint8_t* t = table(move, s);
      for (std::size_t p = first_[s]; p < first_[s + 1]; ++p)
        if (home_at_[s * 256 + t[in[p]]] != home_[p]) return false;
    }
    return true;
  }
  // How many pieces of x are out of place (identical pieces alike), and how
  // many pieces a move displaces: a move that solves x displaces at least
  // as many as x has out of place.
  std::size_t misplaced(const std::uint8_t* x) const {
    std::size_t count = 0;
    for (std::size_t s = 0; s + 1 < first_.size(); ++s) {
      const std::uint16_t* at = &home_at_[s * 256];
      for (std::size_t p = first_[s], end = first_[s + 1]; p < end; ++p)
        count += at[x[p]] != home_[p];
    }
    return count;
  }
  std::size_t moved(std::size_t move) const { return moved_[move]; }

 private:
  bool check_invertible() const;

  Definition def_;
  std::vector<Move> moves_;
  std::vector<std::size_t> first_;           // [set], and the total at the end
  std::vector<std::vector<bool>> distinct_;  // [set][piece]
  // [set][byte]: its slot, and its twist's inverse.
  std::vector<std::uint8_t> slot_of_, twist_undone_;
  std::vector<std::uint8_t> tables_;  // [move][set][byte]
  std::vector<std::uint8_t> solved_;  // the solved position by piece
  // [piece]: its label in the solved position (identical pieces share it);
  // [set][byte]: the label a piece needs at that slot and twist to be in
  // place (kNowhere where the twist is not the solved one).
  static constexpr std::uint16_t kNowhere = 0xFFFF;
  std::vector<std::uint16_t> home_, home_at_;
  std::vector<std::size_t> moved_;  // [move]: the pieces it displaces
  bool all_distinct_ = true;
  bool invertible_ = false;
};

}  // namespace cubenum::twisty
