#pragma once
// `twisty bfs` as a job: a request (the definition file and its moves;
// the limits and the checkpoint folders) and a result (the positions by
// depth, the antipodes, the depth table). `twisty solve` is in
// twisty_solve.hpp. The library checks the memory before any table is built,
// picks the engine (the row engine in one process, the frontier engine
// across processes) and decides what a checkpoint must match.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cubenum/core/run_control.hpp"
#include "cubenum/puzzles/twisty_class_space.hpp"
#include "cubenum/puzzles/twisty_search.hpp"
#include "cubenum/report/json.hpp"

namespace cubenum::twisty {

struct SpaceRequest {
  std::string file;
  std::optional<std::string> moves;  // comma-separated names (given empty: refused)
  bool quarter = false;              // quarter turns only
};

// The space of the file. `before_tables` sees it laid out, before any
// table is built (where what the run needs is checked); without `tables`
// it is only laid out, to be described.
std::unique_ptr<TwistySpace> make_space(const SpaceRequest& request,
                                        std::function<void(const TwistySpace&)> before_tables = {},
                                        bool tables = true);

// What a BFS of the space needs in each of `processes` processes, known
// before any table is built; refuses (InputError) a space whose BFS would
// not fit in `memory_gib`, else in the memory the machine has available.
std::uint64_t bfs_need(const TwistySpace& space, int processes, bool depth_table);
void check_bfs_fits(const TwistySpace& space, int processes, bool depth_table,
                    std::optional<double> memory_gib);

// The space's description in JSON (docs/PUZZLES.md, twisty info).
Json space_json(const TwistySpace& space);

// The symmetry group of the space's moves that `request` chooses (refused
// with the reason where the file does not allow it), and its JSON.
std::unique_ptr<SymmetryGroup> find_group(const TwistySpace& space, const SymmetryRequest& request);
Json group_json(const SymmetryGroup& group);

// What the BFS runs over: positions (two bits each), or classes up to the
// symmetry group (twisty_class_space.hpp: about |G| times fewer); auto
// takes classes where classes are counted or the positions do not fit.
enum class BfsOver { Auto, Positions, Classes };
// "auto", "positions" or "classes"; else an InputError naming --over.
BfsOver parse_bfs_over(const std::string& text);

struct BfsRequest {
  SpaceRequest space;
  bfs::DirectionPolicy direction = bfs::DirectionPolicy::Auto;
  std::optional<double> memory_gib;
  std::size_t antipodes = 5;  // move sequences to find, to as many antipodes
  bool depth_table = false;   // keep every state's depth (one process only)
  // Classes by depth up to this group (one uninterrupted process for now).
  std::optional<SymmetryRequest> symmetry;
  // Positions up to the whole-puzzle turns the moves make (the 2x2x2's
  // U D'): the BFS starts from every turn of solved, and each position
  // stands for all its turns.
  bool up_to_rotation = false;
  BfsOver over = BfsOver::Auto;
  CheckpointOptions checkpoints;
};

// A BFS over classes: how the rank was split and what its tables hold.
struct ClassSearch {
  SymCoordinate split;
  std::uint64_t c_classes = 0, indices = 0, table_bytes = 0;
  unsigned bits = 3;  // an index's: three bitmaps, or two-bit mode where those do not fit
  bool rows = false;  // searched by the row engine (ClassRows: two bits an index)
  std::vector<Arrangement> turns;  // up to rotation: the whole-puzzle turns, else none
};

struct BfsResult {
  std::unique_ptr<TwistySpace> space;
  std::vector<std::uint64_t> distribution;  // positions by depth
  std::vector<std::string> methods;         // per level: how it was built
  std::vector<double> seconds;              // per level
  std::uint64_t reached = 0;
  std::vector<std::vector<int>> antipodes;  // move sequences
  std::optional<bfs::RowDepths> depths;     // BfsRequest::depth_table
  bool resumed = false;
  std::unique_ptr<SymmetryGroup> group;     // BfsRequest::symmetry
  std::vector<LevelClasses> classes;        // by depth, with the group
  std::size_t turns = 1;                    // whole-puzzle turns (up_to_rotation)
  std::optional<ClassSearch> over_classes;  // when the BFS ran over classes
};

// Runs the BFS on every thread (and every process under mpirun), showing
// the space to `laid_out` before the search. Throws RunStopped once a BFS
// stopped with a checkpoint is saved.
BfsResult run_bfs(const BfsRequest& request,
                  const std::function<void(const TwistySpace&)>& laid_out = {});

// The result's JSON fields (docs/PUZZLES.md, twisty bfs).
Json bfs_json(const BfsResult& result);

}  // namespace cubenum::twisty
