#pragma once
// The state space of a permutation puzzle from a definition file, perfectly
// ranked and laid out in rows for the row engine (bfs/row_bfs.hpp).
//
// What is ranked. The moves split each set's slots into orbits (slots a
// piece can reach). Per orbit: the arrangement of its pieces (a multiset
// permutation when some are identical) and their twists (digits; only the
// twists the moves can give, and with the sum constraint when the moves keep
// the sum). Across orbits of distinct pieces: the parities the moves tie
// (all even; corners' parity equal to edges', ...), found by Gaussian
// elimination over GF(2) from the moves' parities. The ranked space is the
// product of what is left; the reachable states may still be fewer, which
// the BFS shows.
//
// How it is laid out. rank = row * columns() + column. The coordinates
// ("parts") are split in two: the row parts and the column parts, chosen so
// that a row of columns is small (at most 2^16 states) and a move takes a
// whole row to one row, permuting its columns. When no set of whole parts
// gives a good row, the biggest arrangement is cut: the row holds where its
// first pieces are and the column how the rest fill the slots left, a
// column permutation that depends on the row only through a "context"
// (which slots the row's pieces take, and parities).
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cubenum/bfs/row_families.hpp"
#include "cubenum/core/bit_permutation.hpp"
#include "cubenum/puzzles/twisty.hpp"

namespace cubenum::twisty {

// The slots of one set that the moves bring to one another.
struct Orbit {
  unsigned set = 0;
  std::vector<std::uint8_t> slots;          // the set's slots in the orbit, increasing
  std::vector<std::uint8_t> kind;           // solved: the kind of piece at each position
  std::vector<std::uint8_t> count;          // pieces of each kind
  std::vector<std::uint8_t> piece;          // the definition's piece number of each kind
  std::vector<std::uint8_t> kind_of_label;  // [piece number]: its kind (those of the orbit)
  // Twists: a slot's twist is offset + step * digit. A digit may be tied to
  // the position: with a potential phi mod `potential`, every move twists a
  // piece by phi(to) - phi(from) mod `potential` (turnfour's tiles turn a
  // quarter as they step to a cell of the other colour), so a piece's digit
  // is phi(position) + the base of its kind + potential * its free part.
  // Positions hold free parts: `radix` values each, summing to sum_target
  // mod sum_modulus (1: no constraint). No potential: potential 1, free
  // part = digit.
  unsigned orientations = 1, step = 1, offset = 0, radix = 1;
  unsigned potential = 1;
  std::vector<std::uint8_t> phi, kind_base;
  std::vector<std::uint8_t> free_of;  // free_digit's answers, by phi + base and digit
  unsigned sum_modulus = 1, sum_target = 0;
  unsigned free_digit(std::size_t position, unsigned of_kind, unsigned digit) const;
  unsigned full_digit(std::size_t position, unsigned of_kind, unsigned free) const;
  bool fits(std::size_t position, unsigned of_kind, unsigned digit) const;
  // Parity (distinct pieces, two or more slots): the solved arrangement's,
  // and whether the moves fix it from other orbits' (the XOR of their
  // parities relative to solved; no sources: always the solved parity).
  bool has_parity = false, parity_fixed = false;
  unsigned solved_parity = 0;
  std::vector<unsigned> parity_sources;
  // Pieces coupled to another orbit's: every move moves them as it moves
  // that orbit's distinct pieces (a pyraminx's tips and the centres under
  // them, listed as two sets), so they follow: the piece at position
  // beta[i] is of kind follow[the other orbit's kind at i]. -1: free.
  int coupled_to = -1;
  std::vector<std::uint8_t> beta, follow;
  // Per move, per position: where its piece comes from, the free part it adds.
  std::vector<std::vector<std::uint8_t>> from, add;

  std::size_t size() const { return slots.size(); }
  unsigned kinds() const { return static_cast<unsigned>(count.size()); }
};

// One coordinate of the rank.
struct Part {
  enum class Kind { Pieces, Twists };
  Kind kind = Kind::Pieces;
  unsigned orbit = 0;
  // Pieces: kinds [first_kind, end_kind) in the slots that earlier kinds
  // left free; `halved`: the orbit's last part, whose parity is fixed.
  unsigned first_kind = 0, end_kind = 0;
  bool halved = false;
  std::uint64_t size = 1;
};

class TwistySpace;

struct SpaceOptions {
  std::uint32_t max_columns = 1 << 16;           // a row's states
  std::uint64_t max_action_bytes = 64ULL << 20;  // column permutations, all contexts
  std::uint64_t max_row_table_entries = 1ULL << 26;
  std::uint64_t max_network_bytes = 256ULL << 20;  // Beneš networks, all contexts
  // Below this many ranked states no networks: routing them takes longer
  // than a whole BFS of the space (pyramorphix: a fifth of its run).
  std::uint64_t min_network_states = 1 << 16;
  // Called once the layout is known and before any table is built: size(),
  // rows(), columns(), contexts(), moves() and table_bytes() answer. A
  // caller refuses a space too big for it by throwing (the CLI: memory).
  std::function<void(const TwistySpace&)> before_tables;
  // false: the layout alone, no tables (describing the space); row_step,
  // action, action_id, permute and neighbour are then not to be called.
  bool tables = true;
};

// A position by orbit: the kind of piece at each position and its digit.
struct Position {
  std::vector<std::uint8_t> kind, digit;
};

class TwistySpace {
 public:
  TwistySpace(const Definition& def, std::vector<Move> moves, const SpaceOptions& options = {});
  ~TwistySpace();
  TwistySpace(const TwistySpace&) = delete;
  TwistySpace& operator=(const TwistySpace&) = delete;

