#pragma once
// The row engine: level-synchronous parallel BFS over a space laid out in
// rows, the engine every ranked puzzle with rows runs on (the pocket cube,
// and any permutation puzzle from a definition file).
//
// A state is (row, column), rank = row * columns + column. Move m takes all
// of row q into one row, row_step(q, m), permuting its columns by
// action(q, m) (a table of the columns' images). The thread that owns row p
// fills p's new states from p's predecessor rows q = row_step(p, m), one
// per move, which move inverse(m) takes back to p (or the space's
// return_move(p, m): a space of symmetry classes), gathering what they
// bring in a bitset of the row; no word is written by two threads and no
// read-modify-write atomics are needed.
// For each (row, move) it takes the cheapest of up to three ways to the same
// states, by a cost model of their counts:
//   push (top-down):  map each frontier state of q through the table;
//   pull (bottom-up): look up each still-open state of p in q through the
//                     inverse move's table;
//   permute:          the whole frontier of q at once through the space's
//                     permutation of its columns (a Beneš network, a digit
//                     shift), when the space offers one.
// On dense levels, spaces whose moves fall into families (row_families.hpp)
// and that name their permutations (action ids) are built a whole row cycle
// at a time instead.
//
// The policies: what each state keeps (row_storage.hpp: two bits, or three
// bitplanes) is the engine's template argument; the ways a space offers are
// its own (the optional members below). Every way finds the same states and
// the choice depends on counts alone, so counts never depend on it or on the
// thread count.
//
// The concepts, options and results are in row_interface.hpp, the cost
// model in row_cost_model.hpp, checkpoints in row_checkpoint.hpp.
#include <algorithm>
#include <atomic>
#include <bit>
#include <concepts>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cubenum/bfs/frontier_bfs.hpp"
#include "cubenum/bfs/row_checkpoint.hpp"
#include "cubenum/bfs/row_cost_model.hpp"
#include "cubenum/bfs/row_families.hpp"
#include "cubenum/bfs/row_interface.hpp"
#include "cubenum/bfs/row_storage.hpp"
#include "cubenum/core/checkpoint.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/stopwatch.hpp"

namespace cubenum::bfs {

namespace detail {

inline constexpr std::size_t kGrainRows = 16;
inline constexpr std::size_t kGrainCycles = 16;

// Runs build() on this thread while a worker makes the storage: mapping a
// BFS's pages takes about as long as building its tables. (Through the
// parallel seam: a oneTBB task_group's hand-overs are invisible to
// ThreadSanitizer.)
template <class Storage, class Make, class Build>
Storage make_while(Make&& make, Build&& build, bool small) {
  if (small) {  // not worth a second thread
    build();
    return make();
  }
  std::optional<Storage> storage;
  parallel_invoke(build, [&] { storage.emplace(make()); });
  return std::move(*storage);
}

template <RowSpace S, class Storage>
class RowLevels {
 public:
  RowLevels(const S& space, Storage& storage, std::vector<MoveFamily> families,
            std::vector<MoveSweep> sweeps)
      : space_(space),
        storage_(storage),
        families_(std::move(families)),
        sweeps_(std::move(sweeps)),
        moves_(space.moves()),
        bit_words_(storage.bit_words()),
        costs_(space, storage, families_, sweeps_),
        frontier_(space.rows(), 0),
        next_(space.rows(), 0),
        open_(space.rows(), space.columns()),
        has_frontier_((std::size_t{space.rows()} + 63) / 64, 0) {
    for (int m = 0; m < moves_; ++m) inverse_.push_back(space.inverse(m));
    if constexpr (PermutableRows<S>) {
      permute_words_ = std::max(bit_words_, space.permute_words());
    }
  }

  // Whether the next level goes cycle by cycle (row_cost_model.hpp).
  bool by_cycles(std::uint64_t fresh, std::uint64_t open, const RowBfsOptions& options) const {
    return costs_.by_cycles(fresh, open, options);
  }

  const std::vector<MoveFamily>& families() const { return families_; }
  std::uint32_t frontier(std::uint32_t r) const { return frontier_[r]; }
  const std::vector<std::uint32_t>& frontier_counts() const { return frontier_; }

  std::uint64_t add_source(std::uint64_t rank) {
    const auto r = static_cast<std::uint32_t>(rank / space_.columns());
    const auto c = static_cast<std::uint32_t>(rank % space_.columns());
    if (!storage_.add_source(r, c)) return 0;
    ++frontier_[r];
    has_frontier_[r / 64] |= Word{1} << (r % 64);
    --open_[r];
    return 1;
  }

