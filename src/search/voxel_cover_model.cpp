// The polycube engine's model of a problem (voxel_cover_model.hpp): pieces
// merged, cells laid out, placements, the target's symmetries on them, and
// the tree of fixed pieces that breaks those symmetries.
#include "voxel_cover_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <unordered_map>

#include "cubenum/core/checked.hpp"
#include "cubenum/core/cube_symmetry.hpp"
#include "cubenum/core/error.hpp"

namespace cubenum::search {

namespace {

// normalized(), for voxels with or without their colours (the colour,
// element 3, stays).
template <class V>
std::vector<V> least_corner_at_origin(std::vector<V> s) {
  V low = s.front();
  for (const V& v : s)
    for (int a = 0; a < 3; ++a) low[a] = std::min(low[a], v[a]);
  for (V& v : s)
    for (int a = 0; a < 3; ++a) v[a] -= low[a];
  std::sort(s.begin(), s.end());
  return s;
}

}  // namespace

std::vector<Voxel> normalized(std::vector<Voxel> s) {
  return least_corner_at_origin(std::move(s));
}

std::vector<ColouredVoxel> normalized(std::vector<ColouredVoxel> s) {
  return least_corner_at_origin(std::move(s));
}

std::vector<ColouredVoxel> with_colours(const std::vector<Voxel>& voxels,
                                        const std::vector<int>& colours) {
  std::vector<ColouredVoxel> s;
  s.reserve(voxels.size());
  for (std::size_t i = 0; i < voxels.size(); ++i)
    s.push_back({voxels[i][0], voxels[i][1], voxels[i][2], i < colours.size() ? colours[i] : 0});
  return s;
}

namespace {

// Shapes compare with their colours.
using Cube = ColouredVoxel;
using Shape = std::vector<Cube>;

Voxel at(const Cube& c) {
  return {c[0], c[1], c[2]};
}

Shape transformed(const Shape& s, const CubeSymmetry& g) {
  Shape r;
  r.reserve(s.size());
  for (const Cube& c : s) {
    const Voxel v = g.apply(at(c));
    r.push_back({v[0], v[1], v[2], c[3]});
  }
  return r;
}

// The distinct orientations of a shape under the 24 rotations.
std::vector<Shape> orientations(const Shape& s) {
  std::set<Shape> seen;
  for (const CubeSymmetry& g : cube_rotations()) seen.insert(normalized(transformed(s, g)));
  return {seen.begin(), seen.end()};
}

Shape canonical(const Shape& s) {
  return orientations(s).front();
}

struct Merged {
  std::vector<Shape> shapes;
  std::vector<std::string> names;
  std::vector<int> min_count, max_count;
  std::vector<int> source;  // each piece's first in the problem's list
};

// Congruent pieces are identical pieces: one piece, with the counts added.
// (Or, `apart`, each piece of the list a piece of its own, as BurrTools
// counts.) Counts past the cells of any target are all the same: they are
// cut to one more (a file's counts, added, would wrap an int).
Merged merge_congruent(const std::vector<VoxelPiece>& pieces, bool apart) {
  constexpr int kMany = kMaxCoverCells + 1;
  Merged m;
  std::map<Shape, int> index;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const VoxelPiece& p = pieces[i];
    const Shape c = canonical(with_colours(p.cubes, p.colours));
    const auto [it, fresh] = apart ? std::pair{index.end(), true}
                                   : index.try_emplace(c, static_cast<int>(m.shapes.size()));
    if (fresh) {
      m.shapes.push_back(c);
      m.names.push_back(p.name);
      m.source.push_back(static_cast<int>(i));
      m.min_count.push_back(std::min(p.min_count, kMany));
      m.max_count.push_back(std::min(p.max_count, kMany));
    } else {
      m.names[it->second] += "=" + p.name;
      int& least = m.min_count[it->second];
      int& most = m.max_count[it->second];
      least = std::min(least + std::min(p.min_count, kMany), kMany);
      most = std::min(most + std::min(p.max_count, kMany), kMany);
    }
  }
  return m;
}

// The longest side last in the order of cells (slowest), the shortest
// first: the search fills the box in walls across its short sides.
void lay_out_box(VoxelCover::Model& m, const std::vector<Voxel>& target,
                 const std::string& source) {
  Voxel high = target.front();
  m.low = target.front();
  for (const Voxel& v : target)
    for (int a = 0; a < 3; ++a)
      m.low[a] = std::min(m.low[a], v[a]), high[a] = std::max(high[a], v[a]);
  for (int a = 0; a < 3; ++a) m.extent[a] = high[a] - m.low[a] + 1;
  // Sides drawn in layer pictures may be millions of cells each: their
  // product is checked, never wrapped.
  const auto product = [&](long limit) {
    return product_at_most<long>({m.extent[0], m.extent[1], m.extent[2]}, limit);
  };
  const auto volume = product(kMaxCoverCells);
  if (!volume) {
    const auto cells = product(LONG_MAX);
    throw InputError(
        source, 0,
        fmt::format("the target's bounding box {}x{}x{} has {} cells; cubenum takes at "
                    "most {}",
                    m.extent[0], m.extent[1], m.extent[2],
                    cells ? fmt::format("{}", *cells) : std::string("over 2^63"), kMaxCoverCells));
  }
  std::array<int, 3> order = {0, 1, 2};  // fastest first
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return m.extent[a] < m.extent[b]; });
  int stride = 1;
  for (const int a : order) m.stride[a] = stride, stride *= m.extent[a];
  m.cells = static_cast<int>(*volume);
  m.words = (m.cells + 63) / 64;
  m.voxel_of.assign(m.cells, {});
  for (int x = 0; x < m.extent[0]; ++x)
    for (int y = 0; y < m.extent[1]; ++y)
      for (int z = 0; z < m.extent[2]; ++z) {
        const Voxel v = {m.low[0] + x, m.low[1] + y, m.low[2] + z};
        m.voxel_of[m.index(v)] = v;
      }
}

