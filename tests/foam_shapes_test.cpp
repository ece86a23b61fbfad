// Foam pieces on shapes of unit cubes (issue 7): shape input and its errors,
// the surface geometry, and the engine's counts against a deliberately
// naive voxel exact cover written here, Burnside's lemma, the first-solution
// search and the program.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bitset>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <sstream>

#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/puzzles/foam_shape.hpp"
#include "cubenum/report/json.hpp"
#include "cubenum/search/subtree_checkpoint.hpp"
#include "run_cubenum.hpp"
#include "scratch_files.hpp"

namespace cubenum::puzzles {
namespace {

const std::string kData = std::string(CUBENUM_DATA_DIR "/");

FoamSet set_of(const std::string& name) {
  return load_foam_set(kData + "foam/" + name + ".txt");
}

std::string shape_error(const std::string& text) {
  std::istringstream in(text);
  try {
    parse_foam_shape(in, "shape.txt", "shape");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// ---------------------------------------------------------------- input

TEST(FoamShapeInput, ReadsCubesAndCuboids) {
  std::istringstream in("# two cubes\ncube 0 0 0\n\ncube 0 1 0  # on top\n");
  const FoamShape s = parse_foam_shape(in, "s.txt", "s");
  EXPECT_EQ(s.cubes.size(), 2U);
  EXPECT_EQ(s.lines, (std::vector<int>{2, 4}));
  EXPECT_EQ(s.surface.face_count(), 10);
  EXPECT_EQ(load_foam_shape("cuboid:2x2x2").surface.face_count(), 24);
  EXPECT_EQ(load_foam_shape(kData + "shapes/singleColor1x2x1.slv.cubes.txt").surface.face_count(),
            10);
}

TEST(FoamShapeInput, RejectsBadShapesNamingFileAndLine) {
  EXPECT_EQ(shape_error("# nothing\n"), "shape.txt: no cubes in the file");
  EXPECT_EQ(shape_error("cube 0 0 0\ncube 1 0.5 0\n"),
            "shape.txt:2: coordinate '0.5' is not an integer");
  EXPECT_EQ(shape_error("cube 0 x 0\n"), "shape.txt:1: coordinate 'x' is not an integer");
  EXPECT_EQ(shape_error("cube 0 0\n"), "shape.txt:1: expected 'cube <x> <y> <z>', got 'cube 0 0'");
  EXPECT_EQ(shape_error("face 0 0 0 y\n"),
            "shape.txt:1: expected 'cube <x> <y> <z>', got 'face 0 0 0 y'");
  EXPECT_EQ(shape_error("cube 0 0 0\ncube 0 0 0\n"),
            "shape.txt:2: cube (0,0,0) given twice (first on line 1)");
  // Two cubes touching only along an edge: four faces meet there.
  EXPECT_EQ(shape_error("cube 0 0 0\ncube 1 1 0\n"),
            "shape.txt:1: cubes touch only along the edge (1,1,0)-(1,1,1): a surface edge "
            "shared by 4 faces cannot be built");
  // Touching at a corner only is buildable (six faces meet at one point).
  EXPECT_EQ(shape_error("cube 0 0 0\ncube 1 1 1\n"), "no error");
  EXPECT_THROW(load_foam_shape("cuboid:2x0x1"), InputError);
  EXPECT_THROW(load_foam_shape("cuboid:2x1"), InputError);
  EXPECT_THROW(load_foam_shape("/nonexistent/shape.txt"), InputError);
  EXPECT_THROW(foam_shape_pool({set_of("happy-cube-original")}, FoamBy::Identity, {"teal"}),
               InputError);
}

TEST(FoamShapeInput, EveryShippedShapeLoadsButTheOpenSheet) {
  // Face counts from the files' own headers ("faces (pieces needed): N").
  const std::map<std::string, int> faces = {{"singleColor1x2x1.slv", 10},
                                            {"cube3x3x3.slv", 54},
                                            {"chair3x3x3.slv", 48},
                                            {"table.slv", 64}};
  for (const auto& [name, n] : faces)
    EXPECT_EQ(load_foam_shape(kData + "shapes/" + name + ".cubes.txt").surface.face_count(), n)
        << name;
}

// ---------------------------------------------------------------- geometry

TEST(FoamShapeGeometry, SingleCubeIsTheFoamCubeShell) {
  const FoamShape one = load_foam_shape("cuboid:1x1x1");
  const auto& cube = foam_cube_surface();
  ASSERT_EQ(one.surface.cell_count(), 98);
  ASSERT_EQ(one.surface.face_count(), 6);
  for (int f = 0; f < 6; ++f) {
    EXPECT_EQ(one.surface.face(f).centre, cube.face(f).centre);
    for (int i = 0; i < 25; ++i)
      EXPECT_EQ(one.surface.cell_point(one.surface.cell_of(f, {i / 5, i % 5})),
                cube.cell_point(cube.cell_of(f, {i / 5, i % 5})));
  }
  EXPECT_EQ(one.surface.symmetries().size(), 48U);
  EXPECT_EQ(one.surface.rotation_count(), 24);
}

TEST(FoamShapeGeometry, CuboidCellsAndSymmetryOrders) {
  // 2x1x1: the surface points of a 9x5x5 block of lattice points,
  // 225 - 7*3*3 = 162; the symmetry group of a square prism has order 16.
  const FoamShape two = load_foam_shape("cuboid:2x1x1");
  EXPECT_EQ(two.surface.cell_count(), 162);
  EXPECT_EQ(two.surface.symmetries().size(), 16U);
  EXPECT_EQ(two.surface.rotation_count(), 8);
  // 3x2x1: a box, order 8; 2x2x2: a cube, 48 (96 faces' worth of 13x... cells).
  EXPECT_EQ(load_foam_shape("cuboid:3x2x1").surface.symmetries().size(), 8U);
  const FoamShape cube2 = load_foam_shape("cuboid:2x2x2");
  EXPECT_EQ(cube2.surface.symmetries().size(), 48U);
  EXPECT_EQ(cube2.surface.cell_count(), 9 * 9 * 9 - 7 * 7 * 7);
  // An L of three cubes in a plane: only the mirror in its diagonal and the
  // mirror in its own plane, and the half turn about the diagonal: order 4.
  std::istringstream in("cube 0 0 0\ncube 1 0 0\ncube 0 1 0\n");
  EXPECT_EQ(parse_foam_shape(in, "l", "l").surface.symmetries().size(), 4U);
}

// ------------------------------------------------- the naive voxel counter

// Every shape face's 5x5 lattice points by plain coordinates (4 per unit
// cube), each piece laid in all 8 ways, faces filled one by one in the
// order the cubes are given, and each assembly kept as the exact list of
// (piece, voxels) per face. No masks, no buckets, no symmetry, no surface
// code of the engine.
struct NaiveShapeCover {
  std::vector<FoamPiece> pieces;
  std::vector<std::vector<std::vector<std::vector<int>>>> placements;  // [face][piece][way]
  std::vector<std::vector<int>> face_voxels;
  std::map<std::array<int, 3>, int> voxel_index;
  std::vector<int> last_face, cover;
  std::vector<std::pair<int, std::vector<int>>> chosen;
  std::vector<bool> used;
  std::set<std::vector<std::pair<int, std::vector<int>>>> assemblies;
  std::set<std::vector<int>> choices;

  int voxel(const std::array<int, 3>& v) {
    const auto [it, fresh] = voxel_index.try_emplace(v, static_cast<int>(voxel_index.size()));
    if (fresh) last_face.push_back(-1), cover.push_back(0);
    return it->second;
  }

  NaiveShapeCover(const std::vector<std::array<int, 3>>& cubes, std::vector<FoamPiece> p)
      : pieces(std::move(p)) {
    const std::set<std::array<int, 3>> filled(cubes.begin(), cubes.end());
    for (const auto& c : cubes)
      for (int axis = 0; axis < 3; ++axis)
        for (const int side : {0, 1}) {
          auto next = c;
          next[axis] += side ? 1 : -1;
          if (filled.count(next)) continue;
          const int a = (axis + 1) % 3, b = (axis + 2) % 3;
          const auto at = [&](int r, int col) {
            std::array<int, 3> v{};
            v[axis] = 4 * c[axis] + 4 * side, v[a] = 4 * c[a] + r, v[b] = 4 * c[b] + col;
            return voxel(v);
          };
          const int face = static_cast<int>(face_voxels.size());
          face_voxels.emplace_back();
          for (int r = 0; r < 5; ++r)
            for (int col = 0; col < 5; ++col) {
              face_voxels[face].push_back(at(r, col));
              last_face[at(r, col)] = face;
            }
          placements.emplace_back();
          for (const FoamPiece& piece : pieces) {
            placements[face].emplace_back();
            for (int way = 0; way < 8; ++way) {
              std::vector<int> voxels;
              for (int r = 0; r < 5; ++r)
                for (int col = 0; col < 5; ++col) {
                  int rr = r, cc = col;
                  for (int t = 0; t < way % 4; ++t) std::tie(rr, cc) = std::pair(cc, 4 - rr);
                  if (way >= 4) cc = 4 - cc;
                  if (piece.grid >> (r * 5 + col) & 1) voxels.push_back(at(rr, cc));
                }
              std::sort(voxels.begin(), voxels.end());
              placements[face].back().push_back(voxels);
            }
          }
        }
    used.assign(pieces.size(), false);
  }

  bool settled(int face) const {
    for (int v : face_voxels[face])
      if (last_face[v] == face && cover[v] != 1) return false;
    return true;
  }

  void fill(std::size_t face) {
    if (face == face_voxels.size()) {
      assemblies.insert(chosen);
      std::vector<int> choice;
      for (const auto& c : chosen) choice.push_back(c.first);
      std::sort(choice.begin(), choice.end());
      choices.insert(choice);
      return;
    }
    for (std::size_t p = 0; p < pieces.size(); ++p) {
      if (used[p]) continue;
      for (const auto& voxels : placements[face][p]) {
        if (std::any_of(voxels.begin(), voxels.end(), [&](int v) { return cover[v] > 0; }))
          continue;
        for (int v : voxels) ++cover[v];
        used[p] = true;
        chosen.emplace_back(static_cast<int>(p), voxels);
        if (settled(static_cast<int>(face))) fill(face + 1);
        chosen.pop_back();
        used[p] = false;
        for (int v : voxels) --cover[v];
      }
    }
  }
};

void expect_naive_agrees(const std::string& spec, const FoamProblem& pool) {
  const FoamShape shape = load_foam_shape(spec);
  NaiveShapeCover naive(shape.cubes, pool.pieces);
  naive.fill(0);
  const FoamShapeCount c = count_foam_shape(shape, pool);
  EXPECT_EQ(c.raw, naive.assemblies.size()) << spec << " " << pool.name;
  EXPECT_EQ(c.piece_choices, naive.choices.size()) << spec << " " << pool.name;
}

TEST(FoamShapeEngine, SingleCubeAgreesWithTheFoamCubeAndNaiveCover) {
  std::vector<FoamSet> sets;
  for (const char* name :
       {"construct", "happy-cube-little-genius", "happy-cube-marble", "happy-cube-micro",
        "happy-cube-original", "happy-cube-profi", "smart-cube"})
    sets.push_back(set_of(name));
  const FoamShape one = load_foam_shape("cuboid:1x1x1");
  for (const FoamBy by : {FoamBy::Identity, FoamBy::Shape})
    for (const FoamProblem& p : foam_problems(FoamChallenge::Own, by, sets)) {
      const FoamCount cube = count_foam(p);
      const FoamShapeCount shape = count_foam_shape(one, p);
      EXPECT_EQ(shape.raw, cube.raw) << p.name;
      EXPECT_EQ(shape.rotations, cube.rotations) << p.name;
      EXPECT_EQ(shape.symmetries, cube.symmetries) << p.name;
    }
  // The pool of a series on one cube is the cube's pool challenge.
  const FoamProblem pool = foam_shape_pool({sets[4]}, FoamBy::Identity);
  const FoamCount cube =
      count_foam(foam_problems(FoamChallenge::Pool, FoamBy::Identity, {sets[4]})[0]);
  const FoamShapeCount shape = count_foam_shape(one, pool);
  EXPECT_EQ(shape.raw, cube.raw);
  EXPECT_EQ(shape.symmetries, cube.symmetries);
  EXPECT_EQ(shape.piece_choices, cube.piece_choices);
  expect_naive_agrees("cuboid:1x1x1", foam_shape_pool({sets[4]}, FoamBy::Identity, {"blue"}));
  expect_naive_agrees("cuboid:1x1x1", foam_shape_pool({sets[6]}, FoamBy::Identity));
}

TEST(FoamShapeEngine, CuboidAgreesWithNaiveVoxelCover) {
  // One set: Marble's blue and green (12 pieces); two sets: the red pieces
  // of Marble and of Micro.
  expect_naive_agrees("cuboid:2x1x1", foam_shape_pool({set_of("happy-cube-marble")},
                                                      FoamBy::Identity, {"blue", "green"}));
  for (const char* colour : {"red"})
    expect_naive_agrees("cuboid:2x1x1",
                        foam_shape_pool({set_of("happy-cube-marble"), set_of("happy-cube-micro")},
                                        FoamBy::Identity, {colour}));
}

// The search's forward checks fold kinds onto 64 bits, so past 64 kinds two
// kinds share a bit, and the last piece of one must not close the other.
// Marble's blue and green (12 pieces) as kinds 0-5 and 64-69, with 58 kinds
// of no copies between: the counts of the 12 alone (which the naive voxel
// cover checks above).
TEST(FoamShapeEngine, KindsSharingAForwardCheckBitCountAlike) {
  const FoamShape two = load_foam_shape("cuboid:2x1x1");
  const FoamProblem pool =
      foam_shape_pool({set_of("happy-cube-marble")}, FoamBy::Identity, {"blue", "green"});
  ASSERT_EQ(pool.kinds.size(), 12U);
  std::vector<search::PlateKind> spread(pool.kinds.begin(), pool.kinds.begin() + 6);
  while (spread.size() < 64) spread.push_back({pool.kinds[0].grid, 0, -1});
  spread.insert(spread.end(), pool.kinds.begin() + 6, pool.kinds.end());
  const auto alone = search::PlateAssembly(two.surface, pool.kinds, pool.group_capacity).count();
  const auto wide = search::PlateAssembly(two.surface, spread, pool.group_capacity).count();
  EXPECT_GT(alone.raw, 0U);
  EXPECT_EQ(wide.raw, alone.raw);
  EXPECT_EQ(wide.rotations, alone.rotations);
  EXPECT_EQ(wide.symmetries, alone.symmetries);
  EXPECT_EQ(wide.piece_choices, alone.piece_choices);
}

// By identity through a search over shapes (each solution standing for the
// ways to pick its congruent copies) agrees with the direct search.
TEST(FoamShapeEngine, IdentityViaShapesAgreesWithDirectSearch) {
  const FoamShape two = load_foam_shape("cuboid:2x1x1");
  const FoamSet micro = set_of("happy-cube-micro");
  const FoamShapeCount direct =
      count_foam_shape(two, foam_shape_pool({micro}, FoamBy::Identity, {"blue", "green"}));
  const FoamShapeCount via =
      count_foam_shape(two, foam_shape_pool({micro}, FoamBy::Identity, {"blue", "green"}, true));
  EXPECT_EQ(via.raw, direct.raw);
  EXPECT_EQ(via.rotations, direct.rotations);
  EXPECT_EQ(via.symmetries, direct.symmetries);
  EXPECT_EQ(via.piece_choices, direct.piece_choices);
}

// Burnside: orbits = (1/|G|) * sum over g of the solutions g fixes.
void expect_burnside(const FoamShape& shape, const FoamProblem& p) {
  const search::PlateAssembly engine(shape.surface, p.kinds, p.group_capacity);
  search::AssemblyOptions all;
  all.list_limit = 1U << 22;
  all.list_up_to = search::SymmetryGroup::None;
  const auto tally = engine.count(all);
  ASSERT_EQ(tally.listed.size(), tally.raw);
  ASSERT_GT(tally.raw, 0U);
  const std::set<search::AssemblyKey> solutions(tally.listed.begin(), tally.listed.end());
  const int order = static_cast<int>(shape.surface.symmetries().size());
  const int rotations = shape.surface.rotation_count();
  std::uint64_t fixed_by_rotations = 0, fixed_by_all = 0;
  for (const auto& key : tally.listed)
    for (int s = 0; s < order; ++s) {
      const auto image = engine.image(key, s);
      ASSERT_TRUE(solutions.count(image)) << "an image is not a solution";
      if (image == key) (s < rotations ? fixed_by_rotations : fixed_by_all) += 1;
    }
  fixed_by_all += fixed_by_rotations;
  EXPECT_EQ(fixed_by_rotations % rotations, 0U);
  EXPECT_EQ(fixed_by_all % order, 0U);
  EXPECT_EQ(tally.rotations, fixed_by_rotations / rotations);
  EXPECT_EQ(tally.symmetries, fixed_by_all / order);
}

TEST(FoamShapeSymmetry, CanonicalCountsAgreeWithBurnside) {
  const FoamShape two = load_foam_shape("cuboid:2x1x1");
  // Congruent pieces by shape (Little Genius) make symmetric assemblies.
  expect_burnside(two, foam_shape_pool({set_of("happy-cube-little-genius")}, FoamBy::Shape,
                                       {"nature", "fruits"}));
  expect_burnside(
      two, foam_shape_pool({set_of("happy-cube-marble")}, FoamBy::Identity, {"blue", "green"}));
}

// The counting search makes only the solutions with the least piece of the
// anchor's orbit (the largest orbit of faces under the rotations) on the
// anchor, there in the least placement under the symmetries that keep the
// anchor in place, and recovers raw from the classes' sizes: it must give
// the counts of the search that makes every solution (`every_solution`,
// counted one by one). The cube (one orbit of six faces), the 2x1x1 (orbits of eight and
// two: the anchor is not face 0) and an L of three cubes (only two
// rotations); distinct pieces, congruent ones by shape and by identity over
// shapes, whose assemblies can be symmetric.
void expect_anchored_counts(const FoamShape& shape, const FoamProblem& pool) {
  search::AssemblyOptions whole;
  whole.every_solution = true;
  const FoamShapeCount anchored = count_foam_shape(shape, pool);
  const FoamShapeCount every = count_foam_shape(shape, pool, whole);
  ASSERT_GT(every.raw, 0U) << shape.name << " " << pool.name;
  EXPECT_EQ(anchored.raw, every.raw) << shape.name << " " << pool.name;
  EXPECT_EQ(anchored.rotations, every.rotations) << shape.name << " " << pool.name;
  EXPECT_EQ(anchored.symmetries, every.symmetries) << shape.name << " " << pool.name;
  EXPECT_EQ(anchored.piece_choices, every.piece_choices) << shape.name << " " << pool.name;
}

TEST(FoamShapeSymmetry, AnchoredSearchGivesTheCountsOfTheWholeSearch) {
  const std::vector<FoamProblem> pools = {
      foam_shape_pool({set_of("happy-cube-marble")}, FoamBy::Identity, {"blue", "green"}),
      foam_shape_pool({set_of("happy-cube-little-genius")}, FoamBy::Shape, {"nature", "fruits"}),
      foam_shape_pool({set_of("happy-cube-micro")}, FoamBy::Identity, {"blue", "green"}, true)};
  for (const char* cuboid : {"cuboid:1x1x1", "cuboid:2x1x1"})
    for (const FoamProblem& pool : pools) expect_anchored_counts(load_foam_shape(cuboid), pool);
  expect_anchored_counts(make_foam_shape("L", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}),
                         foam_shape_pool({set_of("happy-cube-little-genius")}, FoamBy::Shape,
                                         {"nature", "fruits", "animals"}));
}

// Without the choices, a count whose pieces are all told apart (each kind
// one piece, or copies labelled) makes no canonical forms: each solution
// it makes stands for labels x |orbit| / (orbit faces holding the anchor's
// kind) raw ones, and the classes are raw / |rotations| and raw /
// |symmetries|. It must give the counts of the search that makes every
// solution and compares canonical forms; by shape (copies not told apart)
// it keeps the canonical forms, and must too.
TEST(FoamShapeSymmetry, CountWithoutChoicesGivesTheCountsOfTheWholeSearch) {
  const std::vector<FoamProblem> pools = {
      foam_shape_pool({set_of("happy-cube-marble")}, FoamBy::Identity, {"blue", "green"}),
      foam_shape_pool({set_of("happy-cube-micro")}, FoamBy::Identity, {"blue", "green"}, true),
      foam_shape_pool({set_of("happy-cube-little-genius")}, FoamBy::Identity,
                      {"nature", "fruits", "animals"}, true),
      foam_shape_pool({set_of("happy-cube-little-genius")}, FoamBy::Shape, {"nature", "fruits"})};
  const std::vector<FoamShape> shapes = {load_foam_shape("cuboid:1x1x1"),
                                         load_foam_shape("cuboid:2x1x1"),
                                         make_foam_shape("L", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}})};
  search::AssemblyOptions whole, without_choices;
  whole.every_solution = true;
  without_choices.count_selections = false;
  int compared = 0;
  for (const FoamShape& shape : shapes)
    for (const FoamProblem& pool : pools) {
      if (shape.surface.face_count() > 10 && pool.pieces.size() > 12) continue;  // seconds
      const FoamShapeCount every = count_foam_shape(shape, pool, whole);
      const FoamShapeCount fast = count_foam_shape(shape, pool, without_choices);
      EXPECT_EQ(fast.raw, every.raw) << shape.name << " " << pool.name;
      EXPECT_EQ(fast.rotations, every.rotations) << shape.name << " " << pool.name;
      EXPECT_EQ(fast.symmetries, every.symmetries) << shape.name << " " << pool.name;
      compared += every.raw > 0;
    }
  EXPECT_GE(compared, 8);
}

// Raw, the classes and the piece choices of two counts (either engine's).
template <class A, class B>
void expect_same_counts(const A& a, const B& b, const std::string& what) {
  EXPECT_EQ(a.raw, b.raw) << what;
  EXPECT_EQ(a.rotations, b.rotations) << what;
  EXPECT_EQ(a.symmetries, b.symmetries) << what;
  EXPECT_EQ(a.piece_choices, b.piece_choices) << what;
}

// With tally_by_shape, the search by identity over shapes (copies
// labelled) counts by shape as well: each solution it makes once, not as
// its labellings. Each count must be that of its own search: by identity
// alone, and by shape from a pool whose copies are not told apart;
// anchored, making every solution, and without the choices.
TEST(FoamShapeSymmetry, CountsByShapeFromTheSearchByIdentity) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> jobs = {
      {"happy-cube-little-genius", {"nature", "fruits", "animals"}},
      {"happy-cube-micro", {"blue", "green"}}};
  const std::vector<FoamShape> shapes = {load_foam_shape("cuboid:1x1x1"),
                                         load_foam_shape("cuboid:2x1x1"),
                                         make_foam_shape("L", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}})};
  std::vector<search::AssemblyOptions> ways(3);
  ways[1].every_solution = true;
  ways[2].count_selections = false;
  int compared = 0;
  for (const auto& [set, colours] : jobs) {
    const FoamProblem labelled =
        foam_shape_pool({set_of(set)}, FoamBy::Identity, colours, /*via_shapes=*/true);
    const FoamProblem by_shape = foam_shape_pool({set_of(set)}, FoamBy::Shape, colours);
    ASSERT_TRUE(labelled.label_copies) << set;
    for (const FoamShape& shape : shapes)
      for (const search::AssemblyOptions& way : ways) {
        const bool anchored = !way.every_solution && way.count_selections;
        if (!anchored && shape.surface.face_count() > 10 && labelled.pieces.size() > 12)
          continue;  // seconds
        const std::string what = shape.name + " " + set;
        search::AssemblyOptions both = way;
        both.tally_by_shape = true;
        const FoamShapeCount c = count_foam_shape(shape, labelled, both);
        expect_same_counts(c, count_foam_shape(shape, labelled, way), what + " by identity");
        ASSERT_TRUE(c.by_shape.has_value()) << what;
        expect_same_counts(*c.by_shape, count_foam_shape(shape, by_shape, way), what + " by shape");
        if (c.raw > 0) {
          EXPECT_LT(c.by_shape->raw, c.raw) << what;  // the copies told apart: more
        }
        compared += c.by_shape->raw > 0;
      }
  }
  EXPECT_GE(compared, 12);
}

