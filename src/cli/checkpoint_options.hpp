#pragma once
// --checkpoint, --resume, --checkpoint-every and --time-limit, for the
// actions that can be stopped and continued (core/checkpoint.hpp).
#include "command.hpp"
#include "cubenum/core/run_control.hpp"

namespace cubenum::cli {

void add_checkpoint_options(Command& action, CheckpointOptions& options);

// --checkpoint, --resume and --checkpoint-every of a count split into
// subtrees (the foam and polycube counts; their --time-limit is their own).
void add_subtree_checkpoint_options(Command& action, CheckpointOptions& options);

}  // namespace cubenum::cli
