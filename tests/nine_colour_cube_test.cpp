#include "cubenum/puzzles/nine_colour_cube.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "cubenum/core/parallel.hpp"
#include "cubenum/report/json.hpp"

namespace cubenum::nine_colour {
namespace {

// A deliberately naive enumeration: plain backtracking over the cells in
// order, every colour tried at every cell, each partial colouring checked
// against the seed's face table by looping over its cells. Colour symmetry
// is removed differently from the fast search: the front face (the seed's
// first face, cells 0..8) must show all nine colours, so fixing it to
// colours 0..8 in reading order picks exactly one labelling of every class.
// It therefore enumerates every class up to colours, nothing restricted.
class NaiveSearch {
 public:
  std::vector<Colouring> run() {
    for (int cell = 0; cell < 9; ++cell) place(cell, std::uint8_t(cell));
    backtrack(9);
    return found_;
  }

 private:
  void place(int cell, std::uint8_t c) {
    colour_[cell] = c;
    assigned_[cell] = true;
  }
  // Whether the faces through `cell` still show no colour twice.
  bool faces_consistent(int cell) const {
    for (const auto& face : kSeedFaceTable) {
      if (std::find(face.begin(), face.end(), cell) == face.end()) continue;
      for (int i = 0; i < 9; ++i)
        for (int j = i + 1; j < 9; ++j)
          if (assigned_[face[i]] && assigned_[face[j]] && colour_[face[i]] == colour_[face[j]])
            return false;
    }
    return true;
  }
  void backtrack(int cell) {
    if (cell == kCells) {
      found_.push_back(colour_);
      return;
    }
    for (std::uint8_t c = 0; c < kColours; ++c) {
      if (std::count(colour_.begin(), colour_.begin() + cell, c) == kCubesPerColour) continue;
      place(cell, c);
      if (faces_consistent(cell)) backtrack(cell + 1);
      assigned_[cell] = false;
    }
  }
  Colouring colour_{};
  std::array<bool, kCells> assigned_{};
  std::vector<Colouring> found_;
};

std::vector<Colouring> fast_solutions() {
  std::vector<Colouring> all;
  for_each_solution([&](const Colouring& c) { all.push_back(c); });
  return all;
}

// A colouring as its partition into colour classes: sorted triples of cell
// coordinates, compared without any relabelling.
using Partition = std::set<std::set<Vec3>>;
Partition partition_of(const Colouring& c, const CubeSymmetry& s) {
  std::vector<std::set<Vec3>> classes(kColours);
  for (int cell = 0; cell < kCells; ++cell) classes[c[cell]].insert(s.apply(cell_position(cell)));
  return Partition(classes.begin(), classes.end());
}

// Orbits counted the slow way: the set of each class's least image.
std::size_t naive_orbits(const std::vector<Colouring>& all, int symmetry_count) {
  std::set<Partition> least;
  for (const Colouring& c : all) {
    Partition best = partition_of(c, kCubeSymmetries[0]);
    for (int s = 1; s < symmetry_count; ++s)
      best = std::min(best, partition_of(c, kCubeSymmetries[s]));
    least.insert(best);
  }
  return least.size();
}

TEST(NineColourCube, GeometryFacesAreTheSeedsFaceTable) {
  // The search derives faces from cell coordinates; the seed lists them.
  std::set<std::uint32_t> geometry(face_cell_masks().begin(), face_cell_masks().end());
  std::set<std::uint32_t> seed;
  for (const auto& face : kSeedFaceTable) {
    std::uint32_t mask = 0;
    for (int cell : face) mask |= 1u << cell;
    seed.insert(mask);
  }
  EXPECT_EQ(geometry, seed);
  EXPECT_EQ(cell_kind(13), CellKind::core);
  EXPECT_EQ(cell_kind(0), CellKind::corner);
  EXPECT_EQ(cell_kind(1), CellKind::edge);
  EXPECT_EQ(cell_kind(4), CellKind::face_centre);
}

TEST(NineColourCube, EverySolutionPassesTheSeedsFaceTable) {
  const auto all = fast_solutions();
  ASSERT_FALSE(all.empty());
  for (const Colouring& c : all) {
    EXPECT_TRUE(shows_all_colours(c));
    for (int colour = 0; colour < kColours; ++colour)
      EXPECT_EQ(std::count(c.begin(), c.end(), colour), kCubesPerColour);
    EXPECT_EQ(relabel_by_first_use(c), c);  // one labelling per class
  }
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
}

TEST(NineColourCube, NaiveBacktrackingFindsTheSameClasses) {
  const auto naive = NaiveSearch().run();
  std::set<Colouring> naive_classes;
  for (const Colouring& c : naive) naive_classes.insert(relabel_by_first_use(c));
  EXPECT_EQ(naive_classes.size(), naive.size());  // the fixed front face is one labelling each
  const auto fast = fast_solutions();
  EXPECT_EQ(std::set<Colouring>(fast.begin(), fast.end()), naive_classes);

  const NineColourCounts counts = count_colourings();
  EXPECT_EQ(counts.classes.up_to_colours, naive.size());
  EXPECT_EQ(counts.classes.up_to_colours_and_rotations, naive_orbits(naive, kRotationCount));
  EXPECT_EQ(counts.classes.up_to_colours_and_symmetries, naive_orbits(naive, kSymmetryCount));
  EXPECT_EQ(counts.labelled(), naive.size() * 362880u);
}

TEST(NineColourCube, BurnsideAgreesWithCanonicalForms) {
  // Orbits = average number of classes a symmetry maps onto themselves.
  const auto all = fast_solutions();
  const auto burnside = [&](int group_order) {
    std::size_t fixed = 0;
    for (int s = 0; s < group_order; ++s)
      for (const Colouring& c : all)
        fixed += relabel_by_first_use(apply_symmetry(kCubeSymmetries[s], c)) == c;
    EXPECT_EQ(fixed % group_order, 0u);
    return fixed / group_order;
  };
  const NineColourCounts counts = count_colourings();
  EXPECT_EQ(counts.classes.up_to_colours_and_rotations, burnside(kRotationCount));
  EXPECT_EQ(counts.classes.up_to_colours_and_symmetries, burnside(kSymmetryCount));
}

TEST(NineColourCube, ColourKindsAreForcedByCounting) {
  // Each colour's three cubes meet the six faces once each, so their face
  // counts (corner 3, edge 2, centre 1, core 0) sum to 6; the core's colour
  // is then corner+corner+core, which leaves 6 corners for 6
  // corner+edge+centre colours and 6 edges for 2 edge+edge+edge colours.
  const NineColourCounts counts = count_colourings();
  ASSERT_EQ(counts.by_signature.size(), 1u);
  EXPECT_EQ(counts.by_signature.begin()->first,
            "1x corner+corner+core, 6x corner+edge+face_centre, 2x edge+edge+edge");
  EXPECT_EQ(counts.by_signature.begin()->second, counts.classes);
}

TEST(NineColourCube, RepresentativesAreCanonicalAndComplete) {
  const auto reps = class_representatives();
  EXPECT_EQ(reps.size(), count_colourings().classes.up_to_colours_and_symmetries);
  for (const Colouring& r : reps) {
    EXPECT_EQ(canonical_form(r, kSymmetryCount), r);
    EXPECT_TRUE(shows_all_colours(r));
  }
  EXPECT_EQ(class_representatives(2).size(), std::min<std::size_t>(2, reps.size()));
}

TEST(NineColourCube, SameCountsAtOneAndManyThreads) {
  NineColourCounts one, many;
  {
    cubenum::ThreadLimit limit(1);
    one = count_colourings();
  }
  {
    cubenum::ThreadLimit limit(8);
    many = count_colourings();
  }
  EXPECT_EQ(one.classes, many.classes);
  EXPECT_EQ(one.search_nodes, many.search_nodes);
  // The split tree is the whole tree: as many nodes as one sequential walk.
  EXPECT_EQ(one.search_nodes, for_each_solution([](const Colouring&) {}));
}

TEST(NineColourCube, CommandLineWritesTheFields) {
  const std::string command = std::string(CUBENUM_BINARY) + " nine-colour-cube count --json -";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string text;
  char buffer[4096];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) text.append(buffer, n);
  ASSERT_EQ(pclose(pipe), 0);
  const Json json = Json::parse(text);
  const NineColourCounts counts = count_colourings();
  EXPECT_EQ(json["labelled"], counts.labelled());
  EXPECT_EQ(json["up_to_colours"], counts.classes.up_to_colours);
  EXPECT_EQ(json["up_to_colours_and_rotations"], counts.classes.up_to_colours_and_rotations);
  EXPECT_EQ(json["up_to_colours_and_symmetries"], counts.classes.up_to_colours_and_symmetries);
}

}  // namespace
}  // namespace cubenum::nine_colour