void set_bit(std::vector<std::uint64_t>& w, int bit) {
  w[bit / 64] |= std::uint64_t{1} << (bit % 64);
}

// The target's voxels and their colours.
struct Target {
  Shape fixed, variable;
  std::vector<int> colour;  // by cell of the box (-1: not the target's)
};

Target target_of(const VoxelCover::Model& m, const VoxelProblem& problem) {
  Target t{with_colours(problem.fixed, problem.fixed_colours),
           with_colours(problem.variable, problem.variable_colours),
           std::vector<int>(static_cast<std::size_t>(m.cells), -1)};
  for (const Shape* part : {&t.fixed, &t.variable})
    for (const Cube& c : *part) t.colour[static_cast<std::size_t>(m.index(at(c)))] = c[3];
  return t;
}

// A placement's cells and their colours, by cell.
using Cells = std::vector<std::pair<int, int>>;

// The colours of a placement's cells in the order of cells (empty where the
// problem has no colours: the mask alone tells placements apart).
std::vector<int> colours_of(Cells cells, bool coloured) {
  std::vector<int> colours;
  if (!coloured) return colours;
  std::sort(cells.begin(), cells.end());
  for (const auto& [cell, colour] : cells) colours.push_back(colour);
  return colours;
}

// Orientation o of a piece at offset d (inside the box), if it fits the
// target (its voxels and colours): its cells and their colours.
std::optional<Cells> fit(const VoxelCover::Model& m, const VoxelProblem& problem,
                         const Target& target, const Shape& o, const Voxel& d) {
  Cells cells;
  for (const Cube& c : o) {
    const int cell =
        m.index({c[0] + m.low[0] + d[0], c[1] + m.low[1] + d[1], c[2] + m.low[2] + d[2]});
    const int colour = target.colour[static_cast<std::size_t>(cell)];
    if (colour < 0 || !problem.fits(c[3], colour)) return std::nullopt;
    cells.emplace_back(cell, c[3]);
  }
  return cells;
}

