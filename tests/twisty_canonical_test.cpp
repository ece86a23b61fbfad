// Canonical move sequences (twisty_canonical.hpp): their counts against
// hand-derived recurrences, and the invariant that they reach every
// position all sequences reach, as soon.
#include "cubenum/puzzles/twisty_canonical.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "twisty_test_support.hpp"

namespace cubenum::twisty {
namespace {

using test_support::data_file;
using test_support::key_of;

// The positions of every sequence (canonical only, or all) of length at
// most `depth`, from solved.
std::set<std::string> ball(const Definition& def, const std::vector<Move>& moves,
                           const CanonicalMoves* canonical, int depth) {
  std::set<std::string> seen;
  const auto walk = [&](auto&& self, const Arrangement& x, std::uint32_t state, int left) -> void {
    seen.insert(key_of(x));
    if (left == 0) return;
    for (std::size_t m = 0; m < moves.size(); ++m) {
      std::uint32_t next = CanonicalMoves::kStart;
      if (canonical != nullptr) {
        next = canonical->next(state, m);
        if (next == CanonicalMoves::kRefused) continue;
      }
      self(self, apply(def.sets, x, moves[m].effect), next, left - 1);
    }
  };
  walk(walk, def.solved, CanonicalMoves::kStart, depth);
  return seen;
}

// The 2x2x2 with all six faces turns like the 3x3x3: three axes of two
// faces each, faces on one axis commuting. In the half-turn metric a move
// on an axis's first face may be followed by 15 moves (3 on the opposite
// face, 12 on the other axes), one on its second face by 12 (the first
// face's would be the other order): with f, s the sequences ending on a
// first and a second face, f' = 6 (f + s), s' = 9 f + 6 s from f = s = 9,
// giving 18, 243, 3240, 43254, 577368 (the 3x3x3's face turns make the
// same counts, OEIS A080601).
TEST(CanonicalMoves, HalfTurnMetricCountsAsDerivedByHand) {
  for (const char* file : {"pocket-cube.tws", "rubiks-cube.tws"}) {
    SCOPED_TRACE(file);
    const Definition def = load_definition(data_file(file));
    const CanonicalMoves canonical(def, expand_moves(def, {}));
    EXPECT_EQ(canonical.generators(), 6u);
    EXPECT_EQ(canonical.count(5), (std::vector<std::uint64_t>{1, 18, 243, 3240, 43254, 577368}));
  }
}

// Quarter turns: a run of one face may be two quarter turns the same way
// (U U is the half turn), never three or back. States: f1, f2, s1, s2 (a
// first or second face, a run of one or two): f1' = 4 all, f2' = f1,
// s1' = 2 (f1 + f2) + 4 all, s2' = s1, from f1 = s1 = 6: 12, 120, 1176,
// 11532.
TEST(CanonicalMoves, QuarterTurnMetricKeepsHalfTurnsAsTwoQuarters) {
  const Definition def = load_definition(data_file("pocket-cube.tws"));
  const CanonicalMoves canonical(def, expand_moves(def, {{}, true}));
  EXPECT_EQ(canonical.count(4), (std::vector<std::uint64_t>{1, 12, 120, 1176, 11532}));
}

// Pruning never loses a position, nor makes one farther: the positions of
// canonical sequences of length at most n are those of all sequences (a
// naive walk over every sequence), on puzzles with commuting and
// non-commuting generators, both metrics.
TEST(CanonicalMoves, ReachEveryPositionAllSequencesReach) {
  struct Case {
    const char* file;
    MoveChoice choice;
    int depth;
  };
  for (const Case& c : {Case{"pocket-cube.tws", {}, 4}, Case{"pocket-cube.tws", {{}, true}, 5},
                        Case{"tiles-2x3.tws", {}, 6}, Case{"tower-2x3x2.tws", {}, 4}}) {
    SCOPED_TRACE(std::string(c.file) + (c.choice.quarter ? " quarter" : ""));
    const Definition def = load_definition(data_file(c.file));
    const std::vector<Move> moves = expand_moves(def, c.choice);
    const CanonicalMoves canonical(def, moves);
    for (int d = 1; d <= c.depth; ++d) {
      SCOPED_TRACE(d);
      EXPECT_EQ(ball(def, moves, &canonical, d), ball(def, moves, nullptr, d));
    }
  }
}

}  // namespace
}  // namespace cubenum::twisty
