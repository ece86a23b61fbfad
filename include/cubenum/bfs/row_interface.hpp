#pragma once
// The row engine's interface (row_bfs.hpp): the concepts a space meets, the
// options of a run, and the levels and result it reports.
#include <concepts>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cubenum/bfs/frontier_interface.hpp"
#include "cubenum/bfs/row_families.hpp"
#include "cubenum/bfs/row_storage.hpp"
#include "cubenum/core/checkpoint.hpp"

namespace cubenum::bfs {

// action(r, m)[c]: the column that move m takes column c of row r to, in
// row row_step(r, m); inverse(m) undoes m.
template <class S>
concept RowSpace = requires(const S& space, std::uint32_t r, int m) {
  { space.rows() } -> std::convertible_to<std::uint32_t>;
  { space.columns() } -> std::convertible_to<std::uint32_t>;
  { space.moves() } -> std::convertible_to<int>;
  { space.inverse(m) } -> std::convertible_to<int>;
  { space.row_step(r, m) } -> std::convertible_to<std::uint32_t>;
  { space.action(r, m) } -> std::convertible_to<const std::uint16_t*>;
};

// A space whose moves' inverses depend on the row (a space of symmetry
// classes: a move's inverse, conjugated by the symmetry that took its
// image to its class's least) says which: return_move(r, m) takes row
// row_step(r, m) back to r, through a permutation of the columns that
// undoes action(r, m) up to closed(r) below. Row r's states are then
// gathered from row_step(r, m), for each m.
template <class S>
concept ReturnMoves = RowSpace<S> && requires(const S& space, std::uint32_t r, int m) {
  { space.return_move(r, m) } -> std::convertible_to<int>;
};

// A space may keep rows whose states are closed under a group of column
// permutations (a class of symmetry classes fixed by some symmetries:
// every state of the row's positions is kept, not only the least): a
// closed(r) row's new states are gathered whole, then close_row(r, bits)
// adds their images before they are recorded. A push through return_move
// may bring a state's image in place of the state.
template <class S>
concept ClosedRows = RowSpace<S> && requires(const S& space, std::uint32_t r, Word* bits) {
  { space.closed(r) } -> std::convertible_to<bool>;
  space.close_row(r, bits);
};

// A space may name its column permutations: action_id(r, m) is equal for
// equal permutations (kIdentityAction for none), and permute(id, in, out)
// applies one to a whole row, a bit a column, in permute_words() words
// (at least the row's), taking about permute_nanoseconds().
template <class S>
concept PermutableRows = RowSpace<S> &&
    requires(const S& space, std::uint32_t r, int m, const Word* in, Word* out) {
  { space.action_id(r, m) } -> std::convertible_to<std::uint32_t>;
  space.permute(std::uint32_t{0}, in, out);
  { space.permute_words() } -> std::convertible_to<std::uint32_t>;
  { space.permute_nanoseconds() } -> std::convertible_to<double>;
};

// A space may say which moves are powers of which (row_families.hpp's
// MovePower): its dense levels are then built by sweeps around the rows'
// cycles.
template <class S>
concept PoweredMoves = PermutableRows<S> && requires(const S& space, int m) {
  { space.move_power(m) } -> std::convertible_to<MovePower>;
};

struct RowWork {
  std::uint64_t pushed = 0, pulled = 0, permuted = 0, cycled = 0;  // (row, move) pairs each way
  RowWork& operator+=(const RowWork& o) {
    pushed += o.pushed, pulled += o.pulled, permuted += o.permuted, cycled += o.cycled;
    return *this;
  }
  // The "method" column of the BFS tables: the way that served most pairs,
  // with its share when others served some ("push 99%"); empty for none.
  std::string method() const {
    const std::pair<std::uint64_t, const char*> ways[] = {
        {pushed, "push"}, {pulled, "pull"}, {permuted, "permute"}, {cycled, "cycles"}};
    std::uint64_t total = 0;
    auto best = ways[0];
    for (const auto& way : ways) {
      total += way.first;
      if (way.first > best.first) best = way;
    }
    if (total == 0) return "";
    if (best.first == total) return best.second;
    return std::string(best.second) + " " + std::to_string(best.first * 100 / total) + "%";
  }
};

struct RowLevel {
  unsigned depth = 0;
  std::uint64_t states = 0;  // first reached at this depth
  double seconds = 0;        // building this level from the one before
  RowWork work;
};

// A level's states, for on_level: row r as a bit a column (`scratch`: room
// for a row).
class LevelRows {
 public:
  using Read = std::function<const Word*(std::uint32_t, Word*)>;
  LevelRows(const std::vector<std::uint32_t>& counts, Read read)
      : counts_(counts), read_(std::move(read)) {}
  std::uint32_t count(std::uint32_t r) const { return counts_[r]; }
  const Word* row(std::uint32_t r, Word* scratch) const { return read_(r, scratch); }

 private:
  const std::vector<std::uint32_t>& counts_;
  Read read_;
};

struct RowBfsOptions {
  // TopDown: push only; BottomUp: pull only (both row by row); Auto: the
  // cheapest way for each row and move, or each cycle.
  DirectionPolicy policy = DirectionPolicy::Auto;
  // Two-bit storage: depth mod 3 of every state (shortest paths), or the
  // frontier told apart exactly (a push from DepthMod3's code also pushes
  // the states three levels back, which add nothing).
  RowCodes codes = RowCodes::DepthMod3;
  // Called after each level, with its states when the storage tells them
  // apart (PlaneRows, Frontier codes).
  std::function<void(const RowLevel&, const LevelRows&)> on_level;
  // Called now and then during a level, from any thread, with the rows done.
  std::function<void(std::uint64_t rows_done)> on_progress;
  // Rows of the last level's states to keep (for finding antipodes).
  std::size_t keep_last_rows = 0;
  // Every level by cycles (sweeps or families) where the space has them,
  // whatever the cost model says (for tests).
  bool always_cycles = false;
  // Checkpoints (two-bit storage only): the boundary between two levels is
  // saved at most every checkpoint_every seconds, and when should_stop
  // (asked between levels: a level writes its states into the table, so it
  // cannot be dropped half way) says to stop; the result then says
  // `stopped`. `resume`: go on from the boundary it holds.
  CheckpointWriter* checkpoint = nullptr;
  double checkpoint_every = 60;
  const CheckpointReader* resume = nullptr;
  std::function<bool()> should_stop;
  // What the caller keeps of the levels so far (on_level's findings), saved
  // with each checkpoint and handed back on resume.
  std::function<CheckpointJson()> save_extra;
  std::function<void(const CheckpointJson&)> resume_extra;
};

struct RowBfsResult {
  std::vector<RowLevel> levels;  // levels[d]: states at distance d
  std::uint64_t reached = 0;
  std::optional<RowDepths> depths;       // two-bit storage with DepthMod3 codes
  std::vector<std::uint32_t> last_rows;  // up to keep_last_rows rows with states of the last level
  std::vector<std::uint64_t> distribution() const {
    std::vector<std::uint64_t> d;
    for (const auto& level : levels) d.push_back(level.states);
    return d;
  }
  unsigned max_depth() const { return static_cast<unsigned>(levels.size()) - 1; }
  bool stopped = false;  // by should_stop, with a checkpoint saved
};

}  // namespace cubenum::bfs
