#include <gtest/gtest.h>
#include <tbb/parallel_for.h>

#include "cubenum/core/atomic_bitmap.hpp"
#include "cubenum/core/concurrent_hash_set.hpp"

namespace cubenum {
namespace {

TEST(AtomicBitmap, EachBitIsClaimedExactlyOnce) {
  AtomicBitmap bits(100003);
  std::atomic<std::uint64_t> claimed{0};
  // Every index is set from four places at once; exactly one wins each.
  tbb::parallel_for(std::uint64_t{0}, std::uint64_t{4 * 100003}, [&](std::uint64_t i) {
    if (bits.try_set(i % 100003)) claimed.fetch_add(1, std::memory_order_relaxed);
  });
  EXPECT_EQ(claimed.load(), 100003U);
  EXPECT_EQ(bits.count(), 100003U);
  EXPECT_TRUE(bits.test(100002));
  bits.clear();
  EXPECT_EQ(bits.count(), 0U);
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
  tbb::parallel_for(std::uint64_t{0}, std::uint64_t{200000}, [&](std::uint64_t i) {
    if (set.insert((i % 50000) * 7919)) inserted.fetch_add(1, std::memory_order_relaxed);
  });
  EXPECT_EQ(inserted.load(), 50000U);
  EXPECT_EQ(set.size(), 50000U);
  EXPECT_TRUE(set.contains(7919));
  EXPECT_FALSE(set.contains(7920));
}

}  // namespace
}  // namespace cubenum
