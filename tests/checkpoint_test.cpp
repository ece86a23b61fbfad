// Checkpoints and resumption (core/checkpoint.hpp, bfs/bfs_checkpoint.hpp,
// the row engine's boundaries in bfs/row_bfs.hpp; --checkpoint / --resume /
// --time-limit): a run stopped or killed at any
// moment and continued gives exactly the uninterrupted run's result; a
// checkpoint of another run, another format, or corrupt, is refused.
//
// The expected results are the uninterrupted run's (the rolling cubes'
// own tests check those against the published and naive counts).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "room_puzzle.hpp"
#include "run_cubenum.hpp"
#include "scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using cubenum::testing::run_cubenum;
using cubenum::testing::run_until;
using Json = nlohmann::json;

const std::string kRolling33 = "rolling-cubes bfs --rows 3 --cols 3";

fs::path scratch(const std::string& name) {
  return cubenum::testing::scratch("checkpoint-" + name);
}

// The result without the fields that differ between runs.
Json result_of(const fs::path& json) {
  std::ifstream in(json);
  Json j = Json::parse(in);
  j.erase("seconds");
  j.erase("resumed");
  j.erase("threads");
  return j;
}

Json uninterrupted(const fs::path& dir) {
  const auto run = run_cubenum(kRolling33 + " --json " + (dir / "whole.json").string());
  EXPECT_EQ(run.status, 0) << run.output;
  return result_of(dir / "whole.json");
}

// Goes on with `command` from the checkpoint `ck` in slices of `limit`
// seconds, each `growth` times the last, on 1 thread and on 2 by turns (a
// checkpoint does not depend on them), until a run ends or `most` runs
// were made; `slices` counts them with the first, which made `ck`.
void resume_in_slices(const std::string& command, const std::string& ck, const std::string& out,
                      double limit, double growth, int most, int& slices) {
  cubenum::testing::ProgramRun run;
  slices = 1;
  do {
    const std::string threads = slices % 2 == 0 ? " --threads 2" : " --threads 1";
    limit *= growth;
    run =
        run_cubenum(command + threads + " --resume " + ck + " --checkpoint-every 0 --time-limit " +
                    std::to_string(limit) + " --json " + out);
    ASSERT_TRUE(run.status == 0 || run.status == 4) << run.output;
  } while (run.status == 4 && ++slices < most);
  ASSERT_EQ(run.status, 0) << run.output;
}

