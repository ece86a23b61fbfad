// AssemblyTally, what a plate count adds up: its sums, and its bytes for
// checkpoints and for the processes of a distributed count.
#include <algorithm>
#include <stdexcept>

#include "cubenum/core/byte_io.hpp"
#include "cubenum/search/tally_codec.hpp"
#include "plate_assembly_internal.hpp"

namespace cubenum::search {

AssemblyTally& AssemblyTally::operator+=(const AssemblyTally& other) {
  selections.merge(other.selections);
  add_counts(other);
  return *this;
}

AssemblyTally& AssemblyTally::operator+=(AssemblyTally&& other) {
  selections.merge(std::move(other.selections));
  add_counts(other);
  return *this;
}

void AssemblyTally::add_counts(const AssemblyTally& other) {
  raw = plus(raw, other.raw);
  rotations = plus(rotations, other.rotations);
  symmetries = plus(symmetries, other.symmetries);
  list_limit = std::max(list_limit, other.list_limit);
  listed.insert(listed.end(), other.listed.begin(), other.listed.end());
  if (other.by_shape) {
    Counts& mine = by_shape ? *by_shape : by_shape.emplace();
    mine.raw = plus(mine.raw, other.by_shape->raw);
    mine.rotations = plus(mine.rotations, other.by_shape->rotations);
    mine.symmetries = plus(mine.symmetries, other.by_shape->symmetries);
  }
  subtrees_done += other.subtrees_done;
  complete = complete && other.complete;
  if (raw_by_ties.size() < other.raw_by_ties.size()) raw_by_ties.resize(other.raw_by_ties.size());
  for (std::size_t m = 0; m < other.raw_by_ties.size(); ++m)
    raw_by_ties[m] = plus(raw_by_ties[m], other.raw_by_ties[m]);
  keep_smallest();
}

namespace {

// The tally's bytes: the counts, then the selections (packed:
// SelectionSet::encode) and the listed solutions, each as a length and its
// numbers. Tallies saved before the selections were packed ("ATLY") held
// each selection as a length and its kinds; they read as they did.
constexpr std::uint32_t kTallyMagic = tally_format("ATL2");
constexpr std::uint32_t kListedTallyMagic = tally_format("ATLY");

}  // namespace

std::vector<std::byte> AssemblyTally::encode() const {
  ByteWriter w;
  put_tally_format(w, kTallyMagic);
  for (const std::uint64_t v : {raw, rotations, symmetries, std::uint64_t{subtrees_done},
                                std::uint64_t{complete}, std::uint64_t{list_limit}})
    w.put(v);
  selections.encode(w);
  w.put(std::uint64_t{listed.size()});
  for (const AssemblyKey& key : listed) {
    w.put(std::uint64_t{key.size()});
    for (const FacePlacement& p : key) {
      w.put(p.kind);
      w.put(p.transform);
    }
  }
  // After the rest, each block only when there is something (tallies
  // saved before read alike): the sums by ties, then the counts by shape
  // (which need the block before, empty or not).
  if (!raw_by_ties.empty() || by_shape) {
    w.put(std::uint64_t{raw_by_ties.size()});
    for (const std::uint64_t sum : raw_by_ties) w.put(sum);
  }
  if (by_shape)
    for (const std::uint64_t v : {by_shape->raw, by_shape->rotations, by_shape->symmetries})
      w.put(v);
  return std::move(w.out);
}

AssemblyTally AssemblyTally::decode(std::span<const std::byte> bytes, const std::string& source) {
  ByteReader r(bytes, source, "a tally");
  const std::uint32_t magic =
      get_tally_format(r, {kTallyMagic, kListedTallyMagic}, source, "an assembly tally");
  AssemblyTally t;
  t.raw = r.get<std::uint64_t>();
  t.rotations = r.get<std::uint64_t>();
  t.symmetries = r.get<std::uint64_t>();
  t.subtrees_done = r.get<std::uint64_t>();
  t.complete = r.get<std::uint64_t>() != 0;
  t.list_limit = r.get<std::uint64_t>();
  if (magic == kTallyMagic) {
    t.selections = SelectionSet::decode(r, source);
  } else {
    for (std::uint64_t n = r.length(8); n != 0; --n) {
      SelectionKey key(r.length(sizeof(std::uint16_t)));
      for (std::uint16_t& kind : key) kind = r.get<std::uint16_t>();
      try {
        t.selections.insert(key);
      } catch (const std::invalid_argument&) {
        throw InputError(source, 0, "selections of different lengths in a tally (corrupt)");
      }
    }
  }
  for (std::uint64_t n = r.length(8); n != 0; --n) {
    AssemblyKey& key = t.listed.emplace_back(r.length(3));
    for (FacePlacement& p : key) {
      p.kind = r.get<std::uint16_t>();
      p.transform = r.get<std::uint8_t>();
    }
  }
  if (!r.done())
    for (std::uint64_t n = r.length(8); n != 0; --n)
      t.raw_by_ties.push_back(r.get<std::uint64_t>());
  if (!r.done()) {
    Counts& s = t.by_shape.emplace();
    s.raw = r.get<std::uint64_t>();
    s.rotations = r.get<std::uint64_t>();
    s.symmetries = r.get<std::uint64_t>();
  }
  if (!r.done()) throw InputError(source, 0, "bytes after a tally's end (corrupt)");
  return t;
}

void AssemblyTally::keep_smallest() {
  std::sort(listed.begin(), listed.end());
  if (listed.size() > list_limit) listed.resize(list_limit);
}

}  // namespace cubenum::search
