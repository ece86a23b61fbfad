// The program itself: errors are clear and exit non-zero.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "run_cubenum.hpp"
#include "scratch_files.hpp"

namespace {

using cubenum::testing::run_cubenum;
using Outcome = cubenum::testing::ProgramRun;

TEST(Cli, UnknownPuzzleIsNamed) {
  const Outcome r = run_cubenum("no-such-puzzle bfs");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("unknown puzzle or command 'no-such-puzzle'"), std::string::npos);
}

// Issue 36: a typo in an option names the option meant (was only "The
// following arguments were not expected"); a word that is near no option
// gets no guess.
TEST(Cli, AMisspelledOptionNamesTheNearestOne) {
  Outcome r = run_cubenum("pocket-cube bfs --metirc htm");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("(did you mean --metric for --metirc?)"), std::string::npos) << r.output;
  r = run_cubenum("pocket-cube bfs --metric=htm --threds=2");
  EXPECT_NE(r.output.find("(did you mean --threads for --threds?)"), std::string::npos) << r.output;
  r = run_cubenum("pocket-cube bfs --xyzzy");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output.find("did you mean"), std::string::npos) << r.output;
}

// Issue 36: a puzzle without an action lists its actions (was "A
// subcommand is required").
TEST(Cli, APuzzleWithoutAnActionListsItsActions) {
  const Outcome r = run_cubenum("pocket-cube");
  EXPECT_EQ(r.status, 2);
  for (const char* line : {"pocket-cube needs an action:", "pocket-cube bfs", "pocket-cube solve",
                           "pocket-cube export", "cubenum pocket-cube ACTION --help"})
    EXPECT_NE(r.output.find(line), std::string::npos) << line << ": " << r.output;
}

TEST(Cli, ListNamesTheCommands) {
  const Outcome r = run_cubenum("list");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.output.find("report"), std::string::npos);
  EXPECT_NE(r.output.find("scale"), std::string::npos);
}

TEST(Cli, VersionSaysTheProjectVersionAndTheCommit) {
  // The version is CMakeLists.txt's project(cubenum VERSION 0.1.0).
  const Outcome r = run_cubenum("--version");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.rfind("cubenum 0.1.0, commit ", 0), 0U) << r.output;
}

TEST(Cli, HelpShowsTheHelpOfTheCommandItNames) {
  Outcome r = run_cubenum("help");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, run_cubenum("--help").output);
  r = run_cubenum("help foam count");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, run_cubenum("foam count --help").output);
  EXPECT_NE(r.output.find("--shape"), std::string::npos) << r.output;
  r = run_cubenum("help foam counts");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(r.output, run_cubenum("foam counts --help").output);
}

TEST(Cli, BadThreadCountIsRejected) {
  const Outcome r = run_cubenum("report --threads 0 --out /tmp");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("--threads"), std::string::npos);
}

TEST(Cli, UnwritableOutputDirectoryIsRejected) {
  const Outcome r = run_cubenum("report --out /proc/cubenum-cannot-write-here");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("cannot create directory"), std::string::npos);
}

TEST(Cli, ScaleNeedsAJobAndValidThreadCounts) {
  EXPECT_EQ(run_cubenum("scale").status, 2);
  const Outcome r = run_cubenum("scale --threads 1,x pocket-cube bfs");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("'x' is not a positive whole number"), std::string::npos);
}

TEST(Cli, ScaleKeepsItsOwnOptionsApartFromTheJobs) {
  // scale's options come before the job; the job may not set what scale sets.
  for (const char* args : {"scale pocket-cube bfs --threads 1,2", "scale pocket-cube bfs --json -",
                           "scale pocket-cube bfs --out /tmp"}) {
    const Outcome r = run_cubenum(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_NE(r.output.find("in the job"), std::string::npos) << args << ": " << r.output;
  }
  const Outcome unknown = run_cubenum("scale --metric htm pocket-cube bfs");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.output.find("unknown option '--metric'"), std::string::npos);
}