  // Level depth + 1 from level `depth`, row by row or cycle by cycle;
  // returns its states.
  std::uint64_t expand(unsigned depth, DirectionPolicy policy, bool by_cycles, RowWork& total,
                       const RowBfsOptions& options) {
    storage_.begin_level(depth);
    std::fill(next_.begin(), next_.end(), 0);
    PerWorker<RowWork> work;
    std::uint64_t fresh = 0;
    std::atomic<std::uint64_t> done{0};
    if (!by_cycles) {
      fresh =
          parallel_sum<std::uint64_t>(space_.rows(), kGrainRows, [&](std::size_t b, std::size_t e) {
            std::uint64_t sum = 0;
            RowWork& local = work.local();
            Buffers& buffer = buffers();
            for (auto p = static_cast<std::uint32_t>(b); p != e; ++p)
              sum += expand_row(p, policy, local, buffer);
            if (options.on_progress) options.on_progress(done += e - b);
            return sum;
          });
    } else if (!sweeps_.empty()) {
      fresh = by_cycles_of(sweeps_, &RowLevels::sweep_cycle, work);
    } else {
      fresh = by_cycles_of(families_, &RowLevels::expand_cycle, work);
    }
    work.for_each([&](const RowWork& w) { total += w; });
    return fresh;
  }

  // Back at a saved level boundary (TwoBitRows): the frontier's rows'
  // counts as saved; what is open follows from the storage.
  void restore(std::vector<std::uint32_t> frontier) {
    frontier_ = std::move(frontier);
    std::fill(has_frontier_.begin(), has_frontier_.end(), 0);
    for (std::uint32_t r = 0; r < frontier_.size(); ++r) {
      if (frontier_[r] != 0) has_frontier_[r / 64] |= Word{1} << (r % 64);
      open_[r] = storage_.count(r, 0);
    }
  }

  // The level is done: its new states become the frontier. Not called
  // after a level that found nothing, so the frontier stays the last level.
  void advance() {
    storage_.end_level(frontier_, next_);
    frontier_.swap(next_);
    parallel_for_chunks(has_frontier_.size(), 1024, [&](std::size_t b, std::size_t e) {
      for (std::size_t k = b; k != e; ++k) {
        Word bits = 0;
        const std::size_t end = std::min<std::size_t>(64, frontier_.size() - k * 64);
        for (std::size_t i = 0; i < end; ++i) bits |= Word{frontier_[k * 64 + i] != 0} << i;
        has_frontier_[k] = bits;
      }
    });
  }

 private:
  using Way = typename RowCostModel<S, Storage>::Way;

  // Each group of cycles (a sweep or a family) in turn, its cycles in
  // parallel, one thread a cycle; the last group finishes the rows.
  template <class Group, class Build>
  std::uint64_t by_cycles_of(const std::vector<Group>& groups, Build build,
                             PerWorker<RowWork>& work) {
    std::uint64_t fresh = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const bool last = g + 1 == groups.size();
      fresh += parallel_sum<std::uint64_t>(
          groups[g].cycles(), kGrainCycles, [&](std::size_t b, std::size_t e) {
            std::uint64_t sum = 0;
            RowWork& local = work.local();
            Buffers& buffer = buffers();
            for (std::size_t c = b; c != e; ++c)
              sum += (this->*build)(groups[g], c, last, local, buffer);
            return sum;
          });
    }
    return fresh;
  }

  bool has_frontier(std::uint32_t q) const { return (has_frontier_[q / 64] >> (q % 64) & 1U) != 0; }

  struct Source {
    std::uint32_t q;
    int m, back;  // q's move to p, and p's to q
  };
  int return_move(std::uint32_t p, int back) const {
    if constexpr (ReturnMoves<S>) {
      return space_.return_move(p, back);
    } else {
      (void)p;
      return inverse_[static_cast<std::size_t>(back)];
    }
  }
  bool closed(std::uint32_t p) const {
    if constexpr (ClosedRows<S>) {
      return space_.closed(p);
    } else {
      (void)p;
      return false;
    }
  }
  // A worker's scratch, looked up once a chunk of rows or cycles.
  struct Buffers {
    std::vector<Word> open, reach, from, moved;
    std::vector<Source> sources;
    std::vector<Word> cycle;              // a cycle's frontier rows, and more
    std::vector<const Word*> cycle_rows;  // a sweep's frontier rows in `cycle`
  };
  Buffers& buffers() {
    Buffers& b = buffers_.local();
    if (b.open.size() != bit_words_) {
      b.sources.resize(static_cast<std::size_t>(moves_));
      b.open.assign(bit_words_, 0);
      b.reach.assign(bit_words_, 0);
      b.from.assign(std::max(bit_words_, permute_words_), 0);
      b.moved.assign(std::max(bit_words_, permute_words_), 0);
    }
    return b;
  }

