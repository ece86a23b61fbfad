// The row engine, on both its kinds of adapted spaces (ProductRows: a
// move's permutation of the columns the same on every row; ShiftRows: a
// vector added to the columns' digits) and on all its storages, agrees
// with layer counts known in closed form, with the generic frontier_bfs
// (an engine that knows nothing of rows), and with itself in every
// direction and at any thread count; it finds the move families it builds
// dense levels by, and refuses spaces it cannot run.
#include "cubenum/bfs/row_bfs.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <stdexcept>

#include "cubenum/bfs/frontier_bfs.hpp"
#include "cubenum/bfs/row_policies.hpp"
#include "toy_spaces.hpp"

namespace cubenum {
namespace {

// Rows with moves given as tables, each (row, move) adding a column to the
// column digit by digit.
template <unsigned Radix, unsigned Digits>
struct ShiftToy {
  static constexpr unsigned kRadix = Radix, kDigits = Digits;
  using Shift = DigitShift<Radix, Digits>;
  std::uint32_t row_count = 0;
  std::vector<std::vector<std::uint32_t>> row_moves, shifts;  // [move][row]

  std::uint32_t rows() const { return row_count; }
  int moves() const { return static_cast<int>(row_moves.size()); }
  std::uint32_t row_step(std::uint32_t r, int m) const {
    return row_moves[static_cast<std::size_t>(m)][r];
  }
  std::uint32_t shift(std::uint32_t r, int m) const {
    return shifts[static_cast<std::size_t>(m)][r];
  }

  // The same graph for frontier_bfs.
  std::uint64_t size() const { return std::uint64_t{row_count} * Shift::kColumns; }
  template <class Visit>
  bool for_each_neighbour(std::uint64_t rank, Visit&& visit) const {
    const auto r = static_cast<std::uint32_t>(rank / Shift::kColumns);
    const auto c = static_cast<std::uint32_t>(rank % Shift::kColumns);
    for (int m = 0; m < moves(); ++m)
      if (visit(std::uint64_t{row_step(r, m)} * Shift::kColumns + Shift::sum(c, shift(r, m))))
        return true;
    return false;
  }
};

using testing::kStorageNames;
using testing::ProductToy;

// The distributions of every storage's run, checked against `expected`.
template <class Space>
void expect_levels(const Space& space, bfs::DirectionPolicy policy, int threads,
                   const std::vector<std::uint64_t>& expected, const std::string& what,
                   bool* cycled = nullptr) {
  const auto runs = testing::run_rows(space, policy, threads);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i].distribution(), expected)
        << what << ", " << kStorageNames[i] << ", policy " << static_cast<int>(policy) << ", "
        << threads << " threads";
    if (cycled != nullptr)
      for (const auto& level : runs[i].levels) *cycled |= level.work.cycled != 0;
  }
}

// ---- ProductRows

TEST(ProductRows, TorusLayersAreSumsOfCyclicDistances) {
  // 201 columns: four words a row, the last one partly padding.
  for (auto [a, b] : {std::pair{9U, 201U}, std::pair{1U, 64U}, std::pair{6U, 7U}}) {
    const bfs::ProductRows space(testing::torus(a, b));
    for (auto policy : testing::kPolicies)
      for (int threads : {1, 2, 4})
        expect_levels(space, policy, threads, testing::torus_layers(a, b),
                      std::to_string(a) + "x" + std::to_string(b));
  }
}

TEST(ProductRows, SwapPairsGiveConvolvedMahonianRows) {
  // 120 rows x 720 columns (12 words a row, like the pocket cube's twists).
  const bfs::ProductRows space(testing::swap_pairs<5, 6>());
  const auto expected = testing::convolve(testing::mahonian(5), testing::mahonian(6));
  for (auto policy : testing::kPolicies)
    for (int threads : {1, 2, 3}) expect_levels(space, policy, threads, expected, "5! x 6!");
}

TEST(ProductRows, MoveCyclesGiveTheSameLevelsAsFrontierBfs) {
  for (std::uint64_t seed : {1, 2, 3}) {
    const ProductToy toy = testing::cycle_families(600, seed);
    const std::uint64_t source = 0;
    const auto expected = bfs::frontier_bfs(toy, {&source, 1}).distribution();
    bool cycled = false;
    for (auto policy : testing::kPolicies)
      for (int threads : {1, 2, 3})
        expect_levels(bfs::ProductRows(toy), policy, threads, expected,
                      "seed " + std::to_string(seed), &cycled);
    EXPECT_TRUE(cycled) << "seed " << seed << ": no level went by move cycles";
  }
}

