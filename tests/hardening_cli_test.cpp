// Issue 16, the program's cases (hardening_test.cpp has the library's):
// each test is a case of the issue that commit 48e51ce got wrong. Expected
// values come from the issue's own analysis (the limits, the arithmetic
// done by hand in the comments) and from the POSIX/Linux behaviour of the
// files used (/dev/full: ENOSPC), never from the code under test.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "run_cubenum.hpp"
#include "scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using cubenum::testing::run_cubenum;
using Json = nlohmann::json;

const std::string kData = std::string(CUBENUM_SOURCE_DIR) + "/data/";
const std::string kOriginal = kData + "foam/happy-cube-original.txt";

using cubenum::testing::contains;
using cubenum::testing::read;
using cubenum::testing::scratch;
using cubenum::testing::write;

// ------------------------------------------------- the program

TEST(LimitsCli, RollingCubeGridSizeDoesNotWrap) {
  for (const char* size : {"--rows 2147483649 --cols 2", "--rows 1431655766 --cols 3"}) {
    const auto run = run_cubenum(std::string("rolling-cubes bfs ") + size);
    EXPECT_EQ(run.status, 2) << size << ": " << run.output;  // was a segmentation fault
    EXPECT_TRUE(contains(run.output, "the grid needs 2 to 12 cells")) << run.output;
  }
}

TEST(LimitsCli, ShapeWithMoreFacesThanPiecesAnswersAtOnce) {
  // A 3x3x3 cube has 6 x 9 = 54 faces; Happy Cube Original has 36 pieces:
  // no cover, told before any search (which would run for a long time).
  const std::string json = (scratch("faces") / "count.json").string();
  const auto run = run_cubenum("foam count --shape cuboid:3x3x3 --json " + json + " " + kOriginal);
  ASSERT_EQ(run.status, 0) << run.output;
  std::ifstream in(json);
  const Json j = Json::parse(in);
  EXPECT_EQ(j["faces"], 54);
  EXPECT_EQ(j["results"][0]["raw"], 0);
  EXPECT_EQ(j["results"][0]["complete"], true);
}

TEST(LimitsCli, TooManyPiecesIsAnInputErrorNamingTheLimit) {
  // 33,000 distinct pieces (identity): over the 32,767 kinds the search
  // numbers. Was "internal error: PlateAssembly: too many kinds", exit 1.
  const fs::path dir = scratch("kinds");
  std::string text;
  for (int i = 1; i <= 33000; ++i) text += "grey " + std::to_string(i) + " 0000000000000000\n";
  write(dir / "many.txt", text);
  // (--direct: piece by piece; over shapes they are one kind.)
  const auto run =
      run_cubenum("foam count --challenge pool --direct " + (dir / "many.txt").string());
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "33000 distinct pieces; at most 32767 are supported"))
      << run.output;
}

TEST(LimitsCli, ACountPast64BitsIsRefusedNotWrapped) {
  // 2,000 copies of each of the six blue pieces of Happy Cube Original:
  // each assembly of the six stands for 2000^6 = 6.4 x 10^19 assemblies of
  // distinct pieces, more than 2^64 - 1 = 1.8 x 10^19.
  const fs::path dir = scratch("copies");
  const char* const blue[] = {"1010110110101101", "0101010101011010", "0010001001010010",
                              "0101001011011101", "0010010111010101", "0010001000100010"};
  std::string text;
  int index = 0;
  for (int copy = 0; copy < 2000; ++copy)
    for (const char* cells : blue) text += fmt::format("blue {} {}\n", ++index, cells);
  write(dir / "copies.txt", text);
  const auto run = run_cubenum("foam count --challenge pool " + (dir / "copies.txt").string());
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "passes 2^64 - 1")) << run.output;
}

