// cubenum: exact, parallel enumeration of cube puzzles.
//   cubenum <puzzle> <action> [options]      cubenum list
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>

#include "action.hpp"
#include "cubenum/core/error.hpp"

namespace {

// CLI11 calls an unknown subcommand an "unexpected argument"; say what it is.
// Returns an error message, or "" when the first words name a known command.
std::string check_command_words(const CLI::App& app, int argc, char** argv) {
  const CLI::App* level = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') return "";
    const auto subcommands = level->get_subcommands({});
    if (subcommands.empty()) return "";
    const CLI::App* next = nullptr;
    for (const CLI::App* s : subcommands)
      if (s->get_name() == word) next = s;
    if (next == nullptr) {
      if (level == &app) return fmt::format("unknown puzzle or command '{}'", word);
      return fmt::format("unknown action '{}' for {}", word, level->get_name());
    }
    level = next;
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  auto app = cubenum::cli::build_app(argc > 1 ? argv[1] : "");
  if (const std::string problem = check_command_words(*app, argc, argv); !problem.empty()) {
    fmt::print(stderr, "cubenum: error: {} (see 'cubenum list')\n", problem);
    return 2;
  }
  try {
    app->parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app->exit(e);
  } catch (const cubenum::InputError& e) {
    fmt::print(stderr, "cubenum: error: {}\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "cubenum: error: out of memory\n");
    return 3;
  } catch (const std::exception& e) {
    fmt::print(stderr, "cubenum: internal error: {}\n", e.what());
    return 1;
  }
  return 0;
}
