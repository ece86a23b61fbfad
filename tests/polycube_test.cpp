// The polycube engine (search/voxel_cover.hpp) and the text format
// (puzzles/polycube.hpp): published counts of the classic puzzles, a naive
// exact cover written here (no bitmasks, no symmetry breaking, classes by
// brute-force canonical forms) on small cases, thread-count invariance, and
// the reader's errors.
#include "cubenum/puzzles/polycube.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/search/voxel_cover.hpp"
#include "run_cubenum.hpp"
#include "scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using cubenum::polycube::Piece;
using cubenum::polycube::Problem;
using cubenum::polycube::Voxel;
using cubenum::search::CellChoice;
using cubenum::search::CoverCounts;
using cubenum::search::VoxelCover;

const std::string kData = CUBENUM_DATA_DIR;

Problem load(const std::string& name) {
  return cubenum::polycube::read_polycube_text(kData + "/polycubes/" + name).problems.at(0);
}

VoxelCover cover_of(const Problem& p, CellChoice choice) {
  VoxelCover cover(p, p.name);
  cover.set_cell_choice(choice);
  return cover;
}

CoverCounts count(const Problem& p, CellChoice choice = CellChoice::automatic) {
  return cover_of(p, choice).count();
}

// The two rules for the next cell; every count must be the same with each.
const CellChoice kChoices[] = {CellChoice::lowest, CellChoice::fewest_fits};

// ------------------------------------------------------------ published counts

struct Classic {
  const char* file;
  std::uint64_t symmetries;  // the published count, up to the target's symmetries
  int group;                 // the target's symmetries: raw = symmetries x group here
};

// Sources in each data file's header: Soma (Conway and Guy; Winning Ways),
// the pentomino rectangles (Haselgrove; Golomb, Polyominoes) and boxes
// (Bouwkamp; Golomb). In every one no assembly is symmetric, so the raw
// count is the published one times the group's order: Soma 11,520 = 240 x 48.
class ClassicCounts : public ::testing::TestWithParam<std::tuple<Classic, CellChoice>> {};

TEST_P(ClassicCounts, ArePublishedOnes) {
  const auto [c, choice] = GetParam();
  const CoverCounts counts = count(load(c.file), choice);
  EXPECT_TRUE(counts.complete);
  EXPECT_EQ(counts.symmetries, c.symmetries);
  EXPECT_EQ(counts.raw, c.symmetries * c.group);
}

INSTANTIATE_TEST_SUITE_P(
    Polycube, ClassicCounts,
    ::testing::Combine(::testing::Values(Classic{"soma.txt", 240, 48},
                                         Classic{"pentomino-6x10.txt", 2339, 4},
                                         Classic{"pentomino-5x12.txt", 1010, 4},
                                         Classic{"pentomino-4x15.txt", 368, 4},
                                         Classic{"pentomino-3x20.txt", 2, 4},
                                         Classic{"pentomino-2x5x6.txt", 264, 8},
                                         Classic{"pentomino-2x3x10.txt", 12, 8}),
                       ::testing::ValuesIn(kChoices)));

// The 4x4x4 puzzles, with the automatic rule only (the lowest cell takes
// 45 s on the Bedlam cube): the published counts up to rotations, from each
// file's header (the Bedlam cube's maker; the Tetris Cube's package, and
// Scott Kurowski's exhaustive search); as above, no assembly is symmetric,
// so the raw count is 24 times the classes.
TEST(Polycube, BedlamCubeIsThePublishedCount) {
  const CoverCounts c = count(load("bedlam.txt"));
  EXPECT_EQ(c.rotations, 19186U);
  EXPECT_EQ(c.raw, 19186U * 24);
}

TEST(Polycube, TetrisCubeIsThePublishedCount) {
  const CoverCounts c = count(load("tetris-cube.txt"));
  EXPECT_EQ(c.rotations, 9839U);
  EXPECT_EQ(c.raw, 9839U * 24);
}

