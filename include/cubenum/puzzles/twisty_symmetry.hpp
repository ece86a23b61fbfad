#pragma once
// The symmetries of a permutation puzzle from a definition file, found from
// the file: the maps of its stickers that conjugate the move set onto itself.
//
// A sticker is (set, slot, twist k). A symmetry sends sticker (s, i, k) to
// (set_to[s], slot_to[s][i], offset[s][i] + k), or - k where it `reverses`
// twists (a mirror). A position, read as the map of stickers that carries
// each piece's home stickers to where it is, is conjugated: x -> S x S^-1.
// When S M S^-1 = M for the move set M, conjugation keeps the distance from
// solved, and so does inversion when pieces are distinct (every move's
// inverse is a move). Positions at one depth then fall into classes: "mod M"
// (up to the symmetries) and "mod M+inv" (also up to inversion), as
// cube20.org and Rokicki count them.
//
// Finding the group is a graph-automorphism problem: a graph whose vertices
// are the stickers, the slots, the sets, the solved pieces' labels, the
// moves and one path per (move, sticker it moves), solved by nauty.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cubenum/puzzles/twisty.hpp"

namespace cubenum::twisty {

enum class SymmetryChoice { None, Rotations, All };
// "none", "rotations" or "all"; else an InputError naming --symmetry.
SymmetryChoice parse_symmetry_choice(const std::string& text);
const char* symmetry_choice_name(SymmetryChoice choice);

struct Symmetry {
  std::vector<std::uint8_t> set_to;                // [set]
  std::vector<std::vector<std::uint8_t>> slot_to;  // [set][slot]
  std::vector<std::vector<std::uint8_t>> offset;   // [set][slot]
  bool reverses = false;                           // twists reversed
  // A mirror: outside the subgroup that the symmetries turning no move's
  // first power into a move's last (R into L') generate; where every move
  // is a half turn, those that reverse no twist.
  bool reflection = false;
  std::vector<int> move_to;  // [move]: the move it is conjugated to
};

struct SymmetryRequest {
  SymmetryChoice choice = SymmetryChoice::All;
  bool inverse = false;  // also up to inversion
  // The graph's automorphisms enumerated at most (a file whose moves leave
  // many pieces alone can have astronomically many).
  std::size_t max_order = 1'000'000;
};

class SymmetryGroup {
 public:
  // The group `request` chooses, of the moves `moves` (a search's: every
  // power kept); refuses (InputError) an --inverse or a --symmetry the file
  // does not allow, or a group too large to enumerate, with the reason.
  SymmetryGroup(const Definition& def, const std::vector<Move>& moves,
                const SymmetryRequest& request);

  const std::vector<Symmetry>& elements() const { return elements_; }  // identity first
  std::size_t order() const { return elements_.size(); }
  std::size_t reflections() const;
  bool inverse() const { return inverse_; }
  SymmetryChoice choice() const { return choice_; }
  // Why the file's whole group is the identity, when it is ("" otherwise).
  const std::string& why_trivial() const { return why_trivial_; }

  // S x S^-1 for symmetry k, into `out` (sized like x).
  void conjugate(std::size_t k, const Arrangement& x, Arrangement& out) const;
  // x^-1 (distinct pieces only: inverse()).
  void invert(const Arrangement& x, Arrangement& out) const;

  // Every map of stickers found that is no mirror and is also a move's
  // effect (pieces stay in their sets, twists keep their direction),
  // whatever it does to positions: the whole-puzzle turns are those of them
  // the moves reach (the 2x2x2's U D' is one).
  const std::vector<Arrangement>& turn_candidates() const { return turn_candidates_; }

 private:
  std::optional<Arrangement> as_position(const Symmetry& s) const;
  void close_rotations();
  void find(const Definition& def, const std::vector<Move>& moves, std::size_t max_order);

  std::vector<PieceSet> sets_;
  std::vector<std::vector<std::uint8_t>> label_;  // [set][slot]: solved piece
  std::vector<std::vector<std::uint8_t>> home_;   // [set][label]: a slot it is solved in
  std::vector<Symmetry> elements_;
  std::vector<Arrangement> turn_candidates_;
  SymmetryChoice choice_ = SymmetryChoice::All;
  bool inverse_ = false;
  std::string why_trivial_;
};

// One line a symmetry: its move map on the file's moves' first powers
// ("R->L' U->U ..."), for `twisty info`.
std::string describe(const Symmetry& s, const std::vector<Move>& moves);

}  // namespace cubenum::twisty
