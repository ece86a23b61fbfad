#pragma once
// What the row engine (row_bfs.hpp) keeps per state, in rows of whole
// words: the two storage policies it runs on.
//
//   TwoBitRows: two bits a state (Korf's two-bit BFS): 0 unseen, else
//     1 + depth mod 3, which is also the depth table that walks shortest
//     paths; or, with Frontier codes, 1 the frontier, 2 found this level,
//     3 older. The least memory: what spaces of billions of states need.
//   PlaneRows: three bitplanes (visited, frontier, next), a bit a state:
//     the frontier and the open states are read as they are, with no
//     decoding. The fastest, for spaces whose three bits fit.
//
// Both answer the same questions about a row (its frontier states one by
// one or as a bitset, its open states as a bitset) and take a row's new
// states as a bitset. Only the thread that records a row writes it; other
// threads may read it meanwhile, and what they look for (the frontier)
// does not change during a level.
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <span>
#include <vector>

#include "cubenum/core/huge_pages.hpp"
#include "cubenum/core/parallel.hpp"

namespace cubenum::bfs {

using Word = std::uint64_t;

// Words mapped from the system, zeroed. `populate` maps every page up front
// (a BFS that reads rows before it writes them would otherwise fault each
// page twice, once for the shared zero page and once to copy it); else
// pages are mapped when first touched, as huge pages where the system
// gives them.
class MappedWords {
 public:
  MappedWords() = default;
  MappedWords(std::size_t words, bool populate)
      : bytes_(std::max<std::size_t>(words, 1) * sizeof(Word)) {
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0), -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    // Huge pages for big tables (fewer faults); a small one would be zeroed
    // whole at its first touch.
    if (!populate) advise_huge_pages(p, bytes_);
    words_ = std::unique_ptr<Word[], Unmap>(static_cast<Word*>(p), Unmap{bytes_});
  }
  Word* data() { return words_.get(); }
  const Word* data() const { return words_.get(); }
  std::size_t bytes() const { return bytes_; }

 private:
  struct Unmap {
    std::size_t bytes;
    void operator()(Word* p) const { munmap(p, bytes); }
  };
  std::size_t bytes_ = 0;
  std::unique_ptr<Word[], Unmap> words_;
};

inline Word load_word(const Word* w) {
  return std::atomic_ref<const Word>(*w).load(std::memory_order_relaxed);
}
inline void store_word(Word* w, Word value) {
  std::atomic_ref<Word>(*w).store(value, std::memory_order_relaxed);
}

// One bit per (row, column), each row padded to whole words.
class RowBitmap {
 public:
  RowBitmap() = default;
  RowBitmap(std::uint32_t rows, std::uint32_t columns, bool populate = true)
      : rows_(rows),
        columns_(columns),
        row_words_((columns + 63) / 64),
        words_(std::size_t{rows} * row_words_, populate) {}

  std::uint32_t rows() const { return rows_; }
  std::uint32_t columns() const { return columns_; }
  std::uint32_t row_words() const { return row_words_; }
  Word* row(std::uint32_t r) { return words_.data() + std::size_t{r} * row_words_; }
  const Word* row(std::uint32_t r) const { return words_.data() + std::size_t{r} * row_words_; }
  bool test(std::uint32_t r, std::uint32_t c) const { return (row(r)[c / 64] >> (c % 64)) & 1U; }
  void set(std::uint32_t r, std::uint32_t c) { row(r)[c / 64] |= Word{1} << (c % 64); }
  std::size_t bytes() const { return words_.bytes(); }

 private:
  std::uint32_t rows_ = 0, columns_ = 0, row_words_ = 0;
  MappedWords words_;
};

// Two bits per state, in rows of whole words (32 states a word): 0 unseen,
// else 1 + depth mod 3 (a depth table), as TwoBitRows leaves it.
class RowDepths {
 public:
  RowDepths() = default;
  RowDepths(std::uint32_t rows, std::uint32_t columns)
      : rows_(rows),
        columns_(columns),
        row_words_((columns + 31) / 32),
        words_(std::size_t{rows} * row_words_, false) {}

