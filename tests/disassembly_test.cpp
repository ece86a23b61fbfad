// The disassembler (search/disassembly.hpp): a naive one written here
// (every subset of pieces, one unit step at a time, positions in a
// std::map) agreeing on hand-made puzzles, BurrTools' own levels on its
// assemblies (printed by burrTxt), and the counts of `polycube count
// --disassemble` at 1 thread and at many.
#include "cubenum/search/disassembly.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cubenum/core/cube_symmetry.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/polycube_job.hpp"
#include "room_puzzle.hpp"
#include "run_cubenum.hpp"

namespace {

using cubenum::search::disassemble;
using cubenum::search::DisassemblyResult;
using cubenum::search::Voxel;
using Pieces = std::vector<std::vector<Voxel>>;

const std::string kData = CUBENUM_DATA_DIR;

// An assembly drawn as burrTxt prints one (print.cpp): z layers side by
// side, each a box of rows (y from 0 down) and columns (x), between '!'s;
// a letter a piece, 'a' the first. The boxes' inner rows only.
Pieces from_layers(const std::vector<std::string>& rows) {
  Pieces pieces;
  for (std::size_t y = 0; y < rows.size(); ++y) {
    int z = 0;
    for (std::size_t start = 0; start < rows[y].size(); ++z) {
      const std::size_t open = rows[y].find('!', start);
      if (open == std::string::npos) break;
      const std::size_t close = rows[y].find('!', open + 1);
      for (std::size_t x = open + 1; x < close; ++x) {
        const char c = rows[y][x];
        if (c < 'a' || c > 'z') continue;
        const auto p = static_cast<std::size_t>(c - 'a');
        if (pieces.size() <= p) pieces.resize(p + 1);
        pieces[p].push_back({static_cast<int>(x - open - 1), static_cast<int>(y), z});
      }
      start = close + 1;
    }
  }
  return pieces;
}

// ---- The naive disassembler ---------------------------------------------
// Positions: each piece's offset, piece 0 kept at the origin. A move: any
// proper subset of pieces sliding one or more steps one way, each step
// checked cell by cell; a separation: a subset that slides past every
// other piece. Breadth-first, so the first separation comes after the
// fewest moves; its parts are taken apart in turn from where they stood.
struct Naive {
  const Pieces& shapes;
  std::set<int> together = {};  // pieces of one group: a part of only these counts as apart
  using Position = std::vector<Voxel>;

  std::set<Voxel> cells(const std::vector<int>& ids, const Position& at, unsigned subset,
                        bool inside) const {
    std::set<Voxel> out;
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (((subset >> i) & 1) == (inside ? 1u : 0u))
        for (const Voxel& v : shapes[ids[i]])
          out.insert({v[0] + at[i][0], v[1] + at[i][1], v[2] + at[i][2]});
    return out;
  }

  // Whether `subset` can go `steps` along `dir` (steps 0: for ever).
  bool slides(const std::vector<int>& ids, const Position& at, unsigned subset, int dir,
              int steps) const {
    const std::set<Voxel> still = cells(ids, at, subset, false);
    const std::set<Voxel> moving = cells(ids, at, subset, true);
    const int a = dir / 2, sign = dir % 2 == 0 ? 1 : -1;
    const int far = steps == 0 ? 100 : steps;  // beyond every hand-made puzzle
    for (int s = 1; s <= far; ++s)
      for (Voxel v : moving) {
        v[a] += sign * s;
        if (still.count(v) != 0) return false;
      }
    return true;
  }

  // Level text (BurrTools' notation) of the part, "" where it stays together.
  struct Tree {
    bool ok = false;
    int moves = 0;
    std::vector<Tree> parts;  // left behind, removed
  };

  Tree solve(const std::vector<int>& ids, Position start) const {
    Tree tree;
    const bool grouped = ids.size() > 1 && std::all_of(ids.begin(), ids.end(), [&](int id) {
                           return together.count(id) != 0;
                         });
    if (ids.size() == 1 || grouped) return tree.ok = true, tree;
    const auto normal = [](Position p) {
      const Voxel o = p[0];
      for (Voxel& v : p)
        for (int a = 0; a < 3; ++a) v[a] -= o[a];
      return p;
    };
    const unsigned all = (1u << ids.size()) - 1;
    std::map<Position, int> depth = {{normal(start), 0}};
    std::deque<Position> queue = {normal(start)};
    while (!queue.empty()) {
      const Position at = queue.front();
      queue.pop_front();
      for (unsigned subset = 1; subset < all; ++subset)
        for (int dir = 0; dir < 6; ++dir) {
          if (slides(ids, at, subset, dir, 0)) return split(ids, at, subset, depth[at] + 1);
          for (int s = 1; slides(ids, at, subset, dir, s); ++s) {
            Position next = at;
            for (std::size_t i = 0; i < ids.size(); ++i)
              if ((subset >> i) & 1) next[i][dir / 2] += (dir % 2 == 0 ? s : -s);
            next = normal(next);
            if (depth.emplace(next, depth[at] + 1).second) queue.push_back(next);
          }
        }
    }
    return tree;
  }

