#pragma once
// The space of a definition file's symmetry classes, for a BFS over
// classes (a sym-coordinate, as in Kociemba's two-phase and Rokicki's
// searches): a ranked position's coordinates (twisty_space.hpp) are split
// into C, the pieces of some orbits that the symmetries map among
// themselves (so the C of S x S^-1 depends on the C of x alone), and R, the
// rest; or, where one orbit is every piece, C the blocks of that orbit
// that the symmetries permute and R the order within each block. The
// values of C fall into classes under the group; a class of positions is
// indexed by (the class of C, R), with C its class's least member and R
// the least among the images that keep it there (the C class's
// stabiliser). Indices that are not so least are never reached.
//
// The index space is about raw / |G| large, so a BFS over it (the frontier
// engine, bfs/frontier_bfs.hpp: every thread, mpirun, checkpoints) takes
// about |G| times less memory than the raw one, plus a table of 5 bytes a
// value of C (its class and a symmetry taking it to the class's least).
// The positions of a class are |G| / |stabiliser|, so raw counts by depth
// come out exactly.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cubenum/bfs/frontier_interface.hpp"
#include "cubenum/core/checkpoint.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/fast_divisor.hpp"
#include "cubenum/puzzles/twisty_search.hpp"

namespace cubenum::twisty {

// Which parts of the rank make C, and what the split costs.
struct SymCoordinate {
  std::vector<std::size_t> parts;  // indices into TwistySpace::parts()
  std::uint64_t values = 1;        // of C
  std::uint64_t rest = 1;          // values of R
  // R's parts in blocks that move apart (orbits that no symmetry, parity
  // or coupling ties): a move or symmetry changes a block's value by its
  // value alone. Least significant block first, each block's parts least
  // significant first.
  struct Block {
    std::vector<std::size_t> parts;
    std::uint64_t values = 1;
  };
  std::vector<Block> rest_blocks;
  // Where C is coarser than whole pieces: an orbit of distinct, untwisted
  // pieces (the space's only one) cut into blocks that every symmetry maps
  // onto blocks (the dino's edges, by the axis each lies along). C is the
  // block of the piece in each slot, R each block's pieces in the order of
  // their slots, the last block's ranked within the parity the moves keep.
  // A move or symmetry then reorders R's digits as C decides: tables per
  // class of C and move.
  struct PieceBlocks {
    std::vector<std::uint8_t> block_of;  // [kind]
    unsigned count = 0, size = 0;        // blocks, and pieces a block
    bool parity_kept = false;
  };
  std::optional<PieceBlocks> piece_blocks;
  // The index space (C's classes times R's values) and the bytes of the
  // class BFS with this split (the C table and two bits an index),
  // estimated before the C table is built.
  std::uint64_t estimated_indices = 0;
  std::uint64_t estimated_bytes = 0;
  std::string text;  // "CORNER pieces (40320 values)"
};

// The split of the space for the group with the most values of C among
// those within half as much again as the least estimated memory, of those
// whose index space is at most 1.5 x size / |G| where some are, or why
// there is none (`parts` empty, `text` the reason): C must be the
// pieces of orbits that every symmetry maps among themselves, whose parity
// and coupled pieces lie within them, or the blocks of an orbit
// (piece_block_coordinates), with at most 2^32 values; the group
// at most 255 symmetries (times `turns` whole-puzzle turns, at most 2^16
// in all), the moves at most bfs::kMaxNeighbours.
SymCoordinate choose_sym_coordinate(const TwistySpace& space, const SymmetryGroup& group,
                                    std::size_t turns = 1);
// The splits whose C is the blocks of an orbit's pieces
// (SymCoordinate::PieceBlocks), one for each block system of equal blocks
// of the symmetries that is the least joining slot 0 to another, or where
// there is none such, those found by search; none unless the space is one
// orbit of distinct pieces without twists.
std::vector<SymCoordinate> piece_block_coordinates(const TwistySpace& space,
                                                   const SymmetryGroup& group,
                                                   std::size_t turns = 1);
// R's blocks are moved by one table where R's tables take at most this:
// one look-up a neighbour instead of a division and a look-up a block,
// while the table stays in cache (past it, small blocks' tables are
// faster: results/twisty.md).
inline constexpr std::uint64_t kOneRestTableBytes = 2ULL << 20;

// The split with C the parts `c_parts` of the space (whole orbits' pieces,
// maybe with their twists, closed under the group as choose_sym_coordinate
// takes them); no parts where C has more than 2^32 values.
SymCoordinate sym_coordinate(const TwistySpace& space, const SymmetryGroup& group,
                             std::vector<std::size_t> c_parts, std::size_t turns = 1,
                             std::uint64_t one_table_bytes = kOneRestTableBytes);

// How a class's neighbours are found: by table where the definition allows
// (table_driven() says), or always through positions (for tests: the two
// must agree).
enum class NeighbourMethod { ByTable, ThroughPositions };

struct ClassSpaceOptions {
  // Whole-puzzle turns (whole_turns(), the identity first): the classes are
  // then of positions up to turns too, under the transforms x -> S x S^-1 t
  // (the pocket cube's classes from the 2x2x2 with all six faces).
  std::vector<Arrangement> turns;
  NeighbourMethod method = NeighbourMethod::ByTable;
  // R's one block moved then conjugated by one table: kept where
  // moved_then_bytes allows (unset), or always, or never (tests).
  std::optional<bool> moved_then;
  // Told the values of C done now and then while the C table is built.
  std::function<void(std::uint64_t values)> on_progress;
};

class ClassSpace {
 public:
  // Builds the C table on every thread. The group's order is at most 255,
  // and times the turns at most 2^16.
  ClassSpace(const TwistySpace& space, const SymmetryGroup& group, SymCoordinate split,
             ClassSpaceOptions options = {});
  ~ClassSpace();
  ClassSpace(const ClassSpace&) = delete;
  ClassSpace& operator=(const ClassSpace&) = delete;