  std::uint32_t rows() const { return rows_; }
  std::uint32_t columns() const { return columns_; }
  std::uint32_t row_words() const { return row_words_; }
  std::size_t bytes() const { return std::size_t{rows_} * row_words_ * sizeof(Word); }
  Word* row(std::uint32_t r) { return words_.data() + std::size_t{r} * row_words_; }
  const Word* row(std::uint32_t r) const { return words_.data() + std::size_t{r} * row_words_; }
  Word* data() { return words_.data(); }
  const Word* data() const { return words_.data(); }

  // 0 unseen, else 1 + depth mod 3.
  unsigned code(std::uint32_t r, std::uint32_t c) const {
    return static_cast<unsigned>(load_word(row(r) + c / 32) >> (2 * (c % 32))) & 3U;
  }
  // Depth mod 3 of `rank`, or -1 if unseen.
  int depth_mod3(std::uint64_t rank) const {
    return static_cast<int>(code(static_cast<std::uint32_t>(rank / columns_),
                                 static_cast<std::uint32_t>(rank % columns_))) -
           1;
  }

 private:
  std::uint32_t rows_ = 0, columns_ = 0, row_words_ = 0;
  MappedWords words_;
};

namespace detail {

inline constexpr Word kLowBits = 0x5555555555555555ULL;

// Bit 2i set where entry i of a two-bit word equals `code`.
inline Word entries_equal(Word word, unsigned code) {
  const Word same = ~(word ^ (kLowBits * code));
  return same & (same >> 1) & kLowBits;
}

// Bits 0, 2, ... 62 of x as bits 0..31, and back.
inline Word gather_even_bits(Word x) {
  x &= kLowBits;
  x = (x | x >> 1) & 0x3333333333333333ULL;
  x = (x | x >> 2) & 0x0F0F0F0F0F0F0F0FULL;
  x = (x | x >> 4) & 0x00FF00FF00FF00FFULL;
  x = (x | x >> 8) & 0x0000FFFF0000FFFFULL;
  return (x | x >> 16) & 0x00000000FFFFFFFFULL;
}
inline Word spread_to_even_bits(Word x) {
  x &= 0x00000000FFFFFFFFULL;
  x = (x | x << 16) & 0x0000FFFF0000FFFFULL;
  x = (x | x << 8) & 0x00FF00FF00FF00FFULL;
  x = (x | x << 4) & 0x0F0F0F0F0F0F0F0FULL;
  x = (x | x << 2) & 0x3333333333333333ULL;
  return (x | x << 1) & kLowBits;
}

// The bits of word w of a row that are columns.
inline Word valid_bits(std::uint32_t columns, std::uint32_t w) {
  const std::uint32_t first = w * 64;
  return columns - first >= 64 ? ~Word{0} : (Word{1} << (columns - first)) - 1;
}

}  // namespace detail

// What the two bits of a state say (TwoBitRows).
enum class RowCodes : std::uint8_t {
  DepthMod3,  // 0 unseen, else 1 + depth mod 3: the result is a depth table
  Frontier,   // 0 unseen, 1 the frontier, 2 found this level, 3 older
};

class TwoBitRows {
 public:
  TwoBitRows(std::uint32_t rows, std::uint32_t columns, RowCodes codes)
      : codes_(codes), table_(rows, columns), bit_words_((columns + 63) / 64) {
    const std::uint32_t tail = columns % 32;
    last_mask_ = tail == 0 ? detail::kLowBits : detail::kLowBits & ((Word{1} << (2 * tail)) - 1);
    if (codes_ == RowCodes::DepthMod3) coded_.assign(std::size_t{rows} * 3, 0);
    const std::uint32_t blocks = (table_.row_words() + kBlockWords - 1) / kBlockWords;
    mark_words_ = (blocks + 63) / 64;
    for (auto& marks : marks_) marks.assign(std::size_t{rows} * mark_words_, 0);
  }