// The automatic rule: the set search for solid targets, the lowest cell
// for flat boards; asked for, the set search anywhere.
TEST(Polycube, CellChoiceFollowsTheTarget) {
  EXPECT_EQ(VoxelCover(load("soma.txt"), "soma").cell_choice(), CellChoice::fewest_fits);
  EXPECT_EQ(VoxelCover(load("bedlam.txt"), "bedlam").cell_choice(), CellChoice::fewest_fits);
  VoxelCover flat(load("pentomino-6x10.txt"), "6x10");
  EXPECT_EQ(flat.cell_choice(), CellChoice::lowest);
  flat.set_cell_choice(CellChoice::fewest_fits);
  EXPECT_EQ(flat.cell_choice(), CellChoice::fewest_fits);
  Problem holes = load("soma.txt");
  holes.variable.push_back({3, 0, 0});
  EXPECT_EQ(VoxelCover(holes, "holes").cell_choice(), CellChoice::fewest_fits);
}

TEST(Polycube, SomaMirrorPiecesMakeReflectionsTheSameAssembly) {
  const VoxelCover soma(load("soma.txt"), "soma");
  EXPECT_TRUE(soma.mirror_pieces());  // A and B are each other's mirror images
  EXPECT_EQ(soma.rotation_order(), 24);
  EXPECT_EQ(soma.symmetry_order(), 48);
  EXPECT_EQ(soma.count().rotations, 480U);  // 240 classes, each two under rotations
}

// ------------------------------------------------------------ a naive cross-check

using Shape = std::vector<Voxel>;

