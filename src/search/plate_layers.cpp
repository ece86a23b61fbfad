// PlateLayers (search/plate_layers.hpp): the narrow order of faces, the
// steps that fill them, the layers counted, and the assemblies each
// symmetry fixes. How a layer is kept is in plate_layer_storage.hpp.
#include "cubenum/search/plate_layers.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "cubenum/core/bits.hpp"
#include "cubenum/core/hash.hpp"
#include "cubenum/core/parallel.hpp"
#include "plate_layer_storage.hpp"

namespace cubenum::search {
namespace {

// The surface cell under bit i (row-major) of face f's plate.
int cell_at(const PlateSurface& s, int f, int i) {
  return s.cell_of(f, {i / kPlateSide, i % kPlateSide});
}

// Groups of faces filled at once (one face; or a cycle of faces under a
// symmetry, whose plates follow from the first one's), in an order that
// keeps the frontier narrow (cells with both filled and unfilled faces):
// from a few start groups, greedily the group leaving the fewest frontier
// cells (a sweep along a cuboid's long side); the order whose largest
// frontier is least, then whose sum is, with that largest frontier.
struct NarrowOrder {
  std::vector<int> order;
  int widest = 1 << 30;
};
NarrowOrder narrow_order(const PlateSurface& s, const std::vector<std::vector<int>>& groups) {
  const int n = static_cast<int>(groups.size());
  // Each group's cells, with how many of its faces reach each.
  std::vector<std::vector<std::pair<int, int>>> group_cells(n);
  for (int g = 0; g < n; ++g)
    for (const int f : groups[g])
      for (int i = 0; i < kPlateCells; ++i) {
        const int cell = cell_at(s, f, i);
        auto& cells = group_cells[g];
        const auto it = std::find_if(cells.begin(), cells.end(),
                                     [&](const auto& c) { return c.first == cell; });
        if (it == cells.end())
          cells.emplace_back(cell, 1);
        else
          ++it->second;
      }
  constexpr int kStarts = 24;  // enough for a few hundred faces to take a second at most
  std::vector<int> best;
  std::pair<int, int> best_cost{1 << 30, 0};
  for (int start = 0; start < std::min(n, kStarts); ++start) {
    const int first = static_cast<int>(static_cast<long>(start) * n / std::min(n, kStarts));
    std::vector<int> placed_at(s.cell_count(), 0);  // filled faces on each cell
    std::vector<bool> placed(n, false);
    std::vector<int> order;
    int frontier = 0;
    // The frontier's change when group g is filled.
    const auto change = [&](int g) {
      int d = 0;
      for (const auto& [cell, k] : group_cells[g]) {
        const int all = static_cast<int>(s.faces_of(cell).size()), in = placed_at[cell];
        d += (in + k < all) - (in > 0 && in < all);
      }
      return d;
    };
    std::pair<int, int> cost{0, 0};
    for (int g = first; g >= 0;) {
      frontier += change(g);
      for (const auto& [cell, k] : group_cells[g]) placed_at[cell] += k;
      placed[g] = true;
      order.push_back(g);
      cost = {std::max(cost.first, frontier), cost.second + frontier};
      g = -1;
      int least = 0;
      for (int h = 0; h < n; ++h)
        if (!placed[h])
          if (const int d = change(h); g < 0 || d < least) g = h, least = d;
    }
    if (cost < best_cost) best_cost = cost, best = std::move(order);
  }
  return {std::move(best), best_cost.first};
}

// Each face a group of its own.
std::vector<std::vector<int>> single_faces(const std::vector<int>& faces) {
  std::vector<std::vector<int>> groups;
  for (const int f : faces) groups.push_back({f});
  return groups;
}

bool is_identity(const PlateSurface::Symmetry& g) {
  for (std::size_t f = 0; f < g.face_image.size(); ++f)
    if (g.face_image[f] != static_cast<int>(f) || g.frame_transform[f] != 0) return false;
  return true;
}

}  // namespace

// Filling the group of faces of step k: each move's cells among the
// frontier cells before (`hits`: they must be open) and after (`adds`); the
// cells this step decides (`decided`, frontier positions before: covered by
// it exactly when no earlier face covered them). Moves are bucketed by
// their pattern on (up to 16 of) the decided cells.
struct PlateLayers::Step {
  struct Move {
    std::uint64_t hits, adds;
    std::uint16_t kind;
    std::uint16_t uses;  // copies: the group's faces
  };
  std::uint64_t decided = 0, bucketed = 0;
  std::uint64_t keep_before = 0, keep_after = 0;  // frontier cells that stay
  int width_after = 0;                            // frontier cells after
  std::vector<std::uint32_t> bucket_start;
  std::vector<Move> moves;
};

PlateLayers::PlateLayers(const PlateSurface& surface, std::vector<PlateKind> kinds)
    : surface_(&surface), kinds_(std::move(kinds)) {
  int bits = 0;
  for (const PlateKind& k : kinds_) {
    if (k.group >= 0) throw std::invalid_argument("counting by layers keeps no group capacities");
    const int width = std::bit_width(static_cast<unsigned>(k.multiplicity));
    usage_shift_.push_back(bits);
    usage_mask_.push_back((std::uint64_t{1} << width) - 1);
    usage_start_ |= static_cast<std::uint64_t>(k.multiplicity) << bits;
    bits += width;
    if (bits > 64)
      throw std::invalid_argument("counting by layers: the copies left need more than 64 bits");
    // The distinct plates of the kind (transforms that give the same cells are one).
    grids_.emplace_back();
    for (int e = 0; e < kPlateTransforms; ++e)
      if (const PlateGrid grid = transform_grid(k.grid, e);
          std::find(grids_.back().begin(), grids_.back().end(), grid) == grids_.back().end())
        grids_.back().push_back(grid);
  }
  std::vector<int> faces(surface.face_count());
  std::iota(faces.begin(), faces.end(), 0);
  order_ = narrow_order(surface, single_faces(faces)).order;
  steps_ = make_steps(single_faces(order_), nullptr);
}

int narrow_frontier(const PlateSurface& surface) {
  std::vector<int> faces(surface.face_count());
  std::iota(faces.begin(), faces.end(), 0);
  return narrow_order(surface, single_faces(faces)).widest;
}

std::string decimal(LayerCount n) {
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(n % 10)));
    n /= 10;
  } while (n != 0);
  return digits;
}

