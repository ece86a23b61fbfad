#include <gtest/gtest.h>

#include "cubenum/report/markdown.hpp"
#include "cubenum/report/scaling.hpp"

namespace cubenum::report {
namespace {

TEST(Report, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 2, 3}), 2.5);
}

TEST(Report, CountsOnlyDropsTimesAndThreadsAtAnyDepth) {
  const Json a = {{"threads", 1},
                  {"seconds", 0.5},
                  {"states", 7},
                  {"levels", Json::array({{{"states", 1}, {"level_seconds", 0.1}}})}};
  const Json b = {{"threads", 2},
                  {"seconds", 0.3},
                  {"states", 7},
                  {"levels", Json::array({{{"states", 1}, {"level_seconds", 0.2}}})}};
  EXPECT_EQ(counts_only(a), counts_only(b));
  EXPECT_EQ(counts_only(a)["states"], 7);
}

TEST(Report, FieldsMarkdownShowsScalarsListsAndNestedObjects) {
  const Json r = {{"puzzle", "p"},
                  {"seconds", 1.0},
                  {"states", 24},
                  {"distribution", {1, 3, 5}},
                  {"best", {{"length", 3}}},
                  {"results", Json::array({{{"name", "red"}, {"raw", 2}}})}};
  const std::string md = fields_markdown(r);
  EXPECT_NE(md.find("| states | 24 |"), std::string::npos);
  EXPECT_NE(md.find("| distribution | 1, 3, 5 |"), std::string::npos);
  EXPECT_NE(md.find("| best.length | 3 |"), std::string::npos);
  EXPECT_NE(md.find("| red | 2 |"), std::string::npos);
  EXPECT_EQ(md.find("puzzle"), std::string::npos);
}

TEST(Report, ScalingTableAndPlot) {
  const std::vector<ScalingPoint> points = {{1, 2.0}, {2, 1.0}};
  const std::string md = scaling_markdown(points);
  EXPECT_NE(md.find("| 2 | 1.0000 | 2.00 | 100% |"), std::string::npos);
  const std::string svg = speedup_svg(points, "job");
  EXPECT_EQ(svg.rfind("<svg", 0), 0U);
  EXPECT_NE(svg.find("ideal"), std::string::npos);
}

TEST(Report, ScalingPlotStartsAtTheFewestThreadsAndLabelsItsAxes) {
  const std::vector<ScalingPoint> points = {{2, 4.0}, {4, 2.5}, {8, 1.6}};
  const std::string svg = speedup_svg(points, "job");
  EXPECT_NE(svg.find("width=\"640\" height=\"440\""), std::string::npos);
  EXPECT_NE(svg.find(">threads</text>"), std::string::npos);
  EXPECT_NE(svg.find("speedup over 2 threads"), std::string::npos);
  EXPECT_NE(svg.find("measured (median)"), std::string::npos);
  EXPECT_NE(svg.find("ideal (linear)"), std::string::npos);
  // The first point sits on the y axis (x = 70), at speedup 1; the values
  // are written beside the points.
  EXPECT_NE(svg.find("<circle cx=\"70.0\""), std::string::npos) << svg;
  EXPECT_NE(svg.find(">2.50</text>"), std::string::npos);
  EXPECT_EQ(speedup_svg({}, "nothing"), "");
}

TEST(Report, ScalingPlotWrapsALongCommandAndEscapesIt) {
  const std::string command =
      "cubenum foam count --challenge pool --via-shapes data/foam/construct.txt "
      "data/foam/happy-cube-little-genius.txt data/foam/happy-cube-marble.txt <&>";
  const std::string svg = speedup_svg({{1, 2.0}, {2, 1.0}}, command);
  // Three lines of at most 70 characters: the plot is 36 pixels taller.
  EXPECT_NE(svg.find("width=\"640\" height=\"476\""), std::string::npos) << svg;
  EXPECT_NE(svg.find(">cubenum foam count --challenge pool --via-shapes</text>"), std::string::npos)
      << svg;
  EXPECT_NE(svg.find(">data/foam/construct.txt data/foam/happy-cube-little-genius.txt</text>"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("&lt;&amp;&gt;</text>"), std::string::npos) << svg;
}

}  // namespace
}  // namespace cubenum::report
