#pragma once
// The distinct piece selections of a count (each a sorted list of kinds, all
// of one length: the surface's faces), in an open-addressed table that keeps
// each selection's hash and kinds in flat arrays. A count inserts the
// selection of every canonical solution: 52 million inserts of 610,000
// distinct selections on the 2x1x1 from 36 pieces, where a node-based
// std::unordered_set of vectors took a sixth of the whole count.
// The table is split by hash into 64 shards that grow one at a time, so
// that a set of gigabytes grows by a sixty-fourth, not by doubling all at
// once (a count's memory guard, which watches the process grow, would not
// see a doubling coming before it ran the machine out of memory).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace cubenum::search {

class SelectionSet {
 public:
  // True when `kinds` was not in the set. Every selection of a set has the
  // same length (std::invalid_argument otherwise).
  bool insert(std::span<const std::uint16_t> kinds);
  bool insert(const std::vector<std::uint16_t>& kinds) {
    return insert(std::span<const std::uint16_t>(kinds));
  }
  void merge(const SelectionSet& other);
  bool contains(std::span<const std::uint16_t> kinds) const;
  std::size_t size() const { return size_; }
  // Calls f(std::span<const std::uint16_t>) for each selection, in no order.
  template <class F>
  void for_each(F&& f) const {
    for (const Shard& shard : shards_)
      for (std::size_t slot = 0; slot < shard.hashes.size(); ++slot)
        if (shard.hashes[slot] != 0)
          f(std::span<const std::uint16_t>(shard.kinds).subspan(slot * width_, width_));
  }
  // The same selections.
  friend bool operator==(const SelectionSet& a, const SelectionSet& b);

 private:
  struct Shard {
    std::vector<std::uint64_t> hashes;  // per slot; 0: empty
    std::vector<std::uint16_t> kinds;   // slot i: [i * width_, (i + 1) * width_)
    std::size_t size = 0;
  };
  static constexpr int kShardBits = 6;

  static std::size_t shard_of(std::uint64_t hash);
  std::size_t slot_of(const Shard& shard, std::span<const std::uint16_t> kinds,
                      std::uint64_t hash) const;
  void grow(Shard& shard) const;

  std::size_t width_ = 0, size_ = 0;
  std::vector<Shard> shards_;  // by the hash's top bits; none before the first insert
};

}  // namespace cubenum::search
