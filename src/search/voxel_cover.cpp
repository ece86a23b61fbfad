// The polycube engine's search (search/voxel_cover.hpp): subtrees dealt to
// every thread and process, their tallies checkpointed; the searcher of a
// subtree is in voxel_searcher.hpp.
#include "cubenum/search/voxel_cover.hpp"

#include <algorithm>
#include <limits>

#include "cubenum/core/parallel.hpp"
#include "cubenum/search/subtree_count.hpp"
#include "voxel_cover_model.hpp"
#include "voxel_searcher.hpp"

namespace cubenum::search {

namespace {

// VoxelCover::cell_choice.
CellChoice resolved_choice(const VoxelCover::Model& m) {
  // The sets' words are numbered in 16 bits; the cells' sets at most 64 MiB.
  const double words = (double(m.piece.size()) + 63) / 64;
  const bool possible = words <= 65535 && double(m.cells) * words * 8 <= double(1 << 26);
  const bool solid = std::all_of(m.extent.begin(), m.extent.end(), [](int e) { return e >= 2; });
  if (!possible || m.cell_choice == CellChoice::lowest) return CellChoice::lowest;
  return m.cell_choice == CellChoice::fewest_fits || solid ? CellChoice::fewest_fits
                                                           : CellChoice::lowest;
}

// The roots: the paths of the tree of fixed pieces (Model::fixing; or the
// empty prefix), made longer breadth-first until there are plenty.
template <int W>
std::vector<Prefix> split(const VoxelCover::Model& m, const Tables<W>& t) {
  constexpr std::size_t kPlenty = 4096;
  const std::function<bool()> never;
  std::vector<Prefix> level;
  std::vector<Prefix> roots;
  Prefix path;
  std::function<void(const VoxelCover::Model::Fixing*)> walk =
      [&](const VoxelCover::Model::Fixing* f) {
        if (f == nullptr || f->piece < 0) return roots.push_back(path);
        for (const auto& [r, rep] : f->reps) {
          path.push_back(r);
          walk(rep.next.get());
          path.pop_back();
        }
      };
  walk(&m.fixing);
  for (const Prefix& root : roots) {
    Searcher<W> s(m, t, never);
    s.apply(root);
    if (root.empty() || !s.dead(t.masks[root.back()])) level.push_back(root);
  }
  for (int depth = 0; depth < 64 && level.size() < kPlenty; ++depth) {
    std::vector<Prefix> next;
    bool grew = false;
    for (const Prefix& prefix : level) {
      Searcher<W> s(m, t, never);
      s.apply(prefix);
      bool leaf = false;
      s.children(next, prefix, leaf);
      if (leaf) next.push_back(prefix);
      grew = grew || !leaf;
    }
    level = std::move(next);
    if (!grew) break;
  }
  return level;
}

template <int W>
CoverCounts count_with(const VoxelCover::Model& m, const CoverOptions& options) {
  const Tables<W> t(m, resolved_choice(m));
  const std::vector<Prefix> prefixes = split<W>(m, t);
  SubtreeCount<Tally> count;
  count.progress = options.progress;
  count.cluster = options.cluster;
  count.checkpoint = options.checkpoint;
  count.checkpoint_name = options.checkpoint_name;
  // Across processes: each has counted the subtrees it drew.
  count.sum_across = [](Cluster& cluster, Tally mine) {
    std::array<std::uint64_t, 6> sum = {mine.raw,   mine.rotations, mine.symmetries,
                                        mine.nodes, mine.stopped,   mine.finished};
    cluster.sum(sum);
    return Tally{sum[0], sum[1], sum[2], sum[3], sum[4], sum[5]};
  };
  const auto search_one = [&](const Prefix& prefix, Tally& tally) {
    Searcher<W> s(m, t, options.stop);
    s.apply(prefix);
    const bool whole = s.search(tally);
    ++(whole ? tally.finished : tally.stopped);
    return whole;
  };
  const SubtreeTotal<Tally> total =
      count_subtrees<Tally, Prefix>(std::span<const Prefix>(prefixes), search_one, count);
  CoverCounts c;
  c.raw = total.tally.raw;
  c.rotations = total.tally.rotations / m.rotation_order;
  c.symmetries = total.tally.symmetries / m.group_order();
  c.nodes = total.tally.nodes;
  c.complete = total.tally.stopped == 0;
  c.subtrees_total = prefixes.size();
  c.subtrees_done = total.tally.finished + total.earlier_finished;
  return c;
}

// An assembly found, one per class, and how many raw assemblies and
// classes up to rotation its class holds.
struct Found {
  std::vector<int> placements;
  std::uint64_t raw = 0, rotations = 0;
};

std::vector<int> image(const VoxelCover::Model& m, const std::vector<int>& a, int k) {
  std::vector<int> b;
  for (const int p : a) b.push_back(m.perm[k][p]);
  std::sort(b.begin(), b.end());
  return b;
}

// One per class: the least (as a sorted list of placements) of the class's
// members that the search meets (Model::searched).
bool least_of_class(const VoxelCover::Model& m, const std::vector<int>& a, bool mirrored) {
  for (int k = 1; k < (mirrored ? m.group_order() : m.rotation_order); ++k) {
    const std::vector<int> b = image(m, a, k);
    if (m.searched(b) && b < a) return false;
  }
  return true;
}

// The class of an assembly found, with its sizes: its members are its
// images under the rotations, and the reflections where the mirror image
// is an assembly.
Found class_of(const VoxelCover::Model& m, const std::vector<int>& a, bool mirrored) {
  Found f{a, 0, 0};
  std::vector<std::vector<int>> rotated, all;
  for (int k = 0; k < (mirrored ? m.group_order() : m.rotation_order); ++k)
    (k < m.rotation_order ? rotated : all).push_back(image(m, a, k));
  for (auto* v : {&rotated, &all}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  all.insert(all.end(), rotated.begin(), rotated.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  f.raw = all.size();
  f.rotations = all.size() / rotated.size();
  return f;
}

// The class's assembly as pieces and voxels.
CoverClass cover_class(const VoxelCover::Model& m, const Found& f) {
  CoverClass c{{}, f.raw, f.rotations};
  for (const int p : f.placements) {
    PlacedPiece placed{m.piece[p], {}};
    for (int cell = 0; cell < m.cells; ++cell)
      if (m.covers(p, cell)) placed.voxels.push_back(m.voxel_of[cell]);
    if (m.coloured) placed.colours = m.colours[p];
    c.assembly.push_back(std::move(placed));
  }
  return c;
}

template <int W>
std::vector<Found> first_with(const VoxelCover::Model& m, std::size_t n,
                              const std::function<bool()>& stop) {
  const Tables<W> t(m, resolved_choice(m));
  std::vector<Found> found;
  const std::vector<Prefix> prefixes = split<W>(m, t);
  const auto search = [&](const Prefix& prefix, std::vector<Found>& into,
                          const std::function<bool()>& enough) {
    Searcher<W> s(m, t, enough);
    s.apply(prefix);
    Tally ignored;
    s.search(ignored, [&](const std::vector<int>& a, bool mirrored) {
      if (into.size() >= n || !least_of_class(m, a, mirrored)) return;
      into.push_back(class_of(m, a, mirrored));
    });
  };
  if (n == std::numeric_limits<std::size_t>::max()) {
    // Every class: the subtrees on every thread, joined in their order.
    std::vector<std::vector<Found>> parts(prefixes.size());
    parallel_for_chunks(prefixes.size(), 1, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) search(prefixes[i], parts[i], stop);
    });
    for (auto& part : parts) found.insert(found.end(), part.begin(), part.end());
    return found;
  }
  const auto enough = [&] { return found.size() >= n || (stop && stop()); };
  for (const Prefix& prefix : prefixes) {
    if (enough()) break;
    search(prefix, found, enough);
  }
  return found;
}

template <class Fn>
auto by_words(int words, Fn&& fn) {
  if (words <= 1) return fn(std::integral_constant<int, 1>{});
  if (words <= 2) return fn(std::integral_constant<int, 2>{});
  if (words <= 4) return fn(std::integral_constant<int, 4>{});
  if (words <= 8) return fn(std::integral_constant<int, 8>{});
  // Large boxes (a burr's cage, BurrTools' 14x14x14 results) are rare: two
  // widths keep the build short.
  if (words <= 16) return fn(std::integral_constant<int, 16>{});
  return fn(std::integral_constant<int, 64>{});
}

}  // namespace

struct CoverSubtrees::Impl {
  virtual ~Impl() = default;
  virtual std::size_t size() const = 0;
  virtual bool search(std::size_t i, CoverTally& tally,
                      const std::function<void(CoverClass&&)>& each,
                      const std::function<bool()>& stop) const = 0;
  virtual CoverCounts counts(const CoverTally& tally) const = 0;
};

namespace {

template <int W>
struct SubtreesOf final : CoverSubtrees::Impl {
  const VoxelCover::Model& m;
  const Tables<W> t;
  const std::vector<Prefix> prefixes;

