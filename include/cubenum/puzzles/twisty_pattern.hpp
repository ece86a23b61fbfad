#pragma once
// Pattern databases for the optimal search (twisty_ida.hpp): the puzzle
// seen through some of its distinct pieces (their slots and twists; every
// other piece forgotten), and every such view's distance from solved, by
// the BFS engine's two-bit depth table (depth mod 3). A sequence of moves
// that solves a position solves its view, so a view's distance is a lower
// bound of the position's; a child's distance follows from its parent's and
// its code (Korf's pattern databases).
//
// A table whose views lie almost all in its three deepest levels is kept
// clamped instead: its two bits say "at most the deepest but three", or
// which of the three deepest, so that a view's bound needs no parent (the
// inverse position's look-up, whose view is no neighbour of its parent's)
// and a child's is its code's or its parent's less one.
//
// A view's index: the tracked distinct pieces' slots as a partial
// permutation of each set's slots, then the slots of each kind of identical
// pieces tracked (a combination of the slots the pieces before it leave),
// then the distinct pieces' twists (none where no move twists the set; the
// last omitted where a whole set is tracked and every move keeps its
// twists' sum). Identical pieces are tracked by kind and slot alone: a
// multiset permutation, as the FTO's centres (12! / 3!^4 views a set).
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cubenum/bfs/depth_table.hpp"
#include "cubenum/core/ranking.hpp"
#include "cubenum/puzzles/twisty_pieces.hpp"
#include "cubenum/puzzles/twisty_symmetry.hpp"

namespace cubenum::twisty {

// The pieces a pattern database tracks: per set (at most 64 slots), some
// of its pieces, numbered by their solved slots, and the twists of the
// distinct ones but those of `without_twist` (some of the pieces,
// increasing: their slots alone are tracked, which bounds more than a twist
// for the memory). A piece with identical pieces comes with all of them:
// which slots their kind holds is tracked.
struct Pattern {
  struct Part {
    std::size_t set = 0;
    std::vector<std::uint8_t> pieces;
    std::vector<std::uint8_t> without_twist = {};
    bool operator==(const Part&) const = default;
  };
  std::vector<Part> parts;
  bool operator==(const Pattern&) const = default;
};

// The pattern's name: each set, its pieces (from 1, as in the file) unless
// all, then "slots" and those whose slots alone it tracks: "CORNER",
// "EDGE 1-6", "EDGE 1 3 5", "EDGE 1-7 slots 8", "CORNER + EDGE slots 1".
std::string pattern_name(const Definition& def, const Pattern& pattern);
// A pattern as written: parts joined by '+', each a set's name and, unless
// all its pieces, some (from 1, as in the file; ranges too), then
// optionally "slots" and pieces whose slots alone are tracked: "CORNER",
// "EDGE 1-7", "CORNER 1 2 + EDGE 3", "EDGE 1-7 slots 8". An InputError
// naming `option` where a set is unknown or named twice, a piece is out of
// range or repeated, an identical piece comes without the others of its
// kind or after "slots", "slots" is given for a set no move twists, or the
// pattern has no index.
Pattern parse_pattern(const PieceMoves& moves, const std::string& text, const std::string& option);
// The states of the pattern's index; nullopt beyond 2^64 or where the
// pattern tracks no piece, a piece twice, an identical piece without the
// others of its kind or by its slot alone, or a set of more than 64 slots.
std::optional<std::uint64_t> pattern_states(const PieceMoves& moves, const Pattern& pattern);

// The patterns the search uses when none are named, their tables within
// `bytes` together: per set, its distinct pieces that move, all in one
// pattern where its index has at most `most_states` states, else in as
// few groups as keep each within that, each as large as it allows
// (overlapping where the pieces do not split evenly), and its identical
// pieces by kind (as many kinds as keep within it); patterns of different
// sets merged while their product has at most 2^24 states. Where all do
// not fit in `bytes`, the bound is halved until they do; then, where the
// memory left allows, each pattern wider within the bound, a piece at a
// time (the next piece of a set it tracks in part, else the first of
// another set; a twisted set's piece by its slot alone, and no piece
// after it), then one more group of each split set (the window across the
// widest gap between the groups). The 3x3x3 with 2^27: the corners, and the
// edges in halves of six (Korf's patterns) and a third six; with 2^29, the
// edges in two groups of seven and a third seven; with 2^32 in 1 GiB, the
// first group of seven with an eighth edge's slot, the second, and the
// corners with an edge's slot.
std::vector<Pattern> choose_patterns(const PieceMoves& moves, double bytes,
                                     std::uint64_t most_states);

// The file name of a pattern's table in a tables folder: the definition's
// name, the pattern's, and a digest of the moves and pattern, so that
// another puzzle or other moves never read it.
std::string pattern_file(const PieceMoves& moves, const Pattern& pattern);

// Whether a table built is kept clamped (see above): where nearly all its
// views lie in its three deepest levels, never, or wherever it can be (the
// moves invertible, PieceMoves::invertible, and three levels deep).
enum class Clamping : std::uint8_t { WhereDeep, Never, Always };

class PatternDatabase {
 public:
  // Builds the table by the BFS engine, on every thread; invalid_argument
  // where pattern_states has none.
  PatternDatabase(const PieceMoves& moves, Pattern pattern, Clamping clamping = Clamping::Never);
  // Reads the table `save` wrote: an InputError naming the file where it is
  // not one, is damaged, or belongs to another puzzle, moves or pattern.
  PatternDatabase(const PieceMoves& moves, Pattern pattern, const std::string& file);
  void save(const std::string& file) const;
  // The same table read through symmetry k of `group` (of the same moves):
  // each position x looked up as S x S^-1, whose distance is x's
  // (conjugation keeps distances), so that one table bounds other pieces
  // of x (the 3x3x3's first seven edges' table, its last seven). The table
  // is shared; a kind of identical pieces is read as the kind S takes onto
  // it. nullopt where S takes a tracked distinct piece to an identical one.
  std::optional<PatternDatabase> conjugated(const SymmetryGroup& group, std::size_t k) const;
  // The pieces of x the lookups read, by byte (twisty_pieces.hpp), and
  // whether with their twists: for choosing symmetries whose views differ.
  std::vector<std::pair<std::size_t, bool>> read_pieces() const;