  Tree split(const std::vector<int>& ids, const Position& at, unsigned out, int moves) const {
    Tree tree;
    tree.moves = moves;
    std::vector<int> part_ids[2];
    Position part_at[2];
    for (std::size_t i = 0; i < ids.size(); ++i) {
      part_ids[(out >> i) & 1].push_back(ids[i]);
      part_at[(out >> i) & 1].push_back(at[i]);
    }
    for (int k = 0; k < 2; ++k) tree.parts.push_back(solve(part_ids[k], part_at[k]));
    tree.ok = tree.parts[0].ok && tree.parts[1].ok;
    return tree;
  }
};

// Whether the naive disassembler takes the pieces apart; `first`: the
// moves before its first separation.
DisassemblyResult naive_first_moves(const Pieces& pieces, int& first,
                                    const std::set<int>& together = {}) {
  std::vector<int> ids(pieces.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i);
  const Naive naive{pieces, together};
  const Naive::Tree t = naive.solve(ids, Naive::Position(pieces.size(), Voxel{0, 0, 0}));
  first = t.moves;
  DisassemblyResult r;
  r.comes_apart = t.ok;
  return r;
}

// The first number of a level: the moves before the first separation.
int first_of(const std::string& level) {
  return level.empty() ? 0 : std::stoi(level.substr(0, level.find('.')));
}

// ---- BurrTools' assemblies ----------------------------------------------

// CubeInCage.xmpuzzle (BurrTools' examples/, b72a71d): its one assembly
// that comes apart, as `burrTxt -d -s CubeInCage.xmpuzzle` prints it
// (pieces a..f: shapes 1, 2, 2, 3, 4, 5), and the level burrTxt gives it:
// "level: 4.9.3".
const std::vector<std::string> kCubeInCage = {
    "!       ! !       ! !       ! ! aaaaa ! !       ! !       ! !       !",
    "!   c   ! !   c   ! !   c   ! ! a caa ! !   c   ! !   c   ! !   c   !",
    "!   c   ! !       ! !  fff  ! ! afdda ! !  ffe  ! !       ! !   c   !",
    "!   c   ! !bbbbbbb! !b eef b! !baeedab! !bbfeebb! !bbbbbbb! !   c   !",
    "!   c   ! !   c   ! !  eff  ! ! addda ! !  ffd  ! !   c   ! !   c   !",
    "!   c   ! !   c   ! !   c   ! ! a c a ! !   c   ! !   c   ! !   c   !",
    "!       ! !       ! !       ! ! aaaaa ! !       ! !       ! !       !",
};

TEST(Disassembly, CubeInCageAsBurrToolsTakesItApart) {
  const Pieces pieces = from_layers(kCubeInCage);
  ASSERT_EQ(pieces.size(), 6u);
  // The file's groups: shape 1 (the cage, a) and shape 2 (two rings, b and
  // c) are in group 1, so cage and rings may stay together.
  cubenum::search::DisassemblyRules rules;
  rules.shape = {0, 1, 1, 2, 3, 4};
  rules.groups = {{{1, 1}}, {{1, 2}}, {}, {}, {}};
  const DisassemblyResult r = disassemble(pieces, rules);
  EXPECT_TRUE(r.comes_apart);
  EXPECT_EQ(r.level, "4.9.3");
  int first = 0;
  EXPECT_TRUE(naive_first_moves(pieces, first, {0, 1, 2}).comes_apart);
  EXPECT_EQ(first, first_of(r.level));
  // Without the groups the rings stay linked in the cage: no solution.
  EXPECT_FALSE(disassemble(pieces).comes_apart);
}

// PelikanBurr.xmpuzzle (BurrTools' examples/, b72a71d): its one solution,
// as `burrTxt -d -s PelikanBurr.xmpuzzle` prints it (a: the cage, of
// weight 2 in the file; b..g the six sticks), "level: 98.2.4.2".
const std::vector<std::string> kPelikanBurr = {
    "!aaaaaaaa! !aaaaaaaa! !aaddddaa! !aaddddaa! !aaeeeeaa! !aaeeeeaa! !aaaaaaaa! !aaaaaaaa!",
    "!aaaaaaaa! !a      a! !a      a! !a    d a! !a e    a! !a e    a! !a      a! !aaaaaaaa!",
    "!aaccccaa! !a c    a! !b bbbbbb! !b   dd b! !g  c   b! !g ec   b! !a  c   a! !aaccffaa!",
    "!aaccccaa! !a cc   a! !bbbc   b! !b  cd  b! !g  c   b! !g e   bb! !a      a! !aaccffaa!",
    "!aaffffaa! !a      a! !b      g! !bb  d  g! !gggggg g! !g e  ggg! !a      a! !aaccffaa!",
    "!aaffffaa! !a   f  a! !bbb ff g! !b   df g! !g e df g! !g e  f g! !a  c f a! !aaccffaa!",
    "!aaaaaaaa! !a      a! !a   d  a! !a   d  a! !a e    a! !a      a! !a      a! !aaaaaaaa!",
    "!aaaaaaaa! !aaaaaaaa! !aaeeddaa! !aaeeddaa! !aaeeddaa! !aaeeddaa! !aaaaaaaa! !aaaaaaaa!",
};

TEST(Disassembly, PelikanBurrAsBurrToolsTakesItApart) {
  const Pieces pieces = from_layers(kPelikanBurr);
  ASSERT_EQ(pieces.size(), 7u);
  cubenum::search::DisassemblyRules rules;
  rules.weight = {2, 1, 1, 1, 1, 1, 1};
  const DisassemblyResult r = disassemble(pieces, rules);
  EXPECT_TRUE(r.comes_apart);
  EXPECT_EQ(r.level, "98.2.4.2");
  // The heavy cage stays put: it is never shown moving, and the last
  // separation takes the last stick out of it.
  for (const auto& move : r.plan)
    EXPECT_EQ(std::count(move.pieces.begin(), move.pieces.end(), 0), 0);
  // (The naive disassembler agrees that 98 moves come before the first
  // separation, and that it comes apart; it takes minutes, so not here.)
}

// PelikanBurr.xmpuzzle itself (BurrTools' examples/, b72a71d; designed
// by Dic Sonneveld): its shapes as the file gives them (each z layer a
// line of x-fastest voxels; '+' a voxel that may stay empty), the cage of
// weight 2, one of each shape into the result. BurrTools' numbering of
// orientations counts from these shapes as drawn.
std::string pelikan_burr_file() {
  const char* kShapes[8][8] = {
      {"################################################################",
       "#########++++++##++++++##++++++##++++++##++++++##++++++#########",
       "#########++++++##++++++##++++++##++++++##++++++##++++++#########",
       "#########++++++##++++++##++++++##++++++##++++++##++++++#########",
       "#########++++++##++++++##++++++##++++++##++++++##++++++#########",
       "#########++++++##++++++##++++++##++++++##++++++##++++++#########",
       "#########++++++##++++++##++++++##++++++##++++++##++++++#########",
       "################################################################"},
      {"##################____####____####____####____##################",
       "#########______##______##______##______##______##______#########",
       "##____###______#________________________________#______###____##",
       "##____###______#________________________________#______###____##",
       "##____###______#________________________________#______###____##",
       "##____###______#________________________________#______###____##",
       "#########______##______##______##______##______##______#########",
       "##################____####____####____####____##################"},
      {"#_#########____##_______###_____", "#______##______###______#_______",
       "_______#_______#________________", "_______#______##________________"},
      {"#_______##______________________", "#_______#_______________________",
       "#_____###__#####_______#_______#", "#_____######___#_______#_______#"},
      {"#_______#_______________________", "#_______#_______________________",
       "#_____###_######_____#_#_______#", "#______####____#_______#_______#"},
      {"#_#########___###_______#_______", "#______##______##_______#_______",
       "_______#_______#________________", "_______#_______#________________"},
      {"#_#########____##_______#_______", "#______##______##_______#_______",
       "_______#_______#________________", "_______#_______#________________"},
      {"#______##______##_______#_______", "###____##_#######_______#_______",
       "_______#_______#________________", "_______#_______#________________"},
  };
  const std::string file = ::testing::TempDir() + "cubenum-pelikan-burr.xmpuzzle";
  std::ofstream out(file);
  out << "<?xml version=\"1.0\"?>\n<puzzle version=\"2\"><gridType type=\"0\"/><shapes>\n";
  for (int s = 0; s < 8; ++s) {
    out << "<voxel x=\"8\" y=\"" << (s < 2 ? 8 : 4) << "\" z=\"" << (s < 2 ? 8 : 4) << "\""
        << (s == 1 ? " weight=\"2\"" : "") << " type=\"0\">";
    for (const char* layer : kShapes[s])
      if (layer != nullptr) out << layer;
    out << "</voxel>\n";
  }
  out << "</shapes><problems><problem name=\"Problem\"><shapes>";
  for (int s = 1; s < 8; ++s) out << "<shape id=\"" << s << "\" count=\"1\"/>";
  out << "</shapes><result id=\"0\"/></problem></problems></puzzle>\n";
  return file;
}

// `burrTxt -d -q -o all PelikanBurr.xmpuzzle` (b72a71d): "12 assemblies
// and 1 solutions", "level: 98.2.4.2". The level's last part depends on the
// member of the class taken apart: burrTxt's (kPelikanBurr gives it too).
TEST(Disassembly, PelikanBurrCountedWithBurrTxtsLevel) {
  const std::string file = pelikan_burr_file();
  cubenum::ThreadLimit limit(2);
  cubenum::puzzles::PolycubeCountRequest request;
  request.file = file;
  request.disassemble = true;
  cubenum::puzzles::PolycubeCountView quiet;
  const auto p = cubenum::puzzles::count_polycube_job(request, quiet).problems.at(0);
  EXPECT_EQ(p.counts.symmetries, 12u);
  ASSERT_TRUE(p.solutions);
  EXPECT_EQ(p.solutions->symmetries, 1u);
  EXPECT_EQ(p.solutions->raw, 24u);  // its 24 rotations (the mirror image is no assembly)
  ASSERT_EQ(p.solutions->levels.size(), 1u);
  EXPECT_EQ(p.solutions->levels.begin()->first, "98.2.4.2");
}

// A checkpoint of count --disassemble holds the classes decided, which the
// pieces' weights and groups decide too: the same file resumes (to the
// same solutions and level), the file with the cage's weight changed is
// another run, refused.
TEST(Disassembly, CheckpointIsRefusedForOtherWeights) {
  const std::string file = pelikan_burr_file();
  const std::string ck = ::testing::TempDir() + "cubenum-pelikan-ck";
  std::filesystem::remove_all(ck);
  const std::string count = "polycube count " + file + " --disassemble --json -";
  auto run = cubenum::testing::run_cubenum(count + " --checkpoint " + ck);
  ASSERT_EQ(run.status, 0) << run.output;
  run = cubenum::testing::run_cubenum(count + " --resume " + ck);
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("\"level\": \"98.2.4.2\""), std::string::npos) << run.output;
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string heavy = " weight=\"2\"";
  ASSERT_NE(text.find(heavy), std::string::npos);
  text.replace(text.find(heavy), heavy.size(), " weight=\"3\"");
  const std::string heavier = ::testing::TempDir() + "cubenum-pelikan-burr-heavier.xmpuzzle";
  std::ofstream(heavier) << text;
  run =
      cubenum::testing::run_cubenum("polycube count " + heavier + " --disassemble --resume " + ck);
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("of another run"), std::string::npos) << run.output;
}