TEST(Checkpoint, TimeLimitedSlicesGiveTheUninterruptedResult) {
  const fs::path dir = scratch("slices");
  const Json whole = uninterrupted(dir);
  const std::string ck = (dir / "ck").string(), out = (dir / "sliced.json").string();
  auto run = run_cubenum(kRolling33 + " --checkpoint " + ck +
                         " --checkpoint-every 0 --time-limit 0.05 --json " + out);
  ASSERT_EQ(run.status, 4) << run.output;  // stopped, with a checkpoint
  EXPECT_NE(run.output.find("--resume"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(out));  // no result of a stopped run
  // A stop drops the level in progress: each slice is a tenth longer, so
  // that on a loaded machine a level longer than the first slices is
  // passed in the end.
  int slices = 0;
  ASSERT_NO_FATAL_FAILURE(resume_in_slices(kRolling33, ck, out, 0.05, 1.1, 200, slices));
  EXPECT_GT(slices, 1);
  EXPECT_EQ(result_of(out), whole);
  std::ifstream in(out);
  EXPECT_TRUE(Json::parse(in).value("resumed", false));
}

// SIGKILL at several moments (during levels, during checkpoint writes: the
// level-0 checkpoint is written at once and then one every level), then
// resumed; or started afresh when the kill came before the first commit.
TEST(Checkpoint, KilledAtAnyMomentResumesToTheSameResult) {
  const fs::path dir = scratch("kill");
  const Json whole = uninterrupted(dir);
  for (const double at : {0.01, 0.03, 0.06, 0.1, 0.15}) {
    const std::string ck = (dir / ("ck" + std::to_string(at))).string();
    const std::string out = (dir / "killed.json").string();
    fs::remove(out);
    run_until("KILL", at, kRolling33 + " --checkpoint " + ck + " --checkpoint-every 0");
    const std::string again =
        fs::exists(fs::path(ck) / "checkpoint.json") ? " --resume " + ck : " --checkpoint " + ck;
    const auto run = run_cubenum(kRolling33 + again + " --json " + out);
    ASSERT_EQ(run.status, 0) << "killed at " << at << " s: " << run.output;
    EXPECT_EQ(result_of(out), whole) << "killed at " << at << " s";
    for (const auto& entry : fs::directory_iterator(ck))  // a killed save's temporaries
      EXPECT_FALSE(entry.path().filename().string().ends_with(".partial")) << entry.path();
  }
}

// Two-bit storage (the depth table alone): a stop waits for the level's
// end, sliced and killed runs give the uninterrupted result, and a
// checkpoint of the other storage is refused.
TEST(Checkpoint, TwoBitStorageSlicesAndKillsGiveTheUninterruptedResult) {
  const fs::path dir = scratch("two-bit");
  const Json whole = uninterrupted(dir);
  const std::string command = kRolling33 + " --storage two-bit";
  const std::string ck = (dir / "ck").string(), out = (dir / "sliced.json").string();
  auto run = run_cubenum(command + " --checkpoint " + ck +
                         " --checkpoint-every 0 --time-limit 0.03 --json " + out);
  ASSERT_EQ(run.status, 4) << run.output;
  int slices = 0;
  ASSERT_NO_FATAL_FAILURE(resume_in_slices(command, ck, out, 0.03, 1, 100, slices));
  EXPECT_GT(slices, 2);
  EXPECT_EQ(result_of(out), whole);

  const auto bitmaps = run_cubenum(kRolling33 + " --storage bitmaps --resume " + ck);
  EXPECT_EQ(bitmaps.status, 2) << bitmaps.output;
  EXPECT_NE(bitmaps.output.find("two_bit is true there, false here"), std::string::npos)
      << bitmaps.output;

  for (const double at : {0.02, 0.06, 0.12}) {
    const std::string killed = (dir / ("killed" + std::to_string(at))).string();
    fs::remove(out);
    run_until("KILL", at, command + " --checkpoint " + killed + " --checkpoint-every 0");
    const std::string again = fs::exists(fs::path(killed) / "checkpoint.json")
                                  ? " --resume " + killed
                                  : " --checkpoint " + killed;
    run = run_cubenum(command + again + " --json " + out);
    ASSERT_EQ(run.status, 0) << "killed at " << at << " s: " << run.output;
    EXPECT_EQ(result_of(out), whole) << "killed at " << at << " s";
  }
}

// --memory: bitmaps (9.0 MiB for the 3x3) when they fit, else the depth
// table alone (3.6 MiB), else a refusal that says what it needs.
TEST(Checkpoint, StorageFollowsTheMemoryAllowed) {
  const fs::path dir = scratch("memory");
  const Json whole = uninterrupted(dir);
  const std::string out = (dir / "small.json").string();
  const auto small = run_cubenum(kRolling33 + " --memory 0.005 --json " + out);
  ASSERT_EQ(small.status, 0) << small.output;
  EXPECT_NE(small.output.find("two-bit storage (3.6 MiB"), std::string::npos) << small.output;
  EXPECT_EQ(result_of(out), whole);
  const auto tiny = run_cubenum(kRolling33 + " --memory 0.002");
  EXPECT_EQ(tiny.status, 2) << tiny.output;
  EXPECT_NE(tiny.output.find("15116544 states need 3.6 MiB for the BFS (the depth table"),
            std::string::npos)
      << tiny.output;
  const auto forced = run_cubenum(kRolling33 + " --memory 0.005 --storage bitmaps");
  EXPECT_EQ(forced.status, 2) << forced.output;
  EXPECT_NE(forced.output.find("need 9.0 MiB for the BFS (bitmaps"), std::string::npos)
      << forced.output;
}

TEST(Checkpoint, CtrlCStopsWithACheckpoint) {
  const fs::path dir = scratch("sigint");
  const Json whole = uninterrupted(dir);
  const std::string ck = (dir / "ck").string(), out = (dir / "after.json").string();
  // A signal before the action installs its handler ends the program (130:
  // nothing started); then a little later each time. Checkpoints at every
  // level (each flushed to disk) make the run last well past the signal.
  int status = 130;
  for (double at = 0.08; status == 130 && at < 2; at *= 2) {
    fs::remove_all(ck);
    status = run_until("INT", at, kRolling33 + " --checkpoint " + ck + " --checkpoint-every 0");
  }
  ASSERT_EQ(status, 4) << "0: the run ended before the signal";
  ASSERT_TRUE(fs::exists(fs::path(ck) / "checkpoint.json"));
  const auto run = run_cubenum(kRolling33 + " --resume " + ck + " --json " + out);
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(result_of(out), whole);
}

class CheckpointRefused : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch(::testing::UnitTest::GetInstance()->current_test_info()->name());
    ck_ = (dir_ / "ck").string();
    const auto run = run_cubenum("rolling-cubes bfs --rows 2 --cols 3 --checkpoint " + ck_ +
                                 " --checkpoint-every 0 --time-limit 0.000001");
    ASSERT_EQ(run.status, 4) << run.output;
  }
  fs::path data_file(const std::string& name) const {
    for (const auto& entry : fs::directory_iterator(ck_))
      if (entry.path().filename().string().starts_with(name + ".")) return entry.path();
    return {};
  }
  cubenum::testing::ProgramRun resume(const std::string& grid = "--rows 2 --cols 3") const {
    return run_cubenum("rolling-cubes bfs " + grid + " --resume " + ck_);
  }
  fs::path dir_;
  std::string ck_;
};

