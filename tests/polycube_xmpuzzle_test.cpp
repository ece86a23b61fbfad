// BurrTools' .xmpuzzle files (issue 14): the reader on small files written
// here by hand, plain and gzip-compressed. The expected pieces, counts and
// voxels come from the files below read by hand with BurrTools' format
// (its src/lib/voxel.cpp: a voxel string lists x fastest, then y, then z;
// '_' empty, '#' filled, '+' variable; problem.cpp: a part's count, or its
// min and max); the expected errors from what issue 14 says is refused.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "cubenum/core/error.hpp"
#include "cubenum/puzzles/polycube.hpp"
#include "cubenum/search/voxel_cover.hpp"
#include "scratch_files.hpp"

namespace cubenum::polycube {
namespace {

namespace fs = std::filesystem;
using cubenum::testing::contains;
using cubenum::testing::scratch;
using cubenum::testing::write;

// A file in this test's folder.
std::string file(const std::string& name, const std::string& text) {
  const fs::path path = scratch("xmpuzzle-" + name) / (name + ".xmpuzzle");
  write(path, text);
  return path.string();
}

// The same text gzip-compressed, as BurrTools saves it.
std::string gzip_file(const std::string& name, const std::string& text) {
  const fs::path path = scratch("xmpuzzle-" + name) / (name + ".xmpuzzle");
  gzFile out = gzopen(path.c_str(), "wb9");
  EXPECT_NE(out, nullptr);
  EXPECT_EQ(gzwrite(out, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  EXPECT_EQ(gzclose(out), Z_OK);
  return path.string();
}

std::string error_of(const std::string& path) {
  try {
    read_xmpuzzle(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// Shapes 0-2 and a result 3: an L tromino (3 cubes), a domino, a monomino,
// and a 2x2x2 box whose last voxel (1,1,1) is variable, on lines 6 to 9
// (line 1 is the declaration); <problems> is line 11.
const std::string kShapes =
    "<?xml version=\"1.0\"?>\n"
    "<puzzle version=\"2\">\n"
    "<gridType type=\"0\"/>\n"
    "<colors/>\n"
    "<shapes>\n"
    "<voxel x=\"2\" y=\"2\" z=\"1\" type=\"0\" name=\"L\">##_#</voxel>\n"
    "<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">##</voxel>\n"
    "<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\" name=\"mono\">#</voxel>\n"
    "<voxel x=\"2\" y=\"2\" z=\"2\" type=\"0\" name=\"box\">#######+</voxel>\n"
    "</shapes>\n";

std::string puzzle(const std::string& problems) {
  return kShapes + "<problems>\n" + problems + "</problems>\n<comment/>\n</puzzle>\n";
}

// Two problems: the L, one domino and 0-3 monominoes in the box (7 fixed
// voxels and 1 variable: 3 + 2 + 2 or 3 = 7 or 8 cubes); then, unnamed, the
// same with two dominoes (min = max = 2, written as count) and no L.
const std::string kTwoProblems =
    "<problem name=\"first\" state=\"0\">\n"
    "<shapes>\n"
    "<shape id=\"0\" count=\"1\"/>\n"
    "<shape id=\"1\" count=\"1\" group=\"1\"/>\n"
    "<shape id=\"2\" min=\"0\" max=\"3\"/>\n"
    "</shapes>\n"
    "<result id=\"3\"/>\n"
    "<bitmap/>\n"
    "</problem>\n"
    "<problem state=\"0\">\n"
    "<shapes><shape id=\"1\" count=\"2\"/><shape id=\"2\" min=\"3\" max=\"4\"/></shapes>\n"
    "<result id=\"3\"/>\n"
    "</problem>\n";

void expect_two_problems(const PuzzleFile& f, const std::string& path) {
  EXPECT_EQ(f.path, path);
  ASSERT_EQ(f.problems.size(), 2U);
  const Problem& p = f.problems[0];
  EXPECT_EQ(p.name, "first");
  ASSERT_EQ(p.pieces.size(), 3U);
  // "##_#" in 2x2x1: (0,0,0), (1,0,0), then y=1: '_' at (0,1,0), '#' at (1,1,0).
  EXPECT_EQ(p.pieces[0].name, "L");
  EXPECT_EQ(p.pieces[0].cubes, (std::vector<Voxel>{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}}));
  EXPECT_EQ(p.pieces[0].min_count, 1);
  EXPECT_EQ(p.pieces[0].max_count, 1);
  // An unnamed shape is named as BurrTools shows it: S and its 1-based number.
  EXPECT_EQ(p.pieces[1].name, "S2");
  EXPECT_EQ(p.pieces[1].cubes, (std::vector<Voxel>{{0, 0, 0}, {1, 0, 0}}));
  EXPECT_EQ(p.pieces[2].name, "mono");
  EXPECT_EQ(p.pieces[2].min_count, 0);
  EXPECT_EQ(p.pieces[2].max_count, 3);
  // "#######+" in 2x2x2: every voxel in x, y, z order, the eighth (1,1,1) '+'.
  EXPECT_EQ(p.fixed,
            (std::vector<Voxel>{
                {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}}));
  EXPECT_EQ(p.variable, (std::vector<Voxel>{{1, 1, 1}}));

  const Problem& q = f.problems[1];
  EXPECT_EQ(q.name, "problem 2");  // no name attribute
  ASSERT_EQ(q.pieces.size(), 2U);
  EXPECT_EQ(q.pieces[0].name, "S2");
  EXPECT_EQ(q.pieces[0].min_count, 2);
  EXPECT_EQ(q.pieces[0].max_count, 2);
  EXPECT_EQ(q.pieces[1].min_count, 3);
  EXPECT_EQ(q.pieces[1].max_count, 4);
  EXPECT_EQ(q.fixed.size(), 7U);
  EXPECT_EQ(q.variable.size(), 1U);
}

TEST(Xmpuzzle, ReadsPlainXml) {
  const std::string path = file("plain", puzzle(kTwoProblems));
  expect_two_problems(read_xmpuzzle(path), path);
}

TEST(Xmpuzzle, ReadsGzipCompressedXml) {
  const std::string path = gzip_file("gzip", puzzle(kTwoProblems));
  expect_two_problems(read_xmpuzzle(path), path);
}

TEST(Xmpuzzle, ReadsWhatBurrToolsLeavesOutOrAddsForItself) {
  // No gridType: cubes (BurrTools' puzzle.cpp assumes them). A part
  // without count, min or max: one copy. Colour 0 after a voxel: no
  // colour. A shape with count 0: not in the problem. Saved solutions and
  // an empty bitmap: ignored.
  const std::string path = file("defaults",
                                "<puzzle version=\"1\"><shapes>"
                                "<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#0</voxel>"
                                "<voxel x=\"3\" y=\"1\" z=\"1\" type=\"0\">##\n#</voxel>"
                                "</shapes><problems><problem>"
                                "<shapes><shape id=\"0\"/><shape id=\"1\" count=\"0\"/></shapes>"
                                "<result id=\"0\"/><bitmap/><solutions/>"
                                "</problem></problems></puzzle>");
  const PuzzleFile f = read_xmpuzzle(path);
  ASSERT_EQ(f.problems.size(), 1U);
  EXPECT_EQ(f.problems[0].name, "problem 1");
  ASSERT_EQ(f.problems[0].pieces.size(), 1U);
  EXPECT_EQ(f.problems[0].pieces[0].min_count, 1);
  EXPECT_EQ(f.problems[0].pieces[0].max_count, 1);
  EXPECT_EQ(f.problems[0].fixed, (std::vector<Voxel>{{0, 0, 0}}));
}

// ------------------------------------------------------------- errors

// kShapes with one problem; its lines: 11 <problems>, 12 <problem>,
// 13 <shapes>, 14 the first <shape>, 15 the second, 16 </shapes>, 17 the
// rest.
std::string one_problem(const std::string& parts, const std::string& rest,
                        const std::string& attributes = "name=\"p\"") {
  return puzzle("<problem " + attributes + ">\n<shapes>\n" + parts + "</shapes>\n" + rest +
                "</problem>\n");
}

TEST(XmpuzzleErrors, NameTheFileTheLineTheProblemAndTheElement) {
  std::string path = file("range", one_problem("<shape id=\"0\"/>\n<shape id=\"4\" count=\"1\"/>\n",
                                               "<result id=\"3\"/>\n"));
  EXPECT_EQ(error_of(path),
            path +
                ":15: problem 1 ('p'), <shape id=\"4\" count=\"1\">: shape id 4 is out "
                "of range: the file has 4 shapes (ids 0 to 3)");

  path = file("result-range", one_problem("<shape id=\"0\"/>\n", "<result id=\"9\"/>\n"));
  EXPECT_EQ(error_of(path), path +
                                ":16: problem 1 ('p'), <result id=\"9\">: shape id 9 is out of "
                                "range: the file has 4 shapes (ids 0 to 3)");

  path = file("no-result", one_problem("<shape id=\"0\"/>\n", ""));
  EXPECT_EQ(error_of(path), path +
                                ":12: problem 1 ('p'), <problem name=\"p\">: no <result>: the "
                                "problem has no result shape");

  path = file("min-max",
              one_problem("<shape id=\"0\" min=\"3\" max=\"2\"/>\n", "<result id=\"3\"/>\n"));
  EXPECT_EQ(error_of(path), path +
                                ":14: problem 1 ('p'), <shape id=\"0\" min=\"3\" max=\"2\">: min 3 "
                                "is more than max 2");

  path = file("min-only", one_problem("<shape id=\"0\" min=\"3\"/>\n", "<result id=\"3\"/>\n"));
  EXPECT_TRUE(contains(error_of(path),
                       ":14: problem 1 ('p'), <shape id=\"0\" min=\"3\">: a range "
                       "needs both min and max"))
      << error_of(path);

  path = file("count", one_problem("<shape id=\"0\" count=\"two\"/>\n", "<result id=\"3\"/>\n"));
  EXPECT_EQ(error_of(path), path +
                                ":14: problem 1 ('p'), <shape id=\"0\" count=\"two\">: count='two' "
                                "is not a whole number from 0 to 65535");

  path =
      file("twice", one_problem("<shape id=\"0\"/>\n<shape id=\"0\"/>\n", "<result id=\"3\"/>\n"));
  EXPECT_TRUE(contains(error_of(path),
                       ":15: problem 1 ('p'), <shape id=\"0\">: shape 0 is a piece "
                       "of this problem twice"))
      << error_of(path);

  // The second problem, unnamed: its number and default name.
  path = file("second", puzzle("<problem><shapes><shape id=\"0\"/></shapes><result id=\"3\"/>"
                               "</problem>\n<problem>\n<shapes/>\n</problem>\n"));
  EXPECT_EQ(error_of(path), path +
                                ":13: problem 2 ('problem 2'), <problem>: no pieces (no <shape> in "
                                "its <shapes>)");
}

TEST(XmpuzzleErrors, RefuseWhatChangesTheAssembliesAndIsNotSupported) {
  // Colours where the puzzle defines none (kShapes' <colors/>): a colour
  // after a voxel, a pair in the bitmap.
  std::string path = file("colour", puzzle("").replace(kShapes.find("#######+"), 8, "##3#####+"));
  EXPECT_EQ(error_of(path),
            path +
                ":9: <voxel x=\"2\" y=\"2\" z=\"2\" type=\"0\" name=\"box\">: voxel "
                "2 of the string has colour 3, but the puzzle defines no colours (<colors>)");
  path = file("bitmap", one_problem("<shape id=\"0\"/>\n",
                                    "<result id=\"3\"/>\n<bitmap><pair piece=\"1\" result=\"1\"/>"
                                    "</bitmap>\n"));
  EXPECT_EQ(error_of(path), path +
                                ":17: problem 1 ('p'), <pair piece=\"1\" result=\"1\">: "
                                "piece=1 is colour 2, but the puzzle defines no colours "
                                "(<colors>; a pair numbers them from 0)");

  // Another grid: BurrTools' gridtype.h numbers the spheres 2.
  path = file("grid", puzzle("").replace(kShapes.find("type=\"0\"/>"), 10, "type=\"2\"/>"));
  EXPECT_EQ(error_of(path), path +
                                ":3: <gridType type=\"2\">: grid type 2 (spheres) is not "
                                "supported: only the cube grid (type 0)");

  path = file("holes", one_problem("<shape id=\"0\"/>\n", "<result id=\"3\"/>\n",
                                   "name=\"p\" maxHoles=\"0\""));
  EXPECT_EQ(error_of(path), path +
                                ":12: problem 1 ('p'), <problem name=\"p\" maxHoles=\"0\">: "
                                "maxHoles (a limit on the variable voxels left empty) is not "
                                "supported");

  // The box (shape 3) as a piece: its '+' voxel.
  path = file("variable-piece", one_problem("<shape id=\"3\"/>\n", "<result id=\"3\"/>\n"));
  EXPECT_EQ(error_of(path), path +
                                ":14: problem 1 ('p'), <shape id=\"3\">: shape 3 ('box') has "
                                "variable voxels ('+'): not supported in a piece");
}

TEST(XmpuzzleErrors, RefuseMalformedShapesAndFiles) {
  // 2x2x2 = 8 voxels, 7 given; then 9.
  std::string path = file("short", puzzle("").replace(kShapes.find("#######+"), 8, "#######"));
  EXPECT_EQ(error_of(path), path +
                                ":9: <voxel x=\"2\" y=\"2\" z=\"2\" type=\"0\" name=\"box\">: 7 "
                                "voxels in the string, x*y*z = 2*2*2 = 8 expected");
  path = file("long", puzzle("").replace(kShapes.find("#######+"), 8, "#######+_"));
  EXPECT_EQ(error_of(path), path +
                                ":9: <voxel x=\"2\" y=\"2\" z=\"2\" type=\"0\" name=\"box\">: more "
                                "voxels in the string than x*y*z = 2*2*2 = 8");
  path = file("character", puzzle("").replace(kShapes.find("#######+"), 8, "####x##+"));
  EXPECT_TRUE(contains(error_of(path),
                       ":9: <voxel x=\"2\" y=\"2\" z=\"2\" type=\"0\" "
                       "name=\"box\">: character 'x' in the voxel string"))
      << error_of(path);
  // A volume no file could list (and beyond 64 bits as a product).
  path = file("huge",
              "<puzzle version=\"2\"><shapes><voxel x=\"1000000000\" y=\"1000000000\" "
              "z=\"1000000000\" type=\"0\">#</voxel></shapes></puzzle>");
  EXPECT_TRUE(contains(error_of(path),
                       "x*y*z = 1000000000*1000000000*1000000000 voxels, more "
                       "than a file of 64 MiB can list"))
      << error_of(path);

  path = file("not-xml", "<puzzle version=\"2\"><shapes>\n</puzzle>\n");
  EXPECT_TRUE(contains(error_of(path), path + ":2: not well-formed XML")) << error_of(path);
  path = file("not-burrtools", "<html/>");
  EXPECT_EQ(error_of(path),
            path + ":1: <html>: the document is a <html>, not a BurrTools <puzzle>");
  path = file("version", "<puzzle version=\"3\"/>");
  EXPECT_EQ(error_of(path),
            path + ":1: <puzzle version=\"3\">: version '3' is not one BurrTools writes (1 or 2)");
  path = file("no-problem", "<puzzle version=\"2\"><shapes/></puzzle>");
  EXPECT_EQ(error_of(path),
            path + ":1: <puzzle version=\"2\">: no <problem> in <problems>: nothing to solve");

  EXPECT_TRUE(contains(error_of("/nonexistent/x.xmpuzzle"),
                       "/nonexistent/x.xmpuzzle: cannot open the BurrTools puzzle file"));
  const std::string dir = scratch("xmpuzzle-dir").string();
  EXPECT_EQ(error_of(dir), dir + ": is a directory, not a BurrTools puzzle file");
}

TEST(XmpuzzleErrors, InACompressedFileTheLineIsOfTheDecompressedXml) {
  const std::string path = gzip_file(
      "gzip-error",
      one_problem("<shape id=\"0\"/>\n<shape id=\"4\" count=\"1\"/>\n", "<result id=\"3\"/>\n"));
  EXPECT_EQ(error_of(path), path +
                                ": problem 1 ('p'), <shape id=\"4\" count=\"1\"> (line 15 of the "
                                "decompressed XML): shape id 4 is out of range: the file has 4 "
                                "shapes (ids 0 to 3)");
}

TEST(XmpuzzleErrors, RefusesCutAndOversizedGzipStreams) {
  // The first half of a compressed file: zlib's "unexpected end of file".
  const std::string whole = gzip_file("cut", puzzle(kTwoProblems));
  const std::string bytes = cubenum::testing::read(whole);
  write(whole, bytes.substr(0, bytes.size() / 2));
  EXPECT_TRUE(contains(error_of(whole), whole + ": cannot read the BurrTools puzzle file"))
      << error_of(whole);

  // A gzip bomb: 65 MiB of spaces compress to about 64 KiB; refused once
  // 64 MiB (kMaxInputBytes) are decompressed.
  const fs::path bomb = scratch("xmpuzzle-bomb") / "bomb.xmpuzzle";
  gzFile out = gzopen(bomb.c_str(), "wb9");
  ASSERT_NE(out, nullptr);
  const std::string spaces(1 << 20, ' ');
  gzputs(out, "<puzzle version=\"2\">");
  for (int i = 0; i < 65; ++i) gzwrite(out, spaces.data(), static_cast<unsigned>(spaces.size()));
  gzclose(out);
  EXPECT_LT(fs::file_size(bomb), 1U << 20);
  EXPECT_EQ(error_of(bomb.string()), bomb.string() +
                                         ": more than 64 MiB of XML once decompressed: not a "
                                         "BurrTools puzzle file");
}

// ------------------------------------------------------------ colours

// Two colours (red 1, black 2), the shapes `shapes`, one problem of the
// parts `parts` (shape ids: counts), result shape `result` and the
// bitmap's pairs `pairs`. Lines: 4 the first shape, and so on.
std::string coloured_puzzle(const std::vector<std::string>& shapes, const std::string& parts,
                            int result, const std::string& pairs) {
  std::string text =
      "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n"
      "<colors><color red=\"255\" green=\"0\" blue=\"0\"/><color red=\"0\" green=\"0\" "
      "blue=\"0\"/></colors><shapes>\n";
  for (const std::string& shape : shapes) text += shape + "\n";
  return text + "</shapes><problems><problem name=\"c\"><shapes>" + parts +
         "</shapes><result id=\"" + std::to_string(result) + "\"/>\n<bitmap>" + pairs +
         "</bitmap>\n</problem></problems></puzzle>\n";
}

// A domino of a red and a black end, a plain domino, and a 2x2x1 box whose
// row y = 0 is red and row y = 1 black.
const std::vector<std::string> kColouredShapes = {
    "<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\" name=\"red-black\">#1#2</voxel>",
    "<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\" name=\"plain\">##</voxel>",
    "<voxel x=\"2\" y=\"2\" z=\"1\" type=\"0\" name=\"rows\">#1#1#2#2</voxel>"};
// Red onto red and black onto black: a pair numbers colours from 0.
const std::string kSameColours = "<pair piece=\"0\" result=\"0\"/><pair piece=\"1\" result=\"1\"/>";

TEST(XmpuzzleColours, ReadsEachVoxelsColourAndThePairs) {
  const std::string path =
      file("colours",
           coloured_puzzle(kColouredShapes, "<shape id=\"0\"/><shape id=\"1\"/>", 2, kSameColours));
  const Problem p = read_xmpuzzle(path).problems.at(0);
  ASSERT_EQ(p.pieces.size(), 2U);
  EXPECT_EQ(p.pieces[0].cubes, (std::vector<Voxel>{{0, 0, 0}, {1, 0, 0}}));
  EXPECT_EQ(p.pieces[0].colours, (std::vector<int>{1, 2}));
  EXPECT_TRUE(p.pieces[1].colours.empty());  // no colour: neutral
  EXPECT_EQ(p.fixed, (std::vector<Voxel>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}));
  EXPECT_EQ(p.fixed_colours, (std::vector<int>{1, 1, 2, 2}));
  EXPECT_EQ(p.allowed, (std::vector<std::pair<int, int>>{{1, 1}, {2, 2}}));
  EXPECT_TRUE(p.fits(1, 1));
  EXPECT_FALSE(p.fits(2, 1));
  EXPECT_TRUE(p.fits(0, 1));  // a neutral voxel goes anywhere, anything onto one
  EXPECT_TRUE(p.fits(2, 0));
}

search::CoverCounts count_of(const Problem& p) {
  return search::VoxelCover(p, "test").count();
}

// Counted by hand (BurrTools' rule, src/lib/problem.cpp placementAllowed:
// a piece voxel fits a result voxel where either is neutral or their pair
// is listed) and checked with burrTxt -q (b72a71d) on the same files.
TEST(XmpuzzleColours, CountsAsBurrToolsColourRuleSays) {
  // The red-black domino and the plain one in the rows. Red onto red,
  // black onto black: the red-black domino stands only upright (x = 0 or
  // 1), red end at y = 0; the plain one fills the other column: 2 raw.
  // The rows keep 2 rotations (the identity and the half turn about y,
  // x -> 1 - x) and 4 symmetries (the mirrors x -> 1 - x and z -> -z),
  // which take one assembly to the other: 1 class (burrTxt: 1).
  const std::string parts = "<shape id=\"0\"/><shape id=\"1\"/>";
  Problem p = read_xmpuzzle(file("rows", coloured_puzzle(kColouredShapes, parts, 2, kSameColours)))
                  .problems.at(0);
  const search::VoxelCover rows(p, "rows");
  EXPECT_EQ(rows.placements(), 6U);  // 2 and the plain domino's 4
  EXPECT_EQ(rows.rotation_order(), 2);
  EXPECT_EQ(rows.symmetry_order(), 4);
  search::CoverCounts c = rows.count();
  EXPECT_EQ(c.raw, 2U);
  EXPECT_EQ(c.rotations, 1U);
  EXPECT_EQ(c.symmetries, 1U);

  // Every pair allowed: the red-black domino anywhere, either end first (2
  // columns and 2 rows, 2 ways each): 8 raw, in 4 pairs under the half turn
  // (burrTxt: 4).
  p.allowed = {{1, 1}, {1, 2}, {2, 1}, {2, 2}};
  c = count_of(p);
  EXPECT_EQ(c.raw, 8U);
  EXPECT_EQ(c.rotations, 4U);
  EXPECT_EQ(c.symmetries, 4U);

  // No pair: colour onto colour nowhere (burrTxt: the piece can be placed
  // nowhere).
  p.allowed.clear();
  EXPECT_EQ(count_of(p).raw, 0U);
}

TEST(XmpuzzleColours, ColoursTellOrientationsAndPiecesApart) {
  // The red-black domino alone in a plain 2x1x1 box: its two ends make two
  // assemblies where a plain domino makes one; the box's half turn about
  // z swaps them (1 class; burrTxt: 1).
  const std::string box = "<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">##</voxel>";
  Problem p = read_xmpuzzle(file("ends", coloured_puzzle({kColouredShapes[0], box},
                                                         "<shape id=\"0\"/>", 1, "")))
                  .problems.at(0);
  search::CoverCounts c = count_of(p);
  EXPECT_EQ(c.raw, 2U);
  EXPECT_EQ(c.rotations, 1U);
  EXPECT_EQ(c.symmetries, 1U);
  p.pieces[0].colours.clear();
  EXPECT_EQ(count_of(p).raw, 1U);

  // An all-red domino and an all-black one in a plain 2x2x1 box: congruent
  // but not alike, so not one piece of two copies: 2 tilings (rows or
  // columns) times 2 ways to lay the two pieces, 4 raw, all turns of one
  // another (1 class; burrTxt: 1). Plain, they are one piece: 2 raw.
  const std::vector<std::string> shapes = {
      "<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\" name=\"red\">#1#1</voxel>",
      "<voxel x=\"1\" y=\"2\" z=\"1\" type=\"0\" name=\"black\">#2#2</voxel>",
      "<voxel x=\"2\" y=\"2\" z=\"1\" type=\"0\">####</voxel>"};
  p = read_xmpuzzle(
          file("pair", coloured_puzzle(shapes, "<shape id=\"0\"/><shape id=\"1\"/>", 2, "")))
          .problems.at(0);
  const search::VoxelCover two(p, "pair");
  EXPECT_EQ(two.piece_names().size(), 2U);
  EXPECT_EQ(two.rotation_order(), 8);
  c = two.count();
  EXPECT_EQ(c.raw, 4U);
  EXPECT_EQ(c.rotations, 1U);
  EXPECT_EQ(c.symmetries, 1U);
  for (Piece& piece : p.pieces) piece.colours.clear();
  EXPECT_EQ(search::VoxelCover(p, "pair").piece_names().size(), 1U);
  EXPECT_EQ(count_of(p).raw, 2U);
}

TEST(XmpuzzleErrors, RefuseColoursOutOfRange) {
  // Lines: 4 the red-black domino (shape 0), 8 the <pair>s.
  const auto with = [](std::vector<std::string> shapes, const std::string& pairs) {
    return coloured_puzzle(shapes, "<shape id=\"0\"/>", 2, pairs);
  };
  const std::string tag = ":4: <voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\" name=\"red-black\">: ";
  std::string path = file("colour-3", with({"<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\" "
                                            "name=\"red-black\">#1#3</voxel>",
                                            kColouredShapes[1], kColouredShapes[2]},
                                           kSameColours));
  EXPECT_EQ(error_of(path), path + tag +
                                "voxel 2 of the string has colour 3, but the puzzle defines 2 "
                                "colours (<colors>)");
  // BurrTools keeps a colour in 6 bits (voxel.cpp: "constraint color too big > 63").
  path = file("colour-64", with({"<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\" "
                                 "name=\"red-black\">#64#1</voxel>",
                                 kColouredShapes[1], kColouredShapes[2]},
                                kSameColours));
  EXPECT_EQ(error_of(path), path + tag +
                                "voxel 1 of the string has colour '64': BurrTools' colours are 1 "
                                "to 63");
  path = file("colour-empty", with({"<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\" "
                                    "name=\"red-black\">#1_2</voxel>",
                                    kColouredShapes[1], kColouredShapes[2]},
                                   kSameColours));
  EXPECT_EQ(error_of(path), path + tag +
                                "voxel 2 of the string is empty ('_') and has colour 2: a colour "
                                "belongs on a filled or variable voxel");

  const std::string pairs_tag = ":8: problem 1 ('c'), ";
  path = file("pair-2", with(kColouredShapes, "<pair piece=\"0\" result=\"2\"/>"));
  EXPECT_EQ(error_of(path), path + pairs_tag +
                                "<pair piece=\"0\" result=\"2\">: result=2 is colour 3, but the "
                                "puzzle defines 2 colours (<colors>; a pair numbers them from 0)");
  path = file("pair-word", with(kColouredShapes, "<pair piece=\"red\" result=\"0\"/>"));
  EXPECT_EQ(error_of(path), path + pairs_tag +
                                "<pair piece=\"red\" result=\"0\">: piece='red' is not a whole "
                                "number from 0 to 1000000000");
  path = file("pair-half", with(kColouredShapes, "<pair piece=\"0\"/>"));
  EXPECT_EQ(error_of(path), path + pairs_tag + "<pair piece=\"0\">: no result attribute");
}

// ------------------------------------------- tools/xmpuzzle-from-text

TEST(XmpuzzleFromText, WritesWhatTheReaderReads) {
  // The converter (Python) turns the project's text format into the
  // .xmpuzzle that burrTxt runs side by side; what it writes must be this
  // puzzle. Expected values read off the text by hand: each shape moved to
  // start at (0, 0, 0).
  // python3 is a dependency (tools/setup installs it): its absence fails.
  ASSERT_EQ(std::system("python3 --version >/dev/null 2>&1"), 0) << "no python3 (tools/setup)";
  const fs::path dir = scratch("xmpuzzle-from-text");
  write(dir / "p.txt",
        "# a test puzzle\n"
        "name Test puzzle\n"
        "piece bar 0-2     # a range\n"
        "cube 5 1 0\n"
        "cube 6 1 0\n"
        "piece ell 3\n"
        "layer\n"
        "#.\n"
        "##\n"
        "target\n"
        "box 2x2x1\n"
        "layer\n"
        "..\n"
        "..\n"
        "layer\n"
        "#+\n");
  const std::string out = (dir / "p.xmpuzzle").string();
  const std::string command = "python3 " CUBENUM_SOURCE_DIR "/tools/xmpuzzle-from-text " +
                              (dir / "p.txt").string() + " " + out;
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const PuzzleFile f = read_xmpuzzle(out);
  ASSERT_EQ(f.problems.size(), 1U);
  const Problem& p = f.problems[0];
  EXPECT_EQ(p.name, "Test puzzle");
  ASSERT_EQ(p.pieces.size(), 2U);
  EXPECT_EQ(p.pieces[0].name, "bar");
  EXPECT_EQ(p.pieces[0].cubes, (std::vector<Voxel>{{0, 0, 0}, {1, 0, 0}}));
  EXPECT_EQ(p.pieces[0].min_count, 0);
  EXPECT_EQ(p.pieces[0].max_count, 2);
  EXPECT_EQ(p.pieces[1].name, "ell");
  EXPECT_EQ(p.pieces[1].cubes, (std::vector<Voxel>{{0, 0, 0}, {0, 1, 0}, {1, 1, 0}}));
  EXPECT_EQ(p.pieces[1].min_count, 3);
  EXPECT_EQ(p.pieces[1].max_count, 3);
  // The box's z = 0, the second picture's z = 1 (the first, z = 0, is
  // empty); in x, y, z order.
  EXPECT_EQ(p.fixed, (std::vector<Voxel>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}}));
  EXPECT_EQ(p.variable, (std::vector<Voxel>{{1, 0, 1}}));
}

}  // namespace
}  // namespace cubenum::polycube
