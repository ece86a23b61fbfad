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

// The slot holding `kinds`, or the empty slot where it would go (linear
// probing; the table is at most half full).
std::size_t SelectionSet::slot_of(std::span<const std::uint16_t> kinds, std::uint64_t hash) const {
  const std::size_t mask = hashes_.size() - 1;
  for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    if (hashes_[slot] == 0) return slot;
    if (hashes_[slot] == hash &&
        std::equal(kinds.begin(), kinds.end(), kinds_.begin() + slot * width_))
      return slot;
  }
}

void SelectionSet::grow() {
  std::vector<std::uint64_t> hashes(std::max<std::size_t>(64, 2 * hashes_.size()), 0);
  std::vector<std::uint16_t> kinds(hashes.size() * width_);
  hashes.swap(hashes_);
  kinds.swap(kinds_);
  for (std::size_t old = 0; old < hashes.size(); ++old) {
    if (hashes[old] == 0) continue;
    const std::span<const std::uint16_t> key(kinds.data() + old * width_, width_);
    const std::size_t slot = slot_of(key, hashes[old]);
    hashes_[slot] = hashes[old];
    std::copy(key.begin(), key.end(), kinds_.begin() + slot * width_);
  }
}

bool SelectionSet::insert(std::span<const std::uint16_t> kinds) {
  if (hashes_.empty()) width_ = kinds.size();
  if (kinds.size() != width_)
    throw std::invalid_argument("SelectionSet: selections of different lengths");
  if (2 * (size_ + 1) > hashes_.size()) grow();
  const std::uint64_t hash = hash_of(kinds);
  const std::size_t slot = slot_of(kinds, hash);
  if (hashes_[slot] != 0) return false;
  hashes_[slot] = hash;
  std::copy(kinds.begin(), kinds.end(), kinds_.begin() + slot * width_);
  ++size_;
  return true;
}

bool SelectionSet::contains(std::span<const std::uint16_t> kinds) const {
  if (hashes_.empty() || kinds.size() != width_) return false;
  return hashes_[slot_of(kinds, hash_of(kinds))] != 0;
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
