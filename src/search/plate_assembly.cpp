#include "cubenum/search/plate_assembly.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace cubenum::search {
namespace {

constexpr CellMask cell_bit(int cell) {
  return CellMask{1} << cell;
}

// The bits of `value` selected by `mask`, packed to the low end (PEXT).
std::uint64_t extract_bits(std::uint64_t value, std::uint64_t mask) {
#if defined(__BMI2__)
  return _pext_u64(value, mask);
#else
  std::uint64_t out = 0;
  for (std::uint64_t bit = 1; mask != 0; mask &= mask - 1, bit <<= 1)
    if (value & mask & -mask) out |= bit;
  return out;
#endif
}

// Faces in a fixed order: each next face has as many placed neighbours as
// possible (ties: the lower index), so constraints bite early.
std::vector<int> fill_order(const PlateSurface& surface) {
  std::vector<int> order{0};
  std::vector<bool> placed(surface.face_count(), false);
  placed[0] = true;
  while (static_cast<int>(order.size()) < surface.face_count()) {
    int best = -1, best_links = -1;
    for (int f = 0; f < surface.face_count(); ++f) {
      if (placed[f]) continue;
      int links = 0;
      for (const int g : order) links += surface.adjacent(f, g);
      if (links > best_links) best = f, best_links = links;
    }
    order.push_back(best);
    placed[best] = true;
  }
  return order;
}

}  // namespace

struct PlateAssembly::State {
  CellMask covered = 0;
  std::vector<int> remaining, group_used;
  std::array<const Candidate*, kMaxAssemblyFaces> chosen{};
  const AssemblyOptions* options = nullptr;
  bool reduced = false;  // generate only solutions with their least kind on face 0
};

AssemblyTally& AssemblyTally::operator+=(const AssemblyTally& other) {
  raw += other.raw;
  rotations += other.rotations;
  symmetries += other.symmetries;
  selections.insert(other.selections.begin(), other.selections.end());
  list_limit = std::max(list_limit, other.list_limit);
  listed.insert(listed.end(), other.listed.begin(), other.listed.end());
  keep_smallest();
  return *this;
}

void AssemblyTally::keep_smallest() {
  std::sort(listed.begin(), listed.end());
  if (listed.size() > list_limit) listed.resize(list_limit);
}

