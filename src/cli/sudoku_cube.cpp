// `cubenum sudoku-cube ...`: not yet implemented.
#include "action.hpp"

namespace cubenum::cli {

void register_sudoku_cube(CLI::App& /*app*/) {}

}  // namespace cubenum::cli