// ---------------------------------------------------- counts by layers

search::LayerTally by_layers(const FoamShape& shape, const FoamProblem& pool) {
  return count_foam_shape_by_layers(shape, pool);
}

// The count by layers (search/plate_layers.hpp, written apart from the
// search: its own fill order, cells and candidates; classes by Burnside's
// lemma or, pieces told apart, raw / |group|) gives every count of the
// search (classes from canonical forms): distinct pieces, labelled copies
// and copies by shape, whose assemblies can be symmetric; the cube, the
// 2x1x1, an L and a 3x1x1.
TEST(FoamShapeLayers, LayersGiveTheCountsOfTheSearch) {
  const FoamSet lg = set_of("happy-cube-little-genius");
  const std::vector<FoamProblem> pools = {
      foam_shape_pool({set_of("happy-cube-marble")}, FoamBy::Identity, {"blue", "green"}),
      foam_shape_pool({set_of("happy-cube-micro")}, FoamBy::Identity, {"blue", "green"}, true),
      foam_shape_pool({lg}, FoamBy::Identity, {"nature", "fruits", "animals"}, true),
      foam_shape_pool({lg}, FoamBy::Shape, {"nature", "fruits", "animals"}),
      foam_shape_pool({lg}, FoamBy::Shape)};
  const std::vector<FoamShape> shapes = {
      load_foam_shape("cuboid:1x1x1"), load_foam_shape("cuboid:2x1x1"),
      make_foam_shape("L", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}), load_foam_shape("cuboid:3x1x1")};
  int compared = 0;
  for (const FoamShape& shape : shapes)
    for (const FoamProblem& pool : pools) {
      if (shape.surface.face_count() > 10 && pool.pieces.size() > 18) continue;  // minutes
      const FoamShapeCount search = count_foam_shape(shape, pool);
      expect_same_counts(by_layers(shape, pool), search, shape.name + " " + pool.name);
      compared += search.raw != static_cast<std::uint64_t>(shape.surface.rotation_count()) *
                                    search.rotations;  // symmetric assemblies
    }
  EXPECT_GE(compared, 4);  // Burnside's fixed points did count
}