// BurrTools' rotation table of the cube grid (src/lib/tabs_0/rotmatrix.inc
// at b72a71d, row-major 3x3 matrices, the point's new x, y, z): a few of
// its 48 rows, each a different turn (and the first mirrored ones), and
// the numbering as a whole: 24 rotations, then 24 reflections, each once.
TEST(Disassembly, BurrToolsNumbersTransformationsAsItsTable) {
  const auto t = cubenum::puzzles::burrtools_transformations();
  const std::map<int, std::array<int, 9>> kRows = {
      {0, {1, 0, 0, 0, 1, 0, 0, 0, 1}},    {1, {1, 0, 0, 0, 0, -1, 0, 1, 0}},
      {4, {0, 0, -1, 0, 1, 0, 1, 0, 0}},   {5, {0, -1, 0, 0, 0, -1, 1, 0, 0}},
      {8, {-1, 0, 0, 0, 1, 0, 0, 0, -1}},  {13, {0, 1, 0, 0, 0, -1, -1, 0, 0}},
      {17, {0, 0, 1, 1, 0, 0, 0, 1, 0}},   {22, {0, -1, 0, -1, 0, 0, 0, 0, -1}},
      {24, {-1, 0, 0, 0, 1, 0, 0, 0, 1}},  {25, {-1, 0, 0, 0, 0, -1, 0, 1, 0}},
      {28, {0, 0, -1, 0, 1, 0, -1, 0, 0}}, {47, {0, 0, 1, 1, 0, 0, 0, -1, 0}},
  };
  for (const auto& [n, row] : kRows) {
    const auto m = t[static_cast<std::size_t>(n)].matrix();
    for (int i = 0; i < 9; ++i) EXPECT_EQ(m[i / 3][i % 3], row[i]) << "transformation " << n;
  }
  std::set<int> seen;
  for (int n = 0; n < cubenum::kSymmetryCount; ++n) {
    EXPECT_EQ(t[n].is_rotation(), n < cubenum::kRotationCount) << n;
    seen.insert(cubenum::symmetry_index(t[n]));
  }
  EXPECT_EQ(seen.size(), 48u);
}

