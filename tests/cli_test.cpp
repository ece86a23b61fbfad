// The program itself: errors are clear and exit non-zero.
#include <gtest/gtest.h>

#include <string>

#include "run_cubenum.hpp"

namespace {

using cubenum::testing::run_cubenum;
using Outcome = cubenum::testing::ProgramRun;

TEST(Cli, UnknownPuzzleIsNamed) {
  const Outcome r = run_cubenum("no-such-puzzle bfs");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("unknown puzzle or command 'no-such-puzzle'"), std::string::npos);
}

TEST(Cli, ListNamesTheCommands) {
  const Outcome r = run_cubenum("list");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.output.find("report"), std::string::npos);
  EXPECT_NE(r.output.find("scale"), std::string::npos);
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
  const Outcome r = run_cubenum("scale pocket-cube bfs --threads 1,x");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("'x' is not a positive whole number"), std::string::npos);
}

}  // namespace
