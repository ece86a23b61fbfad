// Pattern databases: the index of a view of some pieces, the BFS that fills
// its depth table, look-ups, and the table's file.
#include "cubenum/puzzles/twisty_pattern.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "cubenum/bfs/frontier_bfs.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/hash.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/ranking.hpp"
#include "cubenum/core/table_file.hpp"
#include "cubenum/puzzles/twisty_search.hpp"

namespace cubenum::twisty {

namespace {

constexpr TableFileKind kTableFile{"cubenum pattern database 1\n", "pattern database",
                                   "pattern database"};
// The share of a table's views nearer than its three deepest levels up to
// which it is kept clamped (results/twisty-solve.md).
constexpr double kClampedNear = 0.25;

bool multiply(std::uint64_t& x, std::uint64_t by) {
  if (by != 0 && x > std::numeric_limits<std::uint64_t>::max() / by) return false;
  x *= by;
  return true;
}

// Whether some move twists set s's pieces.
bool twists_pieces(const PieceMoves& moves, std::size_t s) {
  for (const Move& m : moves.moves())
    for (std::uint8_t t : m.effect.ori[s])
      if (t != 0) return true;
  return false;
}

// Whether every move keeps the sum of set s's twists.
bool keeps_twist_sum(const PieceMoves& moves, std::size_t s) {
  const unsigned o = moves.definition().sets[s].orientations;
  for (const Move& m : moves.moves()) {
    unsigned sum = 0;
    for (std::uint8_t t : m.effect.ori[s]) sum += t;
    if (sum % o != 0) return false;
  }
  return true;
}

// The d-th slot (from 0) not in `used`: a slot digit's slot.
unsigned free_slot(std::uint64_t used, unsigned d) {
  unsigned slot = 0;
  for (;; ++slot)
    if ((used >> slot & 1U) == 0 && d-- == 0) return slot;
}

// Whether part p names its pieces once each, every identical piece with
// all of its kind, and its pieces without twist among its distinct pieces,
// increasing, where some move twists them.
bool well_formed(const PieceMoves& moves, const Pattern::Part& p) {
  const Definition& def = moves.definition();
  if (p.set >= def.sets.size() || p.pieces.empty() || def.sets[p.set].slots > 64) return false;
  const std::vector<std::uint8_t>& kind = def.solved.perm[p.set];
  std::vector<bool> seen(kind.size());
  for (std::uint8_t piece : p.pieces) {
    if (piece >= kind.size() || seen[piece]) return false;
    seen[piece] = true;
  }
  for (std::uint8_t piece : p.pieces)
    for (std::size_t q = 0; q < kind.size(); ++q)
      if (kind[q] == kind[piece] && !seen[q]) return false;
  const auto& w = p.without_twist;
  return w.empty() || (twists_pieces(moves, p.set) && std::is_sorted(w.begin(), w.end()) &&
                       std::adjacent_find(w.begin(), w.end()) == w.end() &&
                       std::all_of(w.begin(), w.end(), [&](std::uint8_t q) {
                         return q < kind.size() && seen[q] && moves.distinct(p.set, q);
                       }));
}

// Part p's kinds of identical pieces: each kind's pieces, in the order of
// their first piece in p.
std::vector<std::vector<std::uint8_t>> kinds_of(const PieceMoves& moves, const Pattern::Part& p) {
  const std::vector<std::uint8_t>& kind = moves.definition().solved.perm[p.set];
  std::vector<std::vector<std::uint8_t>> kinds;
  std::vector<bool> taken(kind.size());
  for (std::uint8_t piece : p.pieces) {
    if (moves.distinct(p.set, piece) || taken[piece]) continue;
    kinds.emplace_back();
    for (std::size_t q = 0; q < kind.size(); ++q)
      if (kind[q] == kind[piece]) {
        kinds.back().push_back(static_cast<std::uint8_t>(q));
        taken[q] = true;
      }
  }
  return kinds;
}

// The index's layout, or nullopt where pattern_states has none.
std::optional<PatternDatabase::Layout> lay_out(const PieceMoves& moves, const Pattern& pattern) {
  const Definition& def = moves.definition();
  PatternDatabase::Layout layout;
  for (std::size_t part = 0; part < pattern.parts.size(); ++part) {
    const Pattern::Part& p = pattern.parts[part];
    if (!well_formed(moves, p)) return std::nullopt;
    for (std::size_t other = 0; other < part; ++other)
      if (pattern.parts[other].set == p.set) return std::nullopt;
    const PieceSet& set = def.sets[p.set];
    std::vector<std::uint8_t> distinct;
    for (std::uint8_t piece : p.pieces)
      if (moves.distinct(p.set, piece)) distinct.push_back(piece);
    // Twists no move changes are left out, and the last where all are
    // tracked and their sum is kept.
    const bool twisted = twists_pieces(moves, p.set);
    const bool implied =
        distinct.size() == set.slots && p.without_twist.empty() && keeps_twist_sum(moves, p.set);
    PatternDatabase::Part range{layout.tracked.size(), layout.tracked.size() + distinct.size(),
                                layout.kinds.size(), layout.kinds.size()};
    for (std::size_t i = 0; i < distinct.size(); ++i) {
      PatternDatabase::Tracked t;
      t.byte = moves.first_piece(p.set) + distinct[i];
      t.set = p.set;
      t.radix = static_cast<unsigned>(set.slots - i);
      const bool forgotten =
          std::binary_search(p.without_twist.begin(), p.without_twist.end(), distinct[i]);
      t.twists =
          !twisted || forgotten || (implied && i + 1 == distinct.size()) ? 0 : set.orientations;
      t.first = i == 0;
      t.table = part * 256;
      if (!multiply(layout.slot_states, t.radix)) return std::nullopt;
      if (t.twists != 0 && !multiply(layout.twist_states, t.twists)) return std::nullopt;
      layout.tracked.push_back(t);
    }
    auto free = static_cast<unsigned>(set.slots - distinct.size());
    for (const std::vector<std::uint8_t>& kind : kinds_of(moves, p)) {
      PatternDatabase::Kind k;
      for (std::uint8_t piece : kind) k.bytes.push_back(moves.first_piece(p.set) + piece);
      k.set = p.set;
      k.free = free;
      if (!multiply(layout.kind_states, kBinomial(free, static_cast<unsigned>(kind.size()))))
        return std::nullopt;
      free -= static_cast<unsigned>(kind.size());
      layout.kinds.push_back(std::move(k));
    }
    range.kinds_end = layout.kinds.size();
    layout.parts.push_back(range);
    for (unsigned b = 0; b < 256; ++b) {
      layout.slot_of.push_back(static_cast<std::uint8_t>(b / set.orientations));
      layout.twist_of.push_back(static_cast<std::uint8_t>(b % set.orientations));
    }
  }
  if (layout.tracked.empty() && layout.kinds.empty()) return std::nullopt;
  std::uint64_t states = layout.slot_states;
  if (!multiply(states, layout.kind_states) || !multiply(states, layout.twist_states))
    return std::nullopt;
  // Place values: the distinct pieces' slots above the kinds' slots above
  // the twists, the first piece's highest (Horner's order).
  std::uint64_t kind_weight = layout.twist_states;
  for (std::size_t i = layout.kinds.size(); i-- > 0;) {
    PatternDatabase::Kind& k = layout.kinds[i];
    k.weight = kind_weight;
    kind_weight *= kBinomial(k.free, static_cast<unsigned>(k.bytes.size()));
  }
  std::uint64_t slot_weight = kind_weight, twist_weight = 1;
  for (std::size_t i = layout.tracked.size(); i-- > 0;) {
    PatternDatabase::Tracked& t = layout.tracked[i];
    t.slot_weight = slot_weight;
    slot_weight *= t.radix;
    t.twist_weight = t.twists != 0 ? twist_weight : 0;
    twist_weight *= std::max(t.twists, 1U);
  }
  return layout;
}

// Pieces from 1, in order, runs of three or more as ranges: " 1-3 9-12".
std::string runs_text(const std::vector<std::uint8_t>& pieces) {
  std::vector<std::uint8_t> sorted = pieces;
  std::sort(sorted.begin(), sorted.end());
  std::string text;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    if (j - i >= 2) {
      text += fmt::format(" {}-{}", sorted[i] + 1, sorted[j] + 1);
    } else {
      for (std::size_t k = i; k <= j; ++k) text += fmt::format(" {}", sorted[k] + 1);
    }
    i = j + 1;
  }
  return text;
}

// A part's pieces as runs_text; nothing where the part tracks the whole set.
std::string pieces_text(const std::vector<std::uint8_t>& pieces, unsigned slots) {
  return pieces.size() == slots ? "" : runs_text(pieces);
}

// The view's states as the BFS engine's ranked space: each state's
// neighbours through the moves' tables on its tracked pieces. A cursor
// keeps, for the slots of all tracked pieces but the last (a rank's
// "prefix"), where each move takes them, and for each slot the last piece
// may hold, the rank of the slots after each move and the twists it adds:
// consecutive ranks then decode only the last piece's digit and the twists.
class ViewSpace {
 public:
  ViewSpace(const PieceMoves& moves, const PatternDatabase::Layout& layout)
      : moves_(moves), layout_(layout) {}
  std::uint64_t size() const { return layout_.slot_states * layout_.twist_states; }

