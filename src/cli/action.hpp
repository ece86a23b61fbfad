#pragma once
// Every `cubenum <puzzle> <action>` is made by add_action: it gets --threads
// and --json, runs under a thread limit, is timed, and writes its JSON.
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "cubenum/report/json.hpp"

namespace cubenum::cli {

struct ActionContext {
  int threads;        // the limit the action runs under
  std::ostream& out;  // human-readable output; silent when JSON goes to stdout
};

// Runs the action and returns its result fields (PUZZLES.md); the wrapper
// adds puzzle, action, threads and seconds.
using ActionFn = std::function<Json(const ActionContext&)>;

// Adds action `name` to `puzzle`. The caller adds the action's own options
// to the returned subcommand; `run` reads them when the action runs.
CLI::App* add_action(CLI::App& puzzle, const std::string& name, const std::string& description,
                     ActionFn run);

// Runs one command line (without the program name) in this process and
// returns the action's full result (puzzle, action, threads, seconds and
// its fields), printing nothing; its human-readable output goes to `text`
// if given. Used by `report` and `scale`.
Json run_captured(const std::vector<std::string>& args, std::string* text = nullptr);

// The whole command line: every puzzle, `list`, `report` and `scale`; or,
// when `command` names a puzzle, that puzzle alone.
std::unique_ptr<CLI::App> build_app(std::string_view command = {});

// The registrations, one per puzzle (src/cli/<puzzle>.cpp).
void register_pocket_cube(CLI::App& app);
void register_rolling_cubes(CLI::App& app);
void register_foam(CLI::App& app);
void register_nine_colour_cube(CLI::App& app);
void register_sudoku_cube(CLI::App& app);
void register_twisty(CLI::App& app);
void register_report(CLI::App& app);
void register_scale(CLI::App& app);

}  // namespace cubenum::cli
