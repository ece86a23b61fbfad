#include "cubenum/report/scaling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "cubenum/report/xml_text.hpp"

namespace cubenum::report {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::string scaling_markdown(const std::vector<ScalingPoint>& points) {
  std::string text = "| threads | seconds | speedup | efficiency |\n|---:|---:|---:|---:|\n";
  if (points.empty()) return text;
  const ScalingPoint& base = points.front();
  for (const auto& p : points) {
    const double speedup = base.seconds / p.seconds;
    const double efficiency = speedup * base.threads / p.threads;
    text += fmt::format("| {} | {:.4f} | {:.2f} | {:.0f}% |\n", p.threads, p.seconds, speedup,
                        100 * efficiency);
  }
  return text;
}

std::string speedup_svg(const std::vector<ScalingPoint>& points, const std::string& title) {
  // 640 x 440 pixels (taller for a title of several lines): the x axis runs from the fewest threads
  // measured to the most (not from 0), the y axis from 0 to the larger of the ideal and the best
  // measured speedup; the ideal (linear from the first point) is dashed, the measurements solid
  // with their values.
  constexpr double kWidth = 640, kLeft = 70, kRight = 40, kBottom = 60, kTitleLine = 18;
  if (points.empty()) return "";
  // A long command is wrapped at spaces, 70 characters a line, the plot
  // moving down to make room.
  std::vector<std::string> title_lines{""};
  for (std::size_t start = 0; start < title.size();) {
    std::size_t end = title.find(' ', start);
    if (end == std::string::npos) end = title.size();
    const std::string word = xml_text(std::string_view(title).substr(start, end - start));
    if (!title_lines.back().empty() && title_lines.back().size() + 1 + word.size() > 70)
      title_lines.emplace_back();
    if (!title_lines.back().empty()) title_lines.back().append(" ");
    title_lines.back().append(word);
    start = end + 1;
  }
  const double plot_top = 32 + kTitleLine * static_cast<double>(title_lines.size());
  const double height = 390 + plot_top;
  const double base = points.front().seconds;
  const int first = points.front().threads;
  int most = first;
  double best = 1;
  for (const auto& p : points) {
    most = std::max(most, p.threads);
    best = std::max(best, base / p.seconds);
  }
  const double ideal_top = 1.0 * most / first;
  const double top = std::ceil(std::max(ideal_top, best) * 1.1 * 2) / 2;  // room above, to 0.5
  const double span = std::max(most - first, 1);
  auto x = [&](double t) { return kLeft + (t - first) / span * (kWidth - kLeft - kRight); };
  auto y = [&](double s) { return height - kBottom - s / top * (height - kBottom - plot_top); };

  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"13\">\n"
      "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
      kWidth, height);
  for (std::size_t i = 0; i < title_lines.size(); ++i)
    svg +=
        fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n",
                    kWidth / 2, 24 + kTitleLine * static_cast<double>(i), title_lines[i]);
  // Grid and the y axis's numbers: steps of 0.5, 1, 2 or more.
  const double step = top <= 2.5 ? 0.5 : top <= 6 ? 1 : std::ceil(top / 6);
  for (double s = 0; s <= top + 1e-9; s += step)
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>\n"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5:g}</text>\n",
        kLeft, y(s), kWidth - kRight, kLeft - 8, y(s) + 4, s);
  for (const auto& p : points)
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/>\n"
        "<text x=\"{0:.1f}\" y=\"{3:.1f}\" text-anchor=\"middle\">{4}</text>\n",
        x(p.threads), y(0), y(top), y(0) + 20, p.threads);
  // Axes and their labels.
  svg += fmt::format(
      "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"black\"/>\n"
      "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{0}\" y2=\"{3:.1f}\" stroke=\"black\"/>\n"
      "<text x=\"{4:.1f}\" y=\"{5}\" text-anchor=\"middle\">threads</text>\n"
      "<text x=\"20\" y=\"{6:.1f}\" transform=\"rotate(-90 20 {6:.1f})\" text-anchor=\"middle\">"
      "speedup over {7} thread{8} (time / time at {7})</text>\n",
      kLeft, y(0), kWidth - kRight, y(top), (kLeft + kWidth - kRight) / 2, height - 18,
      (y(0) + y(top)) / 2, first, first == 1 ? "" : "s");
  // The ideal: speedup t / first.
  svg += fmt::format(
      "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#888\" "
      "stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n",
      x(first), y(1), x(most), y(ideal_top));
  std::string line;
  for (const auto& p : points) {
    const double speedup = base / p.seconds;
    line += fmt::format("{:.1f},{:.1f} ", x(p.threads), y(speedup));
    svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4.5\" fill=\"#1f77b4\"/>\n",
                       x(p.threads), y(speedup));
    // The value above each point but the first (1 by definition, on the axis).
    if (&p != &points.front())
      svg += fmt::format(
          "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"#1f77b4\">{:.2f}</text>\n",
          x(p.threads), y(speedup) - 10, speedup);
  }
  svg += fmt::format(
      "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2.5\"/>\n", line);
  // Legend, top left inside the plot.
  svg += fmt::format(
      "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#1f77b4\" "
      "stroke-width=\"2.5\"/>\n"
      "<text x=\"{3}\" y=\"{4}\">measured (median)</text>\n"
      "<line x1=\"{0}\" y1=\"{5}\" x2=\"{2}\" y2=\"{5}\" stroke=\"#888\" stroke-width=\"1.5\" "
      "stroke-dasharray=\"6 4\"/>\n"
      "<text x=\"{3}\" y=\"{6}\">ideal (linear)</text>\n",
      kLeft + 16, plot_top + 14, kLeft + 46, kLeft + 54, plot_top + 18, plot_top + 34,
      plot_top + 38);
  return svg + "</svg>\n";
}

}  // namespace cubenum::report
