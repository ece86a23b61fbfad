#pragma once
// Level-synchronous parallel BFS over a product space: a state is a pair
// (row, column), and every move acts on each coordinate alone,
//   move m: (r, c) -> (row_step(r, m), column_step(c, m)).
// The pocket cube is one (Kociemba's coordinates: a face turn's effect on
// the corner permutation ignores the twists, and the other way round).
//
// A row's columns are one bit each, padded to whole words: the pocket
// cube's 729 twists make a row of 12 words. Move m carries all of row q into
// row row_step(q, m), permuting the columns. A level is built row by row:
// the thread that owns row p collects p's new states from p's predecessor
// rows (one per move), so no word is written by two threads and no atomics
// are needed. For each (row, move) it takes the cheapest of three ways to the
// same set:
//   push (top-down):  map each frontier column of the predecessor row;
//   pull (bottom-up): look up each still-unvisited column of p in the
//                     predecessor row, at its image under the inverse move;
//   permute:          move the whole predecessor row at once through a
//                     Beneš network (core/bit_permutation.hpp), which costs
//                     the same however dense the row is.
//
// Move cycles. Where a move g of order n comes with all its powers g^2 ..
// g^(n-1) as moves (a face turn, its half turn and its inverse), the rows
// fall into cycles r_0, r_1 = r_0 g, ..., and each r_k receives
// sigma^j(F_{k-j}) from each r_{k-j} (sigma: g on the columns, F: the
// frontier). Then W_k = F_k + sigma(F_{k-1}) + ... + sigma^(n-1)(F_{k-n+1})
// satisfies W_{k+1} = sigma(W_k), because sigma^n is the identity: 2(n-1)
// row permutations serve the cycle's n(n-1) (row, move) pairs, instead of
// one permutation a pair. (F_k is already visited, so it adds nothing new.)
// When every move belongs to such a cycle family, dense levels are built
// family by family, each thread owning whole cycles.
//
// Every way finds the same states; the choice depends only on counts, so
// counts never depend on it or on the thread count.
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "cubenum/bfs/frontier_bfs.hpp"
#include "cubenum/core/bit_permutation.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/stopwatch.hpp"

namespace cubenum::bfs {

// rank = row * columns() + column. inverse(m) is the move that undoes m on
// both coordinates (the graph is undirected).
template <class S>
concept ProductSpace = requires(const S& space, std::uint32_t i, int m) {
  { space.rows() } -> std::convertible_to<std::uint32_t>;
  { space.columns() } -> std::convertible_to<std::uint32_t>;
  { space.moves() } -> std::convertible_to<int>;
  { space.row_step(i, m) } -> std::convertible_to<std::uint32_t>;
  { space.column_step(i, m) } -> std::convertible_to<std::uint32_t>;
  { space.inverse(m) } -> std::convertible_to<int>;
};

// One bit per (row, column), each row padded to whole words.
class RowBitmap {
 public:
  using Word = std::uint64_t;
  RowBitmap() = default;
  // All clear. The pages are mapped up front (MAP_POPULATE): a BFS reads
  // a row before it writes it, and untouched zero pages would fault twice,
  // once mapping the shared zero page and once copying it, from every
  // thread in turn (pocket cube, 2 threads: 4.7 -> 3.1 ms of system time).
  RowBitmap(std::uint32_t rows, std::uint32_t columns)
      : rows_(rows), columns_(columns), row_words_((columns + 63) / 64) {
    const std::size_t bytes = (std::size_t{rows} * row_words_ + 1) * sizeof(Word);
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    words_ = std::unique_ptr<Word[], Unmap>(static_cast<Word*>(p), Unmap{bytes});
  }

  std::uint32_t rows() const { return rows_; }
  std::uint32_t columns() const { return columns_; }
  std::uint32_t row_words() const { return row_words_; }
  Word* row(std::uint32_t r) { return words_.get() + std::size_t{r} * row_words_; }
  const Word* row(std::uint32_t r) const { return words_.get() + std::size_t{r} * row_words_; }
  bool test(std::uint32_t r, std::uint32_t c) const { return (row(r)[c / 64] >> (c % 64)) & 1U; }
  void set(std::uint32_t r, std::uint32_t c) { row(r)[c / 64] |= Word{1} << (c % 64); }

