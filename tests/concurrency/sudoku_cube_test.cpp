// The sudoku cube's parallel grid search under many threads (also run under
// ThreadSanitizer): the solutions never depend on scheduling.
#include "cubenum/puzzles/sudoku_cube.hpp"

#include <gtest/gtest.h>

#include "cubenum/core/parallel.hpp"

namespace cubenum::sudoku_cube {
namespace {

TEST(SudokuCubeParallel, SameSolutionsAtOneAndFourThreads) {
  const Instance seed = load_instance(default_instance_path());
  SudokuResult one, four;
  {
    cubenum::ThreadLimit limit(1);
    one = solve_grid(seed);
  }
  {
    cubenum::ThreadLimit limit(4);
    four = solve_grid(seed);
  }
  EXPECT_EQ(one.solutions, four.solutions);
  EXPECT_EQ(one.search_nodes, four.search_nodes);
  EXPECT_FALSE(one.solutions.empty());
}

}  // namespace
}  // namespace cubenum::sudoku_cube
