#pragma once
// Counting the covers of a PlateSurface by layers instead of one by one: the
// faces are filled in an order that keeps the frontier (the cells shared by
// placed and unplaced faces) narrow, and layer k holds, for every distinct
// state after k faces (which frontier cells are covered, and how many copies
// of each kind are left), the number of ways to reach it. Assemblies that
// agree on both are counted together, so where the pieces repeat (many
// congruent copies) the work grows with the states, not with the
// assemblies: the Little Genius 3x1x1 has 3.3 x 10^11 assemblies by shape
// but at most 2 x 10^7 states in a layer. Where every piece differs the
// states are nearly as many as the partial assemblies, and the search
// (plate_assembly.hpp) is the better tool.
//
// Written apart from PlateAssembly (its own order, cells and candidate
// tables) so that each checks the other.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cubenum/search/plate_assembly.hpp"
#include "cubenum/search/plate_surface.hpp"

namespace cubenum::search {

struct LayerOptions {
  // Count the copies of a kind as distinct pieces (by identity): each
  // assembly counts once for every way to pick its copies.
  bool label_copies = false;
  // Stop when this returns true (asked every few thousand states); the
  // result is then incomplete and holds no counts.
  std::function<bool()> stop;
  // Told the layer finished and the states it holds, after each layer.
  std::function<void(int layer, int layers, std::uint64_t states)> layer_done;
  // Burnside's fixed assemblies of each symmetry by the search over its
  // cycles, as where the cycles' frontier is too wide for the keys (tests
  // compare the two ways).
  bool fixed_by_search = false;
  // Keep every state wide (32 bytes) even where it fits 16 (tests compare).
  bool wide_states = false;
};

__extension__ typedef unsigned __int128 LayerCount;
// In decimal digits.
std::string decimal(LayerCount n);

struct LayerTally {
  LayerCount raw = 0;
  LayerCount rotations = 0, symmetries = 0;
  LayerCount piece_choices = 0;     // distinct sets of pieces (of copies, by identity)
  std::uint64_t largest_layer = 0;  // the most states one layer held
  bool complete = true;
};

// The widest frontier (in cells) of the order the layers fill the
// surface's faces in, without their tables: whether layers can serve.
int narrow_frontier(const PlateSurface& surface);

class PlateLayers {
 public:
  // Throws std::invalid_argument when a state does not fit the layers' keys
  // (more than 64 frontier cells, or more than 64 bits of copies left) or a
  // kind belongs to a group (a capacity per group is not kept).
  PlateLayers(const PlateSurface& surface, std::vector<PlateKind> kinds);
  ~PlateLayers();
  PlateLayers(const PlateLayers&) = delete;
  PlateLayers& operator=(const PlateLayers&) = delete;

  // raw, piece choices, and the classes: with every piece told apart
  // (label_copies, or one copy of each kind) only the identity fixes an
  // assembly, so classes are raw / |group|; otherwise Burnside's lemma with
  // the assemblies each symmetry fixes.
  LayerTally count(const LayerOptions& options = {}) const;

  int widest_frontier() const;

 private:
  struct Step;  // how layer k's keys become layer k+1's
  // Steps filling `groups` of faces in turn: single faces, or the cycles of
  // `symmetry` (each cycle's plates the images of its first face's).
  std::vector<Step> make_steps(const std::vector<std::vector<int>>& groups,
                               const PlateSurface::Symmetry* symmetry) const;
  using LastLayer = std::function<void(std::uint64_t copies_left, LayerCount count)>;
  // The layers over `steps`, the last one's states given to `last`; false
  // when stopped.
  bool fill(const std::vector<Step>& steps, const LayerOptions& options, const LastLayer& last,
            std::uint64_t* largest) const;
  enum class Filled { Done, Stopped, Overflowed };
  template <class Slot>
  Filled fill_with(const std::vector<Step>& steps, const LayerOptions& options,
                   const LastLayer& last, std::uint64_t* largest, int shift) const;
  static int widest(const std::vector<Step>& steps);  // frontier cells, at most
  std::uint64_t copies_left(std::uint64_t left, int kind) const;
  std::vector<std::vector<int>> cycles_of(const PlateSurface::Symmetry& g) const;
  std::optional<LayerCount> fixed_by(int symmetry, const LayerOptions& options) const;
  LayerCount fixed_by_search(int symmetry) const;

  const PlateSurface* surface_;
  std::vector<PlateKind> kinds_;
  std::vector<int> order_;
  std::vector<Step> steps_;
  std::vector<std::vector<PlateGrid>> grids_;  // each kind's distinct plates
  std::vector<int> usage_shift_;               // each kind's copies left: bits at shift
  std::vector<std::uint64_t> usage_mask_;      // under mask
  std::uint64_t usage_start_ = 0;              // every copy left
};

}  // namespace cubenum::search