  std::uint32_t rows() const { return table_.rows(); }
  std::uint32_t columns() const { return table_.columns(); }
  std::uint32_t bit_words() const { return bit_words_; }
  // Words read to scan the frontier of a row with `sources` states: only
  // the blocks of words that the last level wrote to are read.
  std::uint32_t scan_words(std::uint32_t sources) const {
    return std::min(table_.row_words(), mark_words_ + kBlockWords * sources);
  }
  RowCodes codes() const { return codes_; }
  const RowDepths& depths() const { return table_; }
  RowDepths take_depths() { return std::move(table_); }

  // The level being built is depth + 1.
  void begin_level(unsigned depth) {
    from_ = codes_ == RowCodes::Frontier ? 1 : 1 + depth % 3;
    to_ = codes_ == RowCodes::Frontier ? 2 : 1 + (depth + 1) % 3;
  }

  bool add_source(std::uint32_t r, std::uint32_t c) {
    if (table_.code(r, c) != 0) return false;
    Word* w = table_.row(r) + c / 32;
    store_word(w, load_word(w) | Word{1} << (2 * (c % 32)));
    if (!coded_.empty()) ++coded_[std::size_t{r} * 3];
    mark(marks_[frontier_marks_], r, c / 32);
    return true;
  }

  // Asks the memory for row q's frontier: a level reads its rows in
  // scattered order, a few hundred bytes each (3p1: 552).
  void prefetch(std::uint32_t q) const {
    const Word* row = table_.row(q);
    const std::uint32_t words = std::min<std::uint32_t>(table_.row_words(), 64 * kBlockWords);
    for (std::uint32_t w = 0; w < words; w += 8) __builtin_prefetch(row + w);
    __builtin_prefetch(marks_[frontier_marks_].data() + std::size_t{q} * mark_words_);
  }

  // State (p, c) joins the next level if it is open; returns whether.
  bool claim(std::uint32_t p, std::uint32_t c) {
    Word* w = table_.row(p) + c / 32;
    const unsigned shift = 2 * (c % 32);
    const Word word = load_word(w);
    if (((word >> shift) & 3U) != 0) return false;
    store_word(w, word | Word{to_} << shift);
    if (!coded_.empty()) ++coded_[std::size_t{p} * 3 + to_ - 1];
    mark(marks_[1 - frontier_marks_], p, c / 32);
    return true;
  }

  // The states a push from row q reads: the frontier's code, which older
  // levels share with DepthMod3 codes.
  std::uint32_t push_sources(std::uint32_t q, std::uint32_t frontier) const {
    return coded_.empty() ? frontier : coded_[std::size_t{q} * 3 + from_ - 1];
  }

  // Only the blocks of words that the frontier's level wrote to are read
  // (the whole row where a quarter of its blocks or more are marked).
  template <class Visit>
  void for_each_frontier(std::uint32_t q, Visit&& visit) const {
    const Word* row = table_.row(q);
    const Word* marks = marks_[frontier_marks_].data() + std::size_t{q} * mark_words_;
    const std::uint32_t words = table_.row_words();
    const auto scan = [&](std::uint32_t first, std::uint32_t end) {
      for (std::uint32_t w = first; w < end; ++w)
        for (Word bits = detail::entries_equal(load_word(row + w), from_); bits != 0;
             bits &= bits - 1)
          visit(w * 32 + static_cast<std::uint32_t>(std::countr_zero(bits)) / 2);
    };
    std::uint32_t marked = 0;
    for (std::uint32_t m = 0; m < mark_words_; ++m)
      marked += static_cast<std::uint32_t>(std::popcount(marks[m]));
    if (marked * kBlockWords * 4 >= words) return scan(0, words);
    for (std::uint32_t m = 0; m < mark_words_; ++m)
      for (Word blocks = marks[m]; blocks != 0; blocks &= blocks - 1) {
        const std::uint32_t first =
            (m * 64 + static_cast<std::uint32_t>(std::countr_zero(blocks))) * kBlockWords;
        scan(first, std::min(words, first + kBlockWords));
      }
  }
  bool in_frontier(std::uint32_t q, std::uint32_t c) const { return table_.code(q, c) == from_; }

