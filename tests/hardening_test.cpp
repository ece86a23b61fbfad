// Issue 16: no crash, no silent wrong answer, no lost output, on any input.
// Each test is a case of the issue that commit 48e51ce got wrong; here the
// library's (also built under AddressSanitizer + UndefinedBehaviorSanitizer
// in tools/test), in hardening_cli_test.cpp the program's. Expected
// values come from the issue's own analysis (the limits, the arithmetic
// done by hand in the comments) and from the POSIX/Linux behaviour of the
// files used (/dev/full: ENOSPC), never from the code under test.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <array>
#include <atomic>
#include <climits>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <new>
#include <sstream>
#include <string>

#include "cubenum/core/checked.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/input_file.hpp"
#include "cubenum/core/output_file.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/thread_placement.hpp"
#include "cubenum/puzzles/foam.hpp"
#include "cubenum/puzzles/foam_shape.hpp"
#include "cubenum/puzzles/polycube.hpp"
#include "cubenum/puzzles/rolling_cubes.hpp"
#include "cubenum/search/voxel_cover.hpp"
#include "scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using cubenum::InputError;

const std::string kData = std::string(CUBENUM_SOURCE_DIR) + "/data/";
const std::string kOriginal = kData + "foam/happy-cube-original.txt";

using cubenum::testing::contains;
using cubenum::testing::read;
using cubenum::testing::scratch;
using cubenum::testing::write;

// ------------------------------------------------- the library

TEST(Checked, ProductsThatDoNotFitAreReported) {
  // 2^32 / 2 = 2147483648: 2147483649 x 2 wraps to 2 in 32-bit unsigned.
  EXPECT_FALSE(cubenum::checked_mul(2147483649U, 2U));
  EXPECT_EQ(cubenum::checked_mul(65535U, 65537U), 4294967295U);  // 2^32 - 1 fits
  EXPECT_FALSE(cubenum::checked_mul(65536, 65536));              // 2^32 > INT_MAX
  EXPECT_FALSE(cubenum::product_at_most({2000, 2000, 2000}, 100000));
  EXPECT_EQ(cubenum::product_at_most({100, 100, 10}, 100000), 100000);
  EXPECT_FALSE(cubenum::product_at_most({100, 100, 11}, 100000));
  EXPECT_FALSE(cubenum::product_at_most({INT_MAX, INT_MAX, 0}, INT_MAX));  // overflows first
}

TEST(Limits, RollingCubeGridSizeDoesNotWrap) {
  using cubenum::rolling::RollingCubesSpace;
  // 2147483649 x 2 and 1431655766 x 3 wrap to 2 cells in 32 bits.
  EXPECT_THROW(RollingCubesSpace(2147483649U, 2), InputError);
  EXPECT_THROW(RollingCubesSpace(1431655766U, 3), InputError);
  EXPECT_THROW(cubenum::rolling::uniform_grid(2147483649U, 2, 0), InputError);
}

TEST(Limits, CuboidSizeDoesNotOverflow) {
  // 65536 * 65536 overflows an int (was: the 100,000-cube cap bypassed).
  for (const char* spec : {"cuboid:65536x65536x1", "cuboid:2000x2000x2000", "cuboid:100001x1x1"}) {
    try {
      cubenum::puzzles::load_foam_shape(spec);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const InputError& e) {
      EXPECT_TRUE(contains(e.what(), "at most 100000 cubes")) << e.what();
    }
  }
}

TEST(Limits, ShapeCoordinateOutOfRangeSaysSo) {
  std::istringstream in("cube 100001 0 0\n");
  try {
    cubenum::puzzles::parse_foam_shape(in, "s.txt", "s");
    ADD_FAILURE();
  } catch (const InputError& e) {
    // Was "coordinate '100001' is not an integer".
    EXPECT_STREQ(e.what(), "s.txt:1: coordinate '100001' is out of range (-100000 to 100000)");
  }
}

TEST(Limits, PolycubeBoxIsBounded) {
  // box 1000x1000x1000 (each side within the format's 1000) would be 10^9
  // cubes: a reader that ran out of memory on one line.
  const fs::path dir = scratch("polycube-box");
  write(dir / "box.txt", "piece a\ncube 0 0 0\ntarget\nbox 1000x1000x1000\n");
  try {
    cubenum::polycube::read_polycube_text((dir / "box.txt").string());
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "box.txt:4: box 1000x1000x1000 has more than 100000 cubes"))
        << e.what();
  }
  // 100 x 100 x 10 = 100000 cubes is read (the engine then refuses it).
  write(dir / "box.txt", "piece a\ncube 0 0 0\ntarget\nbox 100x100x10\n");
  const auto file = cubenum::polycube::read_polycube_text((dir / "box.txt").string());
  EXPECT_EQ(file.problems.at(0).fixed.size(), 100000U);
  EXPECT_THROW(cubenum::search::VoxelCover(file.problems[0], "box.txt"), InputError);
}

