#pragma once
// Exact enumeration of the ways to cover a PlateSurface with plates: every
// face takes one piece in one of its distinct placements so that every cell
// is covered exactly once. Pieces come as kinds (a shape with a number of
// interchangeable copies, and optionally a group with a capacity, such as
// "one piece per colour"). Each placement is precompiled into a 128-bit cell
// mask; the faces are filled in a fixed order, and for each face the
// candidates are bucketed by the cells its placed neighbours leave open, so
// choosing a candidate is a table lookup plus an AND and a compare.
// Solutions are counted raw and up to the surface's rotations and
// symmetries by canonical forms (a solution counts when it is the smallest
// of its images).
#include <array>
#include <cstdint>
#include <functional>
#include <unordered_set>
#include <vector>

#include "cubenum/core/hash.hpp"
#include "cubenum/search/plate_surface.hpp"
#include "cubenum/search/split_search.hpp"

namespace cubenum::search {

__extension__ typedef unsigned __int128 CellMask;

// 128-bit masks hold the 98 cells of one cube; larger shapes need wider masks.
inline constexpr int kMaxMaskCells = 128;
inline constexpr int kMaxAssemblyFaces = 6;

struct PlateKind {
  PlateGrid grid = 0;    // the cells of the plate as given
  int multiplicity = 1;  // interchangeable copies available
  int group = -1;        // index into the group capacities, or -1
};

// One face's content: kind and (smallest equivalent) plate transform.
struct FacePlacement {
  std::uint16_t kind = 0;
  std::uint8_t transform = 0;
  friend auto operator<=>(const FacePlacement&, const FacePlacement&) = default;
};
using AssemblyKey = std::array<FacePlacement, kMaxAssemblyFaces>;
// The kinds of a solution, sorted: the pieces it uses.
using SelectionKey = std::array<std::uint16_t, kMaxAssemblyFaces>;

struct SelectionHash {
  std::size_t operator()(const SelectionKey& k) const { return hash_bytes(k.data(), sizeof k); }
};

enum class SymmetryGroup { None, Rotations, Symmetries };

struct AssemblyOptions {
  bool count_selections = true;  // distinct piece selections
  std::size_t list_limit = 0;    // keep the first N canonical solutions
  SymmetryGroup list_up_to = SymmetryGroup::Symmetries;
  // Make every raw solution. Otherwise, when every face can be rotated to
  // face 0 (the cube), only solutions with their least kind on face 0 are
  // made (every canonical form is among them) and raw is the sum of the
  // rotation classes' sizes, 24 / |stabiliser| each.
  bool every_solution = false;
  // Count the copies of a kind as distinct pieces (by identity) while the
  // search treats them as one shape: each solution stands for the ways to
  // pick its copies, and classes split by the stabiliser's free action.
  bool label_copies = false;
  std::function<void(const SplitProgress&)> progress;
};

struct AssemblyTally {
  std::uint64_t raw = 0, rotations = 0, symmetries = 0;
  std::unordered_set<SelectionKey, SelectionHash> selections;
  std::uint64_t piece_choices = 0;  // set by count(): distinct piece selections
  std::vector<AssemblyKey> listed;  // canonical solutions, smallest first after finish()
  std::size_t list_limit = 0;

  AssemblyTally& operator+=(const AssemblyTally& other);
  void keep_smallest();
};

class PlateAssembly {
 public:
  PlateAssembly(const PlateSurface& surface, std::vector<PlateKind> kinds,
                std::vector<int> group_capacity = {});

  AssemblyTally count(const AssemblyOptions& options = {}) const;

  const PlateSurface& surface() const { return *surface_; }
  const std::vector<PlateKind>& kinds() const { return kinds_; }
  // The plate of `kind` as laid on a face with `transform`.
  PlateGrid placed_grid(int kind, int transform) const {
    return transform_grid(kinds_[kind].grid, transform);
  }
  // Distinct placements of each kind (8 less those occupying the same cells).
  int distinct_transforms(int kind) const;
  // The image of a solution under surface symmetry `s` (canonical transforms).
  AssemblyKey image(const AssemblyKey& key, int s) const;

 private:
  struct Candidate {
    CellMask cells;
    std::uint16_t kind;
    std::uint8_t transform;
  };
  // Candidates of the face filled at one depth, bucketed by their pattern on
  // the face's cells that the faces placed before it decide.
  struct DepthTable {
    int face = 0;
    std::vector<int> decided_cells;                // cell indices, bit i of the bucket key
    std::uint64_t decided_lo = 0, decided_hi = 0;  // the same as masks of cells 0-63, 64-127
    int lo_bits = 0;
    std::vector<std::uint32_t> bucket_start;
    std::vector<Candidate> candidates;
  };
  struct State;
  using Prefix = std::array<std::uint32_t, kMaxAssemblyFaces>;

  void build_tables();
  std::uint32_t bucket_of(const DepthTable& t, CellMask covered) const;
  void search(State& state, int depth, AssemblyTally& tally) const;
  void record(const State& state, AssemblyTally& tally) const;
  std::uint64_t labellings(const AssemblyKey& key) const;
  static std::uint64_t exact_quotient(std::uint64_t n, int d);
  std::uint64_t piece_choices(const AssemblyTally& tally, bool label_copies) const;
  // How the image of `key` under symmetry s compares with `key` (-1, 0, 1).
  int image_order(const AssemblyKey& key, int s) const;
  void collect_prefixes(State& state, int depth, int split, std::vector<Prefix>& out) const;
  bool place(State& state, int depth, const Candidate& c) const;
  void unplace(State& state, int depth, const Candidate& c) const;

  const PlateSurface* surface_;
  std::vector<PlateKind> kinds_;
  std::vector<int> group_capacity_;
  std::vector<std::array<std::uint8_t, kPlateTransforms>> canonical_transform_;
  // canonical_after_[kind][8*frame + t]: the canonical transform of `kind`
  // laid with t and then moved by the frame transform `frame`.
  std::vector<std::array<std::uint8_t, kPlateTransforms * kPlateTransforms>> canonical_after_;
  std::vector<DepthTable> depths_;
  // symmetry s: source face of face f, and the plate transform it applies.
  std::vector<std::array<std::uint8_t, kMaxAssemblyFaces>> sym_source_, sym_frame_;
  bool rotations_reach_all_faces_ = false;  // true on the cube
};

}  // namespace cubenum::search
