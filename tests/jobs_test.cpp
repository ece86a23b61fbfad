// The library's jobs (puzzles/*_job.hpp), asked as a program other than the
// command line would ask them: the decisions they make and say, their
// counts at any thread count, and their views.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/foam_job.hpp"
#include "cubenum/puzzles/polycube_job.hpp"
#include "cubenum/puzzles/twisty_job.hpp"
#include "cubenum/puzzles/twisty_solve.hpp"

namespace {

using namespace cubenum;
using namespace cubenum::puzzles;

const std::string kData = std::string(CUBENUM_DATA_DIR) + "/";

FoamSet foam_set(const std::string& name) {
  return load_foam_set(kData + "foam/" + name + ".txt");
}

// Keeps what the job shows, says nothing.
struct QuietFoamView : FoamCountView {
  std::vector<std::string> notes, problems_counted;
  int shapes = 0, shape_counts = 0;
  void note(const std::string& text) override { notes.push_back(text); }
  void counted(const FoamProblem& p, const FoamCount&, double) override {
    problems_counted.push_back(p.name);
  }
  void shape(const FoamShape&, const FoamProblem&) override { ++shapes; }
  void shape_counted(const FoamShapeResult&) override { ++shape_counts; }
};

TEST(FoamJob, ChallengeCountsAreTheEnginesAtAnyThreadCount) {
  FoamCountRequest request;
  request.sets = {foam_set("happy-cube-original")};
  request.challenge = FoamChallenge::OnePerColour;
  QuietFoamView view;
  const FoamCountResult one = [&] {
    ThreadLimit limit(1);
    return count_foam_job(request, view);
  }();
  const FoamCountResult two = count_foam_job(request, view);
  // The engine's counts, asked directly (tests/foam_test.cpp checks the
  // engine against a naive voxel cover and Burnside's lemma).
  const auto problems = foam_problems(FoamChallenge::OnePerColour, FoamBy::Identity, request.sets);
  ASSERT_EQ(one.problems.size(), problems.size());
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const FoamCount direct = count_foam(problems[i]);
    for (const FoamCountResult* r : {&one, &two}) {
      EXPECT_EQ(r->problems[i].name, problems[i].name);
      EXPECT_EQ(r->problems[i].count.raw, direct.raw);
      EXPECT_EQ(r->problems[i].count.symmetries, direct.symmetries);
      EXPECT_EQ(r->problems[i].count.piece_choices, direct.piece_choices);
    }
  }
  EXPECT_EQ(view.problems_counted.size(),
            2 * problems.size());   // each problem shown as it is counted
  EXPECT_TRUE(view.notes.empty());  // one set: no congruent pieces, nothing chosen
}

TEST(FoamJob, APoolOfCongruentPiecesGoesOverShapesAndSaysWhy) {
  FoamCountRequest request;
  request.sets = {foam_set("happy-cube-original"), foam_set("happy-cube-marble")};
  request.challenge = FoamChallenge::Pool;
  request.piece_choices = false;
  QuietFoamView view;
  const FoamCountResult chosen = count_foam_job(request, view);
  EXPECT_TRUE(chosen.via_shapes);
  ASSERT_EQ(chosen.notes.size(), 1U);
  EXPECT_NE(chosen.notes[0].find("counted over shapes"), std::string::npos);
  EXPECT_EQ(view.notes, chosen.notes);
  request.direct = true;  // piece by piece: the same counts, nothing chosen
  const FoamCountResult direct = count_foam_job(request, view);
  EXPECT_FALSE(direct.via_shapes);
  EXPECT_TRUE(direct.notes.empty());
  ASSERT_EQ(direct.problems.size(), 1U);
  EXPECT_EQ(direct.problems[0].count.raw, chosen.problems[0].count.raw);
  EXPECT_EQ(direct.problems[0].count.symmetries, chosen.problems[0].count.symmetries);
}

