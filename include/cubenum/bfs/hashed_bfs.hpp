#pragma once
// The baseline engine, for spaces without a cheap perfect rank: states are
// packed into 64-bit keys and kept in a lock-free hash set; each level's
// frontier is a vector of keys, expanded in parallel into thread-local
// vectors.
#include <concepts>
#include <cstdint>
#include <span>
#include <vector>

#include "cubenum/core/concurrent_hash_set.hpp"
#include "cubenum/core/parallel.hpp"

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
    PerWorker<std::vector<std::uint64_t>> found;
    parallel_for_chunks(frontier.size(), 1024, [&](std::size_t begin, std::size_t end) {
      auto& local = found.local();
      for (std::size_t i = begin; i != end; ++i)
        space.for_each_neighbour(frontier[i], [&](std::uint64_t n) {
          if (seen.insert(n)) local.push_back(n);
        });
    });
    frontier.clear();
    found.for_each(
        [&](auto& local) { frontier.insert(frontier.end(), local.begin(), local.end()); });
  }
  return result;
}

}  // namespace cubenum::bfs
