#pragma once
// The one driver of every count split into subtrees (the plate assembly's
// and the voxel cover's): the subtrees searched on every thread and every
// process (split_search.hpp), each finished one recorded in the
// checkpoint's ledger (subtree_checkpoint.hpp), this run's tallies summed
// across processes, and those of earlier runs read back (tally_codec.hpp)
// and added. An engine plugs in as a policy: its prefixes (how it splits),
// its search of one subtree, its tally (+=, encode, decode) and how tallies
// add across processes.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>

#include "cubenum/core/cluster.hpp"
#include "cubenum/search/split_search.hpp"
#include "cubenum/search/subtree_checkpoint.hpp"

namespace cubenum::search {

template <class Tally>
struct SubtreeCount {
  std::function<void(const SplitProgress&)> progress;
  Cluster* cluster = nullptr;  // null: this process alone
  SubtreeCheckpoint* checkpoint = nullptr;
  std::string checkpoint_name;  // this count's part of the checkpoint
  Tally empty{};  // the count's empty tally, what the ledger's record of this run starts from
  // This process's tally and the other processes': each process gets the
  // sum (called under mpirun only).
  std::function<Tally(Cluster&, Tally)> sum_across;
  // Once the subtrees left to search are known (empty: every one), before
  // the first is searched.
  std::function<void(std::span<const std::uint32_t> pending)> starting;
};

template <class Tally>
struct SubtreeTotal {
  Tally tally;                         // every subtree searched, in any process, in any run
  std::uint32_t earlier_finished = 0;  // of them, finished by earlier runs
};

// Calls search(prefix, tally) for each subtree not finished before (false:
// stopped inside it) and returns the total.
template <class Tally, class Prefix, class Search>
SubtreeTotal<Tally> count_subtrees(std::span<const Prefix> prefixes, Search&& search,
                                   const SubtreeCount<Tally>& count) {
  SubtreeRun<Tally> run;
  run.progress = count.progress;
  run.cluster = count.cluster;
  const auto subtrees = static_cast<std::uint32_t>(prefixes.size());
  SubtreeLedger<Tally> ledger(count.checkpoint, count.checkpoint_name, subtrees, run, count.empty);
  if (count.starting) count.starting(run.pending);
  Tally total = ledger.nothing_left()
                    ? Tally{}
                    : search_subtrees<Tally, Prefix>(prefixes, std::forward<Search>(search), run);
  ledger.record();
  if (count.cluster != nullptr && count.cluster->processes() > 1)
    total = count.sum_across(*count.cluster, std::move(total));
  for (const auto& bytes : ledger.earlier_tallies())  // (the same in every process)
    total += Tally::decode(*bytes, count.checkpoint->dir());
  return {std::move(total), ledger.earlier_finished()};
}

}  // namespace cubenum::search
