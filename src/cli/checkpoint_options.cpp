#include "checkpoint_options.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"

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

CheckpointSession::CheckpointSession(const CheckpointOptions& options, CheckpointJson identity)
    : options_(options) {
  // (Checked here: the command line's ranges are for whole numbers.)
  if (!(options_.every >= 0))
    throw InputError("--checkpoint-every", 0, "must be 0 or more seconds");
  if (!(options_.time_limit >= 0)) throw InputError("--time-limit", 0, "must be 0 or more seconds");
  // Across processes, a checkpoint is for that many processes (each holds
  // its part of the ranks).
  Cluster& cluster = this_cluster();
  if (cluster.processes() > 1) identity["processes"] = cluster.processes();
  if (!options_.resume.empty()) {
    reader_.emplace(options_.resume, identity, &cluster);
    if (options_.checkpoint.empty()) options_.checkpoint = options_.resume;
  } else if (!options_.checkpoint.empty() && has_checkpoint(options_.checkpoint)) {
    throw InputError("--checkpoint", 0,
                     fmt::format("{} holds a checkpoint already: --resume {} continues it (or "
                                 "remove the folder to start again)",
                                 options_.checkpoint, options_.checkpoint));
  }
  if (options_.time_limit > 0 && options_.checkpoint.empty())
    throw InputError("--time-limit", 0,
                     "needs --checkpoint DIR: a run stopped without one would be lost");
  if (!options_.checkpoint.empty()) {
    writer_.emplace(options_.checkpoint, std::move(identity), "--checkpoint", &cluster);
    install_stop_signals();
  }
}

bool CheckpointSession::should_stop() const {
  if (!writer_) return false;
  return stop_requested() || (options_.time_limit > 0 && clock_.seconds() >= options_.time_limit);
}

void throw_stopped(const std::string& dir) {
  const char* why = stop_requested() ? "stopped by a signal" : "stopped at --time-limit";
  throw RunStopped(fmt::format("{}; saved in {}: run the same command with --resume {} to go on",
                               why, dir, dir));
}

void CheckpointSession::stopped() const {
  throw_stopped(options_.checkpoint);
}

std::function<bool()> deadline(double seconds) {
  if (seconds <= 0) return {};
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  return [end] { return std::chrono::steady_clock::now() >= end; };
}

void check_time_limit(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0)
    throw InputError("--time-limit", 0,
                     fmt::format("{} is not a number of seconds (0: no limit)", seconds));
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
                  "seconds between two saves at least (0: after every subtree)")
      ->capture_default_str();
}

CountCheckpoint::CountCheckpoint(CheckpointOptions options, double time_limit,
                                 CheckpointJson identity)
    : options_(std::move(options)) {
  const bool resume = !options_.resume.empty();
  if (resume && options_.checkpoint.empty()) options_.checkpoint = options_.resume;
  if (options_.checkpoint.empty()) {
    stop_ = deadline(time_limit);  // lower bounds
    return;
  }
  ledger_.emplace(options_.checkpoint, std::move(identity), resume, options_.every, this_cluster(),
                  resume ? "--resume" : "--checkpoint");
  install_stop_signals();
  if (resume && this_cluster().process() == 0)
    fmt::print(stderr, "cubenum: resuming from {}: {} saved part{}\n", options_.checkpoint,
               ledger_->parts_read(), ledger_->parts_read() == 1 ? "" : "s");
  const auto limit = deadline(time_limit);
  stop_ = [limit] { return stop_requested() || (limit && limit()); };
}

void CountCheckpoint::stopped() {
  ledger_->save(/*stopping=*/true);
  throw_stopped(options_.checkpoint);
}

void CountCheckpoint::finished() {
  if (ledger_) ledger_->save();
}

}  // namespace cubenum::cli
