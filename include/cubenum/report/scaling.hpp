#pragma once
// Thread-scaling runs: one job at several thread counts, the median of
// several repetitions each, as a Markdown table and an SVG plot.
#include <string>
#include <vector>

namespace cubenum::report {

struct ScalingPoint {
  int threads = 1;
  double seconds = 0;  // median of the repetitions
};

double median(std::vector<double> values);

// Table of threads, seconds, speedup and efficiency against the first point.
std::string scaling_markdown(const std::vector<ScalingPoint>& points);

// Speedup against threads, with the ideal line, as a standalone SVG.
std::string speedup_svg(const std::vector<ScalingPoint>& points, const std::string& title);

}  // namespace cubenum::report
