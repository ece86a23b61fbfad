// Permutation puzzles from definition files: the reader and its errors, the
// moves of a search, the ranking (round trips, neighbours), and the BFS
// against a deliberately naive BFS over whole positions in a std::map.
#include "cubenum/puzzles/twisty.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <numeric>
#include <queue>
#include <sstream>
#include <string>
#include <vector>

#include "cubenum/bfs/row_bfs.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/puzzles/twisty_space.hpp"

namespace cubenum::twisty {
namespace {

Definition parse(const std::string& text) {
  std::istringstream in(text);
  return parse_definition(in, "test.tws");
}

// The message of the InputError that parsing `text` throws ("" if none).
std::string parse_error(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string pocket_cube_path() {
  return std::string(CUBENUM_DATA_DIR) + "/twisty/pocket-cube.tws";
}

// Distances by brute force: a BFS over whole positions, kept in a std::map,
// with the moves applied by twisty::apply. Shares nothing with the ranking
// or the row engine.
std::vector<std::uint64_t> naive_distances(const Definition& def, const std::vector<Move>& moves) {
  auto key_less = [](const Arrangement& a, const Arrangement& b) {
    return std::tie(a.perm, a.ori) < std::tie(b.perm, b.ori);
  };
  std::map<Arrangement, unsigned, decltype(key_less)> seen(key_less);
  std::queue<Arrangement> queue;
  seen.emplace(def.solved, 0);
  queue.push(def.solved);
  std::vector<std::uint64_t> levels{1};
  while (!queue.empty()) {
    const Arrangement a = queue.front();
    queue.pop();
    const unsigned d = seen.at(a);
    for (const Move& m : moves) {
      Arrangement b = apply(def.sets, a, m.effect);
      if (seen.emplace(b, d + 1).second) {
        if (levels.size() <= d + 1) levels.push_back(0);
        ++levels[d + 1];
        queue.push(std::move(b));
      }
    }
  }
  return levels;
}

std::vector<std::uint64_t> row_distances(const TwistySpace& space,
                                         bfs::DirectionPolicy policy = bfs::DirectionPolicy::Auto) {
  const std::uint64_t source = space.solved_rank();
  bfs::RowBfsOptions options;
  options.policy = policy;
  return bfs::row_bfs(space, {&source, 1}, options).distribution();
}

// Every level with a source built by sweeps around the rows' cycles.
std::vector<std::uint64_t> swept_distances(const TwistySpace& space) {
  const std::uint64_t source = space.solved_rank();
  bfs::RowBfsOptions options;
  options.always_cycles = true;
  const bfs::RowBfsResult result = bfs::row_bfs(space, {&source, 1}, options);
  for (std::size_t d = 1; d < result.levels.size(); ++d)
    EXPECT_GT(result.levels[d].work.cycled, 0U) << "level " << d << " was not swept";
  // The bitplane storage, which records a row's new states when the last
  // sweep has been by, agrees.
  EXPECT_EQ(bfs::row_bfs<bfs::PlaneRows>(space, {&source, 1}, options).distribution(),
            result.distribution());
  return result.distribution();
}

// ---- the reader

const char* const kToy = R"(# a toy: two identical pairs that twist, and a set that only swaps
Name Toy
Set PAIRS 4 2
Set SWAP 3 1
Solved
PAIRS
1 1 2 2
0 0 0 0
End
Move X
PAIRS
2 3 4 1
1 0 0 0
End
Move Y   # a comment after a move name
SWAP
2 1 3
PAIRS
2 1 3 4
End
)";

TEST(TwistyDefinition, ReadsSetsSolvedAndMovesInStateForm) {
  const Definition def = parse(kToy);
  EXPECT_EQ(def.name, "Toy");
  ASSERT_EQ(def.sets.size(), 2U);
  EXPECT_EQ(def.sets[0].slots, 4U);
  EXPECT_EQ(def.sets[0].orientations, 2U);
  EXPECT_EQ(def.solved.perm[0], (std::vector<std::uint8_t>{0, 0, 1, 1}));
  ASSERT_EQ(def.moves.size(), 2U);
  // X: slot i takes the piece of slot p[i]; the twist of the piece coming
  // from slot 1 (by piece in the file) lands in slot 4 (by slot here).
  EXPECT_EQ(def.moves[0].effect.perm[0], (std::vector<std::uint8_t>{1, 2, 3, 0}));
  EXPECT_EQ(def.moves[0].effect.ori[0], (std::vector<std::uint8_t>{0, 0, 0, 1}));
  // Y names SWAP first; PAIRS is not twisted.
  EXPECT_EQ(def.moves[1].effect.perm[1], (std::vector<std::uint8_t>{1, 0, 2}));
  EXPECT_EQ(def.moves[1].effect.ori[0], (std::vector<std::uint8_t>{0, 0, 0, 0}));
}

TEST(TwistyDefinition, BadFilesNameTheLineAndTheProblem) {
  const std::string head = "Set A 3 2\nSolved\nA\n1 2 3\nEnd\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {head + "Move M\nA\n1 1 2\nEnd\n", "test.tws:8: 1 appears twice in set A"},
      {head + "Move M\nA\n1 2 4\nEnd\n", "test.tws:8: piece 4 is out of range (expected 1 to 3)"},
      {head + "Move M\nA\n2 1 3\n0 2 0\nEnd\n", "test.tws:9: orientation 2 is out of range"},
      {head + "Move M\nB\n2 1 3\nEnd\n", "test.tws:7: set 'B' is not declared"},
      {head + "Move M\nA\n2 1 3\nEnd\nMove M\nA\n3 2 1\nEnd\n",
       "test.tws:10: move M is defined twice (first at line 6)"},
      {head + "Move M\nA\n2 1 3\n", "test.tws:8: Move M (line 6) has no End"},
      {head + "Move M\nA\n2 1 3\nMove N\n",
       "test.tws:9: Move M (line 6) has no End before this Move"},
      {head + "Move M\nA\n2 1\nEnd\n",
       "test.tws:8: set A has 3 slots, but this line has 2 numbers"},
      {head + "Illegal A 1 2\n", "test.tws:6: 'Illegal' is not supported"},
      {head + "MoveSequence S M M\n", "test.tws:6: 'MoveSequence' is not supported"},
      {"Set A 3 2\nStartState\nA\n1 2 3\nEnd\n", "test.tws:2: 'StartState' is not supported"},
      {"Set A 3 2\nSolved\nA\n1 ? 3\nEnd\n", "test.tws:4: '?' (an unknown piece) is not supported"},
      {head + "Move M\nA\n1 2 3\nEnd\n", "test.tws:6: move M changes nothing"},
      {head, "test.tws: no Move block"},
      {"Set A 3 x\n", "test.tws:1: 'x': expected the orientation count, a whole number from 1"},
      {"Set A 300 1\n", "test.tws:1: slot count 300 is out of range"},
      {"Set A 3 1\nSet A 2 1\n", "test.tws:2: set A is declared twice"},
      {"Solved\nEnd\n", "test.tws:1: Solved before any Set"},
      {head + "Move M\nA\n2 1 3\nEnd\nFrobnicate\n", "test.tws:10: unexpected 'Frobnicate'"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string message = parse_error(text);
    EXPECT_NE(message.find(expected), std::string::npos) << "got: " << message;
  }
}

TEST(TwistyDefinition, AByteOrderMarkIsSkipped) {
  EXPECT_EQ(parse(std::string("\xEF\xBB\xBF") + kToy).name, "Toy");
}

// ---- moves

TEST(TwistyMoves, EveryPowerWithTwsearchsNames) {
  const Definition def = load_definition(pocket_cube_path());
  const std::vector<Move> all = expand_moves(def, {});
  std::vector<std::string> names;
  for (const Move& m : all) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"R", "R2", "R'", "L", "L2", "L'", "U", "U2", "U'", "D",
                                             "D2", "D'", "F", "F2", "F'", "B", "B2", "B'"}));
  const std::vector<Move> quarter = expand_moves(def, {{"U", "F", "R"}, true});
  names.clear();
  for (const Move& m : quarter) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"U", "U'", "F", "F'", "R", "R'"}));
  // R2 alone generates {R2}, a move of order 2 and cost 1.
  const std::vector<Move> halves = expand_moves(def, {{"R2"}, true});
  ASSERT_EQ(halves.size(), 1U);
  EXPECT_EQ(halves[0].name, "R2");
  EXPECT_EQ(halves[0].order, 2U);
}

