// The core building blocks: ranking, the lock-free structures, bit permutations.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <random>
#include <vector>

#include "cubenum/core/atomic_bitmap.hpp"
#include "cubenum/core/bit_permutation.hpp"
#include "cubenum/core/concurrent_hash_set.hpp"
#include "cubenum/core/digit_shift.hpp"
#include "cubenum/core/ranking.hpp"

namespace {

void BM_PermutationRankRoundTrip12(benchmark::State& state) {
  std::array<std::uint8_t, 12> p{};
  std::uint64_t r = 12345;
  for (auto _ : state) {
    cubenum::permutation_unrank(r, p);
    r = (cubenum::permutation_rank(p) + 7919) % cubenum::factorial(12);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PermutationRankRoundTrip12);

// A multiset's rank and back: 9 labels with counts 1, 1, 7 (turnfour's
// first pieces part: two tiles and the rest) and 12 with 4, 4, 4.
void BM_MultisetRankRoundTrip(benchmark::State& state) {
  const std::vector<std::uint8_t> counts =
      state.range(0) == 9 ? std::vector<std::uint8_t>{1, 1, 7} : std::vector<std::uint8_t>{4, 4, 4};
  const std::uint64_t size = cubenum::multinomial(counts);
  std::vector<std::uint8_t> labels(static_cast<std::size_t>(state.range(0))), left(counts.size());
  std::uint64_t r = 12345 % size;
  for (auto _ : state) {
    left = counts;
    cubenum::multiset_unrank(r, left, labels);
    left = counts;
    r = (cubenum::multiset_rank(labels, left) + 7919) % size;
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MultisetRankRoundTrip)->Arg(9)->Arg(12);

void BM_AtomicBitmapTrySet(benchmark::State& state) {
  cubenum::AtomicBitmap bits(1 << 24);
  std::uint64_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(bits.try_set(i));
    i = (i + 0x9E3779B1) & ((1 << 24) - 1);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AtomicBitmapTrySet);

void BM_ConcurrentHashSetInsert(benchmark::State& state) {
  cubenum::ConcurrentHashSet set(1 << 22);
  std::uint64_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(set.insert(i & ((1 << 22) - 1)));
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ConcurrentHashSetInsert);

// A random permutation of N bits (padded to a power of two) applied to a
// bitset of N bits, a quarter of them set: the product BFS's whole-row move.
void BM_BitPermutationApply(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  std::vector<std::uint32_t> to(n);
  std::iota(to.begin(), to.end(), 0U);
  std::mt19937_64 random(1);
  std::shuffle(to.begin(), to.end(), random);
  const cubenum::BitPermutation permutation(to);
  std::vector<std::uint64_t> bits(permutation.words());
  for (auto& word : bits) word = random() & random();
  for (auto _ : state) {
    permutation.apply(bits.data());
    benchmark::DoNotOptimize(bits.data());
  }
}
BENCHMARK(BM_BitPermutationApply)->Arg(64)->Arg(256)->Arg(729)->Arg(2187)->Arg(40320)->Arg(65536);

void BM_BitPermutationBuild729(benchmark::State& state) {
  std::vector<std::uint32_t> to(729);
  std::iota(to.begin(), to.end(), 0U);
  std::mt19937_64 random(1);
  std::shuffle(to.begin(), to.end(), random);
  for (auto _ : state) benchmark::DoNotOptimize(cubenum::BitPermutation(to));
}
BENCHMARK(BM_BitPermutationBuild729)->Unit(benchmark::kMicrosecond);

// Adding a vector with `k` non-zero digits to every column of a row of 729
// (3^6) bits, a quarter of them set, in place: the shift BFS's whole-row
// move (the pocket cube's R and F turns add 3 or 4 non-zero twists).
void BM_DigitShiftApply729(benchmark::State& state) {
  using Shift = cubenum::DigitShift<3, 6>;
  const Shift shift;
  std::uint32_t vector = 0;
  for (std::int64_t digit = 0, place = 1; digit < state.range(0); ++digit, place *= 3)
    vector += static_cast<std::uint32_t>(place) * (1 + static_cast<std::uint32_t>(digit % 2));
  std::mt19937_64 random(1);
  std::vector<std::uint64_t> words(16, 0);
  for (std::uint32_t w = 0; w < Shift::kRowWords; ++w) words[w] = random() & random();
  Shift::Row row;
  Shift::load(words.data(), row);
  for (auto _ : state) {
    shift.apply(vector, row);
    benchmark::DoNotOptimize(&row);
  }
}
BENCHMARK(BM_DigitShiftApply729)->Arg(1)->Arg(3)->Arg(4)->Arg(6);

}  // namespace
