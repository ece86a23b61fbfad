// The rolling cubes' BFS as a job (puzzles/rolling_cubes_job.hpp).
#include "cubenum/puzzles/rolling_cubes_job.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <optional>

#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/memory.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"

namespace cubenum::rolling {
namespace {

// Whether to keep the depth table alone (two-bit) instead of the bitmaps:
// as --storage says, or by what fits in --memory (else the memory
// available); refused when not even the table fits.
bool two_bit_storage(const SearchRequest& o, std::uint64_t states, Cluster& cluster) {
  if (o.storage == Storage::TwoBit && cluster.processes() > 1 &&
      o.direction == bfs::DirectionPolicy::BottomUp)
    throw InputError("--direction", 0,
                     "two-bit storage under mpirun runs top-down (bottom-up needs the whole "
                     "frontier in every process)");
  const std::uint64_t part = part_of(states, 0, cluster.processes()).count;  // the largest
  const double two_bit = double(part) / 4;
  const double bitmaps = double(part) * 5 / 8 + (cluster.processes() > 1 ? double(states) / 8 : 0);
  double have = check_fits(
      o.storage == Storage::Bitmaps ? bitmaps : two_bit, fmt::format("{} states", states),
      o.storage == Storage::Bitmaps ? "bitmaps, 5 bits a state" : "the depth table, 2 bits a state",
      o.memory_gib);
  if (o.storage != Storage::Auto) return o.storage == Storage::TwoBit;
  if (have == 0 && bitmaps >= 0x1p26) have = memory_allowed(o.memory_gib);
  if (have == 0 || bitmaps <= have ||
      (o.direction == bfs::DirectionPolicy::BottomUp && cluster.processes() > 1))
    return false;
  const std::string per = cluster.processes() > 1 ? " in each process" : "";
  if (cluster.process() == 0)
    fmt::print(stderr,
               "cubenum: bitmaps would need {}{}, more than the {} there are: two-bit storage "
               "({}, slower; --storage)\n",
               bytes_text(bitmaps), per, bytes_text(have), bytes_text(two_bit));
  return true;
}

}  // namespace

SearchOutcome search(const RollingCubesSpace& space, const SearchRequest& o) {
  const std::string command = o.stop_at_goal ? "rolling-cubes solve" : "rolling-cubes bfs";
  Cluster& cluster = this_cluster();
  const bool two_bit = two_bit_storage(o, space.size(), cluster);
  // What a checkpoint must match: the grid, the start and the goal, and
  // whether the search stops at the goal (solve) or goes on (bfs).
  CheckpointSession checkpoints(o.checkpoints, {{"puzzle", "rolling-cubes"},
                                                {"command", command},
                                                {"rows", space.rows()},
                                                {"cols", space.cols()},
                                                {"start", format_grid(o.start)},
                                                {"goal", format_grid(o.goal)},
                                                {"two_bit", two_bit}});
  const std::uint64_t states = space.size();
  // The time left is not estimated: levels differ too much.
  Progress progress(command, states, "states");
  progress.set_estimate(false);
  std::optional<Progress> level_task;  // the level being built, in its own part of the line
  Stopwatch total;
  std::uint64_t reached = 0;
  unsigned depth = 0;
  RollingBfsOptions bfs_options;
  bfs_options.policy = o.direction;
  bfs_options.cluster = &cluster;
  bfs_options.two_bit = two_bit;
  bfs_options.watch = space.rank(o.goal);
  bfs_options.stop_at_watch = o.stop_at_goal;
  bfs_options.on_level = [&](const bfs::LevelStats& level) {
    reached += level.states;
    depth = level.depth + 1;
    progress.set_done(reached);
    level_task.reset();
    level_task.emplace(fmt::format("level {}", depth), states, "scanned");
    progress::note("level {:2}  {:>14} states  {}  {:8.2f} s  (total {}, {:.1f} s)", level.depth,
                   progress::grouped(level.states),
                   level.direction == bfs::Direction::TopDown ? "top-down " : "bottom-up",
                   level.seconds, progress::grouped(reached), total.seconds());
    if (cluster.processes() > 1)
      progress::note("level {:2}  sent between {} processes: {} messages, {} neighbours, {} bytes",
                     level.depth, cluster.processes(), progress::grouped(level.messages),
                     progress::grouped(level.sent_ranks), progress::grouped(level.sent_bytes));
  };
  // From the level's workers, between two on_level calls.
  bfs_options.on_progress = [&](std::uint64_t scanned) {
    if (level_task) level_task->set_done(scanned);
  };
  if (const CheckpointReader* saved = checkpoints.reader(); saved && cluster.process() == 0)
    fmt::print(stderr, "cubenum: resuming from {}: {} levels done\n", o.checkpoints.resume,
               saved->state().value("levels", CheckpointJson::array()).size());
  bfs_options.checkpoint = checkpoints.writer();
  bfs_options.checkpoint_every = checkpoints.every();
  bfs_options.resume = checkpoints.reader();
  bfs_options.should_stop = [&checkpoints] { return checkpoints.should_stop(); };
  level_task.emplace("level 0", states, "scanned");
  SearchOutcome outcome{rolling_bfs(space, space.rank(o.start), bfs_options), 0};
  outcome.seconds = total.seconds();
  if (outcome.bfs.stopped) checkpoints.stopped();
  return outcome;
}

}  // namespace cubenum::rolling