PlateLayers::~PlateLayers() = default;

int PlateLayers::widest_frontier() const {
  return widest(steps_);
}

int PlateLayers::widest(const std::vector<Step>& steps) {
  int cells = 0;
  for (const Step& step : steps) cells = std::max(cells, step.width_after);
  return cells;
}

// The plates of a group's faces for `first` on its first face: the same on
// a single face; around a cycle of `symmetry`, each the image of the one
// before, and none when the cycle does not bring the plate back to itself.
static std::vector<PlateGrid> group_plates(const std::vector<int>& group,
                                           const PlateSurface::Symmetry* symmetry,
                                           PlateGrid first) {
  std::vector<PlateGrid> plates{first};
  if (symmetry == nullptr) return plates;
  for (std::size_t i = 0; i < group.size(); ++i) {
    const PlateGrid next = transform_grid(plates.back(), symmetry->frame_transform[group[i]]);
    if (i + 1 == group.size()) return next == first ? plates : std::vector<PlateGrid>{};
    plates.push_back(next);
  }
  return plates;
}

std::vector<PlateLayers::Step> PlateLayers::make_steps(
    const std::vector<std::vector<int>>& groups, const PlateSurface::Symmetry* symmetry) const {
  const PlateSurface& s = *surface_;
  std::vector<int> step_of(s.face_count());
  for (std::size_t k = 0; k < groups.size(); ++k)
    for (const int f : groups[k]) step_of[f] = static_cast<int>(k);
  // The frontier after k steps: cells with faces filled before and after.
  const auto frontier = [&](int k) {
    std::vector<int> cells;
    for (int cell = 0; cell < s.cell_count(); ++cell) {
      const auto& faces = s.faces_of(cell);
      const bool before =
          std::any_of(faces.begin(), faces.end(), [&](int f) { return step_of[f] < k; });
      const bool after =
          std::any_of(faces.begin(), faces.end(), [&](int f) { return step_of[f] >= k; });
      if (before && after) cells.push_back(cell);
    }
    if (cells.size() > 64)
      throw std::invalid_argument("counting by layers: a frontier of more than 64 cells");
    return cells;
  };
  const auto position = [](const std::vector<int>& cells, int cell) {
    const auto it = std::lower_bound(cells.begin(), cells.end(), cell);
    return it != cells.end() && *it == cell ? static_cast<int>(it - cells.begin()) : -1;
  };
  std::vector<Step> steps;
  std::vector<int> before = frontier(0);
  std::vector<int> covers(s.cell_count(), 0);  // a move's plates on each cell
  for (std::size_t k = 0; k < groups.size(); ++k) {
    const std::vector<int>& group = groups[k];
    const std::vector<int> after = frontier(static_cast<int>(k) + 1);
    Step step;
    step.width_after = static_cast<int>(after.size());
    for (std::size_t i = 0; i < before.size(); ++i) {
      const int a = position(after, before[i]);
      if (a < 0) step.decided |= std::uint64_t{1} << i;
      if (a >= 0)
        step.keep_before |= std::uint64_t{1} << i, step.keep_after |= std::uint64_t{1} << a;
    }
    for (std::uint64_t d = step.decided, i = 0; d != 0 && i < 16; d &= d - 1, ++i)
      step.bucketed |= d & -d;
    // A move: no cell covered twice by its plates, and every cell of the
    // group's faces alone covered once.
    const auto make_move = [&](const std::vector<PlateGrid>& plates, std::size_t kind) {
      Step::Move m{0, 0, static_cast<std::uint16_t>(kind),
                   static_cast<std::uint16_t>(group.size())};
      std::vector<int> touched;
      bool valid = true;
      for (std::size_t j = 0; j < group.size(); ++j)
        for (int i = 0; i < kPlateCells; ++i) {
          const int cell = cell_at(s, group[j], i);
          touched.push_back(cell);
          if (!(plates[j] >> i & 1)) continue;
          valid = valid && ++covers[cell] == 1;
          if (const int b = position(before, cell); b >= 0) m.hits |= std::uint64_t{1} << b;
          if (const int a = position(after, cell); a >= 0) m.adds |= std::uint64_t{1} << a;
        }
      for (const int cell : touched)
        valid = valid &&
                (covers[cell] == 1 || position(before, cell) >= 0 || position(after, cell) >= 0);
      for (const int cell : touched) covers[cell] = 0;
      return valid ? std::optional<Step::Move>(m) : std::nullopt;
    };
    std::vector<std::pair<std::uint64_t, Step::Move>> keyed;
    for (std::size_t kind = 0; kind < kinds_.size(); ++kind) {
      if (static_cast<std::size_t>(kinds_[kind].multiplicity) < group.size()) continue;
      for (const PlateGrid grid : grids_[kind]) {
        const std::vector<PlateGrid> plates = group_plates(group, symmetry, grid);
        if (plates.empty()) continue;
        if (const auto m = make_move(plates, kind))
          keyed.emplace_back(extract_bits(m->hits, step.bucketed), *m);
      }
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    const std::size_t buckets = std::size_t{1} << std::popcount(step.bucketed);
    step.bucket_start.assign(buckets + 1, 0);
    for (const auto& [bucket, move] : keyed) {
      ++step.bucket_start[bucket + 1];
      step.moves.push_back(move);
    }
    for (std::size_t b = 0; b < buckets; ++b) step.bucket_start[b + 1] += step.bucket_start[b];
    steps.push_back(std::move(step));
    before = after;
  }
  return steps;
}

// The layers kept compact where the covered cells and the copies left fit
// one word, and over again wide if a count passes 64 bits.
bool PlateLayers::fill(const std::vector<Step>& steps, const LayerOptions& options,
                       const LastLayer& last, std::uint64_t* largest) const {
  const int frontier = widest(steps);
  const int usage_bits = std::bit_width(usage_start_);
  if (frontier + usage_bits <= 64 && !options.wide_states) {
    const Filled compact = fill_with<CompactSlot>(steps, options, last, largest, frontier);
    if (compact != Filled::Overflowed) return compact == Filled::Done;
  }
  return fill_with<WideSlot>(steps, options, last, largest, 0) == Filled::Done;
}

template <class Slot>
PlateLayers::Filled PlateLayers::fill_with(const std::vector<Step>& steps,
                                           const LayerOptions& options, const LastLayer& last,
                                           std::uint64_t* largest, int shift) const {
  auto layer = std::make_unique<Layer<Slot>>();
  {
    LayerWriter<Slot> start(*layer, shift);
    start.add({0, usage_start_}, 1);
  }
  std::atomic<bool> stopped{false}, overflowed{false};
  const int n = static_cast<int>(steps.size());
  for (int k = 0; k < n; ++k) {
    const Step& step = steps[k];
    auto next = std::make_unique<Layer<Slot>>();
    parallel_for_chunks(kShards, 1, [&](std::size_t begin, std::size_t end) {
      LayerWriter<Slot> out(*next, shift);
      std::uint64_t seen = 0;
      for (std::size_t shard = begin; shard != end; ++shard) {
        layer->shards[shard].for_each([&](const Slot& slot) {
          if ((++seen & 4095) == 0 && options.stop && options.stop()) stopped = true;
          if (stopped) return;
          const Key key = slot.state(shift);
          const LayerCount count = slot.value();
          const std::uint64_t open = ~key.covered;
          const std::uint64_t bucket = extract_bits(open, step.bucketed);
          const std::uint64_t want = open & step.decided;
          const std::uint64_t kept =
              deposit_bits(extract_bits(key.covered, step.keep_before), step.keep_after);
          for (std::uint32_t i = step.bucket_start[bucket]; i != step.bucket_start[bucket + 1];
               ++i) {
            const Step::Move& m = step.moves[i];
            if ((m.hits & key.covered) != 0 || (m.hits & step.decided) != want) continue;
            const std::uint64_t left = copies_left(key.left, m.kind);
            if (left < m.uses) continue;
            LayerCount ways = count;  // with labels: which copies, in order
            if (options.label_copies)
              for (std::uint64_t j = 0; j < m.uses; ++j) ways = times(ways, left - j);
            out.add({kept | m.adds, key.left - (std::uint64_t{m.uses} << usage_shift_[m.kind])},
                    ways);
          }
        });
        layer->shards[shard].clear();
      }
      out.flush_all();
      if (out.overflowed()) overflowed = true;
    });
    layer = std::move(next);
    if (stopped) return Filled::Stopped;
    if (overflowed || layer->overflowed()) return Filled::Overflowed;
    if (largest != nullptr) *largest = std::max(*largest, layer->size());
    if (options.layer_done) options.layer_done(k + 1, n, layer->size());
  }
  for (const auto& shard : layer->shards)
    shard.for_each([&](const Slot& slot) { last(slot.state(shift).left, slot.value()); });
  return Filled::Done;
}

std::uint64_t PlateLayers::copies_left(std::uint64_t left, int kind) const {
  return left >> usage_shift_[kind] & usage_mask_[kind];
}

LayerTally PlateLayers::count(const LayerOptions& options) const {
  LayerTally tally;
  // The last layer: one state per set of pieces used.
  const auto last = [&](std::uint64_t left, LayerCount count) {
    tally.raw = plus(tally.raw, count);
    LayerCount ways = 1;  // which copies: C(multiplicity, used) for each kind
    if (options.label_copies)
      for (std::size_t kind = 0; kind < kinds_.size(); ++kind) {
        const auto m = static_cast<unsigned>(kinds_[kind].multiplicity);
        const auto used = m - static_cast<unsigned>(copies_left(left, static_cast<int>(kind)));
        for (unsigned i = 0; i < used; ++i) ways = times(ways, m - i) / (i + 1);
      }
    tally.piece_choices = plus(tally.piece_choices, ways);
  };
  if (!fill(steps_, options, last, &tally.largest_layer)) {
    tally = {};
    tally.complete = false;
    return tally;
  }
  const auto& symmetries = surface_->symmetries();
  const bool told_apart =
      options.label_copies || std::all_of(kinds_.begin(), kinds_.end(),
                                          [](const PlateKind& k) { return k.multiplicity == 1; });
  LayerCount rotations = 0, all = 0;
  for (std::size_t g = 0; g < symmetries.size(); ++g) {
    // Told apart, only the identity fixes an assembly.
    LayerCount fixed = 0;
    if (is_identity(symmetries[g])) {
      fixed = tally.raw;
    } else if (!told_apart) {
      const auto f = fixed_by(static_cast<int>(g), options);
      if (!f) {
        tally = {};
        tally.complete = false;
        return tally;
      }
      fixed = *f;
    }
    all = plus(all, fixed);
    if (static_cast<int>(g) < surface_->rotation_count()) rotations = plus(rotations, fixed);
  }
  const auto classes = [](LayerCount sum, std::size_t order) {
    if (sum % order != 0) throw std::logic_error("PlateLayers: Burnside's sum is not a multiple");
    return sum / order;
  };
  tally.rotations = classes(rotations, static_cast<std::size_t>(surface_->rotation_count()));
  tally.symmetries = classes(all, symmetries.size());
  return tally;
}

// The cycles of faces of symmetry g, each from its face first in the order.
std::vector<std::vector<int>> PlateLayers::cycles_of(const PlateSurface::Symmetry& g) const {
  std::vector<std::vector<int>> cycles;
  std::vector<bool> seen(surface_->face_count(), false);
  for (const int f : order_) {
    if (seen[f]) continue;
    cycles.emplace_back();
    for (int x = f; !seen[x]; x = g.face_image[x]) seen[x] = true, cycles.back().push_back(x);
  }
  return cycles;
}

// The assemblies (copies interchangeable) that symmetry g maps onto
// themselves: a plate on the first face of each of g's cycles of faces
// fixes the plates of the whole cycle, so the same layers fill a cycle a
// step (each cycle's copies at once). Where the cycles' frontier is too
// wide for the keys, a search over the cycles instead. None when stopped.
std::optional<LayerCount> PlateLayers::fixed_by(int g, const LayerOptions& options) const {
  if (options.fixed_by_search) return fixed_by_search(g);
  const auto& sym = surface_->symmetries()[static_cast<std::size_t>(g)];
  const std::vector<std::vector<int>> cycles = cycles_of(sym);
  std::vector<std::vector<int>> ordered;
  for (const int c : narrow_order(*surface_, cycles).order) ordered.push_back(cycles[c]);
  std::vector<Step> steps;
  try {
    steps = make_steps(ordered, &sym);
  } catch (const std::invalid_argument&) {
    return fixed_by_search(g);
  }
  LayerOptions quiet;  // copies interchangeable, no progress
  quiet.stop = options.stop;
  quiet.wide_states = options.wide_states;
  LayerCount fixed = 0;
  if (!fill(
          steps, quiet, [&](std::uint64_t, LayerCount c) { fixed = plus(fixed, c); }, nullptr))
    return std::nullopt;
  return fixed;
}

// The same by a search that places cycles and checks the cover cell by cell.
LayerCount PlateLayers::fixed_by_search(int g) const {
  const PlateSurface& s = *surface_;
  const auto& sym = s.symmetries()[static_cast<std::size_t>(g)];
  const std::vector<std::vector<int>> cycles = cycles_of(sym);
  std::vector<int> cover(s.cell_count(), 0), filled(s.cell_count(), 0), left;
  for (const PlateKind& k : kinds_) left.push_back(k.multiplicity);
  const auto lay = [&](int face, PlateGrid grid, int step) {
    bool ok = true;
    for (int i = 0; i < kPlateCells; ++i) {
      const int cell = cell_at(s, face, i);
      cover[cell] += step * static_cast<int>(grid >> i & 1);
      filled[cell] += step;
      ok = ok && cover[cell] <= 1 &&
           (cover[cell] == 1 || filled[cell] < static_cast<int>(s.faces_of(cell).size()));
    }
    return ok;
  };
  LayerCount fixed = 0;
  const auto search = [&](auto&& self, std::size_t c) -> void {
    if (c == cycles.size()) {
      fixed = plus(fixed, 1);
      return;
    }
    const std::vector<int>& cycle = cycles[c];
    const int uses = static_cast<int>(cycle.size());
    for (std::size_t kind = 0; kind < kinds_.size(); ++kind) {
      if (left[kind] < uses) continue;
      for (const PlateGrid grid : grids_[kind]) {
        const std::vector<PlateGrid> plates = group_plates(cycle, &sym, grid);
        if (plates.empty()) continue;
        bool ok = true;
        for (int i = 0; i < uses; ++i) ok = lay(cycle[i], plates[i], 1) && ok;
        left[kind] -= uses;
        if (ok) self(self, c + 1);
        left[kind] += uses;
        for (int i = 0; i < uses; ++i) lay(cycle[i], plates[i], -1);
      }
    }
  };
  search(search, 0);
  return fixed;
}

}  // namespace cubenum::search
