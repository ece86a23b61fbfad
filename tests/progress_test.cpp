// The progress module's words: counts, durations, and a task's line.
#include "cubenum/core/progress.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

namespace cubenum {
namespace {

TEST(Progress, CountsAreGroupedByThousands) {
  EXPECT_EQ(progress::grouped(0), "0");
  EXPECT_EQ(progress::grouped(999), "999");
  EXPECT_EQ(progress::grouped(1000), "1,000");
  EXPECT_EQ(progress::grouped(3674160), "3,674,160");
  EXPECT_EQ(progress::grouped(18446744073709551615ULL), "18,446,744,073,709,551,615");
}

TEST(Progress, DurationsReadAsAPersonSaysThem) {
  EXPECT_EQ(progress::duration(0.42), "0.4 s");
  EXPECT_EQ(progress::duration(12.4), "12 s");
  EXPECT_EQ(progress::duration(185), "3 min 05 s");
  EXPECT_EQ(progress::duration(3725), "1 h 02 min");
}

TEST(Progress, LineShowsDoneOfTotalRateTimeAndTimeLeft) {
  progress::set_mode(progress::Mode::Never);  // nothing drawn while the test runs
  Progress task("export", 4000, "positions");
  task.add(1000);
  const std::string text = task.text();
  // "export: 1,000/4,000 positions (25%), 9.1 M/s, 0.0 s, about 0.0 s left"
  const std::string head = "export: 1,000/4,000 positions (25%), ";
  EXPECT_EQ(text.rfind(head, 0), 0U) << text;
  const std::size_t rate = text.find("/s, ", head.size());
  EXPECT_NE(rate, std::string::npos) << text;
  EXPECT_NE(text.find(" s, about ", rate), std::string::npos) << text;
  EXPECT_EQ(text.substr(text.size() - 7), " s left") << text;
  task.set_estimate(false);
  task.set_detail("level 3");
  EXPECT_EQ(task.text().find("left"), std::string::npos) << task.text();
  EXPECT_NE(task.text().find(", level 3"), std::string::npos) << task.text();

  Progress open_ended("search", 0, "nodes");
  EXPECT_EQ(open_ended.text().rfind("search, ", 0), 0U) << open_ended.text();  // nothing done yet
  open_ended.add(4096);
  EXPECT_EQ(open_ended.text().rfind("search: 4,096 nodes, ", 0), 0U) << open_ended.text();
  progress::set_mode(progress::Mode::Auto);
}

// A count resumed at 40 % that reaches 50 % has done a tenth in its time:
// five times that time is left, not one (the whole 50 % was not done in it).
TEST(Progress, TimeLeftOfAResumedRunComesFromWhatThisRunDid) {
  progress::set_mode(progress::Mode::Never);
  Progress shares("count", 100, "subtrees");
  shares.set_fraction(0.4);  // done before this run
  EXPECT_LT(shares.seconds_left(), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  shares.set_fraction(0.5);
  EXPECT_NEAR(shares.seconds_left() / shares.seconds(), 5.0, 0.05);

  Progress subtrees("count", 100, "subtrees");
  subtrees.set_done_before(40);
  subtrees.set_done(40);
  EXPECT_LT(subtrees.seconds_left(), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  subtrees.set_done(50);
  EXPECT_NEAR(subtrees.seconds_left() / subtrees.seconds(), 5.0, 0.05);
  subtrees.set_done_before(0);  // a fresh run: half done, as long again
  EXPECT_NEAR(subtrees.seconds_left() / subtrees.seconds(), 1.0, 0.05);
  progress::set_mode(progress::Mode::Auto);
}

// The time before the first share (estimating the work) is not the work's:
// half done in 0.1 s of work is 0.1 s left, however long the start took.
TEST(Progress, TimeLeftFromShareCountsFromTheFirstShare) {
  progress::set_mode(progress::Mode::Never);
  Progress shares("count", 100, "subtrees");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // estimating
  const double start = shares.seconds();
  shares.set_fraction(0);  // the search starts
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  shares.set_fraction(0.5);
  EXPECT_GE(start, 0.3);
  EXPECT_NEAR(shares.seconds_measured(), shares.seconds() - start, 0.01);
  EXPECT_NEAR(shares.seconds_left() / shares.seconds_measured(), 1.0, 0.05);
  progress::set_mode(progress::Mode::Auto);
}

}  // namespace
}  // namespace cubenum
