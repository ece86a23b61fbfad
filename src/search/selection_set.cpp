#include "cubenum/search/selection_set.hpp"

#include <algorithm>
#include <stdexcept>

#include "cubenum/core/hash.hpp"

namespace cubenum::search {
namespace {

std::uint64_t hash_of(std::span<const std::uint16_t> kinds) {
  const std::uint64_t h = hash_bytes(kinds.data(), kinds.size_bytes());
  return h == 0 ? 1 : h;  // 0 marks an empty slot
}

}  // namespace

std::size_t SelectionSet::shard_of(std::uint64_t hash) {
  return static_cast<std::size_t>(hash >> (64 - kShardBits));
}

// The slot of `shard` holding `kinds`, or the empty slot where it would go
// (linear probing on the hash's low bits; the shard is at most half full).
std::size_t SelectionSet::slot_of(const Shard& shard, std::span<const std::uint16_t> kinds,
                                  std::uint64_t hash) const {
  const std::size_t mask = shard.hashes.size() - 1;
  for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    if (shard.hashes[slot] == 0) return slot;
    if (shard.hashes[slot] == hash &&
        std::equal(kinds.begin(), kinds.end(), shard.kinds.begin() + slot * width_))
      return slot;
  }
}

void SelectionSet::grow(Shard& shard) const {
  Shard bigger;
  bigger.hashes.assign(std::max<std::size_t>(4, 2 * shard.hashes.size()), 0);
  bigger.kinds.resize(bigger.hashes.size() * width_);
  for (std::size_t old = 0; old < shard.hashes.size(); ++old) {
    if (shard.hashes[old] == 0) continue;
    const std::span<const std::uint16_t> key(shard.kinds.data() + old * width_, width_);
    const std::size_t slot = slot_of(bigger, key, shard.hashes[old]);
    bigger.hashes[slot] = shard.hashes[old];
    std::copy(key.begin(), key.end(), bigger.kinds.begin() + slot * width_);
  }
  bigger.size = shard.size;
  shard = std::move(bigger);
}

bool SelectionSet::insert(std::span<const std::uint16_t> kinds) {
  if (shards_.empty()) {
    width_ = kinds.size();
    shards_.resize(std::size_t{1} << kShardBits);
  }
  if (kinds.size() != width_)
    throw std::invalid_argument("SelectionSet: selections of different lengths");
  const std::uint64_t hash = hash_of(kinds);
  Shard& shard = shards_[shard_of(hash)];
  if (2 * (shard.size + 1) > shard.hashes.size()) grow(shard);
  const std::size_t slot = slot_of(shard, kinds, hash);
  if (shard.hashes[slot] != 0) return false;
  shard.hashes[slot] = hash;
  std::copy(kinds.begin(), kinds.end(), shard.kinds.begin() + slot * width_);
  ++shard.size;
  ++size_;
  return true;
}

bool SelectionSet::contains(std::span<const std::uint16_t> kinds) const {
  if (shards_.empty() || kinds.size() != width_) return false;
  const std::uint64_t hash = hash_of(kinds);
  const Shard& shard = shards_[shard_of(hash)];
  return !shard.hashes.empty() && shard.hashes[slot_of(shard, kinds, hash)] != 0;
}

void SelectionSet::merge(const SelectionSet& other) {
  other.for_each([&](std::span<const std::uint16_t> kinds) { insert(kinds); });
}

bool operator==(const SelectionSet& a, const SelectionSet& b) {
  if (a.size() != b.size()) return false;
  bool same = true;
  a.for_each([&](std::span<const std::uint16_t> kinds) { same = same && b.contains(kinds); });
  return same;
}

}  // namespace cubenum::search