TEST(OptionsCli, APoolWithCongruentPiecesIsCountedOverShapesAndSaysSo) {
  // Happy Cube Original twice: every piece has a congruent copy. Was: the
  // direct search, which grows without bound on all seven sets. Now over
  // shapes, said on standard error; --direct, the search piece by piece,
  // gives the same counts (a second algorithm).
  const std::string twice = " " + kOriginal + " " + kOriginal;
  const auto fast = run_cubenum("foam count --challenge pool --json -" + twice);
  ASSERT_EQ(fast.status, 0) << fast.output;
  EXPECT_TRUE(contains(fast.output, "72 pieces in 34 shapes: counted over shapes")) << fast.output;
  const auto slow = run_cubenum("foam count --challenge pool --direct --json -" + twice);
  ASSERT_EQ(slow.status, 0) << slow.output;
  EXPECT_FALSE(contains(slow.output, "counted over shapes"));
  const auto counts = [](const std::string& output) {
    const Json r = Json::parse(output.substr(output.find('{')))["results"][0];
    return std::vector<std::uint64_t>{r["raw"], r["rotations"], r["symmetries"],
                                      r["piece_choices"]};
  };
  EXPECT_EQ(counts(fast.output), counts(slow.output));
  EXPECT_EQ(counts(fast.output)[0], 28641600U);  // as --direct found it, 1.2 s
  // --direct only where it acts.
  for (const char* args : {"foam count --direct --challenge own", "foam count --direct --by shape",
                           "foam count --direct --via-shapes --challenge pool"}) {
    const auto run = run_cubenum(args + std::string(" ") + kOriginal);
    EXPECT_EQ(run.status, 2) << args << ": " << run.output;
    EXPECT_TRUE(contains(run.output, "--direct")) << run.output;
  }
}

TEST(InputCli, LongLineIsQuotedShort) {
  const fs::path dir = scratch("long");
  write(dir / "long.txt", std::string(10 << 20, 'x'));  // 10 MB, no newline
  const auto run = run_cubenum("foam count " + (dir / "long.txt").string());
  EXPECT_EQ(run.status, 2);
  EXPECT_LT(run.output.size(), 1000U) << "the error echoed the line";
  EXPECT_TRUE(contains(run.output, "long.txt:1: ")) << run.output;
}

TEST(Options, IgnoredOptionsAreRefused) {
  const std::string set = " " + kOriginal;
  for (const char* args :
       {"foam count --challenge own --shape cuboid:1x1x1", "foam count --shape ''",
        "foam solve --list -1", "foam solve --first 2", "foam count --colours blue",
        "foam count --shape cuboid:1x1x1 --time-limit -5",
        "foam count --shape cuboid:1x1x1 --time-limit nan", "foam count --time-limit 5"}) {
    const auto run = run_cubenum(args + set);
    EXPECT_EQ(run.status, 2) << args << ": " << run.output;
    EXPECT_TRUE(contains(run.output, "error")) << args << ": " << run.output;
  }
}

TEST(Options, ThreadsAreRecordedAsRun) {
  // oneTBB runs at most the machine's hardware threads.
  const auto run = run_cubenum("foam count --threads 65536 --json - " + kOriginal);
  ASSERT_EQ(run.status, 0) << run.output;
  const auto json = run.output.substr(run.output.find('{'));
  EXPECT_LE(Json::parse(json)["threads"].get<unsigned>(),
            std::max(1U, std::thread::hardware_concurrency()));
  EXPECT_TRUE(contains(run.output, "--threads 65536: this machine runs")) << run.output;
}

TEST(ExitCodes, UsageErrorsAreTwo) {
  // CLI11 gave 105 (bad value), 106 (missing), 109 (extras).
  for (const char* args : {"foam count", "pocket-cube bfs --metric", "pocket-cube bfs --nope",
                           "pocket-cube bfs --threads x", "pocket-cube"}) {
    const auto run = run_cubenum(args);
    EXPECT_EQ(run.status, 2) << args << ": " << run.output;
  }
  EXPECT_EQ(run_cubenum("pocket-cube bfs --help").status, 0);
}

