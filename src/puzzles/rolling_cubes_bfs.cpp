// The rolling-cubes BFS (the frontier engine with the space's cursor) and
// the shortest-solution walk and count.

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <stdexcept>

#include "cubenum/bfs/bfs_checkpoint.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/rolling_cubes.hpp"

namespace cubenum::rolling {
namespace {

__extension__ typedef unsigned __int128 Count;

std::string to_decimal(Count n) {
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(n % 10)));
    n /= 10;
  } while (n != 0);
  return s;
}

struct Counted {
  std::uint64_t rank;
  Count count;
};

}  // namespace

std::vector<std::uint64_t> RollingBfsResult::distribution() const {
  std::vector<std::uint64_t> d;
  for (const auto& level : levels) d.push_back(level.states);
  return d;
}

namespace {

// A resumed search took the watched state's depth from its checkpoint: it
// must be the depth the table gives (whether reached, and how far), else
// the checkpoint is corrupt and the answer would be wrong.
void check_watch_depth(const RollingCubesSpace& space, const RollingBfsResult& result,
                       std::uint64_t source, std::uint64_t watch, const CheckpointReader& resume,
                       Cluster* cluster) {
  const std::vector<std::uint64_t> path =
      bfs::path_to_source(space, *result.depths, {&source, 1}, watch, result.part, cluster);
  const std::optional<unsigned> depth =
      path.empty() ? std::nullopt : std::optional<unsigned>(unsigned(path.size() - 1));
  if (depth == result.watch_depth) return;
  const auto text = [](std::optional<unsigned> d) {
    return d ? std::to_string(*d) : std::string("not reached");
  };
  throw InputError(resume.dir(), 0,
                   "corrupt checkpoint: its goal's depth (state.extra.watch_depth) is " +
                       text(result.watch_depth) + ", the depth table's " + text(depth));
}

}  // namespace

RollingBfsResult rolling_bfs(const RollingCubesSpace& space, std::uint64_t source,
                             const RollingBfsOptions& options) {
  RollingBfsResult result;
  bfs::BfsOptions bfs_options;
  bfs_options.policy = options.policy;
  bfs_options.depth_table = options.depth_table;
  bfs_options.two_bit = options.two_bit;
  bfs_options.on_progress = options.on_progress;
  bfs_options.cluster = options.cluster;
  // `states`: this process's part (found.part, known once the search has
  // started: part_of gives it). The first level that reaches the watched
  // state is its depth.
  Cluster* cluster = options.cluster;
  const RankPart part =
      cluster ? part_of(space.size(), cluster->process(), cluster->processes()) : kAllRanks;
  bfs_options.on_level = [&](const bfs::LevelStats& level, const bfs::LevelStates& states) {
    if (options.on_level) options.on_level(level);
    if (!options.watch || result.watch_depth) return;
    bool here = part.owns(*options.watch) && states.reached(part.local(*options.watch));
    if (cluster != nullptr) here = any(*cluster, here);
    if (here) result.watch_depth = level.depth;
  };
  if (options.stop_at_watch)
    bfs_options.stop_after = [&](const bfs::LevelStats&, const bfs::LevelStates&) {
      return result.watch_depth.has_value();
    };
  // The watched state's depth goes into the checkpoint beside the boundary.
  bfs_options.should_stop = options.should_stop;
  bfs::add_checkpoints(
      bfs_options, options.checkpoint, options.checkpoint_every, options.resume,
      [&result] {
        return CheckpointJson{
            {"watch_depth", result.watch_depth ? CheckpointJson(*result.watch_depth) : nullptr}};
      },
      [&result](const CheckpointJson& extra) {
        if (extra.is_object() && extra.contains("watch_depth") && !extra["watch_depth"].is_null())
          result.watch_depth = extra["watch_depth"].get<unsigned>();
      });
  bfs::BfsResult found = bfs::frontier_bfs(space, {&source, 1}, bfs_options);
  result.levels = std::move(found.levels);
  result.reached = found.reached;
  result.depths = std::move(found.depths);
  result.part = found.part;
  result.stopped = found.stopped;
  result.resumed = found.resumed;
  if (result.resumed && options.watch && result.depths)
    check_watch_depth(space, result, source, *options.watch, *options.resume, cluster);
  return result;
}