  // Row q's frontier (or a level's states, between levels) as a bit a column.
  const Word* frontier_row(std::uint32_t q, Word* scratch) const {
    return bits_of(q, from_, scratch);
  }
  void open_row(std::uint32_t p, Word* out) const { bits_of(p, 0, out); }

  // Row p's states in `found` (all open) get the next level's code;
  // returns how many.
  std::uint32_t record(std::uint32_t p, const Word* found) {
    Word* row = table_.row(p);
    std::uint32_t count = 0;
    const std::uint32_t words = table_.row_words();
    std::vector<Word>& next_marks = marks_[1 - frontier_marks_];
    for (std::uint32_t k = 0; k < bit_words_; ++k) {
      const Word fresh = found[k];
      if (fresh == 0) continue;
      mark(next_marks, p, 2 * k);
      if (fresh >> 32 != 0 && 2 * k + 1 < words) mark(next_marks, p, 2 * k + 1);
      count += static_cast<std::uint32_t>(std::popcount(fresh));
      store_word(row + 2 * k, load_word(row + 2 * k) | detail::spread_to_even_bits(fresh) * to_);
      if (2 * k + 1 < words)
        store_word(row + 2 * k + 1,
                   load_word(row + 2 * k + 1) | detail::spread_to_even_bits(fresh >> 32) * to_);
    }
    if (!coded_.empty()) coded_[std::size_t{p} * 3 + to_ - 1] += count;
    return count;
  }

  // Cycles (row_bfs.hpp): a family's states for row p, open or not; what is
  // new is recorded at once (`open`: room for a row). finish() has nothing
  // left to do.
  std::uint32_t gather(std::uint32_t p, Word* found, Word* open) {
    open_row(p, open);
    for (std::uint32_t k = 0; k < bit_words_; ++k) found[k] &= open[k];
    return record(p, found);
  }
  std::uint32_t finish(std::uint32_t) { return 0; }

  // Checkpoints (row_bfs.hpp), between levels: the table. After it is
  // written back, restored() counts each row's codes and marks the blocks
  // holding the frontier (level `depth`) again.
  std::span<std::byte> table_bytes() {
    return {reinterpret_cast<std::byte*>(table_.data()), table_.bytes()};
  }
  void restored(unsigned depth) {
    const unsigned from = codes_ == RowCodes::Frontier ? 1 : 1 + depth % 3;
    clear(marks_[1 - frontier_marks_]);
    parallel_for_chunks(rows(), 256, [&](std::size_t b, std::size_t e) {
      for (auto r = static_cast<std::uint32_t>(b); r != e; ++r) {
        mark_code(marks_[frontier_marks_], r, from);
        if (coded_.empty()) continue;
        for (unsigned code = 1; code <= 3; ++code)
          coded_[std::size_t{r} * 3 + code - 1] = count(r, code);
      }
    });
  }
  // Row r's states with `code` (0: the open ones).
  std::uint32_t count(std::uint32_t r, unsigned code) const {
    const Word* row = table_.row(r);
    std::uint32_t n = 0;
    for (std::uint32_t w = 0; w < table_.row_words(); ++w) {
      Word bits = detail::entries_equal(load_word(row + w), code);
      if (w + 1 == table_.row_words()) bits &= last_mask_;
      n += static_cast<std::uint32_t>(std::popcount(bits));
    }
    return n;
  }

