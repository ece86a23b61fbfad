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
//
// So that a count run in many slices does not leave a part per process
// and session, each with its own copy of what they share (the piece
// selections), a resumed run's first process folds the parts it read into
// its own: it saves their records at once, naming them in its manifest
// ("folds"), and removes them once that save is committed; a reader skips
// the parts a committed part folds (a kill between the save and the
// removal). Each search's earlier tallies become one as the search runs
// again (SubtreeLedger). The folder holds the last session's parts.
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
  // A tally's bytes, shared by the records that hold it (a resumed run's
  // earlier tallies are not copied).
  using TallyBytes = std::shared_ptr<const std::vector<std::byte>>;

  // Saves into `dir`. With `resume`, reads every committed part there
  // first, refusing parts of another run (`identity`), damaged ones and a
  // folder with none; without, refuses a folder that holds parts. Every
  // process constructs it alike (errors are said alike everywhere).
  // `source` names the option in errors.
  SubtreeCheckpoint(std::string dir, CheckpointJson identity, bool resume, double every_seconds,
                    Cluster& cluster, std::string source = "--checkpoint");

  // What earlier sessions did of the search `name`, which has `subtrees`
  // subtrees: the ones left and the ones finished, in order, and the
  // encoded tallies of the finished ones (one per record that has any).
  struct Earlier {
    std::vector<std::uint32_t> pending, done;
    std::vector<TallyBytes> tallies;
  };
  Earlier earlier(const std::string& name, std::uint32_t subtrees) const;
  // Whether this process holds the earlier sessions' records (the first
  // process of a resumed run): its record of a search then includes them.
  bool folds() const { return folds_; }

  // This process's record of the search `name`, replacing the one before:
  // the subtrees it holds as finished and their tallies (summed, or a few
  // sums).
  void record(const std::string& name, std::uint32_t subtrees, std::vector<std::uint32_t> done,
              std::vector<TallyBytes> tallies);
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
    std::vector<TallyBytes> tallies;
  };
  struct Finished {
    std::uint32_t subtrees = 0;
    std::vector<bool> done;
    std::vector<TallyBytes> tallies;
  };
  void read_parts(const std::vector<std::string>& parts);
  void fold_parts();
  void save_locked(bool stopping);

  std::string dir_, source_;
  CheckpointJson identity_;
  double every_;
  int session_ = 1, process_ = 0;
  std::size_t parts_read_ = 0;
  std::vector<std::string> parts_seen_;  // the committed parts' folder names, read or skipped
  bool folds_ = false;
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
    if (checkpoint_->folds() && !earlier_.tallies.empty()) fold_earlier();
    run.finished = [this](std::uint32_t subtree, const Tally& tally) {
      std::lock_guard lock(mutex_);
      mine_ += tally;
      done_.push_back(subtree);
      if (checkpoint_->due()) {
        record_locked();
        checkpoint_->save();
      }
    };
  }
  SubtreeLedger(const SubtreeLedger&) = delete;  // (run.finished points here)
  SubtreeLedger& operator=(const SubtreeLedger&) = delete;

  // Every subtree finished in earlier sessions: nothing to search.
  bool nothing_left() const { return checkpoint_ != nullptr && earlier_.pending.empty(); }
  // Earlier sessions' work: their encoded tallies, and how many subtrees.
  const std::vector<SubtreeCheckpoint::TallyBytes>& earlier_tallies() const {
    return earlier_.tallies;
  }
  std::uint32_t earlier_finished() const {
    return static_cast<std::uint32_t>(earlier_.done.size());
  }
  void record() {
    if (checkpoint_ == nullptr) return;
    std::lock_guard lock(mutex_);
    record_locked();
  }

 private:
  // The earlier sessions' tallies of this search as one (their selections
  // once), kept encoded beside this session's; recorded now, so that the
  // next save writes it.
  void fold_earlier() {
    Tally earlier = mine_;  // (an empty tally, with the run's settings)
    for (const auto& bytes : earlier_.tallies) earlier += Tally::decode(*bytes, checkpoint_->dir());
    folded_ = std::make_shared<const std::vector<std::byte>>(earlier.encode());
    done_ = earlier_.done;
    record_locked();
  }
  void record_locked() {
    std::vector<SubtreeCheckpoint::TallyBytes> tallies;
    if (folded_) tallies.push_back(folded_);
    tallies.push_back(std::make_shared<const std::vector<std::byte>>(mine_.encode()));
    checkpoint_->record(name_, subtrees_, done_, std::move(tallies));
  }

  SubtreeCheckpoint* checkpoint_;
  std::string name_;
  std::uint32_t subtrees_;
  SubtreeCheckpoint::Earlier earlier_;
  std::mutex mutex_;
  Tally mine_;
  SubtreeCheckpoint::TallyBytes folded_;  // the earlier tallies summed, when this process folds
  std::vector<std::uint32_t> done_;       // (with the earlier ones, when it folds)
};

}  // namespace cubenum::search
