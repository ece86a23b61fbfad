#include "checkpoint_options.hpp"

namespace cubenum::cli {

void add_checkpoint_options(Command& action, CheckpointOptions& options) {
  action
      .add_option("--checkpoint", options.checkpoint,
                  "save the run's progress in folder DIR now and then, and when it stops")
      ->type_name("DIR");
  action
      .add_option("--resume", options.resume,
                  "continue the run saved in DIR (and go on saving there)")
      ->type_name("DIR");
  action
      .add_option("--checkpoint-every", options.every,
                  "seconds between two checkpoints at least (0: at every level)")
      ->capture_default_str();
  action.add_option("--time-limit", options.time_limit,
                    "stop after this many seconds with a checkpoint (0: no limit)");
}

void add_subtree_checkpoint_options(Command& action, CheckpointOptions& options) {
  action
      .add_option("--checkpoint", options.checkpoint,
                  "save the count's finished subtrees in folder DIR now and then, and when it "
                  "stops (Ctrl-C, --time-limit)")
      ->type_name("DIR");
  action
      .add_option("--resume", options.resume,
                  "continue the count saved in DIR (and go on saving there)")
      ->type_name("DIR");
  action
      .add_option("--checkpoint-every", options.every,
                  "seconds between two saves at least (0: after every subtree, each save a few "
                  "files written and synced: slow where subtrees are many and short)")
      ->capture_default_str();
}

}  // namespace cubenum::cli
