#pragma once
// The frontier engine's boundaries in checkpoints (core/checkpoint.hpp):
// the levels so far in the manifest's state; as data, the frontier and the
// depth table when one is kept (`visited` follows from it), else `visited`.
#include <functional>

#include "cubenum/bfs/frontier_bfs.hpp"
#include "cubenum/core/checkpoint.hpp"

namespace cubenum::bfs {

// `extra`: the caller's own state, kept beside the boundary's.
void save_boundary(CheckpointWriter& writer, const BfsBoundary& boundary,
                   const CheckpointJson& extra);

// Fills `boundary` (levels, reached, bitmaps, depths) from the checkpoint;
// returns the caller's extra state. Throws InputError when the checkpoint
// does not fit (another size, a depth table where none is kept).
CheckpointJson load_boundary(const CheckpointReader& reader, BfsBoundary& boundary);

// Wires checkpoints into `options`: the search starts from `resume` when
// given (its extra state handed to `restored`), and saves into `writer`
// at a level boundary once `every` seconds have passed since the last save
// (by the clock of any process), and when it stops; `extra()` is saved
// beside the boundary.
void add_checkpoints(BfsOptions& options, CheckpointWriter* writer, double every,
                     const CheckpointReader* resume, std::function<CheckpointJson()> extra = {},
                     std::function<void(const CheckpointJson&)> restored = {});

}  // namespace cubenum::bfs