TEST(ExitCodes, NoArgumentsPrintsUsageAndPuzzles) {
  const auto run = run_cubenum("");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "Usage")) << run.output;
  EXPECT_TRUE(contains(run.output, "pocket-cube bfs")) << run.output;
}

TEST(ExitCodes, UnknownActionUnderScaleIsNamed) {
  const auto run = run_cubenum("scale --threads 1 pocket-cube frob");
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(contains(run.output, "unknown action 'frob' for pocket-cube")) << run.output;
}

TEST(OutputCli, FailedRunLeavesTheJsonFileAsItWas) {
  const fs::path dir = scratch("json-kept");
  write(dir / "result.json", "old result\n");
  write(dir / "bad.txt", "blue 1 01\n");
  const auto run = run_cubenum("foam count " + (dir / "bad.txt").string() + " --json " +
                               (dir / "result.json").string());
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(read(dir / "result.json"), "old result\n");  // was emptied
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 2)
      << "a temporary file was left";
}

TEST(OutputCli, AnInputIsNotAnOutput) {
  const fs::path dir = scratch("input-output");
  fs::copy_file(kOriginal, dir / "in.txt");
  const std::string in = (dir / "in.txt").string();
  const auto run = run_cubenum("foam count " + in + " --json " + in);
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(contains(run.output, "also an input")) << run.output;
  EXPECT_EQ(read(in), read(kOriginal));  // was destroyed
}

TEST(OutputCli, MissingFolderFailsBeforeTheWork) {
  // --svg with --shape was checked only after the search.
  const auto run = run_cubenum(
      "foam solve --shape cuboid:1x1x1 --svg /nonexistent-cubenum/x.svg --verbose " + kOriginal);
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(contains(run.output, "--svg: cannot write '/nonexistent-cubenum/x.svg': no folder"))
      << run.output;
  EXPECT_FALSE(contains(run.output, "done in")) << "the search ran first: " << run.output;
  const auto scale = run_cubenum("scale --threads 1 --out /etc/hostname/sub pocket-cube bfs");
  EXPECT_EQ(scale.status, 2);
  EXPECT_TRUE(contains(scale.output, "is not a folder")) << scale.output;
}

TEST(InputCli, DirectoryIsNamed) {
  const fs::path dir = scratch("directory");
  // Was "no pieces in the file".
  const auto run = run_cubenum("foam count " + dir.string());
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(contains(run.output, "is a directory, not a piece set file")) << run.output;
}

TEST(OutputCli, WriteErrorsAreErrors) {
  // /dev/full takes no byte: ENOSPC, "No space left on device".
  ASSERT_TRUE(fs::exists("/dev/full")) << "no /dev/full (every Linux has it)";
  auto run = run_cubenum("foam count --json /dev/full " + kOriginal);
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "--json: writing '/dev/full': No space left on device"))
      << run.output;
  run = run_cubenum("list >/dev/full");
  EXPECT_EQ(run.status, 2);
}

// ------------------------------------------------- polycube

const std::string kSoma = kData + "polycubes/soma.txt";

// The run ends with exit code 2 and an error that says `what`.
void expect_refused(const std::string& args, const std::string& what) {
  const auto run = run_cubenum("polycube " + args);
  EXPECT_EQ(run.status, 2) << args << ": " << run.output;
  EXPECT_TRUE(contains(run.output, "error: ")) << args << ": " << run.output;
  EXPECT_TRUE(contains(run.output, what)) << args << ": " << run.output;
}