TEST(TwistyMoves, PowersOfAMoveOfOrderFive) {
  const Definition def = parse("Set A 5 1\nSolved\nA\n1 2 3 4 5\nEnd\nMove C\nA\n2 3 4 5 1\nEnd\n");
  std::vector<std::string> names;
  for (const Move& m : expand_moves(def, {})) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"C", "C2", "C2'", "C'"}));
}

TEST(TwistyMoves, UnknownOrRepeatedMovesAreRefused) {
  const Definition def = load_definition(pocket_cube_path());
  EXPECT_THROW(expand_moves(def, {{"Q"}, false}), InputError);
  EXPECT_THROW(expand_moves(def, {{"R", "R2"}, false}), InputError);
  EXPECT_EQ(split_move_list("U, F,R"), (std::vector<std::string>{"U", "F", "R"}));
}

// ---- the ranked space

// rank/unrank round trips, and step agrees with applying the move to the
// whole position.
void expect_consistent(const TwistySpace& space) {
  const Definition& def = space.definition();
  const std::uint64_t size = space.size();
  const std::uint64_t stride = std::max<std::uint64_t>(1, size / 4000);
  for (std::uint64_t r = 0; r < size; r += stride) {
    const Arrangement a = space.unrank(r);
    ASSERT_TRUE(space.contains(a)) << r;
    ASSERT_EQ(space.rank(a), r);
    for (int m = 0; m < space.moves(); ++m) {
      const Arrangement b =
          apply(def.sets, a, space.move_list()[static_cast<std::size_t>(m)].effect);
      ASSERT_EQ(space.step(r, m), space.rank(b));
      // The row layout says the same.
      const auto row = static_cast<std::uint32_t>(r / space.columns());
      const auto column = static_cast<std::uint32_t>(r % space.columns());
      ASSERT_EQ(space.rank(b), std::uint64_t{space.row_step(row, m)} * space.columns() +
                                   space.action(row, m)[column]);
    }
  }
}

