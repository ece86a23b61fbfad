// The core building blocks: ranking and the lock-free structures.
#include <benchmark/benchmark.h>

#include <array>
#include <numeric>

#include "cubenum/core/atomic_bitmap.hpp"
#include "cubenum/core/concurrent_hash_set.hpp"
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

}  // namespace