// Every member of the class (the solution turned by each rotation of the
// cube, which all keep the 8x8x8 result) gives burrTxt's member: the one
// `burrTxt -d -s` prints (kPelikanBurr), the least by BurrTools' order of
// assemblies.
TEST(Disassembly, BurrToolsMemberIsTheOneBurrTxtKeeps) {
  const auto problems = cubenum::puzzles::polycube_problems(pelikan_burr_file(), 0, "pelikan");
  const auto& problem = problems.at(0).second;
  const cubenum::search::VoxelCover cover(problem, "pelikan");
  const cubenum::puzzles::BurrToolsMember member(problem, cover);
  const Pieces burrtxt = from_layers(kPelikanBurr);
  const auto as_sets = [](const cubenum::search::CoverAssembly& a) {
    std::vector<std::set<Voxel>> sets(a.size());
    for (const auto& placed : a)
      sets.at(placed.piece).insert(placed.voxels.begin(), placed.voxels.end());
    return sets;
  };
  std::vector<std::set<Voxel>> expected;
  for (const auto& piece : burrtxt) expected.emplace_back(piece.begin(), piece.end());
  for (const cubenum::CubeSymmetry& g : cubenum::cube_rotations()) {
    cubenum::search::CoverAssembly turned;
    Voxel low = {0, 0, 0};
    for (std::size_t p = 0; p < burrtxt.size(); ++p) {
      turned.push_back({static_cast<int>(p), {}});
      for (const Voxel& v : burrtxt[p]) {
        turned.back().voxels.push_back(g.apply(v));
        for (int a = 0; a < 3; ++a) low[a] = std::min(low[a], turned.back().voxels.back()[a]);
      }
    }
    for (auto& placed : turned)  // the 8x8x8 box back onto itself
      for (Voxel& v : placed.voxels)
        for (int a = 0; a < 3; ++a) v[a] -= low[a];
    EXPECT_EQ(as_sets(member(turned)), expected);
  }
}

// ---- Hand-made puzzles --------------------------------------------------

