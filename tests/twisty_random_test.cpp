// Random small definition files (issue 33: "random small definitions checked
// against a naive BFS"): each is written as text, read by the library, and
// its BFS (the row engine over TwistySpace's ranks) compared level by level
// with a deliberately naive BFS written here. The expected counts come only
// from that naive BFS: positions as plain vectors of (piece, twist) per slot
// in an unordered_set, each move applied as the file defines it (ksolve's
// twists by piece, every power of every move), nothing shared with the
// library's reader, ranking or tables. The seeds are fixed, so a failure
// reproduces; it prints the definition.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "cubenum/bfs/row_bfs.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/twisty.hpp"
#include "cubenum/puzzles/twisty_space.hpp"

namespace cubenum::twisty {
namespace {

// ---- a random definition, as the numbers the file will hold

struct RandomSet {
  unsigned slots = 0, orientations = 1;
  std::vector<unsigned> solved_piece, solved_twist;  // 1-based pieces, by slot
};

struct RandomMove {
  std::string name;
  // Per set: false leaves the set out of the block (the set does not move).
  std::vector<bool> names_set;
  // Per set, as written: slot i takes the piece of slot perm[i] (1-based);
  // twist[j] is the twist of the piece that comes from slot j + 1 (ksolve:
  // by piece), empty when the block has no twists line.
  std::vector<std::vector<unsigned>> perm, twist;
};

struct RandomDefinition {
  std::vector<RandomSet> sets;
  std::vector<RandomMove> moves;
  bool quarter = false;  // search with each move and its inverse only
  std::string text;
};

class Dice {
 public:
  explicit Dice(std::uint64_t seed) : engine_(seed) {}
  // In [0, n): the engine's raw output modulo n, the same on every platform
  // (a standard distribution's is not).
  unsigned below(unsigned n) { return static_cast<unsigned>(engine_() % n); }
  unsigned between(unsigned low, unsigned high) { return low + below(high - low + 1); }
  bool chance(unsigned in) { return below(in) == 0; }

