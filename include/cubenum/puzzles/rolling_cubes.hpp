#pragma once
// Rolling cubes (docs/PUZZLES.md): an R x C grid of
// R*C-1 cubes and one empty cell. A cube has a black face, the opposite face
// coloured and four gray faces, so 6 orientations:
//   0 black up, 1 colour up, 2..5 gray up with black facing N, E, S, W.
// A move rolls a cube next to the empty cell over its edge into it; the move
// is named by the direction the cube travels (U = north, row 0 is north).
//
// Perfect rank: empty_cell * 6^(R*C-1) + the cubes' orientations read as a
// base-6 numeral in cell order (the first cube is the most significant
// digit). Moving the empty cell sideways changes one digit; moving it
// vertically rotates a window of C digits, so a state's neighbours lie close
// to it in rank order: the BFS below streams through its bitmaps.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cubenum/bfs/depth_table.hpp"
#include "cubenum/bfs/frontier_bfs.hpp"
#include "cubenum/core/atomic_bitmap.hpp"
#include "cubenum/core/checkpoint.hpp"

namespace cubenum::rolling {

inline constexpr unsigned kOrientations = 6;
inline constexpr unsigned kMaxCells = 12;
inline constexpr std::int8_t kEmptyCell = -1;

// Direction the moved cube travels.
enum class Roll : std::uint8_t { Up, Down, Left, Right };
inline constexpr std::array<Roll, 4> kRolls = {Roll::Up, Roll::Down, Roll::Left, Roll::Right};
inline constexpr std::string_view kRollLetters = "UDLR";
// The rolls as their letters ("UULD").
std::string roll_letters(const std::vector<Roll>& moves);

// kRollTable[roll][orientation]: the orientation after rolling one cell.
// Rolling north the top face goes to the north side, so black up (0) becomes
// black north (2); black north (2) goes down, colour comes up (1); black
// south (4) comes up (0); black east/west (3, 5) roll parallel and stay.
inline constexpr std::array<std::array<std::uint8_t, 6>, 4> kRollTable = {{
    {2, 4, 1, 3, 0, 5},  // Up (north)
    {4, 2, 0, 3, 1, 5},  // Down (south)
    {5, 3, 2, 0, 4, 1},  // Left (west)
    {3, 5, 2, 1, 4, 0},  // Right (east)
}};

inline std::uint8_t roll(std::uint8_t orientation, Roll r) {
  return kRollTable[static_cast<unsigned>(r)][orientation];
}
Roll opposite(Roll r);

// A grid of orientation digits, kEmptyCell at the empty cell; cells in row
// order.
struct Grid {
  unsigned rows = 0, cols = 0;
  std::vector<std::int8_t> cells;

  unsigned empty() const;
  bool operator==(const Grid&) const = default;
};

// Parses "000/0.0/000": rows separated by '/', digits 0-5, '.' for the one
// empty cell. `source` names the input in errors (a flag such as
// "--start"). rows/cols of 0 mean "take them from the text". Throws
// InputError.
Grid parse_grid(std::string_view text, const std::string& source, unsigned rows = 0,
                unsigned cols = 0);
std::string format_grid(const Grid& grid);  // the compact form above
// A small ASCII picture, one string per line:  +---+ / |0.0| / +---+.
std::vector<std::string> draw_grid(const Grid& grid);

// The start (all black up) and goal (all colour up) of the puzzle, with the
// empty cell at (rows/2, cols/2).
Grid uniform_grid(unsigned rows, unsigned cols, std::uint8_t orientation);

// The state space of an R x C grid: rank/unrank and neighbours. It is a
// RankedSpace for the generic engines.
class RollingCubesSpace {
 public:
  struct Move {
    Roll roll;
    unsigned from;  // the cell the cube comes from: the new empty cell
  };

  RollingCubesSpace(unsigned rows, unsigned cols);  // throws InputError

  unsigned rows() const { return rows_; }
  unsigned cols() const { return cols_; }
  unsigned cells() const { return rows_ * cols_; }
  std::uint64_t size() const { return block_ * cells(); }
  std::uint64_t block() const { return block_; }  // states per empty cell

  std::uint64_t rank(const Grid& grid) const;
  Grid unrank(std::uint64_t rank) const;

  // The moves possible with the empty cell at `empty`.
  const std::vector<Move>& moves(unsigned empty) const { return moves_[empty]; }
  // The move that turns state a into its neighbour b (throws if none).
  Roll move_between(std::uint64_t a, std::uint64_t b) const;

