#pragma once
// Level-synchronous parallel BFS over a space laid out in rows, keeping two
// bits per state and nothing else: 0 for unseen, else 1 + depth mod 3
// (Korf's two-bit breadth-first search). The table is the result: the
// distance of every state mod 3, enough to walk a shortest path.
//
// A state is (row, column). Move m takes all of row q into one row,
// row_step(q, m), permuting its columns by action(q, m) (a table of the
// columns' images). The thread that owns row p fills p's new states from
// p's predecessor rows q = row_step(p, inverse(m)), one per move, so no
// word is written by two threads and no read-modify-write atomics are
// needed. For each (row, move) it takes the cheaper of two ways to the
// same states:
//   push (top-down):  map each frontier state of q into p;
//   pull (bottom-up): for each unseen state of p, look at its image in q
//                     under the inverse move.
// Other threads read p while its owner writes it, but a level only turns
// unseen entries (0) into the next level's code, and readers look for the
// frontier's code, so what they read never depends on the timing.
//
// Depth mod 3 makes the frontier ambiguous: a push from the frontier's code
// also pushes states three levels back. Their neighbours are all seen, so
// they add nothing, and levels grow quickly enough that they cost little;
// a pull never sees them (an unseen state has no neighbour that far back).
// Every way finds the same states; the choice depends on counts alone, so
// counts never depend on it or on the thread count.
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <concepts>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <span>
#include <vector>

#include "cubenum/bfs/frontier_bfs.hpp"
#include "cubenum/core/bit_permutation.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/stopwatch.hpp"

namespace cubenum::bfs {

// rank = row * columns() + column. action(r, m)[c] is the column that move
// m takes column c of row r to, in row row_step(r, m); inverse(m) undoes m.
template <class S>
concept RowSpace = requires(const S& space, std::uint32_t r, int m) {
  { space.rows() } -> std::convertible_to<std::uint32_t>;
  { space.columns() } -> std::convertible_to<std::uint32_t>;
  { space.moves() } -> std::convertible_to<int>;
  { space.inverse(m) } -> std::convertible_to<int>;
  { space.row_step(r, m) } -> std::convertible_to<std::uint32_t>;
  { space.action(r, m) } -> std::convertible_to<const std::uint16_t*>;
};

// A space may also offer permutation(r, m): action(r, m) as a Beneš network
// (core/bit_permutation.hpp), or nullptr. Then a third way serves dense
// rows: permute, the whole frontier of q through the network at once.
template <class S>
concept PermutableRows = RowSpace<S> && requires(const S& space, std::uint32_t r, int m) {
  { space.permutation(r, m) } -> std::convertible_to<const BitPermutation*>;
};

// Two bits per state, in rows of whole words (32 states a word).
class RowDepths {
 public:
  using Word = std::uint64_t;
  static constexpr int kUnseen = -1;

  RowDepths() = default;
  // All unseen. Pages come zeroed from the system when first touched.
  RowDepths(std::uint32_t rows, std::uint32_t columns)
      : rows_(rows), columns_(columns), row_words_((columns + 31) / 32) {
    bytes_ = std::size_t{rows} * row_words_ * sizeof(Word);
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, bytes_, MADV_HUGEPAGE);  // fewer page faults; a hint, fine if refused
    words_ = std::unique_ptr<Word[], Unmap>(static_cast<Word*>(p), Unmap{bytes_});
  }

  std::uint32_t rows() const { return rows_; }
  std::uint32_t columns() const { return columns_; }
  std::uint32_t row_words() const { return row_words_; }
  std::size_t bytes() const { return bytes_; }
  Word* row(std::uint32_t r) { return words_.get() + std::size_t{r} * row_words_; }
  const Word* row(std::uint32_t r) const { return words_.get() + std::size_t{r} * row_words_; }
  Word* data() { return words_.get(); }
  const Word* data() const { return words_.get(); }

