#pragma once
// Exact enumeration of the ways to cover a PlateSurface with plates: every
// face takes one piece in one of its distinct placements so that every cell
// is covered exactly once. Pieces come as kinds (a shape with a number of
// interchangeable copies, and optionally a group with a capacity, such as
// "one piece per colour"). The surface may be any size: each face keeps a
// 25-bit mask of its own cells already covered, so a placement is checked
// with one AND on the face's mask and recorded with a few ORs into the
// masks of the faces sharing its border (a table per shared edge or
// corner). The faces are filled in a fixed order, and for each face the
// candidates are bucketed by the cells its placed neighbours decide, so
// choosing a candidate is a table lookup plus an AND.
// Solutions are counted raw and up to the surface's rotations and
// symmetries by canonical forms (a solution counts when it is the smallest
// of its images).
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cubenum/search/plate_surface.hpp"
#include "cubenum/search/selection_set.hpp"
#include "cubenum/search/split_search.hpp"

namespace cubenum {
class Cluster;
class Progress;
}  // namespace cubenum

namespace cubenum::search {

class SubtreeCheckpoint;

// A mask over the 98 cells of one cube (the encoding benchmark's baseline).
__extension__ typedef unsigned __int128 CellMask;

// Kinds are numbered in 15 bits (FacePlacement and the search's tables).
inline constexpr std::size_t kMaxPlateKinds = (std::size_t{1} << 15) - 1;

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
// A solution: the content of each face, in face order.
using AssemblyKey = std::vector<FacePlacement>;
// The kinds of a solution, sorted: the pieces it uses.
using SelectionKey = std::vector<std::uint16_t>;

enum class SymmetryGroup { None, Rotations, Symmetries };

struct AssemblyOptions {
  bool count_selections = true;  // distinct piece selections
  std::size_t list_limit = 0;    // keep the first N canonical solutions
  SymmetryGroup list_up_to = SymmetryGroup::Symmetries;
  // Make every raw solution. Otherwise only solutions with the least kind
  // of the anchor's orbit (the largest orbit of faces under the rotations:
  // every face on the cube) on the anchor, in the least placement of its
  // orbit under the anchor's stabiliser, are made (every canonical form is
  // among them), and raw is the sum of the classes' sizes,
  // |symmetries| / |stabiliser| each.
  bool every_solution = false;
  // Count the copies of a kind as distinct pieces (by identity) while the
  // search treats them as one shape: each solution stands for the ways to
  // pick its copies, and classes split by the stabiliser's free action.
  bool label_copies = false;
  // With label_copies: count by shape in the same search as well (the
  // copies not told apart: each solution made counts once, not as its
  // labellings), in AssemblyTally::by_shape. Both counts come from the same
  // solutions and canonical forms, so the second costs next to nothing.
  bool tally_by_shape = false;
  std::function<void(const SplitProgress&)> progress;
  // Stop when this returns true (asked between subtrees and every few
  // thousand placements); the tally then holds the subtrees finished.
  std::function<bool()> stop;
  // If given, the search nodes visited are added to it (4096 at a time).
  Progress* nodes = nullptr;
  // If given, the raw assemblies found so far are added to it (as often).
  Progress* assemblies = nullptr;
  // If given, told the estimated share of the work done, as the search goes:
  // each subtree's size is estimated before the search (Knuth's random
  // descents), and the share is that of the subtrees finished plus the
  // nodes searched in the others.
  std::function<void(double)> work_done;
  // Share the search with every process of this cluster (null: this
  // process alone): each calls count alike, and each gets the whole tally.
  Cluster* cluster = nullptr;
  // Go on from the subtrees an earlier run finished, and record the ones
  // this run finishes, under the search's name (search/subtree_checkpoint.hpp).
  SubtreeCheckpoint* checkpoint = nullptr;
  std::string checkpoint_name;
};

struct AssemblyTally {
  std::uint64_t raw = 0, rotations = 0, symmetries = 0;
  SelectionSet selections;
  std::uint64_t piece_choices = 0;  // set by count(): distinct piece selections
  // AssemblyOptions::tally_by_shape: the counts with the copies not told
  // apart (piece_choices: the selections of shapes, set by count()).
  struct Counts {
    std::uint64_t raw = 0, rotations = 0, symmetries = 0, piece_choices = 0;
  };
  std::optional<Counts> by_shape;
  // A count without choices or listing whose pieces are all told apart
  // makes no canonical forms (count_without_forms): entry m sums the
  // weights of the solutions made with m faces of the anchor's orbit
  // holding its kind; count() turns them into raw (raw above is then
  // only a running estimate for the progress line).
  std::vector<std::uint64_t> raw_by_ties;
  std::vector<AssemblyKey> listed;  // canonical solutions, smallest first after finish()
  std::size_t list_limit = 0;
  std::size_t subtrees_done = 0, subtrees_total = 0;  // how far the count got
  bool complete = true;                               // false when stopped early

