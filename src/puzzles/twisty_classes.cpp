// Classes up to symmetry (and inversion, and whole-puzzle turns) among a
// level's positions: a position counts when its rank is the least of its
// orbit's.
#include <algorithm>
#include <bit>
#include <utility>
#include <vector>

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

std::vector<Arrangement> whole_turns(const TwistySpace& space, const SymmetryGroup& group) {
  const Definition& def = space.definition();
  std::vector<Arrangement> turns{def.identity()};
  std::vector<std::uint64_t> ranks{space.solved_rank()};
  std::vector<std::pair<const Arrangement*, std::uint64_t>> candidates;  // turn, rank
  for (const Arrangement& turn : group.turn_candidates())
    if (const Arrangement position = apply(def.sets, def.solved, turn); space.contains(position))
      candidates.emplace_back(&turn, space.rank(position));
  if (candidates.empty()) return turns;
  const std::uint64_t solved = space.solved_rank();
  const bfs::RowBfsResult reached = bfs::row_bfs(space, {&solved, 1});
  for (const auto& [turn, rank] : candidates) {
    if (reached.depths->depth_mod3(rank) < 0 ||
        std::find(ranks.begin(), ranks.end(), rank) != ranks.end())
      continue;
    ranks.push_back(rank);
    turns.push_back(*turn);
  }
  return turns;
}

}  // namespace cubenum::twisty