// The 48 symmetries of the cube as signed permutation matrices, made here
// apart from the library's.
std::vector<std::array<std::array<int, 3>, 3>> all_matrices() {
  std::vector<std::array<std::array<int, 3>, 3>> all;
  std::array<int, 3> perm = {0, 1, 2};
  do {
    for (int signs = 0; signs < 8; ++signs) {
      std::array<std::array<int, 3>, 3> m{};
      for (int i = 0; i < 3; ++i) m[i][perm[i]] = signs >> i & 1 ? -1 : 1;
      all.push_back(m);
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  return all;
}

int determinant(const std::array<std::array<int, 3>, 3>& m) {
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
         m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

Voxel times(const std::array<std::array<int, 3>, 3>& m, const Voxel& v) {
  Voxel r{};
  for (int i = 0; i < 3; ++i) r[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
  return r;
}

Shape moved_to_origin(Shape s) {
  Voxel low = s.front();
  for (const Voxel& v : s)
    for (int a = 0; a < 3; ++a) low[a] = std::min(low[a], v[a]);
  for (Voxel& v : s)
    for (int a = 0; a < 3; ++a) v[a] -= low[a];
  std::sort(s.begin(), s.end());
  return s;
}

// The least image of a shape under the rotations (reflections too if asked).
Shape least_image(const Shape& s, bool reflections) {
  Shape best;
  for (const auto& m : all_matrices()) {
    if (determinant(m) < 0 && !reflections) continue;
    Shape image;
    for (const Voxel& v : s) image.push_back(times(m, v));
    image = moved_to_origin(image);
    if (best.empty() || image < best) best = image;
  }
  return best;
}

// An assembly: the pieces as (shape up to rotation, voxels), sorted.
using Assembly = std::vector<std::pair<Shape, Shape>>;

struct NaiveCounts {
  std::uint64_t raw = 0, rotations = 0, symmetries = 0;
};

Shape mirrored(const Shape& s) {
  Shape m;
  for (const Voxel& v : s) m.push_back({-v[0], v[1], v[2]});
  return m;
}

// With congruent pieces told apart (BurrTools' count), the piece a piece's
// mirror image is, by the definition of docs/PUZZLES.md: itself where it
// is its own mirror image, else the k-th listed copy of its mirror shape
// for the k-th copy of its shape (-1: none).
std::vector<int> mirror_partners(const Problem& p) {
  std::vector<Shape> shapes;
  for (const Piece& piece : p.pieces) shapes.push_back(least_image(piece.cubes, false));
  const auto copy = [&](std::size_t t) {
    return std::count(shapes.begin(), shapes.begin() + static_cast<long>(t), shapes[t]);
  };
  std::vector<int> partner(shapes.size(), -1);
  for (std::size_t t = 0; t < shapes.size(); ++t) {
    const Shape image = least_image(mirrored(p.pieces[t].cubes), false);
    for (std::size_t u = 0; u < shapes.size(); ++u)
      if (image == shapes[t] ? u == t : shapes[u] == image && copy(u) == copy(t))
        partner[t] = static_cast<int>(u);
  }
  return partner;
}

// Every assembly by brute force: fill the least open voxel with every
// orientation of every piece at every offset that covers it, or leave it
// empty if it may be; the assemblies into a set; classes by least images
// (a reflected assembly counts as the same only if it is in the set).
// `apart`: congruent pieces listed apart are told apart (a piece is named
// by its place in the list, not by its shape).
NaiveCounts naive_count(const Problem& p, bool apart = false) {
  const auto label = [](std::size_t t) { return Shape{{static_cast<int>(t), -1, -1}}; };
  const std::vector<int> partner = mirror_partners(p);
  std::set<Voxel> target(p.fixed.begin(), p.fixed.end());
  target.insert(p.variable.begin(), p.variable.end());
  const std::set<Voxel> variable(p.variable.begin(), p.variable.end());
  std::vector<std::vector<Shape>> orientations(p.pieces.size());
  for (std::size_t t = 0; t < p.pieces.size(); ++t) {
    std::set<Shape> seen;
    for (const auto& m : all_matrices())
      if (determinant(m) > 0) {
        Shape image;
        for (const Voxel& v : p.pieces[t].cubes) image.push_back(times(m, v));
        seen.insert(moved_to_origin(image));
      }
    orientations[t].assign(seen.begin(), seen.end());
  }
  std::set<Assembly> found;
  std::map<Voxel, int> owner;  // voxel -> piece index, or -1: left empty
  std::vector<int> used(p.pieces.size(), 0);
  std::vector<std::pair<int, Shape>> placed;
  std::function<void()> fill = [&] {
    auto open =
        std::find_if(target.begin(), target.end(), [&](const Voxel& v) { return !owner.count(v); });
    if (open == target.end()) {
      for (std::size_t t = 0; t < p.pieces.size(); ++t)
        if (used[t] < p.pieces[t].min_count) return;
      Assembly a;
      for (const auto& [t, voxels] : placed) {
        Shape sorted = voxels;
        std::sort(sorted.begin(), sorted.end());
        a.emplace_back(apart ? label(t) : least_image(p.pieces[t].cubes, false), sorted);
      }
      std::sort(a.begin(), a.end());
      found.insert(a);
      return;
    }
    const Voxel cell = *open;
    for (std::size_t t = 0; t < p.pieces.size(); ++t) {
      if (used[t] >= p.pieces[t].max_count) continue;
      for (const Shape& o : orientations[t])
        for (const Voxel& anchor : o) {
          Shape voxels;
          bool fits = true;
          for (const Voxel& c : o) {
            const Voxel v = {c[0] - anchor[0] + cell[0], c[1] - anchor[1] + cell[1],
                             c[2] - anchor[2] + cell[2]};
            if (!target.count(v) || owner.count(v)) fits = false;
            voxels.push_back(v);
          }
          if (!fits) continue;
          for (const Voxel& v : voxels) owner[v] = static_cast<int>(t);
          ++used[t];
          placed.emplace_back(static_cast<int>(t), voxels);
          fill();
          placed.pop_back();
          --used[t];
          for (const Voxel& v : voxels) owner.erase(v);
        }
    }
    if (variable.count(cell)) {
      owner[cell] = -1;
      fill();
      owner.erase(cell);
    }
  };
  fill();

  NaiveCounts n;
  n.raw = found.size();
  for (const bool reflections : {false, true}) {
    std::set<Assembly> classes;
    for (const Assembly& a : found) {
      Assembly least;
      for (const auto& m : all_matrices()) {
        if (determinant(m) < 0 && !reflections) continue;
        // g maps the target onto itself (fixed onto fixed, variable onto
        // variable) after moving it back to the target's least corner.
        Shape all_target(target.begin(), target.end()), image;
        for (const Voxel& v : all_target) image.push_back(times(m, v));
        Voxel low = image.front(), target_low = all_target.front();
        for (const Voxel& v : image)
          for (int i = 0; i < 3; ++i) low[i] = std::min(low[i], v[i]);
        for (const Voxel& v : all_target)
          for (int i = 0; i < 3; ++i) target_low[i] = std::min(target_low[i], v[i]);
        const auto map = [&](const Voxel& v) {
          Voxel w = times(m, v);
          for (int i = 0; i < 3; ++i) w[i] += target_low[i] - low[i];
          return w;
        };
        bool keeps = true;
        for (const Voxel& v : target)
          keeps = keeps && variable.count(map(v)) == variable.count(v) && target.count(map(v));
        if (!keeps) continue;
        Assembly b;
        bool labelled = true;
        for (const auto& [shape, voxels] : a) {
          Shape moved;
          for (const Voxel& v : voxels) moved.push_back(map(v));
          std::sort(moved.begin(), moved.end());
          if (!apart) {
            b.emplace_back(least_image(determinant(m) < 0 ? mirrored(shape) : shape, false), moved);
            continue;
          }
          const int t =
              determinant(m) < 0 ? partner[static_cast<std::size_t>(shape[0][0])] : shape[0][0];
          labelled = labelled && t >= 0;
          b.emplace_back(label(static_cast<std::size_t>(std::max(t, 0))), moved);
        }
        if (!labelled) continue;
        std::sort(b.begin(), b.end());
        // A reflection identifies the two only where its image is an
        // assembly of the puzzle itself.
        if (!found.count(b)) continue;
        if (least.empty() || b < least) least = b;
      }
      classes.insert(least);
    }
    (reflections ? n.symmetries : n.rotations) = classes.size();
  }
  return n;
}

Piece piece(const std::string& name, Shape cubes, int least = 1, int most = 1) {
  return {name, std::move(cubes), least, most};
}

Shape box(int a, int b, int c) {
  Shape s;
  for (int z = 0; z < c; ++z)
    for (int y = 0; y < b; ++y)
      for (int x = 0; x < a; ++x) s.push_back({x, y, z});
  return s;
}

const Shape kV = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
const Shape kL = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}};
const Shape kT = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 1, 0}};
const Shape kZ = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {2, 1, 0}};
const Shape kA = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 1}};
const Shape kB = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 1, 1}};
const Shape kI2 = {{0, 0, 0}, {1, 0, 0}};

