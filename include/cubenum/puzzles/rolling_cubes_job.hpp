#pragma once
// The rolling cubes' BFS as a job: a request (the grid's start and goal,
// whether to stop at the goal, the storage, the limits and the checkpoint
// folders) and its outcome. The library picks the storage (bitmaps where
// they fit, else the two-bit depth table), checks the memory and decides
// what a checkpoint must match.
#include <cstdint>
#include <optional>

#include "cubenum/core/run_control.hpp"
#include "cubenum/puzzles/rolling_cubes.hpp"

namespace cubenum::rolling {

// Per state: the bitmaps (5 bits a state: fastest), the depth table alone
// (2 bits a state), or the bitmaps where they fit in the memory allowed.
enum class Storage { Auto, Bitmaps, TwoBit };

struct SearchRequest {
  Grid start, goal;
  bool stop_at_goal = false;  // solve: stop once the goal's level is built
  Storage storage = Storage::Auto;
  bfs::DirectionPolicy direction = bfs::DirectionPolicy::Auto;
  std::optional<double> memory_gib;  // default: the memory available
  CheckpointOptions checkpoints;
};

struct SearchOutcome {
  RollingBfsResult bfs;
  double seconds = 0;
};

// The BFS of `space` from the request's start, on every thread (and every
// process under mpirun), watching for its goal. Throws InputError where
// the storage does not fit, RunStopped once a stopped search is saved.
SearchOutcome search(const RollingCubesSpace& space, const SearchRequest& request);

}  // namespace cubenum::rolling