 private:
  struct Unmap {
    std::size_t bytes;  // (no default initializer: unique_ptr must see it default-constructible)
    void operator()(Word* p) const { munmap(p, bytes); }
  };
  std::uint32_t rows_ = 0, columns_ = 0, row_words_ = 0;
  std::unique_ptr<Word[], Unmap> words_;
};

// How a level was built: the (row, move) pairs served each way.
struct RowWork {
  std::uint64_t pushed = 0, pulled = 0, permuted = 0, cycled = 0;
  RowWork& operator+=(const RowWork& o) {
    pushed += o.pushed, pulled += o.pulled, permuted += o.permuted, cycled += o.cycled;
    return *this;
  }
};

struct ProductLevel {
  unsigned depth = 0;
  std::uint64_t states = 0;  // states first reached at this depth
  double seconds = 0;        // building this level from the one before
  RowWork work;              // how it was built (nothing for depth 0)
};

struct ProductBfsOptions {
  // TopDown: push only; BottomUp: pull only (both without move cycles);
  // Auto: the cheapest way for each row and move, or each cycle.
  DirectionPolicy policy = DirectionPolicy::Auto;
  // Called after each level with the level's states.
  std::function<void(const ProductLevel&, const RowBitmap& level)> on_level;
};

struct ProductBfsResult {
  std::vector<ProductLevel> levels;  // levels[d]: states at distance d
  std::uint64_t reached = 0;
  std::vector<std::uint64_t> distribution() const {
    std::vector<std::uint64_t> d;
    for (const auto& level : levels) d.push_back(level.states);
    return d;
  }
};

namespace detail {

// Runs build() on this thread while a worker maps a BFS's three planes
// (visited, frontier, next), all clear, which it returns: mapping the pages
// takes about as long as building the tables. (Through the parallel seam:
// a oneTBB task_group's hand-overs are invisible to ThreadSanitizer.)
template <class Build>
std::array<RowBitmap, 3> map_planes_while(std::uint32_t rows, std::uint32_t columns,
                                          Build&& build) {
  std::array<RowBitmap, 3> planes;
  std::exception_ptr failure;
  parallel_for_chunks(2, 1, [&](std::size_t job, std::size_t) {
    if (job == 1) {
      for (RowBitmap& plane : planes) plane = RowBitmap(rows, columns);
      return;
    }
    try {
      build();
    } catch (...) {  // rethrown below: a plain thread must not throw
      failure = std::current_exception();
    }
  });
  if (failure) std::rethrow_exception(failure);
  return planes;
}

// The cycles of move g on the rows (next_row[r * moves + m]: the row m
// takes r to), appended to `cycle_rows` one after another: r, g(r), ...
// Returns their common length, or 0 unless all have one length from 2 to
// max_length. Both row engines find their move families with it.
inline std::uint32_t row_cycles(const std::vector<std::uint32_t>& next_row, int moves, int g,
                                std::uint32_t max_length, std::vector<std::uint32_t>& cycle_rows) {
  const auto n_moves = static_cast<std::size_t>(moves);
  const auto rows = static_cast<std::uint32_t>(next_row.size() / n_moves);
  std::vector<bool> seen(rows, false);
  std::uint32_t order = 0;
  for (std::uint32_t start = 0; start < rows; ++start) {
    if (seen[start]) continue;
    std::uint32_t r = start, length = 0;
    do {
      seen[r] = true;
      cycle_rows.push_back(r);
      r = next_row[r * n_moves + static_cast<std::size_t>(g)];
      ++length;
    } while (r != start && length <= max_length);
    if (r != start || length < 2 || (order != 0 && length != order)) return 0;
    order = length;
  }
  return order;
}

// A move g of order n whose powers g^2 .. g^(n-1) are moves too.
struct MoveCycles {
  std::vector<int> powers;          // powers[j - 1]: the move g^j, j = 1 .. n-1
  std::vector<std::uint32_t> rows;  // the cycles of g on the rows, n rows each: r, r g, ...
  std::uint32_t order() const { return static_cast<std::uint32_t>(powers.size()) + 1; }
  std::size_t cycles() const { return rows.size() / order(); }
};

// A row permutation costs about as much as this many columns pushed or
// pulled one by one (measured on the pocket cube).
inline constexpr std::uint32_t kBitsPerPermute = 16;

inline constexpr std::uint32_t kMaxCycleOrder = 8;  // rows in a move cycle
inline constexpr std::uint32_t kMaxRowWords = 16;   // 1024 columns: the networks' registers

// The space's moves copied into flat tables laid out for the inner loops.
struct ProductTables {
  int moves = 0;
  std::uint32_t rows = 0, columns = 0;
  std::vector<std::uint32_t> source_row;  // [row * moves + m]: the row move m carries into row
  std::vector<std::uint16_t> forward;     // [m * columns + c]: column_step(c, m)
  std::vector<std::uint16_t> backward;    // [m * columns + c]: column_step(c, inverse(m))
  std::vector<MoveCycles> families;       // when every move is in one; else empty