  class Cursor {
   public:
    explicit Cursor(const ViewSpace& space)
        : space_(space),
          k_(space.layout_.tracked.size()),
          moves_(space.moves_.moves().size()),
          last_radix_(space.layout_.tracked.back().radix),
          slots_(k_),
          added_(moves_ * k_),
          last_next_(moves_ * last_radix_),
          last_added_(moves_ * last_radix_),
          twists_(k_) {}

    template <class Visit>
    bool for_each_neighbour(std::uint64_t rank, Visit&& visit) {
      const PatternDatabase::Layout& layout = space_.layout_;
      const std::uint64_t slots = rank / layout.twist_states;
      const std::uint64_t prefix = slots / last_radix_;
      if (prefix != decoded_) decode_prefix(prefix);
      const auto last = static_cast<std::size_t>(slots % last_radix_);
      std::uint64_t twists = rank % layout.twist_states;
      for (std::size_t i = k_; i-- > 0;)
        if (const unsigned o = layout.tracked[i].twists; o != 0) {
          twists_[i] = static_cast<unsigned>(twists % o);
          twists /= o;
        }
      for (std::size_t m = 0; m < moves_; ++m) {
        std::uint64_t next = 0;
        const unsigned* added = &added_[m * k_];
        for (std::size_t i = 0; i < k_; ++i)
          if (const unsigned o = layout.tracked[i].twists; o != 0) {
            const unsigned t =
                twists_[i] + (i + 1 == k_ ? last_added_[m * last_radix_ + last] : added[i]);
            next = next * o + (t >= o ? t - o : t);
          }
        if (visit(last_next_[m * last_radix_ + last] * layout.twist_states + next)) return true;
      }
      return false;
    }

