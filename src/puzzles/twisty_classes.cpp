// Classes up to symmetry (and inversion) among a level's positions: a
// position counts when its rank is the least of its orbit's.
#include <bit>
#include <vector>

#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/twisty_search.hpp"

namespace cubenum::twisty {
namespace {

// The images of one position, in reused arrangements (one per thread).
class ClassCheck {
 public:
  ClassCheck(const TwistySpace& space, const SymmetryGroup& group)
      : space_(space),
        group_(group),
        position_(space.definition().solved),
        image_(position_),
        inverse_(position_) {}

  LevelClasses operator()(std::uint64_t rank) {
    Arrangement& x = position_;
    space_.unrank(rank, x, scratch_);
    for (std::size_t k = 1; k < group_.order(); ++k)
      if (smaller(k, x, rank)) return {};
    LevelClasses least{1, 0};
    if (!group_.inverse()) return least;
    group_.invert(x, inverse_);
    for (std::size_t k = 0; k < group_.order(); ++k)
      if (smaller(k, inverse_, rank)) return least;
    least.with_inverse = 1;
    return least;
  }

 private:
  bool smaller(std::size_t k, const Arrangement& x, std::uint64_t rank) {
    group_.conjugate(k, x, image_);
    return space_.rank_member(image_, scratch_) < rank;
  }

  const TwistySpace& space_;
  const SymmetryGroup& group_;
  Arrangement position_, image_, inverse_;
  Position scratch_;
};

}  // namespace

LevelClasses least_of_class(const TwistySpace& space, const SymmetryGroup& group,
                            std::uint64_t rank) {
  return ClassCheck(space, group)(rank);
}

LevelClasses count_classes(const TwistySpace& space, const SymmetryGroup& group,
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
        for (bfs::Word b = bits[w]; b != 0; b &= b - 1)
          sum += check(std::uint64_t{row} * space.columns() + w * 64 +
                       static_cast<unsigned>(std::countr_zero(b)));
    }
    return sum;
  });
}

}  // namespace cubenum::twisty
