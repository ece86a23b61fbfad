// PlateAssembly::count: the search over the fill order, its subtrees dealt
// to threads and processes; canonical forms and the counts without them.
// The tables are in plate_tables.cpp, the symmetries in plate_symmetry.cpp,
// the size estimate in plate_estimate.cpp, the tally in plate_tally.cpp,
// first() in plate_first.cpp.
#include "cubenum/search/plate_assembly.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "cubenum/core/cluster.hpp"
#include "cubenum/search/subtree_count.hpp"
#include "plate_assembly_internal.hpp"

namespace cubenum::search {
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

}  // namespace

// How many elements of `group` fix `c`, placed on `face` (of the anchor's
// orbit) and brought to the anchor by a rotation.
int PlateAssembly::fixing_at_anchor(const AnchorGroup& group, int face, const Candidate& c) const {
  const auto& after = canonical_after_[c.kind];
  const int moved = after[sym_frame_[to_anchor_[face]][anchor_] * kPlateTransforms + c.transform];
  return static_cast<int>(
      std::count_if(group.frames.begin(), group.frames.end(),
                    [&](std::uint8_t f) { return after[f * kPlateTransforms + moved] == moved; }));
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
  Work work;
  if (options.work_done) {
    work.estimate = estimate_subtrees(start, split, prefixes);
    for (const double e : work.estimate) work.total += e;
    if (options.cluster != nullptr) work.processes = options.cluster->processes();
    start.work = &work;
  }

  const SelectionSet no_selections = empty_selections();  // packed for these kinds
  SubtreeCount<AssemblyTally> count;
  count.progress = options.progress;
  count.cluster = options.cluster;
  count.checkpoint = options.checkpoint;
  count.checkpoint_name = options.checkpoint_name;
  count.empty.list_limit = options.list_limit;
  count.empty.selections = no_selections;
  count.sum_across = [&](Cluster& cluster, AssemblyTally mine) {
    return sum_over(cluster, mine, no_selections);
  };
  count.starting = [&](std::span<const std::uint32_t> pending) {
    if (start.work == nullptr) return;
    if (!pending.empty()) {  // the others finished before
      double left = 0;
      for (const std::uint32_t s : pending) left += work.estimate[s];
      work.before = work.total - left;
    }
    // The share done before this run, first: the time left comes from what
    // this run adds to it (a resumed count's earlier part took no time here).
    options.work_done(work.share());
  };
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
  AssemblyTally total =
      count_subtrees<AssemblyTally, Prefix>(std::span<const Prefix>(prefixes), search_one, count)
          .tally;
  total.list_limit = options.list_limit;
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

}  // namespace cubenum::search