TEST(InputCli, PolycubeFilesThatAreNoPuzzleAreNamed) {
  const fs::path dir = scratch("polycube-files");
  const std::string missing = (dir / "missing.txt").string();
  expect_refused("count " + missing,
                 missing + ": cannot open the polycube puzzle file: No such file or directory");
  expect_refused("solve " + dir.string(), dir.string() + ": is a directory");
  // Binary data: an executable's first bytes (NUL among them), and gzip's
  // magic number followed by no gzip stream (read as a BurrTools file).
  using namespace std::string_literals;
  write(dir / "binary.dat", "\x7f"s + "ELF\x02\x01\x01\0\0\0\0"s);
  expect_refused("count " + (dir / "binary.dat").string(),
                 (dir / "binary.dat").string() + ":1: a NUL byte");
  write(dir / "fake.xmpuzzle", "\x1f\x8b\x08\0not a gzip stream"s);
  expect_refused("count " + (dir / "fake.xmpuzzle").string(),
                 (dir / "fake.xmpuzzle").string() + ": cannot read the BurrTools puzzle file");
}

TEST(Options, PolycubeOptionsOutOfRangeAreRefused) {
  // --problem counts from 1 (was: 0 taken as every problem); soma.txt has
  // one problem.
  expect_refused("count --problem 0 " + kSoma, "--problem");
  expect_refused("solve --problem 0 " + kSoma, "--problem");
  expect_refused("count --problem 99 " + kSoma, "soma.txt has 1 problem: --problem takes 1..1");
  expect_refused("count --problem x " + kSoma, "--problem");
  expect_refused("count --time-limit -1 " + kSoma, "--time-limit: -1 is not a number of seconds");
  expect_refused("solve --time-limit -1 " + kSoma, "--time-limit");
  // --first -1 and past 2^64 - 1 were taken: all 240 assemblies of the
  // Soma cube printed; 0 printed none.
  for (const char* first : {"-1", "18446744073709551617", "99999999999999999999", "0"})
    expect_refused(std::string("solve --first ") + first + " " + kSoma, "--first");
}

TEST(OutputCli, PolycubeSvgIntoAMissingFolderFailsBeforeTheWork) {
  const auto run = run_cubenum("polycube solve --svg /nonexistent-cubenum/x.svg " + kSoma);
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "--svg: cannot write '/nonexistent-cubenum/x.svg': no folder"))
      << run.output;
  EXPECT_FALSE(contains(run.output, "placements")) << "the search ran first: " << run.output;
}

}  // namespace

// ------------------------------------------------- issue 33: a second pass
// Each test is a reproducer of the issue (found by its tester on eb6814b);
// each failed before its fix. Expected values are worked out by hand in the
// comments, never taken from the program.