  const TwistySpace& space() const { return space_; }
  const SymCoordinate& split() const { return split_; }
  std::uint64_t c_classes() const { return reps_.size(); }
  // C classes whose least member some transform other than the identity fixes.
  std::uint64_t special_classes() const { return stabilisers_.size(); }
  // Those classes, increasing, with the transforms that fix their least C.
  const std::vector<std::pair<std::uint32_t, std::vector<std::uint16_t>>>& stabilisers() const {
    return stabilisers_;
  }
  // Positions of a class that no transform but the identity fixes.
  std::size_t group_order() const { return group_.order(); }
  std::size_t turns() const { return turns_.size(); }
  std::uint64_t table_bytes() const;
  // Whether neighbours are found by table (R moved by look-ups, the C of
  // each class's neighbours found once per class) or through positions.
  bool table_driven() const { return !rest_blocks_.empty() || !block_steps_.empty(); }
  // Whether R is moved then conjugated by one look-up a neighbour.
  bool moves_then_conjugates() const {
    return one_block_ != nullptr && !one_block_->moved_then.empty();
  }
  // R's twists parts that conjugation shifts by C's arrangement.
  std::size_t twist_shifts() const { return shifts_.size(); }
  // Whether C's images under moves and transforms come from its kinds
  // alone, and the shifts' too where there are shifts (no arrangement
  // built for them).
  bool acts_on_kinds() const {
    return !move_kinds_.empty() &&
           std::all_of(shifts_.begin(), shifts_.end(),
                       [](const TwistShift& t) { return !t.by_kind.empty(); });
  }

  // The index space (bfs::RankedSpace).
  std::uint64_t size() const { return reps_.size() * split_.rest; }

  // The class of a ranked position, and a class's least position's rank.
  std::uint64_t index_of(std::uint64_t rank) const;
  std::uint64_t rank_of(std::uint64_t index) const;
  // Whether an index is its class's (the others are never reached).
  bool canonical(std::uint64_t index) const;
  // The positions of a class, up to turns: |G| turns() / |the transforms
  // that fix its least position| / turns().
  std::uint64_t positions(std::uint64_t index) const;
  // Whether the class has nontrivial stabiliser candidates (positions()
  // can be below |G| only then).
  bool special(std::uint64_t index) const { return is_special_[index / split_.rest] != 0; }
  // Whether every index from `first` to `last` (both in the space) is of
  // a class that is not special and (where `inverse`) cannot hold its
  // positions' inverses: |G| positions a class, none its own inverse.
  bool plain(std::uint64_t first, std::uint64_t last, bool inverse) const {
    for (std::uint64_t c = first / split_.rest; c <= last / split_.rest; ++c)
      if (is_special_[c] != 0 ||
          (inverse && (may_self_invert_.empty() || may_self_invert_[c] != 0)))
        return false;
    return true;
  }
  // The class of the inverse of the class's positions (group.inverse()).
  std::uint64_t inverse_of(std::uint64_t index) const;

  // A thread's scratch storage for the above, used by the engine's scans
  // (ranks given in increasing order, but any order works).
  class Cursor;
  Cursor cursor(std::uint64_t first) const;