std::vector<Problem> small_problems() {
  std::vector<Problem> all;
  // Several kinds, one twice (identical pieces, not told apart).
  all.push_back({"V V L T Z in 3x3x2",
                 {piece("V", kV, 2, 2), piece("L", kL), piece("T", kT), piece("Z", kZ)},
                 box(3, 3, 2),
                 {}});
  // The chiral pair: reflections join the group; some assemblies are symmetric.
  all.push_back({"A B I2 I2 in 3x2x2",
                 {piece("A", kA), piece("B", kB), piece("I2", kI2, 2, 2)},
                 box(3, 2, 2),
                 {}});
  // A chiral piece without its mirror image: reflections do not.
  all.push_back({"A A in 2x2x2", {piece("A", kA, 2, 2)}, box(2, 2, 2), {}});
  // Counts in ranges and voxels that may stay empty.
  all.push_back({"ranges, variable voxels",
                 {piece("V", kV, 0, 2), piece("I2", kI2, 1, 3), piece("L", kL, 0, 1)},
                 box(3, 3, 1),
                 {{0, 0, 1}, {1, 0, 1}, {2, 0, 1}}});
  // A target that is not a box, the chiral pair and variable voxels.
  all.push_back({"A B V V, a cube and a half",
                 {piece("A", kA), piece("B", kB), piece("V", kV, 2, 2)},
                 box(2, 2, 2),
                 {{0, 0, 2}, {1, 0, 2}, {0, 1, 2}, {1, 1, 2}, {2, 0, 0}, {2, 1, 0}}});
  // A chiral piece without its mirror image, in a range: an assembly
  // without it is the same as its mirror image, one with it is not.
  all.push_back({"A 0-1, V, I2 in 3x2x2",
                 {piece("A", kA, 0, 1), piece("V", kV, 0, 4), piece("I2", kI2, 0, 6)},
                 box(3, 2, 2),
                 {}});
  // Congruent pieces listed apart (L and its planar mirror image J, turned
  // over in space) are identical pieces.
  const Shape kJ = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {2, 1, 0}};
  all.push_back({"L and J in 4x2x1", {piece("L", kL), piece("J", kJ)}, box(4, 2, 1), {}});
  return all;
}

TEST(PolycubeNaive, SmallProblemsAgreeWithBruteForce) {
  for (const Problem& p : small_problems()) {
    const NaiveCounts naive = naive_count(p);
    for (const CellChoice choice : kChoices) {
      const CoverCounts fast = count(p, choice);
      EXPECT_EQ(fast.raw, naive.raw) << p.name;
      EXPECT_EQ(fast.rotations, naive.rotations) << p.name;
      EXPECT_EQ(fast.symmetries, naive.symmetries) << p.name;
    }
  }
}