TEST(ProductRows, FindsMoveCyclesOnlyWhereEveryPowerIsAMove) {
  const auto families = bfs::detail::families_of(bfs::ProductRows(testing::cycle_families(40, 1)));
  ASSERT_EQ(families.size(), 2U);
  for (const auto& family : families) {
    EXPECT_EQ(family.order, 4U);
    EXPECT_EQ(family.cycles(), 4U);  // 16 rows in cycles of 4
  }
  // Steps of one (and their inverses) have no half steps among the moves.
  EXPECT_TRUE(bfs::detail::families_of(bfs::ProductRows(testing::torus(8, 8))).empty());
}

TEST(ProductRows, RowsOfMoreThan1024ColumnsAreRefused) {
  EXPECT_THROW(bfs::ProductRows(testing::torus(2, 1025)), std::length_error);
  for (const auto& run :
       testing::run_rows(bfs::ProductRows(testing::torus(2, 1024)), bfs::DirectionPolicy::Auto, 1))
    EXPECT_EQ(run.reached, 2048U);
}

TEST(ProductRows, OnLevelSeesEachLevelsStates) {
  const bfs::ProductRows space(testing::torus(5, 130));
  std::vector<std::uint64_t> seen;
  bfs::RowBfsOptions options;
  options.on_level = [&](const bfs::RowLevel& level, const bfs::LevelRows& states) {
    EXPECT_EQ(level.depth, seen.size());
    std::vector<bfs::Word> scratch(3);
    std::uint64_t count = 0;
    for (std::uint32_t r = 0; r < space.rows(); ++r) {
      if (states.count(r) == 0) continue;
      const bfs::Word* row = states.row(r, scratch.data());
      for (std::uint32_t w = 0; w < 3; ++w)
        count += static_cast<std::uint64_t>(std::popcount(row[w]));
    }
    seen.push_back(count);
  };
  const std::uint64_t source = 0;
  bfs::row_bfs<bfs::PlaneRows>(space, {&source, 1}, options);
  EXPECT_EQ(seen, testing::torus_layers(5, 130));
  seen.clear();
  options.codes = bfs::RowCodes::Frontier;
  bfs::row_bfs<bfs::TwoBitRows>(space, {&source, 1}, options);
  EXPECT_EQ(seen, testing::torus_layers(5, 130));
}

// ---- ShiftRows

// A cycle of `a` rows times Z_3^5: one move steps the row, the others add
// +1 or -1 to one digit. The distance of (r, c) is r's cyclic distance plus
// the number of non-zero digits, so the layers convolve the cycle's with
// (1, 2)^5.
TEST(ShiftRows, CycleTimesDigitsHasConvolvedLayers) {
  for (std::uint32_t a : {1U, 2U, 7U}) {
    ShiftToy<3, 5> toy{a, {}, {}};
    std::vector<std::uint32_t> step(a), stay(a);
    for (std::uint32_t r = 0; r < a; ++r) step[r] = (r + 1) % a, stay[r] = r;
    toy.row_moves = {step, std::vector<std::uint32_t>(a)};
    for (std::uint32_t r = 0; r < a; ++r) toy.row_moves[1][step[r]] = r;  // the step back
    toy.shifts.assign(2, std::vector<std::uint32_t>(a, 0));
    for (std::uint32_t place = 1; place < 243; place *= 3)
      for (std::uint32_t amount : {1U, 2U}) {
        toy.row_moves.push_back(stay);
        toy.shifts.emplace_back(a, amount * place);
      }
    std::vector<std::uint64_t> expected(a / 2 + 1, 0);
    for (std::uint32_t r = 0; r < a; ++r) ++expected[std::min(r, a - r)];
    for (int digit = 0; digit < 5; ++digit) expected = testing::convolve(expected, {1, 2});
    const bfs::ShiftRows<3, 5> space(toy);
    for (auto policy : testing::kPolicies)
      for (int threads : {1, 2, 4})
        expect_levels(space, policy, threads, expected, std::to_string(a) + " rows");
  }
}

