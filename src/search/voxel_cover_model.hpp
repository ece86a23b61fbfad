#pragma once
// The polycube engine's model of a problem (private to src/search): the
// merged pieces, the bounding box's cells, every placement as a bitmask,
// the target's symmetries acting on the placements, and the tree of pieces
// fixed to break that symmetry. Built by build_model
// (voxel_cover_model.cpp), searched by voxel_cover.cpp.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cubenum/search/voxel_cover.hpp"

namespace cubenum::search {

struct VoxelCover::Model {
  using Voxel = search::Voxel;

  // Pieces, congruent ones merged.
  std::vector<std::string> names;
  std::vector<int> size, min_count, max_count;
  std::vector<int> source;  // each piece's first in the problem's list
  // The bounding box: cell index = sum of (v[axis] - low[axis]) * stride[axis].
  Voxel low{}, extent{}, stride{};
  int cells = 0, words = 0;
  std::vector<Voxel> voxel_of;         // by cell
  std::vector<std::uint64_t> outside;  // box cells not in the target (words)
  std::vector<std::uint64_t> variable;
  // Placements: piece, mask (`words` words each), lowest cell.
  std::vector<int> piece, lowest;
  std::vector<std::uint64_t> masks;
  // Where the problem has colours: each placement's colours, one per cell
  // it covers in the order of cells (two placements may cover the same
  // cells with different colours).
  bool coloured = false;
  std::vector<std::vector<int>> colours;
  // The target's symmetries acting on placements: its rotations first,
  // then its reflections, which take a piece's placement to one of its
  // mirror image's (-1: the mirror image is no piece of the puzzle);
  // perm[k][p] is where element k takes placement p.
  std::vector<std::vector<int>> perm;
  int rotation_order = 0;
  std::vector<int> mirror_of;  // each piece's mirror image (-1: none)
  // Every piece's mirror image is a piece with the same counts: every
  // assembly's mirror image is an assembly.
  bool mirror = false;
  // Symmetry broken by placing pieces first: a piece that occurs once,
  // only at one placement per orbit of the group that keeps it; below each,
  // where that placement is kept by more than the identity, another piece
  // one per orbit of what keeps both; and so on.
  struct Fixing {
    struct Rep {
      std::uint64_t orbit = 1;       // its orbit's size
      std::unique_ptr<Fixing> next;  // the next piece fixed (null: none)
    };
    int piece = -1;
    std::map<int, Rep> reps;  // by placement
  };
  Fixing fixing;
  CellChoice cell_choice = CellChoice::automatic;  // as asked (VoxelCover::set_cell_choice)
  // The raw assemblies that one found below a prefix stands for.
  std::uint64_t weight(const std::vector<int>& prefix) const {
    std::uint64_t w = 1;
    std::size_t i = 0;
    for (const Fixing* f = &fixing; f != nullptr && f->piece >= 0 && i < prefix.size(); ++i) {
      const Fixing::Rep& rep = f->reps.at(prefix[i]);
      w *= rep.orbit;
      f = rep.next.get();
    }
    return w;
  }
  // Whether the search meets this assembly (sorted placements): each
  // piece fixed at a placement searched.
  bool searched(const std::vector<int>& a) const {
    for (const Fixing* f = &fixing; f != nullptr && f->piece >= 0;) {
      const auto at = std::find_if(a.begin(), a.end(), [&](int p) { return piece[p] == f->piece; });
      const auto rep = at == a.end() ? f->reps.end() : f->reps.find(*at);
      if (rep == f->reps.end()) return false;
      f = rep->second.next.get();
    }
    return true;
  }

  int index(const Voxel& v) const {
    int i = 0;
    for (int a = 0; a < 3; ++a) i += (v[a] - low[a]) * stride[a];
    return i;
  }
  bool inside(const Voxel& v) const {
    for (int a = 0; a < 3; ++a)
      if (v[a] < low[a] || v[a] >= low[a] + extent[a]) return false;
    return true;
  }
  const std::uint64_t* mask(int p) const { return masks.data() + std::size_t(p) * words; }
  bool covers(int p, int c) const { return mask(p)[c / 64] >> (c % 64) & 1; }
  int group_order() const { return static_cast<int>(perm.size()); }
  bool reflections() const { return group_order() > rotation_order; }
};

// Builds the model of `problem` (VoxelCover's constructor says what it
// refuses).
void build_model(VoxelCover::Model& m, const VoxelProblem& problem, const std::string& source,
                 bool congruent_apart);

}  // namespace cubenum::search
