#pragma once
// The 48 symmetries of the cube as signed 3x3 permutation matrices: the 24
// rotations (determinant +1) and the 24 rotations composed with a mirror.
// Every puzzle takes its symmetries from here and applies them to whatever
// it places on the cube: faces, face frames, cells, voxels, cube states.
//
// Axes: x points right (R), y up (U), z to the front (F).
#include <array>
#include <cstdint>
#include <span>

namespace cubenum {

using Vec3 = std::array<int, 3>;

// The faces by their outward normals, in the order U R F D L B.
enum class Face : std::uint8_t { U, R, F, D, L, B };
inline constexpr int kFaceCount = 6;

constexpr Vec3 face_normal(Face f) {
  constexpr Vec3 normals[kFaceCount] = {{0, 1, 0},  {1, 0, 0},  {0, 0, 1},
                                        {0, -1, 0}, {-1, 0, 0}, {0, 0, -1}};
  return normals[static_cast<int>(f)];
}

// The face whose outward normal is `n` (a signed unit axis vector).
constexpr Face face_with_normal(const Vec3& n) {
  for (int f = 0; f < kFaceCount; ++f)
    if (face_normal(static_cast<Face>(f)) == n) return static_cast<Face>(f);
  return Face::U;  // not reached for unit axis vectors
}

constexpr char face_letter(Face f) {
  return "URFDLB"[static_cast<int>(f)];
}

class CubeSymmetry {
 public:
  // M e_i = sign[i] e_{perm[i]}: axis i goes to axis perm[i], maybe reversed.
  constexpr CubeSymmetry(std::array<std::uint8_t, 3> perm, std::array<std::int8_t, 3> sign)
      : perm_(perm), sign_(sign) {}
  constexpr CubeSymmetry() : CubeSymmetry({0, 1, 2}, {1, 1, 1}) {}

  constexpr Vec3 apply(const Vec3& v) const {
    Vec3 r{};
    for (int i = 0; i < 3; ++i) r[perm_[i]] = sign_[i] * v[i];
    return r;
  }
  constexpr Face apply(Face f) const { return face_with_normal(apply(face_normal(f))); }

  // (a * b)(v) = a(b(v)).
  friend constexpr CubeSymmetry operator*(const CubeSymmetry& a, const CubeSymmetry& b) {
    CubeSymmetry r;
    for (int i = 0; i < 3; ++i) {
      r.perm_[i] = a.perm_[b.perm_[i]];
      r.sign_[i] = static_cast<std::int8_t>(b.sign_[i] * a.sign_[b.perm_[i]]);
    }
    return r;
  }

  constexpr CubeSymmetry inverse() const {
    CubeSymmetry r;
    for (int i = 0; i < 3; ++i) {
      r.perm_[perm_[i]] = static_cast<std::uint8_t>(i);
      r.sign_[perm_[i]] = sign_[i];
    }
    return r;
  }

  // The matrix M with M[row][col]; M e_col is column col.
  constexpr std::array<std::array<int, 3>, 3> matrix() const {
    std::array<std::array<int, 3>, 3> m{};
    for (int i = 0; i < 3; ++i) m[perm_[i]][i] = sign_[i];
    return m;
  }

  constexpr int determinant() const {
    const bool odd = (perm_[0] > perm_[1]) ^ (perm_[0] > perm_[2]) ^ (perm_[1] > perm_[2]);
    return (odd ? -1 : 1) * sign_[0] * sign_[1] * sign_[2];
  }
  constexpr bool is_rotation() const { return determinant() == 1; }

  friend constexpr bool operator==(const CubeSymmetry&, const CubeSymmetry&) = default;

  // A number of its own in 0..47: the permutation's (0..5) times 8 plus
  // the signs' bits (bit i set when axis i is reversed).
  constexpr int code() const {
    const int p = perm_[0] * 2 + (perm_[1] > perm_[2] ? 1 : 0);
    return p * 8 + (sign_[0] < 0 ? 1 : 0) + (sign_[1] < 0 ? 2 : 0) + (sign_[2] < 0 ? 4 : 0);
  }

 private:
  std::array<std::uint8_t, 3> perm_;
  std::array<std::int8_t, 3> sign_;
};

inline constexpr int kRotationCount = 24;
inline constexpr int kSymmetryCount = 48;

namespace detail {
constexpr std::array<CubeSymmetry, kSymmetryCount> make_cube_symmetries() {
  constexpr std::array<std::array<std::uint8_t, 3>, 6> perms = {
      {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
  std::array<CubeSymmetry, kSymmetryCount> all{};
  int rotations = 0, mirrored = kRotationCount;
  for (const auto& p : perms) {
    for (int signs = 0; signs < 8; ++signs) {
      const CubeSymmetry s(p, {static_cast<std::int8_t>(signs & 1 ? -1 : 1),
                               static_cast<std::int8_t>(signs & 2 ? -1 : 1),
                               static_cast<std::int8_t>(signs & 4 ? -1 : 1)});
      all[s.is_rotation() ? rotations++ : mirrored++] = s;
    }
  }
  return all;
}
}  // namespace detail

// All 48: index 0 is the identity, 0..23 the rotations, 24..47 the others.
inline constexpr std::array<CubeSymmetry, kSymmetryCount> kCubeSymmetries =
    detail::make_cube_symmetries();

inline constexpr std::span<const CubeSymmetry, kRotationCount> cube_rotations() {
  return std::span<const CubeSymmetry, kSymmetryCount>(kCubeSymmetries).first<kRotationCount>();
}

namespace detail {
// kCubeSymmetries' index of each code(): a look-up, not a search (a search
// would make kSymmetryTables below cost seconds of compile time in every
// file that includes this header).
inline constexpr std::array<std::uint8_t, kSymmetryCount> kIndexOfCode = [] {
  std::array<std::uint8_t, kSymmetryCount> index{};
  for (int i = 0; i < kSymmetryCount; ++i)
    index[kCubeSymmetries[i].code()] = static_cast<std::uint8_t>(i);
  return index;
}();
}  // namespace detail

// Index of `s` in kCubeSymmetries.
constexpr int symmetry_index(const CubeSymmetry& s) {
  return detail::kIndexOfCode[s.code()];
}

// The group's tables by index: product[a][b] = index of a*b; inverse[a].
struct SymmetryTables {
  std::array<std::array<std::uint8_t, kSymmetryCount>, kSymmetryCount> product{};
  std::array<std::uint8_t, kSymmetryCount> inverse{};
};

// Computed once, in src/core/cube_symmetry.cpp: as a constant expression
// here it would cost a second of compile time in every file that includes
// this.
extern const SymmetryTables kSymmetryTables;

}  // namespace cubenum