TEST(Limits, PolycubeBoundingBoxDoesNotWrap) {
  // Layer pictures have no limit on their sides but the file's size: a row
  // of 3,000,000 cells, as many rows, as many layers (a file of some
  // 30 MB) make a bounding box of 2.7 x 10^19 cells, past 2^63 - 1 = 9.2 x
  // 10^18, so the cells' count wrapped (undefined behaviour). Built here
  // directly: the same target's four voxels.
  cubenum::polycube::Problem problem;
  problem.pieces.push_back({"a", {{0, 0, 0}}, 1, 1});
  problem.fixed = {{0, 0, 0}, {2999999, 0, 0}, {0, 2999999, 0}, {0, 0, 2999999}};
  try {
    cubenum::search::VoxelCover cover(problem, "far.txt");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "far.txt: the target's bounding box 3000000x3000000x3000000 has over 2^63 "
                 "cells; cubenum takes at most 4096");
  }
}

TEST(Limits, PolycubeCountsDoNotWrap) {
  // 33,000 congruent pieces listed apart, each 0 to 65535 times (BurrTools'
  // most): merged, 33000 x 65535 = 2,162,655,000 copies at most, past
  // 2^31 - 1 = 2,147,483,647 (was: the int wrapped). And a rod of 40,000
  // cubes 65535 times: 2,621,400,000 cubes, past it too (was: the count's
  // cubes left wrapped). The target is one voxel: one assembly, a
  // monomino in it.
  cubenum::polycube::Problem problem;
  for (int i = 0; i < 33000; ++i) problem.pieces.push_back({"m", {{0, 0, 0}}, 0, 65535});
  cubenum::polycube::Piece rod{"rod", {}, 0, 65535};
  for (int x = 0; x < 40000; ++x) rod.cubes.push_back({x, 0, 0});
  problem.pieces.push_back(rod);
  problem.fixed = {{0, 0, 0}};
  const cubenum::search::VoxelCover cover(problem, "many.xmpuzzle");
  EXPECT_EQ(cover.piece_names().size(), 2U);
  EXPECT_EQ(cover.placements(), 1U);
  const auto counts = cover.count();
  EXPECT_EQ(counts.raw, 1U);
  EXPECT_EQ(counts.symmetries, 1U);
  EXPECT_TRUE(counts.complete);
}

TEST(Input, ByteOrderMarkIsDropped) {
  // Was: the colour "\uFEFFblue", two colours and 0 assemblies.
  const fs::path dir = scratch("bom");
  write(dir / "bom.txt", "\xEF\xBB\xBF" + read(kOriginal));
  const auto set = cubenum::puzzles::load_foam_set((dir / "bom.txt").string());
  EXPECT_EQ(set.pieces.front().colour, "blue");
  EXPECT_EQ(set.colours().size(), 6U);  // the file's six colours, as without the BOM
}

TEST(Input, NulByteAndDirectoryAreNamed) {
  const fs::path dir = scratch("nul");
  write(dir / "nul.txt", std::string("blue 1 1010110110101101\nblue 2 01") + '\0' + " 01\n");
  try {
    cubenum::puzzles::load_foam_set((dir / "nul.txt").string());
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "nul.txt:2: a NUL byte")) << e.what();
  }
  EXPECT_THROW(cubenum::read_input_file(dir.string(), "file"), InputError);
}

TEST(Input, ShapesApartAreRefused) {
  // Two cubes with no point in common: two surfaces, not one shape.
  std::istringstream apart("cube 0 0 0\ncube 5 0 0\n");
  try {
    cubenum::puzzles::parse_foam_shape(apart, "s.txt", "s");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "s.txt:2: cube (5,0,0) does not touch")) << e.what();
  }
}