  template <class Visit>
  bool for_each_neighbour(std::uint64_t index, Visit&& visit) const;

 private:
  friend class Cursor;
  friend class ClassRows;
  struct Scratch;
  struct TransformTable;
  void build_table(const std::function<void(std::uint64_t)>& on_progress);
  // Transform k: S x S^-1 t for symmetry k / turns() and turn k % turns().
  void transform(std::size_t k, const Arrangement& x, Arrangement& out, Arrangement& turned) const;
  std::uint16_t to_least(std::uint64_t c) const {
    return to_least_wide_.empty() ? to_least_[c] : to_least_wide_[c];
  }
  void set_to_least(std::uint64_t c, std::size_t k);
  void find_stabilisers();
  std::uint64_t compose(std::uint64_t c, std::uint64_t r) const;
  // C and R from what read_position made of a position; the position of
  // (c, r) into s.position (and s.coded); C and R of a position.
  std::uint64_t c_of(const Position& p) const;
  std::uint64_t r_of(const Position& p) const;
  void arrange(std::uint64_t c, std::uint64_t r, Scratch& s) const;
  // Where C is blocks: the same from C's blocks slot by slot and R's
  // digits, whatever their parity.
  void arrange_blocks(const std::uint8_t* labels, const std::uint32_t* digits, Scratch& s) const;
  void split_position(const Arrangement& x, std::uint64_t& c, std::uint64_t& r, Scratch& s) const;
  void split_rank(std::uint64_t rank, std::uint64_t& c, std::uint64_t& r, Scratch& s) const;
  std::uint64_t index_of(std::uint64_t rank, Scratch& s) const;
  // The class of the position s.moved.
  std::uint64_t index_of_moved(Scratch& s) const;
  std::uint64_t inverse_of(std::uint64_t index, Scratch& s) const;
  // inverse_of(index) == index, stopping where the class of C cannot be
  // its own inverse or the inverse's C is of another class.
  bool self_inverse(std::uint64_t index, Scratch& s) const;
  // Where C is blocks: whether the inverse of (cls, r)'s position has its
  // C in class cls, from its kinds alone.
  bool inverse_c_in_class(std::uint64_t cls, std::uint64_t r) const;
  bool canonical(std::uint64_t index, Scratch& s) const;
  std::uint64_t positions(std::uint64_t index, Scratch& s) const;
  // The same where the position's C is known (from c_moves_).
  std::uint64_t index_of_moved(Scratch& s, std::uint64_t c) const;
  // C after each move from the class of `index`'s least C, where kept.
  const std::uint32_t* c_moved(std::uint64_t index) const {
    return c_moves_.empty() ? nullptr
                            : c_moves_.data() + index / split_.rest * space_.move_list().size();
  }
  void build_c_moves();
  std::uint64_t value(const Position& p, const std::vector<std::uint64_t>& weights) const;
  std::uint64_t least_rest(std::uint32_t cls, std::uint64_t r, Scratch& s) const;
  const std::vector<std::uint16_t>* stabiliser(std::uint32_t cls) const;