// Burnside's fixed assemblies of each symmetry, by layers over its cycles
// of faces and by the search over them, give the same classes (by shape:
// Little Genius' congruent pieces make symmetric assemblies).
TEST(FoamShapeLayers, FixedAssembliesByLayersAndBySearchAgree) {
  const FoamProblem pool = foam_shape_pool({set_of("happy-cube-little-genius")}, FoamBy::Shape,
                                           {"nature", "fruits", "animals"});
  for (const char* spec : {"cuboid:1x1x1", "cuboid:2x1x1", "cuboid:3x1x1"}) {
    const FoamShape shape = load_foam_shape(spec);
    search::LayerOptions by_search;
    by_search.fixed_by_search = true;
    const search::LayerTally layers = count_foam_shape_by_layers(shape, pool);
    const search::LayerTally search = count_foam_shape_by_layers(shape, pool, by_search);
    EXPECT_EQ(layers.rotations, search.rotations) << spec;
    EXPECT_EQ(layers.symmetries, search.symmetries) << spec;
    EXPECT_NE(layers.raw,
              static_cast<std::uint64_t>(shape.surface.rotation_count()) * layers.rotations)
        << spec << ": no symmetric assembly to count";
  }
}

// States packed in one word (with 64-bit counts) and kept wide give the
// same counts, by identity (labelled copies: large counts) and by shape.
TEST(FoamShapeLayers, CompactAndWideStatesAgree) {
  const FoamSet lg = set_of("happy-cube-little-genius");
  const FoamShape shape = load_foam_shape("cuboid:3x1x1");
  for (const FoamProblem& pool :
       {foam_shape_pool({lg}, FoamBy::Identity, {"nature", "fruits", "animals"}, true),
        foam_shape_pool({lg}, FoamBy::Shape, {"nature", "fruits", "animals"})}) {
    search::LayerOptions wide;
    wide.wide_states = true;
    const search::LayerTally compact = count_foam_shape_by_layers(shape, pool);
    const search::LayerTally kept_wide = count_foam_shape_by_layers(shape, pool, wide);
    ASSERT_GT(compact.raw, 0U);
    expect_same_counts(compact, kept_wide, pool.name);
  }
}