  // 0 unseen, else 1 + depth mod 3.
  unsigned code(std::uint32_t r, std::uint32_t c) const {
    return static_cast<unsigned>(load(row(r) + c / 32) >> (2 * (c % 32))) & 3U;
  }
  int depth_mod3(std::uint64_t rank) const {
    return static_cast<int>(code(static_cast<std::uint32_t>(rank / columns_),
                                 static_cast<std::uint32_t>(rank % columns_))) -
           1;
  }

  static Word load(const Word* w) {
    return std::atomic_ref<const Word>(*w).load(std::memory_order_relaxed);
  }
  static void store(Word* w, Word value) {
    std::atomic_ref<Word>(*w).store(value, std::memory_order_relaxed);
  }

 private:
  struct Unmap {
    std::size_t bytes;
    void operator()(Word* p) const { munmap(p, bytes); }
  };
  std::uint32_t rows_ = 0, columns_ = 0, row_words_ = 0;
  std::size_t bytes_ = 0;
  std::unique_ptr<Word[], Unmap> words_;
};

struct RowLevelWork {
  std::uint64_t pushed = 0, pulled = 0, permuted = 0;  // (row, move) pairs served each way
  RowLevelWork& operator+=(const RowLevelWork& o) {
    pushed += o.pushed, pulled += o.pulled, permuted += o.permuted;
    return *this;
  }
};

struct RowLevel {
  unsigned depth = 0;
  std::uint64_t states = 0;  // first reached at this depth
  double seconds = 0;        // building this level from the one before
  RowLevelWork work;
};

// What the two bits of a state say.
enum class RowCodes : std::uint8_t {
  DepthMod3,  // 0 unseen, else 1 + depth mod 3: the result is a depth table
  Frontier,   // 0 unseen, 1 the frontier, 2 found this level, 3 older
};

struct RowBfsOptions {
  // TopDown: push only; BottomUp: pull only; Auto: the cheaper for each
  // row and move.
  DirectionPolicy policy = DirectionPolicy::Auto;
  // DepthMod3 keeps every state's depth mod 3 (for shortest paths), but a
  // push from the frontier's code also pushes the states three levels
  // back; Frontier tells the frontier apart exactly and turns the codes
  // over after each level.
  RowCodes codes = RowCodes::DepthMod3;
  // Called after each level.
  std::function<void(const RowLevel&)> on_level;
  // Called now and then during a level, from any thread, with the rows done.
  std::function<void(std::uint64_t rows_done)> on_progress;
  // Rows of the last level's states to keep, for finding antipodes.
  std::size_t keep_last_rows = 0;
};

struct RowBfsResult {
  std::vector<RowLevel> levels;  // levels[d]: states at distance d
  std::uint64_t reached = 0;
  RowDepths depths;
  std::vector<std::uint32_t> last_rows;  // up to keep_last_rows rows with states of the last level
  std::vector<std::uint64_t> distribution() const {
    std::vector<std::uint64_t> d;
    for (const auto& level : levels) d.push_back(level.states);
    return d;
  }
  unsigned max_depth() const { return static_cast<unsigned>(levels.size()) - 1; }
};

