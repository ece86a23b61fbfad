#include "cubenum/core/run_control.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"

namespace cubenum {

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

}  // namespace cubenum