  // The level is done; `frontier` and `found` hold the rows' counts of the
  // last level and of this one (Frontier codes: 1 -> 3 and 2 -> 1 in the
  // rows that have either).
  void end_level(const std::vector<std::uint32_t>& frontier,
                 const std::vector<std::uint32_t>& found) {
    // The level's marks become the frontier's, and the next level's start
    // empty.
    frontier_marks_ = 1 - frontier_marks_;
    clear(marks_[1 - frontier_marks_]);
    if (codes_ != RowCodes::Frontier) return;
    parallel_for_chunks(rows(), 256, [&](std::size_t b, std::size_t e) {
      for (auto r = static_cast<std::uint32_t>(b); r != e; ++r) {
        if ((frontier[r] | found[r]) == 0) continue;
        Word* row = table_.row(r);
        for (std::uint32_t w = 0; w < table_.row_words(); ++w) {
          const Word x = load_word(row + w);
          const Word old = detail::entries_equal(x, 1), fresh = detail::entries_equal(x, 2);
          if ((old | fresh) != 0) store_word(row + w, (x | old << 1) ^ fresh * 3);
        }
      }
    });
  }

 private:
  // The row's entries with `code`, a bit a column (code 0: the open ones).
  const Word* bits_of(std::uint32_t r, unsigned code, Word* out) const {
    const Word* row = table_.row(r);
    const std::uint32_t words = table_.row_words();
    for (std::uint32_t k = 0; k < bit_words_; ++k) {
      const std::uint32_t w = 2 * k;
      Word low = detail::entries_equal(load_word(row + w), code);
      Word high = w + 1 < words ? detail::entries_equal(load_word(row + w + 1), code) : 0;
      if (code == 0 && w + 1 == words) low &= last_mask_;
      if (code == 0 && w + 2 == words) high &= last_mask_;
      out[k] = detail::gather_even_bits(low) | detail::gather_even_bits(high) << 32;
    }
    return out;
  }

  // The block of word w of row r has states of the level (a bit a block of
  // kBlockWords words): a sparse row's frontier is found without reading
  // the whole row. marks_[frontier_marks_]: the frontier's; the other:
  // the level being built.
  static constexpr std::uint32_t kBlockWords = 8;
  void mark(std::vector<Word>& marks, std::uint32_t r, std::uint32_t w) {
    const std::uint32_t block = w / kBlockWords;
    Word& m = marks[std::size_t{r} * mark_words_ + block / 64];
    const Word bit = Word{1} << (block % 64);
    if ((m & bit) == 0) m |= bit;  // one thread owns row r's marks
  }
  static void clear(std::vector<Word>& marks) {
    parallel_for_chunks(marks.size(), 1 << 16, [&](std::size_t b, std::size_t e) {
      std::fill(marks.begin() + static_cast<std::ptrdiff_t>(b),
                marks.begin() + static_cast<std::ptrdiff_t>(e), 0);
    });
  }
  // Row r's marks: the blocks holding `code`.
  void mark_code(std::vector<Word>& marks, std::uint32_t r, unsigned code) {
    std::fill_n(marks.begin() + static_cast<std::ptrdiff_t>(std::size_t{r} * mark_words_),
                mark_words_, 0);
    const Word* row = table_.row(r);
    for (std::uint32_t w = 0; w < table_.row_words(); ++w)
      if (detail::entries_equal(load_word(row + w), code) != 0) mark(marks, r, w);
  }

  RowCodes codes_;
  RowDepths table_;
  std::uint32_t bit_words_;
  std::uint32_t mark_words_ = 1;
  std::array<std::vector<Word>, 2> marks_;
  int frontier_marks_ = 0;
  Word last_mask_ = 0;
  unsigned from_ = 1, to_ = 2;
  std::vector<std::uint32_t> coded_;  // DepthMod3: [row * 3 + code - 1], states with each code
};

class PlaneRows {
 public:
  // The three planes, all clear; see map_while in row_bfs.hpp.
  PlaneRows(std::uint32_t rows, std::uint32_t columns)
      : visited_(rows, columns), frontier_(rows, columns), next_(rows, columns), stamp_(rows, 0) {}

  std::uint32_t rows() const { return visited_.rows(); }
  std::uint32_t columns() const { return visited_.columns(); }
  std::uint32_t bit_words() const { return visited_.row_words(); }
  std::uint32_t scan_words(std::uint32_t) const { return visited_.row_words(); }

