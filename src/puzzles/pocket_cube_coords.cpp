// The pocket cube's coordinates, move tables and symmetries.
#include <algorithm>
#include <span>

#include "cubenum/core/digit_shift.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/ranking.hpp"
#include "cubenum/puzzles/pocket_cube.hpp"
#include "pocket_cube_geometry.hpp"

namespace cubenum::pocket_cube {
namespace {

// A whole-cube map (a rotation, or a symmetry with recolouring) acting on
// corners: the piece in slot i goes to slot[i], piece p becomes piece[p],
// and its twist t becomes twist[i][p][t].
struct CornerRelabel {
  std::array<std::uint8_t, kCornerCount> slot{};
  std::array<std::uint8_t, kCornerCount> piece{};
  std::array<std::array<std::array<std::uint8_t, 3>, kCornerCount>, kCornerCount> twist{};

  Corners apply(const Corners& c) const {
    Corners out;
    for (int i = 0; i < kCornerCount; ++i) {
      out.piece[slot[i]] = piece[c.piece[i]];
      out.twist[slot[i]] = twist[i][c.piece[i]][c.twist[i]];
    }
    return out;
  }
};

// Reads the relabelling off the sticker map by placing each piece in each
// slot with each twist and looking where it lands.
CornerRelabel make_relabel(const detail::FaceletMap& map) {
  CornerRelabel r;
  const Stickers solved = solved_stickers();
  for (int i = 0; i < kCornerCount; ++i) {
    r.slot[i] = detail::kFacelets[map.to[detail::kSlotFacelets[i][0]]].slot;
    for (int p = 0; p < kCornerCount; ++p) {
      for (int t = 0; t < 3; ++t) {
        Stickers s = solved;
        const auto colours = detail::piece_colours(p);
        for (int k = 0; k < 3; ++k) s[detail::kSlotFacelets[i][(t + k) % 3]] = colours[k];
        Stickers moved{};
        for (int f = 0; f < kStickerCount; ++f) moved[map.to[f]] = map.recolour[s[f]];
        const auto& g = detail::kSlotFacelets[r.slot[i]];
        const detail::PieceReading reading =
            detail::read_piece(moved[g[0]], moved[g[1]], moved[g[2]]);
        r.piece[p] = reading.piece;
        r.twist[i][p][t] = reading.twist;
      }
    }
  }
  return r;
}

struct SymmetryTables {
  std::array<CornerRelabel, kRotationCount> rotation;   // the cube turned in the hand
  std::array<CornerRelabel, kSymmetryCount> conjugate;  // moved and recoloured
  // The rotation that brings the D-L-B piece home from slot j with twist t.
  std::array<std::array<std::uint8_t, 3>, kCornerCount> fixing{};