// A ring (3x3 frame in the plane z = 0) and a stick through its hole,
// hooked above the ring on one side and below it on the other: the stick
// cannot slide sideways (the ring holds it), up (the lower hook) or down
// (the upper hook), so nothing moves at all.
TEST(Disassembly, InterlockedPairStaysTogether) {
  Pieces pieces(2);
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 3; ++y)
      if (x != 1 || y != 1) pieces[0].push_back({x, y, 0});
  pieces[1] = {{1, 1, -1}, {1, 1, 0}, {1, 1, 1}, {0, 1, 1}, {2, 1, -1}};
  const DisassemblyResult r = disassemble(pieces);
  EXPECT_FALSE(r.comes_apart);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.states, 1u);  // not one move from the start
  int first = 0;
  EXPECT_FALSE(naive_first_moves(pieces, first).comes_apart);
}

// A frame (piece 0): a room of 2x2 cells in the plane y = 0 (x 0..1, z
// 0..1), walls around it and plates at y = -1 and y = 1, with one way out:
// the cell above (0, 0, 1). Two cubes in the room's right column, one
// (1) on the other (2). Neither can leave where it stands (the roof is
// above them), and no group can; one slide (the frame one step +x, the
// cubes one step -x) brings cube 1 under the way out, and it leaves: 2
// moves before the first separation. Cube 2 then stands under the way
// out and leaves in one move: level "2".
Pieces room_puzzle(int width, const std::vector<int>& exits) {
  Pieces pieces(1);
  for (int x = -1; x <= width; ++x)
    for (int z = -1; z <= 2; ++z) {
      pieces[0].push_back({x, -1, z});
      pieces[0].push_back({x, 1, z});
      const bool room = x >= 0 && x < width && z >= 0 && z <= 1;
      const bool exit = z == 2 && std::count(exits.begin(), exits.end(), x) != 0;
      if (!room && !exit) pieces[0].push_back({x, 0, z});
    }
  return pieces;
}

TEST(Disassembly, ThreePiecesOfLevelTwo) {
  Pieces pieces = room_puzzle(2, {0});
  pieces.push_back({{1, 0, 1}});
  pieces.push_back({{1, 0, 0}});
  const DisassemblyResult r = disassemble(pieces);
  ASSERT_TRUE(r.comes_apart);
  EXPECT_EQ(r.level, "2");
  ASSERT_EQ(r.plan.size(), 3u);
  EXPECT_EQ(r.plan[0].pieces, std::vector<int>{0});  // BurrTools meets +x first: the frame moves
  EXPECT_EQ(r.plan[0].direction, 0);
  EXPECT_EQ(r.plan[0].distance, 1);
  EXPECT_EQ(r.plan[1].pieces, std::vector<int>{1});
  EXPECT_TRUE(r.plan[1].separation);
  EXPECT_EQ(r.plan[2].pieces, std::vector<int>{2});
  int first = 0;
  EXPECT_TRUE(naive_first_moves(pieces, first).comes_apart);
  EXPECT_EQ(first, 2);
}

// The first move needs two pieces on each side. A room of 4x2 cells whose
// way out is 3 cells wide (above x = 0..2); in it a U (piece 2, open
// downwards, at x = 1..3) around a cube (3): neither slides without the
// other. The frame (0) holds a cube (1) shut in a pocket below its floor:
// neither slides without the other, and they are one group (may stay
// together). The U and its cube slide one step -x together (shown as the
// frame and its cube +x), then the U leaves upwards, then the cube: level
// "2", the first move two pieces against two.
TEST(Disassembly, FirstMoveTwoPiecesTogether) {
  Pieces pieces = room_puzzle(4, {0, 1, 2});
  for (const Voxel& v : {Voxel{0, 0, -2}, Voxel{2, 0, -2}, Voxel{1, -1, -2}, Voxel{1, 1, -2},
                         Voxel{1, 0, -3}, Voxel{0, 0, -3}})
    pieces[0].push_back(v);
  pieces.push_back({{1, 0, -2}});
  pieces.push_back({{1, 0, 1}, {2, 0, 1}, {3, 0, 1}, {1, 0, 0}, {3, 0, 0}});
  pieces.push_back({{2, 0, 0}});
  // At the start no piece can slide one step anywhere on its own.
  const Naive naive{pieces};
  const std::vector<int> ids = {0, 1, 2, 3};
  const Naive::Position start(4, Voxel{0, 0, 0});
  for (unsigned one = 1; one < 16; one <<= 1)
    for (int dir = 0; dir < 6; ++dir) EXPECT_FALSE(naive.slides(ids, start, one, dir, 1));

  cubenum::search::DisassemblyRules rules;
  rules.groups = {{{1, 1}}, {{1, 1}}, {}, {}};
  const DisassemblyResult r = disassemble(pieces, rules);
  ASSERT_TRUE(r.comes_apart);
  EXPECT_EQ(r.level, "2");
  ASSERT_EQ(r.plan.size(), 3u);
  EXPECT_EQ(r.plan[0].pieces, (std::vector<int>{0, 1}));
  EXPECT_EQ(r.plan[0].direction, 0);
  EXPECT_EQ(r.plan[1].pieces, std::vector<int>{2});
  EXPECT_EQ(r.plan[2].pieces, std::vector<int>{3});
  int first = 0;
  EXPECT_TRUE(naive_first_moves(pieces, first, {0, 1}).comes_apart);
  EXPECT_EQ(first, 2);
  // Without the group, frame and pocketed cube never part.
  EXPECT_FALSE(disassemble(pieces).comes_apart);
}