TEST(TwistySpace, ToyPuzzleRanksIdenticalPiecesTwistsAndParity) {
  const Definition def = parse(kToy);
  const TwistySpace space(def, expand_moves(def, {}));
  // PAIRS: 4!/(2!2!) = 6 arrangements; twists of 4 slots (X twists one
  // piece by 1, so no sum constraint): 16. SWAP: 3 distinct pieces, but Y
  // is the only move touching it and it swaps slots 1 and 2: two orbits,
  // {1, 2} and {3}; the orbit {1, 2} has 2 arrangements.
  EXPECT_EQ(space.size(), 6U * 16 * 2);
  expect_consistent(space);
  EXPECT_EQ(row_distances(space), naive_distances(def, space.move_list()));
}

TEST(TwistySpace, PocketCubeFixedCornerHasThePublishedTables) {
  // Published tables (Scherphuis, jaapsch.net/puzzles/cube2.htm; OEIS
  // A079761 for the half turn metric, A079762 for the quarter turns).
  const std::vector<std::uint64_t> half = {1,     9,      54,     321,     1847,   9992,
                                           50136, 227536, 870072, 1887748, 623800, 2644};
  const std::vector<std::uint64_t> quarter = {
      1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276};
  const Definition def = load_definition(pocket_cube_path());
  for (bool q : {false, true}) {
    const TwistySpace space(def, expand_moves(def, {{"U", "F", "R"}, q}));
    // The D-B-L corner never moves: 7! x 3^6 ranked states, all reachable.
    EXPECT_EQ(space.size(), 3674160U);
    EXPECT_EQ(row_distances(space), q ? quarter : half);
  }
}

// The skewb (data/twisty/skewb.tws, from a sticker model): the published
// table (Scherphuis, jaapsch.net/puzzles/skewb.htm: the D-B-L corner
// fixed, a move a third of a turn).
TEST(TwistySpace, SkewbHasThePublishedTable) {
  const std::vector<std::uint64_t> published = {1,     8,      48,      288,     1728,  10248,
                                                59304, 315198, 1225483, 1455856, 81028, 90};
  const Definition def = load_definition(std::string(CUBENUM_DATA_DIR) + "/twisty/skewb.tws");
  const TwistySpace space(def, expand_moves(def, {}));
  EXPECT_EQ(row_distances(space), published);
}