namespace cubenum::nine_colour {
namespace {

// A third count, from the structure alone (no search over cells): each
// colour's three cubes meet each face once, so (ColourKindsAreForced...)
// one colour is the core with two opposite corners, six colours are a
// corner with an edge and a centre on the three faces the corner misses,
// and two colours are three edges on pairwise different faces. Count: for
// each of the 4 corner diagonals, every way to give the 6 other corners
// distinct edges and centres, times the ways to split the 6 edges left
// into two face-disjoint triples.
TEST(NineColourCube, StructureCountAgrees) {
  std::vector<int> corners, edges, centres;
  for (int cell = 0; cell < kCells; ++cell) {
    if (cell_kind(cell) == CellKind::corner) corners.push_back(cell);
    if (cell_kind(cell) == CellKind::edge) edges.push_back(cell);
    if (cell_kind(cell) == CellKind::face_centre) centres.push_back(cell);
  }
  const auto faces = [](int cell) {
    unsigned m = 0;
    for (int f = 0; f < kFaceCount; ++f)
      if (face_cell_masks()[f] >> cell & 1) m |= 1u << f;
    return m;
  };
  const auto opposite = [](int cell) {
    const Vec3 p = cell_position(cell);
    return cell_at({-p[0], -p[1], -p[2]});
  };
  std::uint64_t total = 0;
  for (int w : corners) {
    if (w > opposite(w)) continue;
    std::vector<int> rest;
    for (int c : corners)
      if (c != w && c != opposite(w)) rest.push_back(c);
    std::vector<bool> edge_used(kCells), centre_used(kCells);
    const std::function<void(std::size_t)> pair_up = [&](std::size_t i) {
      if (i == rest.size()) {
        std::vector<int> left;
        for (int e : edges)
          if (!edge_used[e]) left.push_back(e);
        // Triples containing left[0] whose faces, and whose complement's
        // faces, are all six.
        for (std::size_t a = 1; a < left.size(); ++a)
          for (std::size_t b = a + 1; b < left.size(); ++b) {
            const unsigned one = faces(left[0]) | faces(left[a]) | faces(left[b]);
            unsigned other = 0;
            for (std::size_t k = 1; k < left.size(); ++k)
              if (k != a && k != b) other |= faces(left[k]);
            total += one == 0x3f && other == 0x3f;
          }
        return;
      }
      for (int e : edges) {
        if (edge_used[e] || (faces(e) & faces(rest[i]))) continue;
        const unsigned missing = 0x3fu & ~(faces(e) | faces(rest[i]));
        for (int c : centres) {
          if (faces(c) != missing || centre_used[c]) continue;
          edge_used[e] = centre_used[c] = true;
          pair_up(i + 1);
          edge_used[e] = centre_used[c] = false;
        }
      }
    };
    pair_up(0);
  }
  EXPECT_EQ(total, count_colourings().classes.up_to_colours);
}

TEST(NineColourCube, OrbitSizesAddUp) {
  // Each class up to colours lies in exactly one orbit, so the orbit sizes
  // of the representatives add up to all classes.
  std::uint64_t under_rotations = 0, under_symmetries = 0;
  for (const Colouring& r : class_representatives())
    under_symmetries += orbit_size(r, kSymmetryCount);
  std::set<Colouring> rotation_reps;
  for_each_solution(
      [&](const Colouring& c) { rotation_reps.insert(canonical_form(c, kRotationCount)); });
  for (const Colouring& r : rotation_reps) under_rotations += orbit_size(r, kRotationCount);
  const NineColourCounts counts = count_colourings();
  EXPECT_EQ(rotation_reps.size(), counts.classes.up_to_colours_and_rotations);
  EXPECT_EQ(under_rotations, counts.classes.up_to_colours);
  EXPECT_EQ(under_symmetries, counts.classes.up_to_colours);
}

}  // namespace
}  // namespace cubenum::nine_colour
