#include "cubenum/search/plate_surface.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace cubenum::search {
namespace {

Vec3 add(Vec3 a, const Vec3& b, int k = 1) {
  for (int i = 0; i < 3; ++i) a[i] += k * b[i];
  return a;
}

// The transform table, from the definition of apply_transform.
struct TransformTables {
  std::array<std::array<int, kPlateTransforms>, kPlateTransforms> compose{};
  std::array<int, kPlateTransforms> inverse{};
};

const TransformTables& transform_tables() {
  static const TransformTables tables = [] {
    TransformTables t;
    for (int a = 0; a < kPlateTransforms; ++a)
      for (int b = 0; b < kPlateTransforms; ++b)
        for (int c = 0; c < kPlateTransforms; ++c) {
          bool same = true;
          for (int r = 0; r < kPlateSide && same; ++r)
            for (int col = 0; col < kPlateSide && same; ++col)
              same =
                  apply_transform(a, apply_transform(b, {r, col})) == apply_transform(c, {r, col});
          if (same) t.compose[a][b] = c;
        }
    for (int a = 0; a < kPlateTransforms; ++a)
      for (int b = 0; b < kPlateTransforms; ++b)
        if (t.compose[a][b] == 0) t.inverse[a] = b;
    return t;
  }();
  return tables;
}

}  // namespace

int compose_transforms(int a, int b) {
  return transform_tables().compose[a][b];
}
int inverse_transform(int e) {
  return transform_tables().inverse[e];
}

PlateGrid transform_grid(PlateGrid grid, int e) {
  PlateGrid out = 0;
  for (int r = 0; r < kPlateSide; ++r)
    for (int c = 0; c < kPlateSide; ++c)
      if (grid & plate_bit(r, c)) {
        const PlateCell p = apply_transform(e, {r, c});
        out |= plate_bit(p.row, p.col);
      }
  return out;
}

PlateSurface::PlateSurface(std::vector<PlateFace> faces) : faces_(std::move(faces)) {
  face_cells_.resize(faces_.size());
  std::map<Vec3, int> cell_at;
  for (int f = 0; f < face_count(); ++f)
    for (int r = 0; r < kPlateSide; ++r)
      for (int c = 0; c < kPlateSide; ++c) {
        const Vec3 v = point(faces_[f], {r, c});
        const auto [it, fresh] = cell_at.try_emplace(v, cell_count());
        const int cell = it->second;
        if (fresh) {
          cells_.push_back(v);
          cell_faces_.emplace_back();
        }
        face_cells_[f][r * kPlateSide + c] = cell;
        cell_faces_[cell].push_back(f);
      }
  find_symmetries();
}

Vec3 PlateSurface::point(const PlateFace& face, PlateCell p) const {
  return add(add(face.centre, face.right, p.col - 2), face.down, p.row - 2);
}

bool PlateSurface::adjacent(int f, int g) const {
  if (f == g) return false;
  for (const int cell : face_cells_[f]) {
    const auto& fs = cell_faces_[cell];
    if (std::find(fs.begin(), fs.end(), g) != fs.end()) return true;
  }
  return false;
}

// A cube symmetry maps the surface onto itself when every face's grid lands
// exactly on some face's grid; the plate transform is read off the cells.
void PlateSurface::find_symmetries() {
  std::map<Vec3, std::vector<int>> faces_at;
  for (int f = 0; f < face_count(); ++f) faces_at[faces_[f].centre].push_back(f);
  for (int s = 0; s < kSymmetryCount; ++s) {
    const CubeSymmetry& g = kCubeSymmetries[s];
    Symmetry sym{s, std::vector<int>(faces_.size(), -1), std::vector<int>(faces_.size(), -1)};
    bool maps = true;
    for (int f = 0; f < face_count() && maps; ++f) {
      const auto at = faces_at.find(g.apply(faces_[f].centre));
      if (at == faces_at.end()) {
        maps = false;
        break;
      }
      for (const int h : at->second) {
        if (sym.face_image[f] >= 0) break;
        for (int e = 0; e < kPlateTransforms && sym.face_image[f] < 0; ++e) {
          bool all = true;
          for (int r = 0; r < kPlateSide && all; ++r)
            for (int c = 0; c < kPlateSide && all; ++c)
              all =
                  g.apply(point(faces_[f], {r, c})) == point(faces_[h], apply_transform(e, {r, c}));
          if (all) {
            sym.face_image[f] = h;
            sym.frame_transform[f] = e;
          }
        }
      }
      maps = sym.face_image[f] >= 0;
    }
    if (!maps) continue;
    symmetries_.push_back(std::move(sym));
    if (s < kRotationCount) ++rotation_count_;
  }
}

PlateSurface make_cube_surface() {
  return PlateSurface({{"U", {0, 2, 0}, {1, 0, 0}, {0, 0, 1}},
                       {"R", {2, 0, 0}, {0, 0, -1}, {0, -1, 0}},
                       {"F", {0, 0, 2}, {1, 0, 0}, {0, -1, 0}},
                       {"D", {0, -2, 0}, {1, 0, 0}, {0, 0, -1}},
                       {"L", {-2, 0, 0}, {0, 0, 1}, {0, -1, 0}},
                       {"B", {0, 0, -2}, {-1, 0, 0}, {0, -1, 0}}});
}

}  // namespace cubenum::search
