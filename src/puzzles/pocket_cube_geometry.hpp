#pragma once
// The pocket cube's geometry, all computed at compile time from the corner
// positions (+-1, +-1, +-1) and face normals: which facelet is where, how a
// face turn or a symmetry moves facelets, and which piece a colour triple is.
#include <array>
#include <cstdint>
#include <string>

#include "cubenum/core/cube_symmetry.hpp"
#include "cubenum/puzzles/pocket_cube.hpp"

namespace cubenum::pocket_cube::detail {

// Throws InputError(source, 0, problem). Out of line: GCC 12 reports a false
// -Wrestrict in std::string's operator+ wherever InputError's constructor is
// inlined (GCC bug 105329), so it is built in one place.
[[noreturn]] void reject(const std::string& source, const std::string& problem);

struct Facelet {
  Face face;
  std::uint8_t slot;
};

// The seed's net, facelet by facelet (see pocket_cube.hpp).
inline constexpr std::array<Facelet, kStickerCount> kFacelets = {{
    {Face::U, 2}, {Face::U, 3}, {Face::U, 1}, {Face::U, 0},  // T: back-left .. front-right
    {Face::L, 2}, {Face::L, 1}, {Face::F, 1}, {Face::F, 0},  // upper row of L F
    {Face::R, 0}, {Face::R, 3}, {Face::B, 3}, {Face::B, 2},  // upper row of R B
    {Face::L, 7}, {Face::L, 5}, {Face::F, 5}, {Face::F, 4},  // lower row of L F
    {Face::R, 4}, {Face::R, 6}, {Face::B, 6}, {Face::B, 7},  // lower row of R B
    {Face::D, 5}, {Face::D, 4}, {Face::D, 7}, {Face::D, 6},  // D: front-left .. back-right
}};

// Slot centres: URF UFL ULB UBR DFR DLF DRB DBL (x right, y up, z front).
inline constexpr std::array<Vec3, kCornerCount> kSlotPositions = {{{1, 1, 1},
                                                                   {-1, 1, 1},
                                                                   {-1, 1, -1},
                                                                   {1, 1, -1},
                                                                   {1, -1, 1},
                                                                   {-1, -1, 1},
                                                                   {1, -1, -1},
                                                                   {-1, -1, -1}}};

// The seed's colours: U w(0) R b(3) F r(4) D y(1) L g(2) B o(5).
constexpr std::uint8_t face_colour(Face face) {
  constexpr std::uint8_t colours[kFaceCount] = {0, 3, 4, 1, 2, 5};
  return colours[static_cast<int>(face)];
}
constexpr Face face_of_colour(std::uint8_t colour) {
  for (int f = 0; f < kFaceCount; ++f)
    if (face_colour(static_cast<Face>(f)) == colour) return static_cast<Face>(f);
  return Face::U;
}

constexpr int slot_at(const Vec3& p) {
  for (int s = 0; s < kCornerCount; ++s)
    if (kSlotPositions[s] == p) return s;
  return -1;
}

constexpr int facelet_at(int slot, Face face) {
  for (int f = 0; f < kStickerCount; ++f)
    if (kFacelets[f].slot == slot && kFacelets[f].face == face) return f;
  return -1;
}

constexpr int determinant(const Vec3& a, const Vec3& b, const Vec3& c) {
  return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
         a[2] * (b[0] * c[1] - b[1] * c[0]);
}

// Each slot's facelets: the U/D one first, then clockwise seen from outside
// (outward normals n0, n1, n2 in clockwise order have determinant -1).
inline constexpr std::array<std::array<std::uint8_t, 3>, kCornerCount> kSlotFacelets = [] {
  std::array<std::array<std::uint8_t, 3>, kCornerCount> table{};
  for (int s = 0; s < kCornerCount; ++s) {
    std::uint8_t ud = 0, others[2] = {}, n = 0;
    for (int f = 0; f < kStickerCount; ++f) {
      if (kFacelets[f].slot != s) continue;
      if (kFacelets[f].face == Face::U || kFacelets[f].face == Face::D)
        ud = static_cast<std::uint8_t>(f);
      else
        others[n++] = static_cast<std::uint8_t>(f);
    }
    auto normal = [](std::uint8_t f) { return face_normal(kFacelets[f].face); };
    if (determinant(normal(ud), normal(others[0]), normal(others[1])) != -1)
      std::swap(others[0], others[1]);
    table[s] = {ud, others[0], others[1]};
  }
  return table;
}();

// A piece's colours, its U/D colour first, then clockwise.
constexpr std::array<std::uint8_t, 3> piece_colours(int piece) {
  std::array<std::uint8_t, 3> c{};
  for (int k = 0; k < 3; ++k) c[k] = face_colour(kFacelets[kSlotFacelets[piece][k]].face);
  return c;
}

inline constexpr std::uint8_t kNoPiece = 0xFF;
struct PieceReading {
  std::uint8_t piece = kNoPiece;
  std::uint8_t twist = 0;
};

// Colours a, b, c read clockwise from a slot's U/D facelet.
inline constexpr std::array<PieceReading, 216> kPieceReadings = [] {
  std::array<PieceReading, 216> table;
  // Filled explicitly: GCC 12 at -O2 zero-fills `table{}` here instead of
  // using PieceReading's member initialisers.
  table.fill(PieceReading{kNoPiece, 0});
  for (int p = 0; p < kCornerCount; ++p) {
    const auto colours = piece_colours(p);
    for (int t = 0; t < 3; ++t) {
      std::array<std::uint8_t, 3> seen{};
      for (int k = 0; k < 3; ++k) seen[(t + k) % 3] = colours[k];
      table[seen[0] * 36 + seen[1] * 6 + seen[2]] = {static_cast<std::uint8_t>(p),
                                                     static_cast<std::uint8_t>(t)};
    }
  }
  return table;
}();
constexpr PieceReading read_piece(std::uint8_t a, std::uint8_t b, std::uint8_t c) {
  return kPieceReadings[a * 36 + b * 6 + c];
}

// Where every facelet goes and what every colour becomes:
// new[to[f]] = recolour[old[f]].
struct FaceletMap {
  std::array<std::uint8_t, kStickerCount> to{};
  std::array<std::uint8_t, 6> recolour{0, 1, 2, 3, 4, 5};
};

constexpr Vec3 quarter_turn(const Vec3& n, const Vec3& v) {
  // Clockwise seen from the tip of n: v -> (n.v) n - n x v.
  const int dot = n[0] * v[0] + n[1] * v[1] + n[2] * v[2];
  const Vec3 cross = {n[1] * v[2] - n[2] * v[1], n[2] * v[0] - n[0] * v[2],
                      n[0] * v[1] - n[1] * v[0]};
  return {dot * n[0] - cross[0], dot * n[1] - cross[1], dot * n[2] - cross[2]};
}

constexpr FaceletMap make_turn_map(Face face, int quarters) {
  const Vec3 n = face_normal(face);
  FaceletMap map;
  for (int f = 0; f < kStickerCount; ++f) {
    Vec3 p = kSlotPositions[kFacelets[f].slot];
    Vec3 normal = face_normal(kFacelets[f].face);
    if (p[0] * n[0] + p[1] * n[1] + p[2] * n[2] > 0) {
      for (int q = 0; q < quarters; ++q) p = quarter_turn(n, p), normal = quarter_turn(n, normal);
    }
    map.to[f] = static_cast<std::uint8_t>(facelet_at(slot_at(p), face_with_normal(normal)));
  }
  return map;
}

// kTurnMaps[face][quarters - 1].
inline constexpr std::array<std::array<FaceletMap, 3>, kFaceCount> kTurnMaps = [] {
  std::array<std::array<FaceletMap, 3>, kFaceCount> maps{};
  for (int f = 0; f < kFaceCount; ++f)
    for (int q = 1; q <= 3; ++q) maps[f][q - 1] = make_turn_map(static_cast<Face>(f), q);
  return maps;
}();
constexpr const FaceletMap& turn_map(Turn turn) {
  return kTurnMaps[static_cast<int>(turn.face)][turn.quarters - 1];
}

// Moving the whole cube by symmetry s; with `recolour`, every colour becomes
// the colour of the face that s moves its face to (conjugation), without it
// the stickers just travel (a whole-cube rotation in the hand).
constexpr FaceletMap make_symmetry_map(const CubeSymmetry& s, bool recolour) {
  FaceletMap map;
  for (int f = 0; f < kStickerCount; ++f)
    map.to[f] = static_cast<std::uint8_t>(facelet_at(
        slot_at(s.apply(kSlotPositions[kFacelets[f].slot])), s.apply(kFacelets[f].face)));
  if (recolour)
    for (int c = 0; c < 6; ++c)
      map.recolour[c] = face_colour(s.apply(face_of_colour(static_cast<std::uint8_t>(c))));
  return map;
}

// Corners read without checks (for stickers known to be a cube).
constexpr Corners read_corners(const Stickers& s) {
  Corners corners;
  for (int slot = 0; slot < kCornerCount; ++slot) {
    const auto& f = kSlotFacelets[slot];
    const PieceReading r = read_piece(s[f[0]], s[f[1]], s[f[2]]);
    corners.piece[slot] = r.piece;
    corners.twist[slot] = r.twist;
  }
  return corners;
}

// A turn as a corner permutation with twists, in the usual cubie algebra:
// (a * b).piece[i] = a.piece[b.piece[i]],
// (a * b).twist[i] = a.twist[b.piece[i]] + b.twist[i]  (mod 3).
constexpr Corners turn_cubie(Turn turn) {
  Stickers solved{};
  for (int f = 0; f < kStickerCount; ++f) solved[f] = face_colour(kFacelets[f].face);
  const FaceletMap& map = turn_map(turn);
  Stickers turned{};
  for (int f = 0; f < kStickerCount; ++f) turned[map.to[f]] = solved[f];
  return read_corners(turned);
}

constexpr Corners multiply(const Corners& a, const Corners& b) {
  Corners r;
  for (int i = 0; i < kCornerCount; ++i) {
    r.piece[i] = a.piece[b.piece[i]];
    r.twist[i] = static_cast<std::uint8_t>((a.twist[b.piece[i]] + b.twist[i]) % 3);
  }
  return r;
}

}  // namespace cubenum::pocket_cube::detail