   private:
    // The slots of every tracked piece but the last, from the prefix; for
    // each move, what it does to them and, for each slot left to the last
    // piece, the slots' rank after it and the last piece's added twist.
    void decode_prefix(std::uint64_t prefix) {
      const PatternDatabase::Layout& layout = space_.layout_;
      const PieceMoves& moves = space_.moves_;
      decoded_ = prefix;
      for (std::size_t i = k_ - 1; i-- > 0;) {
        slots_[i] = static_cast<unsigned>(prefix % layout.tracked[i].radix);
        prefix /= layout.tracked[i].radix;
      }
      std::uint64_t used = 0;                     // of the last piece's part
      for (std::size_t i = 0; i + 1 < k_; ++i) {  // digit d: the d-th free slot
        if (layout.tracked[i].first) used = 0;
        slots_[i] = free_slot(used, slots_[i]);
        used |= std::uint64_t{1} << slots_[i];
      }
      if (layout.tracked.back().first) used = 0;
      const PatternDatabase::Tracked& last = layout.tracked.back();
      const unsigned o = moves.definition().sets[last.set].orientations;
      for (std::size_t m = 0; m < moves_; ++m) {
        // The pieces before the last: their digits' share of the rank, and
        // the slots they take in the last piece's part.
        std::uint64_t before = 0, taken = 0, part_used = 0;
        for (std::size_t i = 0; i + 1 < k_; ++i) {
          const PatternDatabase::Tracked& t = layout.tracked[i];
          const unsigned to = moves.definition().sets[t.set].orientations;
          const std::uint8_t b = moves.table(m, t.set)[slots_[i] * to];
          const unsigned slot = layout.slot_of[t.table + b];
          if (t.first) part_used = 0;
          const std::uint64_t bit = std::uint64_t{1} << slot;
          before += (slot - static_cast<unsigned>(std::popcount(part_used & (bit - 1)))) *
                    (t.slot_weight / layout.twist_states);
          part_used |= bit;
          added_[m * k_ + i] = layout.twist_of[t.table + b];
        }
        if (!last.first) taken = part_used;
        std::size_t d = 0;
        for (unsigned slot = 0; d < last_radix_; ++slot) {
          if ((used >> slot & 1U) != 0) continue;
          const std::uint8_t b = moves.table(m, last.set)[slot * o];
          const unsigned to = layout.slot_of[last.table + b];
          const std::uint64_t bit = std::uint64_t{1} << to;
          last_next_[m * last_radix_ + d] =
              before + (to - static_cast<unsigned>(std::popcount(taken & (bit - 1))));
          last_added_[m * last_radix_ + d] = layout.twist_of[last.table + b];
          ++d;
        }
      }
    }

    const ViewSpace& space_;
    std::size_t k_, moves_, last_radix_;
    std::uint64_t decoded_ = std::numeric_limits<std::uint64_t>::max();
    std::vector<unsigned> slots_;
    std::vector<unsigned> added_;           // [move][tracked], all but the last
    std::vector<std::uint64_t> last_next_;  // [move][the last piece's digit]
    std::vector<unsigned> last_added_;      // [move][the last piece's digit]
    std::vector<unsigned> twists_;
  };

  Cursor cursor(std::uint64_t) const { return Cursor(*this); }
  template <class Visit>
  bool for_each_neighbour(std::uint64_t rank, Visit&& visit) const {
    Cursor c(*this);
    return c.for_each_neighbour(rank, visit);
  }

 private:
  const PieceMoves& moves_;
  const PatternDatabase::Layout& layout_;
};

// The views of a pattern with identical pieces: each state decoded into a
// position by piece (its tracked pieces), and each neighbour's rank read
// through the moves' rows as the search reads it.
class KindViewSpace {
 public:
  explicit KindViewSpace(const PatternDatabase& db) : db_(db) {}
  std::uint64_t size() const { return db_.states(); }

  class Cursor {
   public:
    explicit Cursor(const PatternDatabase& db) : db_(db), pieces_(db.moves().pieces()) {}
    template <class Visit>
    bool for_each_neighbour(std::uint64_t rank, Visit&& visit) {
      db_.unrank(rank, pieces_.data());
      for (std::size_t m = 0; m < db_.moves().moves().size(); ++m)
        if (visit(db_.rank_after(pieces_.data(), m))) return true;
      return false;
    }

   private:
    const PatternDatabase& db_;
    std::vector<std::uint8_t> pieces_;
  };

  Cursor cursor(std::uint64_t) const { return Cursor(db_); }
  template <class Visit>
  bool for_each_neighbour(std::uint64_t rank, Visit&& visit) const {
    Cursor c(db_);
    return c.for_each_neighbour(rank, visit);
  }

