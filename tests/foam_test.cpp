// Foam cubes: the parser, the geometry, and the engine's counts against a
// deliberately naive voxel exact cover written here, Burnside's lemma, and
// the real program.
#include "cubenum/puzzles/foam.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "cubenum/core/error.hpp"
#include "cubenum/report/json.hpp"
#include "run_cubenum.hpp"

namespace cubenum::puzzles {
namespace {

const std::string kData = std::string(CUBENUM_DATA_DIR "/foam/");
const std::vector<std::string> kSetFiles = {
    "construct.txt",        "happy-cube-little-genius.txt", "happy-cube-marble.txt",
    "happy-cube-micro.txt", "happy-cube-original.txt",      "happy-cube-profi.txt",
    "smart-cube.txt"};

FoamSet parse(const std::string& text) {
  std::istringstream in(text);
  return parse_foam_set(in, "test.txt", "test");
}

// The message of the InputError that parsing `text` throws.
std::string parse_error(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// ---------------------------------------------------------------- parser

TEST(FoamParser, ReadsTheReadmeExample) {
  // data/foam/README.md draws 0101001000101101 as these five rows.
  const FoamSet set = parse("# comment\n\nred 3 0101001000101101  # trailing comment\n");
  ASSERT_EQ(set.pieces.size(), 1U);
  EXPECT_EQ(set.pieces[0].colour, "red");
  EXPECT_EQ(set.pieces[0].index, 3);
  EXPECT_EQ(set.pieces[0].line, 3);
  EXPECT_EQ(foam_picture(set.pieces[0].grid), ".#.#.\n####.\n.####\n####.\n#.#..\n");
  EXPECT_EQ(foam_code(set.pieces[0].grid), "0101001000101101");
}

TEST(FoamParser, RejectsBadInputNamingFileAndLine) {
  EXPECT_EQ(parse_error("red 1 0101001000101101\nred 2 010100100010110\n"),
            "test.txt:2: piece code '010100100010110' has 15 characters, expected 16");
  EXPECT_EQ(parse_error("red 1 01010010001011012\n"),
            "test.txt:1: piece code '01010010001011012' has 17 characters, expected 16");
  EXPECT_EQ(parse_error("red 1 0101001000x01101\n"),
            "test.txt:1: piece code '0101001000x01101': character 11 is 'x', expected 0 or 1");
  // Corner 1 (top-left) filled, positions 2 and 16 empty: it would float.
  EXPECT_EQ(parse_error("red 1 1010001000101100\n"),
            "test.txt:1: piece code '1010001000101100': corner cell 1 is filled but not "
            "connected to the centre (both neighbouring border cells are empty)");
  EXPECT_EQ(parse_error("red 1 0010101000101100\n"),
            "test.txt:1: piece code '0010101000101100': corner cell 5 is filled but not "
            "connected to the centre (both neighbouring border cells are empty)");
  EXPECT_EQ(parse_error("# only comments\n\n"), "test.txt: no pieces in the file");
  EXPECT_EQ(parse_error("red 1 0101001000101101\nblue 1 0101001000101101\nred 1 "
                        "0010001000100010\n"),
            "test.txt:3: duplicate piece 'red 1' (first on line 1)");
  EXPECT_EQ(parse_error("red 0101001000101101\n"),
            "test.txt:1: expected '<colour> <index> <16 characters of 0/1>', got 'red "
            "0101001000101101'");
  EXPECT_EQ(parse_error("red x 0101001000101101\n"),
            "test.txt:1: piece index 'x' is not a positive integer");
  EXPECT_THROW(load_foam_set("/nonexistent/set.txt"), InputError);
}

TEST(FoamParser, EveryShippedSetParses) {
  for (const auto& file : kSetFiles) {
    const FoamSet set = load_foam_set(kData + file);
    EXPECT_EQ(set.pieces.size() % 6, 0U) << file;
  }
}

// ---------------------------------------------------------------- geometry

TEST(FoamGeometry, CubeShellHas98CellsAndFortyEightSymmetries) {
  const auto& s = foam_cube_surface();
  EXPECT_EQ(s.cell_count(), 98);
  std::map<std::size_t, int> by_faces;
  for (int c = 0; c < s.cell_count(); ++c) ++by_faces[s.faces_of(c).size()];
  EXPECT_EQ(by_faces[1], 54);  // 6 face centres of 3x3
  EXPECT_EQ(by_faces[2], 36);  // 12 edges of 3 cells
  EXPECT_EQ(by_faces[3], 8);   // corners
  EXPECT_EQ(s.symmetries().size(), 48U);
  EXPECT_EQ(s.rotation_count(), 24);
  // Mirrors turn every plate over; rotations never do.
  for (std::size_t i = 0; i < s.symmetries().size(); ++i)
    for (int f = 0; f < 6; ++f)
      EXPECT_EQ(s.symmetries()[i].frame_transform[f] >= 4, static_cast<int>(i) >= 24);
}

TEST(FoamGeometry, DistinctOrientations) {
  // Hand-checked: 0010001000100010 (a tab in the middle of each side) looks
  // the same in all 8 ways; 0101001000101101 in none.
  const auto& s = foam_cube_surface();
  const search::PlateAssembly engine(
      s, {{foam_grid("0010001000100010")}, {foam_grid("0101001000101101")}});
  EXPECT_EQ(engine.distinct_transforms(0), 1);
  EXPECT_EQ(engine.distinct_transforms(1), 8);
}

// ------------------------------------------------- the naive voxel counter

// The 5x5x5 cube's voxels on the shell, pieces laid on each face in all 8
// ways by plain coordinates, faces filled one by one, and every assembly
// kept as the exact list of (piece, voxels) per face. No masks, no buckets,
// no symmetry: only the definition of PUZZLES.md.
struct NaiveResult {
  std::set<std::vector<std::pair<int, std::vector<int>>>> assemblies;
  std::set<std::vector<int>> choices;
};

struct NaiveCover {
  std::vector<FoamPiece> pieces;
  std::vector<int> group;  // -1: no limit; else at most one piece per group
  // placements[face][piece]: voxel lists of the 8 ways (duplicates kept).
  std::vector<std::vector<std::vector<std::vector<int>>>> placements;
  std::array<std::vector<int>, 6> face_voxels;
  std::vector<int> last_face;  // voxel -> the last face (in filling order) it lies on
  std::vector<int> cover;
  std::vector<std::pair<int, std::vector<int>>> chosen;
  std::vector<bool> used;
  NaiveResult result;

  static int voxel(int x, int y, int z) { return (x * 5 + y) * 5 + z; }

  NaiveCover(std::vector<FoamPiece> p, std::vector<int> g)
      : pieces(std::move(p)), group(std::move(g)), last_face(125, -1), cover(125, 0) {
    for (int face = 0; face < 6; ++face) {
      const int axis = face % 3, level = face < 3 ? 0 : 4;
      const int a = axis == 0 ? 1 : 0, b = axis == 2 ? 1 : 2;  // the other two axes
      placements.emplace_back();
      for (const FoamPiece& piece : pieces) {
        placements[face].emplace_back();
        for (int way = 0; way < 8; ++way) {
          std::vector<int> voxels;
          for (int r = 0; r < 5; ++r)
            for (int c = 0; c < 5; ++c) {
              int rr = r, cc = c;
              for (int t = 0; t < way % 4; ++t) std::tie(rr, cc) = std::pair(cc, 4 - rr);
              if (way >= 4) cc = 4 - cc;
              if (!(piece.grid >> (r * 5 + c) & 1)) continue;
              std::array<int, 3> v{};
              v[axis] = level, v[a] = rr, v[b] = cc;
              voxels.push_back(voxel(v[0], v[1], v[2]));
            }
          std::sort(voxels.begin(), voxels.end());
          placements[face].back().push_back(voxels);
        }
      }
      for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 5; ++c) {
          std::array<int, 3> v{};
          v[axis] = level, v[a] = r, v[b] = c;
          face_voxels[face].push_back(voxel(v[0], v[1], v[2]));
          last_face[voxel(v[0], v[1], v[2])] = face;
        }
    }
    used.assign(pieces.size(), false);
  }

  // Every voxel whose last face was just filled must be covered exactly once.
  bool settled(int face) const {
    for (int v : face_voxels[face])
      if (last_face[v] == face && cover[v] != 1) return false;
    return true;
  }

  void fill(int face) {
    if (face == 6) {
      result.assemblies.insert(chosen);
      std::vector<int> choice;
      for (const auto& c : chosen) choice.push_back(c.first);
      std::sort(choice.begin(), choice.end());
      result.choices.insert(choice);
      return;
    }
    for (std::size_t p = 0; p < pieces.size(); ++p) {
      if (used[p]) continue;
      bool group_taken = false;
      for (const auto& c : chosen) group_taken |= group[p] >= 0 && group[c.first] == group[p];
      if (group_taken) continue;
      for (const auto& voxels : placements[face][p]) {
        bool clash = false;
        for (int v : voxels) clash |= cover[v] > 0;
        if (clash) continue;
        for (int v : voxels) ++cover[v];
        used[p] = true;
        chosen.emplace_back(static_cast<int>(p), voxels);
        if (settled(face)) fill(face + 1);
        chosen.pop_back();
        used[p] = false;
        for (int v : voxels) --cover[v];
      }
    }
  }
};

NaiveResult naive_count(const std::vector<FoamPiece>& pieces, std::vector<int> group) {
  NaiveCover cover(pieces, std::move(group));
  cover.fill(0);
  return std::move(cover.result);
}

TEST(FoamEngine, OwnCubesAgreeWithNaiveVoxelCover) {
  std::vector<FoamSet> sets;
  for (const auto& file : kSetFiles) sets.push_back(load_foam_set(kData + file));
  const auto problems = foam_problems(FoamChallenge::Own, FoamBy::Identity, sets);
  ASSERT_EQ(problems.size(), 32U);  // five series of six colours, two single sets
  for (const FoamProblem& p : problems) {
    const NaiveResult naive = naive_count(p.pieces, std::vector<int>(p.pieces.size(), -1));
    const FoamCount c = count_foam(p);
    EXPECT_EQ(c.raw, naive.assemblies.size()) << p.name;
    EXPECT_GT(c.raw, 0U) << p.name << ": every real set builds its own cube";
  }
}

TEST(FoamEngine, OnePerColourOriginalAgreesWithNaiveVoxelCover) {
  const FoamSet set = load_foam_set(kData + "happy-cube-original.txt");
  const auto problems = foam_problems(FoamChallenge::OnePerColour, FoamBy::Identity, {set});
  ASSERT_EQ(problems.size(), 1U);
  std::vector<int> colour;
  for (const FoamPiece& p : set.pieces)
    colour.push_back(static_cast<int>(&p - set.pieces.data()) / 6);
  const NaiveResult naive = naive_count(set.pieces, colour);
  const FoamCount c = count_foam(problems[0]);
  EXPECT_EQ(c.raw, naive.assemblies.size());
  EXPECT_EQ(c.piece_choices, naive.choices.size());
  // The seed's author found 21 piece choices (docs/PUZZLES.md).
  EXPECT_EQ(c.piece_choices, 21U);
}

// ------------------------------------------------------------- symmetry

// Burnside: orbits = (1/|G|) * sum over g of the solutions g fixes. Every
// raw solution is listed (up to nothing), images are taken one by one.
void expect_burnside(const FoamProblem& p) {
  const search::PlateAssembly engine(foam_cube_surface(), p.kinds, p.group_capacity);
  search::AssemblyOptions all;
  all.list_limit = 1U << 22;
  all.list_up_to = search::SymmetryGroup::None;
  const auto tally = engine.count(all);
  ASSERT_EQ(tally.listed.size(), tally.raw) << p.name;
  const std::set<search::AssemblyKey> solutions(tally.listed.begin(), tally.listed.end());
  std::uint64_t fixed_by_rotations = 0, fixed_by_all = 0;
  for (const auto& key : tally.listed)
    for (int s = 0; s < 48; ++s) {
      const auto image = engine.image(key, s);
      ASSERT_TRUE(solutions.count(image)) << p.name << ": an image is not a solution";
      if (image == key) (s < 24 ? fixed_by_rotations : fixed_by_all) += 1;
    }
  fixed_by_all += fixed_by_rotations;
  EXPECT_EQ(fixed_by_rotations % 24, 0U) << p.name;
  EXPECT_EQ(fixed_by_all % 48, 0U) << p.name;
  EXPECT_EQ(tally.rotations, fixed_by_rotations / 24) << p.name;
  EXPECT_EQ(tally.symmetries, fixed_by_all / 48) << p.name;
}

TEST(FoamSymmetry, CanonicalCountsAgreeWithBurnside) {
  std::vector<FoamSet> sets;
  for (const auto& file : kSetFiles) sets.push_back(load_foam_set(kData + file));
  for (const FoamBy by : {FoamBy::Identity, FoamBy::Shape})
    for (const FoamProblem& p : foam_problems(FoamChallenge::Own, by, sets)) expect_burnside(p);
  // Congruent pieces make symmetric assemblies: the action is not free here.
  const auto pool = foam_problems(FoamChallenge::Pool, FoamBy::Shape, {sets[2]});
  expect_burnside(pool[0]);
  const auto choice = foam_problems(FoamChallenge::OnePerColour, FoamBy::Shape, {sets[4]});
  expect_burnside(choice[0]);
}

// The default search makes only solutions with their least piece on face U
// and sums class sizes for raw; making every solution must agree.
TEST(FoamSymmetry, ReducedSearchAgreesWithFullEnumeration) {
  std::vector<FoamSet> sets;
  for (const auto& file : kSetFiles) sets.push_back(load_foam_set(kData + file));
  std::vector<FoamProblem> problems;
  for (const FoamBy by : {FoamBy::Identity, FoamBy::Shape}) {
    for (auto& p : foam_problems(FoamChallenge::Own, by, sets)) problems.push_back(std::move(p));
    problems.push_back(foam_problems(FoamChallenge::Pool, by, {sets[4]})[0]);
    problems.push_back(foam_problems(FoamChallenge::OnePerColour, by, {sets[5]})[0]);
  }
  search::AssemblyOptions every;
  every.every_solution = true;
  for (const FoamProblem& p : problems) {
    const FoamCount reduced = count_foam(p), full = count_foam(p, every);
    EXPECT_EQ(reduced.raw, full.raw) << p.name;
    EXPECT_EQ(reduced.rotations, full.rotations) << p.name;
    EXPECT_EQ(reduced.symmetries, full.symmetries) << p.name;
    EXPECT_EQ(reduced.piece_choices, full.piece_choices) << p.name;
  }
}

// By identity through a search over shapes (labelled copies) agrees with the
// direct search over pieces, where congruent pieces abound (Little Genius).
TEST(FoamSymmetry, IdentityViaShapesAgreesWithDirectSearch) {
  std::vector<FoamSet> sets;
  for (const auto& file : kSetFiles) sets.push_back(load_foam_set(kData + file));
  const auto compare = [](const std::vector<FoamProblem>& direct,
                          const std::vector<FoamProblem>& via) {
    ASSERT_EQ(direct.size(), via.size());
    for (std::size_t i = 0; i < direct.size(); ++i) {
      const FoamCount a = count_foam(direct[i]), b = count_foam(via[i]);
      EXPECT_EQ(a.raw, b.raw) << direct[i].name;
      EXPECT_EQ(a.rotations, b.rotations) << direct[i].name;
      EXPECT_EQ(a.symmetries, b.symmetries) << direct[i].name;
      EXPECT_EQ(a.piece_choices, b.piece_choices) << direct[i].name;
    }
  };
  for (const auto challenge : {FoamChallenge::Own, FoamChallenge::OnePerColour}) {
    const std::vector<FoamSet> series(sets.begin() + 1, sets.begin() + 6);
    compare(foam_problems(challenge, FoamBy::Identity, series),
            foam_problems(challenge, FoamBy::Identity, series, true));
  }
  for (const int s : {0, 2, 4, 6})
    compare(foam_problems(FoamChallenge::Pool, FoamBy::Identity, {sets[s]}),
            foam_problems(FoamChallenge::Pool, FoamBy::Identity, {sets[s]}, true));
}

// Listed solutions cover the 98 cells exactly once, are the smallest of
// their images, and come in increasing (canonical) order.
TEST(FoamSymmetry, ListedSolutionsAreCanonicalExactCovers) {
  const FoamSet set = load_foam_set(kData + "happy-cube-original.txt");
  const FoamProblem p = foam_problems(FoamChallenge::OnePerColour, FoamBy::Identity, {set})[0];
  const search::PlateAssembly engine(foam_cube_surface(), p.kinds, p.group_capacity);
  search::AssemblyOptions options;
  options.list_limit = 100;
  const auto tally = engine.count(options);
  ASSERT_EQ(tally.listed.size(), 25U);  // all classes up to symmetries
  EXPECT_TRUE(std::is_sorted(tally.listed.begin(), tally.listed.end()));
  const auto& s = foam_cube_surface();
  for (const auto& key : tally.listed) {
    std::vector<int> cover(s.cell_count(), 0);
    for (int f = 0; f < 6; ++f) {
      const auto grid = engine.placed_grid(key[f].kind, key[f].transform);
      for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 5; ++c)
          if (grid & search::plate_bit(r, c)) ++cover[s.cell_of(f, {r, c})];
    }
    EXPECT_EQ(std::count(cover.begin(), cover.end(), 1), 98);
    for (int g = 0; g < 48; ++g) EXPECT_LE(key, engine.image(key, g));
  }
}

TEST(FoamSymmetry, ByShapeMergesCongruentPieces) {
  // smart-cube: pieces 1,2,5,6 are one shape and 3,4 another (its header).
  const FoamSet set = load_foam_set(kData + "smart-cube.txt");
  const auto p = foam_problems(FoamChallenge::Own, FoamBy::Shape, {set});
  ASSERT_EQ(p[0].kinds.size(), 2U);
  EXPECT_EQ(p[0].kinds[0].multiplicity + p[0].kinds[1].multiplicity, 6);
  // By identity, each by-shape assembly splits into 4! * 2! labelled ones.
  const auto by_identity = foam_problems(FoamChallenge::Own, FoamBy::Identity, {set});
  EXPECT_EQ(count_foam(by_identity[0]).raw, count_foam(p[0]).raw * 48);
}

// ---------------------------------------------------------------- the CLI

std::string run(const std::string& args, int* status) {
  auto program = testing::run_cubenum(args);
  *status = program.status;
  return program.output;
}

TEST(FoamCli, CountWritesThePuzzlesJsonFields) {
  int status = 0;
  const std::string out = run("foam count --challenge one-per-colour --threads 2 --json - " +
                                  kData + "happy-cube-original.txt",
                              &status);
  ASSERT_EQ(status, 0) << out;
  const Json j = Json::parse(out);
  EXPECT_EQ(j["puzzle"], "foam");
  EXPECT_EQ(j["action"], "count");
  EXPECT_EQ(j["challenge"], "one-per-colour");
  EXPECT_EQ(j["by"], "identity");
  ASSERT_EQ(j["results"].size(), 1U);
  const Json& r = j["results"][0];
  EXPECT_EQ(r["name"], "happy-cube-original");
  EXPECT_EQ(r["piece_choices"], 21);
  EXPECT_EQ(r["raw"].get<std::uint64_t>(), 24 * r["rotations"].get<std::uint64_t>());
}

TEST(FoamCli, SolvePrintsNetsAndSvg) {
  const std::string svg = ::testing::TempDir() + "foam_net.svg";
  int status = 0;
  const std::string out =
      run("foam solve --list 2 --svg " + svg + " " + kData + "smart-cube.txt", &status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("#2\n"), std::string::npos) << out;
  EXPECT_NE(out.find("U: smart-cube any"), std::string::npos) << out;
  std::ifstream in(svg);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("<svg"), std::string::npos);
  EXPECT_NE(text.str().find("<rect"), std::string::npos);
}

TEST(FoamCli, BadFileIsAnErrorWithFileAndLine) {
  const std::string bad = ::testing::TempDir() + "bad_set.txt";
  std::ofstream(bad) << "# a set\nred 1 01010\n";
  int status = 0;
  const std::string out = run("foam count " + bad, &status);
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("bad_set.txt:2: piece code '01010' has 5 characters"), std::string::npos)
      << out;
  run("foam count --challenge one-per-colour " + kData + "smart-cube.txt", &status);
  EXPECT_NE(status, 0);
}

}  // namespace
}  // namespace cubenum::puzzles
