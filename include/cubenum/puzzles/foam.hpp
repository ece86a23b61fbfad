#pragma once
// Foam cubes (docs/PUZZLES.md): pieces in the seed's 16-character
// notation, the three challenges of PUZZLES.md (a set's own cube, one piece
// of each colour, any six from a pool), counted by identity or by shape on
// the 98-cell shell of the 5x5x5 cube, and assemblies drawn as nets.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "cubenum/search/plate_assembly.hpp"
#include "cubenum/search/plate_surface.hpp"

namespace cubenum::puzzles {

inline constexpr int kFoamCodeLength = 16;

struct FoamPiece {
  std::string set;     // the set (file) it comes from
  std::string colour;  // colour or theme
  int index = 0;
  std::string code;  // 16 border cells clockwise from the top-left corner
  search::PlateGrid grid = 0;
  int line = 0;
  std::string name() const { return colour + " " + std::to_string(index); }
};

struct FoamSet {
  std::string name;  // the file name without folder and extension
  std::vector<FoamPiece> pieces;
  std::vector<std::string> colours() const;  // in order of first appearance
};

// The 5x5 grid of a valid code, and back (border cells of a grid).
search::PlateGrid foam_grid(std::string_view code);
std::string foam_code(search::PlateGrid grid);
// Five lines of '#' and '.'.
std::string foam_picture(search::PlateGrid grid);

// Parses a set file; throws InputError(source, line, problem) on bad input.
FoamSet parse_foam_set(std::istream& in, const std::string& source, const std::string& name);
FoamSet load_foam_set(const std::string& path);

enum class FoamChallenge { Own, OnePerColour, Pool };
enum class FoamBy { Identity, Shape };

FoamChallenge parse_foam_challenge(const std::string& word);  // own|one-per-colour|pool
FoamBy parse_foam_by(const std::string& word);                // identity|shape
std::string to_string(FoamChallenge c);
std::string to_string(FoamBy b);

// The 5x5x5 cube's surface (faces U R F D L B, see make_cube_surface).
const search::PlateSurface& foam_cube_surface();

// One count to make: the pieces, and the kinds the engine sees (one per
// piece by identity; one per class of congruent pieces by shape).
struct FoamProblem {
  std::string name;
  bool counts_choices = false;  // one-per-colour and pool report piece_choices
  std::vector<FoamPiece> pieces;
  std::vector<std::vector<int>> kind_pieces;  // the pieces of each kind
  std::vector<search::PlateKind> kinds;
  std::vector<int> group_capacity;
  bool label_copies = false;  // by identity, searched over shapes
};

// With `via_shapes`, counts by identity are made by a search over shapes in
// which each solution stands for the ways to pick the congruent copies
// (much faster when a pool holds many congruent pieces; same counts).
std::vector<FoamProblem> foam_problems(FoamChallenge challenge, FoamBy by,
                                       const std::vector<FoamSet>& sets, bool via_shapes = false);

struct FoamCount {
  std::uint64_t raw = 0, rotations = 0, symmetries = 0, piece_choices = 0;
  std::vector<search::AssemblyKey> listed;
  bool complete = true;  // false when options.stop stopped it
};

FoamCount count_foam(const FoamProblem& problem, const search::AssemblyOptions& options = {});

// An assembly as the seed's cross-shaped net: each face's 5x5 cells ('#'
// where its piece lies), then which piece lies on each face and its cells
// in the data files' notation as placed.
std::string foam_net_text(const FoamProblem& problem, const search::AssemblyKey& key);
// Several assemblies (of one or more problems) as nets in one SVG document,
// each piece in its colour.
struct FoamNet {
  const FoamProblem* problem;
  search::AssemblyKey key;
};
std::string foam_nets_svg(const std::vector<FoamNet>& nets);

// The pieces of a kind ("set colour index", congruent ones joined by " = ").
std::string foam_piece_label(const FoamProblem& problem, int kind);
// How a plate transform lays a piece ("turned over, rotated 90 deg clockwise").
std::string foam_transform_words(int transform);
// An SVG fill for a piece colour (a fallback palette entry for unknown ones).
std::string foam_svg_colour(const std::string& colour, int fallback);

}  // namespace cubenum::puzzles
