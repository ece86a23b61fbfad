#pragma once
// The parallel skeleton of every backtracking search: the search tree is
// cut at a depth where there are many more subtrees than threads (the
// caller enumerates those prefixes), and each subtree is searched on its own
// with a per-worker accumulator. Accumulators are combined with +=, so
// totals never depend on scheduling or thread count.
#include <atomic>
#include <cstddef>
#include <functional>
#include <span>

#include "cubenum/core/parallel.hpp"

namespace cubenum::search {

struct SplitProgress {
  std::size_t done = 0, total = 0;
};

// Calls search(prefix, local) for every prefix, `local` being the calling
// worker's accumulator, and returns the sum of all accumulators. `progress`
// (optional) is called once before the first subtree (0 done) and after
// each subtree.
template <class Local, class Prefix, class Search>
Local search_subtrees(std::span<const Prefix> prefixes, Search&& search,
                      const std::function<void(const SplitProgress&)>& progress = {}) {
  PerWorker<Local> locals;
  std::atomic<std::size_t> done{0};
  if (progress) progress({0, prefixes.size()});
  parallel_for_chunks(prefixes.size(), 1, [&](std::size_t begin, std::size_t end) {
    Local& local = locals.local();
    for (std::size_t i = begin; i != end; ++i) {
      search(prefixes[i], local);
      const std::size_t d = done.fetch_add(1, std::memory_order_relaxed) + 1;
      if (progress) progress({d, prefixes.size()});
    }
  });
  Local total{};
  locals.for_each([&](Local& local) { total += local; });
  return total;
}

}  // namespace cubenum::search
