#pragma once
// Polycube assembly puzzles (docs/PUZZLES.md): pieces made of unit cubes
// packed into a target shape. This header is the puzzle as read from a
// file, whatever its format: the project's text format
// (read_polycube_text) or BurrTools' .xmpuzzle (read_xmpuzzle).
#include <string>
#include <vector>

#include "cubenum/search/voxel_problem.hpp"

namespace cubenum::polycube {

// A puzzle is what the engine fills (search/voxel_problem.hpp).
using Voxel = search::Voxel;
using Piece = search::VoxelPiece;
using Problem = search::VoxelProblem;

// The limits of a piece or a target however it is written (cube lines,
// boxes, layer pictures, BurrTools' voxel strings), checked while reading:
// far beyond the engine's 4096 cells, and small enough that reading and
// refusing an oversized shape is quick.
inline constexpr int kMaxCoordinate = 1000;    // |x|, |y|, |z|
inline constexpr int kMaxShapeCubes = 100000;  // cubes of one piece, or of the target

struct PuzzleFile {
  std::string path;
  std::vector<Problem> problems;
};

// The project's text format (docs/PUZZLES.md). Errors throw
// cubenum::InputError naming the file and line.
PuzzleFile read_polycube_text(const std::string& path);

// BurrTools' .xmpuzzle (gzip-compressed XML, or plain XML): cube grid only.
// Errors throw cubenum::InputError naming the file and the XML element.
PuzzleFile read_xmpuzzle(const std::string& path);

// Either of the two, by the file's content (gzip or XML: .xmpuzzle).
PuzzleFile read_polycube_file(const std::string& path);

}  // namespace cubenum::polycube
