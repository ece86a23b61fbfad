// Rolling cubes: the roll table against a 3-D model of the cube, the rank,
// grid parsing and its errors, and the BFS against the generic and hashed
// engines and against a deliberately naive brute-force search written here.
#include "cubenum/puzzles/rolling_cubes.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <queue>
#include <random>
#include <string>

#include "cubenum/bfs/frontier_bfs.hpp"
#include "cubenum/bfs/hashed_bfs.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/report/json.hpp"
#include "run_cubenum.hpp"

namespace cubenum::rolling {
namespace {

// --- An independent model: the direction the black face points to. ---
// x east, y north, z up. Orientation k <-> kBlack[k].
using Vec = std::array<int, 3>;
constexpr std::array<Vec, 6> kBlack = {{{0, 0, 1},     // 0 black up
                                        {0, 0, -1},    // 1 colour up: black down
                                        {0, 1, 0},     // 2 black north
                                        {1, 0, 0},     // 3 black east
                                        {0, -1, 0},    // 4 black south
                                        {-1, 0, 0}}};  // 5 black west

// Rolling over the edge towards `dir` turns the top face to `dir`.
Vec roll_vector(Vec v, char dir) {
  const auto [x, y, z] = v;
  switch (dir) {
    case 'U':
      return {x, z, -y};  // north: up -> north, north -> down
    case 'D':
      return {x, -z, y};
    case 'R':
      return {z, y, -x};  // east: up -> east, east -> down
    case 'L':
      return {-z, y, x};
  }
  return v;
}

int naive_roll(int orientation, char dir) {
  const Vec v = roll_vector(kBlack[static_cast<std::size_t>(orientation)], dir);
  for (int k = 0; k < 6; ++k)
    if (kBlack[static_cast<std::size_t>(k)] == v) return k;
  return -1;
}

// A grid as text without separators ("000.0000"), and a move on it.
struct Naive {
  int rows, cols;

  // The state after moving a cube in direction `dir` into the hole, or ""
  // if no cube can.
  std::string move(const std::string& grid, char dir) const {
    const int empty = static_cast<int>(grid.find('.'));
    const int r = empty / cols, c = empty % cols;
    int fr = r, fc = c;
    if (dir == 'U') fr = r + 1;
    if (dir == 'D') fr = r - 1;
    if (dir == 'L') fc = c + 1;
    if (dir == 'R') fc = c - 1;
    if (fr < 0 || fc < 0 || fr >= rows || fc >= cols) return "";
    std::string next = grid;
    const auto from = static_cast<std::size_t>(fr * cols + fc);
    next[static_cast<std::size_t>(empty)] =
        static_cast<char>('0' + naive_roll(grid[from] - '0', dir));
    next[from] = '.';
    return next;
  }