  template <ProductSpace S>
  explicit ProductTables(const S& space)
      : moves(space.moves()), rows(space.rows()), columns(space.columns()) {
    if (columns > kMaxRowWords * 64) throw std::length_error("product_bfs: more than 1024 columns");
    const auto n_moves = static_cast<std::size_t>(moves);
    // The moves' row tables, [r * moves + m]: row_step(r, m), read once.
    std::vector<std::uint32_t> next_row(std::size_t{rows} * n_moves);
    for (std::uint32_t r = 0; r < rows; ++r)
      for (std::size_t m = 0; m < n_moves; ++m)
        next_row[r * n_moves + m] = space.row_step(r, static_cast<int>(m));
    source_row.resize(next_row.size());
    for (std::uint32_t r = 0; r < rows; ++r)
      for (std::size_t m = 0; m < n_moves; ++m)
        source_row[r * n_moves + m] =
            next_row[r * n_moves + static_cast<std::size_t>(space.inverse(static_cast<int>(m)))];
    forward.resize(std::size_t{columns} * n_moves);
    backward.resize(std::size_t{columns} * n_moves);
    for (std::size_t m = 0; m < n_moves; ++m)
      for (std::uint32_t c = 0; c < columns; ++c)
        forward[m * columns + c] =
            static_cast<std::uint16_t>(space.column_step(c, static_cast<int>(m)));
    for (std::size_t m = 0; m < n_moves; ++m)
      for (std::uint32_t c = 0; c < columns; ++c)
        backward[m * columns + c] =
            forward[static_cast<std::size_t>(space.inverse(static_cast<int>(m))) * columns + c];
    permute_ = std::vector<BitPermutation>(n_moves);
    routed_ = std::make_unique<std::once_flag[]>(n_moves);
    find_families(next_row);
    // The networks that dense levels use, routed now, in parallel: every
    // move's, or with move cycles only the generators'.
    std::vector<int> wanted;
    for (const MoveCycles& family : families) wanted.push_back(family.powers[0]);
    if (families.empty())
      for (int m = 0; m < moves; ++m) wanted.push_back(m);
    parallel_for_chunks(wanted.size(), 1, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i != end; ++i) permute(wanted[i]);
    });
  }

  // The network that moves a whole row's columns by m. Routing one takes
  // about 45 us (the looping algorithm); those not routed up front are
  // routed when first asked for.
  const BitPermutation& permute(int m) const {
    const auto i = static_cast<std::size_t>(m);
    std::call_once(routed_[i], [&] {
      const std::vector<std::uint32_t> to(
          forward.begin() + static_cast<std::ptrdiff_t>(i * columns),
          forward.begin() + static_cast<std::ptrdiff_t>((i + 1) * columns));
      permute_[i] = BitPermutation(to);
    });
    return permute_[i];
  }

