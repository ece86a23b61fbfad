#pragma once
// Private to src/search/plate_*.cpp, PlateAssembly's files: the checked
// arithmetic of counts, the state of a search, and what every search's
// inner loop inlines (fits, place, unplace, the forward checks).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <set>
#include <span>
#include <unordered_map>
#include <vector>

#include "cubenum/core/bits.hpp"
#include "cubenum/core/checked.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/search/plate_assembly.hpp"

namespace cubenum::search {
namespace {  // each file its own copy, as when they were one file

// Counts with labelled copies multiply: one that would pass 2^64 - 1 is
// refused, never wrapped (a pool of thousands of congruent pieces).
[[noreturn, maybe_unused]] void count_overflows() {
  throw InputError(
      "the pieces given: the count passes 2^64 - 1 = 18446744073709551615 assemblies "
      "(too many congruent copies; --by shape counts them as one)");
}
[[maybe_unused]] std::uint64_t times(std::uint64_t a, std::uint64_t b) {
  const auto product = checked_mul(a, b);
  if (!product) count_overflows();
  return *product;
}
[[maybe_unused]] std::uint64_t plus(std::uint64_t a, std::uint64_t b) {
  std::uint64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) count_overflows();
  return sum;
}

__extension__ typedef unsigned __int128 Wide;  // a product of two 64-bit counts

// The bits of `value` selected by `mask`, packed to the low end (PEXT).
[[maybe_unused]] std::uint32_t extract_bits(std::uint32_t value, std::uint32_t mask) {
  return static_cast<std::uint32_t>(cubenum::extract_bits(value, mask));
}

}  // namespace

// How far a count got, for its progress: the subtrees' estimated sizes, and
// the nodes this process searched in all of them and in the finished ones.
struct PlateAssembly::Work {
  std::vector<double> estimate;  // per subtree
  double total = 0;
  double before = 0;  // the estimate of the subtrees finished before this run
  int processes = 1;  // of a distributed count, each with its own Work
  std::atomic<std::uint64_t> nodes{0}, finished_nodes{0};
  std::atomic<double> finished_estimate{0};  // of those this process finished

  // Nodes of unfinished subtrees count at the ratio of estimate to nodes of
  // those finished (1 before any finishes: the estimate is unbiased). The
  // processes of a distributed count draw the subtrees as they go, so each
  // does about its share of the work: the whole is that many times its own.
  double share() const {
    const double estimated = finished_estimate.load(std::memory_order_relaxed);
    const auto searched = static_cast<double>(finished_nodes.load(std::memory_order_relaxed));
    const auto in_flight = static_cast<double>(nodes.load(std::memory_order_relaxed)) - searched;
    const double scale = searched > 0 ? estimated / searched : 1;
    const double mine = estimated + scale * std::max(in_flight, 0.0);
    return total > 0 ? std::min(0.999, (before + processes * mine) / total) : 0;
  }
};

struct PlateAssembly::State {
  std::vector<PlateGrid> covered;  // per face: its cells covered by placed neighbours
  // per link (each depth's own range of links_): its face's covered cells
  // before the placement at that depth, put back by unplace()
  std::vector<PlateGrid> covered_before;
  std::vector<int> remaining, group_used;
  std::vector<const Candidate*> chosen;  // per depth
  AssemblyKey key;                       // record()'s buffer
  SelectionKey selection;
  const AssemblyOptions* options = nullptr;
  // Generate only solutions with the least kind of the anchor's orbit on
  // the anchor, there in the least placement of its orbit under `anchor`.
  bool reduced = false;
  const AnchorGroup* anchor = nullptr;
  // The pieces left by how many plate-corner (0-4) and plate-edge (0-12)
  // cells they fill, and the cells of each sort the placed pieces fill.
  std::array<int, 5> left_by_corners{};
  std::array<int, 13> left_by_edges{};
  int corners_filled = 0, edges_filled = 0;
  // The pieces left by kind_bit(kind), and the bits with any left.
  std::array<int, 64> left_by_kind_bit{};
  std::uint64_t free_kind_bits = 0;
  std::uint64_t nodes = 0;         // search nodes of this subtree
  std::uint64_t raw_reported = 0;  // the tally's raw when last reported
  Work* work = nullptr;
  bool stopped = false;
  AssemblyTally* tally = nullptr;  // count_without_forms: where the sums go
};

struct PlateAssembly::Restart {
  std::vector<std::uint32_t> offset;  // per depth: where to start in a bucket
  std::uint64_t budget = 0, placements = 0;
  bool out_of_budget = false;
  std::size_t wanted = 1;
  const std::function<bool()>* stop = nullptr;
  Progress* progress = nullptr;
  std::vector<AssemblyKey>* found = nullptr;
  std::set<AssemblyKey>* seen = nullptr;
  std::vector<bool> placed;                           // per face
  std::unordered_map<PlateGrid, BucketTable> tables;  // by decided cells
};

