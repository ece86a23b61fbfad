#pragma once
// How a run is stopped and continued: its checkpoint folders, its time
// limit, and the session that writes and reads its checkpoints
// (core/checkpoint.hpp). The library's jobs take these; the command line
// only fills them from --checkpoint, --resume, --checkpoint-every and
// --time-limit.
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "cubenum/core/checkpoint.hpp"
#include "cubenum/core/stopwatch.hpp"

namespace cubenum {

struct CheckpointOptions {
  std::string checkpoint, resume;  // folders: save to, go on from (and save to)
  double every = 60;               // seconds between two saves at least
  double time_limit = 0;           // seconds; 0: none
};

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

}  // namespace cubenum