// The dino cube (data/twisty/dino.tws, from a sticker model: its eight
// corners' moves on twelve edges): twsearch's table for its own dino.tws
// (results/twisty.md: 239,500,800 positions, 12!/2 as every move is a
// 3-cycle; 13 moves at most, 366 antipodes).
TEST(TwistySpace, DinoHasTwsearchsTable) {
  const Definition def = load_definition(std::string(CUBENUM_DATA_DIR) + "/twisty/dino.tws");
  const TwistySpace space(def, expand_moves(def, {}));
  const std::vector<std::uint64_t> distances = row_distances(space);
  EXPECT_EQ(std::accumulate(distances.begin(), distances.end(), std::uint64_t{0}), 239500800U);
  ASSERT_EQ(distances.size(), 14U);
  EXPECT_EQ(distances.back(), 366U);
}

// Twists tied to positions: each move turns its tiles a quarter turn as it
// moves them to a neighbouring cell, so a tile's twist mod 2 is fixed by
// its cell's colour on a checkerboard (a potential mod 2).
// (data/twisty/tiles-2x3.tws)
TEST(TwistySpace, TwistsTiedToPositionsAgreeWithTheNaiveSearch) {
  const Definition def = load_definition(std::string(CUBENUM_DATA_DIR) + "/twisty/tiles-2x3.tws");
  for (std::uint32_t columns : {1U << 16, 100U, 8U}) {
    SpaceOptions options;
    options.max_columns = columns;
    const TwistySpace space(def, expand_moves(def, {}), options);
    SCOPED_TRACE(space.notes().back());
    EXPECT_EQ(space.orbits()[0].potential, 2U);
    // 6! arrangements, 2 free twists each with the sum kept: 720 * 2^5.
    EXPECT_EQ(space.size(), 720U * 32);
    expect_consistent(space);
    EXPECT_EQ(row_distances(space), naive_distances(def, space.move_list()));
  }
}

// The same puzzles as two of twsearch's samples, written independently
// (data/twisty/README.md), give twsearch's tables: from twsearch 0a8bfb0,
// `twsearch -g samples/main/2x2x2.tws` and `-g samples/main/turnfour.tws`
// (results/twisty.md). The pocket cube with every face turning, and the
// tiles whose twists are tied to their cells (ranked exactly).
TEST(TwistySpace, SamePuzzlesAsTwsearchsSamplesGiveItsTables) {
  const Definition cube = load_definition(pocket_cube_path());
  const TwistySpace cube_space(cube, expand_moves(cube, {}));
  EXPECT_EQ(row_distances(cube_space),
            (std::vector<std::uint64_t>{1, 18, 243, 2874, 28000, 205416, 1168516, 5402628, 20776176,
                                        45391616, 15139616, 64736}));
  const Definition tiles = load_definition(std::string(CUBENUM_DATA_DIR) + "/twisty/tiles-3x3.tws");
  const TwistySpace tiles_space(tiles, expand_moves(tiles, {}));
  EXPECT_EQ(tiles_space.size(), 92897280U);
  EXPECT_EQ(row_distances(tiles_space),
            (std::vector<std::uint64_t>{1, 12, 108, 968, 8572, 74952, 638044, 5005792, 28783571,
                                        51843540, 6537044, 4672, 4}));
}

// Every part's value read from a position (encode_part, through its memo
// keyed by each piece's place where the part's kinds are single pieces,
// else by each slot's label) is the coordinate its rank unranks to: every
// rank of a 2x3 loop of six distinct tiles, and a sample of tiles-3x3's
// (nine distinct tiles in two parts), each read twice (the second from the
// memo).
TEST(TwistySpace, PartValuesReadFromPositionsAreTheirCoordinates) {
  const Definition loop = parse(R"(Set TILE 6 1
Solved
TILE
1 2 3 4 5 6
End
Move R
TILE
2 3 1 4 5 6
End
Move S
TILE
1 2 3 5 6 4
End
Move C
TILE
4 2 3 1 5 6
End
)");
  const Definition tiles = load_definition(std::string(CUBENUM_DATA_DIR) + "/twisty/tiles-3x3.tws");
  for (const Definition* def : {&loop, &tiles}) {
    const TwistySpace space(*def, expand_moves(*def, {}));
    const std::uint64_t step = std::max<std::uint64_t>(1, space.size() / 100000);
    Arrangement a = def->solved;
    Position scratch, read;
    std::vector<std::uint64_t> coordinates;
    for (int pass = 0; pass < 2; ++pass)
      for (std::uint64_t rank = 0; rank < space.size(); rank += step) {
        space.unrank(rank, a, scratch);
        space.coordinates(rank, coordinates);
        space.read_position(a, read);
        for (std::size_t i = 0; i < space.parts().size(); ++i)
          ASSERT_EQ(space.part_value(i, read), coordinates[i]) << def->name << " rank " << rank;
      }
  }
}