namespace detail {

inline constexpr std::uint64_t kLowBits = 0x5555555555555555ULL;

// Bit 2i set where entry i of `word` equals `code` (both bits).
inline std::uint64_t entries_equal(std::uint64_t word, unsigned code) {
  const std::uint64_t same = ~(word ^ (kLowBits * code));
  return same & (same >> 1) & kLowBits;
}

// Bits 0, 2, 4, ... 62 of x as bits 0..31.
inline std::uint64_t gather_even_bits(std::uint64_t x) {
  x &= kLowBits;
  x = (x | x >> 1) & 0x3333333333333333ULL;
  x = (x | x >> 2) & 0x0F0F0F0F0F0F0F0FULL;
  x = (x | x >> 4) & 0x00FF00FF00FF00FFULL;
  x = (x | x >> 8) & 0x0000FFFF0000FFFFULL;
  return (x | x >> 16) & 0x00000000FFFFFFFFULL;
}

// Bits 0..31 of x as bits 0, 2, 4, ... 62.
inline std::uint64_t spread_to_even_bits(std::uint64_t x) {
  x &= 0x00000000FFFFFFFFULL;
  x = (x | x << 16) & 0x0000FFFF0000FFFFULL;
  x = (x | x << 8) & 0x00FF00FF00FF00FFULL;
  x = (x | x << 4) & 0x0F0F0F0F0F0F0F0FULL;
  x = (x | x << 2) & 0x3333333333333333ULL;
  return (x | x << 1) & kLowBits;
}

template <RowSpace S>
class RowLevels {
 public:
  RowLevels(const S& space, RowDepths& depths, RowCodes codes)
      : space_(space),
        depths_(depths),
        codes_(codes),
        moves_(space.moves()),
        words_(depths.row_words()),
        frontier_(space.rows(), 0),
        next_(space.rows(), 0),
        open_(space.rows(), space.columns()),
        has_frontier_((std::size_t{space.rows()} + 63) / 64, 0),
        bit_words_((space.columns() + 63) / 64) {
    for (int m = 0; m < moves_; ++m) inverse_.push_back(space.inverse(m));
    const std::uint32_t tail = space.columns() % 32;
    last_mask_ = tail == 0 ? kLowBits : kLowBits & ((std::uint64_t{1} << (2 * tail)) - 1);
    if (codes_ == RowCodes::DepthMod3) coded_.assign(std::size_t{space.rows()} * 3, 0);
    std::uint32_t bits = 64;
    while (bits < space.columns()) bits *= 2;
    network_words_ = bits / 64;
    const auto stages = static_cast<double>(2 * std::countr_zero(bits) - 1);
    const double per_word_stage = network_words_ <= 32 ? 0.25 : 1.6;
    permute_cost_ = PermutableRows<S> ? per_word_stage * stages * network_words_ + 0.5 * words_
                                      : std::numeric_limits<double>::infinity();
  }

  std::uint64_t add_source(std::uint64_t rank) {
    const auto r = static_cast<std::uint32_t>(rank / space_.columns());
    const auto c = static_cast<std::uint32_t>(rank % space_.columns());
    if (depths_.code(r, c) != 0) return 0;
    RowDepths::Word* w = depths_.row(r) + c / 32;
    RowDepths::store(w, RowDepths::load(w) | std::uint64_t{1} << (2 * (c % 32)));
    ++frontier_[r];
    has_frontier_[r / 64] |= std::uint64_t{1} << (r % 64);
    --open_[r];
    if (!coded_.empty()) ++coded_[std::size_t{r} * 3];
    return 1;
  }

