#include "cubenum/core/atomic_bitmap.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>

#include "cubenum/core/parallel.hpp"

namespace cubenum {

void AtomicBitmap::Free::operator()(Word* p) const {
  std::free(p);
}

AtomicBitmap::AtomicBitmap(std::uint64_t bits)
    : bits_(bits), words_(static_cast<std::size_t>((bits + kWordBits - 1) / kWordBits)) {
  auto* p = static_cast<Word*>(std::calloc(words_ == 0 ? 1 : words_, sizeof(Word)));
  if (p == nullptr) throw std::bad_alloc();
  data_.reset(p);
  // A big bitmap is first touched and then read at random: in huge pages,
  // one page fault per 2 MiB instead of per 4 KiB, and far fewer TLB
  // misses. A small one is not worth whole 2 MiB pages.
  if (words_ * sizeof(Word) >= (std::size_t{8} << 20)) advise_huge_pages();
}

void AtomicBitmap::advise_huge_pages() {
  constexpr std::uintptr_t kHuge = std::uintptr_t{1} << 21;
  const auto begin = (reinterpret_cast<std::uintptr_t>(data_.get()) + kHuge - 1) & ~(kHuge - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data_.get() + words_)) & ~(kHuge - 1);
  // Advice only: where the system has none to give, the pages stay small.
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

std::uint64_t AtomicBitmap::count() const {
  return parallel_sum<std::uint64_t>(words_, 1 << 14, [&](std::size_t b, std::size_t e) {
    std::uint64_t sum = 0;
    for (std::size_t w = b; w != e; ++w)
      sum += static_cast<std::uint64_t>(std::popcount(load_word(w)));
    return sum;
  });
}

void AtomicBitmap::clear() {
  parallel_for_chunks(words_, 1 << 14, [&](std::size_t b, std::size_t e) {
    for (std::size_t w = b; w != e; ++w) store_word(w, 0);
  });
}

}  // namespace cubenum