// Two sets that every move moves alike, their slots numbered differently
// (a piece split in two, like a pyraminx's tip and the centre under it):
// the second set's arrangement follows the first's.
TEST(TwistySpace, PiecesMovingWithOthersAreRankedOnce) {
  const Definition def = parse(R"(Set TIP 4 3
Set BASE 4 1
Solved
TIP
1 2 3 4
BASE
1 2 3 4
End
Move X
TIP
2 3 1 4
1 0 2 0
BASE
1 3 4 2
End
Move Y
TIP
1 3 4 2
BASE
3 2 4 1
End
Move T
TIP
1 2 3 4
0 0 0 1
End
)");
  const TwistySpace space(def, expand_moves(def, {}));
  ASSERT_EQ(space.orbits().size(), 2U);
  EXPECT_EQ(space.orbits()[1].coupled_to, 0);
  // Even permutations of the tips (X and Y are 3-cycles) times their twists.
  EXPECT_EQ(space.size(), 12U * 81);
  expect_consistent(space);
  EXPECT_EQ(row_distances(space), naive_distances(def, space.move_list()));
}

// Small rows force the cut of the corners' arrangement (its last pieces in
// the column, the rest in the row: permutations that depend on which slots
// the row's pieces take), with and without a parity to keep.
TEST(TwistySpace, CutArrangementsAgreeWithTheNaiveSearch) {
  const Definition def = load_definition(pocket_cube_path());
  SpaceOptions small;
  small.max_columns = 100;
  for (const MoveChoice& choice :
       {MoveChoice{{"U", "R"}, true}, MoveChoice{{"U2", "F2", "R2"}, false},
        MoveChoice{{"U", "R2"}, false}}) {
    const TwistySpace space(def, expand_moves(def, choice), small);
    SCOPED_TRACE(space.notes().back());
    EXPECT_GT(space.contexts(), 1U);
    expect_consistent(space);
    const std::vector<std::uint64_t> naive = naive_distances(def, space.move_list());
    EXPECT_EQ(row_distances(space), naive);
    EXPECT_EQ(row_distances(space, bfs::DirectionPolicy::TopDown), naive);
    EXPECT_EQ(row_distances(space, bfs::DirectionPolicy::BottomUp), naive);
  }
}

// Sweeps: each generator's powers reach a row of one of its cycles on the
// rows through a running union around the cycle (bfs/row_families.hpp).
// Whole and cut layouts (column permutations that depend on the row, and
// cycles of every length where a row's pieces lie outside the move), with
// generators of orders 2 and 4; only where every power is a move.
TEST(TwistySpace, SweepsAroundTheRowCyclesAgreeWithTheNaiveSearch) {
  const Definition def = load_definition(pocket_cube_path());
  // Published (Scherphuis, jaapsch.net/puzzles/cube2.htm; OEIS A079761).
  const std::vector<std::uint64_t> half = {1,     9,      54,     321,     1847,   9992,
                                           50136, 227536, 870072, 1887748, 623800, 2644};
  SpaceOptions whole, cut;
  cut.max_columns = 100;
  for (const SpaceOptions& options : {whole, cut}) {
    const TwistySpace space(def, expand_moves(def, {{"U", "F", "R"}, false}), options);
    SCOPED_TRACE(space.notes().back());
    const auto sweeps = bfs::detail::sweeps_of(space);
    ASSERT_EQ(sweeps.size(), 3U);
    for (const auto& sweep : sweeps) {
      EXPECT_EQ(sweep.order, 4U);
      EXPECT_EQ(sweep.rows.size(), space.rows());  // every row once
    }
    EXPECT_EQ(swept_distances(space), half);
  }
  for (const MoveChoice& choice :
       {MoveChoice{{"U2", "F2", "R2"}, false}, MoveChoice{{"U", "R2"}, false}}) {
    const TwistySpace space(def, expand_moves(def, choice), cut);
    SCOPED_TRACE(space.notes().back());
    EXPECT_FALSE(bfs::detail::sweeps_of(space).empty());
    EXPECT_EQ(swept_distances(space), naive_distances(def, space.move_list()));
  }
  const Definition tiles = load_definition(std::string(CUBENUM_DATA_DIR) + "/twisty/tiles-2x3.tws");
  SpaceOptions narrow;
  narrow.max_columns = 8;
  narrow.min_network_states = 0;  // 23,040 states: networks only when asked for
  const TwistySpace space(tiles, expand_moves(tiles, {}), narrow);
  EXPECT_EQ(swept_distances(space), naive_distances(tiles, space.move_list()));
  // Quarter turns leave out the half turns: no sweep.
  const TwistySpace quarter(def, expand_moves(def, {{"U", "F", "R"}, true}));
  EXPECT_TRUE(bfs::detail::sweeps_of(quarter).empty());
}

}  // namespace
}  // namespace cubenum::twisty