  // Row p's new states from its sources, one move at a time; returns how
  // many. Only the thread that calls this for p writes p. A row with few
  // source states takes them one by one into its row (claim); else what
  // the moves bring is gathered in a bitset of the row first.
  std::uint32_t expand_row(std::uint32_t p, DirectionPolicy policy, RowWork& work, Buffers& b) {
    const std::uint32_t open_count = open_[p];
    if (open_count == 0) return 0;
    std::uint32_t count = 0, sources = 0;
    // Each move `back` from p reaches a row q, from which move m returns.
    for (int back = 0; back < moves_; ++back) {
      const std::uint32_t q = space_.row_step(p, back);
      if (!has_frontier(q)) continue;
      b.sources[count++] = {q, return_move(p, back), back};
      sources += storage_.push_sources(q, frontier_[q]);
    }
    if (count == 0) return 0;
    for (std::uint32_t i = 0; i < count; ++i) storage_.prefetch(b.sources[i].q);
    // The bitset costs a few operations a word of the row (and a row to
    // be closed needs it whole).
    if (sources < bit_words_ && policy != DirectionPolicy::BottomUp && !closed(p)) {
      std::uint32_t fresh = 0;
      for (std::uint32_t i = 0; i < count; ++i) {
        const auto [q, m, back] = b.sources[i];
        const std::uint16_t* to = space_.action(q, m);
        storage_.for_each_frontier(q, [&](std::uint32_t c) { fresh += storage_.claim(p, to[c]); });
      }
      work.pushed += count;
      open_[p] = open_count - fresh;
      return next_[p] = fresh;
    }
    std::fill(b.reach.begin(), b.reach.end(), 0);
    bool have_open = false;
    std::uint32_t left = open_count;  // an upper bound while pushes add to reach
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto [q, m, back] = b.sources[i];
      const Way way = costs_.choose(policy, storage_.push_sources(q, frontier_[q]), left);
      if (way == Way::Permute) {
        if constexpr (PermutableRows<S>) {
          const std::uint32_t id = space_.action_id(q, m);
          const Word* from = storage_.frontier_row(q, b.from.data());
          if (id != kIdentityAction)
            space_.permute(id, from, b.moved.data()), from = b.moved.data();
          for (std::uint32_t k = 0; k < bit_words_; ++k) b.reach[k] |= from[k];
          ++work.permuted;
          continue;
        }
      }
      if (way != Way::Pull) {
        const std::uint16_t* to = space_.action(q, m);
        Word* reach = b.reach.data();
        storage_.for_each_frontier(
            q, [&](std::uint32_t c) { reach[to[c] / 64] |= Word{1} << (to[c] % 64); });
        ++work.pushed;
        continue;
      }
      if (!have_open) storage_.open_row(p, b.open.data()), have_open = true;
      left -= pull_row(q, space_.action(p, back), b);
      ++work.pulled;
    }
    if (!have_open) storage_.open_row(p, b.open.data());
    if constexpr (ClosedRows<S>) {
      if (closed(p)) space_.close_row(p, b.reach.data());
    }
    for (std::uint32_t k = 0; k < bit_words_; ++k) b.reach[k] &= b.open[k];
    const std::uint32_t fresh = storage_.record(p, b.reach.data());
    open_[p] = open_count - fresh;
    return next_[p] = fresh;
  }

  // The open states of p not yet reached whose image under `to_column` is
  // in q's frontier are reached; returns how many.
  std::uint32_t pull_row(std::uint32_t q, const std::uint16_t* to_column, Buffers& b) const {
    std::uint32_t found = 0;
    for (std::uint32_t k = 0; k < bit_words_; ++k) {
      Word hit = 0;
      for (Word bits = b.open[k] & ~b.reach[k]; bits != 0; bits &= bits - 1) {
        const int bit = std::countr_zero(bits);
        hit |= Word{storage_.in_frontier(q, to_column[k * 64 + static_cast<std::uint32_t>(bit)])}
               << bit;
      }
      b.reach[k] |= hit;
      found += static_cast<std::uint32_t>(std::popcount(hit));
    }
    return found;
  }

