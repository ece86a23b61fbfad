#include <fmt/format.h>

#include "action.hpp"

namespace cubenum::cli {
namespace {

void print_list(const CLI::App& app) {
  for (const CLI::App* puzzle : app.get_subcommands({})) {
    if (puzzle->get_subcommands({}).empty()) {
      fmt::print("{:<28} {}\n", puzzle->get_name(), puzzle->get_description());
      continue;
    }
    for (const CLI::App* action : puzzle->get_subcommands({}))
      fmt::print("{:<28} {}\n", puzzle->get_name() + " " + action->get_name(),
                 action->get_description());
  }
}

}  // namespace

std::unique_ptr<CLI::App> build_app() {
  auto app = std::make_unique<CLI::App>("cubenum: exact, parallel enumeration of cube puzzles");
  app->require_subcommand(1);
  register_pocket_cube(*app);
  register_rolling_cubes(*app);
  register_foam(*app);
  register_nine_colour_cube(*app);
  register_sudoku_cube(*app);
  register_report(*app);
  register_scale(*app);
  CLI::App* list =
      app->add_subcommand("list", "every puzzle and action with a one-line description");
  list->callback([root = app.get()] { print_list(*root); });
  return app;
}

}  // namespace cubenum::cli
