// The pocket cube: published distance tables and class count, a second
// independent encoding, coordinates, symmetries, solving replayed on
// hand-written sticker moves, the seed's ids, and every rejected input.
#include "cubenum/puzzles/pocket_cube.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include "cubenum/bfs/hashed_bfs.hpp"
#include "cubenum/bfs/row_policies.hpp"
#include "cubenum/core/digit_shift.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/pocket_cube_packed.hpp"
#include "cubenum/report/json.hpp"
#include "run_cubenum.hpp"

namespace cubenum::pocket_cube {
namespace {

using Distribution = std::vector<std::uint64_t>;

// Published: Jaap Scherphuis, "Pocket Cube" (jaapsch.net/puzzles/cube2.htm),
// and OEIS A079762 (QTM) / A079761 (HTM).
const Distribution kQuarterTurnTable = {1,      6,      27,     120,     534,    2256,  8969, 33058,
                                        114149, 360508, 930588, 1350852, 782536, 90280, 276};
const Distribution kHalfTurnTable = {1,     9,      54,     321,     1847,   9992,
                                     50136, 227536, 870072, 1887748, 623800, 2644};
// Published: 77,802 positions up to the 48 symmetries (Scherphuis, ibid.).
constexpr std::uint64_t kSymmetryClasses = 77802;

// ------------------------------------------------- hand-written stickers
// The seed's net, moves typed in by hand from its diagram: new[i] = old[src].
using Cycles = std::vector<std::pair<int, int>>;  // (destination, source)
const Cycles kHandU = {{1, 0}, {3, 1}, {2, 3},  {0, 2},  {4, 6},  {5, 7},
                       {6, 8}, {7, 9}, {8, 10}, {9, 11}, {10, 4}, {11, 5}};
const Cycles kHandR = {{9, 8},  {17, 9}, {16, 17}, {8, 16},  {1, 7},   {3, 15},
                       {18, 1}, {10, 3}, {23, 10}, {21, 18}, {15, 23}, {7, 21}};
const Cycles kHandF = {{7, 6},  {15, 7},  {14, 15}, {6, 14}, {8, 2},  {16, 3},
                       {21, 8}, {20, 16}, {13, 21}, {5, 20}, {2, 13}, {3, 5}};

std::string hand_turn(const std::string& s, const Turn& turn) {
  const Cycles& cycles = turn.face == Face::U ? kHandU : turn.face == Face::R ? kHandR : kHandF;
  std::string out = s;
  for (int q = 0; q < turn.quarters; ++q) {
    const std::string before = out;
    for (auto [to, from] : cycles) out[to] = before[from];
  }
  return out;
}

bool hand_solved(const std::string& s) {
  const int faces[6][4] = {{0, 1, 2, 3},   {4, 5, 12, 13},   {6, 7, 14, 15},
                           {8, 9, 16, 17}, {10, 11, 18, 19}, {20, 21, 22, 23}};
  for (const auto& f : faces)
    for (int k = 1; k < 4; ++k)
      if (s[f[k]] != s[f[0]]) return false;
  return true;
}

const std::string kSolvedDigits = "000022443355224433551111";  // the seed's solved cube

std::vector<Turn> random_turns(std::mt19937& rng, int length, bool all_faces) {
  std::vector<Turn> turns;
  for (int i = 0; i < length; ++i)
    turns.push_back(
        {static_cast<Face>(rng() % (all_faces ? 6 : 3)), static_cast<std::uint8_t>(1 + rng() % 3)});
  return turns;
}

// Fewest hand-written turns that solve `s`, by iterative deepening (small
// depths only): an optimality check that shares nothing with the BFS.
int brute_force_distance(const std::string& s, bool half_turns, int limit) {
  std::vector<Turn> moves;
  for (Face f : {Face::U, Face::R, Face::F})
    for (std::uint8_t q : {1, 2, 3})
      if (q != 2 || half_turns) moves.push_back({f, q});
  std::function<bool(const std::string&, int)> search = [&](const std::string& x, int depth) {
    if (hand_solved(x)) return true;
    if (depth == 0) return false;
    for (const Turn& m : moves)
      if (search(hand_turn(x, m), depth - 1)) return true;
    return false;
  };
  for (int d = 0; d <= limit; ++d)
    if (search(s, d)) return d;
  return -1;
}

// --------------------------------------------------------------- tables
TEST(PocketCube, QuarterTurnTableIsThePublishedOne) {
  const Enumeration e = enumerate(Metric::Quarter, false);
  EXPECT_EQ(e.distribution, kQuarterTurnTable);
  EXPECT_EQ(e.states(), kPositionCount);
}

TEST(PocketCube, HalfTurnTableIsThePublishedOne) {
  EXPECT_EQ(enumerate(Metric::Half, false).distribution, kHalfTurnTable);
}

// `enumerate` runs the row engine on twists by piece (ShiftRows); `solve`
// runs the generic frontier engine over ranks; the row engine on twists by
// slot (ProductRows) is measured in bench/. All give the published tables.
TEST(PocketCube, FrontierEngineAndProductRowsGiveThePublishedTablesToo) {
  const std::uint64_t solved = 0;
  for (Metric metric : {Metric::Quarter, Metric::Half}) {
    const PocketCubeSpace space(metric);
    const Distribution& table = metric == Metric::Quarter ? kQuarterTurnTable : kHalfTurnTable;
    EXPECT_EQ(bfs::frontier_bfs(space, {&solved, 1}).distribution(), table);
    EXPECT_EQ(bfs::row_bfs<bfs::PlaneRows>(bfs::ProductRows(space), {&solved, 1}).distribution(),
              table);
  }
}

// Each face's turns are powers of its quarter turn: the row engine finds
// those move families (cycles of 4 rows, 5040 / 4 of them), with powers
// 1, 2, 3 in the half turn metric and 1, 3 in the quarter turn metric.
TEST(PocketCube, FaceTurnsFormMoveFamiliesOfEachFace) {
  for (Metric metric : {Metric::Half, Metric::Quarter}) {
    const auto families = bfs::detail::families_of(bfs::ProductRows(PocketCubeSpace{metric}));
    ASSERT_EQ(families.size(), 3U);
    for (const auto& family : families) {
      EXPECT_EQ(family.order, 4U);
      EXPECT_EQ(family.cycles(), kPermutationCount / 4);
      const std::vector<std::uint32_t> powers = metric == Metric::Half
                                                    ? std::vector<std::uint32_t>{1, 2, 3}
                                                    : std::vector<std::uint32_t>{1, 3};
      EXPECT_EQ(family.powers, powers);
    }
  }
}

// Twists by piece: a face turn's row and shift give the neighbour that the
// corner model gives, converted through ranks. U, D and half turns twist
// nothing (the U/D faces keep their stickers on U/D), quarter R and F do.
TEST(PocketCube, ShiftCoordinatesMatchTheRankedNeighbours) {
  using Twists = DigitShift<3, 6>;
  for (Metric metric : {Metric::Quarter, Metric::Half}) {
    const PocketCubeShiftSpace space(metric);
    const std::vector<Turn> turns = generators(metric);
    for (std::uint32_t perm = 0; perm < kPermutationCount; perm += 37)
      for (std::uint32_t twists = 0; twists < kTwistCount; twists += 101)
        for (int m = 0; m < space.moves(); ++m) {
          const Corners turned = apply_turn(unrank(space.rank_of(perm, twists)), turns[m]);
          ASSERT_EQ(
              space.rank_of(space.row_step(perm, m), Twists::sum(twists, space.shift(perm, m))),
              rank(turned));
          if (turns[m].face == Face::U || turns[m].quarters == 2) {
            ASSERT_EQ(space.shift(perm, m), 0U);
          }
        }
  }
}

TEST(PocketCube, ProductCoordinatesMatchTheRankedNeighbours) {
  for (Metric metric : {Metric::Quarter, Metric::Half}) {
    const PocketCubeSpace space(metric);
    for (std::uint64_t r = 0; r < kPositionCount; r += 997)
      for (int m = 0; m < space.moves(); ++m) {
        const auto perm = static_cast<std::uint32_t>(r / kTwistCount);
        const auto twist = static_cast<std::uint32_t>(r % kTwistCount);
        EXPECT_EQ(
            std::uint64_t{space.row_step(perm, m)} * kTwistCount + space.column_step(twist, m),
            space.neighbour(r, m));
        EXPECT_EQ(space.neighbour(space.neighbour(r, m), space.inverse(m)), r);
      }
  }
}

TEST(PocketCube, SymmetryClassesArePublishedAndThreadIndependent) {
  std::vector<Distribution> runs;
  for (int threads : {1, 2}) {
    cubenum::ThreadLimit limit(threads);
    const Enumeration e = enumerate(Metric::Quarter, true);
    EXPECT_EQ(e.symmetry_classes(), kSymmetryClasses);
    ASSERT_EQ(e.symmetry_distribution.size(), kQuarterTurnTable.size());
    // By hand: the solved cube is one class, and so are the 6 quarter turns.
    EXPECT_EQ(e.symmetry_distribution[0], 1U);
    EXPECT_EQ(e.symmetry_distribution[1], 1U);
    runs.push_back(e.symmetry_distribution);
  }
  EXPECT_EQ(runs[0], runs[1]);
}

// The hashed engine on the packed Kociemba encoding agrees with the frontier
// engine on the move tables (QTM at 2 threads, HTM at 1: the hashed engine's
// own tests cover thread counts; each run here costs seconds).
TEST(PocketCube, PackedEncodingInHashedEngineGivesTheSameTables) {
  for (bool half : {false, true}) {
    {
      cubenum::ThreadLimit limit(half ? 1 : 2);
      const std::uint64_t solved = PackedPocketCube::solved();
      const auto result = bfs::hashed_bfs(PackedPocketCube(half), {&solved, 1}, kPositionCount);
      EXPECT_EQ(result.distribution, half ? kHalfTurnTable : kQuarterTurnTable);
    }
  }
}

// ---------------------------------------------------------- coordinates
TEST(PocketCube, RankUnrankRoundTripOverEveryPosition) {
  for (std::uint64_t r = 0; r < kPositionCount; ++r) {
    const Corners c = unrank(r);
    ASSERT_EQ(c.piece[kFixedSlot], kFixedSlot);
    ASSERT_EQ(rank(c), r);
  }
  EXPECT_EQ(rank(Corners{}), 0U);
}

TEST(PocketCube, MoveTablesHaveInversesAndOrderFour) {
  const PocketCubeSpace space(Metric::Half);
  ASSERT_EQ(space.moves(), 9);
  for (int face = 0; face < 3; ++face) {
    const int quarter = 3 * face, half = quarter + 1, inverse = quarter + 2;
    EXPECT_EQ(space.turn(quarter).quarters, 1);
    EXPECT_EQ(space.turn(inverse).quarters, 3);
    for (std::uint64_t r = 0; r < kPositionCount; r += 7) {
      const std::uint64_t once = space.neighbour(r, quarter);
      ASSERT_NE(once, r);
      ASSERT_EQ(space.neighbour(once, inverse), r);  // X X' = identity
      ASSERT_EQ(space.neighbour(once, quarter), space.neighbour(r, half));
      const std::uint64_t twice = space.neighbour(space.neighbour(r, half), quarter);
      ASSERT_EQ(space.neighbour(twice, quarter), r);  // X^4 = identity
    }
  }
}

TEST(PocketCube, StickerGeometryMatchesHandWrittenMoves) {
  std::mt19937 rng(7);
  std::string s = kSolvedDigits;
  for (int i = 0; i < 200; ++i) {
    const Turn turn = random_turns(rng, 1, false)[0];
    Stickers stickers{};
    for (int f = 0; f < kStickerCount; ++f) stickers[f] = static_cast<std::uint8_t>(s[f] - '0');
    s = hand_turn(s, turn);
    ASSERT_EQ(sticker_digits(apply_turn(stickers, turn)), s);
    ASSERT_EQ(sticker_digits(stickers_from_corners(parse_stickers(s))), s);
  }
}

TEST(PocketCube, CornerTurnsAgreeWithStickerTurnsOnAllSixFaces) {
  std::mt19937 rng(11);
  Corners corners;
  Stickers stickers = solved_stickers();
  for (const Turn& turn : random_turns(rng, 300, true)) {
    corners = apply_turn(corners, turn);
    stickers = apply_turn(stickers, turn);
    ASSERT_EQ(stickers_from_corners(corners), stickers);
  }
}

// ------------------------------------------------------------- symmetry
TEST(PocketCube, ConjugationIsAGroupAction) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const Corners x = unrank(rng() % kPositionCount);
    EXPECT_EQ(conjugate(x, 0), x);
    for (int a = 0; a < kSymmetryCount; ++a)
      for (int b = 0; b < kSymmetryCount; ++b)
        ASSERT_EQ(conjugate(conjugate(x, a), b), conjugate(x, kSymmetryTables.product[b][a]));
  }
}