// The bucket key: bit i set when decided cell i is open (not covered).
inline std::uint32_t PlateAssembly::bucket_of(PlateGrid decided, PlateGrid covered) {
  return extract_bits(~covered, decided);
}

// fits(), place() and unplace() run for every candidate of every node:
// inlined into the search loops (as calls, a sizeable share of a count).
[[gnu::always_inline]] inline bool PlateAssembly::fits(const State& st, int depth,
                                                       const Candidate& c) const {
  if (c.grid & st.covered[depths_[depth].face]) return false;
  if (st.remaining[c.kind] == 0) return false;
  if (st.reduced && depths_[depth].in_anchor_orbit && depth > 0 && c.kind < st.chosen[0]->kind)
    return false;
  if (group_capacity_.empty()) return true;
  const int group = kinds_[c.kind].group;
  return group < 0 || st.group_used[group] < group_capacity_[group];
}

// Places a candidate that fits().
[[gnu::always_inline]] inline void PlateAssembly::place(State& st, int depth,
                                                        const Candidate& c) const {
  const DepthTable& d = depths_[depth];
  for (std::uint32_t k = d.link_begin; k != d.link_end; ++k) {
    const Link& link = links_[k];
    PlateGrid& covered = st.covered[link.face];
    st.covered_before[k] = covered;
    covered |= link.image[extract_bits(c.grid, link.cells)];
  }
  --st.remaining[c.kind];
  if (--st.left_by_kind_bit[kind_bit(c.kind)] == 0)
    st.free_kind_bits &= ~(std::uint64_t{1} << kind_bit(c.kind));
  if (d.counts_borders) take_borders(st, c.kind, 1);
  const int group = kinds_[c.kind].group;
  if (group >= 0) ++st.group_used[group];
  st.chosen[depth] = &c;
}

[[gnu::always_inline]] inline void PlateAssembly::unplace(State& st, int depth,
                                                          const Candidate& c) const {
  // Last link first: a face with several links gets its first value back.
  const DepthTable& d = depths_[depth];
  for (std::uint32_t k = d.link_end; k != d.link_begin; --k)
    st.covered[links_[k - 1].face] = st.covered_before[k - 1];
  ++st.remaining[c.kind];
  if (st.left_by_kind_bit[kind_bit(c.kind)]++ == 0)
    st.free_kind_bits |= std::uint64_t{1} << kind_bit(c.kind);
  if (d.counts_borders) take_borders(st, c.kind, -1);
  const int group = kinds_[c.kind].group;
  if (group >= 0) --st.group_used[group];
}

// The candidates of the bucket that the cells decided by the placed
// neighbours pick for the face filled at `depth`.
inline std::span<const PlateAssembly::Candidate> PlateAssembly::bucket_at(const State& st,
                                                                          int depth) const {
  const DepthTable& d = depths_[depth];
  const BucketTable& t = tables_[d.table];
  const std::uint32_t bucket = bucket_of(t.decided, st.covered[d.face]);
  return {t.candidates.data() + t.bucket_start[bucket],
          t.candidates.data() + t.bucket_start[bucket + 1]};
}

// Whether placing `c` (which fits) at `depth` leaves every later face it
// decides cells of a candidate that matches them and whose kind may be
// free: worked out from the links, without placing it.
[[gnu::always_inline]] inline bool PlateAssembly::later_faces_open(const State& st, int depth,
                                                                   const Candidate& c) const {
  const DepthTable& d = depths_[depth];
  std::uint64_t free = st.free_kind_bits;
  if (st.left_by_kind_bit[kind_bit(c.kind)] == 1) free &= ~(std::uint64_t{1} << kind_bit(c.kind));
  for (std::uint32_t i = d.check_begin; i != d.check_end; ++i) {
    const ForwardCheck& check = forward_checks_[i];
    const PlateGrid covered =
        st.covered[check.face] | (*check.image)[extract_bits(c.grid, check.cells)];
    if ((check.kinds[bucket_of(check.decided, covered)] & free) == 0) return false;
  }
  return true;
}

inline void PlateAssembly::take_borders(State& st, int kind, int n) const {
  st.left_by_corners[corners_[kind]] -= n;
  st.left_by_edges[edges_[kind]] -= n;
  st.corners_filled += n * corners_[kind];
  st.edges_filled += n * edges_[kind];
}

}  // namespace cubenum::search