PlateAssembly::PlateAssembly(const PlateSurface& surface, std::vector<PlateKind> kinds,
                             std::vector<int> group_capacity)
    : surface_(&surface), kinds_(std::move(kinds)), group_capacity_(std::move(group_capacity)) {
  if (surface.face_count() > kMaxAssemblyFaces || surface.cell_count() > kMaxMaskCells)
    throw std::invalid_argument("PlateAssembly: surface too large for 128-bit cell masks");
  if (kinds_.size() >= (1U << 15)) throw std::invalid_argument("PlateAssembly: too many kinds");
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
  for (const PlateKind& k : kinds_) {
    std::array<std::uint8_t, kPlateTransforms> canon{};
    for (int e = 0; e < kPlateTransforms; ++e) {
      canon[e] = static_cast<std::uint8_t>(e);
      for (int d = 0; d < e; ++d)
        if (transform_grid(k.grid, d) == transform_grid(k.grid, e)) {
          canon[e] = canon[d];
          break;
        }
    }
    canonical_transform_.push_back(canon);
    std::array<std::uint8_t, kPlateTransforms * kPlateTransforms> after{};
    for (int frame = 0; frame < kPlateTransforms; ++frame)
      for (int e = 0; e < kPlateTransforms; ++e)
        after[frame * kPlateTransforms + e] = canon[compose_transforms(frame, e)];
    canonical_after_.push_back(after);
  }

  const std::vector<int> order = fill_order(s);
  std::vector<int> depth_of(s.face_count());
  for (int d = 0; d < s.face_count(); ++d) depth_of[order[d]] = d;

  for (int d = 0; d < s.face_count(); ++d) {
    DepthTable t;
    t.face = order[d];
    // Cells of this face whose every other face is already placed: the new
    // plate must cover exactly the ones they left open.
    for (int r = 0; r < kPlateSide; ++r)
      for (int c = 0; c < kPlateSide; ++c) {
        const int cell = s.cell_of(t.face, {r, c});
        const auto& faces = s.faces_of(cell);
        if (faces.size() < 2) continue;
        if (std::all_of(faces.begin(), faces.end(),
                        [&](int g) { return g == t.face || depth_of[g] < d; }))
          t.decided_cells.push_back(cell);
      }
    std::sort(t.decided_cells.begin(), t.decided_cells.end());
    for (const int cell : t.decided_cells)
      (cell < 64 ? t.decided_lo : t.decided_hi) |= std::uint64_t{1} << (cell % 64);
    t.lo_bits = std::popcount(t.decided_lo);

    std::vector<std::pair<std::uint32_t, Candidate>> keyed;
    for (std::size_t k = 0; k < kinds_.size(); ++k)
      for (int e = 0; e < kPlateTransforms; ++e) {
        if (canonical_transform_[k][e] != e) continue;
        const PlateGrid grid = transform_grid(kinds_[k].grid, e);
        CellMask cells = 0;
        for (int r = 0; r < kPlateSide; ++r)
          for (int c = 0; c < kPlateSide; ++c)
            if (grid & plate_bit(r, c)) cells |= cell_bit(s.cell_of(t.face, {r, c}));
        const Candidate cand{cells, static_cast<std::uint16_t>(k), static_cast<std::uint8_t>(e)};
        keyed.emplace_back(bucket_of(t, ~cells), cand);
      }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    const std::uint32_t buckets = 1U << t.decided_cells.size();
    t.bucket_start.assign(buckets + 1, 0);
    for (const auto& [key, cand] : keyed) {
      ++t.bucket_start[key + 1];
      t.candidates.push_back(cand);
    }
    for (std::uint32_t b = 0; b < buckets; ++b) t.bucket_start[b + 1] += t.bucket_start[b];
    depths_.push_back(std::move(t));
  }

  // Symmetry s maps face src to face f with a frame transform; the image of
  // a solution at face f is the source face's plate, transformed.
  for (const auto& sym : s.symmetries()) {
    std::array<std::uint8_t, kMaxAssemblyFaces> source{}, frame{};
    for (int f = 0; f < s.face_count(); ++f) {
      source[sym.face_image[f]] = static_cast<std::uint8_t>(f);
      frame[sym.face_image[f]] = static_cast<std::uint8_t>(sym.frame_transform[f]);
    }
    sym_source_.push_back(source);
    sym_frame_.push_back(frame);
  }
  std::vector<bool> reached(s.face_count(), false);
  for (int r = 0; r < s.rotation_count(); ++r) reached[sym_source_[r][0]] = true;
  rotations_reach_all_faces_ = std::find(reached.begin(), reached.end(), false) == reached.end();
}

// The bucket key: bit i set when decided cell i is open (not covered).
std::uint32_t PlateAssembly::bucket_of(const DepthTable& t, CellMask covered) const {
  const CellMask open = ~covered;
  const std::uint64_t lo = extract_bits(static_cast<std::uint64_t>(open), t.decided_lo);
  const std::uint64_t hi = extract_bits(static_cast<std::uint64_t>(open >> 64), t.decided_hi);
  return static_cast<std::uint32_t>(lo | (hi << t.lo_bits));
}

bool PlateAssembly::place(State& st, int depth, const Candidate& c) const {
  if (c.cells & st.covered) return false;
  if (st.remaining[c.kind] == 0) return false;
  if (st.reduced && depth > 0 && c.kind < st.chosen[0]->kind) return false;
  const int group = kinds_[c.kind].group;
  if (group >= 0 && st.group_used[group] >= group_capacity_[group]) return false;
  st.covered |= c.cells;
  --st.remaining[c.kind];
  if (group >= 0) ++st.group_used[group];
  st.chosen[depth] = &c;
  return true;
}

