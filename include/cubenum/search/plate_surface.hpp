#pragma once
// The geometry of a surface covered by 5x5 plates (foam-cube pieces): a list
// of faces, each given by its centre point and its frame (the directions of
// a plate's columns and rows seen from outside). Cells are the distinct
// lattice points the faces' 5x5 grids land on, so shared edges and corners
// come from the geometry, not from hand-written tables. The single cube is
// the first such surface; any shape of unit cubes is another.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "cubenum/core/cube_symmetry.hpp"

namespace cubenum::search {

inline constexpr int kPlateSide = 5;
inline constexpr int kPlateCells = kPlateSide * kPlateSide;

// A plate's cells as a 25-bit set: bit r*5+c is row r (top 0), column c.
using PlateGrid = std::uint32_t;

constexpr PlateGrid plate_bit(int row, int col) {
  return PlateGrid{1} << (row * kPlateSide + col);
}

// The 8 ways to lay a plate on a face (the dihedral group D4): element
// e = 4*flip + turns means: mirror left-right if flip, then turn clockwise
// `turns` times. Turning a real piece over is the flip.
inline constexpr int kPlateTransforms = 8;

struct PlateCell {
  int row, col;
  friend constexpr bool operator==(const PlateCell&, const PlateCell&) = default;
};

constexpr PlateCell apply_transform(int e, PlateCell p) {
  if (e >= 4) p.col = kPlateSide - 1 - p.col;
  for (int t = 0; t < e % 4; ++t) p = {p.col, kPlateSide - 1 - p.row};
  return p;
}

// compose(a, b) is "first b, then a".
int compose_transforms(int a, int b);
int inverse_transform(int e);

// The grid with each cell (r,c) of `grid` moved to apply_transform(e, (r,c)).
PlateGrid transform_grid(PlateGrid grid, int e);

struct PlateFace {
  std::string name;
  Vec3 centre;  // the lattice point under the plate's centre cell
  Vec3 right;   // unit step of a column (seen from outside)
  Vec3 down;    // unit step of a row
};

class PlateSurface {
 public:
  explicit PlateSurface(std::vector<PlateFace> faces);

  int face_count() const { return static_cast<int>(faces_.size()); }
  int cell_count() const { return static_cast<int>(cells_.size()); }
  const PlateFace& face(int f) const { return faces_[f]; }
  const Vec3& cell_point(int cell) const { return cells_[cell]; }
  int cell_of(int f, PlateCell p) const { return face_cells_[f][p.row * kPlateSide + p.col]; }
  // The faces whose plates reach `cell` (1 inside a face, 2 on an edge, 3 at a corner).
  const std::vector<int>& faces_of(int cell) const { return cell_faces_[cell]; }
  bool adjacent(int f, int g) const;

  // A symmetry of the surface: where each face goes and how its frame turns.
  struct Symmetry {
    int cube_symmetry;                 // index into kCubeSymmetries
    std::vector<int> face_image;       // face f lands on face_image[f]
    std::vector<int> frame_transform;  // with plate transform frame_transform[f]
  };
  // The cube symmetries (about the origin) that map the surface onto itself,
  // proper rotations first; `rotation_count()` of them are rotations.
  const std::vector<Symmetry>& symmetries() const { return symmetries_; }
  int rotation_count() const { return rotation_count_; }

 private:
  Vec3 point(const PlateFace& face, PlateCell p) const;
  void find_symmetries();

  std::vector<PlateFace> faces_;
  std::vector<Vec3> cells_;
  std::vector<std::array<int, kPlateCells>> face_cells_;
  std::vector<std::vector<int>> cell_faces_;
  std::vector<Symmetry> symmetries_;
  int rotation_count_ = 0;
};

// The hollow 5x5x5 cube centred on the origin, faces U R F D L B (the order
// of cube_symmetry.hpp) with frames as in the cross-shaped net
//        U
//     L  F  R  B
//        D
// (98 cells: 54 face centres, 36 edge cells, 8 corners).
PlateSurface make_cube_surface();

}  // namespace cubenum::search