  SymmetryTables() {
    for (int s = 0; s < kSymmetryCount; ++s) {
      if (s < kRotationCount)
        rotation[s] = make_relabel(detail::make_symmetry_map(kCubeSymmetries[s], false));
      conjugate[s] = make_relabel(detail::make_symmetry_map(kCubeSymmetries[s], true));
    }
    for (int s = 0; s < kRotationCount; ++s)
      for (int j = 0; j < kCornerCount; ++j)
        for (int t = 0; t < 3; ++t)
          if (rotation[s].slot[j] == kFixedSlot && rotation[s].twist[j][kFixedSlot][t] == 0)
            fixing[j][t] = static_cast<std::uint8_t>(s);
  }
};

const SymmetryTables& symmetry_tables() {
  static const SymmetryTables tables;
  return tables;
}

std::uint32_t permutation_coordinate(const Corners& c) {
  return static_cast<std::uint32_t>(permutation_rank(std::span(c.piece).first<kCornerCount - 1>()));
}

std::uint32_t twist_coordinate(const Corners& c) {
  return static_cast<std::uint32_t>(digits_rank(std::span(c.twist).first<kCornerCount - 2>(), 3));
}

// The twists of the next twist coordinate: the first six are its base-3
// digits, the seventh makes the sum 0 mod 3.
void next_twist(Corners& c) {
  int i = kFixedSlot - 2;
  while (i >= 0 && c.twist[i] == 2) c.twist[i--] = 0;
  if (i >= 0) ++c.twist[i];
  int sum = 0;
  for (int j = 0; j < kFixedSlot - 1; ++j) sum += c.twist[j];
  c.twist[kFixedSlot - 1] = static_cast<std::uint8_t>((3 - sum % 3) % 3);
}

// For each generator, the quarter turn of its face: a half or inverse turn
// is that quarter turn 2 or 3 times over (a third of the corner work).
std::array<int, PocketCubeSpace::kMaxMoves> quarter_turns(const std::vector<Turn>& turns) {
  std::array<int, PocketCubeSpace::kMaxMoves> quarter{};
  for (std::size_t m = 0; m < turns.size(); ++m)
    for (std::size_t n = 0; n < turns.size(); ++n)
      if (turns[n].face == turns[m].face && turns[n].quarters == 1)
        quarter[m] = static_cast<int>(n);
  return quarter;
}

// visit(perm, corners) for every permutation coordinate, in parallel, with
// no twist. Ranks are lexicographic, so a chunk unranks its first position
// and steps to the next one (unranking each would cost much of a space's
// start-up).
template <class Visit>
void for_each_permutation(Visit&& visit) {
  parallel_for_chunks(kPermutationCount, 512, [&](std::size_t begin, std::size_t end) {
    Corners c = unrank(std::uint64_t{begin} * kTwistCount);
    for (auto p = static_cast<std::uint32_t>(begin); p != end; ++p) {
      visit(p, c);
      std::next_permutation(c.piece.begin(), c.piece.begin() + kFixedSlot);
    }
  });
}

}  // namespace

Corners apply_turn(const Corners& corners, Turn turn) {
  return detail::multiply(corners, detail::turn_cubie(turn));
}

int fixing_rotation(const Corners& corners) {
  int j = 0;
  while (corners.piece[j] != kFixedSlot) ++j;
  return symmetry_tables().fixing[j][corners.twist[j]];
}

Corners with_fixed_corner(const Corners& corners) {
  return symmetry_tables().rotation[fixing_rotation(corners)].apply(corners);
}

std::uint64_t rank(const Corners& fixed) {
  return std::uint64_t{permutation_coordinate(fixed)} * kTwistCount + twist_coordinate(fixed);
}

Corners unrank(std::uint64_t rank) {
  Corners c;
  permutation_unrank(rank / kTwistCount, std::span(c.piece).first<kCornerCount - 1>());
  c.piece[kFixedSlot] = kFixedSlot;
  orientation_unrank(rank % kTwistCount, 3, std::span(c.twist).first<kCornerCount - 1>());
  c.twist[kFixedSlot] = 0;
  return c;
}

std::vector<Turn> generators(Metric metric) {
  std::vector<Turn> turns;
  for (Face face : {Face::U, Face::R, Face::F})
    for (std::uint8_t q : {1, 2, 3})
      if (q != 2 || metric == Metric::Half) turns.push_back({face, q});
  return turns;
}

PocketCubeSpace::PocketCubeSpace(Metric metric)
    : metric_(metric), perm_step_(kPermutationCount), twist_step_(kTwistCount) {
  const std::vector<Turn> turns = generators(metric);
  moves_ = static_cast<int>(turns.size());
  std::array<Corners, kMaxMoves> cubies{};
  for (int m = 0; m < moves_; ++m) turns_[m] = turns[m], cubies[m] = detail::turn_cubie(turns[m]);
  for (int m = 0; m < moves_; ++m)
    for (int n = 0; n < moves_; ++n)
      if (turns_[n].face == turns_[m].face && turns_[n].quarters == 4 - turns_[m].quarters)
        inverse_[m] = n;
  // A turn's effect on the permutation ignores twists, and on the twists
  // ignores the permutation: one table each, from the quarter turns.
  const std::array<int, kMaxMoves> quarter = quarter_turns(turns);
  for_each_permutation([&](std::uint32_t p, const Corners& c) {
    for (int m = 0; m < moves_; ++m)
      if (quarter[m] == m)
        perm_step_[p][m] = permutation_coordinate(detail::multiply(c, cubies[m])) * kTwistCount;
  });
  Corners c = unrank(0);
  for (std::uint32_t t = 0; t < kTwistCount; ++t) {
    for (int m = 0; m < moves_; ++m)
      if (quarter[m] == m)
        twist_step_[t][m] =
            static_cast<std::uint16_t>(twist_coordinate(detail::multiply(c, cubies[m])));
    next_twist(c);
  }
  for (int m = 0; m < moves_; ++m) {
    if (quarter[m] == m) continue;
    const int q = quarter[m];
    for (std::uint32_t p = 0; p < kPermutationCount; ++p) {
      std::uint32_t x = p;
      for (int k = 0; k < turns_[m].quarters; ++k) x = perm_step_[x][q] / kTwistCount;
      perm_step_[p][m] = x * kTwistCount;
    }
    for (std::uint32_t t = 0; t < kTwistCount; ++t) {
      std::uint16_t x = static_cast<std::uint16_t>(t);
      for (int k = 0; k < turns_[m].quarters; ++k) x = twist_step_[x][q];
      twist_step_[t][m] = x;
    }
  }
}

constexpr std::array<std::uint32_t, 6> kPowersOf3 = {1, 3, 9, 27, 81, 243};

PocketCubeShiftSpace::PocketCubeShiftSpace(Metric metric)
    : step_(kPermutationCount), shift_(kPermutationCount) {
  const std::vector<Turn> turns = generators(metric);
  moves_ = static_cast<int>(turns.size());
  // Quarter turns on corners; a half or inverse turn is its quarter turn 2
  // or 3 times, the shifts added up.
  const std::array<int, PocketCubeSpace::kMaxMoves> quarter = quarter_turns(turns);
  std::array<Corners, PocketCubeSpace::kMaxMoves> cubies{};
  for (int m = 0; m < moves_; ++m) cubies[m] = detail::turn_cubie(turns[m]);
  for_each_permutation([&](std::uint32_t p, const Corners& c) {
    for (int m = 0; m < moves_; ++m) {
      if (quarter[m] != m) continue;
      const Corners turned = detail::multiply(c, cubies[m]);
      step_[p][m] = static_cast<std::uint16_t>(permutation_coordinate(turned));
      std::uint32_t twists = 0;
      for (int slot = 0; slot < kCornerCount; ++slot)
        if (turned.piece[slot] < kDigits)
          twists += turned.twist[slot] * kPowersOf3[turned.piece[slot]];
      shift_[p][m] = static_cast<std::uint16_t>(twists);
    }
  });
  parallel_for_chunks(kPermutationCount, 512, [&](std::size_t begin, std::size_t end) {
    for (auto p = static_cast<std::uint32_t>(begin); p != end; ++p)
      for (int m = 0; m < moves_; ++m) {
        if (quarter[m] == m) continue;
        const int q = quarter[m];
        std::uint32_t x = p, twists = 0;
        for (int k = 0; k < turns[m].quarters; ++k) {
          twists = DigitShift<kRadix, kDigits>::sum(twists, shift_[x][q]);
          x = step_[x][q];
        }
        step_[p][m] = static_cast<std::uint16_t>(x);
        shift_[p][m] = static_cast<std::uint16_t>(twists);
      }
  });
}

std::uint64_t PocketCubeShiftSpace::rank_of(std::uint32_t perm, std::uint32_t twists) {
  return rank_of(unrank(std::uint64_t{perm} * kTwistCount), twists);
}

std::uint64_t PocketCubeShiftSpace::rank_of(const Corners& row, std::uint32_t twists) {
  Corners c = row;
  std::array<std::uint8_t, kCornerCount> by_piece{};
  unsigned sum = 0;
  for (unsigned p = 0; p < kDigits; ++p, twists /= 3) sum += by_piece[p] = twists % 3;
  by_piece[kDigits] = static_cast<std::uint8_t>((3 - sum % 3) % 3);
  for (int slot = 0; slot < kCornerCount; ++slot) c.twist[slot] = by_piece[c.piece[slot]];
  return rank(c);
}

Corners conjugate(const Corners& fixed, int symmetry) {
  return with_fixed_corner(symmetry_tables().conjugate[symmetry].apply(fixed));
}

}  // namespace cubenum::pocket_cube
