#pragma once
// A dense bitmap over 64-bit words, one bit per ranked state, shared by all
// threads of a BFS level. Storage is plain words reached through
// std::atomic_ref, so a phase may use atomics (top-down BFS: many threads
// set bits anywhere) or plain word writes (bottom-up BFS: each thread owns
// whole words) on the same memory.
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace cubenum {

class AtomicBitmap {
 public:
  using Word = std::uint64_t;
  static constexpr unsigned kWordBits = 64;

  AtomicBitmap() = default;
  // All bits clear. Memory comes zeroed from the system (calloc), so even a
  // multi-gigabyte bitmap costs nothing until its pages are touched; from
  // 8 MiB up, in huge pages (2 MiB) where the system gives them.
  explicit AtomicBitmap(std::uint64_t bits);

  std::uint64_t bits() const { return bits_; }
  std::size_t words() const { return words_; }

  bool test(std::uint64_t i) const { return (load_word(i / kWordBits) >> (i % kWordBits)) & 1U; }

  // Sets bit i; true if this call set it (it was clear). A plain load comes
  // first: most neighbours in a BFS are already visited, and a load does not
  // take the cache line exclusive the way fetch_or does.
  bool try_set(std::uint64_t i) {
    const Word mask = Word{1} << (i % kWordBits);
    std::atomic_ref<Word> word(data_[i / kWordBits]);
    if (word.load(std::memory_order_relaxed) & mask) return false;
    return !(word.fetch_or(mask, std::memory_order_relaxed) & mask);
  }

  Word load_word(std::size_t w) const {
    return std::atomic_ref<Word>(data_[w]).load(std::memory_order_relaxed);
  }
  // Asks for word w's cache line ahead of a load.
  void prefetch(std::size_t w) const { __builtin_prefetch(&data_[w]); }
  // ORs `bits` into word w; returns the word before.
  Word fetch_or_word(std::size_t w, Word bits) {
    return std::atomic_ref<Word>(data_[w]).fetch_or(bits, std::memory_order_relaxed);
  }
  // For phases where one thread owns word w.
  void store_word(std::size_t w, Word value) {
    std::atomic_ref<Word>(data_[w]).store(value, std::memory_order_relaxed);
  }

  // Number of set bits; parallel over words.
  std::uint64_t count() const;
  // Clears every bit; parallel over words.
  void clear();

  // The words as bytes, for checkpoints (no thread may be writing).
  std::span<std::byte> bytes() {
    return {reinterpret_cast<std::byte*>(data_.get()), words_ * sizeof(Word)};
  }
  std::span<const std::byte> bytes() const {
    return {reinterpret_cast<const std::byte*>(data_.get()), words_ * sizeof(Word)};
  }

  void swap(AtomicBitmap& other) noexcept {
    std::swap(bits_, other.bits_);
    std::swap(words_, other.words_);
    data_.swap(other.data_);
  }

 private:
  struct Free {
    void operator()(Word* p) const;
  };
  std::uint64_t bits_ = 0;
  std::size_t words_ = 0;
  std::unique_ptr<Word[], Free> data_;
};

}  // namespace cubenum