  // Neighbours by table. R after a move does not depend on C; R after
  // conjugation by S does only through the twists that S gives C's pieces
  // (the offset of a slot less that of the piece's home), added to R's
  // parts that twist C's pieces: a "shift" of twists over each such orbit.
  struct TwistShift {
    std::size_t part = 0;   // a twists part of R
    std::size_t first = 0;  // its orbit's first digit in a Position
    unsigned radix = 1;     // of a digit
    // Digits numbered in a shift's table numbers (all, or all but the last
    // where the part's twists keep a sum: the last is then not coded), and
    // those in the low table's.
    std::size_t digits = 0, low = 0;
    std::uint64_t weight = 1, size = 1;  // the part's in R
    FastDivisor weight_divisor, size_divisor;
    // [number * size + value]; no high table where the low takes every digit.
    std::vector<std::uint32_t> low_table, high_table;
    // [(k * digits + j) * kinds + kind]: the shift of digit j under
    // transform k where it puts a piece of `kind` there, or kUnseen.
    unsigned kinds = 0;
    std::vector<std::uint8_t> by_kind;
  };
  static constexpr std::uint8_t kUnseen = 0xff;
  std::size_t shift_digit_count_ = 0;  // the shifts' digits, all together
  struct Step {
    std::uint32_t cls = 0;        // the neighbour's class of C
    std::uint16_t transform = 0;  // taking its C to the class's least
    bool special = false;
  };
  void build_rest_tables();
  struct RestBlock;
  RestBlock build_rest_block(const SymCoordinate::Block& block) const;
  void build_shift_tables(TwistShift& t) const;
  bool rest_tables_agree();
  // The shifts' table numbers (two a shift) of conjugation by symmetry k
  // at `x`'s C, x read into s.coded.
  void shift_ids(std::uint16_t k, const Arrangement& x, Scratch& s, std::uint32_t* ids) const;
  // The shifts' digits, shift after shift, the same way (s.coded then
  // holds S_k x).
  void shift_digits(std::uint16_t k, const Arrangement& x, Scratch& s, std::uint8_t* digits) const;
  // R of S_k (C, r) where `ids` are the shifts of S_k at C.
  std::uint64_t rest_image(std::uint16_t k, const std::uint32_t* ids, std::uint64_t r) const {
    return shifted_rest(ids, conjugated_rest(k, r));
  }
  // R conjugated (`image`) with the shifts `ids` added.
  std::uint64_t shifted_rest(const std::uint32_t* ids, std::uint64_t image) const {
    for (const TwistShift& t : shifts_) {
      const std::uint64_t v = t.size_divisor.remainder(t.weight_divisor.quotient(image));
      std::uint64_t w = t.low_table[ids[0] * t.size + v];
      if (!t.high_table.empty()) w = t.high_table[ids[1] * t.size + w];
      image += (w - v) * t.weight;
      ids += 2;
    }
    return image;
  }
  // R by its blocks' tables: r's blocks' values, R after move m from
  // them, and R of S_k (C at home, r) before any shift.
  static constexpr std::size_t kMaxRestBlocks = 16;
  void rest_digits(std::uint64_t r, std::uint32_t* digits) const {
    if (rest_blocks_.size() == 1) {
      digits[0] = static_cast<std::uint32_t>(r);
      return;
    }
    for (std::size_t b = 0; b < rest_blocks_.size(); ++b)
      digits[b] = static_cast<std::uint32_t>(
          rest_blocks_[b].size_divisor.remainder(rest_blocks_[b].weight_divisor.quotient(r)));
  }
  std::uint64_t moved_rest(std::size_t m, const std::uint32_t* digits) const {
    std::uint64_t r = 0;
    for (const RestBlock& b : rest_blocks_) r += b.moved[m * b.size + *digits++] * b.weight;
    return r;
  }
  std::uint64_t conjugated_rest(std::size_t k, std::uint64_t r) const {
    if (one_block_ != nullptr) return one_block_->conjugated[k * one_block_->size + r];
    std::array<std::uint32_t, kMaxRestBlocks> digits;
    rest_digits(r, digits.data());
    std::uint64_t image = 0;
    for (std::size_t b = 0; b < rest_blocks_.size(); ++b)
      image +=
          rest_blocks_[b].conjugated[k * rest_blocks_[b].size + digits[b]] * rest_blocks_[b].weight;
    return image;
  }
  // The steps of class `cls` by each move, and their shifts.
  void class_steps(std::uint32_t cls, Scratch& s, Step* steps, std::uint32_t* ids) const;
  // R of (cls's least C, r) under each transform that fixes that C.
  template <class Visit>
  void for_each_fixed_image(std::uint32_t cls, std::uint64_t r, Visit&& visit) const;
  std::uint64_t least_rest_by_table(std::uint32_t cls, std::uint64_t r) const;
  // The index a step reaches from R `moved_r` (R after the step's move).
  std::uint64_t step_index(const Step& step, const std::uint32_t* ids,
                           std::uint64_t moved_r) const {
    return index_of_image(step, ids, conjugated_rest(step.transform, moved_r));
  }
  // The same from R moved and conjugated (`image`), before the shifts.
  std::uint64_t index_of_image(const Step& step, const std::uint32_t* ids,
                               std::uint64_t image) const {
    image = shifted_rest(ids, image);
    if (step.special) image = least_rest_by_table(step.cls, image);
    return std::uint64_t{step.cls} * split_.rest + image;
  }
  std::uint64_t positions_by_table(std::uint32_t cls, std::uint64_t r) const;
  std::size_t shift_stride() const { return 2 * shifts_.size(); }

