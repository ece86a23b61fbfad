#include "cubenum/puzzles/sudoku_cube.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/report/json.hpp"
#include "run_cubenum.hpp"

namespace cubenum::sudoku_cube {
namespace {

// ---- The seed's data, copied verbatim from its page (docs/PUZZLES.md) --
constexpr int kSeedCornerValues[8][3] = {{4, 8, 4}, {9, 5, 1}, {5, 9, 1}, {3, 7, 5},
                                         {2, 6, 7}, {6, 3, 7}, {4, 1, 6}, {8, 9, 2}};
constexpr int kSeedCornerRotations[8][3] = {{3, 2, 1}, {3, 2, 1}, {2, 2, 1}, {1, 0, 3},
                                            {0, 3, 0}, {2, 1, 2}, {3, 0, 0}, {3, 1, 0}};
constexpr int kSeedEdgeValues[12][2] = {{9, 3}, {5, 2}, {7, 6}, {9, 8}, {3, 2}, {6, 9},
                                        {2, 3}, {8, 5}, {8, 8}, {4, 2}, {3, 4}, {1, 7}};
constexpr int kSeedEdgeRotations[12][2] = {{0, 3}, {0, 2}, {1, 2}, {2, 0}, {0, 2}, {1, 3},
                                           {1, 3}, {3, 3}, {1, 2}, {1, 1}, {2, 0}, {3, 0}};
constexpr int kSeedDiagram[9][12] = {
    {0, 0, 0, 16, 17, 26, 0, 0, 0, 0, 0, 0},  {0, 0, 0, 23, 0, 11, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 14, 3, 4, 0, 0, 0, 0, 0, 0},    {17, 22, 13, 12, 2, 3, 5, 10, 25, 24, 16, 15},
    {21, 0, 9, 8, 0, 4, 5, 0, 14, 15, 0, 20}, {19, 24, 11, 9, 6, 6, 7, 12, 23, 21, 18, 18},
    {0, 0, 0, 10, 7, 8, 0, 0, 0, 0, 0, 0},    {0, 0, 0, 25, 0, 13, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 20, 19, 22, 0, 0, 0, 0, 0, 0}};
constexpr int kSeedOrientations[9][12] = {
    {-1, -1, -1, 3, 0, 0, -1, -1, -1, -1, -1, -1}, {-1, -1, -1, 3, 0, 1, -1, -1, -1, -1, -1, -1},
    {-1, -1, -1, 2, 2, 1, -1, -1, -1, -1, -1, -1}, {3, 0, 0, 3, 0, 0, 3, 0, 0, 3, 0, 0},
    {3, 0, 1, 3, 0, 1, 3, 0, 1, 3, 0, 1},          {2, 2, 1, 2, 2, 1, 2, 2, 1, 2, 2, 1},
    {-1, -1, -1, 3, 0, 0, -1, -1, -1, -1, -1, -1}, {-1, -1, -1, 3, 0, 1, -1, -1, -1, -1, -1, -1},
    {-1, -1, -1, 2, 2, 1, -1, -1, -1, -1, -1, -1}};
// The seed's printed solution (up, left, front, right, back, down; rows of
// each face) and its face directions: "the top side looks to the left, left
// side looks down, front and right and back and down sides look to the right".
constexpr const char* kSeedPrinted[6][3] = {{"239", "568", "147"}, {"829", "157", "634"},
                                            {"523", "618", "497"}, {"681", "974", "532"},
                                            {"529", "347", "681"}, {"863", "219", "457"}};
constexpr int kSeedPrintedDirections[6] = {3, 2, 1, 1, 1, 1};

std::string seed_text() {
  std::ifstream in(default_instance_path());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Instance parse_text(const std::string& text) {
  std::istringstream in(text);
  return parse_instance(in, "test.txt");
}

// ---- A deliberately naive grid search --------------------------------------
// Fills slots in order and, after every candidate piece and twist, rebuilds
// each face's stickers from the instance and checks it directly: digits all
// different (with the centre), and some direction that every digit faces (a
// 1 either way). No masks, no tables.
class NaiveSearch {
 public:
  explicit NaiveSearch(const Instance& instance) : in_(instance) {}
  std::uint64_t nodes = 0;  // calls of go(): the root and every accepted placement
  std::vector<GridSolution> run() {
    go(0);
    std::sort(found_.begin(), found_.end());
    return found_;
  }

 private:
  std::optional<Sticker> sticker_at(int row, int col) const {
    const Field& f = in_.net[row][col];
    if (f.kind == Field::corner && placed_corner_[f.slot]) {
      const Sticker s =
          in_.corners[sol_.corner_piece[f.slot]][(f.index + sol_.corner_twist[f.slot]) % 3];
      return Sticker{s.digit, std::uint8_t((f.arrow + s.rotation) % 4)};
    }
    if (f.kind == Field::edge && placed_edge_[f.slot]) {
      const Sticker s = in_.edges[sol_.edge_piece[f.slot]][(f.index + sol_.edge_flip[f.slot]) % 2];
      return Sticker{s.digit, std::uint8_t((f.arrow + s.rotation) % 4)};
    }
    return std::nullopt;
  }
  // The least direction the face's placed digits all face, or -1.
  int face_direction(int face) const {
    const auto [r0, c0] = face_origin(face);
    std::vector<Sticker> shown;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c)
        if (auto s = sticker_at(r0 + r, c0 + c)) shown.push_back(*s);
    std::vector<int> digits{in_.centres[face]};
    for (const Sticker& s : shown) digits.push_back(s.digit);
    std::sort(digits.begin(), digits.end());
    if (std::adjacent_find(digits.begin(), digits.end()) != digits.end()) return -1;
    for (int d = 0; d < 4; ++d)
      if (std::all_of(shown.begin(), shown.end(), [&](const Sticker& s) {
            return s.rotation == d || (s.digit == 1 && s.rotation == (d + 2) % 4);
          }))
        return d;
    return -1;
  }
  bool consistent() const {
    for (int face = 0; face < kNetFaces; ++face)
      if (face_direction(face) < 0) return false;
    return true;
  }
  // Reachability by cycle counting (the library counts inversions).
  template <std::size_t N>
  static int parity_by_cycles(const std::array<std::uint8_t, N>& perm) {
    std::array<bool, N> seen{};
    int even_cycles = 0;
    for (std::size_t i = 0; i < N; ++i) {
      int length = 0;
      for (std::size_t j = i; !seen[j]; j = perm[j], ++length) seen[j] = true;
      if (length > 0 && length % 2 == 0) ++even_cycles;
    }
    return even_cycles % 2;
  }
  void go(int step) {
    ++nodes;
    if (step == kCornerSlots + kEdgeSlots) {
      GridSolution s = sol_;
      for (int face = 0; face < kNetFaces; ++face)
        s.direction[face] = std::uint8_t(face_direction(face));
      int twists = 0, flips = 0;
      for (auto t : s.corner_twist) twists += t;
      for (auto f : s.edge_flip) flips += f;
      s.reachable = twists % 3 == 0 && flips % 2 == 0 &&
                    parity_by_cycles(s.corner_piece) == parity_by_cycles(s.edge_piece);
      found_.push_back(s);
      return;
    }
    const bool corner = step < kCornerSlots;
    const int slot = corner ? step : step - kCornerSlots;
    const int pieces = corner ? kCornerSlots : kEdgeSlots, twists = corner ? 3 : 2;
    for (int piece = 0; piece < pieces; ++piece) {
      if (corner ? corner_used_[piece] : edge_used_[piece]) continue;
      for (int twist = 0; twist < twists; ++twist) {
        if (corner) {
          sol_.corner_piece[slot] = std::uint8_t(piece);
          sol_.corner_twist[slot] = std::uint8_t(twist);
          placed_corner_[slot] = corner_used_[piece] = true;
        } else {
          sol_.edge_piece[slot] = std::uint8_t(piece);
          sol_.edge_flip[slot] = std::uint8_t(twist);
          placed_edge_[slot] = edge_used_[piece] = true;
        }
        if (consistent()) go(step + 1);
        if (corner)
          placed_corner_[slot] = corner_used_[piece] = false;
        else
          placed_edge_[slot] = edge_used_[piece] = false;
      }
    }
  }
  const Instance& in_;
  GridSolution sol_{};
  std::array<bool, kCornerSlots> placed_corner_{}, corner_used_{};
  std::array<bool, kEdgeSlots> placed_edge_{}, edge_used_{};
  std::vector<GridSolution> found_;
};

// ---- Random cubes ----------------------------------------------------------
// A solved cube with random digits and face directions on the seed's net,
// then its pieces moved and turned at random. Returns the scrambled cube and
// whether turning layers can bring it back (the twists, flips and parities
// of the scramble).
struct Scrambled {
  Instance instance;
  std::array<std::uint8_t, kNetFaces> directions{};
  std::array<std::array<int, 9>, kNetFaces> digits{};  // solved faces, row-major
  GridSolution restoring{};  // puts every piece back where the scramble took it from
};

template <std::size_t N>
int parity_of(const std::array<int, N>& perm) {
  int inversions = 0;
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = i + 1; j < N; ++j) inversions += perm[i] > perm[j];
  return inversions % 2;
}

Scrambled random_cube(std::mt19937& rng) {
  Scrambled out;
  Instance solved = load_instance(default_instance_path());
  for (int face = 0; face < kNetFaces; ++face) {
    auto& d = out.digits[face];
    std::iota(d.begin(), d.end(), 1);
    std::shuffle(d.begin(), d.end(), rng);
    out.directions[face] = std::uint8_t(rng() % 4);
    solved.centres[face] = std::uint8_t(d[4]);
    const auto [r0, c0] = face_origin(face);
    for (int i = 0; i < 9; ++i) {
      const Field& f = solved.net[r0 + i / 3][c0 + i % 3];
      int dir = out.directions[face];
      if (d[i] == 1 && rng() % 2) dir = (dir + 2) % 4;
      const Sticker s{std::uint8_t(d[i]), std::uint8_t((dir - f.arrow + 4) % 4)};
      if (f.kind == Field::corner) solved.corners[f.slot][f.index] = s;
      if (f.kind == Field::edge) solved.edges[f.slot][f.index] = s;
    }
  }
  std::array<int, kCornerSlots> cp;
  std::array<int, kEdgeSlots> ep;
  std::iota(cp.begin(), cp.end(), 0);
  std::iota(ep.begin(), ep.end(), 0);
  std::shuffle(cp.begin(), cp.end(), rng);
  std::shuffle(ep.begin(), ep.end(), rng);
  out.instance = solved;
  // Slot s now holds the piece from slot cp[s], turned by t: to restore,
  // that piece goes back to cp[s], turned by -t.
  int twists = 0, flips = 0;
  GridSolution& back = out.restoring;
  for (int s = 0; s < kCornerSlots; ++s) {
    const int t = int(rng() % 3);
    twists += t;
    for (int q = 0; q < 3; ++q) out.instance.corners[s][q] = solved.corners[cp[s]][(q + t) % 3];
    back.corner_piece[cp[s]] = std::uint8_t(s);
    back.corner_twist[cp[s]] = std::uint8_t((3 - t) % 3);
  }
  for (int s = 0; s < kEdgeSlots; ++s) {
    const int f = int(rng() % 2);
    flips += f;
    for (int q = 0; q < 2; ++q) out.instance.edges[s][q] = solved.edges[ep[s]][(q + f) % 2];
    back.edge_piece[ep[s]] = std::uint8_t(s);
    back.edge_flip[ep[s]] = std::uint8_t(f);
  }
  back.direction = out.directions;
  back.reachable = twists % 3 == 0 && flips % 2 == 0 && parity_of(cp) == parity_of(ep);
  return out;
}

bool shows_faces(const Instance& in, const GridSolution& s,
                 const std::array<std::array<int, 9>, kNetFaces>& digits) {
  for (int face = 0; face < kNetFaces; ++face) {
    const auto [r0, c0] = face_origin(face);
    for (int i = 0; i < 9; ++i)
      if (shown_sticker(in, s, r0 + i / 3, c0 + i % 3).digit != digits[face][i]) return false;
  }
  return true;
}

// ---- Tests ---------------------------------------------------------------
TEST(SudokuCube, SeedFileIsTheSeedsArrays) {
  const Instance seed = load_instance(default_instance_path());
  for (int p = 0; p < 8; ++p)
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(seed.corners[p][k].digit, kSeedCornerValues[p][k]);
      EXPECT_EQ(seed.corners[p][k].rotation, kSeedCornerRotations[p][k]);
    }
  for (int p = 0; p < 12; ++p)
    for (int k = 0; k < 2; ++k) {
      EXPECT_EQ(seed.edges[p][k].digit, kSeedEdgeValues[p][k]);
      EXPECT_EQ(seed.edges[p][k].rotation, kSeedEdgeRotations[p][k]);
    }
  for (int r = 0; r < kNetRows; ++r)
    for (int c = 0; c < kNetCols; ++c) {
      const Field& f = seed.net[r][c];
      if (f.kind == Field::corner) {
        EXPECT_EQ(kSeedDiagram[r][c], 3 * (f.slot + 1) + f.index);
      }
      if (f.kind == Field::edge) {
        EXPECT_EQ(kSeedDiagram[r][c], 2 * (f.slot + 1) + f.index);
      }
      if (f.kind == Field::corner || f.kind == Field::edge) {
        EXPECT_EQ(kSeedOrientations[r][c], f.arrow) << r << "," << c;
      } else if (f.kind == Field::none) {
        EXPECT_EQ(kSeedOrientations[r][c], -1);
      }
    }
  const std::array<std::uint8_t, 6> centres = {6, 5, 1, 7, 4, 1};
  EXPECT_EQ(seed.centres, centres);
  EXPECT_EQ(parse_text(format_instance(seed)), seed);
}