  const Definition& definition() const { return def_; }
  const std::vector<Move>& move_list() const { return moves_; }
  const std::vector<Orbit>& orbits() const { return orbits_; }
  const std::vector<Part>& parts() const { return parts_; }
  std::size_t row_parts() const { return row_parts_; }

  // The ranked states, and their layout.
  std::uint64_t size() const { return std::uint64_t{rows_} * columns_; }
  std::uint32_t rows() const { return rows_; }
  std::uint32_t columns() const { return columns_; }
  std::uint32_t contexts() const { return contexts_; }
  // What the tables take at most, in bytes: those the constructor builds
  // (rows' contexts and steps, column permutations when they are built up
  // front) and those built on first use by a search (column permutations,
  // Beneš networks). Known from the layout, before any is built.
  std::uint64_t table_bytes() const { return table_bytes_; }
  int moves() const { return static_cast<int>(moves_.size()); }
  bool has_tables() const { return has_tables_; }  // SpaceOptions::tables
  int inverse(int m) const { return inverse_[static_cast<std::size_t>(m)]; }
  // Move m as a power of its generator (bfs/row_bfs.hpp's PoweredMoves):
  // the first move made from the same move of the file (expand_moves lists
  // a generator's powers in order, its first power first).
  bfs::MovePower move_power(int m) const;

  // The row a move takes row r to.
  std::uint32_t row_step(std::uint32_t r, int m) const;
  // Where move m takes each column of row r (a permutation of the columns,
  // built on first use).
  const std::uint16_t* action(std::uint32_t r, int m) const;
  // The permutations by name (bfs/row_bfs.hpp's PermutableRows): an id for
  // each (context, move), applied to a whole row as a Beneš network (routed
  // on first use); when all of them would take more than max_network_bytes,
  // permute_nanoseconds() is infinite and the engine never asks.
  std::uint32_t action_id(std::uint32_t r, int m) const;
  void permute(std::uint32_t id, const std::uint64_t* in, std::uint64_t* out) const;
  std::uint32_t permute_words() const { return network_words_; }
  double permute_nanoseconds() const { return permute_nanoseconds_; }

  // Ranks of positions of the definition. contains() is false for a
  // position the ranking cannot hold (a piece outside its orbit, a twist
  // the moves cannot give, a parity they forbid).
  bool contains(const Arrangement& a) const;
  std::uint64_t rank(const Arrangement& a) const;  // requires contains(a)
  Arrangement unrank(std::uint64_t rank) const;
  std::uint64_t solved_rank() const { return solved_rank_; }
  // For symmetry classes, in reused storage and without checks (images of
  // reached positions are ranked): unrank; a rank's coordinates, most
  // significant first; and whether a ranked position ranks below them,
  // compared coordinate by coordinate up to the first that differs (most
  // images of a position differ in the first).
  void unrank(std::uint64_t rank, Arrangement& out, Position& scratch) const;
  std::uint64_t rank(const Arrangement& a, Position& scratch) const;
  // The same coordinate by coordinate: a position read once, then the
  // value of part i (parts(), most significant first).
  void read_position(const Arrangement& a, Position& out) const { read_member(a, out); }
  std::uint64_t part_value(std::size_t i, const Position& p) const {
    return encode_part(parts_[i], p);
  }
  // The digits of a twists part's value, into p (sized by read_position).
  void write_twists(std::size_t i, std::uint64_t value, Position& p) const {
    decode_part(parts_[i], value, p);
  }
  // Parts `parts` (increasing, every part of their orbits) from their
  // values, into p; the rest of p as it was, or blank.
  void write_parts(std::span<const std::size_t> parts, std::span<const std::uint64_t> values,
                   Position& p) const;
  void coordinates(std::uint64_t rank, std::vector<std::uint64_t>& out) const;
  bool ranks_below(const Arrangement& a, const std::vector<std::uint64_t>& coordinates,
                   Position& scratch) const;

  // The neighbour of `rank` by move m: through the position (step, for
  // tests), or through the row and column tables (neighbour, fast).
  std::uint64_t step(std::uint64_t rank, int m) const;
  std::uint64_t neighbour(std::uint64_t rank, int m) const {
    const auto r = static_cast<std::uint32_t>(rank / columns_);
    const auto c = static_cast<std::uint32_t>(rank % columns_);
    return std::uint64_t{row_step(r, m)} * columns_ + action(r, m)[c];
  }