  const TwistySpace& space_;
  const SymmetryGroup& group_;
  SymCoordinate split_;
  std::vector<std::uint64_t> weight_;    // each part's weight in the rank
  std::vector<std::uint64_t> c_weight_;  // [part]: its weight in C, 0 if in R
  std::vector<std::uint64_t> r_weight_;  // [part]: its weight in R, 0 if in C
  std::vector<std::uint32_t> class_of_;  // [c]
  std::vector<Arrangement> turns_;       // the identity first
  std::size_t transforms_ = 1;           // symmetries times turns
  // [c]: a transform taking c to its class's least (wide: over 256 of them).
  std::vector<std::uint8_t> to_least_;
  std::vector<std::uint16_t> to_least_wide_;
  std::vector<std::uint32_t> reps_;  // [class]: its least c
  // [class * moves + m]: C after move m from the class's least c (a move
  // takes C's pieces among themselves), where it takes little memory.
  std::vector<std::uint32_t> c_moves_;
  std::vector<std::uint8_t> is_special_;  // [class]
  // The stabilisers of the special classes' least c (identity excluded),
  // sorted by class.
  std::vector<std::pair<std::uint32_t, std::vector<std::uint16_t>>> stabilisers_;
  std::vector<std::uint32_t> special_entry_;  // [class]: its stabilisers_ entry, or none
  // [class]: whether its positions' inverses may lie in it (group.inverse()).
  std::vector<std::uint8_t> may_self_invert_;
  void find_self_inverse_candidates();
  // Where C is blocks, for each candidate class (at most 64 values of C):
  // [(entry * blocks + b) * digit values + d], the class's values of C
  // (bit v for its v-th) that the inverse's C matches on block b's home
  // slots where b's digit is d. The inverse's C is in the class where one
  // value's bit is set in every block's mask.
  std::vector<std::uint64_t> inverse_masks_;
  std::vector<std::uint32_t> inverse_mask_entry_;  // [class]: or none
  void build_inverse_masks();
  // By table, where it applies: each block of R after each move and
  // under each transform (C's pieces at home), the shifts, and each
  // stabilisers_ entry's shift ids ([j * shift_stride() + t] for its j-th
  // symmetry).
  struct RestBlock {
    std::uint64_t weight = 1, size = 1;  // in R
    FastDivisor weight_divisor, size_divisor;
    std::vector<std::uint32_t> moved;       // [m * size + value]
    std::vector<std::uint32_t> conjugated;  // [k * size + value]
    // [(m * transforms + k) * size + value]: moved by m, then conjugated
    // by k, where small (moved_then_bytes): read in order along a class's
    // indices where `conjugated` is read at random.
    std::vector<std::uint16_t> moved_then;
  };
  void build_moved_then(RestBlock& b, std::optional<bool> wanted) const;
  std::vector<RestBlock> rest_blocks_;
  const RestBlock* one_block_ = nullptr;  // R's block where it is one (most files)
  std::vector<TwistShift> shifts_;
  std::vector<std::vector<std::uint32_t>> stabiliser_shifts_;
  // [class * moves + m] and [(class * moves + m) * shift_stride() + t]:
  // each class's steps, where they take little memory (they replace
  // c_moves_).
  std::vector<Step> steps_;
  std::vector<std::uint32_t> step_shifts_;
  void keep_steps();
  std::uint64_t c_solved_ = 0;  // C of the solved position

  // Where C holds no twists (whole orbits' pieces, or an orbit's blocks):
  // what each move and each transform does to the kinds in C's orbits (a
  // slot's kind comes from one slot, relabelled), so C's images need no
  // arrangement; and the shifts' digits by the kind that lands in each
  // slot. Checked against positions on a sample, else left empty.
  struct KindAction {
    struct Target {
      std::size_t base = 0, source_base = 0;  // the orbits' first digits in a Position
      std::vector<std::uint8_t> from;         // [slot]: the source orbit's slot
      std::vector<std::uint8_t> relabel;      // [source kind]: kind
    };
    std::vector<Target> orbits;
  };
  std::vector<KindAction> move_kinds_, transform_kinds_;
  void build_kind_actions();
  bool kind_actions_agree();
  // C's kinds alone into s.coded, where the kind actions are kept.
  void arrange_kinds(std::uint64_t c, Scratch& s) const;
  // C after move m from s.coded (the kinds, or the position in s.position
  // where there are no kind actions), its coded image left in s.acted.
  std::uint64_t c_after_move(std::size_t m, Scratch& s) const;
  void act_on_kinds(const KindAction& a, const Position& p, Position& out) const;
  // Each shift's digits by kind (TwistShift::by_kind), from a sample of
  // values of C; none where two samples disagree.
  void learn_shifts_by_kind();
  // The shift ids of transform k where it makes the kinds `image`; false
  // where a digit was never seen.
  bool shift_ids_by_kind(std::uint16_t k, const Position& image, std::uint32_t* ids) const;

