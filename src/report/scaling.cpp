#include "cubenum/report/scaling.hpp"

#include <fmt/format.h>

#include <algorithm>

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
  constexpr double kWidth = 480, kHeight = 360, kLeft = 60, kBottom = 50, kTop = 40, kRight = 20;
  int max_threads = 1;
  double max_speedup = 1;
  // Speedup is against the first point, like the table; ideal is linear from it.
  const double base = points.empty() ? 1 : points.front().seconds;
  const int first = points.empty() ? 1 : points.front().threads;
  for (const auto& p : points) {
    max_threads = std::max(max_threads, p.threads);
    max_speedup = std::max(max_speedup, base / p.seconds);
  }
  const double top = std::max<double>(max_threads, max_speedup);  // room for the ideal line
  auto x = [&](double t) { return kLeft + (t / max_threads) * (kWidth - kLeft - kRight); };
  auto y = [&](double s) { return kHeight - kBottom - (s / top) * (kHeight - kBottom - kTop); };

  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">{3}</text>\n",
      kWidth, kHeight, kWidth / 2, title);
  svg += fmt::format(
      "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"black\"/>\n"
      "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{3}\" stroke=\"black\"/>\n"
      "<text x=\"{4}\" y=\"{5}\" text-anchor=\"middle\">threads</text>\n"
      "<text x=\"16\" y=\"{6}\" transform=\"rotate(-90 16 {6})\" "
      "text-anchor=\"middle\">speedup</text>\n",
      kLeft, y(0), x(max_threads), y(top), (kLeft + x(max_threads)) / 2, kHeight - 12,
      (y(0) + y(top)) / 2);
  for (const auto& p : points)
    svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", x(p.threads),
                       y(0) + 18, p.threads);
  for (int s = 1; s <= static_cast<int>(top); s *= 2)
    svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", kLeft - 6,
                       y(s) + 4, s);
  svg += fmt::format(
      "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"gray\" stroke-dasharray=\"4 4\"/>\n"
      "<text x=\"{}\" y=\"{}\" fill=\"gray\">ideal</text>\n",
      x(first), y(1), x(max_threads), y(1.0 * max_threads / first), x(max_threads) - 40,
      y(1.0 * max_threads / first) + 16);
  std::string line;
  for (const auto& p : points) {
    line += fmt::format("{:.1f},{:.1f} ", x(p.threads), y(base / p.seconds));
    svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"#1f77b4\"/>\n",
                       x(p.threads), y(base / p.seconds));
  }
  svg += fmt::format(
      "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\"/>\n", line);
  return svg + "</svg>\n";
}

}  // namespace cubenum::report
