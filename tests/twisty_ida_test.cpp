// IDA* (twisty_ida.hpp) against the full depth table and a brute-force
// count of optimal solutions.
#include "cubenum/puzzles/twisty_ida.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cubenum/bfs/row_bfs.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/twisty_pieces.hpp"
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
    const PieceMoves by_piece(def, moves);
    ASSERT_TRUE(by_piece.invertible());
    const PatternDatabase corners(by_piece, {{{0, {0, 1, 2, 3, 4, 5, 6, 7}}}}),
        edges(by_piece, {{{1, {0, 1, 2, 3}}}}),
        clamped(by_piece, {{{0, {0, 1, 2, 3, 4, 5, 6, 7}}}}, Clamping::Always);
    const std::vector<const PatternDatabase*> pdbs{&corners, &edges};
    // With the corners clamped too, read as the inverse: the same
    // solutions and counts.
    const std::vector<const PatternDatabase*> inverse{&corners, &edges, &clamped};
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
        one = solve_ida(by_piece, x, pdbs, options);
      }
      {
        ThreadLimit limit(2);
        two = solve_ida(by_piece, x, pdbs, options);
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
      const IdaResult read_inverse = solve_ida(by_piece, x, inverse, options);
      EXPECT_EQ(read_inverse.solutions, one.solutions);
      EXPECT_EQ(read_inverse.count, one.count);
      EXPECT_LE(read_inverse.nodes, one.nodes);
      if (optimal <= 5) {
        EXPECT_EQ(one.count, brute_force_count(def, moves, x, optimal));
        ++brute_forced;
      }
      // Without counting: the same first solution.
      IdaOptions first;
      const IdaResult quick = solve_ida(by_piece, x, pdbs, first);
      ASSERT_EQ(quick.solutions.size(), 1u);
      EXPECT_EQ(quick.solutions[0], one.solutions[0]);
    }
    EXPECT_GE(brute_forced, 4);
  }
}

// For random positions of the file's puzzle, pruned by the named patterns
// (none the whole puzzle), each also read through `symmetric` of the
// puzzle's symmetries (the first that give it): IDA*'s length is the full
// table's and its solution solves, on one thread and two. Clamped tables
// are also read as the inverse: the same lengths, and fewer nodes than
// without.
void expect_lengths_of_the_table(const std::string& file, const std::vector<std::string>& named,
                                 unsigned seed, std::size_t symmetric = 0,
                                 Clamping clamping = Clamping::Never) {
  const Definition def = load_definition(data_file(file));
  const std::vector<Move> moves = expand_moves(def, {});
  const TwistySpace full(def, moves);
  const std::uint64_t solved = full.solved_rank();
  const bfs::RowDepths depths = std::move(*bfs::row_bfs(full, {&solved, 1}).depths);
  const PieceMoves by_piece(def, moves);
  std::vector<std::unique_ptr<PatternDatabase>> tables;
  std::vector<const PatternDatabase*> pdbs;
  for (const std::string& text : named) {
    tables.push_back(std::make_unique<PatternDatabase>(
        by_piece, parse_pattern(by_piece, text, "test"), clamping));
    pdbs.push_back(tables.back().get());
  }
  const SymmetryGroup group(def, moves, {SymmetryChoice::All, false});
  for (std::size_t t = 0, n = tables.size(); t < n; ++t)
    for (std::size_t k = 1, views = 0; k < group.order() && views < symmetric; ++k)
      if (auto view = tables[t]->conjugated(group, k)) {
        tables.push_back(std::make_unique<PatternDatabase>(std::move(*view)));
        pdbs.push_back(tables.back().get());
        ++views;
      }
  ASSERT_EQ(pdbs.size(), named.size() * (1 + symmetric));
  std::mt19937 rng(seed);
  std::uint64_t nodes = 0, without_inverse = 0;
  for (int sample = 0; sample < 12; ++sample) {
    const Arrangement x = random_walk(def, moves, 40, rng);
    const auto optimal = static_cast<unsigned>(path_to_solved(full, depths, full.rank(x)).size());
    SCOPED_TRACE(::testing::Message() << "sample " << sample << ", " << optimal << " moves");
    for (int threads : {1, 2}) {
      ThreadLimit limit(threads);
      const IdaResult r = solve_ida(by_piece, x, pdbs, {});
      ASSERT_TRUE(r.length.has_value());
      EXPECT_EQ(*r.length, optimal);
      ASSERT_EQ(r.solutions.size(), 1u);
      EXPECT_EQ(play(def, moves, x, r.solutions[0]), def.solved);
      if (clamping == Clamping::Never || threads == 2) continue;
      IdaOptions plain;
      plain.inverse_lookups = false;
      const IdaResult p = solve_ida(by_piece, x, pdbs, plain);
      EXPECT_EQ(p.length, r.length);
      EXPECT_EQ(p.solutions, r.solutions);
      EXPECT_LE(r.nodes, p.nodes);  // the inverse's bounds only add to the others
      nodes += r.nodes;
      without_inverse += p.nodes;
    }
  }
  if (clamping != Clamping::Never) {
    EXPECT_LT(nodes, without_inverse);
  }
}