// Distance from solved of every position, by the frontier engine.
std::vector<std::uint8_t> depths(Metric metric) {
  std::vector<std::uint8_t> depth(kPositionCount, 0xFF);
  bfs::BfsOptions options;
  options.on_level = [&](const bfs::LevelStats& level, const bfs::LevelStates& states) {
    for (std::uint64_t r = 0; r < kPositionCount; ++r)
      if (states.level->test(r)) depth[r] = static_cast<std::uint8_t>(level.depth);
  };
  const std::uint64_t solved = 0;
  bfs::frontier_bfs(PocketCubeSpace(metric), {&solved, 1}, options);
  return depth;
}

// A mirror maps quarter turns to quarter turns of the opposite sense, so
// every image of a position is as far from solved as the position.
TEST(PocketCube, ConjugatesKeepTheirDistance) {
  const std::vector<std::uint8_t> depth = depths(Metric::Quarter);
  for (std::uint64_t r = 0; r < kPositionCount; r += 101) {
    const Corners x = unrank(r);
    for (int s = 0; s < kSymmetryCount; ++s) ASSERT_EQ(depth[rank(conjugate(x, s))], depth[r]);
  }
}

// The classes by depth (from the definition file's symmetry path, QTM and
// HTM) against a naive count with this cube's own geometry: a position
// counts where no image under the 48 ranks below it, and the orbits of
// those counted cover every position once.
TEST(PocketCube, ClassesByDepthAgreeWithTheGeometrysSymmetries) {
  const std::vector<std::uint8_t> quarter = depths(Metric::Quarter), half = depths(Metric::Half);
  std::vector<std::uint64_t> by_quarter(kQuarterTurnTable.size()), by_half(kHalfTurnTable.size());
  std::uint64_t covered = 0;
  for (std::uint64_t r = 0; r < kPositionCount; ++r) {
    const Corners x = unrank(r);
    bool least = true;
    for (int s = 1; s < kSymmetryCount && least; ++s) least = rank(conjugate(x, s)) >= r;
    if (!least) continue;
    std::set<std::uint64_t> orbit;
    for (int s = 0; s < kSymmetryCount; ++s) orbit.insert(rank(conjugate(x, s)));
    covered += orbit.size();
    ++by_quarter[quarter[r]];
    ++by_half[half[r]];
  }
  EXPECT_EQ(covered, kPositionCount);
  EXPECT_EQ(enumerate(Metric::Quarter, true).symmetry_distribution, by_quarter);
  EXPECT_EQ(enumerate(Metric::Half, true).symmetry_distribution, by_half);
}