  // Builds level depth + 1 from level `depth` into row p; returns its new
  // states. Only the thread that calls this for p writes p. The row's
  // unseen states and what the moves reach are kept as one bit a column
  // while the moves are gathered, then written back as codes at once.
  std::uint32_t expand_row(std::uint32_t p, unsigned depth, DirectionPolicy policy,
                           RowLevelWork& work) {
    const std::uint32_t open_count = open_[p];
    if (open_count == 0) return next_[p] = 0;
    const unsigned from_code = codes_ == RowCodes::Frontier ? 1 : 1 + depth % 3;
    const unsigned to_code = codes_ == RowCodes::Frontier ? 2 : 1 + (depth + 1) % 3;
    Buffers& buffers = buffers_.local();
    if (buffers.open.size() != bit_words_)
      buffers.open.resize(bit_words_), buffers.reach.resize(bit_words_),
          buffers.moved.resize(2 * network_words_);
    std::uint64_t* open = buffers.open.data();
    std::uint64_t* reach = buffers.reach.data();
    bool started = false, have_open = false;
    std::uint32_t left = open_count;  // an upper bound while pushes add to reach
    for (int m = 0; m < moves_; ++m) {
      const std::uint32_t q = space_.row_step(p, inverse_[static_cast<std::size_t>(m)]);
      if ((has_frontier_[q / 64] >> (q % 64) & 1U) == 0) continue;
      if (!started) std::fill_n(reach, bit_words_, 0), started = true;
      // A push reads every state of q with the frontier's code.
      const std::uint32_t sources =
          coded_.empty() ? frontier_[q] : coded_[std::size_t{q} * 3 + from_code - 1];
      const Way way = choose(policy, sources, left);
      if (way == Way::Permute) {
        if (const BitPermutation* network = permutation(q, m)) {
          permute_row(depths_.row(q), *network, from_code, reach, buffers.moved);
          ++work.permuted;
          continue;
        }
      }
      if (way != Way::Pull) {
        push_row(depths_.row(q), space_.action(q, m), from_code, reach);
        ++work.pushed;
        continue;
      }
      if (!have_open) read_open(depths_.row(p), open), have_open = true;
      left -= pull_row(depths_.row(q), space_.action(p, inverse_[static_cast<std::size_t>(m)]),
                       from_code, open, reach);
      ++work.pulled;
    }
    if (!started) return next_[p] = 0;
    const std::uint32_t fresh =
        write_found(depths_.row(p), have_open ? open : nullptr, reach, to_code);
    open_[p] = open_count - fresh;
    if (!coded_.empty()) coded_[std::size_t{p} * 3 + to_code - 1] += fresh;
    return next_[p] = fresh;
  }

  // The level is done: its new states become the frontier (Frontier codes:
  // 1 -> 3 and 2 -> 1 in the rows that have either).
  void advance() {
    if (codes_ == RowCodes::Frontier)
      parallel_for_chunks(space_.rows(), 256, [&](std::size_t b, std::size_t e) {
        for (auto r = static_cast<std::uint32_t>(b); r != e; ++r) {
          if ((frontier_[r] | next_[r]) == 0) continue;
          RowDepths::Word* row = depths_.row(r);
          for (std::uint32_t w = 0; w < words_; ++w) {
            const RowDepths::Word x = RowDepths::load(row + w);
            const std::uint64_t old = entries_equal(x, 1), found = entries_equal(x, 2);
            if ((old | found) != 0) RowDepths::store(row + w, (x | old << 1) ^ found * 3);
          }
        }
      });
    frontier_.swap(next_);
    parallel_for_chunks(has_frontier_.size(), 1024, [&](std::size_t b, std::size_t e) {
      for (std::size_t k = b; k != e; ++k) {
        std::uint64_t bits = 0;
        const std::size_t end = std::min<std::size_t>(64, frontier_.size() - k * 64);
        for (std::size_t i = 0; i < end; ++i)
          bits |= std::uint64_t{frontier_[k * 64 + i] != 0} << i;
        has_frontier_[k] = bits;
      }
    });
  }
  std::uint32_t frontier(std::uint32_t r) const { return frontier_[r]; }

  // How to serve one (row, move) pair, by a cost model in nanoseconds
  // (measured on 2x2x2 and skewb, one thread): a push costs per source
  // state and per word of q scanned, a pull per open state, a permutation
  // per word of each network stage (networks of up to 32 words stay in
  // registers; bigger ones stream their masks).
  enum class Way : std::uint8_t { Push, Pull, Permute };
  Way choose(DirectionPolicy policy, std::uint32_t sources, std::uint32_t left) const {
    if (policy == DirectionPolicy::TopDown) return Way::Push;
    if (policy == DirectionPolicy::BottomUp) return Way::Pull;
    const double push = 2.0 * sources + 0.25 * words_;
    const double pull = 1.7 * left;
    const double permute = permute_cost_;
    if (permute < push && permute < pull) return Way::Permute;
    return push <= pull ? Way::Push : Way::Pull;
  }
  unsigned last_code(unsigned depth) const {
    return codes_ == RowCodes::Frontier ? 1 : 1 + depth % 3;
  }