 private:
  const PatternDatabase& db_;
};

// What a table file must match: the states, the pattern, the moves and
// the puzzle.
std::string identity(const PieceMoves& moves, const Pattern& pattern, std::uint64_t states) {
  std::string id = fmt::format("states {} pattern", states);
  for (const Pattern::Part& p : pattern.parts) {
    id += " " + moves.definition().sets[p.set].name;
    for (std::uint8_t piece : p.pieces) id += fmt::format(" {}", piece);
    if (!p.without_twist.empty()) id += " without twist";
    for (std::uint8_t piece : p.without_twist) id += fmt::format(" {}", piece);
  }
  return id + " " + moves_identity(moves.moves(), moves.definition().solved);
}

constexpr std::uint64_t kMergedStates = std::uint64_t{1} << 24;
constexpr std::uint64_t kLeastCap = std::uint64_t{1} << 10;

// The distinct pieces of set s that some move moves or twists.
std::vector<std::uint8_t> moving_pieces(const PieceMoves& moves, std::size_t s) {
  const unsigned o = moves.definition().sets[s].orientations;
  std::vector<std::uint8_t> pieces;
  for (unsigned p = 0; p < moves.definition().sets[s].slots; ++p) {
    if (!moves.distinct(s, p)) continue;
    for (std::size_t m = 0; m < moves.moves().size(); ++m)
      if (moves.table(m, s)[p * o] != p * o) {
        pieces.push_back(static_cast<std::uint8_t>(p));
        break;
      }
  }
  return pieces;
}

// Set s's identical pieces tracked by kind, as many kinds (those with a
// piece that moves, in the order of their first pieces) as keep the
// pattern within `cap` states; nullopt where none.
std::optional<Pattern> kinds_pattern(const PieceMoves& moves, std::size_t s, std::uint64_t cap) {
  const PieceSet& set = moves.definition().sets[s];
  if (set.slots > 64) return std::nullopt;
  Pattern::Part whole{s, {}};
  for (unsigned piece = 0; piece < set.slots; ++piece)
    whole.pieces.push_back(static_cast<std::uint8_t>(piece));
  Pattern p{{{s, {}}}}, best;
  for (const std::vector<std::uint8_t>& same : kinds_of(moves, whole)) {
    bool moved = false;
    for (std::uint8_t q : same)
      for (std::size_t m = 0; m < moves.moves().size(); ++m)
        moved |= moves.table(m, s)[q * set.orientations] / set.orientations != q;
    if (!moved) continue;
    p.parts[0].pieces.insert(p.parts[0].pieces.end(), same.begin(), same.end());
    const auto states = pattern_states(moves, p);
    if (!states || *states > cap) break;
    if (*states > 1) best = p;
  }
  if (best.parts.empty()) return std::nullopt;
  return best;
}

// Where set s's pieces are all distinct and moving, untwisted, and every
// move permutes them evenly, the slots of all but two fix the last two's
// (by parity): as many pieces as tell where every piece is, else 0. A
// table of every piece would be twice as large, its other half never
// reached (and scanned at every level the BFS goes bottom-up).
std::size_t parity_completes(const PieceMoves& moves, std::size_t s) {
  const unsigned slots = moves.definition().sets[s].slots;
  if (slots < 2 || slots > 64 || moving_pieces(moves, s).size() != slots || twists_pieces(moves, s))
    return 0;
  for (const Move& m : moves.moves())
    if (permutation_parity(m.effect.perm[s]) != 0) return 0;
  return slots - 2;
}

// The most of `pieces` (of set s) a group may hold within `cap` states.
std::size_t largest_group(const PieceMoves& moves, std::size_t s,
                          const std::vector<std::uint8_t>& pieces, std::uint64_t cap) {
  std::size_t most = 0;
  while (most < pieces.size()) {
    const Pattern p{{{s, {pieces.begin(), pieces.begin() + static_cast<long>(most + 1)}}}};
    const auto states = pattern_states(moves, p);
    if (!states || *states > cap) break;
    ++most;
  }
  return most;
}

// Where the groups of `most` of n pieces start: as few as cover them,
// spread evenly (overlapping where they cannot split the pieces evenly).
std::vector<std::size_t> group_starts(std::size_t n, std::size_t most) {
  const std::size_t groups = (n + most - 1) / most;
  std::vector<std::size_t> starts;
  for (std::size_t g = 0; g < groups; ++g)
    starts.push_back(groups == 1 ? 0 : g * (n - most) / (groups - 1));
  return starts;
}

Pattern window(std::size_t s, const std::vector<std::uint8_t>& pieces, std::size_t start,
               std::size_t size) {
  Pattern p{{{s, {}}}};
  for (std::size_t i = 0; i < size; ++i)
    p.parts[0].pieces.push_back(pieces[(start + i) % pieces.size()]);
  return p;
}

// Set s's moving pieces, the most a group of them may hold within `cap`
// states, and where the fewest groups that cover them start.
struct Groups {
  std::vector<std::uint8_t> pieces;
  std::size_t most = 0;
  std::vector<std::size_t> starts;
};
Groups groups_of(const PieceMoves& moves, std::size_t s, std::uint64_t cap) {
  Groups g{moving_pieces(moves, s), 0, {}};
  if (g.pieces.empty() || moves.definition().sets[s].slots > 64) return g;
  g.most = largest_group(moves, s, g.pieces, cap);
  if (const std::size_t known = parity_completes(moves, s); known != 0 && g.most >= known) {
    g.most = known;
    g.starts = {0};
  } else if (g.most > 0) {
    g.starts = group_starts(g.pieces.size(), g.most);
  }
  return g;
}

// Set s's moving pieces in as few groups as keep each within `cap`
// states, each group as large as that allows (a larger table bounds
// better).
std::vector<Pattern> split_set(const PieceMoves& moves, std::size_t s, std::uint64_t cap) {
  const Groups g = groups_of(moves, s, cap);
  std::vector<Pattern> split;
  for (std::size_t start : g.starts) split.push_back(window(s, g.pieces, start, g.most));
  return split;
}

// One group more where set s splits into several: the window (around the
// pieces' order) that starts halfway across the widest gap between the
// groups' starts.
std::optional<Pattern> extra_group(const PieceMoves& moves, std::size_t s, std::uint64_t cap) {
  const Groups g = groups_of(moves, s, cap);
  if (g.starts.size() < 2) return std::nullopt;
  std::size_t widest = 0, from = 0;
  for (std::size_t i = 0; i < g.starts.size(); ++i) {
    const std::size_t next =
        i + 1 < g.starts.size() ? g.starts[i + 1] : g.starts[0] + g.pieces.size();
    if (next - g.starts[i] > widest) {
      widest = next - g.starts[i];
      from = g.starts[i];
    }
  }
  return window(s, g.pieces, (from + widest / 2) % g.pieces.size(), g.most);
}

// A pattern one piece wider, within `cap` states: the moving piece after
// the last of a set it tracks in part, else the first moving piece of
// another set; its slot alone where moves twist its set. None where the
// pattern tracks a slot alone already or every moving piece.
std::optional<Pattern> widened(const PieceMoves& moves, const Pattern& p, std::uint64_t cap) {
  for (const Pattern::Part& part : p.parts)
    if (!part.without_twist.empty()) return std::nullopt;
  Pattern wide = p;
  const auto add = [&](Pattern::Part& part, std::uint8_t piece) {
    part.pieces.push_back(piece);
    if (twists_pieces(moves, part.set)) part.without_twist = {piece};
  };
  bool added = false;
  for (Pattern::Part& part : wide.parts) {
    const std::vector<std::uint8_t> pieces = moving_pieces(moves, part.set);
    std::vector<std::uint8_t> mine;  // the distinct pieces it tracks
    for (std::uint8_t q : part.pieces)
      if (moves.distinct(part.set, q)) mine.push_back(q);
    const std::size_t known = parity_completes(moves, part.set);
    if (added || mine.empty() || mine.size() >= (known != 0 ? known : pieces.size())) continue;
    const auto last = std::find(pieces.begin(), pieces.end(), mine.back());
    for (std::size_t k = 1; last != pieces.end() && k < pieces.size() && !added; ++k) {
      const std::uint8_t next =
          pieces[(static_cast<std::size_t>(last - pieces.begin()) + k) % pieces.size()];
      if (std::find(part.pieces.begin(), part.pieces.end(), next) != part.pieces.end()) continue;
      add(part, next);
      added = true;
    }
  }
  for (std::size_t s = 0; s < moves.definition().sets.size() && !added; ++s) {
    const bool tracked = std::any_of(wide.parts.begin(), wide.parts.end(),
                                     [&](const Pattern::Part& part) { return part.set == s; });
    const std::vector<std::uint8_t> pieces = moving_pieces(moves, s);
    if (tracked || pieces.empty() || moves.definition().sets[s].slots > 64) continue;
    Pattern::Part part{s, {}};
    add(part, pieces[0]);
    wide.parts.push_back(part);
    std::sort(wide.parts.begin(), wide.parts.end(),
              [](const auto& a, const auto& b) { return a.set < b.set; });
    added = true;
  }
  const auto states = pattern_states(moves, wide);
  if (!added || !states || *states > cap) return std::nullopt;
  return wide;
}

bool shares_a_set(const Pattern& a, const Pattern& b) {
  for (const Pattern::Part& p : a.parts)
    for (const Pattern::Part& q : b.parts)
      if (p.set == q.set) return true;
  return false;
}

// Every set split within `cap`, small patterns of different sets merged,
// with their states.
std::vector<std::pair<std::uint64_t, Pattern>> patterns_within(const PieceMoves& moves,
                                                               std::uint64_t cap) {
  std::vector<std::pair<std::uint64_t, Pattern>> sized;
  for (std::size_t s = 0; s < moves.definition().sets.size(); ++s) {
    for (Pattern& p : split_set(moves, s, cap))
      sized.emplace_back(*pattern_states(moves, p), std::move(p));
    if (auto p = kinds_pattern(moves, s, cap))
      sized.emplace_back(*pattern_states(moves, *p), std::move(*p));
  }
  // Merge the smallest with the next smallest it can take, while any can.
  for (bool merged = true; merged;) {
    merged = false;
    std::sort(sized.begin(), sized.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < sized.size() && !merged; ++i)
      for (std::size_t j = i + 1; j < sized.size() && !merged; ++j) {
        if (shares_a_set(sized[i].second, sized[j].second)) continue;
        Pattern both = sized[i].second;
        both.parts.insert(both.parts.end(), sized[j].second.parts.begin(),
                          sized[j].second.parts.end());
        std::sort(both.parts.begin(), both.parts.end(),
                  [](const auto& a, const auto& b) { return a.set < b.set; });
        const auto states = pattern_states(moves, both);
        if (!states || *states > std::min(cap, kMergedStates)) continue;
        sized[i] = {*states, std::move(both)};
        sized.erase(sized.begin() + static_cast<long>(j));
        merged = true;
      }
  }
  std::sort(sized.begin(), sized.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  return sized;
}

}  // namespace

std::vector<Pattern> choose_patterns(const PieceMoves& moves, double bytes,
                                     std::uint64_t most_states) {
  std::vector<std::pair<std::uint64_t, Pattern>> sized;
  std::uint64_t cap = most_states;
  for (; cap >= kLeastCap; cap /= 2) {
    sized = patterns_within(moves, cap);
    double need = 0;
    for (const auto& [states, pattern] : sized) need += double(states) / 4;
    if (need <= bytes || cap / 2 < kLeastCap) break;
  }
  std::vector<Pattern> chosen;
  double left = bytes;
  const auto take = [&](std::uint64_t states, Pattern& pattern) {
    if (double(states) / 4 > left) return;
    left -= double(states) / 4;
    chosen.push_back(std::move(pattern));
  };
  for (auto& [states, pattern] : sized) take(states, pattern);
  // Then each pattern wider, a piece at a time while the memory left
  // allows, largest first as the search asks them (it asks the first for
  // every child): a twisted set's piece by its slot alone, once; untwisted
  // pieces until the bound (the FTO's corners, merged with an edge, take
  // two more edges).
  for (Pattern& p : chosen)
    while (const auto wide = widened(moves, p, cap)) {
      const double more = double(*pattern_states(moves, *wide) - *pattern_states(moves, p)) / 4;
      if (more > left) break;
      left -= more;
      p = *wide;
    }
  std::stable_sort(chosen.begin(), chosen.end(), [&](const Pattern& a, const Pattern& b) {
    return *pattern_states(moves, a) > *pattern_states(moves, b);
  });
  // Then one more group of each split set, where the memory left allows.
  for (std::size_t s = 0; s < moves.definition().sets.size(); ++s)
    if (auto p = extra_group(moves, s, cap)) take(*pattern_states(moves, *p), *p);
  return chosen;
}

std::string pattern_file(const PieceMoves& moves, const Pattern& pattern) {
  const std::string id = identity(moves, pattern, pattern_states(moves, pattern).value_or(0));
  std::string name = moves.definition().name + "-" + pattern_name(moves.definition(), pattern);
  for (char& c : name)
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '-') c = '_';
  return fmt::format("{}-{:08x}.pdb", name, hash_bytes(id.data(), id.size()) & 0xFFFFFFFFU);
}

