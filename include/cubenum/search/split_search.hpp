#pragma once
// The parallel skeleton of every backtracking search: the search tree is
// cut at a depth where there are many more subtrees than threads (the
// caller enumerates those prefixes), and each subtree is searched on its own
// with a per-worker accumulator. Accumulators are combined with +=, so
// totals never depend on scheduling, thread count or process count.
//
// The subtrees are dealt one at a time from a counter that every worker
// draws from: this process's alone, or, across processes, one counter on
// the first process that all of them draw from (core/cluster.hpp), so that
// a few heavy subtrees never leave a process idle while work is left.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "cubenum/core/cluster.hpp"
#include "cubenum/core/parallel.hpp"

namespace cubenum::search {

struct SplitProgress {
  std::size_t done = 0, total = 0;
  // The estimated share of the work done (subtrees differ in size), or < 0
  // when the search does not estimate it.
  double work_done = -1;
  // Of `done`, those finished before this run (one resumed from a
  // checkpoint): the time left comes from the rate of this run.
  std::size_t before = 0;
};

template <class Local>
struct SubtreeRun {
  // Called once before the first subtree and after each subtree. Alone,
  // `done` counts the subtrees finished; across processes, those handed out
  // to any process so far.
  std::function<void(const SplitProgress&)> progress;
  // Deal the subtrees to every process of this cluster (null: this process
  // alone); the result is then this process's share only.
  Cluster* cluster = nullptr;
  // The subtrees to search (empty: every one), for a run that continues
  // one that finished the others.
  std::span<const std::uint32_t> pending;
  // Called (from the worker) with each subtree that finished, not stopped,
  // and its own accumulator: what a checkpoint records.
  std::function<void(std::uint32_t subtree, const Local& tally)> finished;
};

// Calls search(prefix, local) for every prefix and returns the sum of the
// accumulators. `local` is the worker's accumulator, or with `finished` one
// of the subtree's own; when search returns bool, false means it stopped
// before the end of the subtree (what it found still counts, but
// `finished` is not called).
template <class Local, class Prefix, class Search>
Local search_subtrees(std::span<const Prefix> prefixes, Search&& search,
                      const SubtreeRun<Local>& run = {}) {
  const std::size_t total = prefixes.size();
  const std::size_t count = run.pending.empty() ? total : run.pending.size();
  const std::size_t earlier = total - count;  // finished before
  const auto subtree = [&](std::uint64_t k) {
    return run.pending.empty() ? static_cast<std::uint32_t>(k) : run.pending[k];
  };
  std::unique_ptr<SharedCounter> dealer =
      run.cluster != nullptr ? run.cluster->shared_counter() : local_counter();
  const bool shared = run.cluster != nullptr && run.cluster->processes() > 1;
  PerWorker<Local> locals;
  std::atomic<std::size_t> done{earlier};
  if (run.progress) run.progress({.done = earlier, .total = total, .before = earlier});
  // As many draws in every process as there are subtrees: each subtree is
  // drawn by some worker, the draws after the last one find nothing.
  parallel_for_chunks(count, 1, [&](std::size_t, std::size_t) {
    const std::uint64_t k = dealer->fetch_add(1);
    if (k >= count) return;
    const std::uint32_t s = subtree(k);
    // Whole unless the search says it stopped inside the subtree.
    const auto search_whole = [&](Local& into) {
      if constexpr (std::is_same_v<decltype(search(prefixes[s], into)), bool>)
        return search(prefixes[s], into);
      search(prefixes[s], into);
      return true;
    };
    bool whole = true;
    if (!run.finished) {  // straight into the worker's accumulator
      whole = search_whole(locals.local());
    } else {  // into one of its own, to report it once the subtree is whole
      Local part{};
      whole = search_whole(part);
      if (whole) run.finished(s, part);
      locals.local() += std::move(part);
    }
    if (!whole) return;  // stopped: not done, and the line keeps what was
    const std::size_t d = shared ? earlier + std::min<std::size_t>(k + 1, count)
                                 : done.fetch_add(1, std::memory_order_relaxed) + 1;
    if (run.progress) run.progress({.done = d, .total = total, .before = earlier});
  });
  Local sum{};
  locals.for_each([&](Local& local) {
    sum += std::move(local);  // (a count's tally takes the larger set of the two)
    local = Local{};          // its memory back before the next is added
  });
  dealer.reset();  // across processes: together, once every draw is made
  return sum;
}

// The older form: a progress callback only.
template <class Local, class Prefix, class Search>
Local search_subtrees(std::span<const Prefix> prefixes, Search&& search,
                      const std::function<void(const SplitProgress&)>& progress) {
  SubtreeRun<Local> run;
  run.progress = progress;
  return search_subtrees<Local, Prefix>(prefixes, std::forward<Search>(search), run);
}

}  // namespace cubenum::search