  // BFS by strings in a std::map: depth and number of shortest paths.
  struct Info {
    int depth;
    std::uint64_t paths;
  };
  std::map<std::string, Info> search(const std::string& start) const {
    std::map<std::string, Info> seen{{start, {0, 1}}};
    std::queue<std::string> queue;
    queue.push(start);
    while (!queue.empty()) {
      const std::string s = queue.front();
      queue.pop();
      const Info info = seen[s];
      for (char dir : std::string("UDLR")) {
        const std::string n = move(s, dir);
        if (n.empty()) continue;
        auto [it, fresh] = seen.try_emplace(n, Info{info.depth + 1, 0});
        if (fresh) queue.push(n);
        if (it->second.depth == info.depth + 1) it->second.paths += info.paths;
      }
    }
    return seen;
  }
};

std::string flat(const Grid& grid) {
  std::string s = format_grid(grid);
  std::erase(s, '/');
  return s;
}

std::vector<std::uint64_t> distribution_of(const std::map<std::string, Naive::Info>& seen) {
  std::vector<std::uint64_t> d;
  for (const auto& [state, info] : seen) {
    if (d.size() <= static_cast<std::size_t>(info.depth))
      d.resize(static_cast<std::size_t>(info.depth) + 1);
    ++d[static_cast<std::size_t>(info.depth)];
  }
  return d;
}

// --- The roll table. ---

TEST(RollTable, MatchesTheThreeDimensionalModel) {
  for (Roll r : kRolls)
    for (int o = 0; o < 6; ++o)
      EXPECT_EQ(roll(static_cast<std::uint8_t>(o), r),
                naive_roll(o, kRollLetters[static_cast<unsigned>(r)]))
          << "orientation " << o << " roll " << kRollLetters[static_cast<unsigned>(r)];
}

TEST(RollTable, MatchesTheSeedsStatements) {
  // From the seed's roll(): black up rolled U -> black faces north, etc.
  EXPECT_EQ(roll(0, Roll::Up), 2);
  EXPECT_EQ(roll(0, Roll::Down), 4);
  EXPECT_EQ(roll(0, Roll::Left), 5);
  EXPECT_EQ(roll(0, Roll::Right), 3);
  EXPECT_EQ(roll(1, Roll::Up), 4);
  EXPECT_EQ(roll(1, Roll::Left), 3);
  EXPECT_EQ(roll(2, Roll::Up), 1);    // towards black: colour comes up
  EXPECT_EQ(roll(2, Roll::Down), 0);  // away from black: black comes up
  EXPECT_EQ(roll(3, Roll::Up), 3);    // parallel: unchanged
}

TEST(RollTable, PhysicalProperties) {
  for (Roll r : kRolls) {
    std::array<bool, 6> hit{};
    for (std::uint8_t o = 0; o < 6; ++o) {
      // Four rolls the same way bring a cube back; a roll and its
      // opposite cancel; two rolls the same way turn the cube upside down.
      EXPECT_EQ(roll(roll(roll(roll(o, r), r), r), r), o);
      EXPECT_EQ(roll(roll(o, r), opposite(r)), o);
      const std::uint8_t twice = roll(roll(o, r), r);
      const Vec a = kBlack[o], b = kBlack[twice];
      const bool vertical = r == Roll::Up || r == Roll::Down;
      EXPECT_EQ(b[2], -a[2]);
      EXPECT_EQ(b[vertical ? 1 : 0], -a[vertical ? 1 : 0]);
      hit[roll(o, r)] = true;
    }
    EXPECT_EQ(std::count(hit.begin(), hit.end(), true), 6) << "a roll permutes orientations";
    // Exactly the two orientations with black along the roll's axis stay.
    int fixed = 0;
    for (std::uint8_t o = 0; o < 6; ++o) fixed += roll(o, r) == o;
    EXPECT_EQ(fixed, 2);
  }
}

// --- Grids and the rank. ---

TEST(Grid, ParsesAndFormats) {
  const Grid g = parse_grid("012/3.4/555", "--start");
  EXPECT_EQ(g.rows, 3u);
  EXPECT_EQ(g.cols, 3u);
  EXPECT_EQ(g.empty(), 4u);
  EXPECT_EQ(format_grid(g), "012/3.4/555");
  EXPECT_EQ(format_grid(uniform_grid(3, 4, 1)), "1111/11.1/1111");
  EXPECT_EQ(format_grid(uniform_grid(2, 3, 0)), "000/0.0");
}

void expect_bad_grid(const std::string& text, const std::string& words, unsigned rows = 0,
                     unsigned cols = 0) {
  try {
    parse_grid(text, "--goal", rows, cols);
    ADD_FAILURE() << "accepted " << text;
  } catch (const InputError& e) {
    EXPECT_EQ(e.source(), "--goal");
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(Grid, RejectsMalformedGrids) {
  expect_bad_grid("000/0.0/00", "row 3 has 2 cells, row 1 has 3");
  expect_bad_grid("000/0../000", "2 empty cells");
  expect_bad_grid("000/000/000", "0 empty cells");
  expect_bad_grid("000/0.6/000", "'6' at position 7");
  expect_bad_grid("000/0x0", "'x'");
  expect_bad_grid("000//0.0", "row 2 is empty");
  expect_bad_grid("", "row 1 is empty");
  expect_bad_grid("0000000/000000.", "14 cells; at most 12");
  expect_bad_grid(".", "at least 2 cells");
  expect_bad_grid("000/0.0", "it is 2x3, expected 3x3", 3, 3);
}

TEST(Grid, RejectsTooLargeSpaces) {
  EXPECT_THROW(RollingCubesSpace(4, 4), InputError);
  EXPECT_THROW(RollingCubesSpace(1, 1), InputError);
  EXPECT_THROW(RollingCubesSpace(0, 3), InputError);
  EXPECT_EQ(RollingCubesSpace(3, 4).size(), 4'353'564'672ULL);  // 12 * 6^11
  EXPECT_EQ(RollingCubesSpace(3, 3).size(), 15'116'544ULL);     // 9 * 6^8
}

TEST(Rank, FollowsTheDefinition) {
  const RollingCubesSpace space(3, 3);
  // Empty cell 4, cubes 0 1 2 3 | 4 5 5 5: digits read in cell order.
  const std::uint64_t digits =
      ((((((0 * 6 + 1) * 6 + 2) * 6 + 3) * 6 + 4) * 6 + 5) * 6 + 5) * 6 + 5;
  EXPECT_EQ(space.rank(parse_grid("012/3.4/555", "t")), 4 * 1679616 + digits);
}

TEST(Rank, RoundTripsEveryStateOfTwoByThree) {
  const RollingCubesSpace space(2, 3);
  for (std::uint64_t r = 0; r < space.size(); ++r) ASSERT_EQ(space.rank(space.unrank(r)), r);
}

TEST(Rank, NeighboursMatchTheNaiveMoveOnRandomStates) {
  for (auto [rows, cols] : {std::pair{3u, 4u},
                            {4u, 3u},
                            {2u, 6u},
                            {6u, 2u},
                            {1u, 12u},
                            {12u, 1u},
                            {3u, 3u},
                            {2u, 5u}}) {
    const RollingCubesSpace space(rows, cols);
    const Naive naive{static_cast<int>(rows), static_cast<int>(cols)};
    std::mt19937_64 random(rows * 100 + cols);
    for (int i = 0; i < 2000; ++i) {
      const std::uint64_t r = random() % space.size();
      const std::string s = flat(space.unrank(r));
      std::vector<std::string> expected, got;
      for (char dir : std::string("UDLR"))
        if (auto n = naive.move(s, dir); !n.empty()) expected.push_back(n);
      space.for_each_neighbour(r, [&](std::uint64_t n) {
        got.push_back(flat(space.unrank(n)));
        return false;
      });
      std::sort(expected.begin(), expected.end());
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got, expected) << rows << "x" << cols << " state " << s;
    }
  }
}

// --- The BFS. ---

struct Case {
  unsigned rows, cols;
};

// How GoogleTest prints a grid size: "2x3", not its bytes.
void PrintTo(const Case& c, std::ostream* out) {
  *out << c.rows << "x" << c.cols;
}

class SmallGrid : public ::testing::TestWithParam<Case> {};

TEST_P(SmallGrid, BfsAgreesWithBruteForceAndBothGenericEngines) {
  const auto [rows, cols] = GetParam();
  const RollingCubesSpace space(rows, cols);
  const Grid start = uniform_grid(rows, cols, 0);
  const auto naive = Naive{static_cast<int>(rows), static_cast<int>(cols)}.search(flat(start));
  const auto expected = distribution_of(naive);

  const std::uint64_t source = space.rank(start);
  const auto fast = rolling_bfs(space, source);
  EXPECT_EQ(fast.distribution(), expected);
  EXPECT_EQ(fast.reached, naive.size());
  EXPECT_EQ(bfs::frontier_bfs(space, {&source, 1}).distribution(), expected);
  const std::uint64_t key = PackedRollingCubes::pack(start);
  EXPECT_EQ(bfs::hashed_bfs(PackedRollingCubes(rows, cols), {&key, 1}, space.size()).distribution,
            expected);
}

TEST_P(SmallGrid, ShortestSolutionsReplayAndCountsMatchBruteForce) {
  const auto [rows, cols] = GetParam();
  const RollingCubesSpace space(rows, cols);
  const Naive naive{static_cast<int>(rows), static_cast<int>(cols)};
  std::mt19937_64 random(7);
  for (int trial = 0; trial < 6; ++trial) {
    const Grid start =
        trial == 0 ? uniform_grid(rows, cols, 0) : space.unrank(random() % space.size());
    const auto truth = naive.search(flat(start));
    RollingBfsOptions options;
    const std::uint64_t s = space.rank(start);
    const auto result = rolling_bfs(space, s, options);
    for (int g = 0; g < 10; ++g) {
      const Grid goal = g == 0 && trial == 0 ? uniform_grid(rows, cols, 1)
                                             : space.unrank(random() % space.size());
      const auto it = truth.find(flat(goal));
      if (it == truth.end()) continue;  // not reachable (2x2 is one cycle)
      const auto depth = static_cast<unsigned>(it->second.depth);
      const auto solution = shortest_solution(space, *result.depths, s, space.rank(goal), depth);
      std::string state = flat(start);
      for (Roll r : solution.moves) {
        state = naive.move(state, kRollLetters[static_cast<unsigned>(r)]);
        ASSERT_FALSE(state.empty());
      }
      EXPECT_EQ(state, flat(goal));
      EXPECT_EQ(solution.moves.size(), depth);
      const auto count =
          count_shortest_sequences(space, *result.depths, s, space.rank(goal), depth, ~0ULL);
      ASSERT_TRUE(count.has_value());
      EXPECT_EQ(*count, std::to_string(it->second.paths));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Grids, SmallGrid,
                         ::testing::Values(Case{2, 2}, Case{2, 3}, Case{3, 2}, Case{1, 5}),
                         [](const auto& param_info) {
                           return std::to_string(param_info.param.rows) + "x" +
                                  std::to_string(param_info.param.cols);
                         });

TEST(RollingBfs, CountsDoNotDependOnThreadsOrDirection) {
  // Against the generic engine; every direction policy on the small grids,
  // the automatic one (which switches direction) on 2x4 (2,239,488 states).
  auto check = [](unsigned rows, unsigned cols, std::vector<bfs::DirectionPolicy> policies) {
    const RollingCubesSpace space(rows, cols);
    const std::uint64_t source = space.rank(uniform_grid(rows, cols, 0));
    const auto expected = bfs::frontier_bfs(space, {&source, 1}).distribution();
    for (int threads : {1, 2, 3}) {
      cubenum::ThreadLimit limit(threads);
      for (auto policy : policies) {
        RollingBfsOptions options;
        options.policy = policy;
        options.depth_table = false;
        EXPECT_EQ(rolling_bfs(space, source, options).distribution(), expected)
            << rows << "x" << cols << " threads " << threads;
      }
    }
  };
  const std::vector<bfs::DirectionPolicy> all = {
      bfs::DirectionPolicy::Auto, bfs::DirectionPolicy::TopDown, bfs::DirectionPolicy::BottomUp};
  check(2, 3, all);
  check(3, 2, all);
  check(2, 4, {bfs::DirectionPolicy::Auto});
}

TEST(RollingBfs, TransposedGridsHaveTheSameLayers) {
  // Reflecting the board in its diagonal swaps north with west and south
  // with east: a bijection of R x C onto C x R that keeps the all-black
  // start with the empty cell at (R/2, C/2), so the layers must agree.
  for (auto [rows, cols] : {std::pair{2u, 3u}, {2u, 4u}}) {
    const RollingCubesSpace a(rows, cols), b(cols, rows);
    EXPECT_EQ(rolling_bfs(a, a.rank(uniform_grid(rows, cols, 0))).distribution(),
              rolling_bfs(b, b.rank(uniform_grid(cols, rows, 0))).distribution());
  }
}

TEST(RollingBfs, StopsAtTheWatchedState) {
  const RollingCubesSpace space(2, 3);
  RollingBfsOptions options;
  options.watch = space.rank(uniform_grid(2, 3, 1));
  options.stop_at_watch = true;
  const auto result = rolling_bfs(space, space.rank(uniform_grid(2, 3, 0)), options);
  ASSERT_TRUE(result.watch_depth.has_value());
  EXPECT_EQ(result.max_depth(), *result.watch_depth);
}

// --- The command line. ---

struct CliRun {
  int status;
  std::string output;
};

CliRun run_cli(const std::string& args) {
  auto program = testing::run_cubenum(args);
  return {program.status, program.output};
}

TEST(RollingCubesCli, BfsReportsEveryField) {
  const CliRun run = run_cli("rolling-cubes bfs --rows 2 --cols 3 --threads 2 --json -");
  ASSERT_EQ(run.status, 0) << run.output;
  const Json j = Json::parse(run.output);
  // 2x3: 6 * 6^5 states, checked against the brute force above.
  EXPECT_EQ(j["states"], 46656);
  EXPECT_EQ(j["rows"], 2);
  EXPECT_EQ(j["cols"], 3);
  EXPECT_EQ(j["distribution"].size(), j["max_depth"].get<std::size_t>() + 1);
  EXPECT_EQ(j["farthest"], j["distribution"].back());
  const auto& s = j["shortest_solution"];
  EXPECT_EQ(s["moves"].get<std::string>().size(), s["length"].get<std::size_t>());
  EXPECT_GE(s["count"].get<int>(), 1);
}

TEST(RollingCubesCli, SolvePrintsGridsAndFailsCleanly) {
  const CliRun ok = run_cli("rolling-cubes solve --rows 2 --cols 3");
  EXPECT_EQ(ok.status, 0) << ok.output;
  EXPECT_NE(ok.output.find("|0.0|"), std::string::npos) << ok.output;  // the start
  EXPECT_NE(ok.output.find("|1.1|"), std::string::npos) << ok.output;  // the goal
  const CliRun bad = run_cli("rolling-cubes solve --start 000/0.0/00");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find("--start: grid '000/0.0/00': row 3 has 2 cells"), std::string::npos)
      << bad.output;
  const CliRun unreachable = run_cli("rolling-cubes solve --start 00/0. --goal 11/1.");
  EXPECT_EQ(unreachable.status, 2);
  EXPECT_NE(unreachable.output.find("not reachable"), std::string::npos) << unreachable.output;
  const CliRun same = run_cli("rolling-cubes solve --start 000/0.0 --goal 000/0.0");
  EXPECT_EQ(same.status, 0) << same.output;
  EXPECT_NE(same.output.find("0 moves"), std::string::npos) << same.output;
  // The size comes from --goal when it is the only grid given.
  const CliRun goal_only = run_cli("rolling-cubes solve --goal 11/1.");
  EXPECT_EQ(goal_only.status, 2);
  EXPECT_NE(goal_only.output.find("11/1. is not reachable from 00/0."), std::string::npos)
      << goal_only.output;
  const CliRun mismatch = run_cli("rolling-cubes solve --start 000/0.0 --goal 00/0.");
  EXPECT_EQ(mismatch.status, 2);
  EXPECT_NE(mismatch.output.find("it is 2x2, expected 2x3"), std::string::npos) << mismatch.output;
  const CliRun big = run_cli("rolling-cubes bfs --rows 4 --cols 4");
  EXPECT_EQ(big.status, 2);
  EXPECT_NE(big.output.find("4x4"), std::string::npos) << big.output;
}

}  // namespace
}  // namespace cubenum::rolling