std::string pattern_name(const Definition& def, const Pattern& pattern) {
  std::string name;
  for (const Pattern::Part& p : pattern.parts) {
    std::vector<std::uint8_t> whole;
    for (std::uint8_t piece : p.pieces)
      if (!std::binary_search(p.without_twist.begin(), p.without_twist.end(), piece))
        whole.push_back(piece);
    name += (name.empty() ? "" : " + ") + def.sets[p.set].name +
            pieces_text(whole, def.sets[p.set].slots);
    if (!p.without_twist.empty()) name += " slots" + runs_text(p.without_twist);
  }
  return name;
}

namespace {

// "3" or "1-6" as 0-based pieces below `slots`; empty where not a number.
std::vector<std::uint8_t> piece_range(const std::string& token, unsigned slots) {
  const auto dash = token.find('-');
  const std::string low = token.substr(0, dash),
                    high = dash == std::string::npos ? low : token.substr(dash + 1);
  const auto number = [&](const std::string& t) -> unsigned {
    if (t.empty() || t.size() > 3 || !std::all_of(t.begin(), t.end(), ::isdigit)) return 0;
    return static_cast<unsigned>(std::stoul(t));
  };
  const unsigned a = number(low), b = number(high);
  std::vector<std::uint8_t> pieces;
  if (a == 0 || b < a || b > slots) return pieces;
  for (unsigned p = a; p <= b; ++p) pieces.push_back(static_cast<std::uint8_t>(p - 1));
  return pieces;
}

}  // namespace

