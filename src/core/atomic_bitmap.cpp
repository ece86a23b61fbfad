#include "cubenum/core/atomic_bitmap.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <cstdlib>
#include <functional>
#include <new>

namespace cubenum {

void AtomicBitmap::Free::operator()(Word* p) const { std::free(p); }

AtomicBitmap::AtomicBitmap(std::uint64_t bits)
    : bits_(bits), words_(static_cast<std::size_t>((bits + kWordBits - 1) / kWordBits)) {
  auto* p = static_cast<Word*>(std::calloc(words_ == 0 ? 1 : words_, sizeof(Word)));
  if (p == nullptr) throw std::bad_alloc();
  data_.reset(p);
}

std::uint64_t AtomicBitmap::count() const {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, words_, 1 << 14), std::uint64_t{0},
      [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t sum) {
        for (std::size_t w = r.begin(); w != r.end(); ++w) sum += std::popcount(load_word(w));
        return sum;
      },
      std::plus<>());
}

void AtomicBitmap::clear() {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, words_, 1 << 14),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t w = r.begin(); w != r.end(); ++w) store_word(w, 0);
                    });
}

}  // namespace cubenum
