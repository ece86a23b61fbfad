// The nine-colour cube's parallel search under many threads (also run under
// ThreadSanitizer): counts and representatives never depend on scheduling.
#include "cubenum/puzzles/nine_colour_cube.hpp"

#include <gtest/gtest.h>

#include "cubenum/core/parallel.hpp"

namespace cubenum::nine_colour {
namespace {

TEST(NineColourCubeParallel, SameCountsAndRepresentativesAtOneAndFourThreads) {
  NineColourCounts one, four;
  std::vector<Colouring> reps_one, reps_four;
  {
    cubenum::ThreadLimit limit(1);
    one = count_colourings();
    reps_one = class_representatives();
  }
  {
    cubenum::ThreadLimit limit(4);
    four = count_colourings();
    reps_four = class_representatives();
  }
  EXPECT_EQ(one.classes, four.classes);
  EXPECT_EQ(one.search_nodes, four.search_nodes);
  EXPECT_EQ(one.by_signature, four.by_signature);
  EXPECT_EQ(reps_one, reps_four);
  EXPECT_EQ(reps_one.size(), one.classes.up_to_colours_and_symmetries);
}

}  // namespace
}  // namespace cubenum::nine_colour
