#pragma once
// The polycube engine's searcher (private to src/search, included by
// voxel_cover.cpp alone): the model's tables for W words, and the search of
// one subtree: the lowest undecided cell filled first, pockets cut.
#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <climits>
#include <cstdint>
#include <functional>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "cubenum/core/byte_io.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/word_bits.hpp"
#include "cubenum/search/tally_codec.hpp"
#include "voxel_cover_model.hpp"

namespace cubenum::search {

namespace {  // as in voxel_cover.cpp, the one file that includes this

// A region next to a new placement is checked if it closes within this
// many steps of growth: the small pockets, which are the ones that die;
// the large region is left (a whole flood cuts hardly more nodes and costs
// more time).
constexpr int kRegionSteps = 5;

struct Tally {
  std::uint64_t raw = 0, rotations = 0, symmetries = 0;  // the last two times the group orders
  std::uint64_t nodes = 0;
  // Subtrees this run stopped inside, and finished (not saved: a ledger
  // knows its finished subtrees).
  std::uint64_t stopped = 0, finished = 0;
  Tally& operator+=(const Tally& o) {
    raw += o.raw, rotations += o.rotations, symmetries += o.symmetries, nodes += o.nodes;
    stopped += o.stopped, finished += o.finished;
    return *this;
  }

  // For checkpoints: the format's name, then the four numbers.
  static constexpr std::uint32_t kFormat = tally_format("PCTY");
  std::vector<std::byte> encode() const {
    ByteWriter w;
    put_tally_format(w, kFormat);
    for (const std::uint64_t v : {raw, rotations, symmetries, nodes}) w.put(v);
    return std::move(w.out);
  }
  static Tally decode(std::span<const std::byte> bytes, const std::string& source) {
    ByteReader r(bytes, source, "a polycube tally");
    get_tally_format(r, {kFormat}, source, "a polycube tally");
    Tally t;
    t.raw = r.get<std::uint64_t>();
    t.rotations = r.get<std::uint64_t>();
    t.symmetries = r.get<std::uint64_t>();
    t.nodes = r.get<std::uint64_t>();
    if (!r.done()) throw InputError(source, 0, "a polycube tally runs on (corrupt)");
    return t;
  }
};

// A subtree: the decisions from the root (a placement, or -1: the cell
// chosen next stays empty).
using Prefix = std::vector<int>;

// The model's tables for W words, shared by the workers.
template <int W>
struct Tables {
  struct Entry {
    Bits<W> mask;
    int placement;
  };
  std::vector<std::vector<Entry>> by_lowest;  // the placements whose lowest cell it is, by piece
  struct Run {
    int piece, begin, end;  // by_lowest[c][begin, end) are this piece's
  };
  std::vector<std::vector<Run>> runs;
  std::vector<Bits<W>> masks;
  Bits<W> start, variable, inside;
  // For the regions: per axis, the stride and the cells that have a
  // neighbour above / below along it.
  std::array<int, 3> stride{};
  std::array<Bits<W>, 3> has_up{}, has_down{};
  // Every piece's size when they are all alike (else 0), and whether the
  // pieces fill the target exactly (no counting of what is left needed).
  int piece_size = 0;
  bool exact = true;
  // The pieces used, as digits of one number: piece p's digit has weight
  // used_radix[p] (empty: the number would not fit in 64 bits).
  std::vector<std::uint64_t> used_radix;
  // Sets of placements, for the search that fills the cell with the fewest
  // ways (CellChoice::fewest_fits), as bitsets of set_words words: by
  // cell, the placements covering it; by piece, its own. set_words 0: the
  // search fills the lowest undecided cell.
  int set_words = 0;
  std::vector<std::uint64_t> covering, of_piece;
  // By placement, the placements it leaves no room for (the union of its
  // cells' sets: one set to take out instead of one a cell), where all of
  // them take at most 32 MiB (else empty).
  std::vector<std::uint64_t> clashing;
  // The placements of the pieces that may be placed, as the words of
  // their set that are not zero and their places (Searcher::fit_words_).
  std::vector<std::uint64_t> root_words;
  std::vector<std::uint16_t> root_index;

