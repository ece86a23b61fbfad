#include "cubenum/search/selection_set.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>
#include <utility>

#include "cubenum/core/byte_io.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/hash.hpp"

namespace cubenum::search {
namespace {

constexpr std::size_t words_for(std::size_t bits) {
  return (bits + 63) / 64;
}

// `bits` (at most 16) bits of `value` at bit `at` of a zeroed key.
void put_bits(std::uint64_t* key, std::size_t at, int bits, std::uint64_t value) {
  key[at / 64] |= value << (at % 64);
  if (at % 64 + static_cast<std::size_t>(bits) > 64) key[at / 64 + 1] |= value >> (64 - at % 64);
}

std::uint64_t get_bits(const std::uint64_t* key, std::size_t at, int bits) {
  std::uint64_t value = key[at / 64] >> (at % 64);
  if (at % 64 + static_cast<std::size_t>(bits) > 64) value |= key[at / 64 + 1] << (64 - at % 64);
  return value & ((std::uint64_t{1} << bits) - 1);
}

// A key's words: on the stack for the keys of any count that finishes.
struct Scratch {
  explicit Scratch(std::size_t words) {
    if (words > std::size(small)) large.resize(words);
    key = large.empty() ? small : large.data();
  }
  std::uint64_t small[8];
  std::vector<std::uint64_t> large;
  std::uint64_t* key;
};

}  // namespace

// The shorter of the two packings for selections of `width` kinds.
void SelectionSet::choose_packing(std::size_t width) {
  width_ = width;
  if (copies_.empty()) {
    kind_bits_ = 16;
    words_ = words_for(width * 16);
    return;
  }
  kind_bits_ = std::bit_width(copies_.size());  // a kind plus one
  const std::size_t list_words = words_for(width * static_cast<std::size_t>(kind_bits_));
  // By counts: each kind's field in one word (a copy added is a plain add).
  count_bits_.clear();
  count_at_.clear();
  std::size_t bits = 1;  // bit 0 is always set: the first word is never 0
  for (const std::uint16_t c : copies_) {
    const int field = std::bit_width(std::min<std::size_t>(c, width));
    if (bits % 64 + static_cast<std::size_t>(field) > 64) bits += 64 - bits % 64;
    count_bits_.push_back(field);
    count_at_.push_back(static_cast<int>(bits));
    bits += static_cast<std::size_t>(field);
  }
  by_counts_ = words_for(bits) <= list_words;
  words_ = by_counts_ ? words_for(bits) : list_words;
}

bool SelectionSet::pack(std::span<const std::uint16_t> kinds, std::uint64_t* out) const {
  std::fill(out, out + words_, 0);
  const std::size_t limit = copies_.empty() ? 65535 : copies_.size();
  if (!by_counts_) {
    std::uint16_t sorted[256];
    if (kinds.size() > std::size(sorted)) return false;
    std::copy(kinds.begin(), kinds.end(), sorted);
    std::sort(sorted, sorted + kinds.size());
    for (std::size_t i = 0, run = 0; i < kinds.size(); ++i) {
      run = i > 0 && sorted[i] == sorted[i - 1] ? run + 1 : 1;
      if (sorted[i] >= limit || (!copies_.empty() && run > copies_[sorted[i]])) return false;
      put_bits(out, i * static_cast<std::size_t>(kind_bits_), kind_bits_, sorted[i] + 1U);
    }
    return true;
  }
  // Each kind's field counts its copies (it holds any number up to its
  // kind's copies: one more is refused before it would carry).
  out[0] = 1;
  for (const std::uint16_t kind : kinds) {
    if (kind >= limit) return false;
    const auto at = static_cast<unsigned>(count_at_[kind]);
    std::uint64_t& word = out[at / 64];
    if (((word >> (at % 64)) & ((std::uint64_t{1} << count_bits_[kind]) - 1)) >= copies_[kind])
      return false;
    word += std::uint64_t{1} << (at % 64);
  }
  return true;
}

bool SelectionSet::unpack(const std::uint64_t* key, std::vector<std::uint16_t>& kinds) const {
  kinds.resize(width_);
  if (!by_counts_) {
    const std::size_t limit = copies_.empty() ? 65535 : copies_.size();
    for (std::size_t i = 0; i < width_; ++i) {
      const auto kind = get_bits(key, i * static_cast<std::size_t>(kind_bits_), kind_bits_);
      if (kind == 0 || kind > limit) return false;
      kinds[i] = static_cast<std::uint16_t>(kind - 1);
    }
    return true;
  }
  std::size_t i = 0;
  for (std::size_t kind = 0; kind < copies_.size(); ++kind)
    for (auto n = get_bits(key, static_cast<std::size_t>(count_at_[kind]), count_bits_[kind]);
         n > 0; --n) {
      if (i == width_) return false;
      kinds[i++] = static_cast<std::uint16_t>(kind);
    }
  return i == width_;
}

std::uint64_t SelectionSet::hash_of(const std::uint64_t* key) const {
  return hash_bytes(key, words_ * sizeof(std::uint64_t));
}

// The slot of `shard` holding `key`, or the empty slot where it would go
// (linear probing on the hash's low bits; the shard is at most half full).
std::size_t SelectionSet::slot_of(const Shard& shard, const std::uint64_t* key,
                                  std::uint64_t hash) const {
  const std::size_t mask = shard.keys.size() / words_ - 1;
  for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    const std::uint64_t* at = &shard.keys[slot * words_];
    if (at[0] == 0 || std::equal(key, key + words_, at)) return slot;
  }
}