TEST(SudokuCube, FindsTheSeedsPrintedSolution) {
  const Instance seed = load_instance(default_instance_path());
  const SudokuResult result = solve_grid(seed);
  std::array<std::array<int, 9>, kNetFaces> printed{};
  for (int face = 0; face < kNetFaces; ++face)
    for (int i = 0; i < 9; ++i) printed[face][i] = kSeedPrinted[face][i / 3][i % 3] - '0';
  int matches = 0;
  for (const GridSolution& s : result.solutions)
    if (shows_faces(seed, s, printed)) {
      ++matches;
      for (int face = 0; face < kNetFaces; ++face)
        EXPECT_EQ(s.direction[face], kSeedPrintedDirections[face]) << face_name(face);
    }
  EXPECT_EQ(matches, 1);
}

TEST(SudokuCube, NaiveSearchAgreesOnTheSeed) {
  const Instance seed = load_instance(default_instance_path());
  NaiveSearch naive(seed);
  const SudokuResult fast = solve_grid(seed);
  EXPECT_EQ(fast.solutions, naive.run());
  EXPECT_EQ(fast.search_nodes, naive.nodes);  // the same tree, pruned alike
}

TEST(SudokuCube, NaiveSearchAgreesOnRandomCubes) {
  std::mt19937 rng(20261122);
  int reachable_seen = 0, unreachable_seen = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const Scrambled cube = random_cube(rng);
    const SudokuResult fast = solve_grid(cube.instance);
    NaiveSearch naive(cube.instance);
    EXPECT_EQ(fast.solutions, naive.run()) << "trial " << trial;
    EXPECT_EQ(fast.search_nodes, naive.nodes) << "trial " << trial;
    // Undoing the scramble is one of the solutions, reachable exactly when
    // the scramble's twists, flips and parities say so.
    EXPECT_TRUE(std::binary_search(fast.solutions.begin(), fast.solutions.end(), cube.restoring))
        << "trial " << trial;
    EXPECT_TRUE(shows_faces(cube.instance, cube.restoring, cube.digits));
    (cube.restoring.reachable ? reachable_seen : unreachable_seen)++;
  }
  EXPECT_GT(reachable_seen, 0);
  EXPECT_GT(unreachable_seen, 0);
}