// Against the naive voxel cover: raw and the choices of the 2x1x1 from
// Marble's blue and green pieces.
TEST(FoamShapeLayers, LayersAgreeWithTheNaiveVoxelCover) {
  const FoamShape shape = load_foam_shape("cuboid:2x1x1");
  const FoamProblem pool =
      foam_shape_pool({set_of("happy-cube-marble")}, FoamBy::Identity, {"blue", "green"});
  NaiveShapeCover naive(shape.cubes, pool.pieces);
  naive.fill(0);
  const search::LayerTally c = by_layers(shape, pool);
  ASSERT_GT(naive.assemblies.size(), 0U);
  EXPECT_EQ(c.raw, naive.assemblies.size());
  EXPECT_EQ(c.piece_choices, naive.choices.size());
}

// A stopped count by layers has no counts; a state that does not fit the
// layers' keys, or a pool with group capacities, is refused before any work.
TEST(FoamShapeLayers, StopsAndRefusals) {
  const FoamShape two = load_foam_shape("cuboid:2x1x1");
  search::LayerOptions stop;
  stop.stop = [] { return true; };
  const search::LayerTally stopped = count_foam_shape_by_layers(
      two, foam_shape_pool({set_of("happy-cube-little-genius")}, FoamBy::Shape), stop);
  EXPECT_FALSE(stopped.complete);
  EXPECT_EQ(stopped.raw, 0U);
  // 180 distinct pieces take more than 64 bits of copies left.
  std::vector<FoamSet> five;
  for (const char* name : {"happy-cube-little-genius", "happy-cube-marble", "happy-cube-micro",
                           "happy-cube-original", "happy-cube-profi"})
    five.push_back(set_of(name));
  const FoamProblem many = foam_shape_pool(five, FoamBy::Identity);
  EXPECT_THROW(search::PlateLayers(two.surface, many.kinds), std::invalid_argument);
  EXPECT_THROW(count_foam_shape_by_layers(two, many), InputError);
  std::vector<search::PlateKind> grouped = foam_shape_pool({five[0]}, FoamBy::Shape).kinds;
  grouped[0].group = 0;
  EXPECT_THROW(search::PlateLayers(two.surface, grouped), std::invalid_argument);
  // 2^64 - 1 + 1 and 2^100 in decimal (the exact counts past 64 bits).
  EXPECT_EQ(search::decimal(search::LayerCount{1} << 64), "18446744073709551616");
  EXPECT_EQ(search::decimal(search::LayerCount{1} << 100), "1267650600228229401496703205376");
  EXPECT_EQ(search::decimal(0), "0");
}