// --------------------------------------------------------------- solving
std::string replay(std::string s, const std::vector<Turn>& turns) {
  for (const Turn& t : turns) s = hand_turn(s, t);
  return s;
}

TEST(PocketCube, SolutionsReplayedByHandReachSolved) {
  std::mt19937 rng(2017);
  for (Metric metric : {Metric::Quarter, Metric::Half}) {
    for (int trial = 0; trial < 4; ++trial) {
      const std::string scrambled = replay(kSolvedDigits, random_turns(rng, 25, false));
      const std::vector<Turn> solution = solve(metric, parse_stickers(scrambled));
      EXPECT_LE(solution.size(), metric == Metric::Quarter ? 14U : 11U);
      for (const Turn& t : solution) {
        if (metric == Metric::Quarter) {
          EXPECT_NE(t.quarters, 2);
        }
      }
      EXPECT_TRUE(hand_solved(replay(scrambled, solution))) << turns_text(solution);
    }
  }
}

TEST(PocketCube, ShortSolutionsAreAsShortAsABruteForceSearchFinds) {
  std::mt19937 rng(5);
  for (Metric metric : {Metric::Quarter, Metric::Half}) {
    const bool half = metric == Metric::Half;
    for (int trial = 0; trial < 6; ++trial) {
      const std::string scrambled = replay(kSolvedDigits, random_turns(rng, 1 + trial % 4, false));
      const std::vector<Turn> solution = solve(metric, parse_stickers(scrambled));
      EXPECT_EQ(static_cast<int>(solution.size()), brute_force_distance(scrambled, half, 5));
    }
  }
}

