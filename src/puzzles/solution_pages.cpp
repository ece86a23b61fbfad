// The data of the solution pages (puzzles/solution_pages.hpp).
#include "cubenum/puzzles/solution_pages.hpp"

#include <fmt/format.h>

#include <cmath>

#include "cubenum/puzzles/polycube_job.hpp"
#include "pocket_cube_geometry.hpp"

namespace cubenum::puzzles {
namespace {

Json vec(const Vec3& v) {
  return Json::array({v[0], v[1], v[2]});
}

Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// One assembly on a surface: each face's piece as placed, its unit cubes at
// the surface's own cell points (the lattice the search covers).
Json plates_json(const search::PlateSurface& surface, const FoamProblem& problem,
                 const search::AssemblyKey& key, const std::string& name) {
  Json pieces = Json::array();
  for (int f = 0; f < surface.face_count(); ++f) {
    const int kind = key[f].kind;
    const FoamPiece& piece = problem.pieces[problem.kind_pieces[kind].front()];
    const search::PlateFace& face = surface.face(f);
    const search::PlateGrid grid =
        search::transform_grid(problem.kinds[kind].grid, key[f].transform);
    Json cells = Json::array();
    for (int r = 0; r < search::kPlateSide; ++r)
      for (int c = 0; c < search::kPlateSide; ++c)
        if (grid & search::plate_bit(r, c))
          cells.push_back(vec(surface.cell_point(surface.cell_of(f, {r, c}))));
    // Seen from outside the columns run right and the rows down, so the
    // outward normal is down x right.
    pieces.push_back({{"label", foam_piece_label(problem, kind)},
                      {"colour", foam_svg_colour(piece.colour, kind)},
                      {"explode", vec(cross(face.down, face.right))},
                      {"cells", cells},
                      {"face", face.name},
                      {"transform", key[f].transform},
                      {"placed", foam_code(grid)},
                      {"centre", vec(face.centre)},
                      {"right", vec(face.right)},
                      {"down", vec(face.down)}});
  }
  return {{"name", name}, {"pieces", pieces}};
}

// How far apart the foam cube's plates are when its page opens, in
// percent of the explode slider.
constexpr int kFoamCubeOpening = 20;

Json assembly_page(const std::string& title, const std::string& subtitle, Json assemblies) {
  return {{"kind", "assembly"},
          {"title", title},
          {"subtitle", subtitle},
          {"assemblies", std::move(assemblies)}};
}

}  // namespace

Json foam_page_data(const std::vector<FoamNet>& nets, const std::string& title) {
  Json assemblies = Json::array();
  std::size_t number = 0;
  const FoamProblem* last = nullptr;
  for (const FoamNet& net : nets) {
    number = net.problem == last ? number + 1 : 1;
    last = net.problem;
    assemblies.push_back(plates_json(foam_cube_surface(), *net.problem, net.key,
                                     fmt::format("{} #{}", net.problem->name, number)));
  }
  Json page = assembly_page(title, "foam cube: each piece a 5x5 plate on the 5x5x5 cube's shell",
                            std::move(assemblies));
  // Closed, the cube reads as one block whose seams hide between notches:
  // it opens a little apart, its faces named as the text names them.
  page["explode"] = kFoamCubeOpening;
  page["labels"] = true;
  return page;
}

Json foam_shape_page_data(const FoamShape& shape, const FoamProblem& pool,
                          const std::vector<search::AssemblyKey>& keys, const std::string& title) {
  Json assemblies = Json::array();
  for (std::size_t i = 0; i < keys.size(); ++i)
    assemblies.push_back(
        plates_json(shape.surface, pool, keys[i], fmt::format("{} #{}", shape.name, i + 1)));
  return assembly_page(title,
                       fmt::format("foam shape {}: {} cubes, {} pieces", shape.name,
                                   shape.cubes.size(), shape.surface.face_count()),
                       std::move(assemblies));
}

std::string polycube_piece_colour(int piece) {
  // hsl(hue, 65%, 62%), the hue in golden-angle steps (neighbours differ), as RGB.
  const double h = (piece * 137) % 360, s = 0.65, l = 0.62;
  const double c = (1 - std::abs(2 * l - 1)) * s, x = c * (1 - std::abs(std::fmod(h / 60, 2) - 1)),
               m = l - c / 2;
  double r = 0, g = 0, b = 0;
  if (h < 60)
    r = c, g = x;
  else if (h < 120)
    r = x, g = c;
  else if (h < 180)
    g = c, b = x;
  else if (h < 240)
    g = x, b = c;
  else if (h < 300)
    r = x, b = c;
  else
    r = c, b = x;
  const auto byte = [m](double v) { return static_cast<int>(std::lround((v + m) * 255)); };
  return fmt::format("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b));
}

Json polycube_assembly_json(const search::VoxelCover& cover, const search::CoverAssembly& assembly,
                            const std::string& name) {
  // A piece explodes away from the assembly's centre, through its own.
  std::array<double, 3> centre{};
  std::size_t voxels = 0;
  for (const auto& placed : assembly)
    for (const polycube::Voxel& v : placed.voxels) {
      for (int i = 0; i < 3; ++i) centre[i] += v[i];
      ++voxels;
    }
  for (double& c : centre) c /= voxels == 0 ? 1 : double(voxels);
  Json pieces = Json::array();
  for (const auto& placed : assembly) {
    std::array<double, 3> own{};
    Json cells = Json::array();
    for (const polycube::Voxel& v : placed.voxels) {
      cells.push_back(Json::array({v[0], v[1], v[2]}));
      for (int i = 0; i < 3; ++i) own[i] += v[i] / double(placed.voxels.size());
    }
    Json explode = Json::array();
    for (int i = 0; i < 3; ++i) explode.push_back(own[i] - centre[i]);
    pieces.push_back({{"label", cover.piece_names()[placed.piece]},
                      {"colour", polycube_piece_colour(placed.piece)},
                      {"explode", explode},
                      {"cells", cells}});
  }
  return {{"name", name}, {"pieces", pieces}};
}

Json polycube_disassembly_json(const std::vector<std::string>& piece_names,
                               const search::CoverAssembly& assembly,
                               const search::DisassemblyResult& plan) {
  // The solve's text of the plan, a move a line: each move's own text.
  const std::string text = polycube_plan_text(piece_names, assembly, plan);
  Json moves = Json::array();
  std::size_t line = 0;
  for (const search::DisassemblyMove& m : plan.plan) {
    const std::size_t end = text.find('\n', line);
    std::string shown = text.substr(line, end - line);
    shown.erase(0, shown.find_first_not_of(' '));
    shown.erase(0, shown.find(' ') + 1);  // the move's number
    line = end + 1;
    Json direction = Json::array({0, 0, 0});
    direction[m.direction / 2] = m.direction % 2 == 0 ? 1 : -1;
    moves.push_back({{"pieces", m.pieces},
                     {"direction", direction},
                     {"distance", m.separation ? Json(nullptr) : Json(m.distance)},
                     {"text", shown}});
  }
  return {{"level", plan.level}, {"moves", moves}};
}

Json polycube_page_data(Json assemblies, const std::string& title) {
  return assembly_page(title, "polycube: each piece's unit cubes", std::move(assemblies));
}

}  // namespace cubenum::puzzles

namespace cubenum::pocket_cube {

Json page_data(const Corners& start, const std::vector<Turn>& turns, Metric metric,
               const std::string& title) {
  const std::vector<Turn> steps = join_half_turns(turns);
  // The colours of the seed, w y g b r o (the letters' order).
  const Json colours = {"#f4f4f4", "#ffd21f", "#1aa34a", "#1f5fd1", "#d8232a", "#ff7a12"};
  Json slots = Json::array();
  for (const Vec3& p : detail::kSlotPositions) slots.push_back({p[0], p[1], p[2]});
  Json facelets = Json::array();
  for (const detail::Facelet& f : detail::kFacelets) {
    const Vec3 n = face_normal(f.face);
    facelets.push_back({{"slot", f.slot},
                        {"face", std::string(1, face_letter(f.face))},
                        {"normal", {n[0], n[1], n[2]}}});
  }
  Stickers stickers = stickers_from_corners(start);
  Json states = Json::array({sticker_digits(stickers)});
  Json moves = Json::array();
  for (const Turn& turn : steps) {
    const Vec3 n = face_normal(turn.face);
    moves.push_back({{"move", turn_name(turn)},
                     {"face", std::string(1, face_letter(turn.face))},
                     {"normal", {n[0], n[1], n[2]}},
                     {"quarters", turn.quarters}});
    stickers = apply_turn(stickers, turn);
    states.push_back(sticker_digits(stickers));
  }
  return {{"kind", "pocket-cube"},
          {"title", title},
          {"metric", metric_name(metric)},
          {"length", turns.size()},
          {"moves", turns_text(steps)},
          {"colours", colours},
          {"slots", slots},
          {"facelets", facelets},
          {"steps", moves},
          {"states", states}};
}

}  // namespace cubenum::pocket_cube

namespace cubenum::rolling {

Json page_data(const RollingCubesSpace& space, const ShortestSolution& solution,
               const std::string& title) {
  Json states = Json::array();
  for (const std::uint64_t rank : solution.states) states.push_back(space.unrank(rank).cells);
  Json steps = Json::array();
  const std::string moves = roll_letters(solution.moves);
  for (std::size_t i = 0; i < solution.moves.size(); ++i) {
    steps.push_back({{"roll", std::string(1, moves[i])},
                     {"from", space.unrank(solution.states[i + 1]).empty()},
                     {"to", space.unrank(solution.states[i]).empty()}});
  }
  return {{"kind", "rolling-cubes"},
          {"title", title},
          {"rows", space.rows()},
          {"cols", space.cols()},
          {"length", solution.length},
          {"moves", moves},
          {"orientations",
           {"black up", "colour up", "black north", "black east", "black south", "black west"}},
          {"steps", steps},
          {"states", states}};
}

}  // namespace cubenum::rolling