  AssemblyTally& operator+=(const AssemblyTally& other);
  // The same, keeping the larger of the two sets of selections and adding
  // the smaller to it (no copy of a set of gigabytes) where they are packed
  // alike.
  AssemblyTally& operator+=(AssemblyTally&& other);
  void keep_smallest();
  // As bytes (checkpoints, and the tallies of other processes), and back;
  // decode throws InputError(source) on bytes that are not a tally.
  std::vector<std::byte> encode() const;
  static AssemblyTally decode(std::span<const std::byte> bytes, const std::string& source);

 private:
  void add_counts(const AssemblyTally& other);  // everything but the selections
};

// A search for the first solutions only, for surfaces too large to count:
// depth-first, always on the open face with the fewest candidates (fail
// first), with the candidates of its bucket tried from a random
// offset, restarted with a fresh random order after `node_budget`
// placements, the budget doubling each restart (so the search is complete
// in the end). Reproducible: one thread, the order comes from `seed`.
struct FirstOptions {
  std::size_t wanted = 1;
  std::uint64_t seed = 1;
  std::uint64_t node_budget = 4096;
  std::function<bool()> stop;
  // If given, the placements made are added to it (1024 at a time).
  Progress* placements = nullptr;
};

struct FirstResult {
  std::vector<AssemblyKey> solutions;  // distinct, in the order found
  std::uint64_t restarts = 0, placements = 0;
  bool exhausted = false;  // the whole tree was searched (no more solutions)
};

// How many pieces a cover can use at most: every copy of every kind, no
// more than its capacity from a group. Fewer than the faces: no cover.
std::uint64_t usable_pieces(const std::vector<PlateKind>& kinds,
                            const std::vector<int>& group_capacity);

class PlateAssembly {
 public:
  PlateAssembly(const PlateSurface& surface, std::vector<PlateKind> kinds,
                std::vector<int> group_capacity = {});
  // Not copied: its forward checks point into its own tables.
  PlateAssembly(const PlateAssembly&) = delete;
  PlateAssembly& operator=(const PlateAssembly&) = delete;

