#include "cubenum/bfs/bfs_checkpoint.hpp"

#include <fmt/format.h>

#include <array>
#include <span>
#include <vector>

#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/stopwatch.hpp"

namespace cubenum::bfs {

void save_boundary(CheckpointWriter& writer, const BfsBoundary& boundary,
                   const CheckpointJson& extra) {
  CheckpointJson levels = CheckpointJson::array();
  for (const LevelStats& level : boundary.levels)
    levels.push_back({level.depth, level.states, level.seconds, direction_text(level.direction)});
  const bool two_bit = boundary.frontier_chunks != nullptr;
  const CheckpointJson state = {{"levels", levels},
                                {"reached", boundary.reached},
                                {"depth_table", boundary.depths != nullptr},
                                {"two_bit", two_bit},
                                {"extra", extra}};
  // With a depth table, `visited` follows from it (depth mod 3 cannot tell
  // the frontier from the states three levels back: two-bit mode keeps the
  // frontier's states by chunk).
  if (two_bit)
    writer.save(state, {{"depths", boundary.depths->cells().bytes()},
                        {"frontier_chunks", std::as_bytes(std::span(*boundary.frontier_chunks))}});
  else if (boundary.depths != nullptr)
    writer.save(state, {{"depths", boundary.depths->cells().bytes()},
                        {"frontier", boundary.frontier.bytes()}});
  else
    writer.save(state,
                {{"visited", boundary.visited.bytes()}, {"frontier", boundary.frontier.bytes()}});
}

namespace {

// visited: every state with a depth.
void visited_from_depths(const DepthTable& depths, AtomicBitmap& visited) {
  parallel_for_chunks(visited.words(), 4096, [&](std::size_t begin, std::size_t end) {
    for (std::size_t w = begin; w != end; ++w) {
      std::uint64_t seen = 0;
      for (std::size_t half = 0; half < 2; ++half) {
        const std::uint64_t cells = depths.cells().load_word(2 * w + half);
        for (unsigned i = 0; i < 32; ++i)
          seen |= std::uint64_t{(cells >> (2 * i) & 3U) != 0} << (32 * half + i);
      }
      visited.store_word(w, seen);
    }
  });
}

// Two-bit mode: the reached states, and the frontier's (by chunk).
std::array<std::uint64_t, 2> two_bit_counts(const DepthTable& depths,
                                            const std::vector<std::uint64_t>& frontier_chunks) {
  const std::uint64_t reached = parallel_sum<std::uint64_t>(
      depths.cells().words(), 4096, [&](std::size_t begin, std::size_t end) {
        std::uint64_t sum = 0;
        for (std::size_t i = begin; i != end; ++i) sum += depths.seen_in_cells(i);
        return sum;
      });
  std::uint64_t frontier = 0;
  for (std::uint64_t n : frontier_chunks) frontier += n;
  return {reached, frontier};
}

}  // namespace

CheckpointJson load_boundary(const CheckpointReader& reader, BfsBoundary& boundary) {
  const CheckpointJson& state = reader.state();
  const auto bad = [](const std::string& what) {
    return InputError("--resume", 0, "the checkpoint's state is corrupt: " + what);
  };
  if (!state.is_object() || !state.contains("levels") || !state["levels"].is_array() ||
      state["levels"].empty() || !state.contains("reached") || !state.contains("depth_table"))
    throw bad("no levels");
  if (state["depth_table"] != (boundary.depths != nullptr))
    throw InputError("--resume", 0, "the checkpoint was made with another depth-table setting");
  const bool two_bit = boundary.frontier_chunks != nullptr;
  if (state.value("two_bit", false) != two_bit)
    throw InputError("--resume", 0,
                     two_bit ? "the checkpoint was made with bitmaps, not in two-bit mode"
                             : "the checkpoint was made in two-bit mode, not with bitmaps");
  boundary.levels.clear();
  for (const CheckpointJson& level : state["levels"]) {
    if (!level.is_array() || level.size() != 4) throw bad("a level");
    boundary.levels.push_back(
        LevelStats{level[0].get<unsigned>(), level[1].get<std::uint64_t>(), level[2].get<double>(),
                   level[3] == "top-down" ? Direction::TopDown : Direction::BottomUp});
  }
  boundary.reached = state["reached"].get<std::uint64_t>();
  // Across processes a file may fail on one process only: they agree on
  // the first process's error before going on together.
  std::string problem;
  try {
    if (two_bit) {
      reader.read("depths", boundary.depths->cells().bytes());
      reader.read("frontier_chunks", std::as_writable_bytes(std::span(*boundary.frontier_chunks)));
    } else if (boundary.depths != nullptr) {
      reader.read("frontier", boundary.frontier.bytes());
      reader.read("depths", boundary.depths->cells().bytes());
      visited_from_depths(*boundary.depths, boundary.visited);
    } else {
      reader.read("frontier", boundary.frontier.bytes());
      reader.read("visited", boundary.visited.bytes());
    }
  } catch (const InputError& e) {
    problem = e.what();
  }
  if (boundary.cluster != nullptr) problem = first_problem(*boundary.cluster, problem);
  if (!problem.empty()) throw InputError(problem);
  // The counts agree with the bitmaps: a checkpoint that passed its
  // checksums but not this was written by another program.
  std::uint64_t sum = 0;
  for (const LevelStats& level : boundary.levels) sum += level.states;
  std::array<std::uint64_t, 2> counts{boundary.visited.count(), boundary.frontier.count()};
  if (two_bit) counts = two_bit_counts(*boundary.depths, *boundary.frontier_chunks);
  if (boundary.cluster != nullptr) boundary.cluster->sum(counts);
  if (sum != boundary.reached || counts[0] != boundary.reached ||
      counts[1] != boundary.levels.back().states)
    throw bad("its counts disagree with its bitmaps");
  return state.contains("extra") ? state["extra"] : CheckpointJson();
}

void add_checkpoints(BfsOptions& options, CheckpointWriter* writer, double every,
                     const CheckpointReader* resume, std::function<CheckpointJson()> extra,
                     std::function<void(const CheckpointJson&)> restored) {
  if (resume != nullptr)
    options.restore = [resume, restored = std::move(restored)](BfsBoundary& boundary) {
      const CheckpointJson saved = load_boundary(*resume, boundary);
      if (restored) restored(saved);
    };
  if (writer != nullptr)
    options.at_boundary = [writer, every, extra = std::move(extra), since = Stopwatch()](
                              const BfsBoundary& boundary, bool stopping) mutable {
      // Every process saves, or none.
      bool due = stopping || since.seconds() >= every;
      if (boundary.cluster != nullptr) due = any(*boundary.cluster, due);
      if (!due) return;
      save_boundary(*writer, boundary, extra ? extra() : CheckpointJson());
      since.restart();
    };
}

}  // namespace cubenum::bfs