  Tables(const VoxelCover::Model& m, CellChoice choice) {
    for (std::size_t p = 0; p < m.piece.size(); ++p)
      masks.push_back(Bits<W>::from(m.mask(static_cast<int>(p)), m.words));
    if (choice == CellChoice::fewest_fits)
      make_placement_sets(m);
    else
      index_by_lowest(m);
    start = Bits<W>::from(m.outside.data(), m.words);
    variable = Bits<W>::from(m.variable.data(), m.words);
    for (int c = m.cells; c < 64 * W; ++c) start.flip(c);  // beyond the box: decided
    for (int c = 0; c < m.cells; ++c) inside.flip(c);
    piece_size = m.size.front();
    long volume = 0;  // (a piece may have millions of cubes: no wrap)
    for (std::size_t p = 0; p < m.size.size(); ++p) {
      if (m.size[p] != piece_size) piece_size = 0;
      if (m.min_count[p] != m.max_count[p]) exact = false;
      volume += long{m.size[p]} * m.max_count[p];
    }
    exact = exact && variable.none() && volume == (~start).count();
    std::uint64_t weight = 1;
    for (std::size_t p = 0; p < m.size.size() && weight != 0; ++p) {
      used_radix.push_back(weight);
      const auto digits = static_cast<std::uint64_t>(m.max_count[p]) + 1;
      weight = weight > (std::uint64_t{1} << 62) / digits ? 0 : weight * digits;
    }
    if (weight == 0) used_radix.clear();
    for (int a = 0; a < 3; ++a) {
      stride[a] = m.stride[a];
      for (int c = 0; c < m.cells; ++c) {
        const Voxel v = m.voxel_of[c];
        if (v[a] + 1 < m.low[a] + m.extent[a]) has_up[a].flip(c);
        if (v[a] > m.low[a]) has_down[a].flip(c);
      }
    }
  }

  void index_by_lowest(const VoxelCover::Model& m) {
    by_lowest.resize(m.cells);
    runs.resize(m.cells);
    for (int p = 0; p < static_cast<int>(m.piece.size()); ++p) {  // placements come by piece
      auto& entries = by_lowest[m.lowest[p]];
      auto& cell_runs = runs[m.lowest[p]];
      if (cell_runs.empty() || cell_runs.back().piece != m.piece[p])
        cell_runs.push_back(
            {m.piece[p], static_cast<int>(entries.size()), static_cast<int>(entries.size())});
      entries.push_back({masks[p], p});
      ++cell_runs.back().end;
    }
  }

  // Calls f(c) for each cell of placement p.
  template <class F>
  void for_cells(int p, F&& f) const {
    for (int i = 0; i < W; ++i)
      for (std::uint64_t w = masks[p].w[i]; w != 0; w &= w - 1) f(i * 64 + std::countr_zero(w));
  }

  void make_placement_sets(const VoxelCover::Model& m) {
    const auto n = static_cast<int>(m.piece.size());
    set_words = std::max(1, (n + 63) / 64);  // (0 would mean the lowest cell's search)
    const auto words = static_cast<std::size_t>(set_words);
    covering.assign(std::size_t(m.cells) * words, 0);
    of_piece.assign(m.names.size() * words, 0);
    std::vector<std::uint64_t> root(words, 0);
    for (int p = 0; p < n; ++p) {
      const std::uint64_t bit = std::uint64_t{1} << (p % 64);
      of_piece[std::size_t(m.piece[p]) * words + p / 64] |= bit;
      for_cells(p, [&](int c) { covering[std::size_t(c) * words + p / 64] |= bit; });
      if (m.max_count[m.piece[p]] > 0) root[p / 64] |= bit;
    }
    if (double(n) * double(words) * 8 <= double(1 << 25)) {
      clashing.assign(std::size_t(n) * words, 0);
      for (int p = 0; p < n; ++p)
        for_cells(p, [&](int c) {
          for (std::size_t i = 0; i < words; ++i)
            clashing[std::size_t(p) * words + i] |= covering[std::size_t(c) * words + i];
        });
    }
    for (std::size_t i = 0; i < words; ++i)
      if (root[i] != 0) {
        root_words.push_back(root[i]);
        root_index.push_back(static_cast<std::uint16_t>(i));
      }
  }
};

template <int W>
class Searcher {
 public:
  Searcher(const VoxelCover::Model& m, const Tables<W>& t, std::function<bool()> stop)
      : m_(m), t_(t), stop_(std::move(stop)), used_(m.names.size(), 0) {
    decided_ = t.start;
    for (std::size_t p = 0; p < m.names.size(); ++p) {
      capacity_ += long{m.max_count[p]} * m.size[p];
      required_ += long{m.min_count[p]} * m.size[p];
    }
    if (t.set_words > 0) start_fits();
  }