  AssemblyTally count(const AssemblyOptions& options = {}) const;
  FirstResult first(const FirstOptions& options) const;

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
  // A placement: the plate's cells on the face (its own frame).
  struct Candidate {
    PlateGrid grid;
    std::uint16_t kind;
    std::uint8_t transform;
  };
  // Candidates bucketed by their pattern on a set of decided cells (bit i of
  // the bucket key: decided cell i left open); shared by every face whose
  // placed neighbours decide the same cells.
  struct BucketTable {
    PlateGrid decided = 0;
    std::vector<std::uint32_t> bucket_start;
    std::vector<Candidate> candidates;
    // The counting search's tables (bucket_table): per bucket, the
    // kind_bit()s of its candidates, for the forward checks.
    std::vector<std::uint64_t> kinds;
  };
  // Cells a face shares with another face (an edge of 5 cells or a
  // corner): `cells` on this face, and for each pattern of them (packed to
  // the low bits) the same cells on `face`.
  struct Link {
    PlateGrid cells = 0;
    std::uint32_t face = 0;
    std::array<PlateGrid, 32> image{};
  };
  struct DepthTable {
    int face = 0;
    int table = 0;  // index into tables_
    // The links to faces filled later: links_[link_begin, link_end).
    std::uint32_t link_begin = 0, link_end = 0;
    bool in_anchor_orbit = false;  // the face is in the anchor's orbit
    bool counts_borders = false;   // a placement here feeds the bound on the pieces left
    // The forward checks after a placement here: forward_checks_[check_begin, check_end).
    std::uint32_t check_begin = 0, check_end = 0;
  };
  // Forward checking: a placement decides cells of later faces, and each
  // must keep a candidate that matches them and whose kind is free, or the
  // subtree holds no cover (most of the deepest nodes, without it). The
  // kinds are folded onto 64 bits: exact up to 64 kinds; beyond, a bit
  // stands for several and the check only errs towards going on. What a
  // check reads is in it or one pointer away (the search's hottest loop).
  struct ForwardCheck {
    PlateGrid cells = 0;     // the cells a placement here shares with the later face
    PlateGrid decided = 0;   // the later face's cells decided once it is placed
    std::uint32_t face = 0;  // the later face
    const std::array<PlateGrid, 32>* image = nullptr;  // its link's images of `cells`
    const std::uint64_t* kinds = nullptr;              // per bucket on `decided`: the kind bits
  };
  static int kind_bit(int kind) { return kind & 63; }
  // The symmetries that keep the anchor face in place: a made solution's
  // anchor placement is the least of its images under them, so each class
  // is made fewer times (twice fewer on the cuboids, whose anchor a
  // reflection keeps). With the reflections only where they keep the
  // anchor's orbit of faces (then every symmetry acts on the solutions
  // made); otherwise the rotations alone.
  struct AnchorGroup {
    std::vector<std::uint8_t> frames;  // each element's frame transform on the anchor
  };
  struct State;
  struct Work;
  using Prefix = std::vector<std::uint32_t>;