TEST(FoamJob, AShapeOfManyCongruentPiecesIsCountedByLayersAsTheSearchCountsIt) {
  FoamCountRequest request;
  request.sets = {foam_set("happy-cube-little-genius")};
  request.shape = load_foam_shape("cuboid:2x1x1");
  QuietFoamView view;
  const FoamCountResult layers = count_foam_job(request, view);
  ASSERT_TRUE(layers.shape);
  EXPECT_EQ(layers.shape->method, "layers");
  EXPECT_FALSE(layers.notes.empty());  // the choice is said, with the way out
  request.method = FoamMethod::Search;
  const FoamCountResult search = count_foam_job(request, view);
  EXPECT_EQ(search.shape->method, "search");
  ASSERT_EQ(layers.shape->tallies.size(), 1U);
  ASSERT_EQ(search.shape->tallies.size(), 1U);
  const FoamShapeTally &a = layers.shape->tallies[0], &b = search.shape->tallies[0];
  EXPECT_TRUE(a.raw == b.raw && a.rotations == b.rotations && a.symmetries == b.symmetries &&
              a.piece_choices == b.piece_choices);
  EXPECT_GT(b.raw, 0U);
  EXPECT_EQ(view.shapes, 2);
  EXPECT_EQ(view.shape_counts, 2);
}

TEST(FoamJob, PartsThatDoNotGoTogetherAreRefusedNamingTheOption) {
  FoamCountRequest request;
  request.sets = {foam_set("happy-cube-original")};
  request.method = FoamMethod::Layers;  // without a shape
  QuietFoamView view;
  try {
    count_foam_job(request, view);
    FAIL() << "a count by layers without a shape was not refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--method"), std::string::npos) << e.what();
  }
}

struct QuietPolycubeView : PolycubeCountView {};

TEST(PolycubeJob, SomaHas240AssembliesUpToSymmetry) {
  // Conway and Guy, Winning Ways: 240 assemblies of the Soma cube up to its
  // 48 symmetries; raw 240 x 48.
  PolycubeCountRequest request;
  request.file = kData + "polycubes/soma.txt";
  request.list = 2;
  QuietPolycubeView view;
  const PolycubeCountResult one = [&] {
    ThreadLimit limit(1);
    return count_polycube_job(request, view);
  }();
  const PolycubeCountResult two = count_polycube_job(request, view);
  for (const PolycubeCountResult* r : {&one, &two}) {
    ASSERT_EQ(r->problems.size(), 1U);
    const PolycubeProblemCount& p = r->problems[0];
    EXPECT_EQ(p.counts.symmetries, 240U);
    EXPECT_EQ(p.counts.raw, 240U * 48U);
    ASSERT_TRUE(p.apart);  // no congruent pieces listed apart: BurrTools counts the same
    EXPECT_EQ(p.apart->symmetries, 240U);
    EXPECT_EQ(p.listed.size(), 2U);
  }
  const Json json = polycube_count_json(request, two);
  EXPECT_EQ(json["results"][0]["assemblies"].size(), 2U);
}

TEST(TwistyJob, PocketCubeHalfTurnsGiveThePublishedTable) {
  // OEIS A079761: positions of the 2x2x2 by distance in the half-turn
  // metric, one corner fixed (U, F, R and their powers).
  twisty::BfsRequest request;
  request.space.file = kData + "twisty/pocket-cube.tws";
  request.space.moves = "U,F,R";
  request.antipodes = 1;
  std::string shown;
  const twisty::BfsResult result = twisty::run_bfs(
      request, [&](const twisty::TwistySpace& space) { shown = space.definition().name; });
  const std::vector<std::uint64_t> published = {1,     9,      54,     321,     1847,   9992,
                                                50136, 227536, 870072, 1887748, 623800, 2644};
  EXPECT_EQ(result.distribution, published);
  EXPECT_EQ(result.reached, 3674160U);
  EXPECT_EQ(result.antipodes.size(), 1U);
  EXPECT_FALSE(shown.empty());  // the space was shown before the search
  // An antipode, solved from its own table, takes God's number of moves.
  twisty::SolveRequest solve;
  solve.space = request.space;
  solve.scramble = twisty::sequence_text(*result.space, result.antipodes[0]);
  const twisty::SolveResult solved = twisty::solve(solve);
  ASSERT_EQ(solved.solutions.size(), 1U);
  EXPECT_EQ(solved.solutions[0].moves.size(), 11U);
}

}  // namespace