Pattern parse_pattern(const PieceMoves& moves, const std::string& text, const std::string& option) {
  const Definition& def = moves.definition();
  const auto fail = [&](const std::string& problem) {
    throw InputError(option, 0, fmt::format("pattern '{}': {}", text, problem));
  };
  Pattern pattern;
  std::istringstream parts(text);
  for (std::string part; std::getline(parts, part, '+');) {
    std::istringstream words(part);
    std::string name;
    if (!(words >> name)) fail("an empty part");
    const auto set = std::find_if(def.sets.begin(), def.sets.end(),
                                  [&](const PieceSet& s) { return s.name == name; });
    if (set == def.sets.end()) fail(fmt::format("no set {}", name));
    Pattern::Part p{static_cast<std::size_t>(set - def.sets.begin()), {}, {}};
    bool slots = false;  // after "slots": pieces whose slots alone are tracked
    for (std::string token; words >> token;) {
      if (token == "slots") {
        if (slots) fail("'slots' twice in a part");
        if (!twists_pieces(moves, p.set))
          fail(fmt::format("no move twists {}'s pieces (name them without 'slots')", name));
        slots = true;
        continue;
      }
      const std::vector<std::uint8_t> range = piece_range(token, set->slots);
      if (range.empty())
        fail(fmt::format("'{}' is not a piece of {} (1 to {}, or a range as 1-6)", token, name,
                         set->slots));
      p.pieces.insert(p.pieces.end(), range.begin(), range.end());
      if (slots) p.without_twist.insert(p.without_twist.end(), range.begin(), range.end());
    }
    std::sort(p.without_twist.begin(), p.without_twist.end());
    if (p.pieces.empty())
      for (unsigned i = 0; i < set->slots; ++i) p.pieces.push_back(static_cast<std::uint8_t>(i));
    const std::vector<std::uint8_t>& kind = def.solved.perm[p.set];
    for (std::uint8_t piece : p.pieces) {
      if (moves.distinct(p.set, piece)) continue;
      if (std::binary_search(p.without_twist.begin(), p.without_twist.end(), piece))
        fail(
            fmt::format("piece {} of {} has identical pieces, tracked by their slots alone "
                        "(name it before 'slots')",
                        piece + 1, name));
      for (unsigned q = 0; q < kind.size(); ++q)
        if (kind[q] == kind[piece] &&
            std::find(p.pieces.begin(), p.pieces.end(), q) == p.pieces.end())
          fail(
              fmt::format("piece {} of {} is identical to piece {}, which the pattern leaves out "
                          "(name every piece of a kind)",
                          piece + 1, name, q + 1));
    }
    pattern.parts.push_back(std::move(p));
  }
  if (pattern.parts.empty()) fail("no set named");
  std::sort(pattern.parts.begin(), pattern.parts.end(),
            [](const Pattern::Part& a, const Pattern::Part& b) { return a.set < b.set; });
  if (!pattern_states(moves, pattern))
    fail("a set named twice, a piece repeated, more than 64 slots or more than 2^64 states");
  return pattern;
}

std::optional<std::uint64_t> pattern_states(const PieceMoves& moves, const Pattern& pattern) {
  const auto layout = lay_out(moves, pattern);
  if (!layout) return std::nullopt;
  return layout->slot_states * layout->kind_states * layout->twist_states;
}

void PatternDatabase::lay_out_index() {
  const auto layout = lay_out(*moves_, pattern_);
  if (!layout) throw std::invalid_argument("twisty: a pattern with no index");
  layout_ = *layout;
  states_ = layout_.slot_states * layout_.kind_states * layout_.twist_states;
  for (const Tracked& t : layout_.tracked)
    digits_.push_back({static_cast<std::uint32_t>(t.byte), static_cast<std::uint32_t>(t.table),
                       t.slot_weight, t.twist_weight});
  for (std::size_t part = 0; part < layout_.parts.size(); ++part)
    for (std::size_t k = layout_.parts[part].kinds_begin; k < layout_.parts[part].kinds_end; ++k) {
      const auto begin = static_cast<std::uint32_t>(kind_bytes_.size());
      for (std::size_t byte : layout_.kinds[k].bytes)
        kind_bytes_.push_back(static_cast<std::uint32_t>(byte));
      kind_digits_.push_back({begin, static_cast<std::uint32_t>(kind_bytes_.size()),
                              static_cast<std::uint32_t>(part * 256), layout_.kinds[k].weight});
    }
  after_stride_ = pattern_.parts.size() * 256;
  const std::size_t moves = moves_->moves().size();
  for (std::size_t m = 0; m <= moves; ++m)
    for (std::size_t part = 0; part < pattern_.parts.size(); ++part) {
      const std::uint8_t* move = m < moves ? moves_->table(m, pattern_.parts[part].set) : nullptr;
      for (unsigned b = 0; b < 256; ++b) {
        const std::size_t to = part * 256 + (move ? move[b] : b);
        after_.push_back(
            static_cast<std::uint16_t>(layout_.slot_of[to] | layout_.twist_of[to] << 8));
      }
    }
  std::vector<std::uint8_t> solved(moves_->pieces());
  moves_->encode(moves_->definition().solved, solved.data());
  solved_rank_ = rank(solved.data());
}

