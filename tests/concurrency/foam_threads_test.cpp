// Foam-cube counts do not depend on the number of threads.
#include <gtest/gtest.h>

#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/foam.hpp"

namespace cubenum::puzzles {
namespace {

FoamCount count_with(int threads, const FoamProblem& p) {
  cubenum::ThreadLimit limit(threads);
  search::AssemblyOptions options;
  options.list_limit = 5;
  return count_foam(p, options);
}

TEST(FoamThreads, CountsAndListsIndependentOfThreadCount) {
  const FoamSet set = load_foam_set(std::string(CUBENUM_DATA_DIR "/foam/happy-cube-original.txt"));
  for (const FoamChallenge challenge : {FoamChallenge::OnePerColour, FoamChallenge::Pool}) {
    const FoamProblem p = foam_problems(challenge, FoamBy::Shape, {set})[0];
    const FoamCount one = count_with(1, p);
    for (const int threads : {2, 4, 8}) {
      const FoamCount many = count_with(threads, p);
      EXPECT_EQ(many.raw, one.raw);
      EXPECT_EQ(many.rotations, one.rotations);
      EXPECT_EQ(many.symmetries, one.symmetries);
      EXPECT_EQ(many.piece_choices, one.piece_choices);
      EXPECT_EQ(many.listed, one.listed);
    }
  }
}

}  // namespace
}  // namespace cubenum::puzzles