  // Replays a prefix from the root; the pieces it fixed first (Model::
  // fixing) say how many raw assemblies each one found stands for.
  void apply(const Prefix& prefix) {
    for (const int d : prefix) {
      if (d >= 0)
        place(d);
      else
        leave_empty(choose_cell());
    }
    orbit_ = m_.weight(prefix);
  }

  // The prefixes one decision longer (`leaf`: none, the assembly is whole).
  void children(std::vector<Prefix>& out, const Prefix& prefix, bool& leaf) {
    const int c = choose_cell();
    leaf = c < 0;
    if (leaf) return;
    for_each_move(c, [&](int move) {
      Prefix longer = prefix;
      longer.push_back(move);
      out.push_back(std::move(longer));
    });
  }

  // Searches below the current state into `tally`; false if stopped.
  // `on_assembly`, if given, gets each assembly (with whether its mirror
  // image is an assembly too) instead of the tally, or beside it where
  // `count_too`.
  bool search(Tally& tally,
              const std::function<void(const std::vector<int>&, bool)>& on_assembly = {},
              bool count_too = false) {
    tally_ = &tally;
    on_assembly_ = on_assembly;
    count_too_ = count_too;
    stopped_ = stop_ && stop_();
    if (!stopped_) dfs();
    return !stopped_;
  }

  // Whether no assembly can follow, now that the cells `changed` are
  // decided: the pieces left are too few or too many for the cells left,
  // or a region of cells next to them cannot be filled.
  bool dead(const Bits<W>& changed) const {
    if (!t_.exact) {
      const int fixed_left = (~decided_ & t_.inside & ~t_.variable).count();
      const int open_left = (~decided_ & t_.inside).count();
      if (capacity_ < fixed_left || required_ > open_left) return true;
    }
    // With the sets, a pocket no piece fits is found at the next node (a
    // cell with no way); looking for pockets first pays only where it is
    // cheap, on one word: on several it costs more time than it saves.
    if (W > 1 && t_.set_words > 0) return false;
    return dead_region(changed);
  }

 private:
  void place(int p) {
    const int piece = m_.piece[p];
    decided_ = decided_ | t_.masks[p];
    if (used_[piece] < m_.min_count[piece]) required_ -= m_.size[piece];
    ++used_[piece];
    capacity_ -= m_.size[piece];
    if (!t_.used_radix.empty()) used_key_ += t_.used_radix[piece];
    stack_.push_back(p);
    if (t_.set_words > 0) narrow_fits(p);
  }
  void unplace(int p) {
    const int piece = m_.piece[p];
    stack_.pop_back();
    if (t_.set_words > 0) --depth_;
    if (!t_.used_radix.empty()) used_key_ -= t_.used_radix[piece];
    capacity_ += m_.size[piece];
    --used_[piece];
    if (used_[piece] < m_.min_count[piece]) required_ += m_.size[piece];
    decided_ = decided_ ^ t_.masks[p];
  }
  // The cell to fill next (-1: none left): the lowest undecided one, or
  // with the placement sets, the one with the fewest ways (the lowest of
  // those). (Without the sets, choosing among the first cells the one that
  // the fewest placements fit by testing each placement, or the one with the
  // fewest open neighbours, or cutting where a cell next to a new placement
  // can no longer be filled, searches fewer nodes but takes longer;
  // results/polycube.md.)
  int choose_cell() const {
    if (t_.set_words > 0) return fewest_fits_cell();
    const int c = decided_.lowest_clear();
    return c < m_.cells ? c : -1;
  }

  // ---- the placement sets (Tables::set_words > 0)

  void start_fits() {
    fit_count_.assign(16, 0);  // depths, grown as the search goes deeper
    fit_words_.resize(fit_count_.size() * t_.set_words);
    fit_index_.resize(fit_words_.size());
    fit_count_[0] = static_cast<int>(t_.root_words.size());
    std::copy(t_.root_words.begin(), t_.root_words.end(), fit_words_.begin());
    std::copy(t_.root_index.begin(), t_.root_index.end(), fit_index_.begin());
  }

