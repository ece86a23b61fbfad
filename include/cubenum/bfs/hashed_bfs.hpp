#pragma once
// The baseline engine, for spaces without a cheap perfect rank: states are
// packed into 64-bit keys and kept in a lock-free hash set; each level's
// frontier is a vector of keys, expanded in parallel into thread-local
// vectors.
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <concepts>
#include <cstdint>
#include <span>
#include <vector>

#include "cubenum/core/concurrent_hash_set.hpp"

namespace cubenum::bfs {

// for_each_neighbour(key, visit) calls visit(neighbour_key) for each move.
template <class S>
concept PackedSpace = requires(const S& space, std::uint64_t key) {
  space.for_each_neighbour(key, [](std::uint64_t) {});
};

struct HashedBfsResult {
  std::vector<std::uint64_t> distribution;  // states per distance
  std::uint64_t reached = 0;
};

// BFS from `sources`; `capacity` bounds the number of reachable states.
template <PackedSpace S>
HashedBfsResult hashed_bfs(const S& space, std::span<const std::uint64_t> sources,
                           std::uint64_t capacity) {
  ConcurrentHashSet seen(capacity);
  std::vector<std::uint64_t> frontier;
  for (std::uint64_t s : sources)
    if (seen.insert(s)) frontier.push_back(s);

  HashedBfsResult result;
  while (!frontier.empty()) {
    result.distribution.push_back(frontier.size());
    result.reached += frontier.size();
    tbb::enumerable_thread_specific<std::vector<std::uint64_t>> found;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size(), 1024),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        auto& local = found.local();
                        for (std::size_t i = r.begin(); i != r.end(); ++i)
                          space.for_each_neighbour(frontier[i], [&](std::uint64_t n) {
                            if (seen.insert(n)) local.push_back(n);
                          });
                      });
    frontier.clear();
    for (auto& local : found) frontier.insert(frontier.end(), local.begin(), local.end());
  }
  return result;
}

}  // namespace cubenum::bfs