TEST(PocketCube, ScramblesOfAllSixFacesAreSolved) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 4; ++trial) {
    const std::vector<Turn> scramble = random_turns(rng, 12, true);
    const std::vector<Turn> parsed = parse_turns(turns_text(scramble));
    EXPECT_EQ(parsed, scramble);
    Corners corners;
    Stickers stickers = solved_stickers();
    for (const Turn& t : parsed)
      corners = apply_turn(corners, t), stickers = apply_turn(stickers, t);
    // The solution turns any face: replay it on the geometric sticker model
    // (checked against the hand-written moves above, shares nothing with the
    // move tables).
    for (const Turn& t : solve(Metric::Half, corners)) stickers = apply_turn(stickers, t);
    EXPECT_TRUE(hand_solved(sticker_digits(stickers))) << turns_text(scramble);
  }
  // By hand: D is one turn from solved, and L R' is a whole-cube turn.
  EXPECT_EQ(solve(Metric::Quarter, apply_turn(Corners{}, Turn{Face::D, 1})).size(), 1U);
  Corners whole = apply_turn(apply_turn(Corners{}, Turn{Face::L, 1}), Turn{Face::R, 3});
  EXPECT_TRUE(solve(Metric::Quarter, whole).empty());
}

TEST(PocketCube, TurnNotationParses) {
  const std::vector<Turn> expected = {{Face::R, 1}, {Face::U, 2}, {Face::F, 3},
                                      {Face::D, 1}, {Face::L, 3}, {Face::B, 2}};
  EXPECT_EQ(parse_turns("R U2 F' D L' B2"), expected);
  EXPECT_EQ(parse_turns("RU2F'DL'B2"), expected);
  EXPECT_EQ(turns_text(expected), "R U2 F' D L' B2");
  EXPECT_TRUE(parse_turns("").empty());
}