// The cases above would agree trivially if they had no assemblies.
TEST(PolycubeNaive, CasesAreNotTrivial) {
  for (const Problem& p : small_problems()) EXPECT_GT(naive_count(p).raw, 0U) << p.name;
}

// Two congruent pieces that are their own mirror images, listed apart, in
// a box of their size: BurrTools' count tells them apart. By hand: two unit
// cubes a, b in a 2x1x1 box are a|b and b|a, one class (a half turn swaps
// them); three make 3! = 6 orders, paired by the end-to-end turn: 3 classes.
// (Was 0 and 1: each piece's mirror image was taken to be the last copy.)
TEST(PolycubeNaive, CongruentPiecesListedApartAreTheirOwnMirrorImages) {
  for (const auto& [n, classes] : {std::pair{2, 1U}, {3, 3U}}) {
    Problem p{"unit cubes", {}, box(n, 1, 1), {}};
    for (int i = 0; i < n; ++i) p.pieces.push_back(piece("c" + std::to_string(i), {{0, 0, 0}}));
    EXPECT_EQ(VoxelCover(p, p.name, true).count().symmetries, classes) << n;
    EXPECT_EQ(naive_count(p, true).symmetries, classes) << n;
  }
}

// A random connected piece of two to four of the voxels `left` (fewer
// where they run out), taken from them.
Shape random_cut(std::mt19937& rng, std::set<Voxel>& left) {
  Shape piece = {*std::next(left.begin(), static_cast<long>(rng() % left.size()))};
  left.erase(piece[0]);
  for (int tries = 0, size = 2 + static_cast<int>(rng() % 3);
       static_cast<int>(piece.size()) < size && tries < 20; ++tries) {
    Voxel v = piece[rng() % piece.size()];
    v[rng() % 3] += rng() % 2 == 0 ? 1 : -1;
    if (left.erase(v) > 0) piece.push_back(v);
  }
  return piece;
}

// A random small puzzle with at least one assembly: a box of up to 8
// voxels, maybe less one, cut into at most six random pieces; some
// turned into their mirror images, some counted in ranges, some listed
// twice apart; maybe a voxel that may stay empty, with a cube that may
// fill it.
Problem random_problem(std::mt19937& rng, int number) {
  Problem p;
  p.name = "random " + std::to_string(number);
  Shape target;
  while (target.empty() || target.size() > 8)
    target = box(1 + static_cast<int>(rng() % 3), 1 + static_cast<int>(rng() % 3),
                 1 + static_cast<int>(rng() % 2));
  if (target.size() > 2 && rng() % 4 == 0) target.erase(target.begin() + rng() % target.size());
  // At most six pieces: the brute force tries every order of congruent
  // pieces (12 unit cubes would be 12! orders).
  std::vector<Shape> cut;
  for (std::set<Voxel> left; cut.empty() || cut.size() > 6;) {
    cut.clear();
    left.insert(target.begin(), target.end());
    while (!left.empty()) cut.push_back(random_cut(rng, left));
  }
  for (std::size_t k = 0; k < cut.size(); ++k) {
    const Shape cubes = rng() % 5 == 0 ? mirrored(cut[k]) : cut[k];
    const bool range = rng() % 5 == 0;
    p.pieces.push_back(piece("p" + std::to_string(k), cubes, range ? 0 : 1, range ? 2 : 1));
    if (rng() % 6 == 0) p.pieces.push_back(piece("q" + std::to_string(k), cubes, 0, 1));
  }
  if (target.size() > 2 && rng() % 4 == 0) {
    const auto at = target.begin() + rng() % target.size();
    p.variable.push_back(*at);
    target.erase(at);
    p.pieces.push_back(piece("u", {{0, 0, 0}}, 0, 1));
  }
  p.fixed = target;
  return p;
}

