#pragma once
// Optimal solutions beyond the depth table: iterative deepening (IDA*) over
// a definition file's positions (by piece: twisty_pieces.hpp) in canonical
// move sequences (twisty_canonical.hpp), pruned by pattern databases
// (twisty_pattern.hpp: the distance of a position's view is a lower bound
// of its own).
// Each depth's tree is cut a few moves down into subtrees searched on
// every thread; the solutions are taken in move order, so the answer is
// the same at any thread count.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "cubenum/core/cluster.hpp"
#include "cubenum/puzzles/twisty.hpp"
#include "cubenum/puzzles/twisty_pattern.hpp"

namespace cubenum::twisty {

struct IdaOptions {
  unsigned max_depth = 64;
  // Count every optimal solution (the whole last depth searched); else the
  // search stops at the first subtree, in move order, that holds one.
  bool count = false;
  std::size_t keep = 1;  // solutions listed, the first in move order
  // Where the moves are invertible (PieceMoves::invertible), each clamped
  // table also bounds a node by its inverse's view.
  bool inverse_lookups = true;
  std::function<bool()> should_stop;
  // After each depth searched: the depth and the nodes so far.
  std::function<void(unsigned depth, std::uint64_t nodes)> on_depth;
  // After each subtree, from the thread that searched it: the depth being
  // searched, the nodes so far (all depths) and the subtrees done of all.
  std::function<void(unsigned depth, std::uint64_t nodes, std::size_t done, std::size_t subtrees)>
      on_subtree;
  // The processes sharing the search (null or one: this one alone): every
  // process calls solve_ida alike and gets the whole answer; the subtrees
  // are dealt to all of them (on_subtree sees this process's).
  Cluster* cluster = nullptr;
};

// Whether the search reads `pdb` as the position's inverse too, where
// asked (IdaOptions::inverse_lookups).
inline bool reads_inverse(const PieceMoves& moves, const PatternDatabase& pdb, bool asked) {
  return asked && moves.invertible() && pdb.clamped();
}

struct IdaResult {
  std::optional<unsigned> length;           // of an optimal solution, where found
  std::vector<std::vector<int>> solutions;  // indices into the moves
  // Canonical optimal solutions: every one with IdaOptions::count, else at
  // least those of the subtrees searched.
  std::uint64_t count = 0;
  unsigned proven = 0;  // no solution shorter than this
  std::uint64_t nodes = 0;
  // By should_stop: before any solution, or with the count (and which
  // solution is first in move order) unfinished.
  bool stopped = false;
};

// `start` must be a position the moves reach; the pattern databases must
// be of the same moves.
IdaResult solve_ida(const PieceMoves& moves, const Arrangement& start,
                    const std::vector<const PatternDatabase*>& pdbs, const IdaOptions& options);

}  // namespace cubenum::twisty