 private:
  const BitPermutation* permutation(std::uint32_t q, int m) const {
    if constexpr (PermutableRows<S>)
      return space_.permutation(q, m);
    else
      return nullptr;
  }

  // The states of row `source` with code `from`, a bit a column, through
  // the network into `reach`.
  void permute_row(const RowDepths::Word* source, const BitPermutation& network, unsigned from,
                   std::uint64_t* reach, std::vector<std::uint64_t>& buffer) const {
    std::uint64_t* bits = buffer.data();
    std::uint64_t* moved = bits + network_words_;
    for (std::uint32_t k = 0; k < bit_words_; ++k) {
      const std::uint32_t w = 2 * k;
      const std::uint64_t low = entries_equal(RowDepths::load(source + w), from);
      const std::uint64_t high =
          w + 1 < words_ ? entries_equal(RowDepths::load(source + w + 1), from) : 0;
      bits[k] = gather_even_bits(low) | gather_even_bits(high) << 32;
    }
    network.apply(bits, bit_words_, moved);
    for (std::uint32_t k = 0; k < bit_words_; ++k) reach[k] |= moved[k];
  }

  // One bit a column: the row's unseen states (2-bit code 0).
  void read_open(const RowDepths::Word* row, std::uint64_t* open) const {
    for (std::uint32_t k = 0; k < bit_words_; ++k) open[k] = open_word(row, k);
  }
  std::uint64_t open_word(const RowDepths::Word* row, std::uint32_t k) const {
    const std::uint32_t w = 2 * k;
    std::uint64_t low = entries_equal(RowDepths::load(row + w), 0);
    std::uint64_t high = w + 1 < words_ ? entries_equal(RowDepths::load(row + w + 1), 0) : 0;
    if (w + 1 == words_) low &= last_mask_;
    if (w + 2 == words_) high &= last_mask_;
    return gather_even_bits(low) | gather_even_bits(high) << 32;
  }

  // The states of row `source` with code `from` go where `to_column` sends
  // them: their bits in `reach`.
  void push_row(const RowDepths::Word* source, const std::uint16_t* to_column, unsigned from,
                std::uint64_t* reach) const {
    for (std::uint32_t w = 0; w < words_; ++w)
      for (std::uint64_t bits = entries_equal(RowDepths::load(source + w), from); bits != 0;
           bits &= bits - 1) {
        const std::uint32_t c =
            to_column[w * 32 + static_cast<std::uint32_t>(std::countr_zero(bits)) / 2];
        reach[c / 64] |= std::uint64_t{1} << (c % 64);
      }
  }

  // The open states not yet reached whose image under `to_column` in row
  // `source` has code `from` are reached; returns how many.
  std::uint32_t pull_row(const RowDepths::Word* source, const std::uint16_t* to_column,
                         unsigned from, const std::uint64_t* open, std::uint64_t* reach) const {
    std::uint32_t found = 0;
    for (std::uint32_t k = 0; k < bit_words_; ++k) {
      std::uint64_t hit = 0;
      for (std::uint64_t bits = open[k] & ~reach[k]; bits != 0; bits &= bits - 1) {
        const int bit = std::countr_zero(bits);
        const std::uint32_t c = to_column[k * 64 + static_cast<std::uint32_t>(bit)];
        const auto code =
            static_cast<unsigned>(RowDepths::load(source + c / 32) >> (2 * (c % 32))) & 3U;
        hit |= std::uint64_t{code == from} << bit;
      }
      reach[k] |= hit;
      found += static_cast<std::uint32_t>(std::popcount(hit));
    }
    return found;
  }