  template <class Visit>
  bool for_each_neighbour(std::uint64_t rank, Visit&& visit) const {
    const unsigned empty = static_cast<unsigned>(rank / block_);
    const std::uint64_t digits = rank - empty * block_;
    const std::uint64_t nibbles = to_nibbles(digits);
    for (const Step& step : steps_[empty])
      if (visit(neighbour(step, digits, nibbles))) return true;
    return false;
  }

  // The fast engine's view (see RollingCubesBfs): a move as arithmetic on
  // the rank.
  // Walks increasing ranks, tracking the empty cell (the block) instead of
  // dividing every rank: the frontier BFS's cursor.
  class Cursor {
   public:
    Cursor(const RollingCubesSpace& space, std::uint64_t first)
        : space_(space),
          empty_(static_cast<unsigned>(first / space.block())),
          start_(empty_ * space.block()) {}

    template <class Visit>
    bool for_each_neighbour(std::uint64_t rank, Visit&& visit) {
      while (rank - start_ >= space_.block()) {
        ++empty_;
        start_ += space_.block();
      }
      const std::uint64_t digits = rank - start_;
      const std::uint64_t nibbles = space_.to_nibbles(digits);
      for (const Step& step : space_.steps(empty_))
        if (visit(space_.neighbour(step, digits, nibbles))) return true;
      return false;
    }

   private:
    const RollingCubesSpace& space_;
    unsigned empty_;
    std::uint64_t start_;
  };
  Cursor cursor(std::uint64_t first) const { return Cursor(*this, first); }

  struct Step {
    enum Kind : std::uint8_t { Sideways, Up, Down } kind;
    std::uint8_t roll;       // Roll
    std::uint8_t nibble;     // the digit (Sideways) or lowest digit of the window
    std::uint64_t weight;    // 6^nibble
    std::uint64_t to_block;  // new empty cell * block
  };
  const std::vector<Step>& steps(unsigned empty) const { return steps_[empty]; }

  // The cubes' digits of a within-block index as 4-bit nibbles, nibble j
  // being the digit of weight 6^j.
  std::uint64_t to_nibbles(std::uint64_t digits) const {
    return low_nibbles_[digits % kLowStates] | high_nibbles_[digits / kLowStates]
                                                   << (4 * kLowDigits);
  }

  // Rank of the neighbour reached by `step` from a state of this step's
  // block with within-block index `digits`.
  std::uint64_t neighbour(const Step& step, std::uint64_t digits, std::uint64_t nibbles) const {
    const std::uint8_t* table = kRollTable[step.roll].data();
    if (step.kind == Step::Sideways) {
      const unsigned a = (nibbles >> (4 * step.nibble)) & 15;
      return step.to_block + digits + (std::uint64_t{table[a]} - a) * step.weight;
    }
    // The window of C digits from step.nibble up, read as a number v.
    std::uint64_t v = 0;
    for (unsigned j = cols_; j-- > 0;) v = v * 6 + ((nibbles >> (4 * (step.nibble + j))) & 15);
    std::uint64_t rotated;
    if (step.kind == Step::Up) {  // the cube (lowest digit) moves to the window's top
      const std::uint64_t a = (nibbles >> (4 * step.nibble)) & 15;
      rotated = (v - a) / 6 + table[a] * top_weight_;
    } else {  // the cube (top digit) moves to the window's bottom
      const std::uint64_t a = (nibbles >> (4 * (step.nibble + cols_ - 1))) & 15;
      rotated = (v - a * top_weight_) * 6 + table[a];
    }
    return step.to_block + digits + (rotated - v) * step.weight;
  }

 private:
  static constexpr unsigned kLowDigits = 6;
  static constexpr std::uint64_t kLowStates = 46656;  // 6^6

  unsigned rows_, cols_, cubes_;
  std::uint64_t block_;
  std::uint64_t top_weight_;  // 6^(cols-1)
  std::vector<std::vector<Move>> moves_;
  std::vector<std::vector<Step>> steps_;
  std::vector<std::uint64_t> low_nibbles_, high_nibbles_;
};

// The same puzzle with states packed as 4 bits per cell (15: empty), for
// the hashed engine and the encoding benchmark.
class PackedRollingCubes {
 public:
  PackedRollingCubes(unsigned rows, unsigned cols) : rows_(rows), cols_(cols) {}

  static std::uint64_t pack(const Grid& grid);

