#pragma once
// A count's checkpoints: the ledger of finished subtrees
// (search/subtree_checkpoint.hpp), and what stops the count. Without a
// checkpoint folder, only the time limit stops it (the counts are then
// lower bounds).
#include <functional>
#include <optional>

#include "cubenum/core/run_control.hpp"
#include "cubenum/search/subtree_checkpoint.hpp"

namespace cubenum::search {

class CountCheckpoint {
 public:
  CountCheckpoint(CheckpointOptions options, double time_limit, CheckpointJson identity);
  const std::function<bool()>& stop() const { return stop_; }
  SubtreeCheckpoint* ledger() { return ledger_ ? &*ledger_ : nullptr; }
  bool saving() const { return ledger_.has_value(); }
  bool resumed() const { return !options_.resume.empty(); }
  // After a search stopped early with a checkpoint: saves, and throws
  // RunStopped saying how to go on.
  [[noreturn]] void stopped();
  // After the whole count: the last save (a --resume of it answers at once).
  void finished();

 private:
  CheckpointOptions options_;
  std::optional<SubtreeCheckpoint> ledger_;
  std::function<bool()> stop_;
};

}  // namespace cubenum::search