// Every orientation of every piece at every offset inside the target where
// the colours allow it (one placement for each set of cells and colours).
void make_placements(VoxelCover::Model& m, const Merged& pieces, const VoxelProblem& problem,
                     const Target& target) {
  for (int t = 0; t < static_cast<int>(pieces.shapes.size()); ++t) {
    std::set<std::pair<std::vector<std::uint64_t>, std::vector<int>>> seen;
    for (const Shape& o : orientations(pieces.shapes[t])) {
      Voxel room = m.extent;  // the offsets that keep the orientation in the box
      for (const Cube& c : o)
        for (int a = 0; a < 3; ++a) room[a] = std::min(room[a], m.extent[a] - c[a]);
      for (int dx = 0; dx < room[0]; ++dx)
        for (int dy = 0; dy < room[1]; ++dy)
          for (int dz = 0; dz < room[2]; ++dz) {
            const std::optional<Cells> cells = fit(m, problem, target, o, {dx, dy, dz});
            if (!cells) continue;
            std::vector<std::uint64_t> mask(m.words, 0);
            int lowest = m.cells;
            for (const auto& [cell, colour] : *cells) {
              set_bit(mask, cell);
              lowest = std::min(lowest, cell);
            }
            std::vector<int> colours = colours_of(*cells, m.coloured);
            if (!seen.emplace(mask, colours).second) continue;
            m.piece.push_back(t);
            m.lowest.push_back(lowest);
            m.masks.insert(m.masks.end(), mask.begin(), mask.end());
            if (m.coloured) m.colours.push_back(std::move(colours));
          }
    }
  }
}

struct TargetSymmetry {
  CubeSymmetry g;
  Voxel shift;  // v -> g(v) + shift
};

// The symmetries of the cube that map the target onto itself (fixed voxels
// onto fixed ones, variable onto variable, each onto one of its colour),
// rotations first.
std::vector<TargetSymmetry> target_symmetries(const Target& target) {
  const std::set<Cube> fixed_set(target.fixed.begin(), target.fixed.end()),
      variable_set(target.variable.begin(), target.variable.end());
  Shape all = target.fixed;
  all.insert(all.end(), target.variable.begin(), target.variable.end());
  Cube low = all.front();
  for (const Cube& v : all)
    for (int a = 0; a < 3; ++a) low[a] = std::min(low[a], v[a]);
  std::vector<TargetSymmetry> found;
  for (const CubeSymmetry& g : kCubeSymmetries) {  // rotations first
    Voxel moved_low = g.apply(at(all.front()));
    for (const Cube& v : all) {
      const Voxel w = g.apply(at(v));
      for (int a = 0; a < 3; ++a) moved_low[a] = std::min(moved_low[a], w[a]);
    }
    Voxel shift{};
    for (int a = 0; a < 3; ++a) shift[a] = low[a] - moved_low[a];
    const auto maps = [&](const Shape& from, const std::set<Cube>& onto) {
      for (const Cube& c : transformed(from, g))
        if (!onto.count({c[0] + shift[0], c[1] + shift[1], c[2] + shift[2], c[3]})) return false;
      return true;
    };
    if (maps(target.fixed, fixed_set) && maps(target.variable, variable_set))
      found.push_back({g, shift});
  }
  return found;
}

// The piece that each piece's mirror image is (-1: none in the puzzle).
// Congruent pieces listed apart (BurrTools' count) are told apart: a piece
// that is its own mirror image stays itself, and the k-th copy of a chiral
// shape is the mirror of the k-th copy of its mirror shape.
std::vector<int> mirror_images(const Merged& pieces) {
  const CubeSymmetry reflect({0, 1, 2}, {-1, 1, 1});
  // The pieces of each shape, in the order listed.
  std::map<Shape, std::vector<int>> copies;
  for (std::size_t t = 0; t < pieces.shapes.size(); ++t)
    copies[pieces.shapes[t]].push_back(static_cast<int>(t));
  std::vector<int> mirror(pieces.shapes.size(), -1);
  for (const auto& [shape, listed] : copies) {
    const auto image = copies.find(canonical(transformed(shape, reflect)));
    if (image == copies.end()) continue;
    for (std::size_t k = 0; k < listed.size() && k < image->second.size(); ++k)
      mirror[static_cast<std::size_t>(listed[k])] = image->second[k];
  }
  return mirror;
}

struct MaskKey {
  std::size_t operator()(const std::vector<std::uint64_t>& k) const {
    std::size_t h = 0;
    for (const std::uint64_t w : k) h = h * 0x9E3779B97F4A7C15ULL + w;
    return h;
  }
};

// A placement's key: its mask, piece and colours.
std::vector<std::uint64_t> key_of(std::vector<std::uint64_t> mask, int piece,
                                  const std::vector<int>& colours) {
  mask.push_back(static_cast<std::uint64_t>(piece));
  for (const int c : colours) mask.push_back(static_cast<std::uint64_t>(c));
  return mask;
}