TEST_F(CheckpointRefused, AnotherRun) {
  const auto run = resume("--rows 3 --cols 2");
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("of another run: rows is 2 there, 3 here"), std::string::npos)
      << run.output;
}

TEST_F(CheckpointRefused, AFolderWithACheckpointWithoutResume) {
  const auto run = run_cubenum("rolling-cubes bfs --rows 2 --cols 3 --checkpoint " + ck_);
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("holds a checkpoint already"), std::string::npos) << run.output;
}

TEST_F(CheckpointRefused, ACorruptDataFile) {
  const fs::path file = data_file("depths");
  ASSERT_FALSE(file.empty());
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    char byte = 0;
    f.read(&byte, 1);
    byte = static_cast<char>(byte ^ 0x10);
    f.seekp(0);
    f.write(&byte, 1);
  }
  const auto run = resume();
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("corrupt: its checksum (XXH3)"), std::string::npos) << run.output;
}

TEST_F(CheckpointRefused, ATruncatedDataFile) {
  const fs::path file = data_file("depths");
  ASSERT_FALSE(file.empty());
  fs::resize_file(file, fs::file_size(file) / 2);
  const auto run = resume();
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("truncated"), std::string::npos) << run.output;
}

TEST_F(CheckpointRefused, AnotherFormatOrATruncatedManifest) {
  const fs::path manifest = fs::path(ck_) / "checkpoint.json";
  Json j;
  {
    std::ifstream in(manifest);
    j = Json::parse(in);
  }
  j["format"] = 99;
  std::ofstream(manifest) << j.dump();
  auto run = resume();
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("checkpoint format 99"), std::string::npos) << run.output;
  std::ofstream(manifest) << j.dump().substr(0, 40);
  run = resume();
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("corrupt or truncated"), std::string::npos) << run.output;
}