ShortestSolution shortest_solution(const RollingCubesSpace& space, const bfs::DepthTable& depths,
                                   std::uint64_t start, std::uint64_t goal, unsigned depth,
                                   const RankPart& part, Cluster* cluster) {
  ShortestSolution solution;
  solution.length = depth;
  solution.states = bfs::path_to_source(space, depths, {&start, 1}, goal, part, cluster);
  if (solution.states.size() != depth + 1)
    throw std::logic_error("shortest_solution: depth table disagrees with the goal's depth");
  std::reverse(solution.states.begin(), solution.states.end());
  for (std::size_t i = 0; i + 1 < solution.states.size(); ++i)
    solution.moves.push_back(space.move_between(solution.states[i], solution.states[i + 1]));
  return solution;
}

namespace {

// Across processes: each edge goes to the process that owns its state (the
// only one that knows its depth). Processes are alike machines: the edges
// travel as their bytes.
std::vector<Counted> route(const std::vector<Counted>& edges, std::uint64_t states,
                           Cluster& cluster) {
  std::vector<std::vector<std::byte>> send(static_cast<std::size_t>(cluster.processes()));
  for (const Counted& e : edges) {
    auto& out = send[static_cast<std::size_t>(owner_of(e.rank, states, cluster.processes()))];
    const auto* bytes = reinterpret_cast<const std::byte*>(&e);
    out.insert(out.end(), bytes, bytes + sizeof e);
  }
  std::vector<Counted> routed;
  for (const auto& bytes : cluster.exchange(std::move(send))) {
    const std::size_t at = routed.size();
    routed.resize(at + bytes.size() / sizeof(Counted));
    std::memcpy(static_cast<void*>(routed.data() + at), bytes.data(), bytes.size());
  }
  return routed;
}

}  // namespace

std::optional<std::string> count_shortest_sequences(const RollingCubesSpace& space,
                                                    const bfs::DepthTable& depths,
                                                    std::uint64_t start, std::uint64_t goal,
                                                    unsigned depth, std::uint64_t max_layer_states,
                                                    const RankPart& part, Cluster* cluster) {
  if (cluster != nullptr && cluster->processes() == 1) cluster = nullptr;
  std::vector<Counted> layer;
  if (part.owns(goal)) layer.push_back({goal, 1});
  for (unsigned k = depth; k-- > 0;) {
    const int closer = static_cast<int>(k % 3);
    auto closer_here = [&](std::uint64_t n) {
      return part.owns(n) && depths.depth_mod3(part.local(n)) == closer;
    };
    PerWorker<std::vector<Counted>> found;
    parallel_for_chunks(layer.size(), 4096, [&](std::size_t begin, std::size_t end) {
      auto& local = found.local();
      for (std::size_t i = begin; i != end; ++i)
        space.for_each_neighbour(layer[i].rank, [&](std::uint64_t n) {
          if (cluster != nullptr || closer_here(n)) local.push_back({n, layer[i].count});
          return false;
        });
    });
    std::vector<Counted> edges;
    std::size_t found_edges = 0;
    found.for_each([&](auto& local) { found_edges += local.size(); });
    if (cluster == nullptr && found_edges > max_layer_states) return std::nullopt;
    edges.reserve(found_edges);
    found.for_each([&](auto& local) { edges.insert(edges.end(), local.begin(), local.end()); });
    if (cluster != nullptr) {
      edges = route(edges, space.size(), *cluster);
      std::erase_if(edges, [&](const Counted& e) { return !closer_here(e.rank); });
      if (total(*cluster, edges.size()) > max_layer_states) return std::nullopt;
    }
    const auto by_rank = [](const Counted& a, const Counted& b) { return a.rank < b.rank; };
    parallel_sort(edges.begin(), edges.end(), by_rank);
    // Merge the edges into the layer: one entry per state, counts summed.
    layer.clear();
    for (const Counted& e : edges) {
      if (!layer.empty() && layer.back().rank == e.rank) {
        if (__builtin_add_overflow(layer.back().count, e.count, &layer.back().count))
          throw std::overflow_error("count_shortest_sequences: more than 2^128 sequences");
      } else {
        layer.push_back(e);
      }
    }
  }
  const bool alone_with_start = layer.size() == 1 && layer[0].rank == start;
  if (part.owns(start) ? !alone_with_start : !layer.empty())
    throw std::logic_error("count_shortest_sequences: depth table disagrees with the goal's depth");
  if (cluster == nullptr) return to_decimal(layer[0].count);
  // The start's owner has the count; the others have nothing (zero).
  std::array<std::uint64_t, 2> halves{};
  if (!layer.empty())
    halves = {static_cast<std::uint64_t>(layer[0].count),
              static_cast<std::uint64_t>(layer[0].count >> 64)};
  cluster->max_of(halves);
  return to_decimal(Count{halves[1]} << 64 | halves[0]);
}

}  // namespace cubenum::rolling