  // Where C is an orbit's blocks (split_.piece_blocks): their coding, and
  // by table what each step and each stabiliser's transform does to R's
  // digits (from the kind actions: where each block's pieces land; none
  // without them, and neighbours then go through positions).
  class BlockCode;
  std::unique_ptr<const BlockCode> blocks_;
  static constexpr std::size_t kMaxPieceBlocks = 8;
  struct BlockAction {
    std::uint32_t cls = 0;  // the class of C it reaches
    bool special = false;
    std::array<std::uint8_t, kMaxPieceBlocks> source{};  // the block each digit comes from
    std::array<std::uint16_t, kMaxPieceBlocks> map{};    // and how: digit_maps_
  };
  std::vector<BlockAction> block_steps_;                // [class * moves + m]
  std::vector<std::vector<BlockAction>> block_fixing_;  // [stabilisers_ entry][j]
  std::vector<std::uint16_t> digit_maps_;               // [map * digit values + digit]
  std::vector<std::uint8_t> rep_labels_;    // [class * slots + slot]: its least C's blocks
  std::vector<std::uint8_t> block_parity_;  // [class]: see BlockCode::decode
  void label_classes();
  void build_block_tables();
  // R's digits moved by a step (`Blocks`: the blocks where not 0).
  template <unsigned Blocks = 0>
  std::uint64_t act(const BlockAction& a, const std::uint32_t* digits) const;
  template <unsigned Blocks>
  void block_neighbours(std::uint32_t cls, std::uint64_t r, std::uint64_t* out) const;
  void block_neighbours(std::uint32_t cls, std::uint64_t r, std::uint64_t* out) const;
  bool block_tables_agree();
};

struct ClassSpace::Scratch {
  explicit Scratch(const Arrangement& solved)
      : position(solved), image(solved), moved(solved), turned(solved), base_position(solved) {}
  Arrangement position, image, moved, turned;
  Arrangement base_position;  // a cursor's, whose neighbours are visited
  Position coded, base, acted, imaged;
  std::vector<std::uint8_t> shift;
  std::vector<std::uint32_t> shift_ids;
  std::vector<std::uint64_t> coordinates;
  // self_inverse's: the class whose inverse's step it holds last.
  std::uint64_t inverse_of_class = std::numeric_limits<std::uint64_t>::max();
  Step inverse_step;
  bool inverse_in_class = false;
  std::vector<std::uint32_t> inverse_shift_ids;
};

class ClassSpace::Cursor {
 public:
  explicit Cursor(const ClassSpace& space);
  template <class Visit>
  bool for_each_neighbour(std::uint64_t index, Visit&& visit) {
    if (space_.table_driven()) return neighbours_by_table(index, visit);
    Scratch& scratch = this->scratch();
    if (!space_.canonical(index, scratch)) return false;
    const TwistySpace& raw = space_.space_;
    raw.unrank(space_.rank_of(index), scratch.base_position, scratch.coded);
    const std::uint32_t* c_moved = space_.c_moved(index);
    for (std::size_t m = 0; m < raw.move_list().size(); ++m) {
      apply(raw.definition().sets, scratch.base_position, raw.move_list()[m].effect, scratch.moved);
      const std::uint64_t n = c_moved != nullptr ? space_.index_of_moved(scratch, c_moved[m])
                                                 : space_.index_of_moved(scratch);
      if (visit(n)) return true;
    }
    return false;
  }
  std::uint64_t index_of(std::uint64_t rank) { return space_.index_of(rank, scratch()); }
  std::uint64_t inverse_of(std::uint64_t index) { return space_.inverse_of(index, scratch()); }
  bool self_inverse(std::uint64_t index) { return space_.self_inverse(index, scratch()); }
  std::uint64_t positions(std::uint64_t index);