void PlateAssembly::unplace(State& st, int /*depth*/, const Candidate& c) const {
  st.covered &= ~c.cells;
  ++st.remaining[c.kind];
  const int group = kinds_[c.kind].group;
  if (group >= 0) --st.group_used[group];
}

void PlateAssembly::search(State& st, int depth, AssemblyTally& tally) const {
  if (depth == static_cast<int>(depths_.size())) {
    record(st, tally);
    return;
  }
  const DepthTable& t = depths_[depth];
  const std::uint32_t bucket = bucket_of(t, st.covered);
  const Candidate* begin = t.candidates.data() + t.bucket_start[bucket];
  const Candidate* end = t.candidates.data() + t.bucket_start[bucket + 1];
  if (depth + 1 == static_cast<int>(depths_.size())) {
    // The last face: its bucket fixes every cell, so only the piece must be free.
    for (const Candidate* c = begin; c != end; ++c) {
      const int group = kinds_[c->kind].group;
      if (st.remaining[c->kind] == 0 || (st.reduced && c->kind < st.chosen[0]->kind) ||
          (group >= 0 && st.group_used[group] >= group_capacity_[group]) || (c->cells & st.covered))
        continue;
      st.chosen[depth] = c;
      record(st, tally);
    }
    return;
  }
  for (const Candidate* c = begin; c != end; ++c) {
    if (!place(st, depth, *c)) continue;
    search(st, depth + 1, tally);
    unplace(st, depth, *c);
  }
}

AssemblyKey PlateAssembly::image(const AssemblyKey& key, int s) const {
  AssemblyKey out{};
  for (int f = 0; f < surface_->face_count(); ++f) {
    const FacePlacement p = key[sym_source_[s][f]];
    out[f] = {p.kind, canonical_after_[p.kind][sym_frame_[s][f] * kPlateTransforms + p.transform]};
  }
  return out;
}