void SelectionSet::grow(Shard& shard) const {
  Shard bigger;
  bigger.keys.assign(std::max<std::size_t>(4, 2 * (shard.keys.size() / words_)) * words_, 0);
  for (std::size_t at = 0; at < shard.keys.size(); at += words_) {
    const std::uint64_t* key = &shard.keys[at];
    if (key[0] == 0) continue;
    const std::size_t slot = slot_of(bigger, key, hash_of(key));
    std::copy(key, key + words_, &bigger.keys[slot * words_]);
  }
  bigger.size = shard.size;
  shard = std::move(bigger);
}

bool SelectionSet::insert(std::span<const std::uint16_t> kinds) {
  if (shards_.empty()) {
    choose_packing(kinds.size());
    shards_.resize(std::size_t{1} << kShardBits);
  }
  Scratch scratch(words_);
  std::uint64_t* key = scratch.key;
  if (kinds.size() != width_ || !pack(kinds, key))
    throw std::invalid_argument(
        "SelectionSet: a selection of another length, or kinds or copies beyond the set's");
  return insert_key(key);
}

bool SelectionSet::insert_key(const std::uint64_t* key) {
  const std::uint64_t hash = hash_of(key);
  Shard& shard = shards_[hash >> (64 - kShardBits)];
  if (2 * (shard.size + 1) * words_ > shard.keys.size()) grow(shard);
  std::uint64_t* at = &shard.keys[slot_of(shard, key, hash) * words_];
  if (at[0] != 0) return false;
  std::copy(key, key + words_, at);
  ++shard.size;
  ++size_;
  return true;
}

void SelectionSet::encode(ByteWriter& out) const {
  out.put(std::uint64_t{copies_.size()});
  for (const std::uint16_t c : copies_) out.put(c);
  out.put(std::uint64_t{width_});
  out.put(std::uint64_t{size_});
  for_each_key([&](const std::uint64_t* key) {
    for (std::size_t w = 0; w < words_; ++w) out.put(key[w]);
  });
}

SelectionSet SelectionSet::decode(ByteReader& in, const std::string& source) {
  std::vector<std::uint16_t> copies(in.length(sizeof(std::uint16_t)));
  for (std::uint16_t& c : copies) c = in.get<std::uint16_t>();
  SelectionSet set(std::move(copies));
  const auto width = in.get<std::uint64_t>();
  if (width > 4096)
    throw InputError(source, 0, "selections of " + std::to_string(width) + " pieces (corrupt)");
  if (width == 0) {
    if (in.get<std::uint64_t>() != 0)
      throw InputError(source, 0, "selections of no pieces (corrupt)");
    return set;
  }
  set.choose_packing(width);
  set.shards_.resize(std::size_t{1} << kShardBits);
  std::vector<std::uint64_t> key(set.words_), again(set.words_);
  std::vector<std::uint16_t> kinds;
  for (auto n = in.length(8 * set.words_); n != 0; --n) {
    for (std::uint64_t& word : key) word = in.get<std::uint64_t>();
    // A key is what packing its kinds gives, and each is there once.
    if (!set.unpack(key.data(), kinds) || !set.pack(kinds, again.data()) || key != again ||
        !set.insert_key(key.data()))
      throw InputError(source, 0, "a selection that is not one, or one twice (corrupt)");
  }
  return set;
}

bool SelectionSet::contains(std::span<const std::uint16_t> kinds) const {
  if (shards_.empty() || kinds.size() != width_) return false;
  Scratch scratch(words_);
  std::uint64_t* key = scratch.key;
  if (!pack(kinds, key)) return false;
  const std::uint64_t hash = hash_of(key);
  const Shard& shard = shards_[hash >> (64 - kShardBits)];
  return !shard.keys.empty() && shard.keys[slot_of(shard, key, hash) * words_] != 0;
}

void SelectionSet::merge(const SelectionSet& other) {
  if (shards_.empty() && copies_.empty()) {  // empty, packed as any: the other's packing
    *this = other;
    return;
  }
  if (packs_like(other))  // the keys as they are
    other.for_each_key([&](const std::uint64_t* key) { insert_key(key); });
  else
    other.for_each([&](std::span<const std::uint16_t> kinds) { insert(kinds); });
}

void SelectionSet::merge(SelectionSet&& other) {
  const bool adopt = shards_.empty() && copies_.empty();
  if (other.size_ > size_ && (adopt || copies_ == other.copies_)) std::swap(*this, other);
  merge(std::as_const(other));
}

bool operator==(const SelectionSet& a, const SelectionSet& b) {
  if (a.size() != b.size()) return false;
  bool same = true;
  a.for_each([&](std::span<const std::uint16_t> kinds) { same = same && b.contains(kinds); });
  return same;
}

}  // namespace cubenum::search
