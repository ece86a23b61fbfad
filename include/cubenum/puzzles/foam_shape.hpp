#pragma once
// Shapes of unit cubes for foam pieces (issue 7): every outer unit face of
// the shape takes one piece. One unit cube is one 5x5x5 foam cube and
// neighbouring pieces share their border row, so the shape's surface lies
// on a lattice of pitch 4; the faces become a PlateSurface, whose cells and
// symmetries follow from the geometry. A single cube gives exactly the
// 98-cell shell of the foam cube.
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cubenum/core/cube_symmetry.hpp"
#include "cubenum/puzzles/foam.hpp"
#include "cubenum/search/plate_assembly.hpp"
#include "cubenum/search/plate_layers.hpp"
#include "cubenum/search/plate_surface.hpp"

namespace cubenum::puzzles {

// The largest shapes read: cubes in all, and |coordinate| in a shape file.
inline constexpr int kMaxShapeCubes = 100000;
inline constexpr int kMaxShapeCoordinate = 100000;

struct FoamShape {
  std::string name;
  std::vector<Vec3> cubes;  // in the order given
  std::vector<int> lines;   // the line of each cube (0 for a generated shape)
  search::PlateSurface surface;
};

// Parses `cube x y z` lines (`#` comments); throws InputError(source, line,
// problem) for: no cubes, a coordinate that is not an integer, a repeated
// cube, another kind of line, a surface edge shared by more than two faces.
FoamShape parse_foam_shape(std::istream& in, const std::string& source, const std::string& name);
// `cuboid:AxBxC` or a file of cubes.
FoamShape load_foam_shape(const std::string& spec);
// The shape from its cubes (`lines` may be empty); validates as above.
FoamShape make_foam_shape(const std::string& name, std::vector<Vec3> cubes,
                          std::vector<int> lines = {}, const std::string& source = "");

// The pool a shape is built from: every piece of the sets (only those of
// `colours` when given), each at most once, by identity or by shape.
FoamProblem foam_shape_pool(const std::vector<FoamSet>& sets, FoamBy by,
                            const std::vector<std::string>& colours = {}, bool via_shapes = false);

struct FoamShapeCount {
  std::uint64_t raw = 0, rotations = 0, symmetries = 0, piece_choices = 0;
  // AssemblyOptions::tally_by_shape: the counts by shape from the same search.
  std::optional<search::AssemblyTally::Counts> by_shape;
  std::vector<search::AssemblyKey> listed;
  std::size_t subtrees_done = 0, subtrees_total = 0;
  bool complete = true;  // false when stopped by the time limit
};

FoamShapeCount count_foam_shape(const FoamShape& shape, const FoamProblem& pool,
                                const search::AssemblyOptions& options = {});
// Where counting by layers may serve the shape and pool (many congruent
// copies: pieces at least 1.5 x shapes; at most 2^25 combinations of
// copies left; at most 32 faces), the widest frontier of its fill order in
// cells; otherwise nothing.
std::optional<int> layers_frontier(const FoamShape& shape, const FoamProblem& pool);
// Whether the layers suit the shape and pool (`foam count --method auto`
// picks them): a frontier of at most `widest_frontier` cells. By layers, a
// frontier of 24 cells takes seconds and a gigabyte, one of 32 cells minutes
// and over ten gigabytes (the Little Genius 3x1x1 and 2x2x1,
// results/foam-shapes.md); a pool of distinct pieces has about as many
// states as partial assemblies.
inline constexpr int kLayersWidestFrontier = 24;
// Up to this frontier `auto` tries the layers first and falls back on the
// search where they outgrow the memory allowed (the Little Genius 2x2x1:
// over ten gigabytes by layers against days by the search).
inline constexpr int kLayersTriedFrontier = 32;
bool layers_suit(const FoamShape& shape, const FoamProblem& pool,
                 int widest_frontier = kLayersWidestFrontier);
// The same by layers (search/plate_layers.hpp), in 128 bits; no listing,
// no stop but the options'.
search::LayerTally count_foam_shape_by_layers(const FoamShape& shape, const FoamProblem& pool,
                                              const search::LayerOptions& options = {});
search::FirstResult first_foam_shape(const FoamShape& shape, const FoamProblem& pool,
                                     const search::FirstOptions& options);

// One line per face: face, piece, how it is laid, its cells as placed.
std::string foam_assembly_text(const FoamShape& shape, const FoamProblem& pool,
                               const search::AssemblyKey& key);
// The assembled shape in isometric view, seen from above-front-right, each
// piece in its colour (hidden faces are drawn first and covered).
std::string foam_shape_svg(const FoamShape& shape, const FoamProblem& pool,
                           const search::AssemblyKey& key);

}  // namespace cubenum::puzzles
