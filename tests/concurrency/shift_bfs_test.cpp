// shift_bfs agrees with layer counts known in closed form, with the generic
// frontier_bfs (an engine that knows nothing of rows or shifts), and with
// itself in every direction and at any thread count; it finds the move
// families it gathers dense levels by, and refuses spaces it cannot run.
#include "cubenum/bfs/shift_bfs.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <random>
#include <stdexcept>

#include "cubenum/bfs/frontier_bfs.hpp"
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

using testing::kPolicies;

template <class Toy>
bfs::ProductBfsResult run(const Toy& toy, bfs::DirectionPolicy policy, int threads) {
  return testing::run_rows([](const auto&... a) { return bfs::shift_bfs(a...); }, toy, policy,
                           threads);
}

// A cycle of `a` rows times Z_3^5: one move steps the row, the others add
// +1 or -1 to one digit. The distance of (r, c) is r's cyclic distance plus
// the number of non-zero digits, so the layers convolve the cycle's with
// (1, 2)^5.
TEST(ShiftBfs, CycleTimesDigitsHasConvolvedLayers) {
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
    for (auto policy : kPolicies)
      for (int threads : {1, 2, 4})
        EXPECT_EQ(run(toy, policy, threads).distribution(), expected)
            << a << " rows, policy " << static_cast<int>(policy) << ", " << threads << " threads";
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

TEST(ShiftBfs, MoveFamiliesGiveTheSameLevelsAsFrontierBfs) {
  for (const std::vector<std::uint32_t>& powers :
       {std::vector<std::uint32_t>{1, 2, 3}, std::vector<std::uint32_t>{1, 3}}) {
    for (std::uint64_t seed : {1, 2, 3}) {
      const auto toy = families_of(powers, seed);
      const std::uint64_t source = 0;
      const auto expected = bfs::frontier_bfs(toy, {&source, 1}).distribution();
      bool cycled = false;
      for (auto policy : kPolicies)
        for (int threads : {1, 2, 3}) {
          const auto result = run(toy, policy, threads);
          EXPECT_EQ(result.distribution(), expected)
              << "seed " << seed << ", policy " << static_cast<int>(policy) << ", " << threads;
          for (const auto& level : result.levels) cycled |= level.work.cycled != 0;
        }
      EXPECT_TRUE(cycled) << "seed " << seed << ": no level was built by cycles";
    }
  }
}

TEST(ShiftBfs, FindsFamiliesOfPowersOfOneMove) {
  const bfs::detail::ShiftTables<3, 5> tables(families_of({1, 2, 3}, 7));
  ASSERT_EQ(tables.families.size(), 2U);
  for (const auto& family : tables.families) {
    EXPECT_EQ(family.order, 4U);
    EXPECT_EQ(family.cycles(), 12U);
    EXPECT_EQ(family.powers, (std::vector<std::uint32_t>{1, 2, 3}));
  }
  // Rows that a move fixes (a cycle of length 1): no families, rows only.
  auto fixed = families_of({1, 2, 3}, 7);
  fixed.row_moves.push_back(testing::identity_map(48));
  fixed.shifts.emplace_back(48, 1);
  EXPECT_TRUE((bfs::detail::ShiftTables<3, 5>(fixed).families.empty()));
}

TEST(ShiftBfs, RefusesMovesThatAreNotPermutationsAndShiftsThatAreNotColumns) {
  auto toy = families_of({1}, 1);
  toy.row_moves[0][0] = toy.row_moves[0][1];
  EXPECT_THROW(run(toy, bfs::DirectionPolicy::Auto, 1), std::invalid_argument);
  toy = families_of({1}, 1);
  toy.shifts[1][5] = 243;
  EXPECT_THROW(run(toy, bfs::DirectionPolicy::Auto, 1), std::invalid_argument);
}

}  // namespace
}  // namespace cubenum
