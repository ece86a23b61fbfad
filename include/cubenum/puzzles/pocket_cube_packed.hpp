#pragma once
// A second, deliberately independent pocket-cube encoding for the hashed
// BFS engine and the encoding benchmarks: the 8 corners packed one byte each
// (piece in bits 0-2, twist in bits 3-4) into a 64-bit key, turned by
// Kociemba's textbook corner cubie moves (his slot order URF UFL ULB UBR DFR
// DLF DBL DRB, not pocket_cube.hpp's). It shares nothing with the sticker
// geometry and move tables of pocket_cube.hpp, so the two can check each
// other.
#include <array>
#include <cstdint>

namespace cubenum::pocket_cube {

class PackedPocketCube {
 public:
  // half_turns: HTM (U U2 U' R R2 R' F F2 F'); otherwise QTM.
  explicit PackedPocketCube(bool half_turns) : half_turns_(half_turns) {}

  static constexpr std::uint64_t solved() {
    std::uint64_t key = 0;
    for (int i = 0; i < 8; ++i) key |= std::uint64_t(i) << (8 * i);
    return key;
  }

  // Kociemba: (a * m).piece[i] = a.piece[m.from[i]],
  //           (a * m).twist[i] = a.twist[m.from[i]] + m.twist[i] (mod 3).
  static constexpr std::uint64_t turn(std::uint64_t key, int face) {
    const Move& m = kMoves[face];
    std::uint64_t out = 0;
    for (int i = 0; i < 8; ++i) {
      const std::uint64_t cell = (key >> (8 * m.from[i])) & 0xFF;
      const std::uint64_t twist = ((cell >> 3) + m.twist[i]) % 3;
      out |= ((cell & 7) | twist << 3) << (8 * i);
    }
    return out;
  }

  template <class Visit>
  void for_each_neighbour(std::uint64_t key, Visit&& visit) const {
    for (int face = 0; face < 3; ++face) {
      const std::uint64_t once = turn(key, face), twice = turn(once, face);
      visit(once);
      if (half_turns_) visit(twice);
      visit(turn(twice, face));
    }
  }

 private:
  struct Move {
    std::array<std::uint8_t, 8> from;
    std::array<std::uint8_t, 8> twist;
  };
  // U, R, F; DBL (slot 6) never moves.
  static constexpr std::array<Move, 3> kMoves = {{
      {{3, 0, 1, 2, 4, 5, 6, 7}, {0, 0, 0, 0, 0, 0, 0, 0}},
      {{4, 1, 2, 0, 7, 5, 6, 3}, {2, 0, 0, 1, 1, 0, 0, 2}},
      {{1, 5, 2, 3, 0, 4, 6, 7}, {1, 2, 0, 0, 2, 1, 0, 0}},
  }};
  bool half_turns_;
};

}  // namespace cubenum::pocket_cube
