#pragma once
// What the voxel cover (voxel_cover.hpp) fills: pieces of unit cubes, each
// in a range of copies, and a target of voxels that must be filled and
// voxels that may stay empty. Puzzles read their files into it
// (puzzles/polycube.hpp).
//
// Colours, as BurrTools defines them: a voxel of a piece or of the target
// may carry a colour (1, 2, ...; 0 or none: neutral). A piece voxel of
// colour a may fill a target voxel of colour b where either is neutral or
// (a, b) is an allowed pair. Colours are part of a shape: two orientations,
// two pieces or a target and its image are the same only where the colours
// coincide too.
#include <algorithm>
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
  std::vector<int> colours{};  // each cube's colour (empty: every one neutral)
};

// A shape's voxels moved so that their least corner is at the origin, and
// sorted: the same list wherever the shape stands.
std::vector<Voxel> normalized(std::vector<Voxel> voxels);

// A voxel and its colour (0: neutral), for comparing coloured shapes.
using ColouredVoxel = std::array<int, 4>;  // x, y, z, colour
// The voxels with their colours (`colours` parallel, or empty: neutral).
std::vector<ColouredVoxel> with_colours(const std::vector<Voxel>& voxels,
                                        const std::vector<int>& colours);
// As above, each voxel keeping its colour.
std::vector<ColouredVoxel> normalized(std::vector<ColouredVoxel> voxels);

struct VoxelProblem {
  std::string name;
  std::vector<VoxelPiece> pieces;
  std::vector<Voxel> fixed;     // target voxels that must be filled
  std::vector<Voxel> variable;  // target voxels that may stay empty
  // Colours (empty: every voxel neutral): each fixed and variable voxel's,
  // and the pairs (piece colour, target colour) allowed.
  std::vector<int> fixed_colours{}, variable_colours{};
  std::vector<std::pair<int, int>> allowed{};

  bool coloured() const {
    const auto any = [](const std::vector<int>& c) {
      return std::any_of(c.begin(), c.end(), [](int x) { return x != 0; });
    };
    return any(fixed_colours) || any(variable_colours) ||
           std::any_of(pieces.begin(), pieces.end(),
                       [&](const VoxelPiece& p) { return any(p.colours); });
  }
  // Whether a piece voxel of colour `piece` may fill a target voxel of
  // colour `target` (BurrTools' problem_c::placementAllowed).
  bool fits(int piece, int target) const {
    return piece == 0 || target == 0 ||
           std::find(allowed.begin(), allowed.end(), std::pair{piece, target}) != allowed.end();
  }
};

}  // namespace cubenum::search