  // The rows of cycle `index` of `family` collect what the family's moves
  // bring from the cycle's other rows (row_families.hpp); the last family
  // finishes the rows. Returns the new states recorded. Cycles of one
  // family share no row: one thread writes each.
  std::uint64_t expand_cycle(const MoveFamily& family, std::size_t index, bool last, RowWork& work,
                             Buffers& b) {
    if constexpr (!PermutableRows<S>) {
      return 0;  // families need action ids
    } else {
      const std::uint32_t n = family.order;
      const std::uint32_t* rows = family.rows.data() + index * n;
      std::uint32_t sources = 0;
      for (std::uint32_t k = 0; k < n; ++k) sources += frontier_[rows[k]];
      std::uint64_t fresh = 0;
      if (sources != 0) {
        work.cycled += n * family.moves.size();
        fresh = gather_cycle(family, index, b);
      }
      if (last)
        for (std::uint32_t k = 0; k < n; ++k) fresh += note(rows[k], storage_.finish(rows[k]));
      return fresh;
    }
  }

  // The rows of cycle `index` of `sweep` collect what the powers of its
  // generator bring from the cycle's rows, by a running union
  // (row_families.hpp); the last sweep finishes the rows. Returns the new
  // states recorded.
  std::uint64_t sweep_cycle(const MoveSweep& sweep, std::size_t index, bool last, RowWork& work,
                            Buffers& b) {
    if constexpr (!PermutableRows<S>) {
      return 0;  // sweeps need permutations
    } else {
      const std::uint32_t* rows = sweep.rows.data() + sweep.starts[index];
      const std::uint32_t n = sweep.starts[index + 1] - sweep.starts[index];
      std::uint32_t sources = 0;
      for (std::uint32_t k = 0; k < n; ++k) sources += frontier_[rows[k]];
      std::uint64_t fresh = 0;
      if (sources != 0) {
        work.cycled += std::uint64_t{n} * (sweep.order - 1);
        fresh = sweep_rows(sweep, rows, n, b);
      }
      if (last)
        for (std::uint32_t k = 0; k < n; ++k) fresh += note(rows[k], storage_.finish(rows[k]));
      return fresh;
    }
  }

  std::uint64_t sweep_rows(const MoveSweep& sweep, const std::uint32_t* rows, std::uint32_t n,
                           Buffers& b) {
    const std::uint32_t words = bit_words_, stride = permute_words_;
    std::vector<Word>& scratch = b.cycle;
    scratch.resize(std::size_t{n + 1} * stride);
    // The frontier rows, all read before any of the cycle's rows is written.
    std::vector<const Word*>& from = b.cycle_rows;
    from.assign(n, nullptr);
    for (std::uint32_t k = 0; k < n; ++k)
      if (frontier_[rows[k]] != 0)
        from[k] = storage_.frontier_row(rows[k], scratch.data() + std::size_t{k} * stride);
    Word* acc = scratch.data() + std::size_t{n} * stride;
    Word* moved = b.moved.data();
    bool empty = from[0] == nullptr;
    if (empty)
      std::fill_n(acc, words, 0);
    else
      std::copy_n(from[0], words, acc);
    std::uint64_t fresh = 0;
    const std::uint32_t steps = sweep.order + n - 2;
    for (std::uint32_t s = 1; s <= steps; ++s) {
      const std::uint32_t k = s % n;
      if (!empty) {  // acc <- g(acc), from the row before k to row k
        const std::uint32_t id = space_.action_id(rows[(s - 1) % n], sweep.generator);
        if (id != kIdentityAction) {
          space_.permute(id, acc, moved);
          std::swap(acc, moved);
        }
      }
      if (from[k] != nullptr) {
        for (std::uint32_t i = 0; i < words; ++i) acc[i] |= from[k][i];
        empty = false;
      }
      if (s + 1 >= sweep.order && !empty) {  // acc is row k's whole harvest
        std::copy_n(acc, words, b.reach.data());
        fresh += note(rows[k], storage_.gather(rows[k], b.reach.data(), b.open.data()));
      }
    }
    return fresh;
  }

