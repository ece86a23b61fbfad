// Foam assemblies drawn: a cube's as the seed's cross-shaped net (text and
// SVG), a shape's as text and as an isometric SVG (puzzles/foam.hpp,
// puzzles/foam_shape.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "cubenum/puzzles/foam.hpp"
#include "cubenum/puzzles/foam_shape.hpp"
#include "cubenum/report/xml_text.hpp"

namespace cubenum::puzzles {

using search::PlateGrid;

namespace {

// Where each face of the cube (U R F D L B) sits in the cross-shaped net.
constexpr int kNetColumn[6] = {1, 2, 1, 1, 0, 3};
constexpr int kNetRow[6] = {0, 1, 1, 2, 1, 1};

PlateGrid face_grid(const FoamProblem& problem, const search::AssemblyKey& key, int face) {
  return search::transform_grid(problem.kinds[key[face].kind].grid, key[face].transform);
}

}  // namespace

std::string foam_piece_label(const FoamProblem& problem, int kind) {
  std::string label;
  for (const int i : problem.kind_pieces[kind]) {
    if (!label.empty()) label += " = ";
    label += problem.pieces[i].set + " " + problem.pieces[i].name();
  }
  return label;
}

std::string foam_transform_words(int e) {
  std::string words = e >= 4 ? "turned over, " : "";
  return words +
         (e % 4 == 0 ? "not rotated" : fmt::format("rotated {} deg clockwise", 90 * (e % 4)));
}

std::string foam_svg_colour(const std::string& colour, int fallback) {
  static const std::map<std::string, std::string> known = {
      {"blue", "#1f63c6"}, {"green", "#2e9d3a"},  {"yellow", "#f2d21b"}, {"orange", "#f08a1c"},
      {"red", "#d7262b"},  {"purple", "#7d3c98"}, {"pink", "#ec6fa8"},   {"any", "#8c8c8c"}};
  static const char* palette[] = {"#1f63c6", "#2e9d3a", "#f2d21b", "#f08a1c", "#d7262b", "#7d3c98"};
  const auto it = known.find(colour.substr(0, colour.find('-')));
  return it != known.end() ? it->second : palette[fallback % 6];
}

std::string foam_net_text(const FoamProblem& problem, const search::AssemblyKey& key) {
  std::string out;
  const auto& surface = foam_cube_surface();
  for (int net_row = 0; net_row < 3; ++net_row)
    for (int r = 0; r < search::kPlateSide; ++r) {
      std::string line;
      for (int net_col = 0; net_col < 4; ++net_col) {
        int face = -1;
        for (int f = 0; f < surface.face_count(); ++f)
          if (kNetRow[f] == net_row && kNetColumn[f] == net_col) face = f;
        std::string cells(search::kPlateSide, ' ');
        if (face >= 0) {
          const PlateGrid grid = face_grid(problem, key, face);
          for (int c = 0; c < search::kPlateSide; ++c)
            cells[c] = (grid & search::plate_bit(r, c)) ? '#' : '.';
        }
        line += cells + "  ";
      }
      out += line.substr(0, line.find_last_not_of(' ') + 1) + '\n';
    }
  for (int f = 0; f < surface.face_count(); ++f)
    out += fmt::format(
        "{}: {} ({}), as placed {}\n", surface.face(f).name, foam_piece_label(problem, key[f].kind),
        foam_transform_words(key[f].transform), foam_code(face_grid(problem, key, f)));
  return out;
}

std::string foam_nets_svg(const std::vector<FoamNet>& nets) {
  constexpr int kCell = 12, kFace = kCell * search::kPlateSide, kGap = 4;
  constexpr int kNetWidth = 4 * (kFace + kGap), kNetHeight = 3 * (kFace + kGap) + 20;
  const auto& surface = foam_cube_surface();
  std::string body;
  for (std::size_t n = 0; n < nets.size(); ++n) {
    const FoamProblem& problem = *nets[n].problem;
    const search::AssemblyKey& key = nets[n].key;
    const int top = static_cast<int>(n) * (kNetHeight + 10) + 10;
    body += fmt::format(
        "<text x=\"10\" y=\"{}\" font-family=\"sans-serif\" font-size=\"12\">"
        "{} #{}</text>\n",
        top + 12, report::xml_text(problem.name), n + 1);
    for (int f = 0; f < surface.face_count(); ++f) {
      const int kind = key[f].kind;
      const FoamPiece& piece = problem.pieces[problem.kind_pieces[kind].front()];
      const std::string fill = foam_svg_colour(piece.colour, kind);
      const PlateGrid grid = face_grid(problem, key, f);
      const int x0 = 10 + kNetColumn[f] * (kFace + kGap),
                y0 = top + 20 + kNetRow[f] * (kFace + kGap);
      body += fmt::format("<g><title>{}: {} {}</title>\n", surface.face(f).name,
                          report::xml_text(piece.set), report::xml_text(piece.name()));
      for (int r = 0; r < search::kPlateSide; ++r)
        for (int c = 0; c < search::kPlateSide; ++c) {
          const bool filled = grid & search::plate_bit(r, c);
          body += fmt::format(
              "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#555\" "
              "stroke-width=\"0.5\"/>\n",
              x0 + c * kCell, y0 + r * kCell, kCell, kCell, filled ? fill : "#ffffff");
        }
      body += fmt::format(
          "<text x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"10\" "
          "text-anchor=\"middle\">{}</text></g>\n",
          x0 + kFace / 2, y0 + kFace / 2 + 4, surface.face(f).name);
    }
  }
  const int height = static_cast<int>(nets.size()) * (kNetHeight + 10) + 10;
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\">\n{}"
      "</svg>\n",
      kNetWidth + 20, std::max(height, 20), body);
}

