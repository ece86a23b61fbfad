// PlateAssembly's tables, made once per surface and kinds: the
// placements, the fill order, the candidates bucketed on the cells the
// placed faces decide, the links between faces, the forward checks, and
// the border sums with the check that the pieces can fill the borders.
#include <algorithm>
#include <bit>
#include <stdexcept>

#include "plate_assembly_internal.hpp"

namespace cubenum::search {
namespace {

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

}  // namespace cubenum::search