// Issue 33's fuzzing, kept: seeded random puzzles, every count (and
// BurrTools' count, congruent pieces apart) against the brute force above.
TEST(PolycubeNaive, RandomPuzzlesAgreeWithBruteForce) {
  std::mt19937 rng(20261127);
  int with_assemblies = 0;
  constexpr int kPuzzles = 400;
  for (int i = 0; i < kPuzzles; ++i) {
    const Problem p = random_problem(rng, i);
    std::string text;
    for (const Piece& piece : p.pieces) {
      text += fmt::format("piece {} {}-{}\n", piece.name, piece.min_count, piece.max_count);
      for (const Voxel& v : piece.cubes) text += fmt::format("cube {} {} {}\n", v[0], v[1], v[2]);
    }
    text += "target\n";
    for (const Voxel& v : p.fixed) text += fmt::format("cube {} {} {}\n", v[0], v[1], v[2]);
    for (const Voxel& v : p.variable) text += fmt::format("variable {} {} {}\n", v[0], v[1], v[2]);
    const NaiveCounts naive = naive_count(p), naive_apart = naive_count(p, true);
    with_assemblies += naive.raw > 0 ? 1 : 0;
    const CoverCounts fast = count(p);
    EXPECT_EQ(fast.raw, naive.raw) << text;
    EXPECT_EQ(fast.rotations, naive.rotations) << text;
    EXPECT_EQ(fast.symmetries, naive.symmetries) << text;
    const CoverCounts fast_apart = VoxelCover(p, p.name, true).count();
    EXPECT_EQ(fast_apart.raw, naive_apart.raw) << text;
    EXPECT_EQ(fast_apart.symmetries, naive_apart.symmetries) << text;
  }
  // Not trivially agreeing on empty puzzles (most have assemblies: each
  // is cut from its box, though mirrored pieces may no longer fit).
  EXPECT_GT(with_assemblies, kPuzzles / 2);
}

TEST(Polycube, SameCountsAtOneAndFourThreads) {
  const Problem p = load("pentomino-2x3x10.txt");
  CoverCounts one, four;
  {
    cubenum::ThreadLimit limit(1);
    one = count(p);
  }
  {
    cubenum::ThreadLimit limit(4);
    four = count(p);
  }
  EXPECT_EQ(one.raw, four.raw);
  EXPECT_EQ(one.rotations, four.rotations);
  EXPECT_EQ(one.symmetries, four.symmetries);
  EXPECT_EQ(one.nodes, four.nodes);
}

TEST(Polycube, FirstGivesDistinctClassesThatAreAssemblies) {
  for (const char* file : {"pentomino-6x10.txt", "pentomino-2x5x6.txt"})
    for (const CellChoice choice : kChoices) {
      const Problem p = load(file);
      const auto first = cover_of(p, choice).first(5);
      ASSERT_EQ(first.size(), 5U);
      for (const auto& assembly : first) {
        std::set<Voxel> covered;
        for (const auto& placed : assembly)
          for (const Voxel& v : placed.voxels) EXPECT_TRUE(covered.insert(v).second);
        EXPECT_EQ(covered, std::set<Voxel>(p.fixed.begin(), p.fixed.end()));
        EXPECT_EQ(assembly.size(), 12U);
      }
    }
  // All 2 classes of the 3x20 and 12 of the 2x3x10, no more.
  for (const CellChoice choice : kChoices) {
    EXPECT_EQ(cover_of(load("pentomino-3x20.txt"), choice).first(10).size(), 2U);
    EXPECT_EQ(cover_of(load("pentomino-2x3x10.txt"), choice).first(20).size(), 12U);
  }
}

// ------------------------------------------------------------ the text format