  explicit SubtreesOf(const VoxelCover::Model& model)
      : m(model), t(model, resolved_choice(model)), prefixes(split<W>(model, t)) {}

  std::size_t size() const override { return prefixes.size(); }

  bool search(std::size_t i, CoverTally& tally, const std::function<void(CoverClass&&)>& each,
              const std::function<bool()>& stop) const override {
    Searcher<W> s(m, t, stop);
    s.apply(prefixes.at(i));
    Tally counted;
    const bool whole = s.search(
        counted,
        [&](const std::vector<int>& a, bool mirrored) {
          if (least_of_class(m, a, mirrored)) each(cover_class(m, class_of(m, a, mirrored)));
        },
        true);
    tally += {counted.raw, counted.rotations, counted.symmetries, counted.nodes};
    return whole;
  }

  CoverCounts counts(const CoverTally& tally) const override {
    CoverCounts c;
    c.raw = tally.raw;
    c.rotations = tally.rotations / m.rotation_order;
    c.symmetries = tally.symmetries / m.group_order();
    c.nodes = tally.nodes;
    c.subtrees_total = prefixes.size();
    return c;
  }
};

}  // namespace

CoverSubtrees::CoverSubtrees(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CoverSubtrees::~CoverSubtrees() = default;
CoverSubtrees::CoverSubtrees(CoverSubtrees&&) noexcept = default;
std::size_t CoverSubtrees::size() const {
  return impl_->size();
}
bool CoverSubtrees::search(std::size_t i, CoverTally& tally,
                           const std::function<void(CoverClass&&)>& each,
                           const std::function<bool()>& stop) const {
  return impl_->search(i, tally, each, stop);
}
CoverCounts CoverSubtrees::counts(const CoverTally& tally) const {
  return impl_->counts(tally);
}

CoverSubtrees VoxelCover::subtrees() const {
  return by_words(model_->words, [&](auto w) {
    return CoverSubtrees(std::make_unique<SubtreesOf<decltype(w)::value>>(*model_));
  });
}

VoxelCover::VoxelCover(const VoxelProblem& problem, const std::string& source, bool congruent_apart)
    : model_(std::make_unique<Model>()) {
  build_model(*model_, problem, source, congruent_apart);
}

VoxelCover::~VoxelCover() = default;
VoxelCover::VoxelCover(VoxelCover&&) noexcept = default;

CoverCounts VoxelCover::count(const CoverOptions& options) const {
  return by_words(model_->words,
                  [&](auto w) { return count_with<decltype(w)::value>(*model_, options); });
}

std::vector<CoverClass> VoxelCover::classes(std::size_t n,
                                            const std::function<bool()>& stop) const {
  const Model& m = *model_;
  const auto found =
      by_words(m.words, [&](auto w) { return first_with<decltype(w)::value>(m, n, stop); });
  std::vector<CoverClass> classes;
  for (const Found& f : found) classes.push_back(cover_class(m, f));
  return classes;
}

std::vector<CoverAssembly> VoxelCover::first(std::size_t n,
                                             const std::function<bool()>& stop) const {
  std::vector<CoverAssembly> assemblies;
  for (CoverClass& c : classes(n, stop)) assemblies.push_back(std::move(c.assembly));
  return assemblies;
}

const std::vector<std::string>& VoxelCover::piece_names() const {
  return model_->names;
}
const std::vector<int>& VoxelCover::source_pieces() const {
  return model_->source;
}
std::size_t VoxelCover::placements() const {
  return model_->piece.size();
}
int VoxelCover::rotation_order() const {
  return model_->rotation_order;
}
int VoxelCover::symmetry_order() const {
  return model_->group_order();
}
bool VoxelCover::mirror_pieces() const {
  return model_->mirror;
}
std::string VoxelCover::fixed_piece() const {
  return model_->fixing.piece < 0 ? std::string() : model_->names[model_->fixing.piece];
}
std::size_t VoxelCover::first_placements() const {
  return model_->fixing.reps.size();
}
void VoxelCover::set_cell_choice(CellChoice choice) {
  model_->cell_choice = choice;
}
CellChoice VoxelCover::cell_choice() const {
  return resolved_choice(*model_);
}

}  // namespace cubenum::search