TEST(Cli, ScaleWritesItsTableAndPlotWhereToldAndItsJson) {
  const std::string dir = ::testing::TempDir() + "cubenum-scale-test";
  const Outcome r = run_cubenum("scale --threads 1,2 --repeat 1 --out " + dir +
                                " --json - nine-colour-cube count");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\"command\": \"cubenum nine-colour-cube count\""), std::string::npos);
  EXPECT_NE(r.output.find("\"threads\": 2"), std::string::npos);
  // The job's counts, so that scales run apart can be compared: 40 classes
  // up to colours x 9! labellings (the 40 are checked against a naive
  // enumeration in nine_colour_cube_test.cpp).
  EXPECT_NE(r.output.find("\"labelled\": 14515200"), std::string::npos) << r.output;
  std::ifstream md(dir + "/scaling-nine-colour-cube-count.md");
  std::ifstream svg(dir + "/scaling-nine-colour-cube-count.svg");
  ASSERT_TRUE(md && svg);
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("Made by `cubenum scale --threads 1,2 --repeat 1 nine-colour-cube count`"),
            std::string::npos)
      << text;
}

TEST(Cli, HelpOfScaleShowsTheJobAndEveryOption) {
  const Outcome r = run_cubenum("scale --help");
  EXPECT_EQ(r.status, 0);
  for (const char* word : {"PUZZLE ACTION", "--threads", "--repeat", "--out", "--json", "--verbose",
                           "--progress", "Example:"})
    EXPECT_NE(r.output.find(word), std::string::npos) << word << " in:\n" << r.output;
}

// Every action takes --verbose (lines on standard error) and --progress.
TEST(Cli, EveryActionTakesVerboseAndProgress) {
  const Outcome list = run_cubenum("list");
  std::istringstream lines(list.output);
  int actions = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string puzzle, action;
    words >> puzzle >> action;
    if (puzzle == "report" || puzzle == "scale" || puzzle == "list" || puzzle == "help") continue;
    ++actions;
    const Outcome help = run_cubenum(puzzle + " " + action + " --help");
    EXPECT_NE(help.output.find("--verbose"), std::string::npos) << puzzle << " " << action;
    EXPECT_NE(help.output.find("--progress"), std::string::npos) << puzzle << " " << action;
  }
  EXPECT_EQ(actions, 15);  // pocket-cube 3, rolling-cubes 2, foam 2, one each for the nine-colour
                           // and sudoku cubes, twisty 3, polycube 2
  const Outcome verbose = run_cubenum("nine-colour-cube count --verbose --threads 1");
  EXPECT_EQ(verbose.status, 0);
  EXPECT_NE(verbose.output.find("nine-colour-cube count: 1 thread\n"), std::string::npos);
  EXPECT_NE(verbose.output.find("nine-colour-cube count: done in"), std::string::npos);
}

// The progress line goes to standard error only when it is a terminal (it
// is not here) or --progress asks; a task shows after half a second.
TEST(Cli, ProgressLinesOnlyWhenAskedOffATerminal) {
  setenv("CUBENUM_PROGRESS_DELAY", "0", 1);  // every task shows, however short
  const std::string job = "twisty bfs " + std::string(CUBENUM_DATA_DIR) +
                          "/twisty/pocket-cube.tws --over classes --threads 1";
  const std::string line = "C table: 40,320/40,320 values (100%)";
  const Outcome quiet = run_cubenum(job);
  EXPECT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.output.find("C table:"), std::string::npos) << quiet.output;
  const Outcome shown = run_cubenum(job + " --progress");
  EXPECT_EQ(shown.status, 0);
  EXPECT_NE(shown.output.find(line), std::string::npos) << shown.output;
  EXPECT_NE(shown.output.find(": done\n"), std::string::npos) << shown.output;
  unsetenv("CUBENUM_PROGRESS_DELAY");
}