namespace second_pass {

using cubenum::testing::run_shell;

Json result_of(const std::string& json) {
  std::ifstream in(json);
  return Json::parse(in);
}

// Point 1: a solid target no placement fits was a segmentation fault; no
// assembly is the answer (a 3x1x1 piece is longer than every side of a
// 2x2x2 box), as it already was for flat targets.
TEST(SecondPassCli, ATargetThatNoPieceFitsHasNoAssembly) {
  const fs::path dir = scratch("no-placement");
  write(dir / "seg1.txt", "piece a\ncube 0 0 0\ncube 1 0 0\ncube 2 0 0\ntarget\nbox 2x2x2\n");
  const std::string json = (dir / "out.json").string();
  for (const char* threads : {"1", "2"}) {
    auto run = run_cubenum(std::string("polycube count --threads ") + threads + " --json " + json +
                           " " + (dir / "seg1.txt").string());
    ASSERT_EQ(run.status, 0) << run.output;
    const Json r = result_of(json)["results"][0];
    EXPECT_EQ(r["placements"], 0);
    EXPECT_EQ(r["raw"], 0);
    EXPECT_EQ(r["symmetries"], 0);
    EXPECT_EQ(r["complete"], true);
    run = run_cubenum(std::string("polycube solve --threads ") + threads + " " +
                      (dir / "seg1.txt").string());
    EXPECT_EQ(run.status, 0) << run.output;
    EXPECT_TRUE(contains(run.output, "first 0 assemblies")) << run.output;
  }
}

// Point 2: `twisty bfs t.tws --table t.tws` wrote the binary table over the
// definition (rc 0). No output may be an input or another output, by path
// or through a link, whether the file exists yet or not.
TEST(SecondPassCli, NoOutputIsAnInputOrAnotherOutput) {
  const fs::path dir = scratch("outputs-apart");
  const std::string definition = read(kData + "twisty/pocket-cube.tws");
  const fs::path tws = dir / "t.tws";
  write(tws, definition);
  fs::create_symlink(tws, dir / "soft.tws");
  fs::create_hard_link(tws, dir / "hard.tws");
  for (const char* table : {"t.tws", "soft.tws", "hard.tws"}) {
    const auto run = run_cubenum("twisty bfs " + tws.string() + " --moves U,F,R --table " +
                                 (dir / table).string());
    EXPECT_EQ(run.status, 2) << table << ": " << run.output;
    EXPECT_TRUE(contains(run.output, "--table: ")) << run.output;
    EXPECT_TRUE(contains(run.output, "is also an input or another output")) << run.output;
    EXPECT_EQ(read(tws), definition) << table;
  }
  const std::string x = (dir / "x").string();
  const std::string soma = kData + "polycubes/soma.txt",
                    marble = kData + "foam/happy-cube-marble.txt";
  for (const std::string& args :
       {"twisty bfs " + tws.string() + " --moves U,F,R --table " + x + " --json " + x,
        "twisty bfs " + tws.string() + " --moves U,F,R --table " + x + " --json " +
            (dir / "." / "x").string(),
        "foam solve --svg " + x + " --json " + x + " " + marble,
        "foam solve --html " + x + " --json " + x + " " + marble,
        "foam solve --svg " + x + " --html " + x + " " + marble,
        "polycube solve --svg " + x + " --html " + x + " " + soma,
        "polycube solve --svg " + x + " --json=" + x + " " + soma,
        "pocket-cube solve --scramble R --html " + x + " --json " + x,
        "rolling-cubes solve --rows 2 --cols 3 --html " + x + " --json " + x}) {
    const auto run = run_cubenum(args);
    EXPECT_EQ(run.status, 2) << args << ": " << run.output;
    EXPECT_TRUE(contains(run.output, "is also an input or another output")) << run.output;
    EXPECT_FALSE(fs::exists(x)) << args;
  }
  // An empty name was silently no output at all.
  const auto run = run_cubenum("polycube count --json '' " + soma);
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "--json: an empty file name")) << run.output;
}

// Points 3 and 4: BurrTools' count (congruent pieces listed apart told
// apart) was cut short by --time-limit and reported complete. Ten unit
// cubes listed apart in a 10x1x1 box: by hand, 10! = 3,628,800 orders; of
// the box's 16 symmetries, 8 fix every cell (the four turns about its axis
// and the four mirror planes through it), so each class has 16 / 8 = 2
// orders: 1,814,400 classes.
TEST(SecondPassCli, BurrToolsCountCutShortIsSaidAndResumes) {
  const fs::path dir = scratch("burrtools-cut-short");
  std::string text;
  for (int i = 1; i <= 10; ++i) text += fmt::format("piece p{}\ncube 0 0 0\n", i);
  write(dir / "u10.txt", text + "target\nbox 10x1x1\n");
  const std::string file = (dir / "u10.txt").string(), json = (dir / "out.json").string();
  auto run = run_cubenum("polycube count --time-limit 0.05 --json " + json + " " + file);
  ASSERT_EQ(run.status, 0) << run.output;
  Json r = result_of(json)["results"][0];
  EXPECT_EQ(r["symmetries"], 1);  // the ten identical cubes: one assembly
  EXPECT_EQ(r["complete"], false) << r.dump();
  EXPECT_TRUE(r["burrtools"].is_null() || r["burrtools"].get<std::uint64_t>() < 1814400U);
  // With a checkpoint: stopped (exit 4), and the resumed count is whole.
  const std::string ck = (dir / "ck").string();
  run = run_cubenum("polycube count --time-limit 0.05 --checkpoint " + ck + " " + file);
  EXPECT_EQ(run.status, 4) << run.output;
  EXPECT_TRUE(contains(run.output, "--resume")) << run.output;
  run = run_cubenum("polycube count --resume " + ck + " --json " + json + " " + file);
  ASSERT_EQ(run.status, 0) << run.output;
  r = result_of(json)["results"][0];
  EXPECT_EQ(r["burrtools"], 1814400);
  EXPECT_EQ(r["complete"], true);
  // Left out on request: null, and the count is complete.
  run = run_cubenum("polycube count --no-burrtools --json " + json + " " + file);
  ASSERT_EQ(run.status, 0) << run.output;
  r = result_of(json)["results"][0];
  EXPECT_TRUE(r["burrtools"].is_null());
  EXPECT_EQ(r["complete"], true);
}