TEST(Checkpoint, NothingToResumeAndATimeLimitWithoutACheckpoint) {
  const fs::path dir = scratch("none");
  auto run = run_cubenum("rolling-cubes bfs --rows 2 --cols 3 --resume " + dir.string());
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("no checkpoint here"), std::string::npos) << run.output;
  run = run_cubenum("rolling-cubes bfs --rows 2 --cols 3 --time-limit 5");
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("needs --checkpoint"), std::string::npos) << run.output;
}

}  // namespace

// ------------------------------------------------ the row engine (twisty)

namespace {

const std::string kTiles =
    std::string("twisty bfs ") + CUBENUM_DATA_DIR + "/twisty/tiles-3x3.tws --antipodes 2";

// Classes by depth counted in slices: the classes of the levels done travel
// with the checkpoint (the group of U, F and R: 6 elements); a checkpoint
// of the positions alone is not one for classes.
void check_classes_in_slices(const std::string& classes, const std::string& name, double limit) {
  const fs::path dir = scratch(name);
  const auto whole_run = run_cubenum(classes + " --json " + (dir / "whole.json").string());
  ASSERT_EQ(whole_run.status, 0) << whole_run.output;
  const Json whole = result_of(dir / "whole.json");
  ASSERT_EQ(whole["symmetry"]["order"], 6);  // the turns about the corner U, F, R share
  const std::string ck = (dir / "ck").string(), out = (dir / "sliced.json").string();
  auto run = run_cubenum(classes + " --checkpoint " + ck + " --checkpoint-every 0 --time-limit " +
                         std::to_string(limit) + " --json " + out);
  ASSERT_EQ(run.status, 4) << run.output;
  int slices = 0;
  ASSERT_NO_FATAL_FAILURE(resume_in_slices(classes, ck, out, limit, 1.2, 60, slices));
  EXPECT_GT(slices, 1);
  EXPECT_EQ(result_of(out), whole);
  const auto raw = run_cubenum(std::string("twisty bfs ") + CUBENUM_DATA_DIR +
                               "/twisty/pocket-cube.tws --moves U,F,R --resume " + ck);
  EXPECT_EQ(raw.status, 2) << raw.output;
}

// Over classes (the frontier engine's checkpoints, bitmaps or two-bit,
// with the positions and classes of the levels done) and over positions
// (the row engine's, with the classes of the levels done).
TEST(Checkpoint, ClassesCountedInSlicesAreTheUninterruptedOnes) {
  const std::string pocket =
      std::string("twisty bfs ") + CUBENUM_DATA_DIR + "/twisty/pocket-cube.tws --moves U,F,R";
  {
    SCOPED_TRACE("over classes");
    check_classes_in_slices(pocket + " --symmetry all --over classes", "twisty-classes", 0.02);
  }
  {
    // Too little memory for three bitmaps (233 KiB, the C table's 31 and
    // R's tables 129): two bits an index.
    SCOPED_TRACE("over classes, two bits");
    check_classes_in_slices(pocket + " --symmetry all --over classes --memory 0.00025",
                            "twisty-classes-two-bits", 0.02);
  }
  {
    SCOPED_TRACE("over classes, inverse");
    check_classes_in_slices(pocket + " --symmetry all --inverse --over classes",
                            "twisty-classes-inverse", 0.02);
  }
  {
    SCOPED_TRACE("over positions, inverse");
    check_classes_in_slices(pocket + " --symmetry all --inverse --over positions",
                            "twisty-classes-positions", 0.2);
  }
}

// A definition file's BFS (the row engine, two bits a state) stopped at
// level boundaries in slices, on 1 and 2 threads by turns, and killed at
// several moments: the uninterrupted run's table every time.
TEST(Checkpoint, RowEngineSlicesAndKillsGiveTheUninterruptedTable) {
  const fs::path dir = scratch("twisty");
  const auto whole_run = run_cubenum(kTiles + " --json " + (dir / "whole.json").string());
  ASSERT_EQ(whole_run.status, 0) << whole_run.output;
  const Json whole = result_of(dir / "whole.json");
  const std::string ck = (dir / "ck").string(), out = (dir / "sliced.json").string();
  auto run = run_cubenum(kTiles + " --checkpoint " + ck +
                         " --checkpoint-every 0 --time-limit 0.1 --json " + out);
  ASSERT_EQ(run.status, 4) << run.output;
  int slices = 0;
  ASSERT_NO_FATAL_FAILURE(resume_in_slices(kTiles, ck, out, 0.1, 1, 100, slices));
  EXPECT_GT(slices, 1);
  EXPECT_EQ(result_of(out), whole);

  for (const double at : {0.05, 0.15, 0.25}) {
    const std::string killed = (dir / ("kill" + std::to_string(at))).string();
    fs::remove(out);
    run_until("KILL", at, kTiles + " --checkpoint " + killed + " --checkpoint-every 0");
    const std::string again = fs::exists(fs::path(killed) / "checkpoint.json")
                                  ? " --resume " + killed
                                  : " --checkpoint " + killed;
    run = run_cubenum(kTiles + again + " --json " + out);
    ASSERT_EQ(run.status, 0) << "killed at " << at << " s: " << run.output;
    EXPECT_EQ(result_of(out), whole) << "killed at " << at << " s";
  }

  // Another space (other moves): refused.
  run = run_cubenum(kTiles + " --moves A,B --resume " + ck);
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("of another run: space is"), std::string::npos) << run.output;
}

}  // namespace

