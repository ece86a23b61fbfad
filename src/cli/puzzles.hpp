#pragma once
// The puzzles of the command line, in one table: each one's name, what it
// is, the function that binds its actions' flags (src/cli/<puzzle>.cpp)
// and its section of `cubenum report`. Adding a puzzle family is one line
// in the table (src/cli/puzzles.cpp) and one file of flag bindings.
#include <string>
#include <vector>

#include "command.hpp"
#include "cubenum/report/json.hpp"

namespace cubenum::cli {

// What `cubenum report` runs of a puzzle, and says about it.
struct ReportSection {
  std::string title;
  std::string counts;  // what is counted, in the words of docs/PUZZLES.md
  std::vector<std::vector<std::string>> runs;
  // The counts a reader looks for first, in one line, from the runs'
  // results (in the order of `runs`).
  std::string (*headline)(const std::vector<Json>& results) = nullptr;
};

struct PuzzleCommand {
  std::string name;  // the command's word; also the report's JSON file's name
  std::string description;
  void (*bind)(Command* puzzle);  // adds its actions and their flags
  ReportSection (*report)();      // null: not in `cubenum report`
};

// Every puzzle, in the order `cubenum list` and the report show them.
const std::vector<PuzzleCommand>& puzzle_commands();

// The flag bindings, one per puzzle (src/cli/<puzzle>.cpp).
void bind_pocket_cube(Command* puzzle);
void bind_rolling_cubes(Command* puzzle);
void bind_foam(Command* puzzle);
void bind_nine_colour_cube(Command* puzzle);
void bind_sudoku_cube(Command* puzzle);
void bind_twisty(Command* puzzle);
void bind_polycube(Command* puzzle);

}  // namespace cubenum::cli
