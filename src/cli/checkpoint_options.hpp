#pragma once
// --checkpoint, --resume, --checkpoint-every and --time-limit, for the
// actions that can be stopped and continued (core/checkpoint.hpp).
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "command.hpp"
#include "cubenum/core/checkpoint.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/search/subtree_checkpoint.hpp"

namespace cubenum::cli {

struct CheckpointOptions {
  std::string checkpoint, resume;
  double every = 60;
  double time_limit = 0;  // seconds; 0: none
};

void add_checkpoint_options(Command& action, CheckpointOptions& options);

// What a run was stopped by (thrown once its final checkpoint is saved):
// the program says so and exits with kExitStopped.
class RunStopped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws RunStopped for a run stopped (by a signal or the time limit) with
// its checkpoint saved in `dir`, saying how to go on.
[[noreturn]] void throw_stopped(const std::string& dir);

// The checkpoints of one run: the writer (when --checkpoint or --resume),
// the reader (when --resume), and the stop condition (Ctrl-C, SIGTERM or
// the time limit, once a checkpoint can be written).
class CheckpointSession {
 public:
  // `identity`: the run's puzzle, action and every option that changes
  // its result. Refuses, before any work, a folder that holds a checkpoint
  // without --resume, and a --resume of another run.
  CheckpointSession(const CheckpointOptions& options, CheckpointJson identity);
  CheckpointWriter* writer() { return writer_ ? &*writer_ : nullptr; }
  const CheckpointReader* reader() const { return reader_ ? &*reader_ : nullptr; }
  double every() const { return options_.every; }
  bool should_stop() const;
  // After a stopped run: throws RunStopped saying how to go on.
  [[noreturn]] void stopped() const;

 private:
  CheckpointOptions options_;
  std::optional<CheckpointWriter> writer_;
  std::optional<CheckpointReader> reader_;
  Stopwatch clock_;
};

// A stop condition true once `seconds` have passed (none for 0).
std::function<bool()> deadline(double seconds);
// Throws InputError for a --time-limit that is not 0 or more seconds.
void check_time_limit(double seconds);

// --checkpoint, --resume and --checkpoint-every of a count split into
// subtrees (the foam and polycube counts; their --time-limit is their own).
void add_subtree_checkpoint_options(Command& action, CheckpointOptions& options);

// A count's checkpoints (--checkpoint, --resume): the ledger of finished
// subtrees (search/subtree_checkpoint.hpp), and what stops the count.
// Without a checkpoint, only the time limit stops it (the counts are then
// lower bounds).
class CountCheckpoint {
 public:
  CountCheckpoint(CheckpointOptions options, double time_limit, CheckpointJson identity);
  const std::function<bool()>& stop() const { return stop_; }
  search::SubtreeCheckpoint* ledger() { return ledger_ ? &*ledger_ : nullptr; }
  bool saving() const { return ledger_.has_value(); }
  bool resumed() const { return !options_.resume.empty(); }
  // After a search stopped early with a checkpoint: saves, and throws
  // RunStopped saying how to go on.
  [[noreturn]] void stopped();
  // After the whole count: the last save (a --resume of it answers at once).
  void finished();

 private:
  CheckpointOptions options_;
  std::optional<search::SubtreeCheckpoint> ledger_;
  std::function<bool()> stop_;
};

}  // namespace cubenum::cli
