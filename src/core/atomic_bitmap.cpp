#include "cubenum/core/atomic_bitmap.hpp"

#include <cstdint>
#include <cstdlib>
#include <new>

#include "cubenum/core/huge_pages.hpp"
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
  // A BFS level first touches a big bitmap anywhere.
  advise_huge_pages(p, words_ * sizeof(Word));
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