// ---- the command line
#include "run_cubenum.hpp"

namespace cubenum::twisty {
namespace {

using cubenum::testing::run_cubenum;

TEST(TwistyCommand, SolvesFromATableItWritesAndReadsAgain) {
  const std::string file = CUBENUM_DATA_DIR "/twisty/pocket-cube.tws";
  const std::string table = ::testing::TempDir() + "cubenum-pocket-cube.table";
  std::remove(table.c_str());
  const std::string solve =
      "twisty solve " + file + " --moves U,F,R --scramble \"R U F' R2 U' F\" --table " + table;
  const auto first = run_cubenum(solve);  // builds and writes the table
  EXPECT_EQ(first.status, 0) << first.output;
  EXPECT_NE(first.output.find("(6 moves, optimal)"), std::string::npos) << first.output;
  const std::string wrote = "wrote " + table + "\n";
  ASSERT_GE(first.output.size(), wrote.size());
  EXPECT_EQ(first.output.substr(first.output.size() - wrote.size()), wrote) << first.output;
  const auto second = run_cubenum(solve);  // reads it, and says nothing of it
  EXPECT_EQ(second.output + wrote, first.output);
  // Another move set is another space: its table is refused.
  const auto other =
      run_cubenum("twisty solve " + file + " --moves U,R --scramble R --table " + table);
  EXPECT_EQ(other.status, 2);
  EXPECT_NE(other.output.find("belongs to another puzzle"), std::string::npos) << other.output;
  std::remove(table.c_str());
}

TEST(TwistyCommand, BadInputIsAnErrorWithTheFileAndLine) {
  const std::string dir = ::testing::TempDir();
  const std::string bad = dir + "cubenum-bad.tws";
  std::FILE* f = std::fopen(bad.c_str(), "w");
  std::fputs("Set A 3 1\nSolved\nA\n1 2 3\nEnd\nMove M\nA\n2 2 3\nEnd\n", f);
  std::fclose(f);
  auto r = run_cubenum("twisty bfs " + bad);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find(bad + ":8: 2 appears twice in set A"), std::string::npos) << r.output;
  r = run_cubenum("twisty bfs " + dir + "cubenum-no-such-file.tws");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("cannot open the definition file"), std::string::npos) << r.output;
  const std::string file = CUBENUM_DATA_DIR "/twisty/pocket-cube.tws";
  r = run_cubenum("twisty bfs " + file + " --moves U,Q");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("no move 'Q'"), std::string::npos) << r.output;
  r = run_cubenum("twisty bfs " + file + " --memory 0.001 --over positions");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("more than the 1.0 MiB that --memory allows"), std::string::npos)
      << r.output;
  // Too little for any BFS: the need over classes and over positions.
  r = run_cubenum("twisty bfs " + file + " --memory 0.0001");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("over classes of its 48 symmetries"), std::string::npos) << r.output;
  r = run_cubenum("twisty solve " + file + " --moves U,F,R --scramble \"D\"");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("leaves the positions the chosen moves can reach"), std::string::npos);
  // A table that cannot be written fails before the BFS, naming the folder.
  r = run_cubenum("twisty bfs " + file + " --table /nonexistent-cubenum/t.table");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("no folder '/nonexistent-cubenum'"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("depth "), std::string::npos) << "the BFS ran first: " << r.output;
  std::remove(bad.c_str());
}

}  // namespace
}  // namespace cubenum::twisty