// Where each group element takes each placement (its cells moved, each
// keeping its colour; a reflection's image a placement of the mirror piece).
void make_group(VoxelCover::Model& m, const std::vector<TargetSymmetry>& symmetries,
                const std::vector<int>& mirror) {
  std::unordered_map<std::vector<std::uint64_t>, int, MaskKey> index;
  const int placements = static_cast<int>(m.piece.size());
  const auto colours = [&](int p) { return m.coloured ? m.colours[p] : std::vector<int>{}; };
  for (int p = 0; p < placements; ++p)
    index.emplace(key_of({m.mask(p), m.mask(p) + m.words}, m.piece[p], colours(p)), p);
  for (const TargetSymmetry& s : symmetries) {
    // Where s takes each cell of the target (-1: a cell outside it, which
    // no placement covers).
    std::vector<int> cell_image(m.cells, -1);
    for (int c = 0; c < m.cells; ++c) {
      Voxel w = s.g.apply(m.voxel_of[c]);
      for (int a = 0; a < 3; ++a) w[a] += s.shift[a];
      if (m.inside(w)) cell_image[c] = m.index(w);
    }
    std::vector<int> perm(placements);
    for (int p = 0; p < placements; ++p) {
      const int image = s.g.is_rotation() ? m.piece[p] : mirror[m.piece[p]];
      if (image < 0) {
        perm[p] = -1;
        continue;
      }
      std::vector<std::uint64_t> mask(m.words, 0);
      Cells cells;
      const std::vector<int> own = colours(p);
      for (int i = 0; i < m.words; ++i)
        for (std::uint64_t bits = m.mask(p)[i]; bits != 0; bits &= bits - 1) {
          const int to = cell_image[i * 64 + std::countr_zero(bits)];
          set_bit(mask, to);
          cells.emplace_back(to, own.empty() ? 0 : own[cells.size()]);
        }
      perm[p] = index.at(key_of(std::move(mask), image, colours_of(std::move(cells), m.coloured)));
    }
    m.perm.push_back(std::move(perm));
  }
}

// The orbits of piece t's placements under the group elements `group`
// (indices into perm) that keep it, leaving out those that `avoid`
// (overlapping placements): a representative of each and its orbit's size.
std::map<int, std::uint64_t> orbits(const VoxelCover::Model& m, int t,
                                    const std::vector<int>& group,
                                    const std::function<bool(int)>& avoid) {
  std::map<int, std::uint64_t> reps;
  std::vector<bool> seen(m.piece.size(), false);
  for (int p = 0; p < static_cast<int>(m.piece.size()); ++p) {
    if (m.piece[p] != t || seen[p] || avoid(p)) continue;
    std::uint64_t orbit = 0;
    for (const int k : group)
      if (!seen[m.perm[k][p]]) seen[m.perm[k][p]] = true, ++orbit;
    reps.emplace(p, orbit);
  }
  return reps;
}

bool overlap(const VoxelCover::Model& m, int p, int q) {
  for (int w = 0; w < m.words; ++w)
    if (m.mask(p)[w] & m.mask(q)[w]) return true;
  return false;
}

