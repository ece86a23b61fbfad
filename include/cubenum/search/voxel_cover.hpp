#pragma once
// The polycube engine: exact cover of a target's voxels by pieces'
// placements, as bitmasks over the target's bounding box.
//
// Every distinct orientation (of the 24 rotations) of every piece at every
// offset that fits is a placement. The search fills one undecided cell at a
// time with each placement that covers it and fits, or leaves it empty
// where the target lets it; regions of undecided cells that no remaining
// pieces can fill are cut at once. Which cell (CellChoice): the lowest
// (cells ordered along the box's longest axis last, so the filled part
// grows as a wall across the short sides; only the placements whose lowest
// cell it is can fill it), or the one with the fewest ways to decide it
// (the placements that fit it, and leaving it empty where it may be),
// found from the set of placements that still fit, kept as a bitset from
// node to node (Knuth's "most constrained" rule of Dancing Links, on bits).
//
// Symmetry: one piece that occurs exactly once is placed first, only in one
// placement of each orbit of the target's symmetry group; where such a
// placement is kept by more than the identity, a second piece one per
// orbit of what keeps it, and so on. Every assembly found stands for the
// product of those orbits' sizes of raw assemblies, and its stabiliser
// tells how many classes it makes (orbit counting), so raw counts and
// counts up to symmetry come out exact without a table of classes.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cubenum/core/cluster.hpp"
#include "cubenum/search/split_search.hpp"
#include "cubenum/search/voxel_problem.hpp"

namespace cubenum::search {

// Targets whose bounding box has more cells are refused (BurrTools'
// DraculasDentalDesaster: 14x14x14 = 2744).
inline constexpr int kMaxCoverCells = 4096;

struct CoverCounts {
  std::uint64_t raw = 0;         // the target fixed in space
  std::uint64_t rotations = 0;   // classes under the target's rotations
  std::uint64_t symmetries = 0;  // ... and reflections, where the mirror image is an assembly
  std::uint64_t nodes = 0;       // search nodes (placements tried that fit)
  bool complete = true;          // false: stopped early, the counts are lower bounds
  std::size_t subtrees_done = 0, subtrees_total = 0;
};

// One assembly: each placed piece (its index in the problem's pieces, after
// congruent pieces are merged: VoxelCover::piece_names), its voxels and,
// where the problem has colours, each voxel's colour.
struct PlacedPiece {
  int piece = 0;
  std::vector<Voxel> voxels;
  std::vector<int> colours{};  // empty: every voxel neutral
};
using CoverAssembly = std::vector<PlacedPiece>;

// One class of assemblies up to the target's symmetries (as `symmetries`
// counts them): the member the search meets first, and how many raw
// assemblies and classes up to rotation the class holds.
struct CoverClass {
  CoverAssembly assembly;
  std::uint64_t raw = 0, rotations = 0;
};

class SubtreeCheckpoint;

// What the search of some subtrees counted (CoverSubtrees): raw
// assemblies, and the classes up to rotation and up to symmetry each times
// its group's order (CoverSubtrees::counts divides), and the search nodes.
struct CoverTally {
  std::uint64_t raw = 0, rotations = 0, symmetries = 0, nodes = 0;
  CoverTally& operator+=(const CoverTally& o) {
    raw += o.raw, rotations += o.rotations, symmetries += o.symmetries, nodes += o.nodes;
    return *this;
  }
};

// A count's subtrees (the ones VoxelCover::count deals, in the same order
// in every process), for a caller that deals them itself and does more
// with each class than count it (count --disassemble takes each apart):
// one search both counts and lists.
class CoverSubtrees {
 public:
  struct Impl;
  explicit CoverSubtrees(std::unique_ptr<Impl> impl);
  ~CoverSubtrees();
  CoverSubtrees(CoverSubtrees&&) noexcept;

  std::size_t size() const;
  // Searches subtree i: its assemblies counted into `tally`, and each class
  // whose member VoxelCover::classes lists lies in it given to `each`, with
  // the class's sizes (each class in exactly one subtree). False where
  // `stop` ended it early.
  bool search(std::size_t i, CoverTally& tally, const std::function<void(CoverClass&&)>& each,
              const std::function<bool()>& stop) const;
  // The counts of a tally of every subtree (nodes, raw, and the classes).
  CoverCounts counts(const CoverTally& tally) const;

 private:
  std::unique_ptr<Impl> impl_;
};

// How the search picks the cell to fill next.
enum class CellChoice {
  // fewest_fits for a solid target (a bounding box at least 2 cells deep
  // every way), lowest for a flat board: fewest_fits pays on solid targets
  // and not on flat boards, where the lowest cell is already well
  // constrained (results/polycube.md).
  automatic,
  lowest,       // the lowest undecided cell
  fewest_fits,  // the cell with the fewest ways (where the sets fit in memory, else lowest)
};

struct CoverOptions {
  std::function<void(const SplitProgress&)> progress;
  std::function<bool()> stop;  // polled now and then; true ends the count early
  Cluster* cluster = nullptr;  // deal the subtrees to every process (null: alone)
  // Where finished subtrees are recorded, and earlier sessions' are read
  // (search/subtree_checkpoint.hpp), under this search's name.
  SubtreeCheckpoint* checkpoint = nullptr;
  std::string checkpoint_name;
};

class VoxelCover {
 public:
  // Throws InputError (naming `source`) for a problem the engine cannot
  // take: a bounding box over kMaxCoverCells. Congruent pieces are one
  // piece, their counts added, unless `congruent_apart` (BurrTools tells
  // apart congruent pieces listed as two: its count).
  VoxelCover(const VoxelProblem& problem, const std::string& source, bool congruent_apart = false);
  ~VoxelCover();
  VoxelCover(VoxelCover&&) noexcept;

  CoverCounts count(const CoverOptions& options = {}) const;
  // The first `n` assemblies in search order, one per class up to the
  // target's symmetries (as `symmetries` counts them).
  std::vector<CoverAssembly> first(std::size_t n, const std::function<bool()>& stop = {}) const;
  // The same, with each class's sizes (the sums over every class are
  // count()'s raw, rotations and symmetries).
  std::vector<CoverClass> classes(std::size_t n, const std::function<bool()>& stop = {}) const;
  // The count's subtrees, to search one at a time (the cover must outlive them).
  CoverSubtrees subtrees() const;

  // What the engine made of the problem.
  const std::vector<std::string>& piece_names() const;  // congruent pieces merged
  // Each piece's first among the problem's pieces (its weight and groups).
  const std::vector<int>& source_pieces() const;
  std::size_t placements() const;
  int rotation_order() const;  // rotations that map the target onto itself
  int symmetry_order() const;  // ... with the reflections
  // Whether every assembly's mirror image is an assembly of the puzzle:
  // every piece's mirror image is a piece of it, with the same counts.
  // (Else an assembly and its mirror image are the same only where the
  // mirror image is an assembly: its pieces' mirror images are pieces,
  // within their counts; BurrTools' rule.)
  bool mirror_pieces() const;
  std::string fixed_piece() const;       // the piece placed first, one per orbit ("": none)
  std::size_t first_placements() const;  // its placements searched (orbit representatives)

  // The rule for the next cell (default automatic), and the rule the
  // searches use: fewest_fits only where its sets fit (a cell's set of
  // placements is a bit per placement; at most 64 MiB for all cells).
  void set_cell_choice(CellChoice choice);
  CellChoice cell_choice() const;

  struct Model;

 private:
  std::unique_ptr<Model> model_;
};

}  // namespace cubenum::search