// ---- polycube count --disassemble ---------------------------------------

// The solutions of a file, with the given threads.
cubenum::puzzles::PolycubeProblemCount count_solutions(const std::string& file, int threads) {
  cubenum::ThreadLimit limit(threads);
  cubenum::puzzles::PolycubeCountRequest request;
  request.file = file;
  request.disassemble = true;
  cubenum::puzzles::PolycubeCountView quiet;
  return cubenum::puzzles::count_polycube_job(request, quiet).problems.at(0);
}

// `burrTxt -d -q -o all soma.xmpuzzle` (the file from
// `tools/xmpuzzle-from-text data/polycubes/soma.txt`): "240 assemblies and
// 240 solutions", every one "level: 1"; and for pentomino-2x3x10.txt "12
// assemblies and 12 solutions", every one "level: 1".
TEST(Disassembly, CountsAsBurrToolsAtAnyThreadCount) {
  for (const auto& [name, classes] : {std::pair{"soma.txt", 240u}, {"pentomino-2x3x10.txt", 12u}}) {
    const std::string file = kData + "/polycubes/" + name;
    const auto one = count_solutions(file, 1);
    const auto many = count_solutions(file, 4);
    for (const auto* p : {&one, &many}) {
      ASSERT_TRUE(p->solutions) << name;
      EXPECT_EQ(p->solutions->symmetries, classes) << name;
      EXPECT_EQ(p->solutions->raw, p->counts.raw) << name;  // every assembly comes apart
      EXPECT_EQ(p->solutions->rotations, p->counts.rotations) << name;
      EXPECT_EQ(p->solutions->undecided, 0u) << name;
      ASSERT_EQ(p->solutions->levels.size(), 1u) << name;
      EXPECT_EQ(p->solutions->levels.begin()->first, "1") << name;
      EXPECT_EQ(p->solutions->levels.begin()->second, classes) << name;
    }
    EXPECT_EQ(one.solutions->states, many.solutions->states) << name;
  }
}

// The interlocking puzzles of data/polycubes with their published levels
// (each file's header says where from): Computer's Choice Unique 10, a
// six-piece burr whose one solution takes 10 moves to the first piece,
// and the Pelikan Burr, 98. burrTxt -d (b72a71d) on each as
// tools/xmpuzzle-from-text writes it: "7 assemblies and 1 solutions",
// "level: 10"; "12 assemblies and 1 solutions", "level: 98.2.4.2".
TEST(Disassembly, FamousBurrsAtTheirPublishedLevels) {
  for (const auto& [name, assemblies, level] :
       {std::tuple{"computers-choice-unique-10.txt", 7u, "10"},
        std::tuple{"pelikan-burr.txt", 12u, "98.2.4.2"}}) {
    const auto p = count_solutions(kData + "/polycubes/" + name, 2);
    EXPECT_EQ(p.counts.symmetries, assemblies) << name;
    ASSERT_TRUE(p.solutions) << name;
    EXPECT_EQ(p.solutions->symmetries, 1u) << name;
    EXPECT_EQ(p.solutions->undecided, 0u) << name;
    ASSERT_EQ(p.solutions->levels.size(), 1u) << name;
    EXPECT_EQ(p.solutions->levels.begin()->first, level) << name;
  }
}

// BurrTools' example of colour constraints, Draculas Dental Desaster
// (data/polycubes/draculas-dental-desaster.xmpuzzle, its comment says
// where from): nine plates of red and black voxels into a 14x14x14 result
// half red and half black, red only onto red and black onto black.
// burrTxt -d -q -o all (b72a71d) on the file: "84 assemblies and 1
// solutions", "level: 3.5.16.6.4".
TEST(Disassembly, ColourConstraintsAsBurrTools) {
  const auto p = count_solutions(kData + "/polycubes/draculas-dental-desaster.xmpuzzle", 2);
  EXPECT_EQ(p.counts.symmetries, 84u);
  EXPECT_EQ(p.counts.rotations, 84u);
  EXPECT_EQ(p.counts.raw, 168u);  // the colours keep 2 of the plain result's 12 rotations
  ASSERT_TRUE(p.solutions);
  EXPECT_EQ(p.solutions->symmetries, 1u);
  EXPECT_EQ(p.solutions->undecided, 0u);
  ASSERT_EQ(p.solutions->levels.size(), 1u);
  EXPECT_EQ(p.solutions->levels.begin()->first, "3.5.16.6.4");
}

