#pragma once
// What the voxel cover (voxel_cover.hpp) fills: pieces of unit cubes, each
// in a range of copies, and a target of voxels that must be filled and
// voxels that may stay empty. Puzzles read their files into it
// (puzzles/polycube.hpp).
#include <array>
#include <string>
#include <utility>
#include <vector>

namespace cubenum::search {

using Voxel = std::array<int, 3>;  // x, y, z

struct VoxelPiece {
  std::string name;
  std::vector<Voxel> cubes;  // distinct, in any position
  int min_count = 1;         // this many copies at least...
  int max_count = 1;         // ...and at most (identical copies not told apart)
  // For disassembly only (search/disassembly.hpp), as BurrTools' files give
  // them: the weight (of a move, the heavier side stays put), and the
  // groups its copies are in (group, copies; group 0: none).
  int weight = 1;
  std::vector<std::pair<int, int>> groups{};
};

// A shape's voxels moved so that their least corner is at the origin, and
// sorted: the same list wherever the shape stands.
std::vector<Voxel> normalized(std::vector<Voxel> voxels);

struct VoxelProblem {
  std::string name;
  std::vector<VoxelPiece> pieces;
  std::vector<Voxel> fixed;     // target voxels that must be filled
  std::vector<Voxel> variable;  // target voxels that may stay empty
};

}  // namespace cubenum::search
