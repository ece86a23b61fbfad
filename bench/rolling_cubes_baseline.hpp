#pragma once
// The plain single-threaded implementation that the rolling-cubes engine is
// measured against: what a careful C++ programmer writes first. States are
// packed into a 64-bit key (4 bits per cell, 15 for the empty cell), kept in
// a std::unordered_map with their depth, path count and parent, and visited
// in a std::queue. It computes everything `cubenum rolling-cubes bfs`
// reports: distribution, farthest states, one shortest sequence and the
// number of shortest sequences.
#include <cstdint>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

namespace cubenum::bench {

struct PlainRollingResult {
  std::vector<std::uint64_t> distribution;
  unsigned goal_depth = 0;
  std::uint64_t sequences = 0;
  std::string moves;
};

inline PlainRollingResult plain_rolling_bfs(unsigned rows, unsigned cols) {
  static constexpr int kRoll[4][6] = {
      {2, 4, 1, 3, 0, 5}, {4, 2, 0, 3, 1, 5}, {5, 3, 2, 0, 4, 1}, {3, 5, 2, 1, 4, 0}};
  static constexpr char kLetters[] = "UDLR";
  const int dr[4] = {1, -1, 0, 0}, dc[4] = {0, 0, 1, -1};  // where the cube comes from
  const unsigned cells = rows * cols, centre = (rows / 2) * cols + cols / 2;
  auto cell = [](std::uint64_t key, unsigned i) { return (key >> (4 * i)) & 15; };
  auto uniform = [&](std::uint64_t orientation) {
    std::uint64_t key = 0;
    for (unsigned i = 0; i < cells; ++i) key |= (i == centre ? 15 : orientation) << (4 * i);
    return key;
  };
  struct Node {
    unsigned depth;
    std::uint64_t paths;
    std::uint64_t parent;
    char move;
  };
  const std::uint64_t start = uniform(0), goal = uniform(1);
  std::unordered_map<std::uint64_t, Node> seen;
  std::queue<std::uint64_t> queue;
  seen[start] = Node{0, 1, start, 0};
  queue.push(start);
  PlainRollingResult result;
  while (!queue.empty()) {
    const std::uint64_t key = queue.front();
    queue.pop();
    const Node node = seen[key];
    if (result.distribution.size() <= node.depth) result.distribution.push_back(0);
    ++result.distribution[node.depth];
    unsigned empty = 0;
    while (cell(key, empty) != 15) ++empty;
    const int r = static_cast<int>(empty / cols), c = static_cast<int>(empty % cols);
    for (int m = 0; m < 4; ++m) {
      const int fr = r + dr[m], fc = c + dc[m];
      if (fr < 0 || fc < 0 || fr >= static_cast<int>(rows) || fc >= static_cast<int>(cols))
        continue;
      const unsigned from = static_cast<unsigned>(fr) * cols + static_cast<unsigned>(fc);
      const std::uint64_t rolled = static_cast<std::uint64_t>(kRoll[m][cell(key, from)]);
      std::uint64_t next = key & ~(std::uint64_t{15} << (4 * empty));
      next = (next | rolled << (4 * empty)) | std::uint64_t{15} << (4 * from);
      auto [it, fresh] = seen.try_emplace(next, Node{node.depth + 1, 0, key, kLetters[m]});
      if (fresh) queue.push(next);
      if (it->second.depth == node.depth + 1) it->second.paths += node.paths;
    }
  }
  const auto found = seen.find(goal);
  if (found == seen.end()) return result;
  result.goal_depth = found->second.depth;
  result.sequences = found->second.paths;
  for (std::uint64_t key = goal; key != start; key = seen[key].parent)
    result.moves.insert(result.moves.begin(), seen[key].move);
  return result;
}

}  // namespace cubenum::bench