std::string foam_assembly_text(const FoamShape& shape, const FoamProblem& pool,
                               const search::AssemblyKey& key) {
  std::string out;
  for (int f = 0; f < shape.surface.face_count(); ++f) {
    const search::PlateGrid grid =
        search::transform_grid(pool.kinds[key[f].kind].grid, key[f].transform);
    out += fmt::format("{}: {} ({}), as placed {}\n", shape.surface.face(f).name,
                       foam_piece_label(pool, key[f].kind), foam_transform_words(key[f].transform),
                       foam_code(grid));
  }
  return out;
}

std::string foam_shape_svg(const FoamShape& shape, const FoamProblem& pool,
                           const search::AssemblyKey& key) {
  // Isometric view from (1,1,1): only faces facing +x, +y or +z show; far
  // ones first (painter's order by the centre's depth x+y+z).
  constexpr double kScale = 7.0, kCos30 = 0.8660254037844386;
  const search::PlateSurface& s = shape.surface;
  const auto project = [&](double x, double y, double z) {
    return std::pair<double, double>{(x - z) * kCos30 * kScale, (-y + (x + z) * 0.5) * kScale};
  };
  std::vector<int> shown;
  for (int f = 0; f < s.face_count(); ++f) {
    const Vec3& r = s.face(f).right;
    const Vec3& d = s.face(f).down;
    const Vec3 normal{r[1] * d[2] - r[2] * d[1], r[2] * d[0] - r[0] * d[2],
                      r[0] * d[1] - r[1] * d[0]};  // right x down points inward
    if (normal[0] + normal[1] + normal[2] < 0) shown.push_back(f);
  }
  std::stable_sort(shown.begin(), shown.end(), [&](int a, int b) {
    const Vec3 &p = s.face(a).centre, &q = s.face(b).centre;
    return p[0] + p[1] + p[2] < q[0] + q[1] + q[2];
  });
  double min_x = 1e9, min_y = 1e9, max_x = -1e9, max_y = -1e9;
  std::string body;
  for (const int f : shown) {
    const search::PlateFace& face = s.face(f);
    const int kind = key[f].kind;
    const FoamPiece& piece = pool.pieces[pool.kind_pieces[kind].front()];
    const std::string fill = foam_svg_colour(piece.colour, kind);
    const search::PlateGrid grid = search::transform_grid(pool.kinds[kind].grid, key[f].transform);
    body += fmt::format("<g><title>{}: {} {}</title>\n", face.name, report::xml_text(piece.set),
                        report::xml_text(piece.name()));
    for (int row = 0; row < search::kPlateSide; ++row)
      for (int col = 0; col < search::kPlateSide; ++col) {
        if (!(grid & search::plate_bit(row, col))) continue;
        std::string points;
        for (const auto& [dr, dc] : {std::pair{-0.5, -0.5}, {-0.5, 0.5}, {0.5, 0.5}, {0.5, -0.5}}) {
          double v[3];
          for (int i = 0; i < 3; ++i)
            v[i] = face.centre[i] + (col - 2 + dc) * face.right[i] + (row - 2 + dr) * face.down[i];
          const auto [x, y] = project(v[0], v[1], v[2]);
          min_x = std::min(min_x, x), max_x = std::max(max_x, x);
          min_y = std::min(min_y, y), max_y = std::max(max_y, y);
          points += fmt::format("{:.1f},{:.1f} ", x, y);
        }
        body += fmt::format(
            "<polygon points=\"{}\" fill=\"{}\" stroke=\"#333\" stroke-width=\"0.4\"/>\n", points,
            fill);
      }
    body += "</g>\n";
  }
  // Drawn at least 560 pixels on its longer side (a cube alone would be
  // about 130), with the shape's name above it in a font that fits.
  constexpr double kMargin = 10, kMinPixels = 560;
  const std::string caption =
      fmt::format("{}: {} faces, first assembly listed", shape.name, s.face_count());
  const double width = max_x - min_x + 2 * kMargin;
  const double font = std::min(8.0, width / (0.6 * static_cast<double>(caption.size())));
  const double caption_height = font * 1.75;
  const double height = max_y - min_y + 2 * kMargin + caption_height;
  const double pixels = std::max(1.0, kMinPixels / std::max(width, height));
  const double top = min_y - kMargin - caption_height;
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{:.1f} {:.1f} {:.1f} {:.1f}\" "
      "width=\"{:.0f}\" height=\"{:.0f}\" font-family=\"sans-serif\">\n<title>{}</title>\n"
      "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"white\"/>\n"
      "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"{:.2f}\" text-anchor=\"middle\">{}</text>\n"
      "{}</svg>\n",
      min_x - kMargin, top, width, height, width * pixels, height * pixels,
      report::xml_text(shape.name), min_x - kMargin, top, width, height, (min_x + max_x) / 2,
      top + caption_height - font * 0.4, font, report::xml_text(caption), body);
}

}  // namespace cubenum::puzzles