  // The placements that still fit after placement p: none over its cells,
  // none of its piece if that was the last of it.
  void narrow_fits(int p) {
    gone_.clear();
    if (!t_.clashing.empty())
      gone_.push_back(t_.clashing.data() + std::size_t(p) * t_.set_words);
    else
      t_.for_cells(p, [&](int c) { gone_.push_back(covering(c)); });
    const int piece = m_.piece[p];
    if (used_[piece] >= m_.max_count[piece])
      gone_.push_back(t_.of_piece.data() + std::size_t(piece) * t_.set_words);
    narrow_fits_by_gone();
  }
  // ... after cell c is left empty: none over it.
  void narrow_fits_by_cell(int c) {
    gone_.assign(1, covering(c));
    narrow_fits_by_gone();
  }
  // The next depth's set: this one's without the sets in gone_.
  void narrow_fits_by_gone() {
    if (std::size_t(depth_) + 2 > fit_count_.size()) {
      fit_count_.resize(2 * fit_count_.size());
      fit_words_.resize(fit_count_.size() * t_.set_words);
      fit_index_.resize(fit_words_.size());
    }
    // Through local pointers: a store through a vector's element may alias
    // the vectors themselves, and every access would load them again.
    const std::size_t from = std::size_t(depth_) * t_.set_words, to = from + t_.set_words;
    std::uint64_t* words = fit_words_.data();
    std::uint16_t* index = fit_index_.data();
    const std::uint64_t* const* gone = gone_.data();
    const std::size_t n_gone = gone_.size();
    const int n = fit_count_[depth_];
    int kept = 0;
    for (int j = 0; j < n; ++j) {
      const std::uint16_t i = index[from + j];
      std::uint64_t w = words[from + j];
      for (std::size_t q = 0; q < n_gone; ++q) w &= ~gone[q][i];
      index[to + kept] = i;
      words[to + kept] = w;
      kept += w != 0 ? 1 : 0;
    }
    fit_count_[++depth_] = kept;
  }
  const std::uint64_t* covering(int c) const {
    return t_.covering.data() + std::size_t(c) * t_.set_words;
  }

  // Cell c stays empty (it may), and the move undone.
  void leave_empty(int c) {
    decided_.flip(c);
    if (t_.set_words > 0) narrow_fits_by_cell(c);
  }
  void fill_again(int c) {
    if (t_.set_words > 0) --depth_;
    decided_.flip(c);
  }

  // The open cell with the fewest ways to decide it (the placements that
  // fit it, and leaving it empty if it may be), the lowest of those. The
  // placements that fit are few (on the Bedlam cube, 70 a node on average):
  // each adds its cells to counts kept as bit planes over the cells, up to
  // kPlanes; only where every open cell has more are they counted one by one.
  int fewest_fits_cell() const {
    const Bits<W> open = ~decided_ & t_.inside;
    if (open.none()) return -1;
    constexpr int kPlanes = 4;
    std::array<Bits<W>, kPlanes> at_least{};  // [k]: the cells with k + 1 ways or more
    at_least[0] = open & t_.variable;
    const std::size_t from = std::size_t(depth_) * t_.set_words;
    for (int j = 0; j < fit_count_[depth_]; ++j)
      for (std::uint64_t fit = fit_words_[from + j]; fit != 0; fit &= fit - 1) {
        const Bits<W>& cells = t_.masks[fit_index_[from + j] * 64 + std::countr_zero(fit)];
        for (int k = kPlanes - 1; k > 0; --k) at_least[k] = at_least[k] | (at_least[k - 1] & cells);
        at_least[0] = at_least[0] | cells;
      }
    for (int k = 0; k < kPlanes; ++k)
      if (const Bits<W> fewest = open & ~at_least[k]; !fewest.none()) return fewest.lowest_set();
    int best = -1, fewest = INT_MAX;
    for (int i = 0; i < W; ++i)
      for (std::uint64_t cells = open.w[i]; cells != 0; cells &= cells - 1) {
        const int c = i * 64 + std::countr_zero(cells);
        const int n = fits_at(c, fewest) + (t_.variable.test(c) ? 1 : 0);
        if (n < fewest) best = c, fewest = n;
      }
    return best;
  }

