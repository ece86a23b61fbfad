#include "cubenum/search/plate_assembly.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "cubenum/core/bits.hpp"
#include "cubenum/core/byte_io.hpp"
#include "cubenum/core/checked.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/search/subtree_checkpoint.hpp"

namespace cubenum::search {
namespace {

// Counts with labelled copies multiply: one that would pass 2^64 - 1 is
// refused, never wrapped (a pool of thousands of congruent pieces).
[[noreturn]] void count_overflows() {
  throw InputError(
      "the pieces given: the count passes 2^64 - 1 = 18446744073709551615 assemblies "
      "(too many congruent copies; --by shape counts them as one)");
}
std::uint64_t times(std::uint64_t a, std::uint64_t b) {
  const auto product = checked_mul(a, b);
  if (!product) count_overflows();
  return *product;
}
std::uint64_t plus(std::uint64_t a, std::uint64_t b) {
  std::uint64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) count_overflows();
  return sum;
}

__extension__ typedef unsigned __int128 Wide;  // a product of two 64-bit counts

// The bits of `value` selected by `mask`, packed to the low end (PEXT).
std::uint32_t extract_bits(std::uint32_t value, std::uint32_t mask) {
  return static_cast<std::uint32_t>(cubenum::extract_bits(value, mask));
}

// The faces sharing at least one cell with each face.
std::vector<std::vector<int>> neighbours(const PlateSurface& s) {
  std::vector<std::vector<int>> out(s.face_count());
  for (int cell = 0; cell < s.cell_count(); ++cell)
    for (const int f : s.faces_of(cell))
      for (const int g : s.faces_of(cell))
        if (f != g && std::find(out[f].begin(), out[f].end(), g) == out[f].end())
          out[f].push_back(g);
  return out;
}

// Faces in a fixed order from `first`: each next face shares as many
// cells as possible with the faces placed (ties: more placed neighbours,
// then the lower index), so constraints bite early. Counting the cells and
// not only the neighbours (a corner is one cell, an edge five) matters: a
// shared edge constrains far more than a shared corner.
std::vector<int> fill_order(const PlateSurface& surface, int first) {
  const auto next_to = neighbours(surface);
  const int n = surface.face_count();
  std::vector<int> order, links(n, 0), cells(n, 0);
  std::vector<bool> placed(n, false);
  const auto place = [&](int f) {
    order.push_back(f);
    placed[f] = true;
    for (const int g : next_to[f]) ++links[g];
    for (int cell = 0; cell < surface.cell_count(); ++cell) {
      const auto& faces = surface.faces_of(cell);
      if (std::find(faces.begin(), faces.end(), f) == faces.end()) continue;
      for (const int g : faces)
        if (g != f) ++cells[g];
    }
  };
  place(first);
  while (static_cast<int>(order.size()) < n) {
    int best = -1;
    for (int f = 0; f < n; ++f)
      if (!placed[f] &&
          (best < 0 || std::pair(cells[f], links[f]) > std::pair(cells[best], links[best])))
        best = f;
    place(best);
  }
  return order;
}

// The position of `cell` on face f's plate.
int local_bit(const PlateSurface& s, int f, int cell) {
  for (int i = 0; i < kPlateCells; ++i)
    if (s.cell_of(f, {i / kPlateSide, i % kPlateSide}) == cell) return i;
  throw std::logic_error("PlateAssembly: a cell is not on its face");
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
constexpr std::uint32_t kTallyMagic = 0x324c5441;        // "ATL2"
constexpr std::uint32_t kListedTallyMagic = 0x594c5441;  // "ATLY"

}  // namespace

std::vector<std::byte> AssemblyTally::encode() const {
  ByteWriter w;
  w.put(kTallyMagic);
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
  const auto magic = r.get<std::uint32_t>();
  if (magic != kTallyMagic && magic != kListedTallyMagic)
    throw InputError(source, 0, "not a tally (corrupt)");
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

namespace {

// The sum of every process's tally, on every process.
// With --verbose, what each process searched and the bytes the tallies
// took between the processes (the network cost besides one fetch-and-add
// of 8 bytes a subtree).
AssemblyTally sum_over(Cluster& cluster, const AssemblyTally& mine, SelectionSet selections) {
  AssemblyTally total;
  total.list_limit = mine.list_limit;
  total.selections = std::move(selections);  // packed as the count's own
  std::string shares;
  std::uint64_t bytes = 0;
  for (const std::string& text : gather_texts(cluster, [&] {
         const std::vector<std::byte> encoded = mine.encode();
         return std::string(reinterpret_cast<const char*>(encoded.data()), encoded.size());
       }())) {
    const AssemblyTally part = AssemblyTally::decode(
        {reinterpret_cast<const std::byte*>(text.data()), text.size()}, "another process");
    shares += fmt::format("{}{}", shares.empty() ? "" : ", ", part.subtrees_done);
    bytes += text.size();
    total += part;
  }
  progress::note("{} processes: subtrees searched by each {}; tallies gathered {} bytes",
                 cluster.processes(), shares, progress::grouped(bytes));
  return total;
}

}  // namespace

void AssemblyTally::keep_smallest() {
  std::sort(listed.begin(), listed.end());
  if (listed.size() > list_limit) listed.resize(list_limit);
}

std::uint64_t usable_pieces(const std::vector<PlateKind>& kinds,
                            const std::vector<int>& group_capacity) {
  std::uint64_t loose = 0;
  std::vector<std::uint64_t> grouped(group_capacity.size(), 0);
  for (const PlateKind& k : kinds)
    (k.group < 0 ? loose : grouped[static_cast<std::size_t>(k.group)]) +=
        static_cast<std::uint64_t>(k.multiplicity);
  for (std::size_t g = 0; g < grouped.size(); ++g)
    loose += std::min(grouped[g], static_cast<std::uint64_t>(group_capacity[g]));
  return loose;
}

PlateAssembly::PlateAssembly(const PlateSurface& surface, std::vector<PlateKind> kinds,
                             std::vector<int> group_capacity)
    : surface_(&surface), kinds_(std::move(kinds)), group_capacity_(std::move(group_capacity)) {
  if (kinds_.size() > kMaxPlateKinds) throw std::invalid_argument("PlateAssembly: too many kinds");
  for (const PlateKind& k : kinds_)
    if (k.group >= static_cast<int>(group_capacity_.size()))
      throw std::invalid_argument("PlateAssembly: kind in an unknown group");
  build_tables();
}

int PlateAssembly::distinct_transforms(int kind) const {
  int n = 0;
  for (int e = 0; e < kPlateTransforms; ++e) n += canonical_transform_[kind][e] == e;
  return n;
}

void PlateAssembly::build_tables() {
  const PlateSurface& s = *surface_;
  // Transforms giving the same cells are one placement: keep the smallest.
  for (std::size_t k = 0; k < kinds_.size(); ++k) {
    std::array<std::uint8_t, kPlateTransforms> canon{};
    for (int e = 0; e < kPlateTransforms; ++e) {
      canon[e] = static_cast<std::uint8_t>(e);
      for (int d = 0; d < e; ++d)
        if (transform_grid(kinds_[k].grid, d) == transform_grid(kinds_[k].grid, e)) {
          canon[e] = canon[d];
          break;
        }
      if (canon[e] == e)
        placements_.push_back({transform_grid(kinds_[k].grid, e), static_cast<std::uint16_t>(k),
                               static_cast<std::uint8_t>(e)});
    }
    canonical_transform_.push_back(canon);
    std::array<std::uint8_t, kPlateTransforms * kPlateTransforms> after{};
    for (int frame = 0; frame < kPlateTransforms; ++frame)
      for (int e = 0; e < kPlateTransforms; ++e)
        after[frame * kPlateTransforms + e] = canon[compose_transforms(frame, e)];
    canonical_after_.push_back(after);
  }

  build_symmetries();
  build_border_sums();
  const std::vector<int> order = fill_order(s, anchor_);
  std::vector<int> depth_of(s.face_count());
  for (int d = 0; d < s.face_count(); ++d) depth_of[order[d]] = d;

  for (int d = 0; d < s.face_count(); ++d) {
    const int face = order[d];
    // Only the placements above a check of the bound are counted for it.
    depths_.push_back({face, bucket_table(decided_cells(face, depth_of, d)), 0, 0,
                       in_anchor_orbit_[face], checks_borders_at(d + 1)});
  }
  build_links(depth_of);
  build_forward_checks(depth_of);
}

// Cells of `face` whose every other face is among the first `placed` of
// the fill order: a plate on `face` must cover exactly the ones they left open.
PlateGrid PlateAssembly::decided_cells(int face, const std::vector<int>& depth_of,
                                       int placed) const {
  const PlateSurface& s = *surface_;
  PlateGrid decided = 0;
  for (int i = 0; i < kPlateCells; ++i) {
    const auto& faces = s.faces_of(s.cell_of(face, {i / kPlateSide, i % kPlateSide}));
    if (faces.size() >= 2 && std::all_of(faces.begin(), faces.end(),
                                         [&](int g) { return g == face || depth_of[g] < placed; }))
      decided |= PlateGrid{1} << i;
  }
  return decided;
}

// For each depth, the later faces its placement decides cells of, each
// with the kinds of the candidates that match each pattern of them.
void PlateAssembly::build_forward_checks(const std::vector<int>& depth_of) {
  std::vector<int> table_of;  // per check; the tables grow as they are made
  for (std::size_t d = 0; d < depths_.size(); ++d) {
    DepthTable& depth = depths_[d];
    depth.check_begin = static_cast<std::uint32_t>(forward_checks_.size());
    for (std::uint32_t k = depth.link_begin; k != depth.link_end; ++k) {
      const Link& link = links_[k];
      const PlateGrid decided =
          decided_cells(static_cast<int>(link.face), depth_of, static_cast<int>(d) + 1);
      if (decided == 0) continue;
      forward_checks_.push_back({link.cells, decided, link.face, &link.image, nullptr});
      table_of.push_back(bucket_table(decided));
    }
    depth.check_end = static_cast<std::uint32_t>(forward_checks_.size());
  }
  for (std::size_t i = 0; i < forward_checks_.size(); ++i)
    forward_checks_[i].kinds = tables_[static_cast<std::size_t>(table_of[i])].kinds.data();
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

// Symmetry s maps face src to face f with a frame transform; the image of a
// solution at face f is the source face's plate, transformed. The anchor:
// a face of the largest orbit under the rotations (face 0 when its orbit is
// one), first in the fill order and in the comparison of solutions.
void PlateAssembly::build_symmetries() {
  const PlateSurface& s = *surface_;
  for (const auto& sym : s.symmetries()) {
    std::vector<std::uint32_t> source(s.face_count());
    std::vector<std::uint8_t> frame(s.face_count());
    for (int f = 0; f < s.face_count(); ++f) {
      source[sym.face_image[f]] = static_cast<std::uint32_t>(f);
      frame[sym.face_image[f]] = static_cast<std::uint8_t>(sym.frame_transform[f]);
    }
    sym_source_.push_back(std::move(source));
    sym_frame_.push_back(std::move(frame));
  }
  const auto orbit_of = [&](int f) {
    std::vector<bool> in(s.face_count(), false);
    for (int r = 0; r < s.rotation_count(); ++r) in[sym_source_[r][f]] = true;
    return in;
  };
  anchor_ = 0;
  std::size_t largest = 0;
  for (int f = 0; f < s.face_count(); ++f) {
    const std::vector<bool> in = orbit_of(f);
    const auto size = static_cast<std::size_t>(std::count(in.begin(), in.end(), true));
    if (size > largest) largest = size, anchor_ = f, in_anchor_orbit_ = in;
  }
  compare_order_ = {static_cast<std::uint32_t>(anchor_)};
  for (int f = 0; f < s.face_count(); ++f)
    if (f != anchor_) compare_order_.push_back(static_cast<std::uint32_t>(f));
  for (int f = 0; f < s.face_count(); ++f)
    if (in_anchor_orbit_[f]) anchor_orbit_.push_back(static_cast<std::uint32_t>(f));
  build_anchor_groups();
}

// The anchor's stabilisers (AnchorGroup), and for each face of its orbit a
// rotation that takes it to the anchor.
void PlateAssembly::build_anchor_groups() {
  const int rotations = surface_->rotation_count();
  to_anchor_.assign(surface_->face_count(), -1);
  for (int s = 0; s < static_cast<int>(sym_source_.size()); ++s) {
    const auto source = static_cast<int>(sym_source_[s][anchor_]);
    if (s < rotations && to_anchor_[source] < 0) to_anchor_[source] = s;
    if (source != anchor_) continue;
    if (s < rotations) by_rotations_.frames.push_back(sym_frame_[s][anchor_]);
    by_symmetries_.frames.push_back(sym_frame_[s][anchor_]);
  }
  // A reflection that keeps the anchor keeps its orbit too (the orbit under
  // every symmetry is the rotations' one); without such a reflection the
  // reflections move the anchor's orbit, and the rotations act alone.
  if (by_symmetries_.frames.size() == by_rotations_.frames.size()) by_symmetries_ = by_rotations_;
}

// Whether `c` on the anchor is the least placement of its orbit under `group`.
bool PlateAssembly::least_at_anchor(const AnchorGroup& group, const Candidate& c) const {
  return std::all_of(group.frames.begin(), group.frames.end(), [&](std::uint8_t frame) {
    return canonical_after_[c.kind][frame * kPlateTransforms + c.transform] >= c.transform;
  });
}

// How many elements of `group` fix `c`, placed on `face` (of the anchor's
// orbit) and brought to the anchor by a rotation.
int PlateAssembly::fixing_at_anchor(const AnchorGroup& group, int face, const Candidate& c) const {
  const auto& after = canonical_after_[c.kind];
  const int moved = after[sym_frame_[to_anchor_[face]][anchor_] * kPlateTransforms + c.transform];
  return static_cast<int>(
      std::count_if(group.frames.begin(), group.frames.end(),
                    [&](std::uint8_t f) { return after[f * kPlateTransforms + moved] == moved; }));
}

void PlateAssembly::add_links(int f, const std::vector<bool>& to, std::vector<Link>& out) const {
  const PlateSurface& s = *surface_;
  const std::size_t begin = out.size();
  for (int i = 0; i < kPlateCells; ++i) {
    const int cell = s.cell_of(f, {i / kPlateSide, i % kPlateSide});
    for (const int g : s.faces_of(cell)) {
      if (g == f || !to[g]) continue;
      auto it = std::find_if(out.begin() + static_cast<std::ptrdiff_t>(begin), out.end(),
                             [&](const Link& l) { return static_cast<int>(l.face) == g; });
      if (it == out.end()) it = out.insert(out.end(), Link{0, static_cast<std::uint32_t>(g), {}});
      it->cells |= PlateGrid{1} << i;
    }
  }
  for (std::size_t l = begin; l != out.size(); ++l) {
    Link& link = out[l];
    std::vector<PlateGrid> on_g;  // the shared cells on g, in order of f's bits
    for (int i = 0; i < kPlateCells; ++i)
      if (link.cells >> i & 1)
        on_g.push_back(PlateGrid{1}
                       << local_bit(s, link.face, s.cell_of(f, {i / kPlateSide, i % kPlateSide})));
    if (on_g.size() > 5) throw std::logic_error("PlateAssembly: two faces share more than an edge");
    for (std::size_t pattern = 0; pattern < (std::size_t{1} << on_g.size()); ++pattern)
      for (std::size_t j = 0; j < on_g.size(); ++j)
        if (pattern >> j & 1) link.image[pattern] |= on_g[j];
  }
}

// The cells each face shares with each face filled after it (only those
// read what a placement covers), with the image of each pattern; and for
// the first-solution search, with every face.
void PlateAssembly::build_links(const std::vector<int>& depth_of) {
  const PlateSurface& s = *surface_;
  const int n = s.face_count();
  for (DepthTable& depth : depths_) {
    std::vector<bool> later(n);
    for (int g = 0; g < n; ++g) later[g] = depth_of[g] > depth_of[depth.face];
    depth.link_begin = static_cast<std::uint32_t>(links_.size());
    add_links(depth.face, later, links_);
    depth.link_end = static_cast<std::uint32_t>(links_.size());
  }
  const std::vector<bool> every(n, true);
  shared_cells_.resize(n);
  for (int f = 0; f < n; ++f) {
    const auto begin = static_cast<std::uint32_t>(all_links_.size());
    add_links(f, every, all_links_);
    all_link_range_.emplace_back(begin, static_cast<std::uint32_t>(all_links_.size()));
    for (int i = 0; i < kPlateCells; ++i)
      for (const int g : s.faces_of(s.cell_of(f, {i / kPlateSide, i % kPlateSide})))
        if (g != f) shared_cells_[f].emplace_back(i, g);
  }
}

// The table of candidates bucketed on `decided`, made once per distinct
// set, with each bucket's kinds.
int PlateAssembly::bucket_table(PlateGrid decided) {
  for (std::size_t t = 0; t < tables_.size(); ++t)
    if (tables_[t].decided == decided) return static_cast<int>(t);
  BucketTable& t = tables_.emplace_back(make_bucket_table(decided));
  t.kinds.assign(t.bucket_start.size() - 1, 0);
  for (std::size_t b = 0; b + 1 < t.bucket_start.size(); ++b)
    for (std::uint32_t i = t.bucket_start[b]; i != t.bucket_start[b + 1]; ++i)
      t.kinds[b] |= std::uint64_t{1} << kind_bit(t.candidates[i].kind);
  return static_cast<int>(tables_.size()) - 1;
}

PlateAssembly::BucketTable PlateAssembly::make_bucket_table(PlateGrid decided) const {
  BucketTable t;
  t.decided = decided;
  std::vector<std::pair<std::uint32_t, Candidate>> keyed;
  for (const Candidate& c : placements_) keyed.emplace_back(bucket_of(decided, ~c.grid), c);
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  const std::uint32_t buckets = 1U << std::popcount(decided);
  t.bucket_start.assign(buckets + 1, 0);
  for (const auto& [key, cand] : keyed) {
    ++t.bucket_start[key + 1];
    t.candidates.push_back(cand);
  }
  for (std::uint32_t b = 0; b < buckets; ++b) t.bucket_start[b + 1] += t.bucket_start[b];
  return t;
}

// The bucket key: bit i set when decided cell i is open (not covered).
std::uint32_t PlateAssembly::bucket_of(PlateGrid decided, PlateGrid covered) {
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
std::span<const PlateAssembly::Candidate> PlateAssembly::bucket_at(const State& st,
                                                                   int depth) const {
  const DepthTable& d = depths_[depth];
  const BucketTable& t = tables_[d.table];
  const std::uint32_t bucket = bucket_of(t.decided, st.covered[d.face]);
  return {t.candidates.data() + t.bucket_start[bucket],
          t.candidates.data() + t.bucket_start[bucket + 1]};
}

void PlateAssembly::search(State& st, int depth, AssemblyTally& tally) const {
  if (depth == static_cast<int>(depths_.size())) {
    record(st, tally);
    return;
  }
  if (checks_borders_at(depth) && !border_sums_reachable(st, depth)) return;
  if ((++st.nodes & 4095) == 0) {
    report(st, tally, 4096);
    if (st.options->stop && st.options->stop()) st.stopped = true;
  }
  if (st.stopped) return;
  const std::span<const Candidate> bucket = bucket_at(st, depth);
  if (depth + 1 == static_cast<int>(depths_.size())) {
    // The last face: its bucket fixes every shared cell, so only the piece must be free.
    for (const Candidate& c : bucket) {
      if (!fits(st, depth, c)) continue;
      st.chosen[depth] = &c;
      record(st, tally);
    }
    return;
  }
  for (const Candidate& c : bucket) {
    if (!fits(st, depth, c) || !later_faces_open(st, depth, c)) continue;
    place(st, depth, c);
    search(st, depth + 1, tally);
    unplace(st, depth, c);
  }
}

// ---- counts without canonical forms
//
// With every piece told apart (copies labelled, or each kind a single
// piece) only the identity fixes an assembly, so the rotation classes are
// raw / |rotations| and the symmetry classes raw / |symmetries|; without
// choices or a listing, no solution needs its canonical form. The anchored
// search makes the solutions whose anchor holds the least kind of its
// orbit, in the least placement of its orbit under the anchor's
// stabiliser S (AnchorGroup). The group A acting (S and the orbit) moves
// each face f of the orbit holding that kind to the anchor by |S|
// elements, of which as many leave the least placement there as S has
// elements fixing f's placement: a class of labels x |A| assemblies is
// made `ties` times, the sum of those numbers over such faces, and each
// made solution stands for labels x |A| / ties raw assemblies. The search
// adds labels by ties, and count() divides at the end (each tie count's
// sum is exact).
bool PlateAssembly::count_without_forms(const AssemblyOptions& o) const {
  if (o.count_selections || o.list_limit > 0 || o.every_solution || o.tally_by_shape) return false;
  return o.label_copies || std::all_of(kinds_.begin(), kinds_.end(),
                                       [](const PlateKind& k) { return k.multiplicity == 1; });
}

// The ways to pick the copy placed as `c` (before it is placed).
std::uint64_t PlateAssembly::weight_of(const State& st, const Candidate& c) const {
  return st.options->label_copies ? static_cast<std::uint64_t>(st.remaining[c.kind]) : 1;
}

// For `c` at `depth` on the anchor's orbit with the anchor's kind, the
// elements of the anchor's stabiliser that fix it there; otherwise 0.
int PlateAssembly::ties_of(const State& st, int depth, const Candidate& c) const {
  const DepthTable& d = depths_[depth];
  if (!d.in_anchor_orbit || (depth > 0 && c.kind != st.chosen[0]->kind)) return 0;
  return fixing_at_anchor(*st.anchor, d.face, c);
}

void PlateAssembly::search_weights(State& st, int depth, std::uint64_t weight, int ties) const {
  AssemblyTally& tally = *st.tally;
  if ((++st.nodes & 4095) == 0) {
    tally.raw = raw_from_ties(tally.raw_by_ties, acting_order(*st.anchor));  // a running estimate
    report(st, tally, 4096);
    if (st.options->stop && st.options->stop()) st.stopped = true;
  }
  if (st.stopped) return;
  const bool last = depth + 1 == static_cast<int>(depths_.size());
  for (const Candidate& c : bucket_at(st, depth)) {
    if (!fits(st, depth, c)) continue;
    if (!last && !later_faces_open(st, depth, c)) continue;
    const std::uint64_t w = times(weight, weight_of(st, c));
    const int tie = ties + ties_of(st, depth, c);
    if (last) {  // its bucket fixes every shared cell: only the piece had to be free
      std::uint64_t& sum = tally.raw_by_ties[static_cast<std::size_t>(tie)];
      sum = plus(sum, w);
      continue;
    }
    place(st, depth, c);
    search_weights(st, depth + 1, w, tie);
    unplace(st, depth, c);
  }
}

// raw from the sums by ties: each made solution with `m` ties stands for
// |A| / m raw assemblies (A of `group_order` elements). Exact for a whole
// count (a class's solutions are all made, with one tie count); a stopped
// count's partial sums are rounded down (lower bounds).
std::uint64_t PlateAssembly::raw_from_ties(const std::vector<std::uint64_t>& by_ties,
                                           int group_order) {
  std::uint64_t raw = 0;
  for (std::size_t m = 1; m < by_ties.size(); ++m) {
    const Wide share = by_ties[m] * static_cast<Wide>(group_order) / m;
    if (share > std::numeric_limits<std::uint64_t>::max()) count_overflows();
    raw = plus(raw, static_cast<std::uint64_t>(share));
  }
  return raw;
}

// Every 4096 nodes, and at a subtree's end: the `nodes` searched and the
// assemblies found since the last report.
void PlateAssembly::report(State& st, const AssemblyTally& tally, std::uint64_t nodes) const {
  const AssemblyOptions& o = *st.options;
  if (o.nodes != nullptr) o.nodes->add(nodes);
  if (o.assemblies != nullptr) o.assemblies->add(tally.raw - st.raw_reported);
  st.raw_reported = tally.raw;
  if (st.work != nullptr) {
    st.work->nodes.fetch_add(nodes, std::memory_order_relaxed);
    if (o.work_done) o.work_done(st.work->share());
  }
}

// Knuth's estimate of the nodes below `st` (Mathematics of Computation
// 29, 1975): a random descent, each level weighing its nodes by the
// product of the choices above it. The sum over `descents` descents; `st`
// is put back as it was.
double PlateAssembly::descend(State& st, int split, int descents, std::mt19937_64& random) const {
  const int faces = static_cast<int>(depths_.size());
  std::vector<const Candidate*> children;
  double sum = 0;
  for (int descent = 0; descent < descents; ++descent) {
    double weight = 1, nodes = 1;
    int placed = split;
    for (int depth = split; depth < faces; ++depth) {
      // The search's children: the candidates that fit and leave the later faces open.
      const bool last = depth + 1 == faces;
      children.clear();
      for (const Candidate& c : bucket_at(st, depth))
        if (fits(st, depth, c) && (last || later_faces_open(st, depth, c))) children.push_back(&c);
      if (children.empty()) break;
      weight *= static_cast<double>(children.size());
      nodes += weight;
      if (last) break;
      place(st, depth, *children[random() % children.size()]);
      placed = depth + 1;
    }
    for (int depth = placed; depth-- > split;) unplace(st, depth, *st.chosen[depth]);
    sum += nodes;
  }
  return sum;
}

// The estimator is unbiased but heavy-tailed: four descents a subtree leave
// the progress line's total off by a factor of a few early in a count, where
// 512 keep it close (results/foam-shapes.md).
// A descent costs about a node a level, so after four a subtree the count
// makes more, up to 512, while all of them stay within 0.5 % of the nodes
// the first four estimate: a count of a tenth of a second keeps four, one
// of minutes gets 512. Seeded by subtree and batch: the same every run.
std::vector<double> PlateAssembly::estimate_subtrees(const State& start, int split,
                                                     const std::vector<Prefix>& prefixes) const {
  constexpr int kFirst = 4, kMost = 512;
  std::vector<double> sum(prefixes.size(), 0.0);
  const auto add = [&](int descents, std::uint64_t batch) {
    parallel_for_chunks(prefixes.size(), 64, [&](std::size_t begin, std::size_t end) {
      for (std::size_t s = begin; s != end; ++s) {
        State st = start;
        for (int d = 0; d < split; ++d)
          place(st, d, tables_[depths_[d].table].candidates[prefixes[s][d]]);
        std::mt19937_64 random(s + 1 + batch * prefixes.size());
        sum[s] += descend(st, split, descents, random);
      }
    });
  };
  add(kFirst, 0);
  double nodes = 0;
  for (const double x : sum) nodes += x / kFirst;
  const double per_round =
      static_cast<double>(prefixes.size()) * static_cast<double>(depths_.size() - split);
  int descents = kFirst;
  while (descents < kMost && 2.0 * descents * per_round <= 0.005 * nodes) descents *= 2;
  if (descents > kFirst) add(descents - kFirst, 1);
  for (double& x : sum) x /= descents;
  return sum;
}

// The plate-corner and plate-edge cells of each kind (the same in every
// placement), and the surface's corner points and edge cells.
void PlateAssembly::build_border_sums() {
  constexpr PlateGrid kCorners = plate_bit(0, 0) | plate_bit(0, kPlateSide - 1) |
                                 plate_bit(kPlateSide - 1, 0) |
                                 plate_bit(kPlateSide - 1, kPlateSide - 1);
  PlateGrid border = 0;
  for (int i = 0; i < kPlateSide; ++i)
    border |= plate_bit(0, i) | plate_bit(kPlateSide - 1, i) | plate_bit(i, 0) |
              plate_bit(i, kPlateSide - 1);
  const PlateGrid edges = border & ~kCorners;
  for (const PlateKind& k : kinds_) {
    corners_.push_back(static_cast<std::uint8_t>(std::popcount(k.grid & kCorners)));
    edges_.push_back(static_cast<std::uint8_t>(std::popcount(k.grid & edges)));
  }
  const PlateSurface& s = *surface_;
  std::vector<int> sort_of(s.cell_count(), 0);  // 1: corner point, 2: edge cell
  for (int f = 0; f < s.face_count(); ++f)
    for (int i = 0; i < kPlateCells; ++i) {
      const PlateGrid bit = PlateGrid{1} << i;
      const int cell = s.cell_of(f, {i / kPlateSide, i % kPlateSide});
      if (bit & kCorners) sort_of[cell] = 1;
      if (bit & edges) sort_of[cell] = 2;
    }
  corner_points_ = static_cast<int>(std::count(sort_of.begin(), sort_of.end(), 1));
  edge_cells_ = static_cast<int>(std::count(sort_of.begin(), sort_of.end(), 2));
}

// Whether some choice of one piece a face fills exactly the surface's
// corner points and edge cells, both at once: a knapsack over the piece
// copies, rows (pieces chosen, corners filled) holding the reachable edge
// sums as bits. A group's capacity is not counted (true errs towards
// searching), nor is the table built when it would take long (true).
bool PlateAssembly::borders_fillable() const {
  const auto faces = static_cast<std::size_t>(surface_->face_count());
  const auto corners = static_cast<std::size_t>(corner_points_);
  const auto words = static_cast<std::size_t>(edge_cells_) / 64 + 1;
  std::uint64_t copies = 0;
  for (const PlateKind& k : kinds_) copies += static_cast<std::uint64_t>(k.multiplicity);
  if (double(copies) * double(faces) * double(corners + 1) * double(words) > 4e8) return true;
  std::vector<std::uint64_t> table((faces + 1) * (corners + 1) * words, 0);
  const auto row = [&](std::size_t n, std::size_t c) {
    return table.data() + (n * (corners + 1) + c) * words;
  };
  row(0, 0)[0] = 1;
  std::size_t taken = 0;
  for (std::size_t k = 0; k < kinds_.size(); ++k)
    for (int copy = 0; copy < kinds_[k].multiplicity; ++copy, ++taken) {
      const std::size_t dc = corners_[k];
      const unsigned de = edges_[k];
      for (std::size_t n = std::min(taken, faces - 1) + 1; n-- > 0;)
        for (std::size_t c = corners + 1; c-- > dc;) {
          // row(n + 1, c) |= row(n, c - dc) << de
          const std::uint64_t* from = row(n, c - dc);
          std::uint64_t* to = row(n + 1, c);
          for (std::size_t w = words; w-- > 0;) {
            std::uint64_t shifted = from[w] << de;
            if (de != 0 && w > 0) shifted |= from[w - 1] >> (64 - de);
            to[w] |= shifted;
          }
        }
    }
  const auto wanted = static_cast<std::size_t>(edge_cells_);
  return (row(faces, corners)[wanted / 64] >> (wanted % 64) & 1) != 0;
}

void PlateAssembly::take_borders(State& st, int kind, int n) const {
  st.left_by_corners[corners_[kind]] -= n;
  st.left_by_edges[edges_[kind]] -= n;
  st.corners_filled += n * corners_[kind];
  st.edges_filled += n * edges_[kind];
}

namespace {

// Whether `faces` of the pieces counted in `left` (by value) can sum to
// `wanted`: between the sums of the smallest and of the largest values.
template <std::size_t N>
bool sum_reachable(const std::array<int, N>& left, int faces, int wanted) {
  int least = 0, most = 0;
  for (int v = 0, n = faces; v < static_cast<int>(N) && n > 0; ++v) {
    const int take = std::min(n, left[v]);
    least += take * v, n -= take;
  }
  for (int v = static_cast<int>(N) - 1, n = faces; v >= 0 && n > 0; --v) {
    const int take = std::min(n, left[v]);
    most += take * v, n -= take;
  }
  return least <= wanted && wanted <= most;
}

}  // namespace

// The count checks the bound on the pieces left in the upper half of the
// tree only: it cuts there, while below, where most nodes are, it costs a
// large share of a count and cuts next to nothing.
bool PlateAssembly::checks_borders_at(int depth) const {
  return 2 * depth < surface_->face_count();
}

// A cheap bound from the pieces left (a group's capacity is not counted:
// the bound only errs towards going on): the faces left must take pieces
// that fill exactly the corner points and edge cells no placed piece fills.
bool PlateAssembly::border_sums_reachable(const State& st, int placed) const {
  const int faces = surface_->face_count() - placed;
  return sum_reachable(st.left_by_corners, faces, corner_points_ - st.corners_filled) &&
         sum_reachable(st.left_by_edges, faces, edge_cells_ - st.edges_filled);
}

AssemblyKey PlateAssembly::image(const AssemblyKey& key, int s) const {
  AssemblyKey out(surface_->face_count());
  for (int f = 0; f < surface_->face_count(); ++f) {
    const FacePlacement p = key[sym_source_[s][f]];
    out[f] = {p.kind, canonical_after_[p.kind][sym_frame_[s][f] * kPlateTransforms + p.transform]};
  }
  return out;
}

int PlateAssembly::image_order(const AssemblyKey& key, int s) const {
  for (const std::uint32_t f : compare_order_) {
    const FacePlacement p = key[sym_source_[s][f]];
    const FacePlacement q{
        p.kind, canonical_after_[p.kind][sym_frame_[s][f] * kPlateTransforms + p.transform]};
    if (q != key[f]) return q < key[f] ? -1 : 1;
  }
  return 0;
}

std::uint64_t PlateAssembly::labellings(const AssemblyKey& key) const {
  std::uint64_t n = 1;
  for (int f = 0; f < surface_->face_count(); ++f) {
    if (kinds_[key[f].kind].multiplicity == 1) continue;  // one way (most faces, most often)
    int earlier = 0;
    for (int g = 0; g < f; ++g) earlier += key[g].kind == key[f].kind;
    n = times(n, static_cast<std::uint64_t>(kinds_[key[f].kind].multiplicity - earlier));
  }
  return n;
}

std::uint64_t PlateAssembly::exact_quotient(std::uint64_t n, int d) {
  if (n % static_cast<std::uint64_t>(d) != 0)
    throw std::logic_error("PlateAssembly: a stabiliser does not act freely on labellings");
  return n / static_cast<std::uint64_t>(d);
}

std::uint64_t PlateAssembly::piece_choices(const AssemblyTally& tally, bool label_copies) const {
  if (!label_copies) return tally.selections.size();
  std::uint64_t total = 0;
  tally.selections.for_each([&](std::span<const std::uint16_t> selection) {
    // Choose which copies: C(multiplicity, uses) for each kind used.
    std::uint64_t ways = 1;
    for (int f = 0; f < surface_->face_count(); ++f) {
      if (f > 0 && selection[f] == selection[f - 1]) continue;
      int uses = 0;
      for (int g = f; g < surface_->face_count() && selection[g] == selection[f]; ++g) ++uses;
      const int m = kinds_[selection[f]].multiplicity;
      for (int i = 0; i < uses; ++i)
        ways = times(ways, static_cast<std::uint64_t>(m - i)) / static_cast<std::uint64_t>(i + 1);
    }
    total = plus(total, ways);
  });
  return total;
}

void PlateAssembly::record(State& st, AssemblyTally& tally) const {
  const int faces = surface_->face_count();
  AssemblyKey& key = st.key;
  for (int d = 0; d < faces; ++d)
    key[depths_[d].face] = {st.chosen[d]->kind, st.chosen[d]->transform};

  // Canonical when no image is smaller; the rotations come first, so a
  // smaller rotated image rules out both counts at once. The anchor comes
  // first in the order, and rotations bring every face of its orbit to it,
  // so a canonical solution has the orbit's smallest kind there, and only
  // symmetries bringing a face with that kind to the anchor can give an
  // image as small.
  const int rotations = surface_->rotation_count();
  const int symmetries = static_cast<int>(sym_source_.size());
  const std::uint16_t at_anchor = key[anchor_].kind;
  bool least_rotated = true;
  for (const std::uint32_t f : anchor_orbit_) least_rotated &= key[f].kind >= at_anchor;
  bool least_overall = least_rotated;
  int fixing_rotations = 1, fixing_all = 1;  // stabiliser orders
  for (int s = 1; s < symmetries && least_overall; ++s) {
    if (key[sym_source_[s][anchor_]].kind > at_anchor) continue;  // larger at the anchor
    const int order = image_order(key, s);
    if (order < 0) {
      least_overall = false;
      if (s < rotations) least_rotated = false;
    } else if (order == 0) {
      ++fixing_all;
      if (s < rotations) ++fixing_rotations;
    }
  }
  // With labelled copies, each solution stands for `labels` assemblies of
  // distinct pieces; its stabiliser acts freely on them (only the identity
  // fixes every face), so each class splits into labels / |stabiliser|.
  const auto labels_of = [&]() -> std::uint64_t {
    return st.options->label_copies ? labellings(key) : 1;
  };
  if (st.reduced) {
    if (least_overall) count_class(st, tally, labels_of(), fixing_rotations, fixing_all);
  } else {  // every solution made: each counts once, each class at its least form
    const std::uint64_t labels = labels_of();
    tally.raw = plus(tally.raw, labels);
    if (least_rotated)
      tally.rotations =
          plus(tally.rotations, labels == 1 ? 1 : exact_quotient(labels, fixing_rotations));
    if (least_overall)
      tally.symmetries =
          plus(tally.symmetries, labels == 1 ? 1 : exact_quotient(labels, fixing_all));
    if (st.options->tally_by_shape) {  // the same without the labels
      AssemblyTally::Counts& s = tally.by_shape ? *tally.by_shape : tally.by_shape.emplace();
      s.raw += 1;
      s.rotations += least_rotated;
      s.symmetries += least_overall;
    }
  }

  if (least_overall && st.options->count_selections) {
    for (int f = 0; f < faces; ++f) st.selection[f] = key[f].kind;
    tally.selections.insert(st.selection);
  }
  if (st.options->list_limit > 0) {
    const bool listed =
        st.options->list_up_to == SymmetryGroup::None ||
        (st.options->list_up_to == SymmetryGroup::Rotations ? least_rotated : least_overall);
    if (listed) {
      tally.listed.push_back(key);
      if (tally.listed.size() >= 2 * tally.list_limit + 1024) tally.keep_smallest();
    }
  }
}

// Reduced search: only some images of each class are made (the anchor's
// least kind, its least placement), the least form under every symmetry
// among them, which counts the whole class: its |symmetries| / |stabiliser|
// raw assemblies, and the rotation classes it splits into (two where no
// reflection fixes it).
void PlateAssembly::count_class(const State& st, AssemblyTally& tally, std::uint64_t labels,
                                int fixing_rotations, int fixing_all) const {
  const auto symmetries = static_cast<std::uint64_t>(sym_source_.size());
  const auto rotations = static_cast<std::uint64_t>(surface_->rotation_count());
  const std::uint64_t size = symmetries / static_cast<std::uint64_t>(fixing_all);
  const std::uint64_t rotation_classes =
      size * static_cast<std::uint64_t>(fixing_rotations) / rotations;
  // Told apart, the labelled assemblies' classes: labels / |stabiliser| under
  // every symmetry, |symmetries| / |rotations| times as many under rotations.
  const std::uint64_t apart = labels == 1 ? 1 : exact_quotient(labels, fixing_all);
  tally.raw = plus(tally.raw, times(labels, size));
  tally.rotations =
      plus(tally.rotations, labels == 1 ? rotation_classes : times(apart, symmetries / rotations));
  tally.symmetries = plus(tally.symmetries, apart);
  if (st.options->tally_by_shape) {  // the same without the labels
    AssemblyTally::Counts& s = tally.by_shape ? *tally.by_shape : tally.by_shape.emplace();
    s.raw += size;
    s.rotations += rotation_classes;
    s.symmetries += 1;
  }
}

// An empty set of selections, packed for these kinds and their copies.
SelectionSet PlateAssembly::empty_selections() const {
  std::vector<std::uint16_t> copies;
  for (const PlateKind& k : kinds_)
    copies.push_back(static_cast<std::uint16_t>(std::min(k.multiplicity, 65535)));
  return SelectionSet(std::move(copies));
}

void PlateAssembly::collect_prefixes(State& st, int depth, int split, Prefix& current,
                                     std::vector<Prefix>& out) const {
  if (depth == split) {
    out.push_back(current);
    return;
  }
  const DepthTable& d = depths_[depth];
  const BucketTable& t = tables_[d.table];
  const std::uint32_t bucket = bucket_of(t.decided, st.covered[d.face]);
  for (std::uint32_t i = t.bucket_start[bucket]; i != t.bucket_start[bucket + 1]; ++i) {
    if (!fits(st, depth, t.candidates[i])) continue;
    if (depth == 0 && st.anchor != nullptr && !least_at_anchor(*st.anchor, t.candidates[i]))
      continue;
    place(st, depth, t.candidates[i]);
    current[depth] = i;
    collect_prefixes(st, depth + 1, split, current, out);
    unplace(st, depth, t.candidates[i]);
  }
}

PlateAssembly::State PlateAssembly::start_state(const AssemblyOptions& options) const {
  State start;
  const int faces = surface_->face_count();
  start.covered.assign(faces, 0);
  start.covered_before.assign(links_.size(), 0);
  start.remaining.reserve(kinds_.size());
  for (std::size_t k = 0; k < kinds_.size(); ++k) {
    start.remaining.push_back(kinds_[k].multiplicity);
    start.left_by_kind_bit[kind_bit(static_cast<int>(k))] += kinds_[k].multiplicity;
    start.left_by_corners[corners_[k]] += kinds_[k].multiplicity;
    start.left_by_edges[edges_[k]] += kinds_[k].multiplicity;
  }
  for (int b = 0; b < 64; ++b)
    if (start.left_by_kind_bit[b] > 0) start.free_kind_bits |= std::uint64_t{1} << b;
  start.group_used.assign(group_capacity_.size(), 0);
  start.chosen.assign(faces, nullptr);
  start.key.assign(faces, {});
  start.selection.assign(faces, 0);
  start.options = &options;
  return start;
}

AssemblyTally PlateAssembly::count(const AssemblyOptions& options) const {
  // Fewer pieces than faces: no cover, and nothing to search (a 3x3x3
  // cube's 54 faces from 36 pieces would search for a long time).
  if (usable_pieces(kinds_, group_capacity_) < static_cast<std::uint64_t>(surface_->face_count()) ||
      !borders_fillable()) {
    AssemblyTally none;
    if (options.tally_by_shape) none.by_shape.emplace();
    return none;
  }
  State start = start_state(options);
  const bool list_raw = options.list_limit > 0 && options.list_up_to == SymmetryGroup::None;
  start.reduced = !options.every_solution && !list_raw;
  // A listing up to rotations needs every rotation class's least form made.
  const bool list_rotations =
      options.list_limit > 0 && options.list_up_to == SymmetryGroup::Rotations;
  if (start.reduced) start.anchor = list_rotations ? &by_rotations_ : &by_symmetries_;

  // Split where there are many more subtrees than threads, but no deeper
  // than half the faces: the prefixes are made on one thread.
  constexpr std::size_t kWantedSubtrees = 512;
  const int deepest = std::max(1, static_cast<int>(depths_.size()) / 2);
  int split = 1;
  std::vector<Prefix> prefixes;
  for (;; ++split) {
    prefixes.clear();
    Prefix current(split);
    collect_prefixes(start, 0, split, current, prefixes);
    if (prefixes.size() >= kWantedSubtrees || split == deepest) break;
  }
  const auto subtrees = static_cast<std::uint32_t>(prefixes.size());
  Work work;
  if (options.work_done) {
    work.estimate = estimate_subtrees(start, split, prefixes);
    for (const double e : work.estimate) work.total += e;
    if (options.cluster != nullptr) work.processes = options.cluster->processes();
    start.work = &work;
  }

  SubtreeRun<AssemblyTally> run;
  run.progress = options.progress;
  run.cluster = options.cluster;
  const SelectionSet no_selections = empty_selections();  // packed for these kinds
  AssemblyTally none;
  none.list_limit = options.list_limit;
  none.selections = no_selections;
  SubtreeLedger<AssemblyTally> ledger(options.checkpoint, options.checkpoint_name, subtrees, run,
                                      none);
  if (start.work != nullptr && !run.pending.empty()) {  // the others finished before
    double pending = 0;
    for (const std::uint32_t s : run.pending) pending += work.estimate[s];
    work.before = work.total - pending;
  }
  // The share done before this run, first: the time left comes from what
  // this run adds to it (a resumed count's earlier part took no time here).
  if (start.work != nullptr) options.work_done(work.share());
  const bool without_forms = start.reduced && count_without_forms(options);
  const auto search_one = [&](const Prefix& prefix, AssemblyTally& tally) {
    tally.list_limit = options.list_limit;
    if (tally.selections.size() == 0) tally.selections = no_selections;
    if (options.stop && options.stop()) {
      tally.complete = false;
      return false;
    }
    State st = start;
    std::uint64_t weight = 1;
    int ties = 0;
    for (int d = 0; d < split; ++d) {
      const Candidate& c = tables_[depths_[d].table].candidates[prefix[d]];
      if (without_forms) {
        weight = times(weight, weight_of(st, c));
        ties += ties_of(st, d, c);
      }
      place(st, d, c);
    }
    st.raw_reported = tally.raw;
    if (without_forms) {
      const auto most_ties = static_cast<std::size_t>(acting_order(*st.anchor));
      tally.raw_by_ties.resize(std::max(tally.raw_by_ties.size(), most_ties + 1));
      st.tally = &tally;
      search_weights(st, split, weight, ties);
      tally.raw = raw_from_ties(tally.raw_by_ties, acting_order(*st.anchor));
    } else {
      search(st, split, tally);
    }
    if (st.work != nullptr && !st.stopped) {
      st.work->finished_nodes.fetch_add(st.nodes, std::memory_order_relaxed);
      st.work->finished_estimate.fetch_add(work.estimate[&prefix - prefixes.data()],
                                           std::memory_order_relaxed);
    }
    report(st, tally, st.nodes & 4095);  // the rest
    if (st.stopped) {
      tally.complete = false;
      return false;
    }
    ++tally.subtrees_done;
    return true;
  };
  AssemblyTally total = ledger.nothing_left()
                            ? AssemblyTally{}
                            : search_subtrees<AssemblyTally, Prefix>(prefixes, search_one, run);
  ledger.record();
  total.list_limit = options.list_limit;
  if (options.cluster != nullptr && options.cluster->processes() > 1)
    total = sum_over(*options.cluster, total, no_selections);
  for (const auto& bytes : ledger.earlier_tallies())
    total += AssemblyTally::decode(*bytes, options.checkpoint->dir());
  total.subtrees_total = prefixes.size();
  if (without_forms) {
    total.raw = raw_from_ties(total.raw_by_ties, acting_order(*start.anchor));
    const auto classes = [&](std::size_t order) {
      return total.complete ? exact_quotient(total.raw, static_cast<int>(order))
                            : total.raw / order;
    };
    total.rotations = classes(static_cast<std::size_t>(surface_->rotation_count()));
    total.symmetries = classes(sym_source_.size());
  }
  total.keep_smallest();
  total.piece_choices = piece_choices(total, options.label_copies);
  if (options.tally_by_shape) {
    if (!total.by_shape) total.by_shape.emplace();
    total.by_shape->piece_choices = piece_choices(total, false);
  }
  return total;
}

const PlateAssembly::BucketTable& PlateAssembly::table_for(PlateGrid decided, Restart& r) const {
  auto it = r.tables.find(decided);
  if (it == r.tables.end()) it = r.tables.emplace(decided, make_bucket_table(decided)).first;
  return it->second;
}

bool PlateAssembly::free_to_place(const State& st, int f, const Candidate& c) const {
  const int group = kinds_[c.kind].group;
  return (c.grid & st.covered[f]) == 0 && st.remaining[c.kind] != 0 &&
         (group < 0 || st.group_used[group] < group_capacity_[group]);
}

// The open face with the fewest candidates that fit (fail first); -1 when
// some face has none.
int PlateAssembly::most_constrained_face(const State& st, Restart& r) const {
  int best = -1;
  std::uint32_t best_size = UINT32_MAX;
  for (int f = 0; f < surface_->face_count(); ++f) {
    if (r.placed[f]) continue;
    PlateGrid decided = 0, undecided = 0;
    bool touches = false;
    for (const auto& [bit, g] : shared_cells_[f]) {
      (r.placed[g] ? decided : undecided) |= PlateGrid{1} << bit;
      touches |= r.placed[g];
    }
    if (!touches && best >= 0) continue;
    decided &= ~undecided;
    const BucketTable& t = table_for(decided, r);
    const std::uint32_t bucket = bucket_of(decided, st.covered[f]);
    // The candidates that fit (the bucket's pattern on the decided cells,
    // no cell a neighbour covers, the piece free), counted up to the best
    // so far: none is a dead end, found before any placement is tried.
    std::uint32_t size = 0;
    for (std::uint32_t i = t.bucket_start[bucket];
         i != t.bucket_start[bucket + 1] && size < best_size; ++i)
      size += free_to_place(st, f, t.candidates[i]);
    if (size == 0) return -1;
    if (size < best_size) best = f, best_size = size;
  }
  return best;
}

// Depth-first, each time on the most constrained open face; true when the
// restart is over (enough solutions, out of budget, or stopped).
bool PlateAssembly::probe(State& st, int depth, Restart& r) const {
  if (depth == surface_->face_count()) {
    if (r.seen->insert(st.key).second) r.found->push_back(st.key);
    return r.found->size() >= r.wanted;
  }
  if (!border_sums_reachable(st, depth)) return false;
  const int f = most_constrained_face(st, r);
  if (f < 0) return false;
  PlateGrid decided = 0, undecided = 0;
  for (const auto& [bit, g] : shared_cells_[f])
    (r.placed[g] ? decided : undecided) |= PlateGrid{1} << bit;
  decided &= ~undecided;
  const BucketTable& t = table_for(decided, r);
  const std::uint32_t bucket = bucket_of(decided, st.covered[f]);
  const std::uint32_t begin = t.bucket_start[bucket], size = t.bucket_start[bucket + 1] - begin;
  const auto [link_begin, link_end] = all_link_range_[f];
  for (std::uint32_t i = 0; i < size; ++i) {
    const Candidate& c = t.candidates[begin + (r.offset[depth] + i) % size];
    if (!free_to_place(st, f, c)) continue;
    const int group = kinds_[c.kind].group;
    for (std::uint32_t l = link_begin; l != link_end; ++l)
      st.covered[all_links_[l].face] |=
          all_links_[l].image[extract_bits(c.grid, all_links_[l].cells)];
    --st.remaining[c.kind];
    take_borders(st, c.kind, 1);
    if (group >= 0) ++st.group_used[group];
    r.placed[f] = true;
    st.key[f] = {c.kind, c.transform};
    ++r.placements;
    const bool check = (r.placements & 1023) == 0;
    if (check && r.progress != nullptr) r.progress->add(1024);
    const bool over =
        r.placements > r.budget || (check && *r.stop && (*r.stop)()) || probe(st, depth + 1, r);
    if (r.placements > r.budget) r.out_of_budget = true;
    r.placed[f] = false;
    ++st.remaining[c.kind];
    take_borders(st, c.kind, -1);
    if (group >= 0) --st.group_used[group];
    for (std::uint32_t l = link_begin; l != link_end; ++l)
      st.covered[all_links_[l].face] &=
          ~all_links_[l].image[extract_bits(c.grid, all_links_[l].cells)];
    if (over) return true;
  }
  return false;
}

FirstResult PlateAssembly::first(const FirstOptions& options) const {
  FirstResult result;
  // Fewer pieces than faces, or none that fill the borders: nothing to search.
  if (usable_pieces(kinds_, group_capacity_) < static_cast<std::uint64_t>(surface_->face_count()) ||
      !borders_fillable()) {
    result.exhausted = true;
    return result;
  }
  const AssemblyOptions plain;
  std::set<AssemblyKey> seen;
  std::mt19937_64 random(options.seed);
  Restart r;
  r.wanted = options.wanted;
  r.stop = &options.stop;
  r.progress = options.placements;
  r.found = &result.solutions;
  r.seen = &seen;
  r.offset.resize(depths_.size());
  for (std::uint64_t budget = std::max<std::uint64_t>(options.node_budget, 1);;
       budget = budget > UINT64_MAX / 2 ? UINT64_MAX : 2 * budget) {
    State st = start_state(plain);
    r.placed.assign(surface_->face_count(), false);
    for (auto& o : r.offset) o = static_cast<std::uint32_t>(random());
    r.budget = budget;
    r.out_of_budget = false;
    ++result.restarts;
    const bool over = probe(st, 0, r);
    result.placements += std::min(r.placements, budget);
    r.placements = 0;
    if (result.solutions.size() >= options.wanted) break;
    if (!over && !r.out_of_budget) {
      result.exhausted = true;
      break;
    }
    if (options.stop && options.stop()) break;
  }
  return result;
}

}  // namespace cubenum::search
