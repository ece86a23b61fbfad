#pragma once
// The distinct piece selections of a count (each a multiset of kinds, all
// of one size: the surface's faces), in an open-addressed table of packed
// keys. A count inserts the selection of every canonical solution, tens of
// millions of inserts of far fewer distinct selections: a node-based
// std::unordered_set of vectors would be a sizeable share of the count.
//
// A key is packed into as few 64-bit words as the set's kinds allow: given
// how many copies of each kind there are, either each kind's number of
// copies in the selection, in just the bits that number needs (a box of 36
// distinct pieces: one bit a piece, one word for any shape), or the list of
// kinds, each in the bits the largest kind needs (a few faces from many
// kinds: the 2x1x1 from 192 pieces, two words), whichever is shorter;
// without copies given, the list at 16 bits a kind. The first word of a key
// is never 0, which marks an empty slot. Keys are 8 bytes a slot for the
// 2x2x2 from a box of 36 pieces, where the kinds and a stored hash would
// take 56.
//
// The table is split by hash into 64 shards that grow one at a time, so
// that a set of gigabytes grows by a sixty-fourth, not by doubling all at
// once (a count's memory guard, which watches the process grow, would not
// see a doubling coming before it ran the machine out of memory).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace cubenum {
class ByteReader;
class ByteWriter;
}  // namespace cubenum

namespace cubenum::search {

class SelectionSet {
 public:
  // Any kind below 65,535, any number of times.
  SelectionSet() = default;
  // `copies[k]`: how many copies of kind k there are (each selection holds
  // at most that many).
  explicit SelectionSet(std::vector<std::uint16_t> copies) : copies_(std::move(copies)) {}

  // True when the selection `kinds` (in any order) was not in the set.
  // Every selection of a set has the same length, and the kinds and copies
  // given (std::invalid_argument otherwise).
  bool insert(std::span<const std::uint16_t> kinds);
  bool insert(const std::vector<std::uint16_t>& kinds) {
    return insert(std::span<const std::uint16_t>(kinds));
  }
  // Adds the other's selections (whatever its packing); the moved one may
  // be taken whole, when it packs alike and is the larger.
  void merge(const SelectionSet& other);
  void merge(SelectionSet&& other);
  bool contains(std::span<const std::uint16_t> kinds) const;  // (in any order)
  std::size_t size() const { return size_; }
  // Bytes a slot takes (0 before the first insert).
  std::size_t slot_bytes() const { return 8 * words_; }
  // Calls f(std::span<const std::uint16_t>) for each selection (sorted), in
  // no order.
  template <class F>
  void for_each(F&& f) const {
    std::vector<std::uint16_t> kinds(width_);
    for_each_key([&](const std::uint64_t* key) {
      unpack(key, kinds);
      f(std::span<const std::uint16_t>(kinds));
    });
  }
  // The same selections.
  friend bool operator==(const SelectionSet& a, const SelectionSet& b);

  // As bytes: the copies, the length, and the packed keys (a checkpoint's
  // word or two a selection); read back, every key is checked (InputError
  // naming `source` when one is not a selection).
  void encode(ByteWriter& out) const;
  static SelectionSet decode(ByteReader& in, const std::string& source);

 private:
  struct Shard {
    std::vector<std::uint64_t> keys;  // slot i: [i * words_, (i + 1) * words_)
    std::size_t size = 0;
  };
  static constexpr int kShardBits = 6;

  void choose_packing(std::size_t width);
  // Packs `kinds` into `out` (words_ words); false when they do not fit the
  // copies given.
  bool pack(std::span<const std::uint16_t> kinds, std::uint64_t* out) const;
  // The kinds of `key`, sorted; false when it holds other than width_ kinds.
  bool unpack(const std::uint64_t* key, std::vector<std::uint16_t>& kinds) const;
  bool insert_key(const std::uint64_t* key);
  // Whether `other`'s keys are this set's (the same copies and length).
  bool packs_like(const SelectionSet& other) const {
    return width_ == other.width_ && copies_ == other.copies_;
  }
  template <class F>
  void for_each_key(F&& f) const {
    for (const Shard& shard : shards_)
      for (std::size_t at = 0; at < shard.keys.size(); at += words_)
        if (shard.keys[at] != 0) f(&shard.keys[at]);
  }
  std::uint64_t hash_of(const std::uint64_t* key) const;
  std::size_t slot_of(const Shard& shard, const std::uint64_t* key, std::uint64_t hash) const;
  void grow(Shard& shard) const;

  std::vector<std::uint16_t> copies_;
  std::vector<int> count_bits_;  // by counts: each kind's bits, and where they start
  std::vector<int> count_at_;
  bool by_counts_ = false;
  int kind_bits_ = 16;  // by list: each kind (plus one) in this many bits
  std::size_t width_ = 0, words_ = 0, size_ = 0;
  std::vector<Shard> shards_;  // by the hash's top bits; none before the first insert
};

}  // namespace cubenum::search