  // The reached open states get code `to` (`open`: the row's open states
  // if read already); returns how many.
  std::uint32_t write_found(RowDepths::Word* row, const std::uint64_t* open,
                            const std::uint64_t* reach, unsigned to) const {
    std::uint32_t found = 0;
    for (std::uint32_t k = 0; k < bit_words_; ++k) {
      if (reach[k] == 0) continue;
      const std::uint64_t fresh = (open != nullptr ? open[k] : open_word(row, k)) & reach[k];
      if (fresh == 0) continue;
      found += static_cast<std::uint32_t>(std::popcount(fresh));
      const std::uint32_t w = 2 * k;
      RowDepths::store(row + w, RowDepths::load(row + w) | spread_to_even_bits(fresh) * to);
      if (w + 1 < words_)
        RowDepths::store(row + w + 1,
                         RowDepths::load(row + w + 1) | spread_to_even_bits(fresh >> 32) * to);
    }
    return found;
  }

  const S& space_;
  RowDepths& depths_;
  RowCodes codes_;
  int moves_;
  std::uint32_t words_;
  std::vector<int> inverse_;
  std::uint64_t last_mask_ = 0;
  std::vector<std::uint32_t> frontier_, next_, open_;
  std::vector<std::uint64_t> has_frontier_;  // a bit a row: frontier_[r] != 0 (fits in cache)
  std::vector<std::uint32_t> coded_;  // DepthMod3: [row * 3 + code - 1], states with each code
  std::uint32_t bit_words_;           // a row at one bit a column
  std::uint32_t network_words_ = 0;   // a network's words: the columns rounded up to 2^k
  double permute_cost_ = 0;           // nanoseconds, or infinite without networks
  struct Buffers {
    std::vector<std::uint64_t> open, reach, moved;
  };
  PerWorker<Buffers> buffers_;
};

inline constexpr std::size_t kGrainRowsTwoBit = 16;

}  // namespace detail

// BFS from `sources` (ranks, all at depth 0) over every reachable state.
template <RowSpace S>
RowBfsResult row_bfs(const S& space, std::span<const std::uint64_t> sources,
                     const RowBfsOptions& options = {}) {
  Stopwatch clock;
  RowBfsResult result;
  result.depths = RowDepths(space.rows(), space.columns());
  detail::RowLevels<S> state(space, result.depths, options.codes);
  std::uint64_t fresh = 0;
  for (std::uint64_t s : sources) fresh += state.add_source(s);
  RowLevel level{0, fresh, clock.seconds(), {}};
  const std::uint64_t states = std::uint64_t{space.rows()} * space.columns();
  std::atomic<std::uint64_t> rows_done{0};
  while (fresh != 0) {
    result.levels.push_back(level);
    result.reached += fresh;
    if (options.on_level) options.on_level(level);
    if (result.reached == states) break;  // nothing left to find

    clock.restart();
    PerWorker<RowLevelWork> work;
    const unsigned depth = level.depth;
    rows_done = 0;
    fresh = parallel_sum<std::uint64_t>(
        space.rows(), detail::kGrainRowsTwoBit, [&](std::size_t b, std::size_t e) {
          std::uint64_t sum = 0;
          RowLevelWork& local = work.local();
          for (auto p = static_cast<std::uint32_t>(b); p != e; ++p)
            sum += state.expand_row(p, depth, options.policy, local);
          if (options.on_progress) options.on_progress(rows_done += e - b);
          return sum;
        });
    if (fresh != 0) state.advance();  // else the frontier stays the last level
    RowLevelWork total;
    work.for_each([&](const RowLevelWork& w) { total += w; });
    level = RowLevel{depth + 1, fresh, clock.seconds(), total};
  }
  for (std::uint32_t r = 0; r < space.rows() && result.last_rows.size() < options.keep_last_rows; ++r)
    if (state.frontier(r) != 0) result.last_rows.push_back(r);
  return result;
}

}  // namespace cubenum::bfs