  // How many placements that fit cover cell c (counting stops at limit).
  int fits_at(int c, int limit) const {
    const std::size_t from = std::size_t(depth_) * t_.set_words;
    const std::uint64_t* cover = covering(c);
    int n = 0;
    for (int j = 0; j < fit_count_[depth_] && n < limit; ++j)
      n += std::popcount(fit_words_[from + j] & cover[fit_index_[from + j]]);
    return n;
  }

  // Calls move(p) for each placement that fills cell c and keeps the
  // rules, then move(-1) if c may stay empty.
  template <class Move>
  void for_each_move(int c, Move&& move) {
    if (t_.set_words > 0) {
      const std::size_t from = std::size_t(depth_) * t_.set_words;
      const std::uint64_t* cover = covering(c);
      for (int j = 0; j < fit_count_[depth_]; ++j)
        for (std::uint64_t fit = fit_words_[from + j] & cover[fit_index_[from + j]]; fit != 0;
             fit &= fit - 1) {
          const int p = fit_index_[from + j] * 64 + std::countr_zero(fit);
          place(p);
          if (!dead(t_.masks[p])) move(p);
          unplace(p);
        }
    } else {
      const auto* entries = t_.by_lowest[c].data();
      for (const auto& run : t_.runs[c]) {
        if (used_[run.piece] >= m_.max_count[run.piece]) continue;  // the whole run
        for (int i = run.begin; i < run.end; ++i) {
          const auto& e = entries[i];
          if (e.mask.intersects(decided_)) continue;
          place(e.placement);
          if (!dead(e.mask)) move(e.placement);
          unplace(e.placement);
        }
      }
    }
    if (t_.variable.test(c)) {
      leave_empty(c);
      Bits<W> cell;
      cell.flip(c);
      if (!dead(cell)) move(-1);
      fill_again(c);
    }
  }

  void dfs() {
    const int c = choose_cell();
    if (c < 0) return leaf();
    if ((++tally_->nodes & 0x3ff) == 0 && stop_ && stop_()) stopped_ = true;
    if (stopped_) return;
    for_each_move(c, [&](int) { dfs(); });
  }

  void leaf() {
    for (std::size_t p = 0; p < used_.size(); ++p)
      if (used_[p] < m_.min_count[p]) return;
    std::vector<int> a = stack_;
    std::sort(a.begin(), a.end());
    const bool mirrored = m_.reflections() && mirror_is_assembly();
    if (on_assembly_) {
      on_assembly_(a, mirrored);
      if (!count_too_) return;
    }
    // Orbit counting: this assembly stands for `orbit` raw ones; each
    // class is counted by |stabiliser| / |group| per raw assembly. The
    // group has the reflections only where the mirror image is an
    // assembly too: the rest count twice their rotations' stabiliser (of
    // half the order).
    int rotations = 0, all = 0;
    for (int k = 0; k < (mirrored ? m_.group_order() : m_.rotation_order); ++k) {
      bool keeps = true;
      for (const int p : a)
        if (!std::binary_search(a.begin(), a.end(), m_.perm[k][p])) {
          keeps = false;
          break;
        }
      if (keeps) ++all, rotations += k < m_.rotation_order ? 1 : 0;
    }
    if (m_.reflections() && !mirrored) all = 2 * rotations;
    tally_->raw += orbit_;
    tally_->rotations += orbit_ * rotations;
    tally_->symmetries += orbit_ * all;
  }

  // Whether the current assembly's mirror image is an assembly: every
  // piece in it has a mirror image among the pieces, within its counts.
  bool mirror_is_assembly() const {
    if (m_.mirror) return true;
    std::vector<int> mirrored(used_.size(), 0);
    for (std::size_t t = 0; t < used_.size(); ++t) {
      if (used_[t] == 0) continue;
      if (m_.mirror_of[t] < 0) return false;
      mirrored[m_.mirror_of[t]] += used_[t];
    }
    for (std::size_t t = 0; t < used_.size(); ++t)
      if (mirrored[t] < m_.min_count[t] || mirrored[t] > m_.max_count[t]) return false;
    return true;
  }