PatternDatabase::PatternDatabase(const PieceMoves& moves, Pattern pattern, Clamping clamping)
    : moves_(&moves), pattern_(std::move(pattern)) {
  lay_out_index();
  bfs::BfsOptions options;
  options.two_bit = true;
  // For a clamped table, which views lie three levels or more above the
  // deepest. The two-bit table cannot tell a level from the one three
  // older, so two bitmaps (64 views a word) follow the levels: the views
  // two levels or more above the level just done (those whose depth mod 3
  // is one more than the level's), and as they were a level before, three
  // or more.
  std::vector<std::uint64_t> two_up, three_up;
  if (moves.invertible() && clamping != Clamping::Never) {
    two_up.assign((states_ + 63) / 64, 0);
    three_up = two_up;
    options.on_level = [&](const bfs::LevelStats& level, const bfs::LevelStates& views) {
      parallel_for_chunks(two_up.size(), 1 << 12, [&](std::size_t b, std::size_t e) {
        for (std::size_t w = b; w < e; ++w) {
          three_up[w] = two_up[w];
          two_up[w] |= views.depths->word_at(w, level.depth + 1);
        }
      });
    };
  }
  bfs::BfsResult found =
      layout_.kinds.empty()
          ? bfs::frontier_bfs(ViewSpace(moves, layout_), {&solved_rank_, 1}, options)
          : bfs::frontier_bfs(KindViewSpace(*this), {&solved_rank_, 1}, options);
  max_depth_ = found.max_depth();
  two_up = std::vector<std::uint64_t>();  // freed, for the copy below
  clamp(clamping, found.distribution(), three_up, *found.depths);
  three_up = std::vector<std::uint64_t>();
  // A copy in huge pages (a new table's): the search's look-ups land
  // anywhere in it.
  depths_ = std::make_shared<bfs::DepthTable>(states_);
  const auto from = found.depths->cells().bytes();
  std::copy(from.begin(), from.end(), depths_->cells().bytes().begin());
}

void PatternDatabase::clamp(Clamping clamping, const std::vector<std::uint64_t>& levels,
                            const std::vector<std::uint64_t>& near, bfs::DepthTable& table) {
  if (near.empty() || max_depth_ < 3) return;
  std::uint64_t all = 0, nearer = 0;
  for (unsigned d = 0; d < levels.size(); ++d) {
    all += levels[d];
    if (d + 3 <= max_depth_) nearer += levels[d];
  }
  if (clamping == Clamping::WhereDeep &&
      static_cast<double>(nearer) > kClampedNear * static_cast<double>(all))
    return;
  clamped_ = true;
  // A cell holds 1 + depth mod 3; the three deepest become 1, 2 and 3.
  std::uint64_t code[4] = {0, 0, 0, 0};
  for (unsigned d = max_depth_ - 2; d <= max_depth_; ++d) code[1 + d % 3] = d + 3 - max_depth_;
  AtomicBitmap& cells = table.cells();
  parallel_for_chunks(near.size(), 1 << 12, [&](std::size_t b, std::size_t e) {
    for (std::size_t w = b; w < e; ++w)
      for (std::size_t half = 0; half < 2; ++half) {
        const std::uint64_t in = cells.load_word(2 * w + half);
        std::uint64_t out = 0;
        for (unsigned i = 0; i < 32; ++i)
          if ((near[w] >> (32 * half + i) & 1U) == 0) out |= code[in >> (2 * i) & 3U] << (2 * i);
        cells.store_word(2 * w + half, out);
      }
  });
}

void PatternDatabase::save(const std::string& file) const {
  write_table_file(file, "--tables", kTableFile,
                   identity(*moves_, pattern_, states_) + fmt::format(" depth {}", max_depth_) +
                       (clamped_ ? " clamped" : ""),
                   depths_->cells().bytes());
}

PatternDatabase::PatternDatabase(const PieceMoves& moves, Pattern pattern, const std::string& file)
    : moves_(&moves), pattern_(std::move(pattern)) {
  lay_out_index();
  TableFileReader table(file, kTableFile);
  const std::string id = identity(moves, pattern_, states_) + " depth ";
  if (table.header().compare(0, id.size(), id) != 0)
    throw InputError(file, 0,
                     "this pattern database belongs to another puzzle, other moves or another "
                     "pattern (delete it to build it again)");
  std::string depth = table.header().substr(id.size());
  const std::string clamped = " clamped";
  if (depth.size() > clamped.size() && depth.ends_with(clamped)) {
    depth.resize(depth.size() - clamped.size());
    clamped_ = true;
  }
  if (depth.empty() || depth.size() > 3 || !std::all_of(depth.begin(), depth.end(), ::isdigit))
    throw InputError(file, 1, "the pattern database's header is damaged");
  max_depth_ = static_cast<unsigned>(std::stoul(depth));
  if (clamped_ && max_depth_ < 3)
    throw InputError(file, 1, "the pattern database's header is damaged");
  depths_ = std::make_shared<bfs::DepthTable>(states_);
  table.read(depths_->cells().bytes());
}

void PatternDatabase::unrank(std::uint64_t rank, std::uint8_t* pieces) const {
  const std::vector<PieceSet>& sets = moves_->definition().sets;
  std::uint64_t twists = rank % layout_.twist_states;
  rank /= layout_.twist_states;
  std::uint64_t kinds = rank % layout_.kind_states, slots = rank / layout_.kind_states;
  std::vector<unsigned> slot(layout_.tracked.size()), twist(layout_.tracked.size());
  for (std::size_t i = layout_.tracked.size(); i-- > 0;) {
    const Tracked& t = layout_.tracked[i];
    slot[i] = static_cast<unsigned>(slots % t.radix);
    slots /= t.radix;
    if (t.twists != 0) {
      twist[i] = static_cast<unsigned>(twists % t.twists);
      twists /= t.twists;
    }
  }
  std::vector<std::uint64_t> combination(layout_.kinds.size());
  for (std::size_t k = layout_.kinds.size(); k-- > 0;) {
    const Kind& kind = layout_.kinds[k];
    const auto size = static_cast<unsigned>(kind.bytes.size());
    combination[k] = combination_unrank(kinds % kBinomial(kind.free, size), size);
    kinds /= kBinomial(kind.free, size);
  }
  for (const Part& part : layout_.parts) {
    std::uint64_t used = 0;
    for (std::size_t i = part.begin; i < part.end; ++i) {
      const unsigned s = free_slot(used, slot[i]);
      used |= std::uint64_t{1} << s;
      pieces[layout_.tracked[i].byte] =
          static_cast<std::uint8_t>(s * sets[layout_.tracked[i].set].orientations + twist[i]);
    }
    for (std::size_t k = part.kinds_begin; k < part.kinds_end; ++k) {
      const Kind& kind = layout_.kinds[k];
      std::uint64_t held = 0;
      std::size_t j = 0;
      for (std::uint64_t c = combination[k]; c != 0; c &= c - 1, ++j) {
        const unsigned s = free_slot(used, static_cast<unsigned>(std::countr_zero(c)));
        held |= std::uint64_t{1} << s;
        pieces[kind.bytes[j]] = static_cast<std::uint8_t>(s * sets[kind.set].orientations);
      }
      used |= held;
    }
  }
}