// The fill order keeps the frontier narrow: a sweep along a cuboid's long
// side crosses a ring of four faces (4 x 3 edge cells and 4 corner points
// on the ring between two cubes, more while a ring is being filled).
TEST(FoamShapeLayers, FillOrderSweepsAlongTheLongSide) {
  const FoamProblem lg = foam_shape_pool({set_of("happy-cube-little-genius")}, FoamBy::Shape);
  const int two =
      search::PlateLayers(load_foam_shape("cuboid:2x1x1").surface, lg.kinds).widest_frontier();
  const int four =
      search::PlateLayers(load_foam_shape("cuboid:4x1x1").surface, lg.kinds).widest_frontier();
  EXPECT_GE(two, 16);
  EXPECT_EQ(four, two);  // longer, not wider
  EXPECT_TRUE(layers_suit(load_foam_shape("cuboid:3x1x1"), lg));
  EXPECT_FALSE(layers_suit(load_foam_shape("cuboid:2x2x2"), lg));
  EXPECT_FALSE(layers_suit(load_foam_shape("cuboid:2x1x1"),
                           foam_shape_pool({set_of("happy-cube-original")}, FoamBy::Identity)));
}

// The share of the work done that the progress line's time left comes
// from: told as the subtrees finish, between 0 and 1, the whole at the end;
// asking for it changes no count.
TEST(FoamShapeCount, WorkShareGrowsToTheWholeAndChangesNoCount) {
  const FoamShape two = load_foam_shape("cuboid:2x1x1");
  const FoamProblem pool =
      foam_shape_pool({set_of("happy-cube-marble")}, FoamBy::Identity, {"blue", "green"});
  std::mutex mutex;
  std::vector<double> shares;
  search::AssemblyOptions watched;
  watched.work_done = [&](double share) {
    const std::lock_guard lock(mutex);
    shares.push_back(share);
  };
  const FoamShapeCount with = count_foam_shape(two, pool, watched);
  const FoamShapeCount without = count_foam_shape(two, pool);
  EXPECT_EQ(with.raw, without.raw);
  EXPECT_EQ(with.symmetries, without.symmetries);
  EXPECT_EQ(with.piece_choices, without.piece_choices);
  ASSERT_FALSE(shares.empty());
  for (const double share : shares) {
    EXPECT_GE(share, 0);
    EXPECT_LT(share, 1);
  }
  EXPECT_GT(*std::max_element(shares.begin(), shares.end()), 0.99);
}

// A count resumed from a checkpoint first reports the share its earlier run
// finished, before it searches (the progress line measures the time left
// from there: the earlier part took no time in this run), then grows to
// the whole; its counts are those of one run.
TEST(FoamShapeCount, ResumedCountReportsTheShareDoneBeforeFirst) {
  const FoamShape two = load_foam_shape("cuboid:2x1x1");
  const FoamProblem pool =
      foam_shape_pool({set_of("happy-cube-original")}, FoamBy::Identity, {"blue", "green"});
  const FoamShapeCount whole = count_foam_shape(two, pool);
  const std::string dir = testing::scratch("foam-shape-resumed-share").string();
  const CheckpointJson identity = {{"test", "resumed share"}};
  std::mutex mutex;
  double reached = 0;
  {
    search::SubtreeCheckpoint checkpoint(dir, identity, false, 0, this_cluster());
    search::AssemblyOptions first;
    first.checkpoint = &checkpoint;
    first.work_done = [&](double share) {
      const std::lock_guard lock(mutex);
      reached = std::max(reached, share);
    };
    first.stop = [&] {
      const std::lock_guard lock(mutex);
      return reached >= 0.3;
    };
    EXPECT_FALSE(count_foam_shape(two, pool, first).complete);
    checkpoint.save(true);
  }
  std::vector<std::pair<double, std::uint64_t>> shares;  // and the nodes searched by then
  Progress nodes("search", 0, "nodes");
  search::SubtreeCheckpoint checkpoint(dir, identity, true, 0, this_cluster());
  search::AssemblyOptions second;
  second.checkpoint = &checkpoint;
  second.nodes = &nodes;
  second.work_done = [&](double share) {
    const std::lock_guard lock(mutex);
    shares.emplace_back(share, nodes.done());
  };
  const FoamShapeCount resumed = count_foam_shape(two, pool, second);
  EXPECT_EQ(resumed.raw, whole.raw);
  EXPECT_EQ(resumed.symmetries, whole.symmetries);
  EXPECT_EQ(resumed.piece_choices, whole.piece_choices);
  ASSERT_FALSE(shares.empty());
  EXPECT_EQ(shares.front().second, 0U) << "the earlier run's share comes before any search";
  EXPECT_GT(shares.front().first, 0.1);
  EXPECT_LT(shares.front().first, 0.9);
  EXPECT_GT(std::max_element(shares.begin(), shares.end())->first, 0.99);
}

// ---------------------------------------------------- first solutions

TEST(FoamShapeFirst, FindsEverySolutionWhenAskedForMore) {
  const FoamShape two = load_foam_shape("cuboid:2x1x1");
  const FoamProblem pool =
      foam_shape_pool({set_of("happy-cube-marble")}, FoamBy::Identity, {"blue", "green"});
  const FoamShapeCount count = count_foam_shape(two, pool);
  search::FirstOptions options;
  options.wanted = count.raw + 1;
  options.node_budget = 16;  // many restarts before the search is complete
  const auto found = first_foam_shape(two, pool, options);
  EXPECT_TRUE(found.exhausted);
  EXPECT_GT(found.restarts, 1U);
  EXPECT_EQ(found.solutions.size(), count.raw);
  // Each is an exact cover of the 162 cells.
  const search::PlateAssembly engine(two.surface, pool.kinds);
  for (const auto& key : found.solutions) {
    std::vector<int> cover(two.surface.cell_count(), 0);
    for (int f = 0; f < two.surface.face_count(); ++f) {
      const auto grid = engine.placed_grid(key[f].kind, key[f].transform);
      for (int i = 0; i < 25; ++i)
        if (grid >> i & 1) ++cover[two.surface.cell_of(f, {i / 5, i % 5})];
    }
    EXPECT_EQ(std::count(cover.begin(), cover.end(), 1), two.surface.cell_count());
  }
}

// A search that would otherwise run on gives up at a time limit (a failure
// there, never a hang).
search::FirstOptions within_ten_seconds() {
  search::FirstOptions options;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  options.stop = [end] { return std::chrono::steady_clock::now() > end; };
  return options;
}

// The 180 pieces of the five series, by identity.
FoamProblem five_series_pool() {
  std::vector<FoamSet> sets;
  for (const char* name : {"happy-cube-little-genius", "happy-cube-marble", "happy-cube-micro",
                           "happy-cube-original", "happy-cube-profi"})
    sets.push_back(set_of(name));
  return foam_shape_pool(sets, FoamBy::Identity);
}

// A plate's filled corner cells and filled edge cells (the border but the
// corners), counted cell by cell.
std::pair<int, int> corner_and_edge_cells(std::uint32_t grid) {
  int corners = 0, edges = 0;
  for (int i = 0; i < 25; ++i)
    if (grid >> i & 1) {
      const bool row_end = i / 5 == 0 || i / 5 == 4, col_end = i % 5 == 0 || i % 5 == 4;
      corners += row_end && col_end;
      edges += row_end != col_end;
    }
  return {corners, edges};
}

