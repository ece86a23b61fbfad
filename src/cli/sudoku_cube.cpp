// `cubenum sudoku-cube count [INSTANCE]`: every grid solution of a sudoku cube.
#include "cubenum/puzzles/sudoku_cube.hpp"

#include <fmt/format.h>

#include <memory>
#include <ostream>

#include "action.hpp"
#include "puzzles.hpp"

namespace cubenum::cli {
namespace {

namespace sc = cubenum::sudoku_cube;

Json layout_json(const sc::Instance& instance, const sc::GridSolution& s) {
  constexpr const char* kDirections[] = {"up", "right", "down", "left"};
  Json faces = Json::object();
  for (int face = 0; face < sc::kNetFaces; ++face) {
    Json digits = Json::array(), directions = Json::array();
    const auto [row0, col0] = sc::face_origin(face);
    for (int r = 0; r < 3; ++r) {
      Json digit_row = Json::array(), direction_row = Json::array();
      for (int c = 0; c < 3; ++c) {
        const sc::Sticker st = sc::shown_sticker(instance, s, row0 + r, col0 + c);
        digit_row.push_back(st.digit);
        direction_row.push_back(kDirections[st.rotation]);
      }
      digits.push_back(digit_row);
      directions.push_back(direction_row);
    }
    faces[sc::face_name(face)] = {{"digits", digits},
                                  {"direction", kDirections[s.direction[face]]},
                                  {"sticker_directions", directions}};
  }
  Json corners = Json::array(), edges = Json::array();
  for (int slot = 0; slot < sc::kCornerSlots; ++slot)
    corners.push_back(
        {{"slot", slot + 1}, {"piece", s.corner_piece[slot] + 1}, {"twist", s.corner_twist[slot]}});
  for (int slot = 0; slot < sc::kEdgeSlots; ++slot)
    edges.push_back(
        {{"slot", slot + 1}, {"piece", s.edge_piece[slot] + 1}, {"flip", s.edge_flip[slot]}});
  return {{"reachable", s.reachable}, {"faces", faces}, {"corners", corners}, {"edges", edges}};
}

Json count(const ActionContext& ctx, const std::string& path) {
  const sc::Instance instance = sc::load_instance(path);
  const sc::SudokuResult result = sc::solve_grid(instance);
  Json layouts = Json::array();
  for (std::size_t i = 0; i < result.solutions.size(); ++i) {
    const sc::GridSolution& s = result.solutions[i];
    ctx.out << fmt::format(
        "solution {} of {}: {}\n{}\n", i + 1, result.solutions.size(),
        s.reachable ? "reachable by turns" : "not reachable (needs a piece taken out)",
        sc::net_text(instance, s));
    layouts.push_back(layout_json(instance, s));
  }
  ctx.out << fmt::format("grid solutions {}, reachable {}, search nodes {}\n",
                         result.solutions.size(), result.reachable(), result.search_nodes);
  return {{"instance", shown_path(path)},
          {"solutions", result.solutions.size()},
          {"reachable", result.reachable()},
          {"search_nodes", result.search_nodes},
          {"layouts", layouts}};
}

}  // namespace

void bind_sudoku_cube(Command* puzzle) {
  auto path = std::make_shared<std::string>(sc::default_instance_path());
  add_action(*puzzle, "count", "every grid solution, whether turns reach it, and its layout",
             [path](const ActionContext& ctx) { return count(ctx, *path); })
      ->add_option("instance", *path, "instance file (default: the seed's cube)")
      ->type_name("INSTANCE");
}

}  // namespace cubenum::cli