 private:
  // The steps of each class are found once for its run of indices.
  template <class Visit>
  bool neighbours_by_table(std::uint64_t index, Visit&& visit) {
    const std::uint64_t rest = space_.split_.rest;
    const auto cls = static_cast<std::uint32_t>(index / rest);
    const std::uint64_t r = index - std::uint64_t{cls} * rest;
    if (!space_.block_steps_.empty()) {
      if (space_.is_special_[cls] != 0 && space_.least_rest_by_table(cls, r) != r) return false;
      std::array<std::uint64_t, bfs::kMaxNeighbours> next;
      space_.block_neighbours(cls, r, next.data());
      for (std::size_t m = 0; m < moves_; ++m)
        if (visit(next[m])) return true;
      return false;
    }
    if (cls != row_class_) load_steps(cls);
    if (space_.is_special_[cls] != 0 && space_.least_rest_by_table(cls, r) != r) return false;
    const std::size_t stride = space_.shift_stride();
    if (const RestBlock* one = space_.one_block_; one != nullptr && !one->moved_then.empty()) {
      const std::uint16_t* at = one->moved_then.data() + r;
      const std::size_t transforms = space_.transforms_;
      for (std::size_t m = 0; m < moves_; ++m) {
        const Step& step = steps_[m];
        const std::uint32_t image = at[(m * transforms + step.transform) * rest];
        if (visit(space_.index_of_image(step, ids_ + m * stride, image))) return true;
      }
      return false;
    }
    if (const RestBlock* one = space_.one_block_; one != nullptr) {
      const std::uint32_t* moved = one->moved.data() + r;
      for (std::size_t m = 0; m < moves_; ++m)
        if (visit(space_.step_index(steps_[m], ids_ + m * stride, moved[m * rest]))) return true;
      return false;
    }
    std::array<std::uint32_t, kMaxRestBlocks> digits;
    space_.rest_digits(r, digits.data());
    for (std::size_t m = 0; m < moves_; ++m)
      if (visit(
              space_.step_index(steps_[m], ids_ + m * stride, space_.moved_rest(m, digits.data()))))
        return true;
    return false;
  }

  const ClassSpace& space_;
  // Made on first use: the neighbours by table need none, and a cursor is
  // made for every chunk of a scan.
  std::optional<Scratch> scratch_;
  Scratch& scratch() {
    if (!scratch_) scratch_.emplace(space_.space_.definition().solved);
    return *scratch_;
  }
  void load_steps(std::uint32_t cls);
  std::size_t moves_;
  std::uint32_t row_class_;  // the class whose steps are in steps_ and ids_
  const Step* steps_ = nullptr;
  const std::uint32_t* ids_ = nullptr;
  // The steps where the space keeps none.
  std::vector<Step> own_steps_;
  std::vector<std::uint32_t> own_ids_;
};

template <class Visit>
bool ClassSpace::for_each_neighbour(std::uint64_t index, Visit&& visit) const {
  Cursor c(*this);
  return c.for_each_neighbour(index, visit);
}

// The class space as the row engine's rows (bfs::RowSpace, with
// bfs::ReturnMoves and bfs::ClosedRows): a row a class of C, a column a
// value of R, where R after a move and under a transform is one table
// (ClassSpace::RestBlock::moved_then; with the shifts, one table for each
// move, transform and shifts that some class's step takes, where they are
// few) and there are no turns.
// The row of a class fixed by some symmetries keeps every R of the class's
// positions whose C is the least (closed under the stabiliser), so every
// move's permutation of the columns is a table look-up with no least R to
// find; such a row's class count is its least R's, its positions |G| /
// |stabiliser| a column (every other row's: |G|).
class ClassRows {
 public:
  // The rows of `space`, where it has such tables (else none).
  static std::unique_ptr<const ClassRows> of(const ClassSpace& space);

  std::uint32_t rows() const { return static_cast<std::uint32_t>(space_.reps_.size()); }
  std::uint32_t columns() const { return static_cast<std::uint32_t>(space_.split_.rest); }
  int moves() const { return static_cast<int>(moves_); }
  int inverse(int m) const { return space_.space_.inverse(m); }
  std::uint32_t row_step(std::uint32_t r, int m) const { return step(r, m).cls; }
  const std::uint16_t* action(std::uint32_t r, int m) const {
    const ClassSpace::RestBlock& b = *space_.one_block_;
    if (!shifted_.empty()) return shifted_.data() + std::size_t{table_of(r, m)} * b.size;
    return b.moved_then.data() +
           (static_cast<std::size_t>(m) * space_.transforms_ + step(r, m).transform) * b.size;
  }
  int return_move(std::uint32_t r, int m) const { return returns_[std::size_t{r} * moves_ + m]; }
  bool closed(std::uint32_t r) const { return space_.is_special_[r] != 0; }
  void close_row(std::uint32_t r, std::uint64_t* bits) const;

  // A row's classes and positions from its states (`bits`, a bit a column),
  // and its self-inverse classes where `inverse`.
  struct Tally {
    std::uint64_t classes = 0, positions = 0, self_inverse = 0;
    Tally& operator+=(const Tally& o) {
      classes += o.classes, positions += o.positions, self_inverse += o.self_inverse;
      return *this;
    }
  };
  Tally tally(std::uint32_t r, const std::uint64_t* bits, std::uint32_t count, bool inverse,
              ClassSpace::Cursor& cursor) const;