// Two generators whose row cycles all have length 4 (random 4-cycles of 48
// rows), each present with the given powers. g adds a random column, except
// that around each cycle the columns added sum to zero, and g^j adds what j
// steps of g add: so g^4 is the identity, g^3 undoes g and the graph is
// undirected (frontier_bfs's bottom-up direction needs that). Like face
// turns, without the structure that makes the pocket cube's terms coincide.
ShiftToy<3, 5> families_of(const std::vector<std::uint32_t>& powers, std::uint64_t seed) {
  using Shift = DigitShift<3, 5>;
  constexpr std::uint32_t kRows = 48;
  std::mt19937_64 random(seed);
  ShiftToy<3, 5> toy{kRows, {}, {}};
  for (int generator = 0; generator < 2; ++generator) {
    std::vector<std::uint32_t> order = testing::identity_map(kRows), g(kRows), adds(kRows);
    std::shuffle(order.begin(), order.end(), random);
    for (std::uint32_t i = 0; i < kRows; i += 4) {
      std::uint32_t total = 0;
      for (std::uint32_t k = 0; k < 4; ++k) {
        g[order[i + k]] = order[i + (k + 1) % 4];
        adds[order[i + k]] =
            k < 3 ? static_cast<std::uint32_t>(random() % Shift::kColumns) : Shift::negation(total);
        total = Shift::sum(total, adds[order[i + k]]);
      }
    }
    for (std::uint32_t j : powers) {
      std::vector<std::uint32_t> to = testing::identity_map(kRows), shift(kRows, 0);
      for (std::uint32_t k = 0; k < j; ++k)
        for (std::uint32_t r = 0; r < kRows; ++r) {
          shift[r] = Shift::sum(shift[r], adds[to[r]]);
          to[r] = g[to[r]];
        }
      toy.row_moves.push_back(to);
      toy.shifts.push_back(shift);
    }
  }
  return toy;
}

TEST(ShiftRows, MoveFamiliesGiveTheSameLevelsAsFrontierBfs) {
  for (const std::vector<std::uint32_t>& powers :
       {std::vector<std::uint32_t>{1, 2, 3}, std::vector<std::uint32_t>{1, 3}}) {
    for (std::uint64_t seed : {1, 2, 3}) {
      const auto toy = families_of(powers, seed);
      const std::uint64_t source = 0;
      const auto expected = bfs::frontier_bfs(toy, {&source, 1}).distribution();
      bool cycled = false;
      const bfs::ShiftRows<3, 5> space(toy);
      for (auto policy : testing::kPolicies)
        for (int threads : {1, 2, 3})
          expect_levels(space, policy, threads, expected, "seed " + std::to_string(seed), &cycled);
      EXPECT_TRUE(cycled) << "seed " << seed << ": no level was built by cycles";
    }
  }
}

TEST(ShiftRows, FindsFamiliesOfPowersOfOneMove) {
  const auto families = bfs::detail::families_of(bfs::ShiftRows<3, 5>(families_of({1, 2, 3}, 7)));
  ASSERT_EQ(families.size(), 2U);
  for (const auto& family : families) {
    EXPECT_EQ(family.order, 4U);
    EXPECT_EQ(family.cycles(), 12U);
    EXPECT_EQ(family.powers, (std::vector<std::uint32_t>{1, 2, 3}));
  }
  // Rows that a move fixes (a cycle of length 1): no families, rows only.
  auto fixed = families_of({1, 2, 3}, 7);
  fixed.row_moves.push_back(testing::identity_map(48));
  fixed.shifts.emplace_back(48, 1);
  fixed.row_moves.push_back(testing::identity_map(48));  // and its inverse
  fixed.shifts.emplace_back(48, 2);
  EXPECT_TRUE(bfs::detail::families_of(bfs::ShiftRows<3, 5>(fixed)).empty());
}

TEST(ShiftRows, RefusesMovesWithoutInversesAndShiftsThatAreNotColumns) {
  auto adapt = [](const ShiftToy<3, 5>& toy) { return bfs::ShiftRows<3, 5>(toy); };
  auto toy = families_of({1, 3}, 1);
  toy.row_moves[0][0] = toy.row_moves[0][1];  // not a permutation: nothing undoes it
  EXPECT_THROW(adapt(toy), std::invalid_argument);
  toy = families_of({1, 3}, 1);
  toy.shifts[1][5] = 243;
  EXPECT_THROW(adapt(toy), std::invalid_argument);
}

}  // namespace
}  // namespace cubenum