  const PieceMoves& moves() const { return *moves_; }
  const Pattern& pattern() const { return pattern_; }
  std::uint64_t states() const { return states_; }
  std::uint64_t table_bytes() const { return depths_->bytes(); }
  // The BFS's deepest level: the most the table's distance can say.
  unsigned max_depth() const { return max_depth_; }

  // Each tracked piece's digits (its slot among those the pieces before
  // it in its part leave, and its twist) times their place values.
  std::uint64_t rank(const std::uint8_t* pieces) const {
    return rank_through(&after_[moves_->moves().size() * after_stride_], pieces);
  }
  // The rank of the view after `move`, without making the child: a tracked
  // piece's slot and twist after the move are one look-up.
  std::uint64_t rank_after(const std::uint8_t* pieces, std::size_t move) const {
    return rank_through(&after_[move * after_stride_], pieces);
  }
  // The exact distance of a position's view (walked through the table);
  // invalid_argument where the moves do not reach it, logic_error where
  // the table is clamped.
  unsigned distance(const std::uint8_t* pieces) const;
  // A lower bound of a position's view's distance: exact but where the
  // table is clamped.
  unsigned lower_bound(const std::uint8_t* pieces) const {
    return clamped_ ? at_least(rank(pieces)) : distance(pieces);
  }
  // Writes the pieces of a view of rank `rank` into `pieces` (a position
  // by piece, whose other pieces it leaves): rank(pieces) is then `rank`.
  void unrank(std::uint64_t rank, std::uint8_t* pieces) const;
  // The same for a neighbour (of rank `child`) of a position whose bound
  // is `parent`: one look-up, which prefetch may ask for first.
  unsigned distance_after(unsigned parent, std::uint64_t child) const {
    if (clamped_) {
      if (const unsigned bound = at_least(child)) return bound;
      return std::max(parent, 1U) - 1;
    }
    const int code = depths_->depth_mod3(child);
    const int from = static_cast<int>(parent % 3);
    return code == from ? parent : code == (from + 2) % 3 ? parent - 1 : parent + 1;
  }
  // A clamped table's bound of the view of rank `rank`, with no parent:
  // its code (0 for the deepest level but three or nearer, else 1, 2 or 3
  // for the three deepest) above the deepest level but three, or 0.
  unsigned at_least(std::uint64_t rank) const {
    const auto code = static_cast<unsigned>(depths_->depth_mod3(rank) + 1);
    return code != 0 ? max_depth_ - 3 + code : 0;
  }
  bool clamped() const { return clamped_; }
  void prefetch(std::uint64_t rank) const { depths_->prefetch(rank); }