 private:
  // Groups the moves into cycle families (see the top of the file), or
  // leaves `families` empty if some move is in none.
  void find_families(const std::vector<std::uint32_t>& next_row) {
    std::vector<bool> covered(static_cast<std::size_t>(moves), false);
    for (int g = 0; g < moves; ++g) {
      if (covered[static_cast<std::size_t>(g)]) continue;
      MoveCycles family;
      if (!powers_of(next_row, g, covered, family.powers) || family.powers.size() < 2 ||
          family.order() > kMaxCycleOrder ||
          row_cycles(next_row, moves, g, family.order(), family.rows) != family.order()) {
        families.clear();
        return;
      }
      for (int m : family.powers) covered[static_cast<std::size_t>(m)] = true;
      families.push_back(std::move(family));
    }
  }

  std::uint32_t row_after(const std::vector<std::uint32_t>& next_row, std::uint32_t r,
                          int m) const {
    return next_row[std::size_t{r} * static_cast<std::size_t>(moves) + static_cast<std::size_t>(m)];
  }
  std::uint32_t column_after(std::uint32_t c, int m) const {
    return forward[static_cast<std::size_t>(m) * columns + c];
  }

  // The moves g, g^2, ..., g^(n-1) up to g's order n, if all are moves not
  // yet covered (compared as row and column tables).
  bool powers_of(const std::vector<std::uint32_t>& next_row, int g,
                 const std::vector<bool>& covered, std::vector<int>& powers) const {
    std::vector<std::uint32_t> row_power(rows), column_power(columns);
    for (std::uint32_t r = 0; r < rows; ++r) row_power[r] = r;
    for (std::uint32_t c = 0; c < columns; ++c) column_power[c] = c;
    for (int j = 1; j <= moves + 1; ++j) {
      for (auto& r : row_power) r = row_after(next_row, r, g);
      for (auto& c : column_power) c = column_after(c, g);
      bool identity = true;
      for (std::uint32_t r = 0; r < rows && identity; ++r) identity = row_power[r] == r;
      for (std::uint32_t c = 0; c < columns && identity; ++c) identity = column_power[c] == c;
      if (identity) return true;
      int match = -1;
      for (int m = 0; m < moves && match < 0; ++m) {
        if (covered[static_cast<std::size_t>(m)]) continue;
        bool same = true;
        for (std::uint32_t r = 0; r < rows && same; ++r)
          same = row_after(next_row, r, m) == row_power[r];
        for (std::uint32_t c = 0; c < columns && same; ++c)
          same = column_after(c, m) == column_power[c];
        if (same) match = m;
      }
      if (match < 0) return false;
      powers.push_back(match);
    }
    return false;
  }

  mutable std::vector<BitPermutation> permute_;  // [m], see permute()
  std::unique_ptr<std::once_flag[]> routed_;
};

// The state a row engine keeps: the visited states, the frontier and the
// next frontier, and per row the frontier's and the next frontier's counts
// and the number of unvisited columns.
class RowPlanes {
 public:
  // `planes`: visited, frontier and next, all clear.
  RowPlanes(std::array<RowBitmap, 3> planes, std::uint32_t rows, std::uint32_t columns)
      : visited_(std::move(planes[0])),
        frontier_(std::move(planes[1])),
        next_(std::move(planes[2])),
        frontier_count_(rows, 0),
        next_count_(rows, 0),
        unvisited_(rows, columns) {}

  const RowBitmap& frontier() const { return frontier_; }

  // True if (row, column) was not yet a source.
  bool add_source(std::uint32_t row, std::uint32_t column) {
    if (visited_.test(row, column)) return false;
    visited_.set(row, column);
    frontier_.set(row, column);
    ++frontier_count_[row];
    --unvisited_[row];
    return true;
  }

  // The next frontier becomes the frontier.
  void advance() {
    std::swap(frontier_, next_);
    frontier_count_.swap(next_count_);
  }