// A count stopped (SIGSTOP, as Ctrl-Z does) for 4 of its 7 s: its progress
// line's time, and so its rate and time left, leave the pause out.
TEST(Cli, ProgressLeavesAPauseOut) {
  const std::string dir = ::testing::TempDir();
  const std::string log = dir + "paused-progress.txt", pid_file = dir + "paused-pid.txt";
  const std::string count = std::string(CUBENUM_BINARY) +
                            " foam count --threads 1 --by both --shape cuboid:3x1x1 " +
                            CUBENUM_DATA_DIR + "/foam/happy-cube-marble.txt";
  const std::string start = "CUBENUM_PROGRESS_DELAY=0 " + count + " --progress --time-limit 7 > " +
                            log + " 2>&1 & echo $! > " + pid_file;
  ASSERT_EQ(std::system(start.c_str()), 0);
  const auto started = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const pid_t pid = std::stoi(cubenum::testing::read(pid_file));
  ASSERT_EQ(::kill(pid, SIGSTOP), 0);
  std::this_thread::sleep_for(std::chrono::seconds(4));
  ASSERT_EQ(::kill(pid, SIGCONT), 0);
  for (int waited = 0; ::kill(pid, 0) == 0 && waited < 600; ++waited)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const std::string output = cubenum::testing::read(log);
  const auto done = output.rfind("foam count: cuboid:3x1x1:");
  ASSERT_NE(done, std::string::npos) << output;
  std::smatch elapsed;  // the line's first time: the count's own
  const std::string line = output.substr(done, output.find('\n', done) - done);
  ASSERT_TRUE(std::regex_search(line, elapsed, std::regex(", ([0-9]+\\.[0-9]) s[,:]"))) << line;
  EXPECT_GE(wall, 7);
  EXPECT_LT(std::stod(elapsed[1]), 5.5) << line;  // 7 s less the 4 s stopped
  EXPECT_GT(std::stod(elapsed[1]), 1.5) << line;
}

TEST(Cli, SolutionsReadAsSentences) {
  EXPECT_EQ(run_cubenum("pocket-cube solve --metric qtm --scramble R").output,
            "R' (1 move, qtm, optimal)\n");
  EXPECT_EQ(
      run_cubenum("pocket-cube solve --metric qtm --stickers 000022443355224433551111").output,
      "already solved (0 moves, qtm)\n");
  // QTM writes a half turn as one (R2) and counts it as two.
  const Outcome half = run_cubenum("pocket-cube solve --metric qtm --scramble R2 --json -");
  EXPECT_NE(half.output.find("\"length\": 2"), std::string::npos) << half.output;
  EXPECT_NE(half.output.find("\"moves\": \"R2\""), std::string::npos) << half.output;
}

// Issue 36: each file an action writes is said on standard error, as named
// ("wrote FILE", say_wrote), so that its text output stays what it was; JSON
// to standard output is no file.
TEST(Cli, EachFileWrittenIsSaidOnStandardError) {
  const std::string dir = cubenum::testing::scratch("cli-wrote").string();
  const std::string html = dir + "/pocket.html", json = dir + "/pocket.json";
  const std::string args =
      "pocket-cube solve --metric qtm --scramble R --html " + html + " --json " + json;
  const Outcome both = run_cubenum(args);
  EXPECT_EQ(both.status, 0) << both.output;
  EXPECT_EQ(both.output, "R' (1 move, qtm, optimal)\nwrote " + html + "\nwrote " + json + "\n");
  const Outcome out =
      cubenum::testing::run_shell("{ " CUBENUM_BINARY " " + args + " 2>/dev/null; }");
  EXPECT_EQ(out.output, "R' (1 move, qtm, optimal)\n");
  const std::string svg = dir + "/soma.svg";
  const Outcome drawn =
      run_cubenum("polycube solve " CUBENUM_DATA_DIR "/polycubes/soma.txt --first 1 --svg " + svg +
                  " --json -");
  EXPECT_EQ(drawn.status, 0) << drawn.output;
  EXPECT_EQ(drawn.output.rfind("wrote " + svg + "\n{"), 0U) << drawn.output;
  EXPECT_TRUE(cubenum::testing::contains(cubenum::testing::read(svg), "<svg"));
}

TEST(Cli, ReportWritesOutsideTheRepositoryUnlessTold) {
  // Its help names the default, build/results beside the program.
  const Outcome r = run_cubenum("report --help");
  EXPECT_NE(r.output.find("build/results"), std::string::npos) << r.output;
}

}  // namespace