TEST(Output, FileIsReplacedOnlyWhenComplete) {
  const fs::path dir = scratch("atomic");
  const std::string path = (dir / "out.csv").string();
  write(path, "old\n");
  {
    cubenum::OutputFile file(path, "--neo4j");
    file.write("half of the ");
    EXPECT_EQ(read(path), "old\n");  // a kill now leaves the old file
  }                                  // not committed: as if the work failed
  EXPECT_EQ(read(path), "old\n");
  cubenum::OutputFile file(path, "--neo4j");
  file.write("new\n");
  file.commit();
  EXPECT_EQ(read(path), "new\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
}

TEST(Output, InterruptRemovesTheTemporary) {
  // Ctrl-C (SIGINT) or SIGTERM while a file is being written: the old file
  // stays, the temporary goes, and the signal still ends the program.
  const fs::path dir = scratch("interrupt");
  const std::string path = (dir / "edges.csv").string();
  write(path, "old\n");
  EXPECT_EXIT(
      {
        cubenum::OutputFile file(path, "--neo4j");
        file.write("the first half");
        std::raise(SIGTERM);
      },
      ::testing::KilledBySignal(SIGTERM), "");
  EXPECT_EQ(read(path), "old\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
}

TEST(Output, ASetIsWrittenWholeOrNotAtAll) {
  const fs::path dir = scratch("set");
  write(dir / "REPORT.md", "old report\n");
  // The second file cannot be written: the first is left as it was.
  EXPECT_THROW(cubenum::write_output_set({{(dir / "REPORT.md").string(), "new report\n"},
                                          {(dir / "missing" / "a.json").string(), "{}"}},
                                         "--out"),
               InputError);
  EXPECT_EQ(read(dir / "REPORT.md"), "old report\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
}

TEST(Output, WriteToAFullDeviceFails) {
  // /dev/full takes no byte: ENOSPC.
  ASSERT_TRUE(std::filesystem::exists("/dev/full")) << "no /dev/full (every Linux has it)";
  EXPECT_THROW(cubenum::write_output_file("/dev/full", "--svg", "<svg/>"), InputError);
}

// ------------------------------------------------- oneTBB at exit

// Every action leaked 40 bytes under LeakSanitizer: the proxy that oneTBB
// makes for SpreadWorkers' observer, freed only once no worker refers to
// it, and the program exited with its workers alive. main() now finalizes
// oneTBB (src/cli/main.cpp); this binary does the same after its tests, and
// the sanitizer build fails if anything is left.
// (The parallel seam attaches its handle when a loop first starts the
// scheduler; finishing it waits for the workers.)
class FinalizeTbb : public ::testing::Environment {
 public:
  void TearDown() override { cubenum::finish_scheduler(); }
};
[[maybe_unused]] ::testing::Environment* const kFinalizeTbb =
    ::testing::AddGlobalTestEnvironment(new FinalizeTbb);

#ifndef CUBENUM_PLAIN_THREADS
// PerWorker gives each of oneTBB's thread indices a slot, counted without
// starting oneTBB: the count must be the arena's.
TEST(Threads, WorkerSlotsAreTheArenasConcurrency) {
  EXPECT_EQ(cubenum::worker_slots(), tbb::this_task_arena::max_concurrency());
}
#endif

TEST(Threads, SpreadWorkersLeaveNothingBehind) {
  cubenum::ThreadLimit limit(2);
  std::atomic<int> sum{0};
  {
    cubenum::SpreadWorkers spread;  // observes from the loop on
    cubenum::parallel_for_chunks(1000, 1,
                                 [&](std::size_t b, std::size_t) { sum += static_cast<int>(b); });
  }
  EXPECT_EQ(sum.load(), 499500);  // 0 + 1 + ... + 999
}

// Issue 33, point 1 (the library's side, under the sanitizers too): a
// solid target that no placement of any piece fits read past the end of
// the search's tables (a 3x1x1 piece is longer than every side of a 2x2x2
// box: no assembly); flat targets already counted. By hand: three such
// rods fill a 3x3x1 box as three rows or three columns, 2 ways, one class.
TEST(Limits, TargetThatNoPlacementFitsCountsNothing) {
  const cubenum::polycube::Problem p{
      "seg1", {{"a", {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, 3, 3}}, {}, {}};
  for (const auto& [x, y, z] : {std::array{2, 2, 2}, std::array{3, 3, 1}}) {
    auto problem = p;
    for (int i = 0; i < x; ++i)
      for (int j = 0; j < y; ++j)
        for (int k = 0; k < z; ++k) problem.fixed.push_back({i, j, k});
    const cubenum::search::VoxelCover cover(problem, "seg1");
    const auto counts = cover.count();
    EXPECT_EQ(counts.raw, z == 2 ? 0U : 2U) << x << y << z;
    EXPECT_EQ(counts.symmetries, z == 2 ? 0U : 1U) << x << y << z;
    EXPECT_TRUE(counts.complete);
    EXPECT_EQ(cover.first(5).size(), z == 2 ? 0U : 1U);
  }
}

}  // namespace
