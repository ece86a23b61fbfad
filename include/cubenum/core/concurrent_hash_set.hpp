#pragma once
// A lock-free set of 64-bit keys: open addressing with linear probing over a
// power-of-two table of atomic slots, slot chosen by XXH3 of the key. Keys
// are packed states; the set never deletes and never grows (give it room:
// probing stays short below 50% load).
#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <stdexcept>

#include "cubenum/core/hash.hpp"

namespace cubenum {

class ConcurrentHashSet {
 public:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};  // not a valid key

  // Room for at least `capacity` keys at no more than half load.
  explicit ConcurrentHashSet(std::uint64_t capacity)
      : mask_(std::bit_ceil(2 * capacity + 2) - 1),
        slots_(new std::atomic<std::uint64_t>[mask_ + 1]) {
    for (std::uint64_t i = 0; i <= mask_; ++i) slots_[i].store(kEmpty, std::memory_order_relaxed);
  }

  // Adds `key`; true if this call added it.
  bool insert(std::uint64_t key) {
    for (std::uint64_t i = hash_u64(key) & mask_, probes = 0;; i = (i + 1) & mask_) {
      std::uint64_t seen = slots_[i].load(std::memory_order_relaxed);
      if (seen == kEmpty) {
        if (slots_[i].compare_exchange_strong(seen, key, std::memory_order_relaxed)) {
          size_.fetch_add(1, std::memory_order_relaxed);
          return true;
        }
      }
      if (seen == key) return false;
      if (++probes > mask_) throw std::length_error("ConcurrentHashSet is full");
    }
  }

  bool contains(std::uint64_t key) const {
    for (std::uint64_t i = hash_u64(key) & mask_;; i = (i + 1) & mask_) {
      const std::uint64_t seen = slots_[i].load(std::memory_order_relaxed);
      if (seen == key) return true;
      if (seen == kEmpty) return false;
    }
  }

  std::uint64_t size() const { return size_.load(std::memory_order_relaxed); }
  std::uint64_t slots() const { return mask_ + 1; }

 private:
  std::uint64_t mask_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> slots_;
  std::atomic<std::uint64_t> size_{0};
};

}  // namespace cubenum