// Three unit cubes in the 3x3x3 room of tests/room_puzzle.hpp, two of
// them listed as one piece and the third apart: the count takes them as
// three identical cubes, BurrTools tells the third apart (its count is
// made again, and so is the disassembly, each class taken apart as the
// member burrTxt keeps, whose pieces are then two congruent ones).
// Raw, C(27, 3) = 2925 (every three cells of the room); up to the 4
// rotations about the hole's axis, 741, and with its 4 reflections, 453
// (by Burnside's lemma: a quarter turn fixes the 3 cells of the hole's
// column and moves the rest in 4-cycles, so it fixes C(3, 3) = 1 set; a
// half turn fixes those 3 and swaps the other 24 in 12 pairs, 1 + 3 x 12
// = 37; a reflection through a middle plane or a diagonal fixes its 9
// cells and swaps 9 pairs, C(9, 3) + 9 x 9 = 165: (2925 + 2 + 37) / 4 =
// 741, (2925 + 2 + 37 + 4 x 165) / 8 = 453). burrTxt -d -q -o all
// (b72a71d) on the file as tools/xmpuzzle-from-text writes it, with the
// third cube a piece of its own: "1269 assemblies and 1269 solutions"; and
// with the three cubes one piece of 3: "453 assemblies and 453
// solutions", their levels below (classes by level, from its "level:"
// lines).
TEST(Disassembly, CongruentPiecesToldApartAsBurrToolsDoes) {
  const std::string file = ::testing::TempDir() + "cubenum-room-apart.txt";
  std::ofstream(file) << cubenum::testing::room_puzzle(
      "room apart", 3, "piece C 2\ncube 0 0 0\npiece D\ncube 0 0 0\n");
  const auto p = count_solutions(file, 2);
  EXPECT_EQ(p.counts.raw, 2925u);
  EXPECT_EQ(p.counts.rotations, 741u);
  EXPECT_EQ(p.counts.symmetries, 453u);
  ASSERT_TRUE(p.apart);
  EXPECT_EQ(p.apart->symmetries, 1269u);
  ASSERT_TRUE(p.solutions);
  ASSERT_TRUE(p.solutions_apart);
  EXPECT_EQ(p.solutions->raw, 2925u);
  EXPECT_EQ(p.solutions->symmetries, 453u);
  EXPECT_EQ(p.solutions_apart->symmetries, 1269u);
  EXPECT_EQ(p.solutions_apart->undecided, 0u);
  const std::map<std::string, std::uint64_t> levels = {
      {"1", 1},       {"1.1.2", 9}, {"1.1.3", 9}, {"1.2.2", 45}, {"1.2.3", 54},
      {"1.3.3", 45},  {"2.1.2", 1}, {"2.1.3", 9}, {"2.2.2", 28}, {"2.2.3", 107},
      {"2.3.3", 108}, {"3.1.3", 1}, {"3.3.2", 9}, {"3.3.3", 27}};
  const std::map<std::string, std::uint64_t> found(p.solutions->levels.begin(),
                                                   p.solutions->levels.end());
  EXPECT_EQ(found, levels);
}

TEST(Disassembly, LevelsSortByTheirNumbers) {
  const cubenum::puzzles::LevelOrder less;
  EXPECT_TRUE(less("2", "10"));
  EXPECT_TRUE(less("9.3", "10"));
  EXPECT_TRUE(less("4.9.3", "4.10"));
  EXPECT_FALSE(less("1", "1"));
}

TEST(Disassembly, RefusesWhatItCannotTake) {
  EXPECT_THROW(disassemble(Pieces(65, {{0, 0, 0}})), std::invalid_argument);
  EXPECT_THROW(disassemble({{{0, 0, 0}}, {{20000, 0, 0}}}), std::invalid_argument);
}

// The command line: the table of solutions and levels, and a plan, each
// move's pieces, direction and distance, the separations marked.
TEST(Disassembly, CommandLineShowsSolutionsAndPlans) {
  const std::string soma = kData + "/polycubes/soma.txt";
  auto run = cubenum::testing::run_cubenum("polycube count " + soma + " --disassemble --threads 2");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("come apart: raw"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("           11520            480            240"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("level (BurrTools' notation)"), std::string::npos) << run.output;
  run = cubenum::testing::run_cubenum("polycube solve " + soma + " --disassemble --first 2");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("#2 level 1 ("), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("away (separates)"), std::string::npos) << run.output;
}

// A closed box (the shell of an 8x8x8 cube) around a 6x6x6 room holding
// three unit cubes: nothing can ever leave, and the cubes reach C(216,3)
// = 1,656,360 sets of cells (times their orders, the cubes being pieces of
// their own to the search): a disassembly that runs long. One assembly
// (the target is the box and the cubes' three cells).
std::string closed_box_file() {
  const std::string file = ::testing::TempDir() + "cubenum-closed-box.txt";
  std::ofstream out(file);
  std::string shell;
  for (int x = 0; x < 8; ++x)
    for (int y = 0; y < 8; ++y)
      for (int z = 0; z < 8; ++z)
        if (std::min({x, y, z}) == 0 || std::max({x, y, z}) == 7)
          shell += "cube " + std::to_string(x) + " " + std::to_string(y) + " " + std::to_string(z) +
                   "\n";
  out << "name closed box\npiece Box\n"
      << shell << "piece C 3\ncube 0 0 0\ntarget\n"
      << shell << "cube 1 1 1\ncube 2 1 1\ncube 1 3 2\n";
  return file;
}

