#include "cubenum/search/count_checkpoint.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "cubenum/core/cluster.hpp"

namespace cubenum::search {

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

}  // namespace cubenum::search
