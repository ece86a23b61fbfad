// Positions by piece (twisty_pieces.hpp) against the definition's form,
// and pattern databases (twisty_pattern.hpp): a view's distances against a
// naive BFS of the views, lower bounds of the full puzzle's distances, a
// child's distance from its parent's by one look-up, the table's file, and
// the automatic choice.
#include "cubenum/puzzles/twisty_pattern.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cubenum/bfs/row_bfs.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/twisty_search.hpp"
#include "twisty_test_support.hpp"

namespace cubenum::twisty {
namespace {

using test_support::data_file;
using test_support::key_of;
using test_support::random_walk;

std::vector<std::uint8_t> by_piece(const PieceMoves& moves, const Arrangement& x) {
  std::vector<std::uint8_t> pieces(moves.pieces());
  moves.encode(x, pieces.data());
  return pieces;
}

// A set with identical pieces (two pieces labelled 1, two labelled 2): by
// piece, a sequence and its inverse come back to solved, and solved tells
// identical pieces alike.
constexpr char kIdentical[] = R"(Name Pairs
Set A 4 2
Solved
A
1 1 2 2
End
Move X
A
2 3 4 1
1 0 0 1
End
Move Y
A
2 1 3 4
End
)";

// Moving by piece is moving by slot: on the tower, the pocket cube and the
// 3x3x3, for positions of random walks and every move, encode(x m) is
// encode(x) moved by m's tables.
TEST(PieceMoves, MovesAsTheDefinitionDoes) {
  for (const char* file : {"tower-2x3x2.tws", "pocket-cube.tws", "rubiks-cube.tws"}) {
    SCOPED_TRACE(file);
    const Definition def = load_definition(data_file(file));
    const std::vector<Move> list = expand_moves(def, {});
    const PieceMoves moves(def, list);
    std::mt19937 rng(3);
    EXPECT_TRUE(moves.solved(by_piece(moves, def.solved).data()));
    for (int sample = 0; sample < 50; ++sample) {
      const Arrangement x = random_walk(def, list, 20, rng);
      const std::vector<std::uint8_t> px = by_piece(moves, x);
      EXPECT_EQ(moves.solved(px.data()), x == def.solved);
      std::vector<std::uint8_t> moved(px.size());
      for (std::size_t m = 0; m < list.size(); ++m) {
        moves.apply(px.data(), m, moved.data());
        EXPECT_EQ(moved, by_piece(moves, apply(def.sets, x, list[m].effect)));
      }
    }
  }
}

// Two pairs of identical twisted pieces: a position is solved whichever copy
// holds a slot, and a move solves a position where applying it does.
TEST(PieceMoves, IdenticalPiecesAreSolvedAlike) {
  std::istringstream in(kIdentical);
  const Definition def = parse_definition(in, "pairs.tws");
  const std::vector<Move> list = expand_moves(def, {});
  const PieceMoves moves(def, list);
  EXPECT_FALSE(moves.distinct(0, 0));
  // Y swaps the two pieces labelled 1: solved again, though the copies changed places.
  std::size_t y = 0;
  while (list[y].name != "Y") ++y;
  std::vector<std::uint8_t> x = by_piece(moves, def.solved), out(x.size());
  moves.apply(x.data(), y, out.data());
  EXPECT_NE(out, x);
  EXPECT_TRUE(moves.solved(out.data()));
  std::mt19937 rng(5);
  int solving = 0;
  for (int sample = 0; sample < 30; ++sample) {
    const Arrangement a = random_walk(def, list, 9, rng);
    const std::vector<std::uint8_t> p = by_piece(moves, a);
    EXPECT_EQ(moves.solved(p.data()), a == def.solved);
    // The search's last level: whether a move solves, and the count of
    // pieces out of place that a solving move displaces at least.
    for (std::size_t m = 0; m < list.size(); ++m) {
      moves.apply(p.data(), m, out.data());
      EXPECT_EQ(moves.solved_after(p.data(), m), moves.solved(out.data()));
      if (!moves.solved(out.data())) continue;
      ++solving;
      EXPECT_LE(moves.misplaced(p.data()), moves.moved(m));
    }
  }
  EXPECT_EQ(moves.misplaced(x.data()), 0u);
  EXPECT_EQ(moves.moved(y), 2u);  // (the copies it swaps count)
  EXPECT_GT(solving, 0);
}

// A position's inverse by piece is its sequence undone: on the tower, the
// pocket cube and the 3x3x3, for random sequences w, the inverse of w's
// position is that of w's moves' inverses in reverse order. Identical
// pieces, a piece twisted when solved, or a move without its inverse, are
// not invertible.
TEST(PieceMoves, InverseUndoesTheSequence) {
  for (const char* file : {"tower-2x3x2.tws", "pocket-cube.tws", "rubiks-cube.tws"}) {
    SCOPED_TRACE(file);
    const Definition def = load_definition(data_file(file));
    const std::vector<Move> list = expand_moves(def, {});
    const PieceMoves moves(def, list);
    EXPECT_TRUE(moves.invertible());
    // Each move's inverse, by the definition's form.
    std::vector<std::size_t> undo(list.size(), list.size());
    for (std::size_t m = 0; m < list.size(); ++m)
      for (std::size_t k = 0; k < list.size(); ++k)
        if (apply(def.sets, apply(def.sets, def.solved, list[m].effect), list[k].effect) ==
            def.solved)
          undo[m] = k;
    ASSERT_EQ(std::count(undo.begin(), undo.end(), list.size()), 0);
    std::mt19937 rng(9);
    for (int sample = 0; sample < 50; ++sample) {
      std::vector<std::size_t> w(1 + rng() % 20);
      for (std::size_t& m : w) m = rng() % list.size();
      Arrangement x = def.solved, back = def.solved;
      for (std::size_t m : w) x = apply(def.sets, x, list[m].effect);
      for (auto m = w.rbegin(); m != w.rend(); ++m)
        back = apply(def.sets, back, list[undo[*m]].effect);
      const std::vector<std::uint8_t> px = by_piece(moves, x);
      std::vector<std::uint8_t> inverse(px.size());
      moves.invert(px.data(), inverse.data());
      EXPECT_EQ(inverse, by_piece(moves, back));
    }
  }
  std::istringstream in(kIdentical);
  const Definition pairs = parse_definition(in, "pairs.tws");
  EXPECT_FALSE(PieceMoves(pairs, expand_moves(pairs, {})).invertible());
  std::istringstream twisted_in(
      "Name Twisted\nSet A 2 3\nSolved\nA\n1 2\n1 0\nEnd\n"
      "Move X\nA\n2 1\nEnd\n");
  const Definition twisted = parse_definition(twisted_in, "twisted.tws");
  EXPECT_FALSE(PieceMoves(twisted, expand_moves(twisted, {})).invertible());
  const Definition pocket = load_definition(data_file("pocket-cube.tws"));
  const std::vector<Move> list = expand_moves(pocket, {});
  const auto u =
      std::find_if(list.begin(), list.end(), [](const Move& m) { return m.name == "U"; });
  ASSERT_NE(u, list.end());
  EXPECT_FALSE(PieceMoves(pocket, {*u}).invertible());
}

// The view of a position: each tracked distinct piece's slot and twist
// (its slot alone where the pattern leaves its twist out), then, slot by
// slot, the label of the piece there where it is a tracked identical piece
// (read from the definition's form, by slot), else '-'.
std::string view_key(const PieceMoves& moves, const Pattern& pattern, const Arrangement& x) {
  const std::vector<std::uint8_t> pieces = by_piece(moves, x);
  std::string key;
  for (const Pattern::Part& part : pattern.parts) {
    const unsigned o = moves.definition().sets[part.set].orientations;
    const std::vector<std::uint8_t>& label = moves.definition().solved.perm[part.set];
    std::set<std::uint8_t> kinds;
    for (std::uint8_t p : part.pieces) {
      if (!moves.distinct(part.set, p)) {
        kinds.insert(label[p]);
        continue;
      }
      const std::uint8_t b = pieces[moves.first_piece(part.set) + p];
      const bool forgotten = std::find(part.without_twist.begin(), part.without_twist.end(), p) !=
                             part.without_twist.end();
      key += static_cast<char>(forgotten ? b / o * o : b);
    }
    if (kinds.empty()) continue;
    key += '|';
    for (std::uint8_t held : x.perm[part.set])
      key += kinds.count(held) != 0 ? static_cast<char>('0' + held) : '-';
  }
  return key;
}

// Every view's distance by a plain BFS over positions, a view once.
std::map<std::string, unsigned> naive_view_distances(const PieceMoves& moves,
                                                     const Pattern& pattern) {
  const Definition& def = moves.definition();
  std::map<std::string, unsigned> dist{{view_key(moves, pattern, def.solved), 0}};
  std::deque<Arrangement> queue{def.solved};
  while (!queue.empty()) {
    const Arrangement x = queue.front();
    queue.pop_front();
    const unsigned d = dist.at(view_key(moves, pattern, x));
    for (const Move& m : moves.moves()) {
      Arrangement y = apply(def.sets, x, m.effect);
      if (dist.emplace(view_key(moves, pattern, y), d + 1).second) queue.push_back(std::move(y));
    }
  }
  return dist;
}

// Each child of `px` (whose view's distance is `h`): its rank made from
// the parent's position is the made child's, and its distance follows
// from `h` by one look-up.
void expect_children_follow(const PieceMoves& moves, const PatternDatabase& pdb,
                            const std::vector<std::uint8_t>& px, unsigned h) {
  std::vector<std::uint8_t> py(px.size());
  for (std::size_t m = 0; m < moves.moves().size(); ++m) {
    moves.apply(px.data(), m, py.data());
    EXPECT_EQ(pdb.rank_after(px.data(), m), pdb.rank(py.data()));
    EXPECT_EQ(pdb.distance_after(h, pdb.rank(py.data())), pdb.distance(py.data()));
  }
}

// On the tower (corners and edges), both metrics, whole sets, some pieces
// of a set and a pattern over both sets, on one thread and two: for
// positions of random walks, the view's distance is the naive BFS's, at
// most the full distance (the full BFS's table), and each neighbour's
// distance follows from the position's by one look-up.
TEST(PatternDatabase, DistancesAreTheViewsAndLowerBounds) {
  const Definition def = load_definition(data_file("tower-2x3x2.tws"));
  const std::size_t corner = 0, edge = 1;
  ASSERT_EQ(def.sets[corner].name, "CORNER");
  ASSERT_EQ(def.sets[edge].name, "EDGE");
  const std::vector<Pattern> patterns{
      {{{corner, {0, 1, 2, 3, 4, 5, 6, 7}}}},
      {{{edge, {0, 1, 2, 3}}}},
      {{{edge, {3, 1}}}},
      {{{corner, {1, 6}}, {edge, {3}}}},
  };
  for (bool quarter : {false, true}) {
    SCOPED_TRACE(quarter ? "quarter" : "all powers");
    const std::vector<Move> list = expand_moves(def, {{}, quarter});
    const PieceMoves moves(def, list);
    const TwistySpace full(def, list);
    const std::uint64_t solved = full.solved_rank();
    const bfs::RowDepths depths = std::move(*bfs::row_bfs(full, {&solved, 1}).depths);
    for (const Pattern& pattern : patterns) {
      SCOPED_TRACE(pattern_name(def, pattern));
      const auto naive = naive_view_distances(moves, pattern);
      ASSERT_TRUE(pattern_states(moves, pattern).has_value());
      EXPECT_LE(naive.size(), *pattern_states(moves, pattern));
      unsigned deepest = 0;
      for (const auto& [key, d] : naive) deepest = std::max(deepest, d);
      for (int threads : {1, 2}) {
        ThreadLimit limit(threads);
        const PatternDatabase pdb(moves, pattern);
        EXPECT_EQ(pdb.max_depth(), deepest);
        std::mt19937 rng(7);
        for (int sample = 0; sample < 100; ++sample) {
          const Arrangement x = random_walk(def, list, 25, rng);
          const std::vector<std::uint8_t> px = by_piece(moves, x);
          const unsigned h = pdb.distance(px.data());
          EXPECT_EQ(h, naive.at(view_key(moves, pattern, x)));
          EXPECT_LE(h, path_to_solved(full, depths, full.rank(x)).size());
          expect_children_follow(moves, pdb, px, h);
        }
      }
    }
  }
}

// The pocket cube (the 2x2x2 with every face's moves), by piece, and its
// full depth table.
struct PocketCube {
  Definition def = load_definition(data_file("pocket-cube.tws"));
  std::vector<Move> list = expand_moves(def, {});
  PieceMoves moves{def, list};
  TwistySpace full{def, list};
  bfs::RowDepths depths = solved_depths(full);

