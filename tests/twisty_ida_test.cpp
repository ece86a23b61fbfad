// IDA* (twisty_ida.hpp) against the full depth table and a brute-force
// count of optimal solutions.
#include "cubenum/puzzles/twisty_ida.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "cubenum/bfs/row_bfs.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/twisty_search.hpp"
#include "cubenum/report/json.hpp"
#include "run_cubenum.hpp"
#include "twisty_test_support.hpp"

namespace cubenum::twisty {
namespace {

using test_support::data_file;
using test_support::random_walk;

Arrangement play(const Definition& def, const std::vector<Move>& moves, Arrangement x,
                 const std::vector<int>& sequence) {
  for (int m : sequence) x = apply(def.sets, x, moves[static_cast<std::size_t>(m)].effect);
  return x;
}

// Optimal solutions counted the naive way: every sequence of `length`
// moves that solves `start`, less those with two neighbouring moves of
// commuting generators in decreasing order (the other order is the same
// position; an optimal solution has no other redundancy, a run of one
// generator that is not shortest being a shorter solution).
std::uint64_t brute_force_count(const Definition& def, const std::vector<Move>& moves,
                                const Arrangement& start, unsigned length) {
  std::vector<std::size_t> gen(moves.size());
  std::vector<int> bases;
  for (std::size_t m = 0; m < moves.size(); ++m) {
    auto it = std::find(bases.begin(), bases.end(), moves[m].base);
    if (it == bases.end()) it = bases.insert(bases.end(), moves[m].base);
    gen[m] = static_cast<std::size_t>(it - bases.begin());
  }
  const auto commute = [&](std::size_t a, std::size_t b) {
    const Arrangement id = def.identity();
    return play(def, moves, id, {static_cast<int>(a), static_cast<int>(b)}) ==
           play(def, moves, id, {static_cast<int>(b), static_cast<int>(a)});
  };
  std::uint64_t count = 0;
  std::vector<int> seq;
  const auto walk = [&](auto&& self, const Arrangement& x) -> void {
    if (seq.size() == length) {
      count += x == def.solved;
      return;
    }
    for (std::size_t m = 0; m < moves.size(); ++m) {
      if (!seq.empty()) {
        const auto last = static_cast<std::size_t>(seq.back());
        if (gen[last] > gen[m] && commute(last, m)) continue;
      }
      seq.push_back(static_cast<int>(m));
      self(self, apply(def.sets, x, moves[m].effect));
      seq.pop_back();
    }
  };
  walk(walk, start);
  return count;
}

// The tower (corners and edges), both metrics, two pattern databases (its
// corners, its edges): for random positions, IDA*'s length is the full
// table's, its solution solves, and the solutions and counts are the same
// on one thread and two; where short, the count is the brute force's.
TEST(Ida, LengthsAreTheTablesAndCountsTheBruteForces) {
  const Definition def = load_definition(data_file("tower-2x3x2.tws"));
  for (bool quarter : {false, true}) {
    SCOPED_TRACE(quarter ? "quarter" : "all powers");
    const MoveChoice choice{{}, quarter};
    const std::vector<Move> moves = expand_moves(def, choice);
    const TwistySpace full(def, moves);
    const std::uint64_t solved = full.solved_rank();
    const bfs::RowDepths depths = std::move(*bfs::row_bfs(full, {&solved, 1}).depths);
    const PatternDatabase corners(def, choice, {"CORNER"}), edges(def, choice, {"EDGE"});
    const std::vector<const PatternDatabase*> pdbs{&corners, &edges};
    std::mt19937 rng(11);
    int brute_forced = 0;
    for (int sample = 0; sample < 24; ++sample) {
      const Arrangement x = random_walk(def, moves, sample < 8 ? 4 : 30, rng);
      const auto optimal = static_cast<unsigned>(path_to_solved(full, depths, full.rank(x)).size());
      SCOPED_TRACE(::testing::Message() << "sample " << sample << ", " << optimal << " moves");
      IdaOptions options;
      options.count = true;
      options.keep = 3;
      IdaResult one, two;
      {
        ThreadLimit limit(1);
        one = solve_ida(def, moves, x, pdbs, options);
      }
      {
        ThreadLimit limit(2);
        two = solve_ida(def, moves, x, pdbs, options);
      }
      ASSERT_TRUE(one.length.has_value());
      EXPECT_EQ(*one.length, optimal);
      EXPECT_EQ(one.proven, optimal);
      ASSERT_FALSE(one.solutions.empty());
      for (const auto& s : one.solutions) {
        EXPECT_EQ(s.size(), optimal);
        EXPECT_EQ(play(def, moves, x, s), def.solved);
      }
      EXPECT_EQ(one.solutions, two.solutions);
      EXPECT_EQ(one.count, two.count);
      if (optimal <= 5) {
        EXPECT_EQ(one.count, brute_force_count(def, moves, x, optimal));
        ++brute_forced;
      }
      // Without counting: the same first solution.
      IdaOptions first;
      const IdaResult quick = solve_ida(def, moves, x, pdbs, first);
      ASSERT_EQ(quick.solutions.size(), 1u);
      EXPECT_EQ(quick.solutions[0], one.solutions[0]);
    }
    EXPECT_GE(brute_forced, 4);
  }
}

// A depth bound below the optimum answers nothing, with the depth proven.
TEST(Ida, MaxDepthBelowTheOptimumProvesItsDepth) {
  const Definition def = load_definition(data_file("tower-2x3x2.tws"));
  const std::vector<Move> moves = expand_moves(def, {});
  const PatternDatabase corners(def, {}, {"CORNER"});
  Arrangement x = def.solved;
  for (const char* name : {"R", "U", "F", "D", "L"})
    for (const Move& m : moves)
      if (m.name == name) x = apply(def.sets, x, m.effect);
  IdaOptions options;
  options.max_depth = 2;
  const IdaResult r = solve_ida(def, moves, x, {&corners}, options);
  EXPECT_FALSE(r.length.has_value());
  EXPECT_GE(r.proven, 3u);  // depths 0-2 searched, or a bound above them from the start
  EXPECT_FALSE(r.stopped);
  EXPECT_TRUE(solve_ida(def, moves, def.solved, {&corners}, {}).length == 0u);
}

// The command line: `--method search` gives the table's length, with the
// count; a wrong method, or --table with the search, is refused.
TEST(IdaCli, SearchGivesTheTablesLengthAndCounts) {
  const std::string file = data_file("tower-2x3x2.tws") + " --scramble \"R U F D L U2\"";
  auto r = testing::run_cubenum("twisty solve " + file + " --json -");
  ASSERT_EQ(r.status, 0) << r.output;
  const Json table = Json::parse(r.output);
  EXPECT_EQ(table["method"], "table");
  r = testing::run_cubenum("twisty solve " + file + " --method search --count --json -");
  ASSERT_EQ(r.status, 0) << r.output;
  const Json search = Json::parse(r.output);
  EXPECT_EQ(search["method"], "search");
  EXPECT_EQ(search["length"], table["length"]);
  EXPECT_EQ(search["pattern_databases"], Json::array({"CORNER", "EDGE"}));
  EXPECT_GE(search["optimal_solutions"].get<std::uint64_t>(), 1u);
  r = testing::run_cubenum("twisty solve " + file + " --method search --max-depth 2");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("no solution of at most 2 moves"), std::string::npos) << r.output;
  // A time limit spent before any depth is searched: stopped, nothing
  // claimed beyond what was proven.
  r = testing::run_cubenum("twisty solve " + file + " --method search --time-limit 1e-9 --json -");
  ASSERT_EQ(r.status, 0) << r.output;
  const Json stopped = Json::parse(r.output);
  EXPECT_EQ(stopped["stopped_by"], "--time-limit");
  EXPECT_TRUE(stopped["length"].is_null());
  EXPECT_LE(stopped["proven_depth"].get<unsigned>(), table["length"].get<unsigned>());
  r = testing::run_cubenum("twisty solve " + file + " --method quick");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("unknown method 'quick'"), std::string::npos) << r.output;
  r = testing::run_cubenum("twisty solve " + file + " --method search --table /tmp/x.table");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("the search keeps no depth table"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace cubenum::twisty
