#include "cubenum/puzzles/nine_colour_cube.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <vector>

#include "cubenum/search/split_search.hpp"

namespace cubenum::nine_colour {
namespace {

// Bit f set when cell lies on face f (Face order U R F D L B).
constexpr std::array<std::uint8_t, kCells> kCellFaces = [] {
  std::array<std::uint8_t, kCells> faces{};
  for (int cell = 0; cell < kCells; ++cell)
    for (int f = 0; f < kFaceCount; ++f) {
      const Vec3 n = face_normal(static_cast<Face>(f)), p = cell_position(cell);
      if (p[0] * n[0] + p[1] * n[1] + p[2] * n[2] == 1) faces[cell] |= std::uint8_t(1u << f);
    }
  return faces;
}();

// The cell each symmetry sends each cell to.
const std::array<std::array<std::uint8_t, kCells>, kSymmetryCount>& cell_images() {
  static const auto images = [] {
    std::array<std::array<std::uint8_t, kCells>, kSymmetryCount> t{};
    for (int s = 0; s < kSymmetryCount; ++s)
      for (int cell = 0; cell < kCells; ++cell)
        t[s][cell] = std::uint8_t(cell_at(kCubeSymmetries[s].apply(cell_position(cell))));
    return t;
  }();
  return images;
}

// A partial colouring of cells [0, depth): what the search extends.
struct Partial {
  Colouring colour{};
  std::array<std::uint8_t, kColours> cubes{};       // cells of each colour so far
  std::array<std::uint16_t, kFaceCount> on_face{};  // colours shown on each face so far
  std::array<std::uint8_t, kColours> faces_of{};    // faces each colour shows so far
  int depth = 0;
  int colours_used = 0;
};

// Whether a colour showing `faces` on `cubes` cells can still show every
// face once: its three cells' faces must partition the six faces, and the
// last cell's faces (what is left) can never hold two opposite faces.
constexpr bool can_complete(std::uint8_t faces, int cubes) {
  const unsigned missing = ~faces & 0x3fu;
  if (cubes == kCubesPerColour) return missing == 0;
  if (cubes == kCubesPerColour - 1) return (missing & (missing >> 3) & 7u) == 0;
  return true;
}

// Extends `p` cell by cell up to `stop`, calling leaf(p) at that depth. A new
// colour is only ever the next unused one (first-use order).
template <class Leaf>
void extend(Partial& p, int stop, std::uint64_t& nodes, Leaf&& leaf) {
  ++nodes;
  if (p.depth == stop) {
    leaf(static_cast<const Partial&>(p));
    return;
  }
  const int cell = p.depth;
  const std::uint8_t faces = kCellFaces[cell];
  std::uint16_t taken = 0;
  for (int f = 0; f < kFaceCount; ++f)
    if (faces >> f & 1) taken |= p.on_face[f];
  const int last = std::min(p.colours_used, kColours - 1);
  for (int c = 0; c <= last; ++c) {
    if (p.cubes[c] == kCubesPerColour || (taken >> c & 1)) continue;
    if (!can_complete(std::uint8_t(p.faces_of[c] | faces), p.cubes[c] + 1)) continue;
    const int colours_before = p.colours_used;
    p.colour[cell] = std::uint8_t(c);
    ++p.cubes[c];
    p.faces_of[c] |= faces;
    for (int f = 0; f < kFaceCount; ++f)
      if (faces >> f & 1) p.on_face[f] |= std::uint16_t(1u << c);
    p.colours_used = std::max(p.colours_used, c + 1);
    ++p.depth;
    extend(p, stop, nodes, leaf);
    --p.depth;
    p.colours_used = colours_before;
    for (int f = 0; f < kFaceCount; ++f)
      if (faces >> f & 1) p.on_face[f] &= std::uint16_t(~(1u << c));
    p.faces_of[c] &= std::uint8_t(~faces);
    --p.cubes[c];
  }
}

// Prefixes of the search tree, cut where there are enough subtrees for many
// threads to share; `nodes_above` counts the tree's nodes above them.
std::vector<Partial> split_prefixes(std::uint64_t& nodes_above) {
  constexpr std::size_t kEnoughSubtrees = 512;
  std::vector<Partial> prefixes;
  for (int depth = 1; depth <= kCells; ++depth) {
    prefixes.clear();
    Partial root;
    nodes_above = 0;
    extend(root, depth, nodes_above, [&](const Partial& p) { prefixes.push_back(p); });
    nodes_above -= prefixes.size();  // each subtree counts its own root
    if (prefixes.size() >= kEnoughSubtrees) break;
  }
  return prefixes;
}

// Whether no image of c under symmetries [1, symmetry_count) is smaller.
bool is_least_in_orbit(const Colouring& c, int begin, int end) {
  for (int s = begin; s < end; ++s)
    if (relabel_by_first_use(apply_symmetry(kCubeSymmetries[s], c)) < c) return false;
  return true;
}

struct Representatives {
  std::vector<Colouring> list;
  Representatives& operator+=(const Representatives& o) {
    list.insert(list.end(), o.list.begin(), o.list.end());
    return *this;
  }
};

}  // namespace

const char* kind_name(CellKind kind) {
  constexpr const char* names[] = {"corner", "edge", "face_centre", "core"};
  return names[static_cast<int>(kind)];
}

CellKind cell_kind(int cell) {
  switch (std::popcount(kCellFaces[cell])) {
    case 3:
      return CellKind::corner;
    case 2:
      return CellKind::edge;
    case 1:
      return CellKind::face_centre;
    default:
      return CellKind::core;
  }
}

const std::array<std::uint32_t, kFaceCount>& face_cell_masks() {
  static const auto masks = [] {
    std::array<std::uint32_t, kFaceCount> m{};
    for (int cell = 0; cell < kCells; ++cell)
      for (int f = 0; f < kFaceCount; ++f)
        if (kCellFaces[cell] >> f & 1) m[f] |= 1u << cell;
    return m;
  }();
  return masks;
}

bool shows_all_colours(const Colouring& colouring) {
  for (const auto& face : kSeedFaceTable) {
    unsigned seen = 0;
    for (int cell : face) seen |= 1u << colouring[cell];
    if (seen != (1u << kColours) - 1) return false;
  }
  return true;
}

Colouring apply_symmetry(const CubeSymmetry& s, const Colouring& colouring) {
  const auto& image = cell_images()[symmetry_index(s)];
  Colouring moved{};
  for (int cell = 0; cell < kCells; ++cell) moved[image[cell]] = colouring[cell];
  return moved;
}

Colouring relabel_by_first_use(const Colouring& colouring) {
  std::array<std::uint8_t, 256> renamed;
  renamed.fill(0xff);
  std::uint8_t next = 0;
  Colouring out{};
  for (int cell = 0; cell < kCells; ++cell) {
    std::uint8_t& r = renamed[colouring[cell]];
    if (r == 0xff) r = next++;
    out[cell] = r;
  }
  return out;
}

Colouring canonical_form(const Colouring& colouring, int symmetry_count) {
  Colouring best = relabel_by_first_use(colouring);
  for (int s = 1; s < symmetry_count; ++s)
    best = std::min(best, relabel_by_first_use(apply_symmetry(kCubeSymmetries[s], colouring)));
  return best;
}

int orbit_size(const Colouring& colouring, int symmetry_count) {
  std::vector<Colouring> images;
  for (int s = 0; s < symmetry_count; ++s)
    images.push_back(relabel_by_first_use(apply_symmetry(kCubeSymmetries[s], colouring)));
  std::sort(images.begin(), images.end());
  return int(std::unique(images.begin(), images.end()) - images.begin());
}

std::string colour_kind(const Colouring& colouring, int colour) {
  std::vector<int> kinds;
  for (int cell = 0; cell < kCells; ++cell)
    if (colouring[cell] == colour) kinds.push_back(static_cast<int>(cell_kind(cell)));
  std::sort(kinds.begin(), kinds.end());
  std::string name;
  for (int k : kinds) {
    if (!name.empty()) name += '+';
    name += kind_name(CellKind(k));
  }
  return name;
}

std::string kind_signature(const Colouring& colouring) {
  std::map<std::string, int> kinds;
  for (int colour = 0; colour < kColours; ++colour) ++kinds[colour_kind(colouring, colour)];
  std::string signature;
  for (const auto& [kind, n] : kinds)
    signature += fmt::format("{}{}x {}", signature.empty() ? "" : ", ", n, kind);
  return signature;
}

ClassCounts& ClassCounts::operator+=(const ClassCounts& o) {
  up_to_colours += o.up_to_colours;
  up_to_colours_and_rotations += o.up_to_colours_and_rotations;
  up_to_colours_and_symmetries += o.up_to_colours_and_symmetries;
  return *this;
}

NineColourCounts& NineColourCounts::operator+=(const NineColourCounts& o) {
  classes += o.classes;
  for (const auto& [signature, counts] : o.by_signature) by_signature[signature] += counts;
  search_nodes += o.search_nodes;
  return *this;
}

NineColourCounts count_colourings() {
  std::uint64_t nodes_above = 0;
  const std::vector<Partial> prefixes = split_prefixes(nodes_above);
  NineColourCounts counts = search::search_subtrees<NineColourCounts, Partial>(
      prefixes, [](Partial p, NineColourCounts& local) {
        extend(p, kCells, local.search_nodes, [&](const Partial& done) {
          ClassCounts one{1, 0, 0};
          if (is_least_in_orbit(done.colour, 1, kRotationCount)) {
            one.up_to_colours_and_rotations = 1;
            one.up_to_colours_and_symmetries =
                is_least_in_orbit(done.colour, kRotationCount, kSymmetryCount);
          }
          local.classes += one;
          local.by_signature[kind_signature(done.colour)] += one;
        });
      });
  counts.search_nodes += nodes_above;
  return counts;
}

std::uint64_t for_each_solution(const std::function<void(const Colouring&)>& visit) {
  Partial root;
  std::uint64_t nodes = 0;
  extend(root, kCells, nodes, [&](const Partial& done) { visit(done.colour); });
  return nodes;
}

std::vector<Colouring> class_representatives(std::size_t limit) {
  std::uint64_t nodes_above = 0;
  const std::vector<Partial> prefixes = split_prefixes(nodes_above);
  auto found = search::search_subtrees<Representatives, Partial>(
      prefixes, [](Partial p, Representatives& local) {
        std::uint64_t nodes = 0;
        extend(p, kCells, nodes, [&](const Partial& done) {
          if (is_least_in_orbit(done.colour, 1, kSymmetryCount)) local.list.push_back(done.colour);
        });
      });
  std::sort(found.list.begin(), found.list.end());
  if (limit != 0 && found.list.size() > limit) found.list.resize(limit);
  return found.list;
}

std::string layers_text(const Colouring& colouring) {
  std::string text = "front    middle   back\n";
  for (int row = 0; row < 3; ++row) {
    for (int layer = 0; layer < 3; ++layer) {
      for (int col = 0; col < 3; ++col)
        text += fmt::format("{}{}", colouring[col + 3 * row + 9 * layer] + 1, col < 2 ? " " : "");
      text += layer < 2 ? "    " : "\n";
    }
  }
  return text;
}

}  // namespace cubenum::nine_colour