TEST(SudokuCube, ReachabilityFollowsTheInvariants) {
  // Swapping two corner pieces by hand, or twisting one, leaves the grid
  // solutions' layouts but makes them unreachable; swapping two corners and
  // two edges, or twisting two corners opposite ways, keeps them reachable.
  const Instance seed = load_instance(default_instance_path());
  const auto layouts = [](const Instance& in) {
    std::vector<std::string> texts;
    std::vector<bool> reachable;
    for (const GridSolution& s : solve_grid(in).solutions) {
      texts.push_back(net_text(in, s));
      reachable.push_back(s.reachable);
    }
    return std::pair(texts, reachable);
  };
  const auto [seed_layouts, seed_reachable] = layouts(seed);
  ASSERT_FALSE(seed_layouts.empty());
  ASSERT_TRUE(std::all_of(seed_reachable.begin(), seed_reachable.end(), [](bool b) { return b; }));

  Instance corners_swapped = seed;
  std::swap(corners_swapped.corners[0], corners_swapped.corners[1]);
  Instance both_swapped = corners_swapped;
  std::swap(both_swapped.edges[3], both_swapped.edges[7]);
  Instance one_twisted = seed;
  std::rotate(one_twisted.corners[2].begin(), one_twisted.corners[2].begin() + 1,
              one_twisted.corners[2].end());
  Instance two_twisted = one_twisted;
  std::rotate(two_twisted.corners[5].begin(), two_twisted.corners[5].begin() + 2,
              two_twisted.corners[5].end());
  Instance one_flipped = seed;
  std::swap(one_flipped.edges[4][0], one_flipped.edges[4][1]);

  for (const auto& [in, expected] : std::vector<std::pair<Instance, bool>>{{corners_swapped, false},
                                                                           {both_swapped, true},
                                                                           {one_twisted, false},
                                                                           {two_twisted, true},
                                                                           {one_flipped, false}}) {
    const auto [texts, reachable] = layouts(in);
    EXPECT_EQ(texts, seed_layouts);
    for (bool r : reachable) EXPECT_EQ(r, expected);
  }
}

