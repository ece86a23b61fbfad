// GCC 12 warns falsely (-Wrestrict, GCC bug 105329) on std::string's
// operator+ inlined from InputError here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "cubenum/puzzles/foam.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "cubenum/core/error.hpp"
#include "cubenum/core/input_file.hpp"

namespace cubenum::puzzles {
namespace {

using search::PlateGrid;

[[noreturn]] void fail(const std::string& source, int line, const std::string& problem) {
  throw InputError(source, line, problem);
}

// Border position i (clockwise from the top-left corner) as a grid cell.
search::PlateCell border_cell(int i) {
  if (i <= 4) return {0, i};
  if (i <= 8) return {i - 4, 4};
  if (i <= 12) return {4, 12 - i};
  return {16 - i, 0};
}

constexpr PlateGrid kCentre = 0b00000'01110'01110'01110'00000;

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

void check_code(const std::string& code, const std::string& source, int line) {
  if (code.size() != kFoamCodeLength)
    fail(source, line,
         fmt::format("piece code {} has {} characters, expected {}", excerpt(code), code.size(),
                     kFoamCodeLength));
  for (std::size_t i = 0; i < code.size(); ++i)
    if (code[i] != '0' && code[i] != '1')
      fail(source, line,
           fmt::format("piece code {}: character {} is {}, expected 0 or 1", excerpt(code), i + 1,
                       excerpt(code.substr(i, 1))));
  // Edge cells touch the solid centre; a corner holds on only through a
  // filled neighbour along the border.
  for (int corner = 0; corner < kFoamCodeLength; corner += 4)
    if (code[corner] == '1' && code[(corner + 1) % 16] == '0' && code[(corner + 15) % 16] == '0')
      fail(source, line,
           fmt::format("piece code '{}': corner cell {} is filled but not connected "
                       "to the centre (both neighbouring border cells are empty)",
                       code, corner + 1));
}

PlateGrid smallest_image(PlateGrid grid) {
  PlateGrid best = grid;
  for (int e = 1; e < search::kPlateTransforms; ++e)
    best = std::min(best, search::transform_grid(grid, e));
  return best;
}

std::string file_stem(const std::string& path) {
  const auto slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const auto dot = name.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

// Adds the pieces as kinds: one per piece, or one per class of congruent
// pieces sharing a group (colour) when counting by shape.
void add_kinds(FoamProblem& p, FoamBy by, const std::vector<int>& group_of_piece) {
  std::map<std::pair<int, PlateGrid>, int> kind_of_shape;
  for (std::size_t i = 0; i < p.pieces.size(); ++i) {
    const int group = group_of_piece.empty() ? -1 : group_of_piece[i];
    if (by == FoamBy::Shape) {
      const auto [it, fresh] = kind_of_shape.try_emplace({group, smallest_image(p.pieces[i].grid)},
                                                         static_cast<int>(p.kinds.size()));
      if (!fresh) {
        ++p.kinds[it->second].multiplicity;
        p.kind_pieces[it->second].push_back(static_cast<int>(i));
        continue;
      }
    }
    p.kinds.push_back({p.pieces[i].grid, 1, group});
    p.kind_pieces.push_back({static_cast<int>(i)});
  }
  if (p.kinds.size() > search::kMaxPlateKinds)
    fail(p.name, 0,
         fmt::format("{} distinct pieces; at most {} are supported (--by shape counts congruent "
                     "pieces as one)",
                     p.kinds.size(), search::kMaxPlateKinds));
}

}  // namespace

std::vector<std::string> FoamSet::colours() const {
  std::vector<std::string> out;
  for (const FoamPiece& p : pieces)
    if (std::find(out.begin(), out.end(), p.colour) == out.end()) out.push_back(p.colour);
  return out;
}

PlateGrid foam_grid(std::string_view code) {
  PlateGrid grid = kCentre;
  for (int i = 0; i < kFoamCodeLength; ++i)
    if (code[i] == '1') {
      const auto c = border_cell(i);
      grid |= search::plate_bit(c.row, c.col);
    }
  return grid;
}

std::string foam_code(PlateGrid grid) {
  std::string code;
  for (int i = 0; i < kFoamCodeLength; ++i) {
    const auto c = border_cell(i);
    code += (grid & search::plate_bit(c.row, c.col)) ? '1' : '0';
  }
  return code;
}

std::string foam_picture(PlateGrid grid) {
  std::string out;
  for (int r = 0; r < search::kPlateSide; ++r) {
    for (int c = 0; c < search::kPlateSide; ++c)
      out += (grid & search::plate_bit(r, c)) ? '#' : '.';
    out += '\n';
  }
  return out;
}

FoamSet parse_foam_set(std::istream& in, const std::string& source, const std::string& name) {
  FoamSet set{name, {}};
  std::map<std::pair<std::string, int>, int> first_line;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    text = trim(text.substr(0, text.find('#')));
    if (text.empty()) continue;
    std::istringstream words(text);
    std::string colour, index_word, code, extra;
    words >> colour >> index_word >> code;
    if (code.empty() || (words >> extra))
      fail(source, line,
           "expected '<colour> <index> <16 characters of 0/1>', got " + excerpt(text));
    int index = 0;
    if (index_word.find_first_not_of("0123456789") != std::string::npos || index_word.size() > 6 ||
        (index = std::stoi(index_word)) <= 0)
      fail(source, line, "piece index " + excerpt(index_word) + " is not a positive integer");
    check_code(code, source, line);
    const auto [it, fresh] = first_line.try_emplace({colour, index}, line);
    if (!fresh)
      fail(source, line,
           fmt::format("duplicate piece '{} {}' (first on line {})", colour, index, it->second));
    set.pieces.push_back({name, colour, index, code, foam_grid(code), line});
  }
  if (set.pieces.empty()) fail(source, 0, "no pieces in the file");
  return set;
}

FoamSet load_foam_set(const std::string& path) {
  std::istringstream in(read_input_file(path, "piece set file"));
  return parse_foam_set(in, path, file_stem(path));
}

FoamChallenge parse_foam_challenge(const std::string& word) {
  if (word == "own") return FoamChallenge::Own;
  if (word == "one-per-colour") return FoamChallenge::OnePerColour;
  if (word == "pool") return FoamChallenge::Pool;
  fail("--challenge", 0, "unknown challenge '" + word + "' (own, one-per-colour, pool)");
}

FoamBy parse_foam_by(const std::string& word) {
  if (word == "identity") return FoamBy::Identity;
  if (word == "shape") return FoamBy::Shape;
  fail("--by", 0, "unknown '" + word + "' (identity, shape; foam count --shape also takes both)");
}

std::string to_string(FoamChallenge c) {
  switch (c) {
    case FoamChallenge::Own:
      return "own";
    case FoamChallenge::OnePerColour:
      return "one-per-colour";
    case FoamChallenge::Pool:
      return "pool";
  }
  return "";
}

std::string to_string(FoamBy b) {
  return b == FoamBy::Identity ? "identity" : "shape";
}

const search::PlateSurface& foam_cube_surface() {
  static const search::PlateSurface surface = search::make_cube_surface();
  return surface;
}

std::vector<FoamProblem> foam_problems(FoamChallenge challenge, FoamBy by,
                                       const std::vector<FoamSet>& sets, bool via_shapes) {
  std::vector<FoamProblem> problems;
  const bool labels = by == FoamBy::Identity && via_shapes;
  if (labels) by = FoamBy::Shape;
  switch (challenge) {
    case FoamChallenge::Own:
      for (const FoamSet& set : sets)
        for (const std::string& colour : set.colours()) {
          FoamProblem p{set.name + "/" + colour, false, {}, {}, {}, {}};
          for (const FoamPiece& piece : set.pieces)
            if (piece.colour == colour) p.pieces.push_back(piece);
          add_kinds(p, by, {});
          problems.push_back(std::move(p));
        }
      break;
    case FoamChallenge::OnePerColour:
      for (const FoamSet& set : sets) {
        const auto colours = set.colours();
        if (colours.size() != 6)
          fail(set.name, 0,
               fmt::format("one-per-colour needs a series of six colours, this set "
                           "has {}",
                           colours.size()));
        FoamProblem p{set.name, true, set.pieces, {}, {}, std::vector<int>(colours.size(), 1)};
        std::vector<int> group;
        for (const FoamPiece& piece : p.pieces)
          group.push_back(static_cast<int>(std::find(colours.begin(), colours.end(), piece.colour) -
                                           colours.begin()));
        add_kinds(p, by, group);
        problems.push_back(std::move(p));
      }
      break;
    case FoamChallenge::Pool: {
      FoamProblem p{"", true, {}, {}, {}, {}};
      for (const FoamSet& set : sets) {
        p.name += (p.name.empty() ? "" : "+") + set.name;
        p.pieces.insert(p.pieces.end(), set.pieces.begin(), set.pieces.end());
      }
      add_kinds(p, by, {});
      problems.push_back(std::move(p));
      break;
    }
  }
  for (FoamProblem& p : problems) p.label_copies = labels;
  return problems;
}

FoamCount count_foam(const FoamProblem& problem, const search::AssemblyOptions& options) {
  const search::PlateAssembly engine(foam_cube_surface(), problem.kinds, problem.group_capacity);
  search::AssemblyOptions with_labels = options;
  with_labels.label_copies = problem.label_copies;
  search::AssemblyTally tally = engine.count(with_labels);
  return {tally.raw,           tally.rotations,         tally.symmetries,
          tally.piece_choices, std::move(tally.listed), tally.complete};
}

}  // namespace cubenum::puzzles