// Into one scratch folder, emptied once per test program.
std::string write(const std::string& name, const std::string& text) {
  static const fs::path dir = cubenum::testing::scratch("polycube-text");
  const fs::path path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

TEST(PolycubeText, LayerPicturesCountsAndVariableVoxels) {
  const auto file = cubenum::polycube::read_polycube_text(write("ok.txt",
                                                                "# a comment\n"
                                                                "name Two bars\n"
                                                                "piece bar 1-2   # a range\n"
                                                                "layer\n"
                                                                "# a comment in a layer\n"
                                                                "##\n"
                                                                "target\n"
                                                                "layer\n"
                                                                "##\n"
                                                                "++\n"
                                                                "layer\n"
                                                                "#.\n"));
  ASSERT_EQ(file.problems.size(), 1U);
  const Problem& p = file.problems[0];
  EXPECT_EQ(p.name, "Two bars");
  ASSERT_EQ(p.pieces.size(), 1U);
  EXPECT_EQ(p.pieces[0].min_count, 1);
  EXPECT_EQ(p.pieces[0].max_count, 2);
  EXPECT_EQ(p.pieces[0].cubes, (Shape{{0, 0, 0}, {1, 0, 0}}));
  EXPECT_EQ(p.fixed, (Shape{{0, 0, 0}, {1, 0, 0}, {0, 0, 1}}));
  EXPECT_EQ(p.variable, (Shape{{0, 1, 0}, {1, 1, 0}}));
}

TEST(PolycubeText, BadFilesNameTheLineAndTheProblem) {
  const std::pair<std::string, std::string> cases[] = {
      {"piece a\ncube 0 0\ntarget\nbox 1x1x1\n", ":2: expected 'cube X Y Z'"},
      {"piece a\ncube 0 0 x\n", ":2: coordinate 'x' is not an integer"},
      {"piece a\ncube 0 0 0\ncube 0 0 0\n", ":3: cube (0,0,0) given twice (first on line 2)"},
      {"piece a 3-1\n", ":1: count range '3-1' runs backwards"},
      {"piece a\ncube 0 0 0\npiece a\n", ":3: piece 'a' named twice"},
      {"piece a\npiece b\n", ":1: piece 'a' has no cubes"},
      {"piece a\ncube 0 0 0\n", ": no target"},
      {"piece a\ncube 0 0 0\ntarget\nbox 2x2\n", ":4: expected 'box AxBxC'"},
      {"piece a\ncube 0 0 0\nvariable 1 1 1\n", ":3: 'variable' voxels belong to the target"},
      {"cube 0 0 0\n", ":1: a cube before any 'piece' or 'target'"},
      {"shape a\n", ":1: unknown keyword 'shape'"},
      {"piece a\nlayer\n#+\n", ":3: '+' (a voxel that may stay empty) belongs to the target"},
      {"target\nbox 1x1x1\npiece a\n", ":3: a piece after the target"},
      // "##. # note": the row "##.#", or "##." and a note? Neither guessed.
      {"piece a\nlayer\n##. # note\n", ":3: a picture row with other text after it"},
      {"piece a\nlayer\n# #. note\n", ":3: a picture row with other text after it"},
  };
  int n = 0;
  for (const auto& [text, message] : cases) {
    const std::string path = write("bad" + std::to_string(++n) + ".txt", text);
    try {
      cubenum::polycube::read_polycube_text(path);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const cubenum::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(path + message), std::string::npos) << e.what();
    }
  }
}

// ------------------------------------------------------------ the program

TEST(PolycubeCli, CountWritesTheFieldsAndSolveDraws) {
  const fs::path dir = cubenum::testing::scratch("polycube-cli");
  const std::string json = (dir / "soma.json").string(), svg = (dir / "soma.svg").string();
  auto run = cubenum::testing::run_cubenum("polycube count " + kData +
                                           "/polycubes/soma.txt --json " + json);
  ASSERT_EQ(run.status, 0) << run.output;
  std::ifstream in(json);
  const auto j = nlohmann::json::parse(in);
  ASSERT_EQ(j["results"].size(), 1U);
  EXPECT_EQ(j["results"][0]["raw"], 11520);
  EXPECT_EQ(j["results"][0]["symmetries"], 240);
  EXPECT_EQ(j["results"][0]["complete"], true);
  run = cubenum::testing::run_cubenum("polycube solve " + kData +
                                      "/polycubes/pentomino-6x10.txt --first 2 --svg " + svg);
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("#2"), std::string::npos) << run.output;
  EXPECT_TRUE(fs::file_size(svg) > 1000);
  // The 3x20's two classes, listed after the count.
  const std::string strip = (dir / "strip.json").string();
  run = cubenum::testing::run_cubenum("polycube count " + kData +
                                      "/polycubes/pentomino-3x20.txt --list 5 --json " + strip);
  ASSERT_EQ(run.status, 0) << run.output;
  std::ifstream strip_in(strip);
  EXPECT_EQ(nlohmann::json::parse(strip_in)["results"][0]["assemblies"].size(), 2U);
  run =
      cubenum::testing::run_cubenum("polycube count " + kData + "/polycubes/soma.txt --problem 2");
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("--problem takes 1..1"), std::string::npos) << run.output;
}