  void build_tables();
  PlateGrid decided_cells(int face, const std::vector<int>& depth_of, int placed) const;
  void build_forward_checks(const std::vector<int>& depth_of);
  bool later_faces_open(const State& state, int depth, const Candidate& c) const;
  void build_symmetries();
  void build_links(const std::vector<int>& depth_of);
  // The links of face f to the faces in `to` (-1: every face), appended to `out`.
  void add_links(int f, const std::vector<bool>& to, std::vector<Link>& out) const;
  BucketTable make_bucket_table(PlateGrid decided) const;
  int bucket_table(PlateGrid decided);
  static std::uint32_t bucket_of(PlateGrid decided, PlateGrid covered);
  std::span<const Candidate> bucket_at(const State& state, int depth) const;
  void search(State& state, int depth, AssemblyTally& tally) const;
  // count_without_forms: the search adding each solution's weight (the
  // ways to pick its copies) to the tally's sum for its ties.
  bool count_without_forms(const AssemblyOptions& options) const;
  void search_weights(State& state, int depth, std::uint64_t weight, int ties) const;
  std::uint64_t weight_of(const State& state, const Candidate& c) const;
  int ties_of(const State& state, int depth, const Candidate& c) const;
  static std::uint64_t raw_from_ties(const std::vector<std::uint64_t>& by_ties, int group_order);
  void build_anchor_groups();
  // The order of the group acting with `group`: it times the anchor's orbit.
  int acting_order(const AnchorGroup& group) const {
    return static_cast<int>(group.frames.size() * anchor_orbit_.size());
  }
  bool least_at_anchor(const AnchorGroup& group, const Candidate& c) const;
  int fixing_at_anchor(const AnchorGroup& group, int face, const Candidate& c) const;
  void record(State& state, AssemblyTally& tally) const;
  SelectionSet empty_selections() const;
  void count_class(const State& state, AssemblyTally& tally, std::uint64_t labels,
                   int fixing_rotations, int fixing_all) const;
  std::uint64_t labellings(const AssemblyKey& key) const;
  static std::uint64_t exact_quotient(std::uint64_t n, int d);
  std::uint64_t piece_choices(const AssemblyTally& tally, bool label_copies) const;
  // How the image of `key` under symmetry s compares with `key` (-1, 0, 1).
  int image_order(const AssemblyKey& key, int s) const;
  void collect_prefixes(State& state, int depth, int split, Prefix& current,
                        std::vector<Prefix>& out) const;
  bool fits(const State& state, int depth, const Candidate& c) const;
  void place(State& state, int depth, const Candidate& c) const;
  void unplace(State& state, int depth, const Candidate& c) const;
  State start_state(const AssemblyOptions& options) const;
  void report(State& state, const AssemblyTally& tally, std::uint64_t nodes) const;
  double descend(State& state, int split, int descents, std::mt19937_64& random) const;
  std::vector<double> estimate_subtrees(const State& start, int split,
                                        const std::vector<Prefix>& prefixes) const;
  struct Restart;
  bool probe(State& state, int depth, Restart& restart) const;
  int most_constrained_face(const State& state, Restart& restart) const;
  void build_border_sums();
  bool border_sums_reachable(const State& state, int placed) const;
  bool checks_borders_at(int depth) const;
  void take_borders(State& state, int kind, int n) const;
  bool borders_fillable() const;
  bool free_to_place(const State& state, int face, const Candidate& c) const;
  const BucketTable& table_for(PlateGrid decided, Restart& restart) const;

  const PlateSurface* surface_;
  std::vector<PlateKind> kinds_;
  std::vector<int> group_capacity_;
  std::vector<std::array<std::uint8_t, kPlateTransforms>> canonical_transform_;
  // canonical_after_[kind][8*frame + t]: the canonical transform of `kind`
  // laid with t and then moved by the frame transform `frame`.
  std::vector<std::array<std::uint8_t, kPlateTransforms * kPlateTransforms>> canonical_after_;
  std::vector<Candidate> placements_;  // every distinct placement of every kind
  std::vector<BucketTable> tables_;
  std::vector<DepthTable> depths_;
  std::vector<Link> links_;
  std::vector<ForwardCheck> forward_checks_;
  // For the first-solution search, which fills faces in any order: every
  // face's links to all faces, and its shared cells with the other faces.
  std::vector<Link> all_links_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> all_link_range_;
  std::vector<std::vector<std::pair<std::uint8_t, std::uint32_t>>> shared_cells_;
  // symmetry s: source face of face f, and the plate transform it applies.
  std::vector<std::vector<std::uint32_t>> sym_source_;
  std::vector<std::vector<std::uint8_t>> sym_frame_;
  // Every cell is covered once, so the pieces of a cover fill exactly as
  // many plate-corner cells as the surface has corner points, and as many
  // plate-edge cells as it has edge cells. corners_/edges_ of each kind;
  // the surface's totals.
  std::vector<std::uint8_t> corners_, edges_;
  int corner_points_ = 0, edge_cells_ = 0;
  // The anchor face (filled first, compared first), the faces of its orbit
  // under the rotations, and the order in which solutions are compared.
  int anchor_ = 0;
  std::vector<bool> in_anchor_orbit_;
  std::vector<std::uint32_t> anchor_orbit_, compare_order_;
  AnchorGroup by_rotations_, by_symmetries_;
  std::vector<int> to_anchor_;  // per face of the anchor's orbit: a rotation taking it there
};

}  // namespace cubenum::search