// Every cell is covered once, so the pieces on a shape fill exactly as
// many plate corners as the surface has cube vertices, and as many plate
// edge cells as 3 x its unit edges. Counted here from the cubes alone: for
// these shapes no choice of one piece a face from the five series' 180
// can do both (the fewest or the most corners or edge cells the pieces can
// sum to miss the surface's), and the first-solution search says at once
// that its search is complete and found nothing (it used to search on).
TEST(FoamShapeFirst, ShapesThePiecesCannotCoverAreAnsweredAtOnce) {
  const FoamProblem pool = five_series_pool();
  std::vector<int> corners, edge_cells;
  for (const auto& kind : pool.kinds) {
    const auto [c, e] = corner_and_edge_cells(kind.grid);
    for (int m = 0; m < kind.multiplicity; ++m) corners.push_back(c), edge_cells.push_back(e);
  }
  std::sort(corners.begin(), corners.end());
  std::sort(edge_cells.begin(), edge_cells.end());
  const auto reachable = [](const std::vector<int>& sorted, std::size_t n, int wanted) {
    if (n > sorted.size()) return false;
    const int least = std::accumulate(sorted.begin(), sorted.begin() + n, 0);
    const int most = std::accumulate(sorted.end() - n, sorted.end(), 0);
    return least <= wanted && wanted <= most;
  };
  for (const char* file :
       {"multipad.shp", "dounut1.shp", "barbur.slv", "core1.slv", "fangus.slv"}) {
    const FoamShape shape = load_foam_shape(kData + "shapes/" + file + ".cubes.txt");
    const std::set<Vec3> cubes(shape.cubes.begin(), shape.cubes.end());
    std::set<Vec3> vertices;
    std::set<std::pair<Vec3, Vec3>> edges;
    std::size_t faces = 0;
    for (const Vec3& c : shape.cubes)
      for (int axis = 0; axis < 3; ++axis)
        for (const int side : {0, 1}) {
          Vec3 next = c;
          next[axis] += side == 0 ? -1 : 1;
          if (cubes.count(next)) continue;
          ++faces;
          const int u = (axis + 1) % 3, v = (axis + 2) % 3;
          std::array<Vec3, 4> square;
          for (int k = 0; k < 4; ++k) {
            square[k] = c;
            square[k][axis] += side;
            square[k][u] += k == 1 || k == 2;
            square[k][v] += k >= 2;
          }
          for (int k = 0; k < 4; ++k) {
            vertices.insert(square[k]);
            edges.insert(std::minmax(square[k], square[(k + 1) % 4]));
          }
        }
    ASSERT_EQ(static_cast<int>(faces), shape.surface.face_count()) << file;
    EXPECT_FALSE(reachable(corners, faces, static_cast<int>(vertices.size())) &&
                 reachable(edge_cells, faces, 3 * static_cast<int>(edges.size())))
        << file;
    const auto found = first_foam_shape(shape, pool, within_ten_seconds());
    EXPECT_TRUE(found.exhausted) << file;
    EXPECT_TRUE(found.solutions.empty()) << file;
  }
}

// massiveStar (150 faces): the corner sum alone and the edge sum alone can
// be met, but no 150 of the 180 pieces meet both at once. Checked here by a
// knapsack of the test's own (std::bitset rows of edge sums by pieces and
// corners chosen); the search says at once that there is nothing to find.
TEST(FoamShapeFirst, ShapeWhoseCornersAndEdgesCannotBothBeFilledIsAnsweredAtOnce) {
  const FoamProblem pool = five_series_pool();
  const FoamShape shape = load_foam_shape(kData + "shapes/massiveStar.slv.cubes.txt");
  // Its cube vertices and unit edges, counted from its cubes by a script
  // walking each cube's open faces (the test above's method): 152 and 300.
  constexpr int kFaces = 150, kVertices = 152, kEdgeCells = 3 * 300;
  ASSERT_EQ(shape.surface.face_count(), kFaces);
  std::vector<std::vector<std::bitset<2048>>> sums(kFaces + 1,
                                                   std::vector<std::bitset<2048>>(kVertices + 1));
  sums[0][0].set(0);
  int taken = 0;
  for (const auto& kind : pool.kinds) {
    const auto [c, e] = corner_and_edge_cells(kind.grid);
    for (int copy = 0; copy < kind.multiplicity; ++copy, ++taken)
      for (int n = std::min(taken, kFaces - 1); n >= 0; --n)
        for (int v = kVertices; v >= c; --v) sums[n + 1][v] |= sums[n][v - c] << e;
  }
  EXPECT_FALSE(sums[kFaces][kVertices].test(kEdgeCells));
  const auto found = first_foam_shape(shape, pool, within_ten_seconds());
  EXPECT_TRUE(found.exhausted);
  EXPECT_TRUE(found.solutions.empty());
}

TEST(FoamShapeFirst, SameSeedSameSolutions) {
  const FoamShape two = load_foam_shape("cuboid:2x1x1");
  const FoamProblem pool = foam_shape_pool({set_of("happy-cube-original")}, FoamBy::Identity);
  search::FirstOptions options;
  options.wanted = 3;
  options.seed = 7;
  const auto a = first_foam_shape(two, pool, options), b = first_foam_shape(two, pool, options);
  ASSERT_EQ(a.solutions.size(), 3U);
  EXPECT_EQ(a.solutions, b.solutions);
}

TEST(FoamShapeCount, StopReportsAnIncompleteCount) {
  const FoamShape two = load_foam_shape("cuboid:2x1x1");
  const FoamProblem pool = foam_shape_pool({set_of("happy-cube-original")}, FoamBy::Identity);
  search::AssemblyOptions options;
  options.stop = [] { return true; };
  const FoamShapeCount c = count_foam_shape(two, pool, options);
  EXPECT_FALSE(c.complete);
  EXPECT_EQ(c.subtrees_done, 0U);
  EXPECT_GT(c.subtrees_total, 0U);
}

// ---------------------------------------------------------------- the CLI

std::string run(const std::string& args, int* status) {
  auto program = testing::run_cubenum(args);
  *status = program.status;
  return program.output;
}

TEST(FoamShapeCli, CountAndSolveWriteTheirJsonFields) {
  int status = 0;
  std::string out = run("foam count --shape cuboid:2x1x1 --colours blue,green --json - " + kData +
                            "foam/happy-cube-marble.txt",
                        &status);
  ASSERT_EQ(status, 0) << out;
  Json j = Json::parse(out);
  EXPECT_EQ(j["shape"], "cuboid:2x1x1");
  EXPECT_EQ(j["faces"], 10);
  EXPECT_EQ(j["symmetry_order"], 16);
  // The schema of every foam count (docs/PUZZLES.md): challenge, by, results.
  EXPECT_EQ(j["challenge"], "pool");
  EXPECT_EQ(j["by"], "identity");
  ASSERT_EQ(j["results"].size(), 1U);
  EXPECT_EQ(j["results"][0]["name"], "happy-cube-marble");
  EXPECT_EQ(j["results"][0]["complete"], true);
  EXPECT_EQ(j["results"][0]["raw"].get<std::uint64_t>(),
            8 * j["results"][0]["rotations"].get<std::uint64_t>());
  const std::string svg = ::testing::TempDir() + "foam_shape.svg";
  out =
      run("foam solve --shape " + kData + "shapes/singleColor1x2x1.slv.cubes.txt --first 2 --svg " +
              svg + " --json - " + kData + "foam/happy-cube-original.txt",
          &status);
  ASSERT_EQ(status, 0) << out;
  const std::string wrote = "wrote " + svg + "\n";  // on standard error, joined here
  ASSERT_NE(out.find(wrote), std::string::npos) << out;
  j = Json::parse(out.erase(out.find(wrote), wrote.size()));
  EXPECT_EQ(j["results"][0]["found"], 2);
  EXPECT_EQ(j["results"][0]["solutions"][0].size(), 10U);
  std::ifstream in(svg);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("<polygon"), std::string::npos);
}

