#include <gtest/gtest.h>

#include "cubenum/core/atomic_bitmap.hpp"
#include "cubenum/core/concurrent_hash_set.hpp"
#include "cubenum/core/parallel.hpp"

namespace cubenum {
namespace {

TEST(AtomicBitmap, EachBitIsClaimedExactlyOnce) {
  AtomicBitmap bits(100003);
  std::atomic<std::uint64_t> claimed{0};
  // Every index is set from four places at once; exactly one wins each.
  parallel_for_chunks(4 * 100003, 1000, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i != end; ++i)
      if (bits.try_set(i % 100003)) claimed.fetch_add(1, std::memory_order_relaxed);
  });
  EXPECT_EQ(claimed.load(), 100003U);
  EXPECT_EQ(bits.count(), 100003U);
  EXPECT_TRUE(bits.test(100002));
  bits.clear();
  EXPECT_EQ(bits.count(), 0U);
}

TEST(PerWorker, SumsAreIndependentOfThreadCount) {
  for (int threads : {1, 2, 4}) {
    cubenum::ThreadLimit limit(threads);
    const auto sum = parallel_sum<std::uint64_t>(100000, 100, [](std::size_t b, std::size_t e) {
      std::uint64_t s = 0;
      for (std::size_t i = b; i != e; ++i) s += i;
      return s;
    });
    EXPECT_EQ(sum, 100000ULL * 99999 / 2);  // Gauss
  }
}

TEST(AtomicBitmap, SizeAndWords) {
  AtomicBitmap bits(65);
  EXPECT_EQ(bits.words(), 2U);
  EXPECT_FALSE(bits.test(64));
  EXPECT_TRUE(bits.try_set(64));
  EXPECT_FALSE(bits.try_set(64));
  EXPECT_EQ(bits.load_word(1), 1U);
}

TEST(ConcurrentHashSet, EachKeyIsInsertedExactlyOnce) {
  ConcurrentHashSet set(50000);
  std::atomic<std::uint64_t> inserted{0};
  parallel_for_chunks(200000, 1000, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i != end; ++i)
      if (set.insert((i % 50000) * 7919)) inserted.fetch_add(1, std::memory_order_relaxed);
  });
  EXPECT_EQ(inserted.load(), 50000U);
  EXPECT_EQ(set.size(), 50000U);
  EXPECT_TRUE(set.contains(7919));
  EXPECT_FALSE(set.contains(7920));
}

}  // namespace
}  // namespace cubenum
