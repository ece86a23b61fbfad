#include "cubenum/core/cube_symmetry.hpp"

namespace cubenum {

constinit const SymmetryTables kSymmetryTables = [] {
  SymmetryTables t;
  for (int a = 0; a < kSymmetryCount; ++a) {
    for (int b = 0; b < kSymmetryCount; ++b)
      t.product[a][b] =
          static_cast<std::uint8_t>(symmetry_index(kCubeSymmetries[a] * kCubeSymmetries[b]));
    t.inverse[a] = static_cast<std::uint8_t>(symmetry_index(kCubeSymmetries[a].inverse()));
  }
  return t;
}();

}  // namespace cubenum