  // What the ranking found, a line each ("set CORNER: 8 slots in 1 orbit,
  // ...", "parity: EDGE even", ...).
  std::vector<std::string> notes() const;

 private:
  void find_orbits(const Definition& def);
  void find_couplings();
  void follow_leaders(Position& p) const;
  void find_parities();
  std::vector<Part> whole_parts() const;
  void choose_layout(const SpaceOptions& options);
  void find_contexts();
  std::uint64_t count_table_bytes(const SpaceOptions& options) const;
  void build_tables(const SpaceOptions& options);

  void decode_part(const Part& part, std::uint64_t value, Position& p) const;
  std::uint64_t encode_part(const Part& part, const Position& p) const;
  std::uint64_t rank_pieces(const Part& part, const std::uint8_t* kind) const;
  void decode_parts(std::size_t first, std::size_t last, std::uint64_t value, Position& p) const;
  std::uint64_t encode_parts(std::size_t first, std::size_t last, const Position& p) const;
  void apply_move(const Position& in, int m, Position& out) const;
  unsigned orbit_parity(const Position& p, unsigned orbit) const;
  unsigned required_parity(const Position& p, unsigned orbit) const;
  bool is_row_orbit(unsigned orbit) const;
  std::uint32_t context_of(const Position& row) const;
  std::optional<Position> from_arrangement(const Arrangement& a) const;
  Arrangement to_arrangement(const Position& p) const;
  void write_arrangement(Position& p, Arrangement& a) const;  // follows leaders in p
  void read_member(const Arrangement& a, Position& p) const;
  Position blank() const;
  void build_actions(std::uint32_t context, std::span<const int> moves,
                     std::span<std::uint16_t* const> out, std::uint32_t first_column,
                     std::uint32_t end_column) const;
  void install_action(std::size_t slot, std::unique_ptr<std::uint16_t[]> table) const;
  void build_unique_actions(const std::vector<std::size_t>& slots) const;

  Definition def_;
  std::vector<Move> moves_;
  std::vector<int> inverse_;
  std::vector<Orbit> orbits_;
  std::vector<std::size_t> base_;  // an orbit's first entry in a Position
  std::vector<Part> parts_;        // row parts first, most significant first
  std::size_t row_parts_ = 0;
  std::uint32_t rows_ = 1, columns_ = 1;
  std::uint64_t solved_rank_ = 0;
  bool has_tables_ = false;
  Position blank_;  // blank(), kept

  // Contexts: which slots of the cut orbit the row's pieces take (their
  // combination's rank), and parity bits.
  int cut_orbit_ = -1;
  unsigned cut_kinds_ = 0;                  // kinds of the cut orbit in the row
  std::vector<unsigned> context_parities_;  // column-side orbits whose parity the row fixes
  std::uint32_t contexts_ = 1;
  std::uint64_t table_bytes_ = 0;
  std::vector<std::uint32_t> context_of_row_;                  // [row], when contexts_ > 1
  std::unique_ptr<std::atomic<std::uint32_t>[]> context_row_;  // a row of each context
  std::vector<std::uint32_t> row_table_;                       // [row * moves + m], when it fits
  // Pieces parts' values by a key of few enough patterns (encode_part),
  // filled as they are met; null for others. The key: each slot's label,
  // or, where each of the part's kinds is one piece, each piece's place
  // among the free slots.
  static constexpr std::uint32_t kUnknown = ~std::uint32_t{0};
  struct MemoKey {
    std::uint32_t place_base = 0;  // the part's free slots where keyed by places
    double patterns = 0;
  };
  MemoKey memo_key(const Part& part) const;
  std::vector<std::unique_ptr<std::atomic<std::uint32_t>[]>> encoded_;
  std::vector<std::vector<std::uint32_t>> place_weight_;  // [part][kind], where keyed by places
  void make_encode_memos();
  // Column permutations, [context * moves + m], built up front or on first use.
  const std::uint16_t* action_for(std::uint32_t context, int m) const;
  std::string signature(std::uint32_t context, int m) const;
  std::unique_ptr<std::once_flag[]> action_once_;
  mutable std::vector<std::unique_ptr<std::uint16_t[]>> action_tables_;  // those built
  mutable std::vector<const std::uint16_t*> table_of_;  // [slot]: its table, maybe another's
  mutable std::vector<std::uint32_t> action_ids_;  // [slot]: the slot that built it, or identity
  std::uint32_t parity_contexts_ = 1;              // the parity bits at the bottom of a context
  // A column-side orbit's parity is tied to the cut orbit's: a context's
  // permutations then depend on more than signature() sees, and are not
  // shared between contexts.
  bool cut_parity_tied_ = false;
  mutable std::mutex networks_mutex_;
  // The same as networks, [context * moves + m], routed on first use.
  std::unique_ptr<std::atomic<const BitPermutation*>[]> networks_;
  mutable std::vector<std::unique_ptr<BitPermutation>> network_storage_;
  bool networks_fit_ = false;
  std::uint32_t network_words_ = 1;
  double permute_nanoseconds_ = 0;
};

}  // namespace cubenum::twisty
