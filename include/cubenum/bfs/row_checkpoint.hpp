#pragma once
// The row engine's checkpoints (row_bfs.hpp, two-bit storage): a level
// boundary saved, and read back to go on from it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cubenum/bfs/row_interface.hpp"
#include "cubenum/bfs/row_storage.hpp"
#include "cubenum/core/checkpoint.hpp"
#include "cubenum/core/error.hpp"

namespace cubenum::bfs::detail {

// A level boundary in a checkpoint: the levels so far in the state; the
// table, the frontier's block marks and its rows' counts as data.
inline CheckpointJson levels_json(const std::vector<RowLevel>& levels) {
  CheckpointJson out = CheckpointJson::array();
  for (const RowLevel& l : levels)
    out.push_back({l.depth, l.states, l.seconds, l.work.pushed, l.work.pulled, l.work.permuted,
                   l.work.cycled});
  return out;
}

inline std::vector<RowLevel> levels_of(const CheckpointJson& json, const std::string& source) {
  std::vector<RowLevel> levels;
  if (!json.is_array() || json.empty())
    throw InputError(source, 0, "the checkpoint has no levels (corrupt)");
  for (const CheckpointJson& l : json) {
    if (!l.is_array() || l.size() != 7 || !l[2].is_number())
      throw InputError(source, 0, "a level of the checkpoint is malformed (corrupt)");
    for (std::size_t i : {0, 1, 3, 4, 5, 6})
      if (!l[i].is_number_unsigned())
        throw InputError(source, 0, "a level of the checkpoint is malformed (corrupt)");
    RowLevel level{l[0].get<unsigned>(), l[1].get<std::uint64_t>(), l[2].get<double>(), {}};
    level.work = {l[3].get<std::uint64_t>(), l[4].get<std::uint64_t>(), l[5].get<std::uint64_t>(),
                  l[6].get<std::uint64_t>()};
    if (level.depth != levels.size())
      throw InputError(source, 0, "the checkpoint's levels are out of order (corrupt)");
    levels.push_back(level);
  }
  return levels;
}

template <class Levels>
void save_rows(CheckpointWriter& writer, TwoBitRows& storage, const Levels& state,
               const std::vector<RowLevel>& levels, const CheckpointJson& extra) {
  const std::vector<std::uint32_t>& frontier = state.frontier_counts();
  writer.save({{"levels", levels_json(levels)}, {"extra", extra}},
              {{"table", storage.table_bytes()},
               {"frontier",
                {reinterpret_cast<const std::byte*>(frontier.data()),
                 frontier.size() * sizeof(std::uint32_t)}}});
}

template <class Levels>
std::vector<RowLevel> load_rows(const CheckpointReader& reader, TwoBitRows& storage, Levels& state,
                                std::uint32_t rows) {
  std::vector<RowLevel> levels =
      levels_of(reader.state().value("levels", CheckpointJson()), "--resume");
  reader.read("table", storage.table_bytes());
  std::vector<std::uint32_t> frontier(rows);
  reader.read("frontier", {reinterpret_cast<std::byte*>(frontier.data()),
                           frontier.size() * sizeof(std::uint32_t)});
  // The frontier: the last level that found states.
  unsigned depth = 0;
  for (const RowLevel& level : levels)
    if (level.states != 0) depth = level.depth;
  storage.restored(depth);
  state.restore(std::move(frontier));
  return levels;
}

}  // namespace cubenum::bfs::detail