// ------------------------------------------------------ the seed's graph
// The seed's first edges.csv lines: ids of positions a quarter turn apart.
TEST(PocketCube, SeedIdsAndEdgesMatchTheSeed) {
  EXPECT_EQ(seed_id(Corners{}), kSolvedDigits);
  const std::pair<std::string, std::string> seed_edges[] = {
      {"000022443355224433551111", "004441330522413305225511"},
      {"000244351522343052411351", "004441330522330522415151"},
      {"000533512244312501344215", "000533512244343125011452"},
      {"000433502524343522411151", "002234051524305312413451"},
      {"004550212433143501341225", "021425330515430423125014"},
      {"000233551524341423112054", "001232540524305123113454"},
      {"021425330405130211235544", "031225351045130414235240"},
      {"002341441432535535011022", "024552131053404523412130"},
      {"001142542432013435355120", "002341441432015355352120"}};
  const PocketCubeSpace space(Metric::Quarter);
  for (const auto& [a, b] : seed_edges) {
    EXPECT_EQ(seed_id(parse_stickers(a)), a);
    EXPECT_EQ(seed_id(parse_stickers(b)), b);
    const std::uint64_t from = position_rank(parse_stickers(a)),
                        to = position_rank(parse_stickers(b));
    bool adjacent = false;
    space.for_each_neighbour(from, [&](std::uint64_t n) { return adjacent = n == to; });
    EXPECT_TRUE(adjacent) << a << " - " << b;
  }
}