 protected:
  std::uint32_t row_words() const { return visited_.row_words(); }

  // After every family: keeps row p's new states only, counts them and
  // marks them visited.
  std::uint32_t finish_row(std::uint32_t p) {
    std::uint64_t* seen = visited_.row(p);
    std::uint64_t* found = next_.row(p);
    std::uint32_t fresh = 0;
    for (std::uint32_t w = 0; w < row_words(); ++w) {
      found[w] &= ~seen[w];
      seen[w] |= found[w];
      fresh += static_cast<std::uint32_t>(std::popcount(found[w]));
    }
    unvisited_[p] -= fresh;
    next_count_[p] = fresh;
    return fresh;
  }

  // Row p of the next frontier still holds a level two back: empty it.
  void clear_next(std::uint32_t p) {
    if (next_count_[p] != 0) std::fill(next_.row(p), next_.row(p) + row_words(), 0);
  }

  RowBitmap visited_, frontier_, next_;
  std::vector<std::uint32_t> frontier_count_, next_count_;
  std::vector<std::uint32_t> unvisited_;
};

// The product engine's levels (see the top of the file).
class ProductLevels : public RowPlanes {
 public:
  ProductLevels(const ProductTables& tables, std::array<RowBitmap, 3> planes)
      : RowPlanes(std::move(planes), tables.rows, tables.columns), tables_(tables) {}

  // ---- row by row: every move of one row at a time

  // Fills row p of the next frontier; returns its number of states. Only
  // the thread that calls this for p writes p's words.
  std::uint32_t expand_row(std::uint32_t p, DirectionPolicy policy, RowWork& work) {
    std::uint64_t* out = next_.row(p);
    const std::uint32_t fresh =
        unvisited_[p] == 0 || !has_source(p) ? 0 : collect(p, policy, work, out);
    if (fresh == 0) clear_next(p);
    next_count_[p] = fresh;
    return fresh;
  }

  // ---- cycle by cycle: one family of moves at a time

  // Adds to the next frontier's rows of cycle `index` of `family` the states
  // its moves reach; the family given first overwrites what the rows held.
  // The family given last also counts the rows' new states, marks them
  // visited and returns how many (else 0).
  std::uint64_t expand_cycle(const MoveCycles& family, std::size_t index, bool first, bool last,
                             RowWork& work) {
    const std::uint32_t n = family.order();
    const std::uint32_t* rows = family.rows.data() + index * n;
    std::uint64_t sources = 0, unvisited = 0;
    for (std::uint32_t k = 0; k < n; ++k) {
      sources += frontier_count_[rows[k]];
      unvisited += unvisited_[rows[k]];
    }
    // Dense on both sides: the whole cycle through its network, its states
    // added to the next frontier as they come (visited ones too: finish_row
    // drops them). The model says a cycle pays from 2 kBitsPerPermute states
    // on either side; 1 measured faster (pocket cube HTM, level 7: 2.75 ->
    // 2.45 ms).
    if (std::min(sources, unvisited) > kBitsPerPermute) {
      cycle_through(family, rows, first);
      work.cycled += n * (n - 1);
      return last ? finish_rows(rows, n) : 0;
    }
    std::array<std::array<std::uint64_t, kMaxRowWords>, kMaxCycleOrder> open;
    std::uint64_t targets = 0;
    if (sources != 0 && unvisited != 0)
      for (std::uint32_t k = 0; k < n; ++k) targets += open_columns(rows[k], first, open[k].data());
    if (targets == 0) {  // nothing to find
      if (first)
        for (std::uint32_t k = 0; k < n; ++k) clear_next(rows[k]);
      return last ? finish_rows(rows, n) : 0;
    }
    const bool push = sources <= targets;
    for (std::uint32_t k = 0; k < n; ++k)
      for (std::uint32_t j = 1; j < n; ++j) {
        const std::uint32_t q = rows[(k + n - j) % n];
        const int m = family.powers[j - 1];
        if (frontier_count_[q] == 0) continue;
        if (push)
          push_row(q, m, open[k].data());
        else
          pull_row(q, m, open[k].data());
        ++(push ? work.pushed : work.pulled);
      }
    for (std::uint32_t k = 0; k < n; ++k) record_found(rows[k], first, open[k].data());
    return last ? finish_rows(rows, n) : 0;
  }

