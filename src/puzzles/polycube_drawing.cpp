// Polycube assemblies drawn in layers (puzzles/polycube_drawing.hpp).
#include "cubenum/puzzles/polycube_drawing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "cubenum/puzzles/solution_pages.hpp"
#include "cubenum/report/xml_text.hpp"

namespace cubenum::puzzles {
namespace {

using polycube::Voxel;

// The target's voxels, fixed and variable, and the corners of their box.
struct TargetBox {
  std::vector<Voxel> voxels;
  Voxel low, high;
};
TargetBox target_box(const polycube::Problem& problem) {
  TargetBox box{problem.fixed, {}, {}};
  box.voxels.insert(box.voxels.end(), problem.variable.begin(), problem.variable.end());
  box.low = box.high = box.voxels.front();
  for (const Voxel& v : box.voxels)
    for (int a = 0; a < 3; ++a)
      box.low[a] = std::min(box.low[a], v[a]), box.high[a] = std::max(box.high[a], v[a]);
  return box;
}

}  // namespace

std::string polycube_layers_text(const polycube::Problem& problem,
                                 const std::vector<std::string>& piece_names,
                                 const search::CoverAssembly& assembly) {
  const auto [all, low, high] = target_box(problem);
  std::map<Voxel, std::string> name;
  std::size_t width = 1;
  for (const auto& placed : assembly) width = std::max(width, piece_names[placed.piece].size());
  for (const auto& placed : assembly)
    for (const Voxel& v : placed.voxels) name[v] = piece_names[placed.piece];
  std::string text;
  for (int z = low[2]; z <= high[2]; ++z) {
    if (high[2] > low[2]) text += fmt::format("layer z={}\n", z);
    for (int y = low[1]; y <= high[1]; ++y) {
      std::string row;
      for (int x = low[0]; x <= high[0]; ++x) {
        const auto it = name.find({x, y, z});
        row += fmt::format("{:<{}}", it == name.end() ? "." : it->second, width + 1);
      }
      text += row.substr(0, row.find_last_not_of(' ') + 1) + '\n';
    }
  }
  return text;
}

std::string polycube_layers_svg(const polycube::Problem& problem,
                                const std::vector<std::string>& piece_names,
                                const search::CoverAssembly& assembly) {
  constexpr int kCell = 28, kGap = 20;
  const auto [all, low, high] = target_box(problem);
  const int cols = high[0] - low[0] + 1, rows = high[1] - low[1] + 1, layers = high[2] - low[2] + 1;
  const int width = layers * (cols * kCell + kGap) + kGap, height = rows * kCell + 2 * kGap;
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" font-size=\"11\" text-anchor=\"middle\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height);
  for (const Voxel& v : all)
    svg += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#eee\" stroke=\"#999\"/>\n",
        kGap + (v[2] - low[2]) * (cols * kCell + kGap) + (v[0] - low[0]) * kCell,
        kGap + (v[1] - low[1]) * kCell, kCell, kCell);
  for (const auto& placed : assembly) {
    const std::string colour = polycube_piece_colour(placed.piece);
    for (const Voxel& v : placed.voxels) {
      const int x = kGap + (v[2] - low[2]) * (cols * kCell + kGap) + (v[0] - low[0]) * kCell;
      const int y = kGap + (v[1] - low[1]) * kCell;
      svg += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" "
          "stroke=\"#333\"/><text x=\"{}\" y=\"{}\">{}</text>\n",
          x, y, kCell, kCell, colour, x + kCell / 2, y + kCell / 2 + 4,
          report::xml_text(piece_names[placed.piece]));
    }
  }
  for (int z = 0; z < layers; ++z)
    svg += fmt::format("<text x=\"{}\" y=\"{}\">z={}</text>\n",
                       kGap + z * (cols * kCell + kGap) + cols * kCell / 2, kGap - 6, low[2] + z);
  return svg + "</svg>\n";
}

}  // namespace cubenum::puzzles