  // A closed pocket of undecided cells next to those just decided, none of
  // which may stay empty, that the pieces left cannot fill: not a multiple
  // of the pieces' one size, or no sum of the sizes left.
  bool dead_region(const Bits<W>& changed) const {
    // (The regions away from them were checked before.)
    Bits<W> open = ~decided_ & t_.inside;
    Bits<W> seeds = grown(changed) & open;
    while (!seeds.none()) {
      Bits<W> region;
      region.flip(seeds.lowest_set());
      bool closed = false;
      for (int step = 0; step < kRegionSteps && !closed; ++step) {
        const Bits<W> larger = grown(region) & open;
        closed = larger == region;
        region = larger;
      }
      seeds = seeds & ~region;
      if (!closed || region.intersects(t_.variable)) continue;
      const int n = region.count();
      if (t_.piece_size > 0 ? n % t_.piece_size != 0 : !sum_of_pieces_left(n)) return true;
    }
    return false;
  }

  // Whether the pieces left (as many of each as may still be placed) have
  // sizes that add up to n (pieces of several sizes: the Bedlam cube's
  // pockets of 6 to 8 cells, which neither 4 nor 5 fills). Worked out only
  // for a closed pocket, which few nodes have.
  bool sum_of_pieces_left(int n) const {
    if (n < 64 && !t_.used_radix.empty()) {
      SmallSums& known = small_sums_[used_key_ % small_sums_.size()];
      if (known.key != used_key_) known = {used_key_, small_sums()};
      return known.sums >> n & 1;
    }
    std::bitset<kMaxCoverCells + 1> sums;
    sums.set(0);
    for (std::size_t p = 0; p < used_.size(); ++p)
      for (int k = used_[p]; k < m_.max_count[p] && !sums.test(n); ++k) sums |= sums << m_.size[p];
    return sums.test(n);
  }
  // Bit n: whether the pieces left have sizes that add up to n < 64.
  std::uint64_t small_sums() const {
    std::uint64_t sums = 1;
    for (std::size_t p = 0; p < used_.size(); ++p)
      for (int k = used_[p]; k < m_.max_count[p] && m_.size[p] < 64; ++k)
        sums |= sums << m_.size[p];
    return sums;
  }

  // The cells and their neighbours.
  Bits<W> grown(const Bits<W>& cells) const {
    Bits<W> r = cells;
    if constexpr (W == 1) {  // plain shifts (the general ones cross words)
      const std::uint64_t c = cells.w[0];
      std::uint64_t g = c;
      for (int a = 0; a < 3; ++a)
        g |= (c & t_.has_up[a].w[0]) << t_.stride[a] | (c & t_.has_down[a].w[0]) >> t_.stride[a];
      r.w[0] = g;
      return r;
    }
    for (int a = 0; a < 3; ++a)
      r = r | (cells & t_.has_up[a]).shifted_up(t_.stride[a]) |
          (cells & t_.has_down[a]).shifted_down(t_.stride[a]);
    return r;
  }

  const VoxelCover::Model& m_;
  const Tables<W>& t_;
  std::function<bool()> stop_;
  Bits<W> decided_;
  std::vector<int> used_;
  std::vector<int> stack_;
  long capacity_ = 0, required_ = 0;
  // The pieces used as one number (Tables::used_radix), and the sums of
  // the pieces left worked out for such numbers (sum_of_pieces_left).
  std::uint64_t used_key_ = 0;
  struct SmallSums {
    std::uint64_t key = ~std::uint64_t{0}, sums = 0;
  };
  mutable std::array<SmallSums, 256> small_sums_{};
  // By depth (placements made), the placements that fit, as the words of
  // their set that are not zero: fit_count_[depth] words and their places.
  std::vector<std::uint64_t> fit_words_;
  std::vector<std::uint16_t> fit_index_;
  std::vector<int> fit_count_;
  int depth_ = 0;
  std::vector<const std::uint64_t*> gone_;  // (narrow_fits' sets that leave)
  Tally* tally_ = nullptr;
  std::function<void(const std::vector<int>&, bool)> on_assembly_;
  bool count_too_ = false;
  bool stopped_ = false;
  std::uint64_t orbit_ = 1;
};

}  // namespace

}  // namespace cubenum::search