TEST(SudokuCube, SameSolutionsAtOneAndManyThreads) {
  std::mt19937 rng(7);
  std::vector<Instance> cubes{load_instance(default_instance_path())};
  for (int i = 0; i < 5; ++i) cubes.push_back(random_cube(rng).instance);
  for (const Instance& in : cubes) {
    SudokuResult one, many;
    {
      cubenum::ThreadLimit limit(1);
      one = solve_grid(in);
    }
    {
      cubenum::ThreadLimit limit(8);
      many = solve_grid(in);
    }
    EXPECT_EQ(one.solutions, many.solutions);
    EXPECT_EQ(one.search_nodes, many.search_nodes);
  }
}

// The line number of the first line of `text` containing `needle`.
int line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  return at == std::string::npos ? -1
                                 : int(std::count(text.begin(), text.begin() + long(at), '\n')) + 1;
}

void expect_rejected(const std::string& text, int line, const std::string& problem) {
  try {
    parse_text(text);
    ADD_FAILURE() << "accepted; expected: " << problem;
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(std::string(e.what()).find(problem), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("test.txt:"), std::string::npos) << e.what();
  }
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(SudokuCube, MalformedInstancesNameTheLine) {
  const std::string seed = seed_text();
  std::string t = replaced(seed, "corner 3: 5/2 9/2", "corner 3: 5/2 0/2");
  expect_rejected(t, line_of(t, "corner 3:"), "digit 0 out of 1..9");
  t = replaced(seed, "edge 6: 6/1", "edge 6: 10/1");
  expect_rejected(t, line_of(t, "edge 6:"), "digit 10 out of 1..9");
  t = replaced(seed, "corner 4: 3/1", "corner 4: 3/4");
  expect_rejected(t, line_of(t, "corner 4:"), "rotation 4 out of 0..3");
  t = replaced(seed, "edge 2: 5/0 2/2", "edge 1: 5/0 2/2");
  expect_rejected(t, line_of(t, "edge 1: 5/0"), "edge 1 listed twice");
  t = replaced(seed, "edge 5: 3/0 2/2", "edge 5: 3/0");
  expect_rejected(t, line_of(t, "edge 5:"), "needs 2 stickers");
  t = replaced(seed, "centre right: 7", "centre right: 7\ncentre right: 7");
  expect_rejected(t, line_of(t, "centre right: 7") + 1, "centre right listed twice");
  t = replaced(seed, "corner 8: 8/3 9/1 2/0\n", "");
  expect_rejected(t, int(std::count(t.begin(), t.end(), '\n')), "no line for corner 8");
  t = replaced(seed, "centre back: 4\n", "");
  expect_rejected(t, int(std::count(t.begin(), t.end(), '\n')), "no line for centre back");
  t = replaced(seed, "c5.1<", "c5.2<");
  expect_rejected(t, line_of(t, "c5.0^"), "field c5.2 listed twice");
  t = replaced(seed, "e8.1^", "e8.1>");
  expect_rejected(t, line_of(t, "e8.1>"), "do not turn into each other");
  t = replaced(seed, "c5.1<  e8.1^  c8.2^", "c8.2^  e8.1^  c5.1<");
  expect_rejected(t, line_of(t, "c8.2^  e8.1^  c5.1<"), "not on one piece");
  t = replaced(seed, "e8.1^", "c8.1^");
  expect_rejected(t, line_of(t, "c8.1^"), "must be a edge field");
  t = replaced(seed, "corner 1:", "corners 1:");
  expect_rejected(t, line_of(t, "corners 1:"), "unknown line 'corners'");
  t = replaced(seed, "e10.0>\n", "\n");
  expect_rejected(t, line_of(t, "e10.1<"), "has 11 fields");
}

std::pair<int, std::string> run_command(const std::string& arguments) {
  auto program = testing::run_cubenum(arguments);
  return {program.status, program.output};
}

TEST(SudokuCube, CommandLineReportsTheSeedsSolution) {
  const auto [status, text] = run_command("sudoku-cube count --json -");
  ASSERT_EQ(status, 0) << text;
  const Json json = Json::parse(text);
  const SudokuResult result = solve_grid(load_instance(default_instance_path()));
  EXPECT_EQ(json["solutions"], result.solutions.size());
  EXPECT_EQ(json["reachable"], result.reachable());
  ASSERT_EQ(json["layouts"].size(), result.solutions.size());
  bool found = false;
  for (const Json& layout : json["layouts"])
    found = found || (layout["faces"]["up"]["digits"] == Json::parse("[[2,3,9],[5,6,8],[1,4,7]]") &&
                      layout["faces"]["up"]["direction"] == "left");
  EXPECT_TRUE(found);
}

TEST(SudokuCube, CommandLineRejectsABadInstance) {
  const std::string path = ::testing::TempDir() + "/bad_sudoku_cube.txt";
  std::ofstream(path) << replaced(seed_text(), "corner 3: 5/2 9/2", "corner 3: 5/2 0/2");
  const auto [status, text] = run_command("sudoku-cube count " + path);
  EXPECT_EQ(status, 2);
  EXPECT_NE(text.find(path + ":"), std::string::npos) << text;
  EXPECT_NE(text.find("digit 0 out of 1..9"), std::string::npos) << text;
}

}  // namespace
}  // namespace cubenum::sudoku_cube
