#pragma once
// How PlateLayers keeps a layer (private to src/search, included by
// plate_layers.cpp alone): the counts' checked arithmetic, a state's key,
// its slot wide or compact, a layer's map in locked shards, and a worker's
// batches for them.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "cubenum/core/hash.hpp"
#include "cubenum/search/plate_layers.hpp"

namespace cubenum::search {
namespace {  // as in plate_layers.cpp, the one file that includes this

[[noreturn]] void too_many() {
  throw std::overflow_error("the count passes 2^128 - 1 assemblies");
}
LayerCount times(LayerCount a, LayerCount b) {
  LayerCount p = 0;
  if (__builtin_mul_overflow(a, b, &p)) too_many();
  return p;
}
LayerCount plus(LayerCount a, LayerCount b) {
  LayerCount s = 0;
  if (__builtin_add_overflow(a, b, &s)) too_many();
  return s;
}

// A layer's state: the covered frontier cells (bit i: the i-th frontier
// cell in cell order) and the copies left (a bit field per kind).
struct Key {
  std::uint64_t covered, left;
  friend bool operator==(const Key&, const Key&) = default;
};

// How a layer keeps a state and its count. Wide: as they are (32 bytes).
// Compact where they fit (16 bytes): the covered cells and the copies left
// packed in one word (the copies above bit `shift`), the count in 64 bits;
// a count that passes them marks the layer, and the count starts over wide.
struct WideSlot {
  Key key;
  LayerCount count;
  static WideSlot make(const Key& k, LayerCount c, int, bool&) { return {k, c}; }
  Key state(int) const { return key; }
  LayerCount value() const { return count; }
  void add(LayerCount c, bool&) { count = plus(count, c); }
  bool operator==(const WideSlot& o) const { return key == o.key; }
  std::uint64_t hash() const { return hash_bytes(&key, sizeof key); }
};
struct CompactSlot {
  std::uint64_t key, count;
  static CompactSlot make(const Key& k, LayerCount c, int shift, bool& overflow) {
    overflow = overflow || c > std::numeric_limits<std::uint64_t>::max();
    return {k.covered | k.left << shift, static_cast<std::uint64_t>(c)};
  }
  Key state(int shift) const {
    return {shift == 0 ? 0 : key & (~std::uint64_t{0} >> (64 - shift)), key >> shift};
  }
  LayerCount value() const { return count; }
  void add(LayerCount c, bool& overflow) {
    overflow = overflow || c > std::numeric_limits<std::uint64_t>::max() ||
               __builtin_add_overflow(count, static_cast<std::uint64_t>(c), &count);
  }
  bool operator==(const CompactSlot& o) const { return key == o.key; }
  std::uint64_t hash() const { return hash_u64(key); }
};

// One layer's states and their counts, open addressing (a count is never 0).
template <class Slot>
class LayerMap {
 public:
  LayerMap() : slots_(64) {}
  void add(const Slot& slot) {
    if (4 * (size_ + 1) > 3 * slots_.size()) grow();  // linear probing stays short at 3/4
    insert(slot);
  }
  std::size_t size() const { return size_; }
  bool overflowed() const { return overflow_; }
  template <class Body>
  void for_each(Body&& body) const {
    for (const Slot& e : slots_)
      if (e.count != 0) body(e);
  }
  void clear() {
    std::vector<Slot>().swap(slots_);
    size_ = 0;
  }

 private:
  void insert(const Slot& slot) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = slot.hash() & mask;; i = (i + 1) & mask) {
      Slot& e = slots_[i];
      if (e.count == 0) {
        e = slot;
        ++size_;
        return;
      }
      if (e == slot) {
        e.add(slot.value(), overflow_);
        return;
      }
    }
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    size_ = 0;
    for (const Slot& e : old)
      if (e.count != 0) insert(e);
  }
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
  bool overflow_ = false;
};

// A layer in shards by the key's hash, each with its lock: the workers
// expanding the layer before add to it in batches.
constexpr std::size_t kShards = 256;
template <class Slot>
struct Layer {
  std::vector<LayerMap<Slot>> shards{kShards};
  std::vector<std::mutex> locks{kShards};
  static std::size_t shard_of(const Slot& slot) {
    return hash_u64(slot.hash() * 0x9e3779b97f4a7c15ULL) % kShards;
  }
  std::uint64_t size() const {
    std::uint64_t n = 0;
    for (const auto& m : shards) n += m.size();
    return n;
  }
  bool overflowed() const {
    return std::any_of(shards.begin(), shards.end(), [](const auto& m) { return m.overflowed(); });
  }
};

// A worker's batches for the shards of the next layer.
template <class Slot>
class LayerWriter {
 public:
  LayerWriter(Layer<Slot>& to, int shift) : to_(to), shift_(shift), batches_(kShards) {}
  ~LayerWriter() { flush_all(); }
  void add(const Key& key, LayerCount count) {
    const Slot slot = Slot::make(key, count, shift_, overflow_);
    const std::size_t s = Layer<Slot>::shard_of(slot);
    batches_[s].push_back(slot);
    if (batches_[s].size() == 256) flush(s);
  }
  void flush_all() {
    for (std::size_t s = 0; s < kShards; ++s) flush(s);
  }
  bool overflowed() const { return overflow_; }

 private:
  void flush(std::size_t s) {
    if (batches_[s].empty()) return;
    const std::lock_guard lock(to_.locks[s]);
    for (const Slot& e : batches_[s]) to_.shards[s].add(e);
    batches_[s].clear();
  }
  Layer<Slot>& to_;
  int shift_;
  bool overflow_ = false;
  std::vector<std::vector<Slot>> batches_;
};

}  // namespace
}  // namespace cubenum::search