// Fixes one more piece (occurring once) below the placements `placed`,
// which the elements `group` keep: the one whose placements (clear of those
// placed) fall into the fewest orbits under the elements that also keep
// it; then, below each of its representatives, the next, while more than
// the identity keeps them all. (Placed first, the piece with the fewest
// orbits constrains most: several times fewer nodes than the one whose
// orbits are largest on average.)
void fix_pieces(const VoxelCover::Model& m, std::vector<int>& placed, const std::vector<int>& group,
                const std::vector<bool>& moves_some, VoxelCover::Model::Fixing& fixing,
                std::size_t& roots) {
  constexpr std::size_t kMaxRoots = 4096;  // (the tree is cut here: never more set-up than search)
  // Elements that move no placement at all (a flat puzzle's mirror in its
  // own plane) cut nothing: a group of those alone is not broken further.
  if (std::none_of(group.begin(), group.end(), [&](int k) { return moves_some[k]; }) ||
      roots >= kMaxRoots)
    return;
  std::size_t best = SIZE_MAX;
  std::map<int, std::uint64_t> best_reps;
  std::vector<int> best_group;
  for (int t = 0; t < static_cast<int>(m.names.size()); ++t) {
    if (m.min_count[t] != 1 || m.max_count[t] != 1) continue;
    if (std::any_of(placed.begin(), placed.end(), [&](int p) { return m.piece[p] == t; })) continue;
    std::vector<int> keeping;  // reflections keep t where it is its own mirror image
    for (const int k : group)
      if (k < m.rotation_order || m.mirror_of[t] == t) keeping.push_back(k);
    if (keeping.size() <= 1) continue;
    auto reps = orbits(m, t, keeping, [&](int p) {
      return std::any_of(placed.begin(), placed.end(), [&](int q) { return overlap(m, p, q); });
    });
    std::uint64_t clear = 0;  // its placements clear of those placed
    for (const auto& rep : reps) clear += rep.second;
    // Elements that move none of its placements (a flat puzzle's mirror in
    // its own plane) cut nothing: only a piece with an orbit of two or more.
    if (reps.size() < clear && reps.size() < best)
      best = reps.size(), fixing.piece = t, best_reps = std::move(reps), best_group = keeping;
  }
  roots += best_reps.size();
  for (const auto& [r, orbit] : best_reps) {
    VoxelCover::Model::Fixing::Rep& rep = fixing.reps[r];
    rep.orbit = orbit;
    std::vector<int> stabiliser;
    for (const int k : best_group)
      if (m.perm[k][r] == r) stabiliser.push_back(k);
    if (stabiliser.size() <= 1) continue;
    rep.next = std::make_unique<VoxelCover::Model::Fixing>();
    placed.push_back(r);
    fix_pieces(m, placed, stabiliser, moves_some, *rep.next, roots);
    placed.pop_back();
    if (rep.next->piece < 0) rep.next.reset();
  }
}

}  // namespace

void build_model(VoxelCover::Model& m, const VoxelProblem& problem, const std::string& source,
                 bool congruent_apart) {
  const Merged pieces = merge_congruent(problem.pieces, congruent_apart);
  m.names = pieces.names;
  m.source = pieces.source;
  m.min_count = pieces.min_count;
  m.max_count = pieces.max_count;
  for (const Shape& s : pieces.shapes) m.size.push_back(static_cast<int>(s.size()));
  std::vector<Voxel> target = problem.fixed;
  target.insert(target.end(), problem.variable.begin(), problem.variable.end());
  lay_out_box(m, target, source);
  static_assert(kMaxCoverCells <= 64 * 64);
  m.outside.assign(m.words, 0);
  m.variable.assign(m.words, 0);
  const std::set<Voxel> in_target(target.begin(), target.end());
  for (int c = 0; c < m.cells; ++c)
    if (!in_target.count(m.voxel_of[c])) set_bit(m.outside, c);
  for (const Voxel& v : problem.variable) set_bit(m.variable, m.index(v));
  m.coloured = problem.coloured();
  const Target coloured_target = target_of(m, problem);
  make_placements(m, pieces, problem, coloured_target);

  const std::vector<TargetSymmetry> symmetries = target_symmetries(coloured_target);
  m.rotation_order = static_cast<int>(std::count_if(
      symmetries.begin(), symmetries.end(), [](const auto& s) { return s.g.is_rotation(); }));
  const std::vector<int> mirror = mirror_images(pieces);
  m.mirror_of = mirror;
  m.mirror = true;
  for (std::size_t t = 0; t < mirror.size(); ++t)
    m.mirror = m.mirror && mirror[t] >= 0 && m.min_count[mirror[t]] == m.min_count[t] &&
               m.max_count[mirror[t]] == m.max_count[t];
  make_group(m, symmetries, mirror);
  std::vector<int> group(m.mirror ? m.group_order() : m.rotation_order), placed;
  std::iota(group.begin(), group.end(), 0);
  std::vector<bool> moves_some(group.size(), false);
  for (const int k : group)
    for (std::size_t p = 0; p < m.piece.size() && !moves_some[k]; ++p)
      moves_some[k] = m.perm[k][p] != static_cast<int>(p);
  std::size_t roots = 0;
  fix_pieces(m, placed, group, moves_some, m.fixing, roots);
}

}  // namespace cubenum::search