  // A row's new states: counted against its open ones and the level's.
  std::uint32_t note(std::uint32_t p, std::uint32_t found) {
    open_[p] -= found;
    next_[p] += found;
    return found;
  }

  std::uint64_t gather_cycle(const MoveFamily& family, std::size_t index, Buffers& b) {
    const std::uint32_t n = family.order;
    const std::uint32_t* rows = family.rows.data() + index * n;
    const std::uint32_t words = bit_words_, stride = permute_words_;
    std::array<const Word*, kMaxFamilyOrder> from{};
    std::vector<Word>& scratch = b.cycle;
    scratch.resize(std::size_t{kMaxFamilyOrder + 64} * stride);
    for (std::uint32_t k = 0; k < n; ++k)
      from[k] = frontier_[rows[k]] == 0
                    ? nullptr
                    : storage_.frontier_row(rows[k], scratch.data() + k * stride);
    // Each term: its sources ORed, then permuted once.
    Word* terms = scratch.data() + std::size_t{kMaxFamilyOrder} * stride;
    const std::uint32_t first = family.first_term[index];
    const std::uint32_t count = family.first_term[index + 1] - first;
    for (std::uint32_t t = 0; t < count; ++t) {
      const MoveFamily::Term& term = family.terms[first + t];
      or_rows(from, term.sources, words, b.from.data());
      space_.permute(term.action, b.from.data(), terms + std::size_t{t} * stride);
    }
    std::uint64_t fresh = 0;
    for (std::uint32_t k = 0; k < n; ++k) {
      or_rows(from, family.plain[index * n + k], words, b.reach.data());
      for (std::uint64_t w = family.wants[index * n + k]; w != 0; w &= w - 1) {
        const Word* term = terms + std::size_t{static_cast<unsigned>(std::countr_zero(w))} * stride;
        for (std::uint32_t i = 0; i < words; ++i) b.reach[i] |= term[i];
      }
      fresh += note(rows[k], storage_.gather(rows[k], b.reach.data(), b.open.data()));
    }
    return fresh;
  }

  // The OR of the rows in `which` (none: zero).
  static void or_rows(const std::array<const Word*, kMaxFamilyOrder>& from, unsigned which,
                      std::uint32_t words, Word* out) {
    bool empty = true;
    for (; which != 0; which &= which - 1) {
      const Word* row = from[static_cast<std::size_t>(std::countr_zero(which))];
      if (row == nullptr) continue;
      if (empty)
        std::copy_n(row, words, out), empty = false;
      else
        for (std::uint32_t i = 0; i < words; ++i) out[i] |= row[i];
    }
    if (empty) std::fill_n(out, words, 0);
  }

  const S& space_;
  Storage& storage_;
  std::vector<MoveFamily> families_;
  std::vector<MoveSweep> sweeps_;
  int moves_;
  std::uint32_t bit_words_;
  std::uint32_t permute_words_ = 0;
  RowCostModel<S, Storage> costs_;
  std::vector<int> inverse_;
  std::vector<std::uint32_t> frontier_, next_, open_;
  std::vector<Word> has_frontier_;  // a bit a row: frontier_[r] != 0 (fits in cache)
  PerWorker<Buffers> buffers_;
};

// The space's move families when it names its permutations and applies
// them to a whole row for less than a quarter of a nanosecond a column
// (else none: a cycle level permutes every row).
template <RowSpace S>
std::vector<MoveFamily> families_of(const S& space) {
  // (A cycle of rows is gathered by moves' powers alone: no return moves,
  // and no rows closed afterwards.)
  if constexpr (!PermutableRows<S> || ReturnMoves<S> || ClosedRows<S>) {
    return {};
  } else {
    if (!(space.permute_nanoseconds() <= 0.25 * space.columns())) return {};
    const auto n_moves = static_cast<std::size_t>(space.moves());
    std::vector<std::uint32_t> next_row(std::size_t{space.rows()} * n_moves);
    for (std::uint32_t r = 0; r < space.rows(); ++r)
      for (std::size_t m = 0; m < n_moves; ++m)
        next_row[r * n_moves + m] = space.row_step(r, static_cast<int>(m));
    return find_families(next_row, space.moves(),
                         [&](std::uint32_t q, int m) { return space.action_id(q, m); });
  }
}

