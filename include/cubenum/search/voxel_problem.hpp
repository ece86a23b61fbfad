#pragma once
// What the voxel cover (voxel_cover.hpp) fills: pieces of unit cubes, each
// in a range of copies, and a target of voxels that must be filled and
// voxels that may stay empty. Puzzles read their files into it
// (puzzles/polycube.hpp).
#include <array>
#include <string>
#include <vector>

namespace cubenum::search {

using Voxel = std::array<int, 3>;  // x, y, z

struct VoxelPiece {
  std::string name;
  std::vector<Voxel> cubes;  // distinct, in any position
  int min_count = 1;         // this many copies at least...
  int max_count = 1;         // ...and at most (identical copies not told apart)
};

struct VoxelProblem {
  std::string name;
  std::vector<VoxelPiece> pieces;
  std::vector<Voxel> fixed;     // target voxels that must be filled
  std::vector<Voxel> variable;  // target voxels that may stay empty
};

}  // namespace cubenum::search
