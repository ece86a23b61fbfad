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
  // Colour constraints: a colour after a voxel, a pair in the bitmap.
  std::string path = file("colour", puzzle("").replace(kShapes.find("#######+"), 8, "##3#####+"));
  EXPECT_EQ(error_of(path),
            path +
                ":9: <voxel x=\"2\" y=\"2\" z=\"2\" type=\"0\" name=\"box\">: voxel "
                "2 of the string has colour '3': colour constraints are not "
                "supported");
  path = file("bitmap", one_problem("<shape id=\"0\"/>\n",
                                    "<result id=\"3\"/>\n<bitmap><pair piece=\"1\" result=\"1\"/>"
                                    "</bitmap>\n"));
  EXPECT_EQ(error_of(path), path +
                                ":17: problem 1 ('p'), <pair piece=\"1\" result=\"1\">: colour "
                                "constraints are not supported");

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
