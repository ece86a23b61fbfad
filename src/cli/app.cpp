#include <fmt/format.h>

#include <iostream>
#include <string_view>

#include "action.hpp"
#include "puzzles.hpp"

namespace cubenum::cli {
namespace {

void print_list(const Command& app) {
  for (const Command* puzzle : app.get_subcommands()) {
    if (puzzle->get_subcommands().empty()) {
      std::cout << fmt::format("{:<28} {}\n", puzzle->get_name(), puzzle->get_description());
      continue;
    }
    for (const Command* action : puzzle->get_subcommands())
      std::cout << fmt::format("{:<28} {}\n", puzzle->get_name() + " " + action->get_name(),
                               action->get_description());
  }
}

}  // namespace

std::unique_ptr<Command> build_app(std::string_view command, std::string_view action) {
  auto app = Command::program("cubenum: exact, parallel enumeration of cube puzzles");
  app->require_subcommand(1);
  // A command for one puzzle needs only that puzzle's actions (building
  // the rest is a sizeable share of a small puzzle's run),
  // and a command for one action only that action's options.
  const auto add = [&app](const PuzzleCommand& puzzle) {
    Command* added = app->add_subcommand(puzzle.name, puzzle.description);
    added->require_subcommand(1);
    puzzle.bind(added);
  };
  for (const PuzzleCommand& puzzle : puzzle_commands())
    if (puzzle.name == command) {
      if (!action.empty() && action[0] != '-')
        app->options_only_along({std::string(command), std::string(action)});
      add(puzzle);
      return app;
    }
  for (const PuzzleCommand& puzzle : puzzle_commands()) add(puzzle);
  register_report(*app);
  register_scale(*app);
  Command* list =
      app->add_subcommand("list", "every puzzle and action with a one-line description");
  list->callback([root = app.get()] { print_list(*root); });
  // (main.cpp reads `help WORDS` as `WORDS --help`: listed here.)
  Command* help = app->add_subcommand(
      "help", "the help of the program, or of a command: cubenum help foam count");
  help->callback([root = app.get()] { std::cout << root->help(); });
  return app;
}

}  // namespace cubenum::cli