TEST(PocketCube, ExportWritesEveryNodeAndEachQuarterTurnEdgeOnce) {
  // The edge count without writing 600 MB: each position has 6 distinct
  // quarter-turn neighbours, so there are 3,674,160 * 6 / 2 edges.
  const PocketCubeSpace space(Metric::Quarter);
  std::uint64_t edges = 0;
  for (std::uint64_t r = 0; r < kPositionCount; ++r)
    space.for_each_neighbour(r, [&](std::uint64_t n) { return edges += r < n, false; });
  EXPECT_EQ(edges, 11022480U);
}

// ------------------------------------------------------------ bad input
std::string rejection(const std::string& stickers) {
  try {
    parse_stickers(stickers);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(PocketCube, BadStickerStringsAreRejectedWithTheReason) {
  EXPECT_EQ(rejection(kSolvedDigits), "accepted");
  EXPECT_EQ(rejection("wwwwggrrbbooggrrbbooyyyy"), "accepted");  // the seed's letters
  EXPECT_NE(rejection("0000").find("wrong length"), std::string::npos);
  EXPECT_NE(rejection("00002244335522443355111x").find("not a colour"), std::string::npos);
  EXPECT_NE(rejection("000022443355224433551112").find("wrong colour counts"), std::string::npos);

  std::string twisted = kSolvedDigits;  // URF turned in place: U -> F -> R -> U
  std::tie(twisted[3], twisted[7], twisted[8]) = std::tuple(twisted[8], twisted[3], twisted[7]);
  EXPECT_NE(rejection(twisted).find("twisted corner"), std::string::npos);

  std::string mirrored = kSolvedDigits;  // URF's F and R stickers swapped
  std::swap(mirrored[7], mirrored[8]);
  EXPECT_NE(rejection(mirrored).find("mirror image"), std::string::npos);

  std::string impossible = kSolvedDigits;  // URF gets two reds, DLF white and yellow
  std::swap(impossible[3], impossible[14]);
  EXPECT_NE(rejection(impossible).find("impossible corner"), std::string::npos);

  Corners twice;  // URF's piece also at UFL, DBL's also at DRB: colour counts still 4
  twice.piece = {0, 0, 2, 3, 4, 5, 7, 7};
  EXPECT_NE(rejection(sticker_digits(stickers_from_corners(twice))).find("appears at"),
            std::string::npos);
}

TEST(PocketCube, BadScramblesAndMetricsAreRejected) {
  EXPECT_THROW(parse_turns("R U X"), InputError);
  EXPECT_THROW(parse_turns("R3"), InputError);
  EXPECT_THROW(parse_turns("r"), InputError);
  EXPECT_THROW(parse_metric("stm"), InputError);
  EXPECT_EQ(parse_metric("htm"), Metric::Half);
}

// ---------------------------------------------------------- the program
using testing::ProgramRun;
using testing::run_cubenum;

TEST(PocketCubeProgram, BfsWritesThePublishedTableAsJson) {
  const ProgramRun run = run_cubenum("pocket-cube bfs --metric htm --threads 2 --json -");
  ASSERT_EQ(run.status, 0) << run.output;
  const Json json = Json::parse(run.output);
  EXPECT_EQ(json["puzzle"], "pocket-cube");
  EXPECT_EQ(json["action"], "bfs");
  EXPECT_EQ(json["metric"], "htm");
  EXPECT_EQ(json["states"], kPositionCount);
  EXPECT_EQ(json["distribution"].get<Distribution>(), kHalfTurnTable);
  EXPECT_EQ(json["max_depth"], 11);
  EXPECT_EQ(json["antipodes"], 2644);
}

TEST(PocketCubeProgram, SolveWritesMovesAsJson) {
  const ProgramRun run = run_cubenum("pocket-cube solve --metric qtm --scramble \"R U\" --json -");
  ASSERT_EQ(run.status, 0) << run.output;
  const Json json = Json::parse(run.output);
  EXPECT_EQ(json["length"], 2);
  EXPECT_EQ(json["moves"], "U' R'");
}

TEST(PocketCubeProgram, UnknownMetricAndBadStickersFail) {
  ProgramRun run = run_cubenum("pocket-cube bfs --metric stm");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("unknown metric 'stm'"), std::string::npos) << run.output;
  run = run_cubenum("pocket-cube solve --stickers 0000");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("--stickers: wrong length"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace cubenum::pocket_cube
