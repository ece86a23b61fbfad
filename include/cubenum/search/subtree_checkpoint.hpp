#pragma once
// Checkpoints of searches split into subtrees (search/split_search.hpp).
//
// What a search must keep to go on is which subtrees finished and the sum
// of their tallies. Each process keeps its own record and saves it on its
// own schedule, never waiting for the others, as a checkpoint of its own
// (core/checkpoint.hpp: temporary files, flushed, renamed, the manifest
// last) in a folder of the checkpoint folder named for the session and the
// process ("part.s2.p1"). A part is never rewritten by a later session: a
// resumed run reads every part, skips their subtrees and adds their
// tallies, and its processes save parts of a new session. The parts'
// subtrees are disjoint, so any set of committed parts is consistent: a run
// killed at any moment, in any of its processes, resumes, and at any
// number of processes.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cubenum/core/checkpoint.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/search/split_search.hpp"

namespace cubenum::search {

class SubtreeCheckpoint {
 public:
  // Saves into `dir`. With `resume`, reads every committed part there
  // first, refusing parts of another run (`identity`), damaged ones and a
  // folder with none; without, refuses a folder that holds parts. Every
  // process constructs it alike (errors are said alike everywhere).
  // `source` names the option in errors.
  SubtreeCheckpoint(std::string dir, CheckpointJson identity, bool resume, double every_seconds,
                    Cluster& cluster, std::string source = "--checkpoint");

  // What earlier sessions did of the search `name`, which has `subtrees`
  // subtrees: the ones left, in order, and the encoded tallies of the
  // finished ones (one per part that has any).
  struct Earlier {
    std::vector<std::uint32_t> pending;
    std::vector<std::vector<std::byte>> tallies;
    std::uint32_t finished = 0;
  };
  Earlier earlier(const std::string& name, std::uint32_t subtrees) const;

  // This process's record of the search `name` in this session, replacing
  // the one before: the subtrees it finished and their summed tally.
  void record(const std::string& name, std::uint32_t subtrees, std::vector<std::uint32_t> done,
              std::vector<std::byte> tally);
  // Whether every_seconds have passed since the last save (or the start).
  bool due() const;
  // Saves this process's part now (thread-safe, as is record). A session
  // that finished nothing leaves no part, unless `stopping`: a run stopped
  // before its first subtree finished still leaves the folder that its
  // --resume will be told to read.
  void save(bool stopping = false);

  std::size_t parts_read() const { return parts_read_; }
  const std::string& dir() const { return dir_; }

 private:
  struct Record {
    std::uint32_t subtrees = 0;
    std::vector<std::uint32_t> done;
    std::vector<std::byte> tally;
  };
  struct Finished {
    std::uint32_t subtrees = 0;
    std::vector<bool> done;
    std::vector<std::vector<std::byte>> tallies;
  };
  void read_parts(const std::vector<std::string>& parts);

  std::string dir_, source_;
  CheckpointJson identity_;
  double every_;
  int session_ = 1, process_ = 0;
  std::size_t parts_read_ = 0;
  std::map<std::string, Finished> earlier_;  // by search, from the parts read
  mutable std::mutex mutex_;
  std::map<std::string, Record> records_;     // this session's, by search
  std::vector<std::string> order_;            // searches in the order first recorded
  std::unique_ptr<CheckpointWriter> writer_;  // made by the first save
  Stopwatch since_save_;
};

// One search's share of a checkpoint (none: it does nothing). It puts the
// subtrees earlier sessions left into `run.pending`, and adds each subtree
// this process finishes to this session's record, saved when due; record()
// after the search keeps the last ones. `Tally` has encode(); `mine` is
// the empty tally to add to.
template <class Tally>
class SubtreeLedger {
 public:
  SubtreeLedger(SubtreeCheckpoint* checkpoint, std::string name, std::uint32_t subtrees,
                SubtreeRun<Tally>& run, Tally mine = {})
      : checkpoint_(checkpoint),
        name_(std::move(name)),
        subtrees_(subtrees),
        mine_(std::move(mine)) {
    if (checkpoint_ == nullptr) return;
    earlier_ = checkpoint_->earlier(name_, subtrees_);
    run.pending = earlier_.pending;
    run.finished = [this](std::uint32_t subtree, const Tally& tally) {
      std::lock_guard lock(mutex_);
      mine_ += tally;
      done_.push_back(subtree);
      if (checkpoint_->due()) {
        checkpoint_->record(name_, subtrees_, done_, mine_.encode());
        checkpoint_->save();
      }
    };
  }
  SubtreeLedger(const SubtreeLedger&) = delete;  // (run.finished points here)
  SubtreeLedger& operator=(const SubtreeLedger&) = delete;

  // Every subtree finished in earlier sessions: nothing to search.
  bool nothing_left() const { return checkpoint_ != nullptr && earlier_.pending.empty(); }
  // Earlier sessions' work: their encoded tallies, and how many subtrees.
  const std::vector<std::vector<std::byte>>& earlier_tallies() const { return earlier_.tallies; }
  std::uint32_t earlier_finished() const { return earlier_.finished; }
  void record() {
    if (checkpoint_ != nullptr) checkpoint_->record(name_, subtrees_, done_, mine_.encode());
  }

 private:
  SubtreeCheckpoint* checkpoint_;
  std::string name_;
  std::uint32_t subtrees_;
  SubtreeCheckpoint::Earlier earlier_;
  std::mutex mutex_;
  Tally mine_;
  std::vector<std::uint32_t> done_;
};

}  // namespace cubenum::search