unsigned PatternDatabase::distance(const std::uint8_t* pieces) const {
  if (clamped_) throw std::logic_error("twisty: a clamped pattern table has no exact distances");
  std::vector<std::uint8_t> x(pieces, pieces + moves_->pieces()), y(x.size());
  std::uint64_t r = rank(x.data());
  int code = depths_->depth_mod3(r);
  if (code == bfs::DepthTable::kUnseen)
    throw std::invalid_argument("twisty: a position whose view the moves do not reach");
  unsigned steps = 0;
  while (r != solved_rank_) {
    const int closer = (code + 2) % 3;
    std::size_t m = 0;
    for (; m < moves_->moves().size(); ++m) {
      moves_->apply(x.data(), m, y.data());
      if (depths_->depth_mod3(rank(y.data())) == closer) break;
    }
    if (m == moves_->moves().size())
      throw std::logic_error("twisty: a pattern table without a path");
    x.swap(y);
    r = rank(x.data());
    code = closer;
    ++steps;
  }
  return steps;
}

// Digit i tracks piece q of set t; the lookup reads the piece p of set s
// that S takes to it, and maps its byte after each move as conjugation
// does (cubenum/puzzles/twisty_symmetry.hpp).
std::optional<PatternDatabase> PatternDatabase::conjugated(const SymmetryGroup& group,
                                                           std::size_t k) const {
  const Symmetry& sym = group.elements().at(k);
  const std::vector<PieceSet>& sets = moves_->definition().sets;
  PatternDatabase view = *this;
  const std::size_t moves = moves_->moves().size();
  view.after_stride_ = (digits_.size() + kind_digits_.size()) * 256;
  view.after_.assign((moves + 1) * view.after_stride_, 0);
  // The set S takes onto set t, and the piece of it onto t's piece q.
  const auto set_onto = [&](std::size_t t) {
    std::size_t s = 0;
    while (s < sets.size() && sym.set_to[s] != t) ++s;
    return s;
  };
  const auto piece_onto = [&](std::size_t s, std::size_t q) {
    std::size_t p = 0;
    while (p < sets[s].slots && sym.slot_to[s][p] != q) ++p;
    return p;
  };
  for (std::size_t i = 0; i < digits_.size(); ++i) {
    const Tracked& tracked = layout_.tracked[i];
    const std::size_t t = tracked.set, q = tracked.byte - moves_->first_piece(t);
    const std::size_t s = set_onto(t);
    if (s == sets.size()) return std::nullopt;
    const std::size_t p = piece_onto(s, q);
    if (p == sets[s].slots || !moves_->distinct(s, p)) return std::nullopt;
    view.digits_[i].byte = static_cast<std::uint32_t>(moves_->first_piece(s) + p);
    view.digits_[i].table = static_cast<std::uint32_t>(i * 256);
    const unsigned n = sets[s].orientations;
    for (std::size_t m = 0; m <= moves; ++m) {
      const std::uint8_t* move = m < moves ? moves_->table(m, s) : nullptr;
      for (unsigned b = 0; b < sets[s].slots * n; ++b) {
        const unsigned moved = move ? move[b] : b, slot = moved / n, twist = moved % n;
        const unsigned image =
            (sym.offset[s][slot] + n - sym.offset[s][p] + (sym.reverses ? n - twist : twist)) % n;
        const std::size_t to = tracked.table + sym.slot_to[s][slot] * n + image;
        view.after_[m * view.after_stride_ + i * 256 + b] =
            static_cast<std::uint16_t>(layout_.slot_of[to] | layout_.twist_of[to] << 8);
      }
    }
  }
  // A kind's view reads the pieces S takes onto the kind's (a kind of
  // their own set, as S maps kinds to kinds), each slot taken by S; the
  // kinds keep their order, so the rank is the conjugate's.
  view.kind_bytes_.clear();
  for (std::size_t d = 0; d < kind_digits_.size(); ++d) {
    const Kind& kind = layout_.kinds[d];
    const std::size_t t = kind.set, s = set_onto(t);
    if (s == sets.size()) return std::nullopt;
    KindDigit& digit = view.kind_digits_[d];
    digit.begin = static_cast<std::uint32_t>(view.kind_bytes_.size());
    for (std::size_t byte : kind.bytes) {
      const std::size_t p = piece_onto(s, byte - moves_->first_piece(t));
      if (p == sets[s].slots) return std::nullopt;
      view.kind_bytes_.push_back(static_cast<std::uint32_t>(moves_->first_piece(s) + p));
    }
    digit.end = static_cast<std::uint32_t>(view.kind_bytes_.size());
    digit.table = static_cast<std::uint32_t>((digits_.size() + d) * 256);
    const unsigned n = sets[s].orientations;
    for (std::size_t m = 0; m <= moves; ++m) {
      const std::uint8_t* move = m < moves ? moves_->table(m, s) : nullptr;
      for (unsigned b = 0; b < sets[s].slots * n; ++b)  // a kind's slot, without its twist
        view.after_[m * view.after_stride_ + digit.table + b] =
            sym.slot_to[s][(move ? move[b] : b) / n];
    }
  }
  return view;
}

std::vector<std::pair<std::size_t, bool>> PatternDatabase::read_pieces() const {
  std::vector<std::pair<std::size_t, bool>> read;
  for (std::size_t i = 0; i < digits_.size(); ++i)
    read.emplace_back(digits_[i].byte, layout_.tracked[i].twists != 0);
  for (std::uint32_t byte : kind_bytes_) read.emplace_back(byte, false);
  std::sort(read.begin(), read.end());
  return read;
}

}  // namespace cubenum::twisty
