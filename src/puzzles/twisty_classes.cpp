// Classes up to symmetry (and inversion, and whole-puzzle turns) among a
// level's positions: a position counts when its rank is the least of its
// orbit's.
#include <algorithm>
#include <bit>
#include <memory>
#include <set>
#include <unordered_set>
#include <utility>
#include <vector>

#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/twisty_search.hpp"

namespace cubenum::twisty {
namespace {

// The images of one position, in reused arrangements (one per thread).
class ClassCheck {
 public:
  ClassCheck(const TwistySpace& space, const ClassGroup& group)
      : space_(space),
        sets_(space.definition().sets),
        group_(group),
        position_(space.definition().solved),
        image_(position_),
        turned_(position_),
        inverse_(position_) {}

  LevelClasses operator()(std::uint64_t rank) {
    Arrangement& x = position_;
    space_.unrank(rank, x, scratch_);
    space_.coordinates(rank, coordinates_);
    // Another turn of x first: most positions are not the least of theirs.
    for (std::size_t t = 1; t < group_.turns.size(); ++t)
      if (below(x, group_.turns[t])) return {};
    for (std::size_t k = 1; k < group_.symmetries->order(); ++k)
      if (smaller(k, x)) return {};
    LevelClasses least{1, 0};
    if (!group_.symmetries->inverse()) return least;
    group_.symmetries->invert(x, inverse_);
    for (std::size_t k = 0; k < group_.symmetries->order(); ++k)
      if (smaller(k, inverse_)) return least;
    least.with_inverse = 1;
    return least;
  }

 private:
  // Whether S_k x S_k^-1, or any turn of it, ranks below the position.
  bool smaller(std::size_t k, const Arrangement& x) {
    group_.symmetries->conjugate(k, x, image_);
    if (space_.ranks_below(image_, coordinates_, scratch_)) return true;
    for (std::size_t t = 1; t < group_.turns.size(); ++t)
      if (below(image_, group_.turns[t])) return true;
    return false;
  }
  bool below(const Arrangement& x, const Arrangement& turn) {
    apply(sets_, x, turn, turned_);
    return space_.ranks_below(turned_, coordinates_, scratch_);
  }

  const TwistySpace& space_;
  const std::vector<PieceSet>& sets_;
  const ClassGroup& group_;
  Arrangement position_, image_, turned_, inverse_;
  std::vector<std::uint64_t> coordinates_;  // the position's
  Position scratch_;
};

// The classes among the states of one word of a level's bits (bit i: rank
// first + i).
LevelClasses check_word(ClassCheck& check, std::uint64_t bits, std::uint64_t first) {
  LevelClasses sum;
  for (; bits != 0; bits &= bits - 1)
    sum += check(first + static_cast<unsigned>(std::countr_zero(bits)));
  return sum;
}

}  // namespace

LevelClasses least_of_class(const TwistySpace& space, const ClassGroup& group, std::uint64_t rank) {
  return ClassCheck(space, group)(rank);
}

LevelClasses count_classes(const TwistySpace& space, const ClassGroup& group,
                           const bfs::LevelRows& level) {
  const std::uint32_t words = (space.columns() + 63) / 64;
  return parallel_sum<LevelClasses>(space.rows(), 1, [&](std::size_t begin, std::size_t end) {
    ClassCheck check(space, group);
    std::vector<bfs::Word> scratch(words);
    LevelClasses sum;
    for (auto row = static_cast<std::uint32_t>(begin); row != end; ++row) {
      if (level.count(row) == 0) continue;
      const bfs::Word* bits = level.row(row, scratch.data());
      for (std::uint32_t w = 0; w < words; ++w)
        sum += check_word(check, bits[w], std::uint64_t{row} * space.columns() + w * 64);
    }
    return sum;
  });
}

LevelClasses count_classes(const TwistySpace& space, const ClassGroup& group,
                           const AtomicBitmap& level, std::uint64_t first) {
  return parallel_sum<LevelClasses>(level.words(), 64, [&](std::size_t begin, std::size_t end) {
    ClassCheck check(space, group);
    LevelClasses sum;
    for (std::size_t w = begin; w != end; ++w)
      sum += check_word(check, level.load_word(w), first + w * 64);
    return sum;
  });
}

namespace {

// The ranks of the positions at most `depth` moves from solved, or fewer
// where they pass `most`.
std::unordered_set<std::uint64_t> near_solved(const TwistySpace& space, int depth,
                                              std::size_t most) {
  const Definition& def = space.definition();
  std::unordered_set<std::uint64_t> seen{space.solved_rank()};
  std::vector<Arrangement> frontier{def.solved}, next;
  for (int d = 0; d < depth && seen.size() < most; ++d) {
    next.clear();
    for (const Arrangement& x : frontier)
      for (const Move& move : space.move_list()) {
        Arrangement y = apply(def.sets, x, move.effect);
        if (seen.insert(space.rank(y)).second) next.push_back(std::move(y));
      }
    frontier.swap(next);
  }
  return seen;
}

}  // namespace

// A turn is most often a few moves (the 2x2x2's U D'): the candidates found
// near solved and their products are reached; a BFS over positions decides
// only where a candidate is left.
std::vector<Arrangement> whole_turns(const TwistySpace& space, const SymmetryGroup& group,
                                     bool positions_fit) {
  const Definition& def = space.definition();
  std::vector<Arrangement> turns{def.identity()};
  std::vector<std::pair<const Arrangement*, std::uint64_t>> candidates;  // turn, rank
  std::set<std::uint64_t> ranks{space.solved_rank()};                    // of solved and those
  for (const Arrangement& turn : group.turn_candidates())
    if (const Arrangement position = apply(def.sets, def.solved, turn); space.contains(position))
      if (const std::uint64_t rank = space.rank(position); ranks.insert(rank).second)
        candidates.emplace_back(&turn, rank);
  if (candidates.empty()) return turns;
  const std::unordered_set<std::uint64_t> near = near_solved(space, 3, 1 << 20);
  std::set<std::uint64_t> reached{space.solved_rank()};
  for (const auto& [turn, rank] : candidates)
    if (near.contains(rank)) reached.insert(rank);
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [a, rank_a] : candidates) {
      if (!reached.contains(rank_a)) continue;
      const Arrangement position = apply(def.sets, def.solved, *a);
      for (const auto& [b, rank_b] : candidates) {
        if (!reached.contains(rank_b)) continue;
        const std::uint64_t product = space.rank(apply(def.sets, position, *b));
        if (ranks.contains(product)) grew |= reached.insert(product).second;
      }
    }
  }
  if (reached.size() <= candidates.size()) {
    if (!positions_fit)
      throw InputError("--up-to-rotation", 0,
                       "a whole-puzzle turn is far from solved; whether the moves reach it is "
                       "found by a BFS over positions, which does not fit in --memory");
    std::unique_ptr<TwistySpace> with_tables;
    if (!space.has_tables()) with_tables = std::make_unique<TwistySpace>(def, space.move_list());
    const TwistySpace& searched = with_tables ? *with_tables : space;
    const std::uint64_t solved = space.solved_rank();
    const bfs::RowBfsResult all = bfs::row_bfs(searched, {&solved, 1});
    for (const auto& [turn, rank] : candidates)
      if (all.depths->depth_mod3(rank) >= 0) reached.insert(rank);
  }
  for (const auto& [turn, rank] : candidates)
    if (reached.contains(rank)) turns.push_back(*turn);
  return turns;
}

}  // namespace cubenum::twisty