// A count stopped by --time-limit in slices, each resumed from the
// checkpoint (on 1 thread and 2 by turns), gives the uninterrupted counts;
// another puzzle's --resume of it is refused.
TEST(PolycubeCli, CountInCheckpointedSlicesIsTheWholeCount) {
  const fs::path dir = cubenum::testing::scratch("polycube-slices");
  const std::string count = "polycube count " + kData + "/polycubes/pentomino-2x5x6.txt";
  const std::string whole_json = (dir / "whole.json").string(),
                    out = (dir / "sliced.json").string();
  const std::string ck = (dir / "ck").string();
  auto run = cubenum::testing::run_cubenum(count + " --json " + whole_json);
  ASSERT_EQ(run.status, 0) << run.output;
  const auto counts = [](const std::string& json) {
    std::ifstream in(json);
    const auto r = nlohmann::json::parse(in)["results"][0];
    return std::vector<std::uint64_t>{r["raw"], r["rotations"], r["symmetries"], r["nodes"]};
  };
  double limit = run.seconds / 20;  // a tenth longer each slice
  run = cubenum::testing::run_cubenum(count + " --checkpoint " + ck +
                                      " --checkpoint-every 0.01 --time-limit " +
                                      std::to_string(limit) + " --json " + out);
  ASSERT_EQ(run.status, 4) << run.output;
  int slices = 1;
  while (run.status == 4 && slices < 100) {
    limit *= 1.1;
    const std::string threads = slices % 2 == 0 ? " --threads 2" : " --threads 1";
    run = cubenum::testing::run_cubenum(count + threads + " --resume " + ck +
                                        " --checkpoint-every 0.01 --time-limit " +
                                        std::to_string(limit) + " --json " + out);
    ++slices;
  }
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_GT(slices, 1);
  EXPECT_EQ(counts(out), counts(whole_json));
  run = cubenum::testing::run_cubenum("polycube count " + kData +
                                      "/polycubes/pentomino-6x10.txt --resume " + ck);
  EXPECT_EQ(run.status, 2) << run.output;
  // A checkpoint of the search before its rule for the next cell (no
  // "search" in its identity) split the count into other subtrees.
  for (const auto& part : fs::directory_iterator(ck)) {
    const fs::path file = part.path() / "checkpoint.json";
    if (!fs::exists(file)) continue;
    std::ifstream in(file);
    auto json = nlohmann::json::parse(in);
    json["identity"].erase("search");
    std::ofstream(file) << json.dump(2);
  }
  run = cubenum::testing::run_cubenum(count + " --resume " + ck);
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("search is missing"), std::string::npos) << run.output;
}

// Counts that BurrTools' burrTxt -q (commit b72a71d, built apart, on the
// same puzzles converted by tools/xmpuzzle-from-text) printed: 61 where a
// chiral piece without its mirror image comes in a range (the mirror
// image of an assembly without it is the same assembly), and 10 where two
// congruent pieces are listed apart (BurrTools tells them apart; cubenum
// counts them as identical, 7, and gives BurrTools' count beside).
TEST(PolycubeCli, BurrToolsCountsOfTheSamePuzzles) {
  const fs::path dir = cubenum::testing::scratch("polycube-burrtools");
  const std::string screw = "cube 0 0 0\ncube 1 0 0\ncube 0 1 0\ncube 1 0 1\n";
  const std::string kBar = "cube 0 0 0\ncube 1 0 0\n";
  const std::string ranges =
      write("ranges.txt", "piece A 0-1\n" + screw +
                              "piece V 0-4\ncube 0 0 0\ncube 1 0 0\ncube 0 1 0\n"
                              "piece I2 0-6\n" +
                              kBar + "target\nbox 3x2x2\n");
  const std::string apart = write("apart.txt", "piece A\n" + screw + "piece A2\n" + screw +
                                                   "piece I2 2\n" + kBar + "target\nbox 3x2x2\n");
  const auto fields = [&](const std::string& file) {
    const std::string json = (dir / "out.json").string();
    const auto run = cubenum::testing::run_cubenum("polycube count " + file + " --json " + json);
    EXPECT_EQ(run.status, 0) << run.output;
    std::ifstream in(json);
    return nlohmann::json::parse(in)["results"][0];
  };
  const auto r = fields(ranges);
  EXPECT_EQ(r["raw"], 596);
  EXPECT_EQ(r["symmetries"], 61);
  EXPECT_EQ(r["burrtools"], 61);
  const auto a = fields(apart);
  EXPECT_EQ(a["symmetries"], 7);
  EXPECT_EQ(a["burrtools"], 10);
}

}  // namespace