  // Each tracked piece, in the index's order: its byte in a position by
  // piece, its set, the slots left for it (its digit of the partial
  // permutation), its set's twists (0 where left out),
  // whether it is its part's first, where its set's tables of slot and
  // twist by byte start, and the place values of its two digits.
  struct Tracked {
    std::size_t byte = 0, set = 0;
    unsigned radix = 0, twists = 0;
    bool first = false;
    std::size_t table = 0;
    std::uint64_t slot_weight = 0, twist_weight = 0;
  };
  // A kind of identical pieces tracked: its set, its pieces' bytes, the
  // slots left to it (by the part's distinct pieces and the kinds before
  // it), and its digit's place value: it ranks as a combination of `free`
  // slots.
  struct Kind {
    std::size_t set = 0;
    std::vector<std::size_t> bytes;
    unsigned free = 0;
    std::uint64_t weight = 0;
  };
  // A part's tracked pieces, and its kinds.
  struct Part {
    std::size_t begin = 0, end = 0, kinds_begin = 0, kinds_end = 0;
  };
  struct Layout {
    std::vector<Tracked> tracked;
    std::vector<Kind> kinds;
    std::vector<Part> parts;
    std::vector<std::uint8_t> slot_of, twist_of;  // [part * 256 + byte]
    std::uint64_t slot_states = 1, kind_states = 1, twist_states = 1;
  };

 private:
  // The index's layout, the look-ups of rank_through and the solved
  // view's rank.
  void lay_out_index();
  // Clamps the BFS's `table` where `clamping` asks, by its levels and
  // which views lie nearer than the three deepest (a bitmap).
  void clamp(Clamping clamping, const std::vector<std::uint64_t>& levels,
             const std::vector<std::uint64_t>& near, bfs::DepthTable& table);
  // A tracked piece as rank_through reads it: its byte, where its set's
  // look-ups start within a row, and its place values.
  struct Digit {
    std::uint32_t byte = 0, table = 0;
    std::uint64_t slot_weight = 0, twist_weight = 0;
  };
  // A kind as rank_through reads it: its pieces' bytes in kind_bytes_,
  // where its part's look-ups start, and its place value.
  struct KindDigit {
    std::uint32_t begin = 0, end = 0, table = 0;
    std::uint64_t weight = 0;
  };

  // The rank where `row` gives each tracked piece's slot and twist by its
  // byte (a row of after_).
  std::uint64_t rank_through(const std::uint16_t* row, const std::uint8_t* pieces) const {
    std::uint64_t r = 0;
    for (const Part& part : layout_.parts) {
      std::uint64_t used = 0;
      for (std::size_t i = part.begin; i < part.end; ++i) {
        const Digit& d = digits_[i];
        const unsigned e = row[d.table + pieces[d.byte]];
        const unsigned slot = e & 0xFF;
        const std::uint64_t bit = std::uint64_t{1} << slot;
        r += (slot - static_cast<unsigned>(std::popcount(used & (bit - 1)))) * d.slot_weight +
             (e >> 8) * d.twist_weight;
        used |= bit;
      }
      // Each kind's slots, numbered among those still free, as a
      // combination.
      for (std::size_t k = part.kinds_begin; k < part.kinds_end; ++k) {
        const KindDigit& d = kind_digits_[k];
        std::uint64_t held = 0, free_held = 0;
        for (std::uint32_t i = d.begin; i < d.end; ++i)
          held |= std::uint64_t{1} << (row[d.table + pieces[kind_bytes_[i]]] & 0xFF);
        for (std::uint64_t h = held; h != 0; h &= h - 1) {
          const std::uint64_t bit = h & -h;
          free_held |= bit >> std::popcount(used & (bit - 1));
        }
        r += combination_rank(free_held) * d.weight;
        used |= held;
      }
    }
    return r;
  }

  const PieceMoves* moves_;
  Pattern pattern_;
  Layout layout_;
  std::vector<Digit> digits_;
  std::vector<KindDigit> kind_digits_;
  std::vector<std::uint32_t> kind_bytes_;
  // [move * after_stride_ + table + byte]: the slot, and the twist
  // times 256, of the piece coded `byte` after the move (a part's table
  // of bytes, or a digit's where conjugated); after the moves' rows, one
  // of the bytes as they are (for rank).
  std::vector<std::uint16_t> after_;
  std::size_t after_stride_ = 0;
  std::uint64_t states_ = 0;
  std::uint64_t solved_rank_ = 0;
  unsigned max_depth_ = 0;
  bool clamped_ = false;
  std::shared_ptr<bfs::DepthTable> depths_;
};

}  // namespace cubenum::twisty