// The pocket cube, pruned by two halves of its corners.
TEST(Ida, PocketCubeLengthsAreTheTables) {
  expect_lengths_of_the_table("pocket-cube.tws", {"CORNER 1-4", "CORNER 5-8"}, 23);
}

// The same, each half also read through three symmetries.
TEST(Ida, PocketCubeLengthsAreTheTablesThroughSymmetries) {
  expect_lengths_of_the_table("pocket-cube.tws", {"CORNER 1-4", "CORNER 5-8"}, 31, 3);
}

// The same, the halves clamped and also read (with their symmetric
// look-ups) as the inverse.
TEST(Ida, PocketCubeLengthsAreTheTablesReadAsTheInverse) {
  expect_lengths_of_the_table("pocket-cube.tws", {"CORNER 1-4", "CORNER 5-8"}, 47, 3,
                              Clamping::Always);
}

// The skewb, pruned by four corners with a fifth's slot, and by its
// centres, each also read through two symmetries.
TEST(Ida, SkewbLengthsAreTheTable) {
  expect_lengths_of_the_table("skewb.tws", {"CORNER 2-5 slots 6", "CENTER"}, 29);
  expect_lengths_of_the_table("skewb.tws", {"CORNER 2-5 slots 6", "CENTER"}, 37, 2);
}

// The dino cube, pruned by its edges in halves, each also read through two
// symmetries.
TEST(Ida, DinoLengthsAreTheTable) {
  expect_lengths_of_the_table("dino.tws", {"EDGE 1-6", "EDGE 7-12"}, 41, 2);
}

// The pocket cube's 18 moves make 243 nodes two moves down: one worker's
// subtrees are cut there, four workers' a move further down. The same
// solutions, and counting, the same counts and nodes (every node counted
// once, above the cut or in a subtree).
TEST(Ida, TheTreeCutForMoreWorkersFindsTheSame) {
  const Definition def = load_definition(data_file("pocket-cube.tws"));
  const std::vector<Move> moves = expand_moves(def, {});
  ASSERT_EQ(moves.size(), 18u);
  const PieceMoves by_piece(def, moves);
  const PatternDatabase corners(by_piece, parse_pattern(by_piece, "CORNER 1-4", "test"));
  std::mt19937 rng(5);
  for (int sample = 0; sample < 6; ++sample) {
    const Arrangement x = random_walk(def, moves, 9, rng);
    SCOPED_TRACE(::testing::Message() << "sample " << sample);
    for (bool count : {true, false}) {
      IdaOptions options;
      options.count = count;
      options.keep = count ? 5 : 1;
      std::vector<IdaResult> results;
      for (int threads : {1, 2, 4}) {
        ThreadLimit limit(threads);
        results.push_back(solve_ida(by_piece, x, {&corners}, options));
      }
      ASSERT_TRUE(results[0].length.has_value());
      EXPECT_GE(*results[0].length, 3u);  // cut below the root
      for (std::size_t i = 1; i < results.size(); ++i) {
        EXPECT_EQ(results[i].solutions, results[0].solutions);
        if (count) {  // (a search for the first stops the others where it can)
          EXPECT_EQ(results[i].count, results[0].count);
          EXPECT_EQ(results[i].nodes, results[0].nodes);
        }
      }
    }
  }
}