TEST(Disassembly, StopsWhereAskedUndecided) {
  const auto problems = cubenum::puzzles::polycube_problems(closed_box_file(), 0, "box");
  const cubenum::search::VoxelCover cover(problems.at(0).second, "box");
  const auto assemblies = cover.first(2);
  ASSERT_EQ(assemblies.size(), 1u);
  int polls = 0;
  std::atomic<std::uint64_t> reached{0};
  cubenum::search::DisassemblyOptions options;
  options.stop = [&polls] { return ++polls > 3; };
  options.reached = &reached;
  const DisassemblyResult r = cubenum::puzzles::disassemble_assembly(assemblies[0], {}, options);
  EXPECT_FALSE(r.complete);
  EXPECT_FALSE(r.comes_apart);
  EXPECT_EQ(polls, 4);  // polled every 1024 positions looked at, stopped at the fourth
  EXPECT_GT(r.states, 4u * 1024);
  EXPECT_EQ(reached.load(), r.states);  // every position reached told, at the end too
}

// A count whose disassembly --time-limit or --memory stops counts the
// class undecided, not as one that does not come apart, and says which
// limit stopped it.
TEST(Disassembly, CountCountsAStoppedDisassemblyUndecided) {
  cubenum::puzzles::PolycubeCountRequest request;
  request.file = closed_box_file();
  request.disassemble = true;
  request.time_limit = 0.3;
  cubenum::puzzles::PolycubeCountView quiet;
  auto p = cubenum::puzzles::count_polycube_job(request, quiet).problems.at(0);
  EXPECT_EQ(p.counts.symmetries, 1u);
  ASSERT_TRUE(p.solutions);
  EXPECT_EQ(p.solutions->symmetries, 0u);
  EXPECT_EQ(p.solutions->undecided, 1u);
  EXPECT_EQ(p.solutions->stopped_by, "--time-limit");
  request.time_limit = 0;
  request.memory_gib = 0.001;  // less than the process holds before it begins
  p = cubenum::puzzles::count_polycube_job(request, quiet).problems.at(0);
  ASSERT_TRUE(p.solutions);
  EXPECT_EQ(p.solutions->symmetries, 0u);
  EXPECT_EQ(p.solutions->undecided, 1u);
  EXPECT_EQ(p.solutions->stopped_by, "--memory");
  EXPECT_GT(p.solutions->memory_held, p.solutions->memory_limit);
}

TEST(Disassembly, CommandLineSaysWhatALimitLeftUndecided) {
  const std::string box = closed_box_file();
  auto run = cubenum::testing::run_cubenum("polycube count " + box +
                                           " --disassemble --time-limit 0.3 --json -");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("\"undecided\": 1"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("\"stopped_by\": \"--time-limit\""), std::string::npos) << run.output;
  run = cubenum::testing::run_cubenum("polycube count " + box + " --disassemble --memory 0.001");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("undecided: 1 class not taken apart to the end (stopped by --memory: "
                            "the process held "),
            std::string::npos)
      << run.output;
  // The Bedlam cube's count stopped before all its subtrees: its solutions
  // are lower bounds too.
  run = cubenum::testing::run_cubenum("polycube count " + kData +
                                      "/polycubes/bedlam.txt --disassemble --time-limit 0.5");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("the counts and the solutions below are lower bounds"),
            std::string::npos)
      << run.output;
  run = cubenum::testing::run_cubenum("polycube solve " + box + " --disassemble --time-limit 0.3");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("undecided: 1 assembly not taken apart to the end (stopped by "
                            "--time-limit)"),
            std::string::npos)
      << run.output;
  run = cubenum::testing::run_cubenum("polycube count " + box + " --memory 1");
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("--memory: only with --disassemble"), std::string::npos) << run.output;
}

// solve --disassemble --html: the page holds each solution's plan for the
// viewer to play (web/test/pages.test.mjs plays it in Chromium): the
// level, and each move's pieces, axis, distance and text as the solve's
// text gives it.
TEST(Disassembly, PageHoldsThePlan) {
  const std::string html = ::testing::TempDir() + "cubenum-disassembly.html";
  const auto run = cubenum::testing::run_cubenum(
      "polycube solve " + kData +
      "/polycubes/computers-choice-unique-10.txt --disassemble --html " + html);
  ASSERT_EQ(run.status, 0) << run.output;
  ASSERT_NE(run.output.find("14. P624 +z away (separates)"), std::string::npos) << run.output;
  std::ifstream in(html);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("\"level\":\"10\""), std::string::npos);
  EXPECT_NE(page.find("{\"pieces\":[0],\"direction\":[0,0,1],\"distance\":null,\"text\":\"P624 +z "
                      "away (separates)\"}"),
            std::string::npos);
}

// More pieces in an assembly than a disassembly takes: refused, naming
// the file and the problem, not an internal error.
TEST(Disassembly, CommandLineRefusesTooManyPieces) {
  const std::string file = ::testing::TempDir() + "cubenum-disassembly-70.txt";
  {
    std::ofstream out(file);
    out << "name seventy\npiece A 70\ncube 0 0 0\ntarget\nbox 70x1x1\n";
  }
  for (const char* action : {"count", "solve"}) {
    const auto run = cubenum::testing::run_cubenum(std::string("polycube ") + action + " " + file +
                                                   " --disassemble");
    EXPECT_EQ(run.status, 2) << run.output;
    EXPECT_NE(run.output.find(file + ": seventy: an assembly of 70 pieces"), std::string::npos)
        << run.output;
  }
}

}  // namespace
