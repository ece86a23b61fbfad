#pragma once
// The nine-colour cube (docs/PUZZLES.md): 27 unit
// cubes in 9 colours, 3 of each, fill the 3x3x3 cube so that every face
// shows all nine colours.
//
// Cells are numbered as in the seed: cell = col + 3*row + 9*layer, with col
// 0 on the left, row 0 at the top and layer 0 at the front. In the axes of
// core/cube_symmetry.hpp that is x = col-1, y = 1-row, z = 1-layer.
//
// The search never enumerates the 9! relabellings of a colouring: colours
// are numbered in order of first use (cell 0 has colour 0, and so on), so
// every class up to permuting the colours is visited exactly once. The
// classes up to rotations or symmetries are counted as the colourings that
// are the minimum of their orbit (canonical forms), never by dividing.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cubenum/core/cube_symmetry.hpp"

namespace cubenum::nine_colour {

inline constexpr int kCells = 27;
inline constexpr int kColours = 9;
inline constexpr int kCubesPerColour = 3;

// colour[cell], each colour 0..8 on exactly three cells.
using Colouring = std::array<std::uint8_t, kCells>;

enum class CellKind : std::uint8_t { corner, edge, face_centre, core };
const char* kind_name(CellKind kind);

constexpr Vec3 cell_position(int cell) {
  return {cell % 3 - 1, 1 - cell / 3 % 3, 1 - cell / 9};
}
constexpr int cell_at(const Vec3& p) {
  return (p[0] + 1) + 3 * (1 - p[1]) + 9 * (1 - p[2]);
}
CellKind cell_kind(int cell);

// The 9 cells of each face, by Face (U R F D L B), as 27-bit masks.
const std::array<std::uint32_t, kFaceCount>& face_cell_masks();

// The seed's own FACES table (front, left, top, right, back, bottom), kept
// as data so that solutions are checked against it, not against the
// geometry the search derives its faces from.
inline constexpr std::array<std::array<int, 9>, 6> kSeedFaceTable = {{
    {0, 1, 2, 3, 4, 5, 6, 7, 8},
    {0, 3, 6, 9, 12, 15, 18, 21, 24},
    {0, 1, 2, 9, 10, 11, 18, 19, 20},
    {2, 5, 8, 11, 14, 17, 20, 23, 26},
    {18, 19, 20, 21, 22, 23, 24, 25, 26},
    {6, 7, 8, 15, 16, 17, 24, 25, 26},
}};

// Every face of the seed's table shows all nine colours, cell by cell.
bool shows_all_colours(const Colouring& colouring);

// The colouring moved by symmetry s: the cube on cell p goes to cell s(p).
Colouring apply_symmetry(const CubeSymmetry& s, const Colouring& colouring);
// The same partition into colour classes, colours renumbered by first use.
Colouring relabel_by_first_use(const Colouring& colouring);
// The least first-use colouring among the images under the first
// `symmetry_count` entries of kCubeSymmetries (24: rotations, 48: all).
Colouring canonical_form(const Colouring& colouring, int symmetry_count);
// How many classes up to colours the colouring's class meets under the
// first `symmetry_count` symmetries (the group order over its stabiliser's).
int orbit_size(const Colouring& colouring, int symmetry_count);

// The kinds of the cells of each colour, e.g. "corner+edge+face_centre",
// and the colouring's signature: its colours' kinds with multiplicities,
// e.g. "1x corner+corner+core, 6x corner+edge+face_centre, 2x edge+edge+edge".
std::string colour_kind(const Colouring& colouring, int colour);
std::string kind_signature(const Colouring& colouring);

struct ClassCounts {
  std::uint64_t up_to_colours = 0;
  std::uint64_t up_to_colours_and_rotations = 0;
  std::uint64_t up_to_colours_and_symmetries = 0;
  ClassCounts& operator+=(const ClassCounts& o);
  friend bool operator==(const ClassCounts&, const ClassCounts&) = default;
};

struct NineColourCounts {
  ClassCounts classes;
  // labelled colourings: each class up to colours has exactly 9! labellings
  // (its nine colour classes are distinct and non-empty, so permuting the
  // colours acts freely).
  std::uint64_t labelled() const { return classes.up_to_colours * 362880ULL; }
  std::map<std::string, ClassCounts> by_signature;
  std::uint64_t search_nodes = 0;
  NineColourCounts& operator+=(const NineColourCounts& o);
};

// Counts every class, in parallel over subtrees (the thread count is
// oneTBB's current limit).
NineColourCounts count_colourings();

// Calls visit(colouring) for every solution in first-use form, one call per
// class up to colours, sequentially and in lexicographic order. Returns the
// number of search nodes.
std::uint64_t for_each_solution(const std::function<void(const Colouring&)>& visit);

// The classes up to colours and symmetries, as their canonical forms in
// lexicographic order (all of them when limit is 0).
std::vector<Colouring> class_representatives(std::size_t limit = 0);

// The colouring as three 3x3 layers side by side, front layer first, colours
// as digits 1..9.
std::string layers_text(const Colouring& colouring);

}  // namespace cubenum::nine_colour