// A shape by identity from a pool with congruent pieces is counted over
// shapes by itself, says so, and gives the counts of the search piece by
// piece (--direct).
TEST(FoamShapeCli, CongruentPiecesAreCountedOverShapesUnlessDirect) {
  const std::string pool = "--shape cuboid:2x1x1 --colours nature,fruits " + kData +
                           "foam/happy-cube-little-genius.txt --json ";
  const std::string file = ::testing::TempDir() + "foam_shape_count.json";
  std::map<std::string, Json> counts;
  for (const std::string how : {"", "--direct "}) {
    const auto program = testing::run_cubenum("foam count " + how + pool + file);
    ASSERT_EQ(program.status, 0) << program.output;
    EXPECT_EQ(program.output.find("counted over shapes") != std::string::npos, how.empty())
        << program.output;
    std::ifstream in(file);
    counts[how] = Json::parse(in)["results"][0];
  }
  for (const char* field : {"raw", "rotations", "symmetries", "piece_choices"})
    EXPECT_EQ(counts[""][field], counts["--direct "][field]) << field;
  EXPECT_GT(counts[""]["raw"].get<std::uint64_t>(), 0U);
}

// A count that looks like hours says so once, with the way to stop it,
// even where no progress line is drawn (the tests' standard error is a
// pipe). The 2x2x2 from Original's 36 pieces: far beyond any time limit.
// The note waits for a few seconds of counting (warn_if_long), and the
// estimate before it counts in the time limit too, which leaves room for a
// loaded machine.
TEST(FoamShapeCli, LongCountSaysSoOnce) {
  // One thread: the run lasts its time limit, and shares the machine with other tests.
  const auto program =
      testing::run_cubenum("foam count --shape cuboid:2x2x2 --threads 1 --time-limit 20 " + kData +
                           "foam/happy-cube-original.txt");
  EXPECT_EQ(program.status, 0) << program.output;
  const std::string note = "cubenum: note: a long count: about ";
  const auto at = program.output.find(note);
  ASSERT_NE(at, std::string::npos) << program.output;
  EXPECT_EQ(program.output.find(note, at + 1), std::string::npos) << program.output;
  EXPECT_NE(program.output.find("--time-limit S stops it"), std::string::npos);
  EXPECT_NE(program.output.find("the counts are lower bounds"), std::string::npos);
  EXPECT_EQ(program.output.find("--method layers"), std::string::npos) << program.output;
}

// Where the layers may serve but their frontier is wide (the 2x2x1: 32
// cells; Little Genius' 36 pieces take minutes and gigabytes by layers,
// days by the search; results/foam-shapes.md), auto tries them first: three themes are counted by
// layers with the search's counts; where they outgrow --memory, the search
// counts (within what is left of --time-limit). Where an option only the
// search has keeps auto from the layers, the long search's note names them.
TEST(FoamShapeCli, AutoTriesWideLayersFirstAndFallsBackOnTheSearch) {
  const std::string lg = kData + "foam/happy-cube-little-genius.txt";
  const std::string themes = "foam count --shape cuboid:2x2x1 --colours nature,fruits,animals ";
  std::map<std::string, Json> counts;
  for (const std::string method : {"auto", "search"}) {
    const auto program = testing::run_cubenum(themes + "--method " + method + " --json - " + lg);
    ASSERT_EQ(program.status, 0) << program.output;
    EXPECT_EQ(program.output.find("counting by layers first") != std::string::npos,
              method == "auto")
        << program.output;
    counts[method] = Json::parse(program.output.substr(program.output.find('{')))["results"][0];
  }
  EXPECT_EQ(counts["auto"]["method"], "layers");
  for (const char* field : {"raw", "rotations", "symmetries", "piece_choices"})
    EXPECT_EQ(counts["auto"][field], counts["search"][field]) << field;

  // 0.1 GiB: small enough that the layers outgrow it long before the time
  // limit, also on a loaded machine.
  auto program = testing::run_cubenum(
      "foam count --shape cuboid:2x2x1 --memory 0.1 --time-limit 5 --json - " + lg);
  EXPECT_EQ(program.status, 0) << program.output;
  EXPECT_NE(program.output.find("counting by layers first"), std::string::npos) << program.output;
  EXPECT_NE(program.output.find("counted by the search instead"), std::string::npos)
      << program.output;
  const Json j = Json::parse(program.output.substr(program.output.find('{')));
  EXPECT_EQ(j["results"][0]["method"], "search");
  EXPECT_EQ(j["results"][0]["complete"], false);

  const std::string ck = ::testing::TempDir() + "auto-layers-ckpt";
  std::filesystem::remove_all(ck);
  // The long count's note comes after its estimate and a few seconds of
  // counting (warn_if_long): the time limit leaves room for both on a
  // loaded machine.
  program = testing::run_cubenum(
      "foam count --shape cuboid:2x2x1 --threads 1 --time-limit 12 --checkpoint " + ck + " " + lg);
  std::filesystem::remove_all(ck);
  EXPECT_EQ(program.status, 4) << program.output;
  EXPECT_EQ(program.output.find("by layers"), std::string::npos) << program.output;
  EXPECT_NE(program.output.find("a long count: about "), std::string::npos) << program.output;
  EXPECT_NE(program.output.find("without --checkpoint, the layers may count it far faster"),
            std::string::npos)
      << program.output;
}

// --no-choices: the same raw, rotations and symmetries as the whole count,
// the piece choices not counted (null in JSON, "-" in the table); for a
// shape by identity over shapes, by shape, and a pool of a whole set.
TEST(FoamShapeCli, NoChoicesGivesTheSameCountsWithoutTheChoices) {
  const std::string lg = kData + "foam/happy-cube-little-genius.txt";
  for (const std::string& job : {"--shape cuboid:2x1x1 --colours nature,fruits " + lg,
                                 "--shape cuboid:2x1x1 --colours nature,fruits --by shape " + lg,
                                 "--challenge pool " + kData + "foam/happy-cube-marble.txt"}) {
    const auto dir = cubenum::testing::scratch("foam-no-choices");
    const std::string whole = (dir / "whole.json").string(),
                      without = (dir / "without.json").string();
    int status = 0;
    std::string out = run("foam count --json " + whole + " " + job, &status);
    ASSERT_EQ(status, 0) << out;
    out = run("foam count --no-choices --json " + without + " " + job, &status);
    ASSERT_EQ(status, 0) << out;
    const Json a = Json::parse(cubenum::testing::read(whole))["results"][0],
               b = Json::parse(cubenum::testing::read(without))["results"][0];
    for (const char* field : {"raw", "rotations", "symmetries"}) EXPECT_EQ(a[field], b[field]);
    EXPECT_GT(a["piece_choices"].get<std::uint64_t>(), 0U) << job;
    EXPECT_TRUE(b["piece_choices"].is_null()) << job;
    const std::string table = run("foam count --no-choices " + job, &status);
    EXPECT_EQ(status, 0);
    EXPECT_TRUE(table.find(" - ") != std::string::npos) << table;
  }
  // --challenge own counts no choices: --no-choices is refused.
  int status = 0;
  const std::string own = run("foam count --no-choices " + lg, &status);
  EXPECT_EQ(status, 2) << own;
  EXPECT_NE(own.find("--no-choices: --challenge own counts no piece choices"), std::string::npos)
      << own;
}