  void begin_level(unsigned depth) { level_ = depth + 1; }

  bool add_source(std::uint32_t r, std::uint32_t c) {
    if (visited_.test(r, c)) return false;
    visited_.set(r, c);
    frontier_.set(r, c);
    return true;
  }

  std::uint32_t push_sources(std::uint32_t, std::uint32_t frontier) const { return frontier; }

  void prefetch(std::uint32_t q) const {
    const Word* row = frontier_.row(q);
    for (std::uint32_t w = 0; w < bit_words(); w += 8) __builtin_prefetch(row + w);
  }

  // State (p, c) joins the next level if it is open; returns whether.
  bool claim(std::uint32_t p, std::uint32_t c) {
    if (visited_.test(p, c)) return false;
    if (stamp_[p] != level_) {
      std::fill_n(next_.row(p), bit_words(), 0);
      stamp_[p] = level_;
    }
    visited_.set(p, c);
    next_.set(p, c);
    return true;
  }

  template <class Visit>
  void for_each_frontier(std::uint32_t q, Visit&& visit) const {
    const Word* row = frontier_.row(q);
    for (std::uint32_t w = 0; w < bit_words(); ++w)
      for (Word bits = row[w]; bits != 0; bits &= bits - 1)
        visit(w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)));
  }
  bool in_frontier(std::uint32_t q, std::uint32_t c) const { return frontier_.test(q, c); }

  const Word* frontier_row(std::uint32_t q, Word*) const { return frontier_.row(q); }
  void open_row(std::uint32_t p, Word* out) const {
    const Word* seen = visited_.row(p);
    for (std::uint32_t w = 0; w < bit_words(); ++w)
      out[w] = ~seen[w] & detail::valid_bits(columns(), w);
  }

  // Row p's states in `found` (all open) join the next level; returns how
  // many. A row's first record of a level overwrites what its next row
  // held two levels back.
  std::uint32_t record(std::uint32_t p, const Word* found) {
    Word* next = next_.row(p);
    Word* seen = visited_.row(p);
    const bool first = stamp_[p] != level_;
    stamp_[p] = level_;
    std::uint32_t count = 0;
    for (std::uint32_t w = 0; w < bit_words(); ++w) {
      next[w] = first ? found[w] : next[w] | found[w];
      seen[w] |= found[w];
      count += static_cast<std::uint32_t>(std::popcount(found[w]));
    }
    return count;
  }

  // Cycles (row_bfs.hpp): each family adds its states for row p, seen or
  // not, to p's next row; finish() keeps the new ones, marks them visited
  // and returns how many.
  std::uint32_t gather(std::uint32_t p, const Word* found, Word*) {
    Word* next = next_.row(p);
    const bool first = stamp_[p] != level_;
    stamp_[p] = level_;
    for (std::uint32_t w = 0; w < bit_words(); ++w) next[w] = first ? found[w] : next[w] | found[w];
    return 0;
  }
  std::uint32_t finish(std::uint32_t p) {
    if (stamp_[p] != level_) return 0;
    Word* next = next_.row(p);
    Word* seen = visited_.row(p);
    std::uint32_t count = 0;
    for (std::uint32_t w = 0; w < bit_words(); ++w) {
      next[w] &= ~seen[w];
      seen[w] |= next[w];
      count += static_cast<std::uint32_t>(std::popcount(next[w]));
    }
    return count;
  }

  void end_level(const std::vector<std::uint32_t>&, const std::vector<std::uint32_t>&) {
    std::swap(frontier_, next_);
  }

  // A row of the frontier holds stale states unless recorded in the level
  // that made it the frontier: the engine reads only rows it counted.

 private:
  RowBitmap visited_, frontier_, next_;
  std::vector<unsigned> stamp_;  // the level a row of `next_` was last recorded in
  unsigned level_ = 0;
};

}  // namespace cubenum::bfs