// Point 6: layer pictures had no limits (a 3000x3000 piece ran over 100 s).
// They take the limits of cube lines (coordinates 0..1000) and boxes
// (100,000 cubes a piece or target), told while reading, with the line.
TEST(SecondPassCli, LayerPicturesHaveTheLimitsOfCubeLines) {
  const fs::path dir = scratch("picture-limits");
  const auto picture = [&](const std::string& name, int rows, int columns, int layers) {
    std::string text = "piece a\n";
    for (int z = 0; z < layers; ++z) {
      text += "layer\n";
      for (int y = 0; y < rows; ++y)
        text += std::string(static_cast<std::size_t>(columns), '#') + "\n";
    }
    write(dir / name, text + "target\nbox 3x3x1\n");
    return (dir / name).string();
  };
  expect_refused("count " + picture("wide.txt", 1, 1002, 1),
                 "wide.txt:3: a picture row of 1002 columns: at most 1001");
  expect_refused("count " + picture("tall.txt", 1002, 1, 1),
                 "tall.txt:1004: a layer of more than 1001 rows");
  expect_refused("count " + picture("deep.txt", 1, 1, 1002),
                 "deep.txt:2004: piece 'a' has more than 1001 layers");
  expect_refused("count " + picture("many.txt", 101, 1000, 1),
                 "many.txt:103: piece 'a' has more than 100000 cubes");
}

// Point 7: a rolling-cubes checkpoint whose goal depth was edited resumed
// into "internal error" (rc 1). It is a corrupt checkpoint (rc 2).
TEST(SecondPassCli, EditedGoalDepthIsACorruptCheckpoint) {
  const fs::path dir = scratch("watch-depth");
  const std::string ck = (dir / "ck").string();
  auto run =
      run_cubenum("rolling-cubes solve --rows 2 --cols 3 --checkpoint-every 0 --checkpoint " + ck);
  ASSERT_EQ(run.status, 0) << run.output;
  const fs::path manifest = dir / "ck" / "checkpoint.json";
  // (Its keys in their order: the identity is compared as written.)
  const auto saved = nlohmann::ordered_json::parse(read(manifest));
  ASSERT_TRUE(saved["state"]["extra"].contains("watch_depth")) << saved.dump();
  for (const auto& wrong :
       {nlohmann::ordered_json(3), nlohmann::ordered_json(1000), nlohmann::ordered_json(nullptr)}) {
    auto edited = saved;
    // The last save is at the boundary before the goal's level: its depth
    // is unknown there (null); any number is wrong, as is null once known.
    if (edited["state"]["extra"]["watch_depth"] == wrong) continue;
    edited["state"]["extra"]["watch_depth"] = wrong;
    write(manifest, edited.dump(2));
    run = run_cubenum("rolling-cubes solve --rows 2 --cols 3 --resume " + ck);
    EXPECT_EQ(run.status, 2) << wrong << ": " << run.output;
    EXPECT_TRUE(contains(run.output, "corrupt checkpoint: its goal's depth")) << run.output;
  }
  write(manifest, saved.dump(2));
  run = run_cubenum("rolling-cubes solve --rows 2 --cols 3 --resume " + ck);
  EXPECT_EQ(run.status, 0) << run.output;
}