 private:
  std::uint64_t finish_rows(const std::uint32_t* rows, std::uint32_t n) {
    std::uint64_t fresh = 0;
    for (std::uint32_t k = 0; k < n; ++k) fresh += finish_row(rows[k]);
    return fresh;
  }

  // Whether some predecessor row of p has frontier states: in the sparse
  // early levels most rows have none, and looking costs less than reading
  // the row's visited words.
  bool has_source(std::uint32_t p) const {
    const std::uint32_t* sources =
        tables_.source_row.data() + std::size_t{p} * static_cast<std::size_t>(tables_.moves);
    std::uint32_t any = 0;
    for (int m = 0; m < tables_.moves; ++m) any |= frontier_count_[sources[m]];
    return any != 0;
  }

  std::uint32_t collect(std::uint32_t p, DirectionPolicy policy, RowWork& work,
                        std::uint64_t* out) {
    std::array<std::uint64_t, kMaxRowWords> open;
    open_columns(p, true, open.data());
    std::uint32_t left = unvisited_[p];
    for (int m = 0; m < tables_.moves && left != 0; ++m) {
      const std::uint32_t q =
          tables_.source_row[std::size_t{p} * static_cast<std::size_t>(tables_.moves) +
                             static_cast<std::size_t>(m)];
      const std::uint32_t from = frontier_count_[q];
      if (from == 0) continue;
      if (policy == DirectionPolicy::Auto && std::min(from, left) > kBitsPerPermute) {
        left -= permute_row(q, m, open.data());
        ++work.permuted;
      } else if (policy == DirectionPolicy::TopDown ||
                 (policy == DirectionPolicy::Auto && from <= left)) {
        left -= push_row(q, m, open.data());
        ++work.pushed;
      } else {
        left -= pull_row(q, m, open.data());
        ++work.pulled;
      }
    }
    const std::uint32_t fresh = unvisited_[p] - left;
    if (fresh == 0) return 0;
    std::uint64_t* seen = visited_.row(p);
    for (std::uint32_t w = 0; w < row_words(); ++w) {
      out[w] = ~seen[w] & valid(w) & ~open[w];
      seen[w] |= out[w];
    }
    unvisited_[p] = left;
    return fresh;
  }

  // The columns of row p not visited and, unless `first`, not already in
  // the next frontier; returns how many.
  std::uint32_t open_columns(std::uint32_t p, bool first, std::uint64_t* open) const {
    const std::uint64_t* seen = visited_.row(p);
    const std::uint64_t* found = next_.row(p);
    std::uint32_t count = 0;
    for (std::uint32_t w = 0; w < row_words(); ++w) {
      open[w] = ~seen[w] & valid(w) & (first ? ~std::uint64_t{0} : ~found[w]);
      count += static_cast<std::uint32_t>(std::popcount(open[w]));
    }
    return count;
  }

  // The next frontier's row p gets the columns that left `open` since
  // open_columns (added to what it holds, unless `first`).
  void record_found(std::uint32_t p, bool first, const std::uint64_t* open) {
    const std::uint64_t* seen = visited_.row(p);
    std::uint64_t* found = next_.row(p);
    for (std::uint32_t w = 0; w < row_words(); ++w) {
      const std::uint64_t before = first ? 0 : found[w];
      found[w] = before | (~seen[w] & valid(w) & ~before & ~open[w]);
    }
  }