 private:
  const ClassSpace::Step& step(std::uint32_t r, int m) const {
    return space_.steps_[std::size_t{r} * moves_ + static_cast<std::size_t>(m)];
  }
  std::uint32_t table_of(std::uint32_t r, int m) const {
    return tables_[std::size_t{r} * moves_ + static_cast<std::size_t>(m)];
  }
  explicit ClassRows(const ClassSpace& space);
  // The shifted tables, where there are shifts; false where they are too
  // many.
  bool build_shifted();
  void build_returns();
  // visit(c) for each column c set in a row's `bits`.
  template <class Visit>
  void for_each_column(const std::uint64_t* bits, Visit&& visit) const {
    for (std::uint32_t w = 0; w < (columns() + 63) / 64; ++w)
      for (std::uint64_t word = bits[w]; word != 0; word &= word - 1)
        visit(std::uint64_t{w} * 64 + static_cast<unsigned>(std::countr_zero(word)));
  }
  const ClassSpace& space_;
  std::size_t moves_;
  std::vector<std::uint8_t> returns_;  // [row * moves + m]
  // Where R's twists are shifted: [row * moves + m] a table of shifted_
  // ([table * columns + column]).
  std::vector<std::uint32_t> tables_;
  std::vector<std::uint16_t> shifted_;
};

// A BFS over the classes from solved, on every thread and every process:
// in one process the row engine on the rows where the space has them
// (ClassRows, two bits an index), else the frontier engine with three
// bitmaps (three bits an index), or in two-bit mode (depth mod 3 alone,
// whose levels expand again the indices of their code three levels older
// in the chunks they touch: less memory, more work). `inverse` counts
// classes up to inversion too, and needs the bitmaps (or the rows).
struct ClassBfsOptions {
  bfs::DirectionPolicy policy = bfs::DirectionPolicy::Auto;
  // The row engine on the space's rows (ClassRows) where they fit and one
  // process runs it, else the frontier engine on its indices.
  bool rows = true;
  bool two_bit = false;
  bool inverse = false;
  CheckpointWriter* checkpoint = nullptr;
  double checkpoint_every = 60;
  const CheckpointReader* resume = nullptr;
  std::function<bool()> should_stop;
  // After each level: its classes (every process's) and positions.
  std::function<void(const bfs::LevelStats&, std::uint64_t positions)> on_level;
  std::function<void(std::uint64_t scanned)> on_progress;
};

struct ClassEnumeration {
  bfs::BfsResult bfs;                    // levels: classes
  std::vector<std::uint64_t> positions;  // by depth
  std::vector<LevelClasses> classes;     // by depth (with_inverse with `inverse`)
  // By depth, how the row engine built each level (bfs::RowWork::method)
  // where it searched the rows (ClassRows); empty where the frontier
  // engine searched the indices.
  std::vector<std::string> methods;
};

ClassEnumeration enumerate_classes(const ClassSpace& space, const ClassBfsOptions& options,
                                   Cluster& cluster);

// The bytes of R's tables after each move and under each transform, where
// they are kept (at most 256 MiB, or the index space's three bits), else 0.
std::uint64_t rest_table_bytes(const SymCoordinate& split, std::size_t moves,
                               std::size_t transforms, std::uint64_t indices);

// The bytes of R's one block moved then conjugated (ClassSpace::RestBlock::
// moved_then), where kept: R of at most kMovedThenValues (its entries are
// 16 bits), the table at most kMovedThenBytes and a quarter of the index
// space's three bits; else 0.
inline constexpr std::uint64_t kMovedThenValues = 1ULL << 16;
inline constexpr std::uint64_t kMovedThenBytes = 64ULL << 20;
std::uint64_t moved_then_bytes(const SymCoordinate& split, std::size_t moves,
                               std::size_t transforms, std::uint64_t indices);

// Bytes of a step's action on R's digits where C is blocks (at least
// sizeof(ClassSpace::BlockAction)).
inline constexpr std::uint64_t kBlockActionBytes = 32;
// Bytes one of `processes` processes needs for it: its part of the index
// space's two (or three) bits, the C table and R's tables (`moves` moves,
// `order` transforms).
std::uint64_t class_bfs_bytes(const SymCoordinate& split, std::size_t order, std::size_t moves,
                              int processes, unsigned bits);

}  // namespace cubenum::twisty
