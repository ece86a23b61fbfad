// The solution pages (issue 18): the data each page embeds is the solutions
// cubenum computed, whole and exact, and a page stands alone. The browser
// draws them in web/test/pages.test.mjs (tools/test).
#include "cubenum/puzzles/solution_pages.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <regex>
#include <set>

#include "cubenum/puzzles/foam.hpp"
#include "cubenum/puzzles/foam_shape.hpp"
#include "cubenum/puzzles/pocket_cube.hpp"
#include "cubenum/report/html_page.hpp"
#include "run_cubenum.hpp"
#include "scratch_files.hpp"

namespace cubenum {
namespace {

using testing::contains;
using testing::read;
using testing::run_cubenum;
using testing::scratch;

const std::string kOriginal = CUBENUM_DATA_DIR "/foam/happy-cube-original.txt";

Vec3 point(const Json& cell) {
  return {cell[0].get<int>(), cell[1].get<int>(), cell[2].get<int>()};
}

// Every cell of the surface exactly once: the plates cover it, no two
// overlap, and each plate holds the cells of its code as placed.
void expect_cover(const Json& assembly, const search::PlateSurface& surface) {
  ASSERT_EQ(assembly["pieces"].size(), static_cast<std::size_t>(surface.face_count()));
  std::set<Vec3> expected, seen;
  for (int c = 0; c < surface.cell_count(); ++c) expected.insert(surface.cell_point(c));
  for (const Json& piece : assembly["pieces"]) {
    const search::PlateGrid grid = puzzles::foam_grid(piece["placed"].get<std::string>());
    EXPECT_EQ(piece["cells"].size(), static_cast<std::size_t>(std::popcount(grid)));
    for (const Json& cell : piece["cells"]) {
      EXPECT_TRUE(expected.count(point(cell))) << "a cell off the surface";
      EXPECT_TRUE(seen.insert(point(cell)).second) << "two plates on one cell";
    }
  }
  EXPECT_EQ(seen, expected);
}

TEST(SolutionPageData, FoamCubePlatesCoverTheShellOnceEach) {
  const auto problems =
      puzzles::foam_problems(puzzles::FoamChallenge::OnePerColour, puzzles::FoamBy::Identity,
                             {puzzles::load_foam_set(kOriginal)});
  ASSERT_EQ(problems.size(), 1u);
  search::AssemblyOptions options;
  options.list_limit = 25;
  const auto counts = puzzles::count_foam(problems[0], options);
  ASSERT_EQ(counts.listed.size(), 25u);  // the 25 up to symmetries
  std::vector<puzzles::FoamNet> nets;
  for (const auto& key : counts.listed) nets.push_back({&problems[0], key});
  const Json data = puzzles::foam_page_data(nets, "t");
  EXPECT_EQ(data["kind"], "assembly");
  ASSERT_EQ(data["assemblies"].size(), 25u);
  EXPECT_EQ(data["assemblies"][24]["name"], "happy-cube-original #25");
  const auto& surface = puzzles::foam_cube_surface();
  for (std::size_t a = 0; a < counts.listed.size(); ++a) {
    const Json& assembly = data["assemblies"][a];
    expect_cover(assembly, surface);
    std::set<std::string> colours;
    for (int f = 0; f < surface.face_count(); ++f) {
      const Json& piece = assembly["pieces"][f];
      // The face, the code as placed and the transform the solve prints.
      EXPECT_EQ(piece["face"], surface.face(f).name);
      const auto& key = counts.listed[a][f];
      EXPECT_EQ(piece["transform"], key.transform);
      EXPECT_EQ(piece["placed"], puzzles::foam_code(search::transform_grid(
                                     problems[0].kinds[key.kind].grid, key.transform)));
      // The plate moves outwards: its normal points from the cube's centre.
      const Vec3 n = point(piece["explode"]), c = surface.face(f).centre;
      EXPECT_EQ(n[0] * c[0] + n[1] * c[1] + n[2] * c[2], 2);
      colours.insert(piece["colour"].get<std::string>());
    }
    EXPECT_EQ(colours.size(), 6u) << "one piece of each colour, each in its own";
  }
}

TEST(SolutionPageData, FoamShapePlatesCoverTheSurfaceAndExplodeOutwards) {
  const auto shape = puzzles::load_foam_shape("cuboid:2x1x1");
  const auto pool =
      puzzles::foam_shape_pool({puzzles::load_foam_set(kOriginal)}, puzzles::FoamBy::Identity);
  search::FirstOptions options;
  options.wanted = 2;
  const auto found = puzzles::first_foam_shape(shape, pool, options);
  ASSERT_EQ(found.solutions.size(), 2u);
  const Json data = puzzles::foam_shape_page_data(shape, pool, found.solutions, "t");
  ASSERT_EQ(data["assemblies"].size(), 2u);
  // A unit cube of the shape spans 4 lattice steps, the shape centred on
  // the origin (puzzles/foam_shape.cpp).
  Vec3 low = shape.cubes[0], high = shape.cubes[0];
  for (const Vec3& c : shape.cubes)
    for (int i = 0; i < 3; ++i) low[i] = std::min(low[i], c[i]), high[i] = std::max(high[i], c[i]);
  const auto inside = [&](const Vec3& p) {
    return std::any_of(shape.cubes.begin(), shape.cubes.end(), [&](const Vec3& c) {
      for (int i = 0; i < 3; ++i)
        if (std::abs(p[i] - (4 * c[i] + 2 - 2 * (low[i] + high[i] + 1))) >= 2) return false;
      return true;
    });
  };
  for (const Json& assembly : data["assemblies"]) {
    expect_cover(assembly, shape.surface);
    for (const Json& piece : assembly["pieces"]) {
      const Vec3 c = point(piece["centre"]), n = point(piece["explode"]);
      EXPECT_FALSE(inside({c[0] + n[0], c[1] + n[1], c[2] + n[2]})) << piece["face"];
      EXPECT_TRUE(inside({c[0] - n[0], c[1] - n[1], c[2] - n[2]})) << piece["face"];
    }
  }
}

TEST(SolutionPageData, PocketCubeStatesFollowTheMovesToSolved) {
  const std::string scramble = "R U2 F' D L B2";
  pocket_cube::Corners start;
  for (const auto& turn : pocket_cube::parse_turns(scramble))
    start = pocket_cube::apply_turn(start, turn);
  const auto turns = pocket_cube::solve(pocket_cube::Metric::Quarter, start);
  const Json data = pocket_cube::page_data(start, turns, pocket_cube::Metric::Quarter, "t");
  EXPECT_EQ(data["moves"], pocket_cube::turns_text(pocket_cube::join_half_turns(turns)));
  EXPECT_EQ(data["length"], turns.size());
  ASSERT_EQ(data["states"].size(), data["steps"].size() + 1);
  EXPECT_EQ(data["states"][0],
            pocket_cube::sticker_digits(pocket_cube::stickers_from_corners(start)));
  const std::string last = data["states"].back();
  for (const char face : std::string("URFDLB")) {
    std::set<char> colours;
    for (std::size_t i = 0; i < data["facelets"].size(); ++i)
      if (data["facelets"][i]["face"] == std::string(1, face)) colours.insert(last[i]);
    EXPECT_EQ(colours.size(), 1u) << face << " is one colour at the end";
  }
}

// ------------------------------------------------------------ the pages

// The page's data as written by the program.
Json written_page(const std::string& name, const std::string& args, std::string* output) {
  const auto dir = scratch("page-" + name);
  const auto file = dir / (name + ".html");
  const auto run = run_cubenum(args + " --html " + file.string());
  EXPECT_EQ(run.status, 0) << run.output;
  if (output != nullptr) *output = run.output;
  const std::string page = read(file);
  // It stands alone: no file or address to load, three.js and the viewer in it.
  EXPECT_FALSE(contains(page, "<script src")) << name;
  EXPECT_FALSE(contains(page, "<link")) << name;
  EXPECT_TRUE(contains(page, "var THREE=")) << name;
  EXPECT_TRUE(contains(page, "window.cubenum = page")) << name;
  return report::read_page_data(page);
}

TEST(SolutionPage, FoamCubeHoldsTheAssembliesTheSolveLists) {
  std::string output;
  const Json data = written_page(
      "foam", "foam solve --challenge one-per-colour " + kOriginal + " --list 4", &output);
  ASSERT_EQ(data["assemblies"].size(), 4u);
  // The codes as placed, face by face, as the solve's text prints them.
  for (const Json& assembly : data["assemblies"])
    for (const Json& piece : assembly["pieces"])
      EXPECT_TRUE(contains(output, piece["placed"].get<std::string>())) << piece["placed"];
}

TEST(SolutionPage, PocketCubeMovesAreTheSolvesOutput) {
  std::string output;
  const Json data =
      written_page("pocket", "pocket-cube solve --scramble \"R U2 F' D L B2\"", &output);
  EXPECT_EQ(data["kind"], "pocket-cube");
  EXPECT_EQ(output.substr(0, output.find(" (")), data["moves"].get<std::string>());
  EXPECT_EQ(data["states"].size(), data["steps"].size() + 1);
}

TEST(SolutionPage, RollingCubesMovesAreTheSolvesOutput) {
  std::string output;
  const Json data = written_page("rolling", "rolling-cubes solve", &output);
  EXPECT_EQ(data["kind"], "rolling-cubes");
  const std::string moves = data["moves"];
  EXPECT_TRUE(contains(output, std::to_string(moves.size()) + " moves: " + moves + "\n"));
  ASSERT_EQ(data["states"].size(), moves.size() + 1);
  EXPECT_EQ(data["states"][0], Json::parse("[0,0,0,0,-1,0,0,0,0]"));
  EXPECT_EQ(data["states"].back(), Json::parse("[1,1,1,1,-1,1,1,1,1]"));
  for (std::size_t k = 0; k < moves.size(); ++k) {
    const Json& step = data["steps"][k];
    EXPECT_EQ(step["roll"], std::string(1, moves[k]));
    EXPECT_EQ(data["states"][k][step["to"].get<int>()], -1);
    EXPECT_EQ(data["states"][k + 1][step["from"].get<int>()], -1);
  }
}

TEST(SolutionPage, PolycubePiecesFillTheTarget) {
  const Json data = written_page(
      "soma", "polycube solve " CUBENUM_DATA_DIR "/polycubes/soma.txt --first 2", nullptr);
  ASSERT_EQ(data["assemblies"].size(), 2u);
  for (const Json& assembly : data["assemblies"]) {
    EXPECT_EQ(assembly["pieces"].size(), 7u);
    std::set<Vec3> cells;
    for (const Json& piece : assembly["pieces"])
      for (const Json& cell : piece["cells"]) EXPECT_TRUE(cells.insert(point(cell)).second);
    EXPECT_EQ(cells.size(), 27u);
  }
}

TEST(SolutionPage, BadHtmlPathIsRefusedBeforeTheWork) {
  for (const std::string& action :
       {"foam solve --challenge one-per-colour " + kOriginal,
        "foam solve --shape cuboid:2x1x1 " + kOriginal + " --first 1",
        std::string("pocket-cube solve --scramble R"), std::string("rolling-cubes solve"),
        std::string("polycube solve " CUBENUM_DATA_DIR "/polycubes/soma.txt")}) {
    const auto run = run_cubenum(action + " --html /nonexistent-folder/page.html");
    EXPECT_NE(run.status, 0) << action;
    EXPECT_TRUE(contains(run.output, "--html")) << run.output;
    EXPECT_TRUE(contains(run.output, "/nonexistent-folder/page.html")) << run.output;
    // Refused before the search: nothing of the solution printed.
    EXPECT_FALSE(contains(run.output, "#1")) << run.output;
    EXPECT_FALSE(contains(run.output, "moves")) << run.output;
  }
}

TEST(SolutionPage, DataCannotCloseItsScript) {
  const Json data = {{"kind", "assembly"}, {"title", "a </script><b> title"}};
  const std::string page = report::solution_page(data);
  EXPECT_FALSE(contains(report::page_json(data), "</"));
  EXPECT_TRUE(contains(page, "<title>a &lt;/script&gt;&lt;b&gt; title</title>"));
  EXPECT_EQ(report::read_page_data(page), data);
}

}  // namespace
}  // namespace cubenum
