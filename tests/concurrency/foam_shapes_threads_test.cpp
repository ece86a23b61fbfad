// Counts on a shape do not depend on the number of threads.
#include <gtest/gtest.h>

#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/foam_shape.hpp"

namespace cubenum::puzzles {
namespace {

TEST(FoamShapeThreads, CountsIndependentOfThreadCount) {
  const FoamShape two = load_foam_shape("cuboid:2x1x1");
  const FoamProblem pool =
      foam_shape_pool({load_foam_set(std::string(CUBENUM_DATA_DIR "/foam/happy-cube-marble.txt")),
                       load_foam_set(std::string(CUBENUM_DATA_DIR "/foam/happy-cube-micro.txt"))},
                      FoamBy::Identity, {"blue"});
  const auto count_with = [&](int threads) {
    cubenum::ThreadLimit limit(threads);
    search::AssemblyOptions options;
    options.list_limit = 5;
    return count_foam_shape(two, pool, options);
  };
  const FoamShapeCount one = count_with(1);
  EXPECT_GT(one.raw, 0U);
  for (const int threads : {2, 4}) {
    const FoamShapeCount many = count_with(threads);
    EXPECT_EQ(many.raw, one.raw);
    EXPECT_EQ(many.rotations, one.rotations);
    EXPECT_EQ(many.symmetries, one.symmetries);
    EXPECT_EQ(many.piece_choices, one.piece_choices);
    EXPECT_EQ(many.listed, one.listed);
  }
}

// The count by layers expands each layer on every thread into shards.
TEST(FoamShapeThreads, LayersIndependentOfThreadCount) {
  const FoamShape two = load_foam_shape("cuboid:2x1x1");
  const FoamProblem pool = foam_shape_pool(
      {load_foam_set(std::string(CUBENUM_DATA_DIR "/foam/happy-cube-little-genius.txt"))},
      FoamBy::Shape, {"nature", "fruits", "animals"});
  const auto count_with = [&](int threads) {
    cubenum::ThreadLimit limit(threads);
    return count_foam_shape_by_layers(two, pool);
  };
  const search::LayerTally one = count_with(1);
  EXPECT_GT(one.raw, 0U);
  for (const int threads : {2, 4}) {
    const search::LayerTally many = count_with(threads);
    EXPECT_EQ(many.raw, one.raw);
    EXPECT_EQ(many.rotations, one.rotations);
    EXPECT_EQ(many.symmetries, one.symmetries);
    EXPECT_EQ(many.piece_choices, one.piece_choices);
  }
}

}  // namespace
}  // namespace cubenum::puzzles