  template <class Visit>
  void for_each_neighbour(std::uint64_t key, Visit&& visit) const {
    unsigned empty = 0;
    while (((key >> (4 * empty)) & 15) != 15) ++empty;
    const unsigned row = empty / cols_, col = empty % cols_;
    auto roll_in = [&](unsigned from, Roll r) {
      const std::uint64_t cube = (key >> (4 * from)) & 15;
      const std::uint64_t rolled = kRollTable[static_cast<unsigned>(r)][cube];
      visit((key & ~(std::uint64_t{15} << (4 * empty))) | rolled << (4 * empty) |
            std::uint64_t{15} << (4 * from));
    };
    if (row + 1 < rows_) roll_in(empty + cols_, Roll::Up);
    if (row > 0) roll_in(empty - cols_, Roll::Down);
    if (col + 1 < cols_) roll_in(empty + 1, Roll::Left);
    if (col > 0) roll_in(empty - 1, Roll::Right);
  }

 private:
  unsigned rows_, cols_;
};

// The frontier BFS of the rolling cubes from one state, with the depth of a
// watched state (the goal) and optionally stopping once it is reached.
struct RollingBfsOptions {
  bfs::DirectionPolicy policy = bfs::DirectionPolicy::Auto;
  bool depth_table = true;
  bool two_bit = false;  // the depth table as the only per-state storage (bfs::BfsOptions)
  std::optional<std::uint64_t> watch;  // a state whose depth to record
  bool stop_at_watch = false;          // stop after the level that reaches it
  std::function<void(const bfs::LevelStats&)> on_level;
  // Called now and then during a level with the states expanded or tested
  // so far in it (from any thread).
  std::function<void(std::uint64_t)> on_progress;
  // Checkpoints (core/checkpoint.hpp): saved into `checkpoint` at level
  // boundaries, at most every checkpoint_every seconds, and when the search
  // stops (should_stop, polled during levels); continued from `resume`.
  CheckpointWriter* checkpoint = nullptr;
  double checkpoint_every = 60;
  const CheckpointReader* resume = nullptr;
  std::function<bool()> should_stop;
  // The processes sharing the search (core/cluster.hpp); null: this one.
  Cluster* cluster = nullptr;
};

struct RollingBfsResult {
  std::vector<bfs::LevelStats> levels;
  std::uint64_t reached = 0;
  std::optional<bfs::DepthTable> depths;  // of the ranks in `part`
  RankPart part;                          // this process's ranks (all when alone)
  std::optional<unsigned> watch_depth;    // depth of options.watch, if reached
  bool stopped = false;                   // by should_stop: the levels are not all there
  bool resumed = false;

  std::vector<std::uint64_t> distribution() const;
  unsigned max_depth() const { return static_cast<unsigned>(levels.size()) - 1; }
};

RollingBfsResult rolling_bfs(const RollingCubesSpace& space, std::uint64_t source,
                             const RollingBfsOptions& options = {});

// Shortest start-to-goal paths from a BFS of the start with a depth table.
struct ShortestSolution {
  unsigned length = 0;
  std::vector<Roll> moves;            // one shortest sequence
  std::vector<std::uint64_t> states;  // its states, start first
  // Number of distinct shortest sequences: as a decimal string, since it may
  // pass 2^64; empty if not counted.
  std::string count;
};

// One shortest sequence; `depth` is the goal's distance. Walks back from
// the goal through neighbours one level closer. Across processes, every
// process calls it (and count_shortest_sequences) alike with its part of
// the depth table and gets the whole answer.
ShortestSolution shortest_solution(const RollingCubesSpace& space, const bfs::DepthTable& depths,
                                   std::uint64_t start, std::uint64_t goal, unsigned depth,
                                   const RankPart& part = kAllRanks, Cluster* cluster = nullptr);

// Counts the shortest sequences: paths through the layered DAG of states on
// shortest paths, built back from the goal, count[s] = sum of the counts of
// its neighbours one level further (towards the goal). Returns nullopt if a
// layer would pass `max_layer_states`.
std::optional<std::string> count_shortest_sequences(const RollingCubesSpace& space,
                                                    const bfs::DepthTable& depths,
                                                    std::uint64_t start, std::uint64_t goal,
                                                    unsigned depth, std::uint64_t max_layer_states,
                                                    const RankPart& part = kAllRanks,
                                                    Cluster* cluster = nullptr);

}  // namespace cubenum::rolling
