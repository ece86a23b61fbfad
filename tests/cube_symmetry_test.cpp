#include "cubenum/core/cube_symmetry.hpp"

#include <gtest/gtest.h>

#include <set>

namespace cubenum {
namespace {

using Matrix = std::array<std::array<int, 3>, 3>;

Matrix multiply(const Matrix& a, const Matrix& b) {
  Matrix r{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) r[i][j] += a[i][k] * b[k][j];
  return r;
}

int det(const Matrix& m) {
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
         m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

TEST(CubeSymmetry, FortyEightDistinctSignedPermutationMatrices) {
  std::set<Matrix> seen;
  for (const auto& s : kCubeSymmetries) {
    const Matrix m = s.matrix();
    seen.insert(m);
    for (const auto& row : m) {
      int nonzero = 0;
      for (int x : row) nonzero += x != 0 && (x == 1 || x == -1);
      EXPECT_EQ(nonzero, 1);
    }
  }
  EXPECT_EQ(seen.size(), 48U);
}

TEST(CubeSymmetry, RotationsComeFirstAndIdentityIsZero) {
  EXPECT_EQ(kCubeSymmetries[0], CubeSymmetry());
  for (int i = 0; i < kSymmetryCount; ++i) {
    EXPECT_EQ(kCubeSymmetries[i].determinant(), det(kCubeSymmetries[i].matrix()));
    EXPECT_EQ(kCubeSymmetries[i].is_rotation(), i < kRotationCount);
  }
}

// Composition is matrix multiplication; the group is closed, associative,
// has inverses, and the rotations are a subgroup.
TEST(CubeSymmetry, GroupLaws) {
  const auto& t = kSymmetryTables;
  for (int a = 0; a < kSymmetryCount; ++a) {
    EXPECT_EQ(t.product[a][t.inverse[a]], 0);
    EXPECT_EQ(t.product[0][a], a);
    for (int b = 0; b < kSymmetryCount; ++b) {
      const CubeSymmetry ab = kCubeSymmetries[a] * kCubeSymmetries[b];
      ASSERT_EQ(ab.matrix(), multiply(kCubeSymmetries[a].matrix(), kCubeSymmetries[b].matrix()));
      ASSERT_GE(symmetry_index(ab), 0);
      if (a < kRotationCount && b < kRotationCount) {
        ASSERT_LT(t.product[a][b], kRotationCount);
      }
      for (int c = 0; c < kSymmetryCount; c += 5)
        ASSERT_EQ(t.product[t.product[a][b]][c], t.product[a][t.product[b][c]]);
    }
  }
}

TEST(CubeSymmetry, ActsOnFacesAsPermutations) {
  for (const auto& s : kCubeSymmetries) {
    std::set<Face> images;
    for (int f = 0; f < kFaceCount; ++f) {
      const Face face = static_cast<Face>(f);
      images.insert(s.apply(face));
      // Opposite faces stay opposite.
      const Vec3 n = face_normal(s.apply(face));
      const Vec3 m = face_normal(s.apply(
          face_with_normal({-face_normal(face)[0], -face_normal(face)[1], -face_normal(face)[2]})));
      EXPECT_EQ(n[0] + m[0], 0);
      EXPECT_EQ(n[1] + m[1], 0);
      EXPECT_EQ(n[2] + m[2], 0);
    }
    EXPECT_EQ(images.size(), 6U);
  }
}

// A quarter turn about y (the U face) maps F to L? x->-z... check by matrix:
// the rotation taking +x to -z and +z to +x fixes U and sends R to B.
TEST(CubeSymmetry, QuarterTurnAboutUp) {
  const CubeSymmetry turn({2, 1, 0}, {-1, 1, 1});  // e_x -> -e_z, e_z -> e_x
  EXPECT_TRUE(turn.is_rotation());
  EXPECT_EQ(turn.apply(Face::U), Face::U);
  EXPECT_EQ(turn.apply(Face::R), Face::B);
  EXPECT_EQ(turn.apply(Face::F), Face::R);
  const CubeSymmetry four = turn * turn * turn * turn;
  EXPECT_EQ(four, CubeSymmetry());
}

}  // namespace
}  // namespace cubenum