// ------------------------------------------ polycube count --disassemble

namespace {

// Each disassembly record in the checkpoint's parts: how many of its
// subtrees (each counted, and the classes met in it taken apart) are
// saved as finished, and of how many.
std::vector<std::pair<std::uint64_t, std::uint64_t>> subtrees_saved(const fs::path& ck) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> saved;
  for (const auto& part : fs::directory_iterator(ck)) {
    const fs::path manifest = part.path() / "checkpoint.json";
    if (!fs::exists(manifest)) continue;
    std::ifstream in(manifest);
    const Json json = Json::parse(in);
    for (const Json& search : json["state"]["searches"])
      if (search["search"].get<std::string>().ends_with(", disassembly"))
        saved.emplace_back(search["finished"], search["subtrees"]);
  }
  return saved;
}

// The solutions, each subtree of the count saved once it is counted and
// its classes are taken apart: a count with --disassemble stopped by
// --time-limit in slices (on 1 thread and 2 by turns), each resumed from
// the checkpoint, takes up the subtrees not yet saved and gives the
// uninterrupted run's counts, solutions and levels. The puzzle: four unit
// cubes in the 3x3x3 room of tests/room_puzzle.hpp, 2451 classes that all
// come apart, whose disassembly takes most of the run. Raw, C(27, 4) =
// 17550 sets of four cells; up to the 4 rotations about the hole's axis
// 4416, and with the 4 reflections 2451 (Burnside's lemma: a quarter turn
// fixes the 6 sets that are one of its 4-cycles (it fixes only the hole's
// column of 3 cells); a half turn fixes 102, two of its 12 swapped pairs,
// C(12, 2) = 66, or a pair and two of the column's cells, 12 x 3 = 36; a
// reflection fixes 486 (9 cells on its plane and 9 pairs: C(9, 4) + 9 x
// C(9, 2) + C(9, 2) = 126 + 324 + 36): (17550 + 6 + 6 + 102) / 4 = 4416,
// (17664 + 4 x 486) / 8 = 2451). burrTxt -d -q -o all (b72a71d) on the
// file as tools/xmpuzzle-from-text writes it: "2451 assemblies and 2451
// solutions", and the classes by level below (its "level:" lines).
TEST(Checkpoint, PolycubeDisassemblyInSlicesIsTheUninterruptedOne) {
  const fs::path dir = scratch("polycube-disassembly");
  const std::string file = (dir / "room.txt").string();
  cubenum::testing::write(file,
                          cubenum::testing::room_puzzle("room", 3, "piece C 4\ncube 0 0 0\n"));
  const std::string count = "polycube count " + file + " --disassemble";
  const auto whole_run = run_cubenum(count + " --json " + (dir / "whole.json").string());
  ASSERT_EQ(whole_run.status, 0) << whole_run.output;
  const auto result = cubenum::testing::room_result<Json>;
  const Json whole = result(dir / "whole.json");
  EXPECT_EQ(whole["raw"], 17550);
  EXPECT_EQ(whole["rotations"], 4416);
  EXPECT_EQ(whole["symmetries"], 2451);
  EXPECT_EQ(whole["solutions"]["raw"], 17550);
  EXPECT_EQ(whole["solutions"]["symmetries"], 2451);
  EXPECT_EQ(whole["solutions"]["undecided"], 0);
  Json levels = Json::array();
  for (const auto& [level, classes] : std::vector<std::pair<std::string, int>>{
           {"1.1.1.2", 3},   {"1.1.1.3", 3},  {"1.1.2.2", 45}, {"1.1.2.3", 54},  {"1.1.3.3", 45},
           {"1.2.1.2", 3},   {"1.2.1.3", 27}, {"1.2.2.2", 84}, {"1.2.2.3", 321}, {"1.2.3.3", 324},
           {"1.3.1.3", 3},   {"1.3.3.2", 27}, {"1.3.3.3", 81}, {"2.1.1.3", 3},   {"2.1.2.3", 20},
           {"2.1.3.3", 3},   {"2.2.1.2", 7},  {"2.2.1.3", 57}, {"2.2.2.2", 29},  {"2.2.2.3", 394},
           {"2.2.3.3", 501}, {"2.3.1.3", 3},  {"2.3.2.3", 45}, {"2.3.3.2", 69},  {"2.3.3.3", 216},
           {"3.3.1.2", 2},   {"3.3.1.3", 6},  {"3.3.2.2", 24}, {"3.3.2.3", 3},   {"3.3.3.2", 28},
           {"3.3.3.3", 21}})
    levels.push_back({{"level", level}, {"count", classes}});
  EXPECT_EQ(whole["solutions"]["levels"], levels);

  const std::string ck = (dir / "ck").string(), out = (dir / "sliced.json").string();
  // From a tenth of the whole run, each slice a fifth longer. (Saved as
  // often as asked: the subtrees are many.)
  double limit = whole_run.seconds / 10;
  auto run = run_cubenum(count + " --checkpoint " + ck + " --checkpoint-every 0.01 --time-limit " +
                         std::to_string(limit) + " --json " + out);
  ASSERT_EQ(run.status, 4) << run.output;
  int slices = 1;
  bool part_decided = false;  // a slice stopped with some subtrees saved, not all
  while (run.status == 4 && slices < 60) {
    for (const auto& [saved, subtrees] : subtrees_saved(ck))
      part_decided = part_decided || (saved > 0 && saved < subtrees);
    limit *= 1.2;
    const std::string threads = slices % 2 == 0 ? " --threads 2" : " --threads 1";
    run =
        run_cubenum(count + threads + " --resume " + ck + " --checkpoint-every 0.01 --time-limit " +
                    std::to_string(limit) + " --json " + out);
    ASSERT_TRUE(run.status == 0 || run.status == 4) << run.output;
    ++slices;
  }
  ASSERT_EQ(run.status, 0) << run.output;
  RecordProperty("slices", slices);
  EXPECT_TRUE(part_decided) << "no slice stopped with some subtrees saved, not all";
  EXPECT_EQ(result(out), whole);
  std::ifstream in(out);
  EXPECT_TRUE(Json::parse(in).value("resumed", false));
  // The checkpoint holds every subtree: its --resume searches none.
  const auto saved = subtrees_saved(ck);
  ASSERT_EQ(saved.size(), 1u);
  EXPECT_EQ(saved[0].first, saved[0].second);
}

}  // namespace