  static bfs::RowDepths solved_depths(const TwistySpace& space) {
    const std::uint64_t solved = space.solved_rank();
    return std::move(*bfs::row_bfs(space, {&solved, 1}).depths);
  }
};

// A clamped table, on the pocket cube (four corners): a view's bound is
// the exact table's distance where that is among the three deepest, else
// 0; a child's bound, from its parent's distance by one look-up, is its
// distance where that deep, else the parent's less one; the table reads
// back from its file clamped, and has no exact distances.
TEST(PatternDatabase, ClampedTablesKeepTheThreeDeepestLevels) {
  const PocketCube cube;
  const auto& [def, list, moves, full, depths] = cube;
  const Pattern four{{{0, {0, 1, 2, 3}}}};
  const PatternDatabase exact(moves, four), clamped(moves, four, Clamping::Always);
  ASSERT_FALSE(exact.clamped());
  ASSERT_TRUE(clamped.clamped());
  ASSERT_EQ(clamped.max_depth(), exact.max_depth());
  ASSERT_GE(exact.max_depth(), 4u);
  const unsigned base = exact.max_depth() - 3;
  const std::string file = ::testing::TempDir() + "/clamped.pdb";
  clamped.save(file);
  const PatternDatabase read(moves, four, file);
  std::remove(file.c_str());
  EXPECT_TRUE(read.clamped());
  const std::vector<std::uint8_t> solved = by_piece(moves, def.solved);
  EXPECT_THROW((void)clamped.distance(solved.data()), std::logic_error);
  std::mt19937 rng(13);
  int deep = 0, near = 0;
  std::vector<std::uint8_t> py(moves.pieces());
  for (int sample = 0; sample < 2000; ++sample) {
    const std::vector<std::uint8_t> px =
        by_piece(moves, random_walk(def, list, 1 + sample % 12, rng));
    const unsigned h = exact.distance(px.data());
    (h > base ? deep : near) += 1;
    EXPECT_EQ(clamped.lower_bound(px.data()), h > base ? h : 0);
    EXPECT_EQ(read.lower_bound(px.data()), h > base ? h : 0);
    for (std::size_t m = 0; m < list.size(); ++m) {
      moves.apply(px.data(), m, py.data());
      const unsigned child = exact.distance(py.data());
      EXPECT_EQ(clamped.distance_after(h, clamped.rank_after(px.data(), m)),
                child > base ? child : std::max(h, 1U) - 1);
    }
  }
  EXPECT_GT(deep, 100);
  EXPECT_GT(near, 100);
}

// Pieces tracked by their slots alone, on the pocket cube (whose moves
// twist corners): four corners with three twists, and five corners with
// one twist. The view's distance is the naive BFS's, at most the full
// distance, at least that of the pattern without the slot-only pieces
// (it sees more), and follows from the parent's by one look-up; every view
// has its own rank.
TEST(PatternDatabase, SlotsWithoutTwistsAreAView) {
  const PocketCube cube;
  const auto& [def, list, moves, full, depths] = cube;
  const Pattern four{{{0, {0, 1, 2, 3}, {3}}}}, three{{{0, {0, 1, 2}, {}}}};
  const Pattern five{{{0, {6, 0, 1, 2, 3}, {0, 1, 2, 3}}}}, one{{{0, {6}}}};
  EXPECT_EQ(pattern_states(moves, four), 8u * 7 * 6 * 5 * 27);
  EXPECT_EQ(pattern_states(moves, five), 8u * 7 * 6 * 5 * 4 * 3);
  EXPECT_EQ(pattern_name(def, four), "CORNER 1-3 slots 4");
  EXPECT_EQ(pattern_name(def, five), "CORNER 7 slots 1-4");
  for (const auto& [pattern, smaller] : {std::pair{four, three}, std::pair{five, one}}) {
    SCOPED_TRACE(pattern_name(def, pattern));
    const auto naive = naive_view_distances(moves, pattern);
    const PatternDatabase pdb(moves, pattern), less(moves, smaller);
    std::map<std::uint64_t, std::string> seen;
    std::mt19937 rng(11);
    for (int sample = 0; sample < 3000; ++sample) {
      const Arrangement x = random_walk(def, list, 25, rng);
      const std::vector<std::uint8_t> px = by_piece(moves, x);
      const unsigned h = pdb.distance(px.data());
      const std::string key = view_key(moves, pattern, x);
      EXPECT_EQ(h, naive.at(key));
      EXPECT_LE(h, path_to_solved(full, depths, full.rank(x)).size());
      EXPECT_GE(h, less.distance(px.data()));
      const std::uint64_t r = pdb.rank(px.data());
      EXPECT_LT(r, pdb.states());
      EXPECT_EQ(seen.emplace(r, key).first->second, key) << "rank " << r << " of two views";
      if (sample % 30 == 0) expect_children_follow(moves, pdb, px, h);
    }
  }
}

// A table read through a symmetry S, on the pocket cube (48 symmetries,
// mirrors among them): the lookup of x is the table's lookup of S x S^-1
// (the symmetry group's own conjugation, sticker by sticker), so its
// distance is at most x's full distance; a child's follows from its
// parent's by one look-up; and the symmetries read other corners.
TEST(PatternDatabase, ConjugatedTablesReadTheConjugate) {
  const PocketCube cube;
  const auto& [def, list, moves, full, depths] = cube;
  const SymmetryGroup group(def, list, {SymmetryChoice::All, false});
  ASSERT_EQ(group.order(), 48u);
  const PatternDatabase pdb(moves, {{{0, {0, 1, 2}, {}}}});
  const PatternDatabase slots(moves, {{{0, {0, 1, 2, 3}, {3}}}});
  std::mt19937 rng(13);
  for (const PatternDatabase* table : {&pdb, &slots}) {
    std::set<std::vector<std::pair<std::size_t, bool>>> read;
    for (std::size_t k = 0; k < group.order(); ++k) {
      SCOPED_TRACE(::testing::Message()
                   << pattern_name(def, table->pattern()) << ", symmetry " << k);
      const std::optional<PatternDatabase> view = table->conjugated(group, k);
      ASSERT_TRUE(view.has_value());
      read.insert(view->read_pieces());
      EXPECT_EQ(view->read_pieces().size(), table->read_pieces().size());
      Arrangement image = def.solved;
      for (int sample = 0; sample < 20; ++sample) {
        const Arrangement x = random_walk(def, list, 25, rng);
        group.conjugate(k, x, image);
        const std::vector<std::uint8_t> px = by_piece(moves, x), pimage = by_piece(moves, image);
        EXPECT_EQ(view->rank(px.data()), table->rank(pimage.data()));
        const unsigned h = view->distance(px.data());
        EXPECT_EQ(h, table->distance(pimage.data()));
        EXPECT_LE(h, path_to_solved(full, depths, full.rank(x)).size());
        if (sample % 5 == 0) expect_children_follow(moves, *view, px, h);
      }
    }
    EXPECT_GT(read.size(), 1u) << "every symmetry reads the same corners";
  }
}

// A table tracking a kind of identical pieces, read through a symmetry: the
// pocket cube with its four D corners alike (one colour) and its U corners
// distinct, so that its symmetries (found from the file as changed) are
// the 8 that keep the U face: 4 turns about the U-D axis, each also
// mirrored. Two U corners and the D kind, looked up through each: the
// conjugate's look-up, its children by one look-up each, and other U
// corners read.
TEST(PatternDatabase, ConjugatedTablesReadKindsAsTheirImages) {
  Definition def = load_definition(data_file("pocket-cube.tws"));
  std::vector<Move> list = expand_moves(def, {});
  const Move& u =
      *std::find_if(list.begin(), list.end(), [](const Move& m) { return m.name == "U"; });
  std::vector<unsigned> up, down;
  for (unsigned slot = 0; slot < def.sets[0].slots; ++slot)
    (u.effect.perm[0][slot] != slot ? up : down).push_back(slot);
  ASSERT_EQ(up.size(), 4u);
  for (unsigned slot : down) def.solved.perm[0][slot] = def.solved.perm[0][down[0]];
  list = expand_moves(def, {});
  const PieceMoves moves(def, list);
  const SymmetryGroup group(def, list, {SymmetryChoice::All, false});
  EXPECT_EQ(group.order(), 8u);
  const std::string text = fmt::format("CORNER {} {} {} {} {} {}", up[0] + 1, up[1] + 1,
                                       down[0] + 1, down[1] + 1, down[2] + 1, down[3] + 1);
  const PatternDatabase table(moves, parse_pattern(moves, text, "test"));
  EXPECT_EQ(table.states(), 8u * 3 * 7 * 3 * 15);  // two corners' slots and twists, C(6, 4)
  std::set<std::vector<std::pair<std::size_t, bool>>> read;
  std::mt19937 rng(17);
  for (std::size_t k = 0; k < group.order(); ++k) {
    SCOPED_TRACE(::testing::Message() << "symmetry " << k);
    const std::optional<PatternDatabase> view = table.conjugated(group, k);
    ASSERT_TRUE(view.has_value());
    read.insert(view->read_pieces());
    Arrangement image = def.solved;
    for (int sample = 0; sample < 20; ++sample) {
      const Arrangement x = random_walk(def, list, 25, rng);
      group.conjugate(k, x, image);
      const std::vector<std::uint8_t> px = by_piece(moves, x), pimage = by_piece(moves, image);
      EXPECT_EQ(view->rank(px.data()), table.rank(pimage.data()));
      const unsigned h = view->distance(px.data());
      EXPECT_EQ(h, table.distance(pimage.data()));
      if (sample % 5 == 0) expect_children_follow(moves, *view, px, h);
    }
  }
  EXPECT_GT(read.size(), 1u) << "every symmetry reads the same corners";
}

// The index: every view has its own rank, each in range (the corners'
// twists' last digit implied where all are tracked: 8! 3^7 states).
TEST(PatternDatabase, RanksAreDistinctAndInRange) {
  const Definition def = load_definition(data_file("pocket-cube.tws"));
  const PieceMoves moves(def, expand_moves(def, {}));
  const Pattern corners{{{0, {0, 1, 2, 3, 4, 5, 6, 7}}}};
  EXPECT_EQ(pattern_states(moves, corners), 40320u * 2187u);
  const Pattern some{{{0, {2, 5}}}};
  EXPECT_EQ(pattern_states(moves, some), 8u * 7 * 9);
  const PatternDatabase pdb(moves, some);
  std::map<std::uint64_t, std::string> seen;
  std::mt19937 rng(9);
  for (int sample = 0; sample < 20000; ++sample) {
    const Arrangement x = random_walk(def, moves.moves(), 30, rng);
    const std::uint64_t r = pdb.rank(by_piece(moves, x).data());
    EXPECT_LT(r, pdb.states());
    const auto [it, fresh] = seen.emplace(r, view_key(moves, some, x));
    EXPECT_EQ(it->second, view_key(moves, some, x)) << "rank " << r << " of two views";
  }
  EXPECT_EQ(seen.size(), 8u * 7 * 9);  // every view turns up
  // A pattern with no index: no piece, a piece twice, a set twice.
  EXPECT_FALSE(pattern_states(moves, {{{0, {}}}}));
  EXPECT_FALSE(pattern_states(moves, {{{0, {1, 1}}}}));
  EXPECT_FALSE(pattern_states(moves, {{{0, {1}}, {0, {2}}}}));
}

// The table's file: written and read back, the same distances; a damaged
// file (its table or its header), a truncated one and another pattern's
// are refused with the file named.
TEST(PatternDatabase, TableFileRoundTripsAndRefusesOthers) {
  const Definition def = load_definition(data_file("tower-2x3x2.tws"));
  const PieceMoves moves(def, expand_moves(def, {}));
  const Pattern edges{{{1, {0, 1, 2, 3}}}};
  const PatternDatabase built(moves, edges);
  const std::string file = ::testing::TempDir() + "/edges.pdb";
  built.save(file);
  const PatternDatabase read(moves, edges, file);
  EXPECT_EQ(read.max_depth(), built.max_depth());
  std::mt19937 rng(1);
  for (int sample = 0; sample < 50; ++sample) {
    const auto px = by_piece(moves, random_walk(def, moves.moves(), 20, rng));
    EXPECT_EQ(read.distance(px.data()), built.distance(px.data()));
  }
  const auto refused = [&](const Pattern& pattern, const std::string& path, const char* why) {
    try {
      const PatternDatabase other(moves, pattern, path);
      ADD_FAILURE() << "read " << path;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused({{{1, {0, 1, 2}}}}, file, "another puzzle, other moves or another pattern");
  const PieceMoves quarter(def, expand_moves(def, {{}, true}));
  try {
    const PatternDatabase other(quarter, edges, file);
    ADD_FAILURE() << "read with other moves";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("other moves"), std::string::npos) << e.what();
  }
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string damaged = ::testing::TempDir() + "/damaged.pdb";
  std::string flipped = bytes;
  flipped[flipped.size() - 3] ^= 0x10;
  std::ofstream(damaged, std::ios::binary) << flipped;
  refused(edges, damaged, "damaged");
  std::ofstream(damaged, std::ios::binary) << bytes.substr(0, bytes.size() - 5);
  refused(edges, damaged, "truncated");
  std::string header = bytes;
  header[header.find(" depth ") + 7] = 'x';
  std::ofstream(damaged, std::ios::binary) << header;
  refused(edges, damaged, "header is damaged");
  std::ofstream(damaged, std::ios::binary) << "not a table\n";
  refused(edges, damaged, "not a cubenum pattern database");
  std::remove(file.c_str());
  std::remove(damaged.c_str());
}

// Patterns as written: sets, pieces and ranges from 1, parts joined by
// '+'; a bad one is refused naming the option and saying why.
TEST(PatternDatabase, PatternsAsWritten) {
  const Definition def = load_definition(data_file("tower-2x3x2.tws"));
  const PieceMoves moves(def, expand_moves(def, {}));
  const Pattern p = parse_pattern(moves, "EDGE 2 4 + CORNER 1-3", "--patterns");
  EXPECT_EQ(p, (Pattern{{{0, {0, 1, 2}}, {1, {1, 3}}}}));
  EXPECT_EQ(pattern_name(def, p), "CORNER 1-3 + EDGE 2 4");
  EXPECT_EQ(pattern_name(def, {{{0, {7, 0, 1, 2, 5}}}}), "CORNER 1-3 6 8");
  EXPECT_EQ(parse_pattern(moves, " CORNER ", "--patterns"),
            (Pattern{{{0, {0, 1, 2, 3, 4, 5, 6, 7}}}}));
  // Slots alone (where moves twist), after the whole pieces.
  const Definition pocket = load_definition(data_file("pocket-cube.tws"));
  const PieceMoves pocket_moves(pocket, expand_moves(pocket, {}));
  const Pattern wide = parse_pattern(pocket_moves, "CORNER 2 1 slots 8 3", "--patterns");
  EXPECT_EQ(wide, (Pattern{{{0, {1, 0, 7, 2}, {2, 7}}}}));
  EXPECT_EQ(pattern_name(pocket, wide), "CORNER 1 2 slots 3 8");
  EXPECT_EQ(parse_pattern(pocket_moves, "CORNER slots 1-3", "--patterns"),
            (Pattern{{{0, {0, 1, 2}, {0, 1, 2}}}}));
  const auto refused = [](const PieceMoves& on, const std::string& text, const std::string& why) {
    try {
      parse_pattern(on, text, "--patterns");
      ADD_FAILURE() << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--patterns"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused(pocket_moves, "CORNER 1-3 slots 3", "a piece repeated");
  refused(pocket_moves, "CORNER 1 slots 2 slots 3", "'slots' twice");
  for (const auto& [text, why] :
       std::vector<std::pair<std::string, std::string>>{{"FACE", "no set FACE"},
                                                        {"CORNER 9", "'9' is not a piece"},
                                                        {"CORNER 3-1", "'3-1' is not a piece"},
                                                        {"CORNER x", "'x' is not a piece"},
                                                        {"CORNER 1 1", "a piece repeated"},
                                                        {"CORNER + CORNER", "a set named twice"},
                                                        {"CORNER + ", "an empty part"},
                                                        {"EDGE slots 1", "no move twists EDGE"}})
    refused(moves, text, why);
  std::istringstream in(kIdentical);
  const Definition pairs = parse_definition(in, "pairs.tws");
  const PieceMoves pair_moves(pairs, expand_moves(pairs, {}));
  EXPECT_THROW(parse_pattern(pair_moves, "A 1", "--patterns"), InputError);  // without 2
}

// Identical pieces tracked by kind: E (four distinct pieces, twisted) and
// C (six pieces, two of each of three labels). For whole C (6!/2!^3 = 90
// views), C's first kind (C(6,2) = 15), E 1 2 with that kind (4 x 3 x 2^2
// x 15 = 720) and everything (4! x 2^3, the twists' sum kept, x 90 =
// 17,280), on one thread and two: every view is reached (the naive BFS),
// views have ranks of their own, every rank unranks to a view of that rank
// (so the ranks are onto: one view each), and the distances are
// the naive BFS's (views by labels read slot by slot), at most the full
// distance, and a child's follows from its parent's. The choice merges
// E and C whole; the table's file reads back; a kind named in part, or
// after "slots", is refused.
TEST(PatternDatabase, IdenticalPiecesAreTrackedByKind) {
  std::istringstream text(R"(Name Centres
Set E 4 2
Set C 6 1
Solved
E
1 2 3 4
C
1 1 2 2 3 3
End
Move X
E
2 3 4 1
1 0 0 1
C
2 3 1 4 5 6
End
Move Y
E
2 1 3 4
C
1 2 4 5 6 3
End
Move Z
E
1 2 3 4
1 1 0 0
C
6 2 3 4 5 1
End
)");
  const Definition def = parse_definition(text, "centres.tws");
  const std::vector<Move> list = expand_moves(def, {});
  const PieceMoves moves(def, list);
  const TwistySpace full(def, list);
  const std::uint64_t solved = full.solved_rank();
  const bfs::RowDepths depths = std::move(*bfs::row_bfs(full, {&solved, 1}).depths);
  const std::size_t e = 0, c = 1;
  const std::vector<std::pair<Pattern, std::uint64_t>> patterns{
      {{{{c, {0, 1, 2, 3, 4, 5}}}}, 90},
      {{{{c, {0, 1}}}}, 15},
      {{{{e, {0, 1}}, {c, {0, 1}}}}, 720},
      {{{{e, {0, 1, 2, 3}}, {c, {0, 1, 2, 3, 4, 5}}}}, 17280},
  };
  for (const auto& [pattern, states] : patterns) {
    SCOPED_TRACE(pattern_name(def, pattern));
    ASSERT_EQ(pattern_states(moves, pattern), states);
    const auto naive = naive_view_distances(moves, pattern);
    EXPECT_EQ(naive.size(), states);
    for (int threads : {1, 2}) {
      ThreadLimit limit(threads);
      const PatternDatabase pdb(moves, pattern);
      std::vector<std::uint8_t> px = by_piece(moves, def.solved);
      for (std::uint64_t r = 0; r < states; ++r) {
        pdb.unrank(r, px.data());
        ASSERT_EQ(pdb.rank(px.data()), r);
      }
      std::map<std::uint64_t, std::string> seen;
      std::mt19937 rng(17);
      for (int sample = 0; sample < 3000; ++sample) {
        const Arrangement x = random_walk(def, list, 20, rng);
        px = by_piece(moves, x);
        const std::string key = view_key(moves, pattern, x);
        const std::uint64_t r = pdb.rank(px.data());
        EXPECT_EQ(seen.emplace(r, key).first->second, key) << "rank " << r << " of two views";
        const unsigned h = pdb.distance(px.data());
        EXPECT_EQ(h, naive.at(key));
        EXPECT_LE(h, path_to_solved(full, depths, full.rank(x)).size());
        if (sample % 30 == 0) expect_children_follow(moves, pdb, px, h);
      }
    }
  }
  const std::vector<Pattern> chosen = choose_patterns(moves, 1e9, 1 << 27);
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_EQ(pattern_name(def, chosen[0]), "E + C");
  const Pattern some = parse_pattern(moves, "C 1 2 + E 1 2", "--patterns");
  EXPECT_EQ(some, patterns[2].first);
  EXPECT_EQ(pattern_name(def, some), "E 1 2 + C 1 2");
  const PatternDatabase built(moves, some);
  const std::string file = ::testing::TempDir() + "/kinds.pdb";
  built.save(file);
  const PatternDatabase read(moves, some, file);
  std::remove(file.c_str());
  std::mt19937 rng(2);
  for (int sample = 0; sample < 50; ++sample) {
    const auto px = by_piece(moves, random_walk(def, list, 20, rng));
    EXPECT_EQ(read.distance(px.data()), built.distance(px.data()));
  }
  const auto refused = [](const PieceMoves& on, const std::string& pattern,
                          const std::string& why) {
    try {
      parse_pattern(on, pattern, "--patterns");
      ADD_FAILURE() << pattern;
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find(why), std::string::npos) << error.what();
    }
  };
  refused(moves, "C 1 3", "piece 1 of C is identical to piece 2, which the pattern leaves out");
  std::istringstream in(kIdentical);
  const Definition pairs = parse_definition(in, "pairs.tws");
  const PieceMoves pair_moves(pairs, expand_moves(pairs, {}));
  refused(pair_moves, "A slots 1 2", "piece 1 of A has identical pieces");
  EXPECT_NO_THROW(parse_pattern(pair_moves, "A 1 2", "--patterns"));
}

// The automatic choice on the 3x3x3: the corners whole (8! 3^7 states) and
// the edges in two halves of six (12!/6! 2^6 each), Korf's patterns; with
// a larger bound, two overlapping groups of seven edges; each with a third
// group where the memory allows; with a bound above 12!/4! 2^7, patterns
// widened by a piece's slot where the memory allows; within less memory,
// smaller groups until all fit.
TEST(PatternDatabase, ChoosesKorfsPatternsForTheCube) {
  const Definition def = load_definition(data_file("rubiks-cube.tws"));
  const PieceMoves moves(def, expand_moves(def, {}));
  const auto names = [&](double bytes, std::uint64_t most) {
    std::vector<std::string> out;
    for (const Pattern& p : choose_patterns(moves, bytes, most))
      out.push_back(pattern_name(def, p));
    return out;
  };
  using Names = std::vector<std::string>;
  EXPECT_EQ(names(1e9, 1 << 27), (Names{"CORNER", "EDGE 1-6", "EDGE 7-12", "EDGE 4-9"}));
  EXPECT_EQ(names(1e9, 1 << 29), (Names{"EDGE 1-7", "EDGE 6-12", "CORNER", "EDGE 1-3 9-12"}));
  const double gib = 1 << 30;
  // 12!/4! 2^7 states for the first seven with an eighth's slot (609 MiB at
  // 2 bits), 8! 3^7 12 for the corners with an edge's: 983 MiB in all, no
  // room for a third seven.
  EXPECT_EQ(names(gib, std::uint64_t{1} << 32),
            (Names{"EDGE 1-7 slots 8", "CORNER + EDGE slots 1", "EDGE 6-12"}));
  // With room for both sevens widened: the second takes the edge after its
  // last (12), the first.
  EXPECT_EQ(names(1.5 * gib, std::uint64_t{1} << 32),
            (Names{"EDGE 1-7 slots 8", "EDGE 6-12 slots 1", "CORNER + EDGE slots 1"}));
  // Without room for a third group of edges: none.
  EXPECT_EQ(names((88179840.0 + 2 * 42577920) / 4, 1 << 27),
            (Names{"CORNER", "EDGE 1-6", "EDGE 7-12"}));
  // Below the three's (8! 3^7 + 2 x 12!/6! 2^6) / 4 bytes: the bound halved to
  // 2^26, six corners (8!/2! 3^6 states) twice and the edges' halves; the
  // corners' groups widened by a seventh corner's slot (8! 3^6), then a
  // third group of six corners in what is left.
  EXPECT_EQ(names(40e6, 1 << 27), (Names{"EDGE 1-6", "EDGE 7-12", "CORNER 1-6 slots 7",
                                         "CORNER 3-8 slots 1", "CORNER 1-3 6-8"}));
  // The tower: its corners and edges together have few states: one pattern.
  const Definition tower = load_definition(data_file("tower-2x3x2.tws"));
  const PieceMoves tower_moves(tower, expand_moves(tower, {}));
  const auto chosen = choose_patterns(tower_moves, 1e9, 1 << 27);
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_EQ(pattern_name(tower, chosen[0]), "CORNER + EDGE");
}

// Six distinct pieces moved by 3-cycles (even permutations): the slots of
// four tell the last two's, so the choice tracks four (6!/2! states, each
// reached) and the table's distance is the position's, from the full BFS;
// a set with an odd move keeps every piece.
TEST(PatternDatabase, ParityTellsTheLastTwoPieces) {
  constexpr char kCycles[] = R"(Name Cycles
Set A 6 1
Solved
A
1 2 3 4 5 6
End
Move X
A
2 3 1 4 5 6
End
Move Y
A
1 2 4 5 3 6
End
Move Z
A
6 2 3 4 1 5
End
)";
  std::istringstream text(kCycles);
  const Definition def = parse_definition(text, "cycles.tws");
  const std::vector<Move> list = expand_moves(def, {});
  const PieceMoves moves(def, list);
  const std::vector<Pattern> chosen = choose_patterns(moves, 1e9, 1 << 27);
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_EQ(pattern_name(def, chosen[0]), "A 1-4");
  EXPECT_EQ(pattern_states(moves, chosen[0]), 360u);
  const PatternDatabase pdb(moves, chosen[0]);
  const TwistySpace full(def, list);
  const std::uint64_t solved = full.solved_rank();
  const bfs::RowDepths depths = std::move(*bfs::row_bfs(full, {&solved, 1}).depths);
  std::mt19937 rng(5);
  for (int sample = 0; sample < 300; ++sample) {
    const Arrangement x = random_walk(def, list, 12, rng);
    EXPECT_EQ(pdb.distance(by_piece(moves, x).data()),
              path_to_solved(full, depths, full.rank(x)).size());
  }
  // A transposition among the moves: every piece tracked.
  std::istringstream odd_text(
      std::string(kCycles).replace(std::string(kCycles).find("6 2 3 4 1 5"), 11, "6 2 3 4 5 1"));
  const Definition odd = parse_definition(odd_text, "odd.tws");
  const PieceMoves odd_moves(odd, expand_moves(odd, {}));
  const std::vector<Pattern> all = choose_patterns(odd_moves, 1e9, 1 << 27);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(pattern_name(odd, all[0]), "A");
}

// Widening goes on a piece at a time while the bound allows where the
// pieces added are untwisted: A (six pieces moved by 3-cycles, 6!/2! =
// 360 views) and B (six pieces, a transposition among the moves: 6! =
// 720) are too many together for a bound of 20,000 states; B takes A's
// first piece (720 x 6 = 4,320; with A's second, 21,600, too many), A
// takes two of B's (360 x 6 x 5 = 10,800; a third, 43,200, too many).
TEST(PatternDatabase, UntwistedPatternsWidenUntilTheBound) {
  std::istringstream text(R"(Name TwoSets
Set A 6 1
Set B 6 1
Solved
A
1 2 3 4 5 6
B
1 2 3 4 5 6
End
Move X
A
2 3 1 4 5 6
B
2 1 3 4 5 6
End
Move Y
A
1 2 4 5 3 6
B
1 3 4 2 5 6
End
Move Z
A
6 2 3 4 1 5
B
1 2 3 5 6 4
End
)");
  const Definition def = parse_definition(text, "two-sets.tws");
  const PieceMoves moves(def, expand_moves(def, {}));
  std::vector<std::string> names;
  for (const Pattern& p : choose_patterns(moves, 1e9, 20000)) names.push_back(pattern_name(def, p));
  EXPECT_EQ(names, (std::vector<std::string>{"A 1-4 + B 1 2", "A 1 + B"}));
}

}  // namespace
}  // namespace cubenum::twisty