// Point 8, each a line.
TEST(SecondPassCli, SmallCasesSayWhatIsWrong) {
  const fs::path dir = scratch("small-cases");
  // A file with CR alone at the ends of its lines said "no Set line": it
  // reads as the same file with LF.
  std::string definition = read(kData + "twisty/pocket-cube.tws");
  std::replace(definition.begin(), definition.end(), '\n', '\r');
  write(dir / "cr.tws", definition);
  auto run = run_cubenum("twisty bfs --moves U,F,R " + (dir / "cr.tws").string());
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "total         3674160")) << run.output;  // 7! x 3^6
  // A negative count said "least count '' is not an integer".
  write(dir / "negative.txt", "piece V -1\ncube 0 0 0\ntarget\nbox 1x1x1\n");
  expect_refused("count " + (dir / "negative.txt").string(),
                 "negative.txt:1: count '-1' is negative");
  // --moves '' was every move.
  run = run_cubenum("twisty info --moves '' " + kData + "twisty/pocket-cube.tws");
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "--moves: no move names")) << run.output;
  // Numbers: "Value abc not in range".
  run = run_cubenum("pocket-cube bfs --threads abc");
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(contains(run.output, "--threads: abc is not a whole number")) << run.output;
  run = run_cubenum("pocket-cube bfs --threads 0");
  EXPECT_TRUE(contains(run.output, "--threads: 0 is outside 1..65536")) << run.output;
  // --by lists every choice.
  run = run_cubenum("foam count --by nope " + kOriginal);
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(contains(run.output, "both")) << run.output;
  // A bad shape file is told before the note on counting over shapes
  // (Original's 36 pieces are 34 shapes).
  write(dir / "bad.shape", "not a shape\n");
  run = run_cubenum("foam count --shape " + (dir / "bad.shape").string() + " " + kOriginal);
  EXPECT_EQ(run.status, 2);
  EXPECT_FALSE(contains(run.output, "note:")) << run.output;
  // A colour of five pieces: no cube, and the count says why.
  std::string five;
  for (int i = 1; i <= 5; ++i) five += fmt::format("grey {} 0000000000000000\n", i);
  write(dir / "five.txt", five);
  run = run_cubenum("foam count " + (dir / "five.txt").string());
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "5 pieces, and a cube takes 6")) << run.output;
}

}  // namespace second_pass

namespace {

// Names from the user's files go into the drawings as text: written as XML
// entities, so that a name with & or < leaves the SVG well formed.
TEST(DrawingsCli, NamesWithMarkupAreWrittenAsText) {
  const fs::path dir = scratch("markup");
  write(dir / "two.txt",
        "name A&B <puzzle>\npiece A&B\ncube 0 0 0\npiece <C>\ncube 0 0 0\ntarget\nbox 2x1x1\n");
  const fs::path svg = dir / "two.svg";
  auto run = run_cubenum("polycube solve " + (dir / "two.txt").string() + " --svg " + svg.string());
  ASSERT_EQ(run.status, 0) << run.output;
  const std::string drawn = read(svg);
  // Congruent pieces are one kind, named by both.
  EXPECT_TRUE(contains(drawn, ">A&amp;B=&lt;C&gt;</text>")) << drawn;
  EXPECT_FALSE(contains(drawn, "<C>")) << drawn;

  // A foam set's name is its file's name.
  fs::copy_file(kOriginal, dir / "a&b.txt");
  const fs::path nets = dir / "nets.svg";
  run = run_cubenum("foam solve --list 1 '" + (dir / "a&b.txt").string() + "' --svg " +
                    nets.string());
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(contains(read(nets), "a&amp;b")) << read(nets).substr(0, 400);
  EXPECT_FALSE(contains(read(nets), "a&b")) << read(nets).substr(0, 400);
}

}  // namespace
