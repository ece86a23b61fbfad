// Pattern databases (twisty_pattern.hpp): a projection's distances against
// a naive BFS of the projection, lower bounds of the full puzzle's
// distances, and a child's distance from its parent's by one look-up.
#include "cubenum/puzzles/twisty_pattern.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "cubenum/bfs/row_bfs.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/puzzles/twisty_search.hpp"
#include "twisty_test_support.hpp"

namespace cubenum::twisty {
namespace {

using test_support::data_file;
using test_support::key_of;
using test_support::random_walk;

// Every position of a definition by its distance, by a plain BFS over
// arrangements.
std::map<std::string, unsigned> naive_distances(const Definition& def,
                                                const std::vector<Move>& moves) {
  std::map<std::string, unsigned> dist{{key_of(def.solved), 0}};
  std::deque<Arrangement> queue{def.solved};
  while (!queue.empty()) {
    const Arrangement x = queue.front();
    queue.pop_front();
    const unsigned d = dist.at(key_of(x));
    for (const Move& m : moves) {
      Arrangement y = apply(def.sets, x, m.effect);
      if (dist.emplace(key_of(y), d + 1).second) queue.push_back(std::move(y));
    }
  }
  return dist;
}

TEST(PatternDatabase, ProjectionKeepsTheSetsNamedAndTheMovesThatChangeThem) {
  const Definition def = load_definition(data_file("tower-2x3x2.tws"));
  const Definition edges = project(def, {"EDGE"});
  ASSERT_EQ(edges.sets.size(), 1u);
  EXPECT_EQ(edges.sets[0].name, "EDGE");
  EXPECT_EQ(edges.solved.perm.size(), 1u);
  for (const MoveDef& m : edges.moves) EXPECT_NE(m.effect, edges.identity()) << m.name;
  EXPECT_EQ(project(def, {"EDGE", "CORNER"}).sets.size(), 2u);
  EXPECT_THROW(project(def, {"FACE"}), InputError);
  EXPECT_THROW(project(def, {"EDGE", "EDGE"}), InputError);
}

// On the tower (corners and edges), both metrics: for positions of random
// walks, each projection's distance is the naive BFS's of the projected
// position, at most the full distance (the full BFS's table), and each
// neighbour's distance follows from the position's by one look-up.
TEST(PatternDatabase, DistancesAreTheProjectionsAndLowerBounds) {
  const Definition def = load_definition(data_file("tower-2x3x2.tws"));
  for (bool quarter : {false, true}) {
    SCOPED_TRACE(quarter ? "quarter" : "all powers");
    const MoveChoice choice{{}, quarter};
    const std::vector<Move> moves = expand_moves(def, choice);
    const TwistySpace full(def, moves);
    const std::uint64_t solved = full.solved_rank();
    const bfs::RowDepths depths = std::move(*bfs::row_bfs(full, {&solved, 1}).depths);
    for (const char* set : {"CORNER", "EDGE"}) {
      SCOPED_TRACE(set);
      const PatternDatabase pdb(def, choice, {set});
      const Definition& projected = pdb.projection();
      const auto naive = naive_distances(projected, expand_moves(projected, choice));
      EXPECT_EQ(pdb.states(), naive.size());
      PatternDatabase::Scratch scratch;
      std::mt19937 rng(7);
      for (int sample = 0; sample < 200; ++sample) {
        const Arrangement x = random_walk(def, moves, 25, rng);
        const unsigned h = pdb.distance(x, scratch);
        Arrangement px;
        for (std::size_t s = 0; s < def.sets.size(); ++s)
          if (def.sets[s].name == set) {
            px.perm.push_back(x.perm[s]);
            px.ori.push_back(x.ori[s]);
          }
        EXPECT_EQ(h, naive.at(key_of(px)));
        EXPECT_LE(h, path_to_solved(full, depths, full.rank(x)).size());
        for (const Move& m : moves) {
          const Arrangement y = apply(def.sets, x, m.effect);
          EXPECT_EQ(pdb.distance_after(h, y, scratch), pdb.distance(y, scratch));
        }
      }
    }
  }
}

}  // namespace
}  // namespace cubenum::twisty