  // The whole family at once: W_0 by Horner's rule, then W_k = sigma(W_{k-1});
  // W_k goes into row k of the next frontier (replacing it when `first`).
  void cycle_through(const MoveCycles& family, const std::uint32_t* rows, bool first) {
    const std::uint32_t n = family.order(), words = row_words();
    const BitPermutation& sigma = tables_.permute(family.powers[0]);
    std::array<std::uint64_t, kMaxRowWords> reach;
    sigma.apply(frontier_.row(rows[1]), words, reach.data());  // sigma(F_1)
    for (std::uint32_t j = 2; j <= n; ++j) {
      const std::uint64_t* f = frontier_.row(rows[j % n]);
      for (std::uint32_t w = 0; w < words; ++w) reach[w] |= f[w];
      if (j < n) sigma.apply(reach.data(), sigma.words(), reach.data());
    }
    // reach = W_0 (F_1 went through sigma n - 1 times, F_0 none).
    for (std::uint32_t k = 0; k < n; ++k) {
      if (k != 0) sigma.apply(reach.data(), sigma.words(), reach.data());
      std::uint64_t* found = next_.row(rows[k]);
      for (std::uint32_t w = 0; w < words; ++w) found[w] = (first ? 0 : found[w]) | reach[w];
    }
  }

  // The columns of frontier row q, moved by m, leave `open`; returns how
  // many of them were open.
  std::uint32_t push_row(std::uint32_t q, int m, std::uint64_t* open) const {
    const std::uint16_t* step =
        tables_.forward.data() + static_cast<std::size_t>(m) * tables_.columns;
    const std::uint64_t* from = frontier_.row(q);
    std::uint32_t found = 0;
    for (std::uint32_t w = 0; w < row_words(); ++w)
      for (std::uint64_t bits = from[w]; bits != 0; bits &= bits - 1) {
        const std::uint32_t c = step[w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits))];
        const std::uint64_t mask = std::uint64_t{1} << (c % 64);
        found += (open[c / 64] & mask) != 0 ? 1 : 0;
        open[c / 64] &= ~mask;
      }
    return found;
  }

  // The open columns whose image under m's inverse is in frontier row q
  // leave `open`; returns how many.
  std::uint32_t pull_row(std::uint32_t q, int m, std::uint64_t* open) const {
    const std::uint16_t* step =
        tables_.backward.data() + static_cast<std::size_t>(m) * tables_.columns;
    const std::uint64_t* from = frontier_.row(q);
    std::uint32_t found = 0;
    for (std::uint32_t w = 0; w < row_words(); ++w) {
      std::uint64_t hit = 0;
      for (std::uint64_t bits = open[w]; bits != 0; bits &= bits - 1) {
        const int b = std::countr_zero(bits);
        const std::uint32_t c = step[w * 64 + static_cast<std::uint32_t>(b)];
        hit |= ((from[c / 64] >> (c % 64)) & 1U) << b;
      }
      open[w] &= ~hit;
      found += static_cast<std::uint32_t>(std::popcount(hit));
    }
    return found;
  }

  // Frontier row q moved as a whole by m; its columns leave `open`.
  std::uint32_t permute_row(std::uint32_t q, int m, std::uint64_t* open) const {
    std::array<std::uint64_t, kMaxRowWords> moved;
    tables_.permute(m).apply(frontier_.row(q), row_words(), moved.data());
    std::uint32_t found = 0;
    for (std::uint32_t w = 0; w < row_words(); ++w) {
      found += static_cast<std::uint32_t>(std::popcount(moved[w] & open[w]));
      open[w] &= ~moved[w];
    }
    return found;
  }

  // The bits of word w of a row that are columns.
  std::uint64_t valid(std::uint32_t w) const {
    const std::uint32_t first = w * 64;
    return tables_.columns - first >= 64 ? ~std::uint64_t{0}
                                         : (std::uint64_t{1} << (tables_.columns - first)) - 1;
  }

  const ProductTables& tables_;
};

inline constexpr std::size_t kGrainRows = 64;
inline constexpr std::size_t kGrainCycles = 16;