 private:
  std::mt19937_64 engine_;
};

// A permutation of n slots (0-based): a cycle on a few random slots, or
// a random product of two such cycles, or a shuffle.
std::vector<unsigned> random_permutation(Dice& dice, unsigned n) {
  std::vector<unsigned> p(n);
  std::iota(p.begin(), p.end(), 0U);
  const unsigned kind = dice.below(3);
  if (kind == 2 || n < 2) {
    for (unsigned i = n; i > 1; --i) std::swap(p[i - 1], p[dice.below(i)]);
    return p;
  }
  for (unsigned c = 0; c <= kind; ++c) {
    std::vector<unsigned> slots(n);
    std::iota(slots.begin(), slots.end(), 0U);
    for (unsigned i = n; i > 1; --i) std::swap(slots[i - 1], slots[dice.below(i)]);
    const unsigned length = dice.between(2, std::min(n, 5U));
    // Slot slots[k] takes the piece of slot slots[k + 1], composed after p.
    std::vector<unsigned> q = p;
    for (unsigned k = 0; k < length; ++k) q[slots[k]] = p[slots[(k + 1) % length]];
    p = q;
  }
  return p;
}

RandomDefinition random_definition(Dice& dice) {
  RandomDefinition d;
  const unsigned n_sets = dice.between(1, 3);
  for (unsigned s = 0; s < n_sets; ++s) {
    RandomSet set;
    set.slots = dice.between(1, n_sets == 1 ? 7 : 5);
    set.orientations = dice.between(1, 3);
    // Pieces: all distinct, or some identical (a few kinds, each at least
    // once), numbered 1..slots as the format wants.
    set.solved_piece.resize(set.slots);
    std::iota(set.solved_piece.begin(), set.solved_piece.end(), 1U);
    if (set.slots > 1 && dice.chance(3)) {
      const unsigned kinds = dice.between(1, set.slots - 1);
      for (unsigned i = 0; i < set.slots; ++i)
        set.solved_piece[i] = i < kinds ? i + 1 : dice.between(1, kinds);
      for (unsigned i = set.slots; i > 1; --i)
        std::swap(set.solved_piece[i - 1], set.solved_piece[dice.below(i)]);
    }
    set.solved_twist.assign(set.slots, 0);
    if (set.orientations > 1 && dice.chance(4))
      for (unsigned& t : set.solved_twist) t = dice.below(set.orientations);
    d.sets.push_back(set);
  }
  // (A move must change something: some set must have two slots or twists.)
  bool movable = false;
  for (const RandomSet& set : d.sets) movable = movable || set.slots > 1 || set.orientations > 1;
  if (!movable) {
    RandomSet& set = d.sets[0];
    set.slots = 2;
    set.solved_piece = {1, 2};
    set.solved_twist = {0, 0};
  }
  const unsigned n_moves = dice.between(1, 4);
  for (unsigned m = 0; m < n_moves; ++m) {
    RandomMove move;
    move.name = std::string(1, static_cast<char>('A' + m));
    bool changes = false;
    while (!changes) {  // a move that changes nothing is refused by the format
      move.names_set.assign(n_sets, false);
      move.perm.assign(n_sets, {});
      move.twist.assign(n_sets, {});
      for (unsigned s = 0; s < n_sets; ++s) {
        const RandomSet& set = d.sets[s];
        if (n_sets > 1 && dice.chance(3)) continue;  // this set stays
        move.names_set[s] = true;
        std::vector<unsigned> p = random_permutation(dice, set.slots);
        for (unsigned i = 0; i < set.slots; ++i) {
          move.perm[s].push_back(p[i] + 1);
          changes = changes || p[i] != i;
        }
        if (set.orientations > 1 && !dice.chance(4)) {
          for (unsigned i = 0; i < set.slots; ++i) {
            // Mostly untwisted pieces, as on real puzzles.
            move.twist[s].push_back(dice.chance(2) ? 0 : dice.below(set.orientations));
            changes = changes || move.twist[s].back() != 0;
          }
        }
      }
    }
    d.moves.push_back(move);
  }
  d.quarter = dice.chance(5);
  // The text, in the ksolve/twsearch format.
  std::string& t = d.text;
  t = "Name Random\n";
  for (unsigned s = 0; s < n_sets; ++s)
    t += fmt::format("Set S{} {} {}\n", s, d.sets[s].slots, d.sets[s].orientations);
  t += "Solved\n";
  for (unsigned s = 0; s < n_sets; ++s) {
    t += fmt::format("S{}\n{}\n", s, fmt::join(d.sets[s].solved_piece, " "));
    if (d.sets[s].orientations > 1)
      t += fmt::format("{}\n", fmt::join(d.sets[s].solved_twist, " "));
  }
  t += "End\n";
  for (const RandomMove& move : d.moves) {
    t += fmt::format("Move {}\n", move.name);
    for (unsigned s = 0; s < n_sets; ++s) {
      if (!move.names_set[s]) continue;
      t += fmt::format("S{}\n{}\n", s, fmt::join(move.perm[s], " "));
      if (!move.twist[s].empty()) t += fmt::format("{}\n", fmt::join(move.twist[s], " "));
    }
    t += "End\n";
  }
  return d;
}

// ---- the naive BFS

// A position: for each set in turn, each slot's piece and twist.
using Naive = std::vector<std::uint8_t>;

Naive naive_solved(const RandomDefinition& d) {
  Naive p;
  for (const RandomSet& set : d.sets)
    for (unsigned i = 0; i < set.slots; ++i) {
      p.push_back(static_cast<std::uint8_t>(set.solved_piece[i]));
      p.push_back(static_cast<std::uint8_t>(set.solved_twist[i]));
    }
  return p;
}

// The move as the file says: slot i takes the piece of slot perm[i], and
// that piece twists by the twist written at its slot of origin.
Naive naive_apply(const RandomDefinition& d, const RandomMove& move, const Naive& in) {
  Naive out = in;
  std::size_t base = 0;
  for (std::size_t s = 0; s < d.sets.size(); ++s) {
    const RandomSet& set = d.sets[s];
    if (move.names_set[s]) {
      for (unsigned i = 0; i < set.slots; ++i) {
        const unsigned from = move.perm[s][i] - 1;
        const unsigned twist = move.twist[s].empty() ? 0 : move.twist[s][from];
        out[base + 2 * i] = in[base + 2 * from];
        out[base + 2 * i + 1] =
            static_cast<std::uint8_t>((in[base + 2 * from + 1] + twist) % set.orientations);
      }
    }
    base += 2 * set.slots;
  }
  return out;
}

// The order of a move: how many times it is applied before every slot
// holds its own piece untwisted again (applied to distinct pieces).
unsigned naive_order(const RandomDefinition& d, const RandomMove& move) {
  Naive identity;
  for (const RandomSet& set : d.sets)
    for (unsigned i = 0; i < set.slots; ++i) {
      identity.push_back(static_cast<std::uint8_t>(i));
      identity.push_back(0);
    }
  Naive p = naive_apply(d, move, identity);
  unsigned order = 1;
  while (p != identity) p = naive_apply(d, move, p), ++order;
  return order;
}

struct NaiveKeyHash {
  std::size_t operator()(const Naive& p) const {
    return std::hash<std::string_view>()(
        std::string_view(reinterpret_cast<const char*>(p.data()), p.size()));
  }
};

// Positions first reached at each depth; empty when more than `cap` are
// reachable. Every power of each move is one move (or, with `quarter`,
// the move and its inverse, the power order - 1).
std::vector<std::uint64_t> naive_distances(const RandomDefinition& d, std::size_t cap) {
  std::vector<unsigned> orders;
  for (const RandomMove& move : d.moves) orders.push_back(naive_order(d, move));
  std::unordered_set<Naive, NaiveKeyHash> seen{naive_solved(d)};
  std::vector<Naive> level{naive_solved(d)};
  std::vector<std::uint64_t> counts{1};
  while (true) {
    std::vector<Naive> next;
    for (const Naive& p : level)
      for (std::size_t m = 0; m < d.moves.size(); ++m) {
        Naive q = p;
        for (unsigned power = 1; power < orders[m]; ++power) {
          q = naive_apply(d, d.moves[m], q);
          if (d.quarter && power != 1 && power != orders[m] - 1) continue;
          if (!seen.insert(q).second) continue;
          if (seen.size() > cap) return {};
          next.push_back(q);
        }
      }
    if (next.empty()) return counts;
    counts.push_back(next.size());
    level = std::move(next);
  }
}

// ---- the library's BFS

enum class Storage { TwoBits, Planes };

std::vector<std::uint64_t> library_distances(const TwistySpace& space, Storage storage,
                                             bfs::DirectionPolicy policy) {
  const std::uint64_t source = space.solved_rank();
  bfs::RowBfsOptions options;
  options.policy = policy;
  if (storage == Storage::Planes)
    return bfs::row_bfs<bfs::PlaneRows>(space, {&source, 1}, options).distribution();
  return bfs::row_bfs(space, {&source, 1}, options).distribution();
}

// The seeds: a definition each (drawn again from the same dice while the
// naive BFS finds more than kMaxReachable positions, or the ranking more
// than kMaxRanked states or kMaxRows rows, to keep the run short).
constexpr std::uint64_t kSeeds = 150;
constexpr std::size_t kMaxReachable = 100'000;
constexpr std::uint64_t kMaxRanked = 1'000'000;
constexpr std::uint32_t kMaxRows = 20'000;

// What the definitions compared cover.
struct Coverage {
  std::uint64_t compared = 0, multi_row = 0, identical = 0, twisted = 0;
};

// The definition of one seed, compared.
void check_seed(std::uint64_t seed, Coverage& coverage) {
  Dice dice(seed);
  for (int attempt = 0; attempt < 50; ++attempt) {
    const RandomDefinition d = random_definition(dice);
    SCOPED_TRACE(fmt::format("seed {}, attempt {}{}; the definition:\n{}", seed, attempt,
                             d.quarter ? " (--quarter)" : "", d.text));
    const std::vector<std::uint64_t> naive = naive_distances(d, kMaxReachable);
    if (naive.empty()) continue;
    std::istringstream in(d.text);
    const Definition def = parse_definition(in, "random.tws");
    const std::vector<Move> moves = expand_moves(def, {{}, d.quarter});
    // The layout: whole rows, or narrow ones (cut arrangements, column
    // contexts, many rows), networks asked for or not.
    SpaceOptions options;
    options.max_columns = std::array<std::uint32_t, 4>{1U << 16, 64, 8, 2}[dice.below(4)];
    if (dice.chance(2)) options.min_network_states = 0;
    const auto policy = std::array<bfs::DirectionPolicy, 3>{
        bfs::DirectionPolicy::Auto, bfs::DirectionPolicy::TopDown,
        bfs::DirectionPolicy::BottomUp}[dice.below(3)];
    const Storage storage = dice.chance(2) ? Storage::TwoBits : Storage::Planes;
    SCOPED_TRACE(fmt::format("max_columns {}, min_network_states {}, {}, {}", options.max_columns,
                             options.min_network_states,
                             policy == bfs::DirectionPolicy::Auto      ? "auto"
                             : policy == bfs::DirectionPolicy::TopDown ? "top-down"
                                                                       : "bottom-up",
                             storage == Storage::TwoBits ? "two bits" : "planes"));
    // (A ranked space much larger than the reachable one is drawn again,
    // before its tables are built.)
    struct TooBig {};
    options.before_tables = [](const TwistySpace& laid_out) {
      if (laid_out.size() > kMaxRanked || laid_out.rows() > kMaxRows) throw TooBig{};
    };
    try {
      const OneThread one;  // the tables and the BFS on this thread alone
      const TwistySpace space(def, moves, options);
      SCOPED_TRACE(space.notes().back());
      ASSERT_EQ(library_distances(space, storage, policy), naive) << "one thread";
    } catch (const TooBig&) {
      continue;
    }
    {
      cubenum::ThreadLimit limit(4);
      const TwistySpace space(def, moves, options);
      SCOPED_TRACE(space.notes().back());
      ASSERT_EQ(library_distances(space, storage, policy), naive) << "threads";
      coverage.multi_row += space.rows() > 1 ? 1 : 0;
    }
    ++coverage.compared;
    for (const RandomSet& set : d.sets) {
      const std::set<unsigned> kinds(set.solved_piece.begin(), set.solved_piece.end());
      coverage.identical += kinds.size() < set.slots ? 1 : 0;
      coverage.twisted += set.orientations > 1 ? 1 : 0;
    }
    return;
  }
}

TEST(TwistyRandom, RandomDefinitionsAgreeWithANaiveBfs) {
  Coverage coverage;
  for (std::uint64_t seed = 1; seed <= kSeeds && !HasFatalFailure(); ++seed)
    check_seed(seed, coverage);
  // What the seeds cover (fixed by the seeds; a change of the generator
  // that leaves these low tests less).
  EXPECT_GE(coverage.compared, kSeeds * 9 / 10);
  EXPECT_GE(coverage.multi_row, coverage.compared / 4);
  EXPECT_GE(coverage.identical, coverage.compared / 5);
  EXPECT_GE(coverage.twisted, coverage.compared / 2);
}

// Found by the seeds past kSeeds: three sets, the first (3 distinct
// pieces) cut between row and column at 64 columns, the third's
// arrangement (in the column) with its parity tied to the first's. Column
// permutations of contexts with equal signatures were shared, but the
// signature leaves out the cut orbit's parity, which the third's halved
// part is decoded with: 27,216 of the 134,136 table entries differed from
// step(), and the BFS counted 1, 20, 202, 1222, ... for 1, 20, 188, 986, ...
TEST(TwistyRandom, ParityTiedToACutOrbitSeed2468) {
  Coverage coverage;
  check_seed(2468, coverage);
  EXPECT_EQ(coverage.compared, 1U);
}

}  // namespace
}  // namespace cubenum::twisty