int PlateAssembly::image_order(const AssemblyKey& key, int s) const {
  for (int f = 0; f < surface_->face_count(); ++f) {
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
    int earlier = 0;
    for (int g = 0; g < f; ++g) earlier += key[g].kind == key[f].kind;
    n *= static_cast<std::uint64_t>(kinds_[key[f].kind].multiplicity - earlier);
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
  for (const SelectionKey& selection : tally.selections) {
    // Choose which copies: C(multiplicity, uses) for each kind used.
    std::uint64_t ways = 1;
    for (int f = 0; f < surface_->face_count(); ++f) {
      if (f > 0 && selection[f] == selection[f - 1]) continue;
      int uses = 0;
      for (int g = f; g < surface_->face_count() && selection[g] == selection[f]; ++g) ++uses;
      const int m = kinds_[selection[f]].multiplicity;
      for (int i = 0; i < uses; ++i) ways = ways * static_cast<std::uint64_t>(m - i) / (i + 1);
    }
    total += ways;
  }
  return total;
}

void PlateAssembly::record(const State& st, AssemblyTally& tally) const {
  const int faces = surface_->face_count();
  AssemblyKey key{};
  for (int d = 0; d < faces; ++d)
    key[depths_[d].face] = {st.chosen[d]->kind, st.chosen[d]->transform};

  // Canonical when no image is smaller; the rotations come first, so a
  // smaller rotated image rules out both counts at once. Face 0 comes first
  // in the order, and rotations bring every face to face 0 (on the cube), so
  // a canonical solution has its smallest kind there, and only symmetries
  // bringing a face with that kind to face 0 can give an image as small.
  const int rotations = surface_->rotation_count();
  const int symmetries = static_cast<int>(sym_source_.size());
  std::uint16_t least_kind = key[0].kind;
  for (int f = 1; f < faces; ++f) least_kind = std::min(least_kind, key[f].kind);
  bool least_rotated = !(rotations_reach_all_faces_ && key[0].kind != least_kind);
  bool least_overall = least_rotated;
  int fixing_rotations = 1, fixing_all = 1;  // stabiliser orders
  for (int s = 1; s < symmetries && least_overall; ++s) {
    if (s >= rotations && !least_rotated) break;
    if (key[sym_source_[s][0]].kind > key[0].kind) continue;  // larger at face 0
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
  const std::uint64_t labels = st.options->label_copies ? labellings(key) : 1;
  // Reduced search: only solutions with their least kind on face 0 are
  // made; each rotation class adds its size (orbit-stabiliser) to raw.
  if (!st.reduced) tally.raw += labels;
  if (st.reduced && least_rotated)
    tally.raw += labels * static_cast<std::uint64_t>(rotations / fixing_rotations);
  if (least_rotated) tally.rotations += labels == 1 ? 1 : exact_quotient(labels, fixing_rotations);
  if (least_overall) tally.symmetries += labels == 1 ? 1 : exact_quotient(labels, fixing_all);

  if (least_overall && st.options->count_selections) {
    SelectionKey selection{};
    for (int f = 0; f < faces; ++f) selection[f] = key[f].kind;
    // Insertion sort: six entries (std::sort trips GCC 12's -Warray-bounds).
    for (int i = 1; i < faces; ++i)
      for (int j = i; j > 0 && selection[j - 1] > selection[j]; --j)
        std::swap(selection[j - 1], selection[j]);
    tally.selections.insert(selection);
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

void PlateAssembly::collect_prefixes(State& st, int depth, int split,
                                     std::vector<Prefix>& out) const {
  static thread_local Prefix current{};
  if (depth == split) {
    out.push_back(current);
    return;
  }
  const DepthTable& t = depths_[depth];
  const std::uint32_t bucket = bucket_of(t, st.covered);
  for (std::uint32_t i = t.bucket_start[bucket]; i != t.bucket_start[bucket + 1]; ++i) {
    if (!place(st, depth, t.candidates[i])) continue;
    current[depth] = i;
    collect_prefixes(st, depth + 1, split, out);
    unplace(st, depth, t.candidates[i]);
  }
}

AssemblyTally PlateAssembly::count(const AssemblyOptions& options) const {
  State start;
  start.remaining.reserve(kinds_.size());
  for (const PlateKind& k : kinds_) start.remaining.push_back(k.multiplicity);
  start.group_used.assign(group_capacity_.size(), 0);
  start.options = &options;
  const bool list_raw = options.list_limit > 0 && options.list_up_to == SymmetryGroup::None;
  start.reduced = rotations_reach_all_faces_ && !options.every_solution && !list_raw;

  // Split where there are many more subtrees than threads, but no deeper
  // than half the faces: the prefixes are made on one thread.
  constexpr std::size_t kWantedSubtrees = 512;
  const int deepest = std::max(1, static_cast<int>(depths_.size()) / 2);
  int split = 1;
  std::vector<Prefix> prefixes;
  for (;; ++split) {
    prefixes.clear();
    collect_prefixes(start, 0, split, prefixes);
    if (prefixes.size() >= kWantedSubtrees || split == deepest) break;
  }

  AssemblyTally total = search_subtrees<AssemblyTally, Prefix>(
      prefixes,
      [&](const Prefix& prefix, AssemblyTally& tally) {
        tally.list_limit = options.list_limit;
        State st = start;
        for (int d = 0; d < split; ++d) place(st, d, depths_[d].candidates[prefix[d]]);
        search(st, split, tally);
      },
      options.progress);
  total.list_limit = options.list_limit;
  total.keep_smallest();
  total.piece_choices = piece_choices(total, options.label_copies);
  return total;
}

}  // namespace cubenum::search