// A count past --memory stops with its counts so far (lower bounds), says
// what holds the memory and how to do without it, and exits with status 3
// (every process holds more than 1 MiB, so the guard's first look stops it).
TEST(FoamShapeCli, MemoryLimitStopsTheCountWithItsCountsSoFar) {
  const std::string job = "foam count --memory 0.001 --shape cuboid:2x1x1 --colours blue,green " +
                          kData + "foam/happy-cube-original.txt";
  int status = 0;
  std::string out = run(job, &status);
  EXPECT_EQ(status, 3) << out;
  // Stopped at its first look at the memory (which may come after a subtree or two).
  const std::string stopped = "stopped at the memory limit after ";
  const auto at = out.find(stopped);
  ASSERT_NE(at, std::string::npos) << out;
  std::istringstream subtrees(out.substr(at + stopped.size()));
  std::size_t done = 0, total = 0;
  char slash = 0;
  subtrees >> done >> slash >> total;
  EXPECT_EQ(slash, '/') << out;
  EXPECT_LT(done, total) << out;
  EXPECT_NE(out.find("more than the 1.0 MiB that --memory allows"), std::string::npos) << out;
  EXPECT_NE(out.find("--no-choices counts raw, rotations and symmetries"), std::string::npos)
      << out;
  out = run(job + " --no-choices", &status);
  EXPECT_EQ(status, 3) << out;
  EXPECT_EQ(out.find("--no-choices counts"), std::string::npos) << out;
  out = run("foam count --memory 0.001 --challenge pool " + kData + "foam/happy-cube-marble.txt",
            &status);
  EXPECT_EQ(status, 3) << out;
  EXPECT_NE(out.find("lower bounds"), std::string::npos) << out;
  out = run("foam count --memory -1 --challenge pool " + kData + "foam/happy-cube-marble.txt",
            &status);
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("--memory"), std::string::npos) << out;
}

// --method: layers and search print the same counts (auto picks layers
// for a pool of many congruent pieces on a narrow shape, and says so); the
// layers refuse what they cannot keep, and a stop has no counts (exit 4).
TEST(FoamShapeCli, MethodLayersAndSearchGiveTheSameCounts) {
  const std::string job = "--shape cuboid:2x1x1 --colours nature,fruits,animals " + kData +
                          "foam/happy-cube-little-genius.txt";
  std::map<std::string, Json> counts;
  for (const std::string method : {"auto", "layers", "search"}) {
    const auto program = testing::run_cubenum("foam count --method " + method + " --json - " + job);
    ASSERT_EQ(program.status, 0) << program.output;
    EXPECT_EQ(program.output.find("counted by layers") != std::string::npos, method == "auto")
        << program.output;
    const Json j = Json::parse(program.output.substr(program.output.find('{')));
    counts[method] = j["results"][0];
  }
  EXPECT_EQ(counts["auto"]["method"], "layers");
  EXPECT_EQ(counts["layers"]["method"], "layers");
  for (const char* field : {"raw", "rotations", "symmetries", "piece_choices"}) {
    EXPECT_EQ(counts["layers"][field], counts["search"][field]) << field;
    EXPECT_GT(counts["search"][field].get<std::uint64_t>(), 0U) << field;
  }
  int status = 0;
  std::string out =
      run("foam count --method layers --checkpoint " + ::testing::TempDir() + "layers-ckpt " + job,
          &status);
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("a count by layers has no --checkpoint"), std::string::npos) << out;
  out = run("foam count --method sideways " + job, &status);
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("expected auto, search or layers"), std::string::npos) << out;
  out = run("foam count --method layers --shape cuboid:2x1x1 " + kData + "foam/happy-cube-*.txt",
            &status);
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("more than 64 bits"), std::string::npos) << out;
  out = run("foam count --method layers --time-limit 0.05 --shape cuboid:3x1x1 " + kData +
                "foam/happy-cube-little-genius.txt",
            &status);
  EXPECT_EQ(status, 4) << out;
  EXPECT_NE(out.find("no counts before its last layer"), std::string::npos) << out;
}

// `--by both` gives, from one count, the counts of `--by identity` and of
// `--by shape`, in two rows and two results, by the search and by layers;
// it is refused where it cannot be one count.
TEST(FoamShapeCli, ByBothGivesTheCountsByIdentityAndByShape) {
  const std::string job = "--shape cuboid:2x1x1 --colours nature,fruits,animals " + kData +
                          "foam/happy-cube-little-genius.txt";
  for (const std::string method : {"search", "layers"}) {
    std::map<std::string, Json> counts;
    for (const std::string by : {"both", "identity", "shape"}) {
      const auto program = testing::run_cubenum("foam count --method " + method + " --by " + by +
                                                " --json - " + job);
      ASSERT_EQ(program.status, 0) << program.output;
      const Json j = Json::parse(program.output.substr(program.output.find('{')));
      EXPECT_EQ(j["by"], by);
      EXPECT_EQ(j["results"].size(), by == "both" ? 2U : 1U);
      counts[by] = j["results"][0];
      if (by == "both") counts["both, by shape"] = j["results"][1];
    }
    EXPECT_EQ(counts["both"]["by"], "identity");
    EXPECT_EQ(counts["both, by shape"]["by"], "shape");
    for (const char* field : {"raw", "rotations", "symmetries", "piece_choices"}) {
      EXPECT_EQ(counts["both"][field], counts["identity"][field]) << method << " " << field;
      EXPECT_EQ(counts["both, by shape"][field], counts["shape"][field]) << method << " " << field;
      EXPECT_GT(counts["shape"][field].get<std::uint64_t>(), 0U) << field;
    }
    EXPECT_EQ(counts["both"]["method"], method);
  }
  int status = 0;
  const std::string table = run("foam count --by both " + job, &status);
  EXPECT_EQ(status, 0) << table;
  EXPECT_NE(table.find("\nidentity "), std::string::npos) << table;
  EXPECT_NE(table.find("\nshape "), std::string::npos) << table;
  const std::pair<std::string, std::string> refused[] = {
      {"foam count --by both " + kData + "foam/happy-cube-little-genius.txt", "only with --shape"},
      {"foam solve --by both --first 1 " + job, "only for foam count --shape"},
      {"foam count --by both --direct " + job, "--direct"}};
  for (const auto& [command, why] : refused) {
    const std::string out = run(command, &status);
    EXPECT_EQ(status, 2) << command << "\n" << out;
    EXPECT_NE(out.find(why), std::string::npos) << command << "\n" << out;
  }
}

TEST(FoamShapeCli, SolveWithoutFirstListsCanonicalAssemblies) {
  int status = 0;
  const std::string out =
      run("foam solve --shape cuboid:2x1x1 --colours blue,green --list 3 "
          "--json - " +
              kData + "foam/happy-cube-marble.txt",
          &status);
  ASSERT_EQ(status, 0) << out;
  const Json j = Json::parse(out);
  // 80 raw assemblies, 5 up to the 16 symmetries (the naive cover and
  // Burnside tests above check these counts).
  const Json& r = j["results"][0];
  EXPECT_EQ(r["raw"], 80);
  EXPECT_EQ(r["symmetries"], 5);
  EXPECT_EQ(r["solutions"].size(), 3U);
  EXPECT_EQ(r["solutions"][0].size(), 10U);
}

TEST(FoamShapeCli, BadShapeIsAnErrorWithFileAndLine) {
  const std::string bad = ::testing::TempDir() + "bad_shape.txt";
  std::ofstream(bad) << "# a shape\ncube 0 0 0\ncube 1 1 zero\n";
  int status = 0;
  const std::string out =
      run("foam count --shape " + bad + " " + kData + "foam/smart-cube.txt", &status);
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("bad_shape.txt:3: coordinate 'zero' is not an integer"), std::string::npos)
      << out;
}

}  // namespace
}  // namespace cubenum::puzzles