// A depth bound below the optimum answers nothing, with the depth proven.
TEST(Ida, MaxDepthBelowTheOptimumProvesItsDepth) {
  const Definition def = load_definition(data_file("tower-2x3x2.tws"));
  const std::vector<Move> moves = expand_moves(def, {});
  const PieceMoves by_piece(def, moves);
  const PatternDatabase corners(by_piece, {{{0, {0, 1, 2, 3, 4, 5, 6, 7}}}});
  Arrangement x = def.solved;
  for (const char* name : {"R", "U", "F", "D", "L"})
    for (const Move& m : moves)
      if (m.name == name) x = apply(def.sets, x, m.effect);
  IdaOptions options;
  options.max_depth = 2;
  const IdaResult r = solve_ida(by_piece, x, {&corners}, options);
  EXPECT_FALSE(r.length.has_value());
  EXPECT_GE(r.proven, 3u);  // depths 0-2 searched, or a bound above them from the start
  EXPECT_FALSE(r.stopped);
  EXPECT_TRUE(solve_ida(by_piece, def.solved, {&corners}, {}).length == 0u);
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
  // Six moves are searched without tables (a million canonical sequences
  // go deeper); an antipode (14 moves, `twisty bfs`) needs them.
  EXPECT_TRUE(search["pattern_databases"].empty()) << search.dump();
  const std::string antipode = "D' F D F U' R U F U' F U R U' R";
  r = testing::run_cubenum("twisty solve " + data_file("tower-2x3x2.tws") + " --scramble \"" +
                           antipode + "\" --method search --json -");
  ASSERT_EQ(r.status, 0) << r.output;
  const Json deep = Json::parse(r.output);
  EXPECT_EQ(deep["length"], 14);
  ASSERT_EQ(deep["pattern_databases"].size(), 1u);
  EXPECT_EQ(deep["pattern_databases"][0]["name"], "CORNER + EDGE");
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

// Several scrambles, the tables made once: lines of moves, and twsearch's
// blocks (a sequence, and a position as in Solved); --all lists several
// optimal solutions, each solving; --tables writes the tables, and a second
// run reads them for the same answers.
TEST(IdaCli, ScrambleFilesAllSolutionsAndTablesFolder) {
  const std::string dir = ::testing::TempDir() + "/ida-cli";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string lines = dir + "/lines.txt", blocks = dir + "/blocks.scr";
  std::ofstream(lines)
      << "# three scrambles\nR U F D L U2\n\nU2 F\nD' F D F U' R U F U' F U R U' R\n";
  std::ofstream(blocks) << "ScrambleAlg six\nR U F\nD L U2\nEnd\n"
                           "Scramble turned\nCORNER\n1 2 4 8 5 6 3 7\nEDGE\n1 2 3 4\nEnd\n";
  const std::string file = data_file("tower-2x3x2.tws");
  auto r = testing::run_cubenum("twisty solve " + file + " --method search --scrambles " + lines +
                                " --all 4 --tables " + dir + "/tables --json -");
  ASSERT_EQ(r.status, 0) << r.output;
  const Json first = Json::parse(r.output);
  ASSERT_EQ(first["solutions"].size(), 3u);
  EXPECT_EQ(first["solutions"][0]["scramble"], "R U F D L U2");
  EXPECT_EQ(first["solutions"][1]["length"], 2);
  EXPECT_FALSE(first["pattern_databases"][0]["loaded"].get<bool>());
  const Definition def = load_definition(file);
  const std::vector<Move> all = all_powers(def);
  for (const Json& s : first["solutions"]) {
    const auto scrambled = play(def, all, def.solved, parse_sequence(all, s["scramble"]));
    ASSERT_TRUE(s.contains("solutions")) << s.dump();
    EXPECT_LE(s["solutions"].size(), 4u);
    EXPECT_EQ(s["solutions"].size(), std::min<std::uint64_t>(4, s["optimal_solutions"]));
    for (const Json& sequence : s["solutions"]) {
      const auto moves = parse_sequence(all, sequence);
      EXPECT_EQ(moves.size(), s["length"].get<std::size_t>());
      EXPECT_EQ(play(def, all, scrambled, moves), def.solved) << sequence;
    }
  }
  r = testing::run_cubenum("twisty solve " + file + " --method search --scrambles " + lines +
                           " --all 4 --tables " + dir + "/tables --json -");
  ASSERT_EQ(r.status, 0) << r.output;
  const Json second = Json::parse(r.output);
  EXPECT_TRUE(second["pattern_databases"][0]["loaded"].get<bool>());
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(second["solutions"][i]["solutions"], first["solutions"][i]["solutions"]);
  // Tables of some pieces, also read through symmetries (the default) and
  // as they are: the same solutions and counts of optimal ones (a symmetric
  // look-up is a lower bound too).
  const std::string partial = "twisty solve " + file + " --method search --scrambles " + lines +
                              " --all 4 --patterns \"CORNER 1-6; EDGE 1-3\" --json -";
  r = testing::run_cubenum(partial);
  ASSERT_EQ(r.status, 0) << r.output;
  const Json symmetric = Json::parse(r.output);
  r = testing::run_cubenum(partial + " --symmetric-lookups 0");
  ASSERT_EQ(r.status, 0) << r.output;
  const Json plain = Json::parse(r.output);
  EXPECT_EQ(symmetric["pattern_databases"][0]["symmetric_lookups"], 2) << symmetric.dump();
  EXPECT_EQ(plain["pattern_databases"][0]["symmetric_lookups"], 0);
  // Clamped tables read as the inverse (the default) or not: the same.
  r = testing::run_cubenum(partial + " --inverse-lookups off");
  ASSERT_EQ(r.status, 0) << r.output;
  const Json as_is = Json::parse(r.output);
  for (std::size_t t = 0; t < 2; ++t) {
    EXPECT_EQ(symmetric["pattern_databases"][t]["inverse_lookups"],
              symmetric["pattern_databases"][t]["clamped"]);
    EXPECT_FALSE(as_is["pattern_databases"][t]["inverse_lookups"].get<bool>());
  }
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(as_is["solutions"][i]["solutions"], first["solutions"][i]["solutions"]);
    EXPECT_EQ(as_is["solutions"][i]["optimal_solutions"],
              first["solutions"][i]["optimal_solutions"]);
  }
  r = testing::run_cubenum(partial + " --inverse-lookups maybe");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("--inverse-lookups"), std::string::npos) << r.output;
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(symmetric["solutions"][i]["solutions"], first["solutions"][i]["solutions"]);
    EXPECT_EQ(plain["solutions"][i]["solutions"], first["solutions"][i]["solutions"]);
    EXPECT_EQ(symmetric["solutions"][i]["optimal_solutions"],
              first["solutions"][i]["optimal_solutions"]);
    EXPECT_EQ(plain["solutions"][i]["optimal_solutions"],
              first["solutions"][i]["optimal_solutions"]);
  }
  // twsearch's blocks, and the table gives the same lengths.
  r = testing::run_cubenum("twisty solve " + file + " --method search --scrambles " + blocks +
                           " --json -");
  ASSERT_EQ(r.status, 0) << r.output;
  const Json searched = Json::parse(r.output);
  r = testing::run_cubenum("twisty solve " + file + " --method table --scrambles " + blocks +
                           " --json -");
  ASSERT_EQ(r.status, 0) << r.output;
  const Json table = Json::parse(r.output);
  ASSERT_EQ(searched["solutions"].size(), 2u);
  EXPECT_EQ(searched["solutions"][0]["scramble"], "six");
  EXPECT_EQ(searched["solutions"][1]["scramble"], "turned");
  EXPECT_EQ(searched["solutions"][1]["length"], 1);  // the position U makes
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_EQ(searched["solutions"][i]["length"], table["solutions"][i]["length"]);
  // Bad scramble files: the file and line named.
  std::ofstream(lines) << "R U\nR Q2\n";
  r = testing::run_cubenum("twisty solve " + file + " --method search --scrambles " + lines);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find(lines + ":2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("unknown move 'Q2'"), std::string::npos) << r.output;
  std::ofstream(blocks) << "ScrambleAlg open\nR U\n";
  r = testing::run_cubenum("twisty solve " + file + " --scrambles " + blocks);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("has no End"), std::string::npos) << r.output;
  std::ofstream(blocks) << "Scramble bad\nCORNER\n1 1 3 4 5 6 7 8\nEnd\n";
  r = testing::run_cubenum("twisty solve " + file + " --scrambles " + blocks);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("does not hold the solved position's pieces"), std::string::npos)
      << r.output;
  r = testing::run_cubenum("twisty solve " + file);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("give --scramble or --scrambles"), std::string::npos) << r.output;
  // A tables folder that cannot be made (under a file), and patterns with
  // the table method.
  r = testing::run_cubenum("twisty solve " + file + " --scramble R --tables " + lines + "/tables");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("cannot make the pattern databases' folder"), std::string::npos)
      << r.output;
  r = testing::run_cubenum("twisty solve " + file + " --scramble R --method table --patterns EDGE");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("drop --patterns"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cubenum::twisty