// Whether to build a level family by family: when the moves form cycle
// families and the rows are dense enough, on both sides, for whole-cycle
// permutations to pay for the extra passes over the rows they need.
inline bool by_cycles(const ProductTables& tables, DirectionPolicy policy, std::uint64_t frontier,
                      std::uint64_t unvisited) {
  const std::uint64_t dense = std::uint64_t{tables.rows} * kBitsPerPermute / 4;
  return !tables.families.empty() && policy == DirectionPolicy::Auto &&
         std::min(frontier, unvisited) > dense;
}

// One level of a row engine (this one, shift_bfs.hpp): the next frontier's
// states, built row by row or family by family; returns how many.
template <class Tables, class Levels>
std::uint64_t expand_level(const Tables& tables, Levels& state, DirectionPolicy policy, bool cycles,
                           RowWork& total) {
  PerWorker<RowWork> work;
  std::uint64_t fresh = 0;
  if (!cycles) {
    fresh = parallel_sum<std::uint64_t>(tables.rows, kGrainRows, [&](std::size_t b, std::size_t e) {
      std::uint64_t sum = 0;
      RowWork& local = work.local();
      for (auto p = static_cast<std::uint32_t>(b); p != e; ++p)
        sum += state.expand_row(p, policy, local);
      return sum;
    });
  } else {
    const std::size_t families = tables.families.size();
    for (std::size_t f = 0; f < families; ++f) {
      const auto& family = tables.families[f];
      const bool first = f == 0, last = f + 1 == families;
      fresh = parallel_sum<std::uint64_t>(
          family.cycles(), kGrainCycles, [&](std::size_t b, std::size_t e) {
            std::uint64_t sum = 0;
            RowWork& local = work.local();
            for (std::size_t i = b; i != e; ++i)
              sum += state.expand_cycle(family, i, first, last, local);
            return sum;
          });
    }
  }
  work.for_each([&](const RowWork& w) { total += w; });
  state.advance();
  return fresh;
}

// The level loop of a row engine: `sources` (row * columns + column) at
// depth 0, then a level at a time until one finds nothing or nothing is
// left; by_cycles(frontier, unvisited) says how to build the next one.
template <class Tables, class Levels, class ByCycles>
ProductBfsResult run_levels(const Tables& tables, Levels& state, std::uint32_t columns,
                            std::span<const std::uint64_t> sources,
                            const ProductBfsOptions& options, Stopwatch& clock,
                            ByCycles&& by_cycles) {
  std::uint64_t fresh = 0;
  for (std::uint64_t s : sources)
    fresh += state.add_source(static_cast<std::uint32_t>(s / columns),
                              static_cast<std::uint32_t>(s % columns));
  ProductBfsResult result;
  ProductLevel level{0, fresh, clock.seconds(), {}};
  const std::uint64_t states = std::uint64_t{tables.rows} * columns;
  while (fresh != 0) {
    result.levels.push_back(level);
    result.reached += fresh;
    if (options.on_level) options.on_level(level, state.frontier());
    if (result.reached == states) break;  // nothing left to find

    clock.restart();
    RowWork work;
    const bool cycles = by_cycles(fresh, states - result.reached);
    fresh = expand_level(tables, state, options.policy, cycles, work);
    level = ProductLevel{level.depth + 1, fresh, clock.seconds(), work};
  }
  return result;
}

}  // namespace detail

// BFS from `sources` (ranks, all at depth 0) over every reachable state.
// Rows may have at most 1024 columns.
template <ProductSpace S>
ProductBfsResult product_bfs(const S& space, std::span<const std::uint64_t> sources,
                             const ProductBfsOptions& options = {}) {
  Stopwatch clock;
  std::optional<const detail::ProductTables> built;
  auto planes =
      detail::map_planes_while(space.rows(), space.columns(), [&] { built.emplace(space); });
  const detail::ProductTables& tables = *built;
  detail::ProductLevels state(tables, std::move(planes));
  return detail::run_levels(tables, state, tables.columns, sources, options, clock,
                            [&](std::uint64_t frontier, std::uint64_t unvisited) {
                              return detail::by_cycles(tables, options.policy, frontier, unvisited);
                            });
}

}  // namespace cubenum::bfs
