#pragma once
// The frontier engine's boundaries in checkpoints (core/checkpoint.hpp):
// the levels so far in the manifest's state; as data, the frontier and the
// depth table when one is kept (`visited` follows from it), else `visited`.
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

}  // namespace cubenum::bfs