// The sweeps of a space that says which moves are powers of which (else
// none).
template <RowSpace S>
std::vector<MoveSweep> sweeps_of(const S& space) {
  if constexpr (!PoweredMoves<S> || ReturnMoves<S> || ClosedRows<S>) {
    return {};
  } else {
    return find_sweeps(
        space.rows(), space.moves(), [&](int m) { return space.move_power(m); },
        [&](std::uint32_t r, int m) { return space.row_step(r, m); });
  }
}

}  // namespace detail

// BFS from `sources` (ranks, all at depth 0) over every reachable state,
// keeping what Storage keeps (TwoBitRows with options.codes, or PlaneRows).
template <class Storage = TwoBitRows, RowSpace S>
RowBfsResult row_bfs(const S& space, std::span<const std::uint64_t> sources,
                     const RowBfsOptions& options = {}) {
  Stopwatch clock;
  std::vector<MoveFamily> families;
  std::vector<MoveSweep> sweeps;
  Storage storage = detail::make_while<Storage>(
      [&] {
        if constexpr (std::is_same_v<Storage, TwoBitRows>)
          return TwoBitRows(space.rows(), space.columns(), options.codes);
        else
          return Storage(space.rows(), space.columns());
      },
      [&] {
        sweeps = detail::sweeps_of(space);
        if (sweeps.empty()) families = detail::families_of(space);
      },
      std::uint64_t{space.rows()} * space.columns() < (std::uint64_t{1} << 20));
  detail::RowLevels<S, Storage> state(space, storage, std::move(families), std::move(sweeps));
  constexpr bool kSaves = std::is_same_v<Storage, TwoBitRows>;
  if (!kSaves && (options.checkpoint != nullptr || options.resume != nullptr))
    throw std::logic_error("row_bfs: checkpoints need the two-bit storage");
  std::uint64_t fresh = 0;
  RowBfsResult result;
  RowLevel level{0, 0, 0, {}};
  unsigned depth = 0;
  if constexpr (kSaves) {
    if (options.resume != nullptr) {
      // The saved levels but the last are done; the last is the frontier.
      result.levels = detail::load_rows(*options.resume, storage, state, space.rows());
      if (options.resume_extra)
        options.resume_extra(options.resume->state().value("extra", CheckpointJson()));
      level = result.levels.back();
      result.levels.pop_back();
      for (const RowLevel& l : result.levels) result.reached += l.states;
      fresh = level.states;
      depth = level.depth;
    }
  }
  if (options.resume == nullptr) {
    for (std::uint64_t s : sources) fresh += state.add_source(s);
    level = RowLevel{0, fresh, clock.seconds(), {}};
  }
  Stopwatch since_save;
  const std::uint64_t states = std::uint64_t{space.rows()} * space.columns();
  // What a level's rows hold: PlaneRows' frontier, or the frontier's code.
  const LevelRows rows(state.frontier_counts(), [&](std::uint32_t r, Word* scratch) {
    return static_cast<const Storage&>(storage).frontier_row(r, scratch);
  });
  while (fresh != 0) {
    result.levels.push_back(level);
    result.reached += fresh;
    if (options.on_level) {
      storage.begin_level(depth);  // so that the frontier's code is this level's
      options.on_level(level, rows);
    }
    if (result.reached == states) break;  // nothing left to find
    if constexpr (kSaves) {
      const bool stop = options.should_stop && options.should_stop();
      if (options.checkpoint != nullptr &&
          (stop || since_save.seconds() >= options.checkpoint_every)) {
        detail::save_rows(*options.checkpoint, storage, state, result.levels,
                          options.save_extra ? options.save_extra() : CheckpointJson());
        since_save.restart();
      }
      if (stop) {
        result.stopped = true;
        return result;
      }
    }

    clock.restart();
    RowWork work;
    const bool by_cycles = state.by_cycles(fresh, states - result.reached, options);
    fresh = state.expand(depth, options.policy, by_cycles, work, options);
    if (fresh != 0) state.advance();
    level = RowLevel{++depth, fresh, clock.seconds(), work};
  }
  for (std::uint32_t r = 0; r < space.rows() && result.last_rows.size() < options.keep_last_rows;
       ++r)
    if (state.frontier(r) != 0) result.last_rows.push_back(r);
  if constexpr (std::is_same_v<Storage, TwoBitRows>)
    if (storage.codes() == RowCodes::DepthMod3) result.depths = storage.take_depths();
  return result;
}

}  // namespace cubenum::bfs
