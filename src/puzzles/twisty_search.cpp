// God's-number runs, shortest paths and depth-table files for definition
// files.
#include "cubenum/puzzles/twisty_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>

#include "cubenum/bfs/bfs_checkpoint.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/hash.hpp"
#include "cubenum/core/output_file.hpp"
#include "cubenum/core/table_file.hpp"

namespace cubenum::twisty {

namespace {

// The column permutations, as far as they are kept (twisty_space.hpp).
std::uint64_t action_bytes(const TwistySpace& space) {
  const std::uint64_t actions =
      std::uint64_t{space.contexts()} * space.moves() * space.columns() * 2;
  return std::min<std::uint64_t>(actions, 64ULL << 20);
}

CheckpointJson classes_json(const std::vector<LevelClasses>& classes) {
  CheckpointJson out = CheckpointJson::array();
  for (const LevelClasses& c : classes) out.push_back({c.classes, c.with_inverse});
  return out;
}

std::vector<LevelClasses> saved_classes(const CheckpointJson& json) {
  if (!json.is_array()) throw InputError("--resume", 0, "the checkpoint has no classes (corrupt)");
  std::vector<LevelClasses> classes;
  for (const CheckpointJson& c : json) {
    if (!c.is_array() || c.size() != 2 || !c[0].is_number_unsigned() || !c[1].is_number_unsigned())
      throw InputError("--resume", 0,
                       "a level's classes in the checkpoint are malformed (corrupt)");
    classes.push_back({c[0].get<std::uint64_t>(), c[1].get<std::uint64_t>()});
  }
  return classes;
}

}  // namespace

std::uint64_t bfs_bytes(const TwistySpace& space) {
  const std::uint64_t words = (std::uint64_t{space.columns()} + 31) / 32;
  const std::uint64_t table = std::uint64_t{space.rows()} * words * 8;
  const std::uint64_t per_row = std::uint64_t{space.rows()} * (3 * 4 + 4 * space.moves() + 4);
  return table + per_row + action_bytes(space);
}

Enumeration enumerate(const TwistySpace& space, const EnumerateOptions& options) {
  Enumeration e;
  bfs::RowBfsOptions bfs_options;
  bfs_options.policy = options.policy;
  if (options.classes_of != nullptr) {
    bfs_options.codes = bfs::RowCodes::Frontier;
    // The classes of the levels done travel with the checkpoint; the last
    // saved level is the frontier, whose classes on_level counts again.
    bfs_options.save_extra = [&] { return classes_json(e.classes); };
    bfs_options.resume_extra = [&](const CheckpointJson& saved) {
      e.classes = saved_classes(saved);
      if (!e.classes.empty()) e.classes.pop_back();
    };
  }
  bfs_options.on_level = [&](const bfs::RowLevel& level, const bfs::LevelRows& rows) {
    if (options.classes_of != nullptr)
      e.classes.push_back(count_classes(space, *options.classes_of, rows));
    if (options.on_level) options.on_level(level);
  };
  bfs_options.on_progress = options.on_progress;
  bfs_options.keep_last_rows = options.antipodes;
  bfs_options.checkpoint = options.checkpoint;
  bfs_options.checkpoint_every = options.checkpoint_every;
  bfs_options.resume = options.resume;
  bfs_options.should_stop = options.should_stop;
  std::vector<std::uint64_t> sources = options.sources;
  if (sources.empty()) sources.push_back(space.solved_rank());
  e.bfs = bfs::row_bfs(space, sources, bfs_options);
  if (e.bfs.stopped || !e.bfs.depths) return e;
  // In the rows the last level reached, the states with its code (older
  // levels share it, depth mod 3) that are at the full depth.
  const unsigned max_depth = e.bfs.max_depth();
  const int code = static_cast<int>(max_depth % 3), beyond = static_cast<int>((max_depth + 1) % 3);
  for (std::uint32_t row : e.bfs.last_rows)
    for (std::uint32_t c = 0; c < space.columns() && e.antipodes.size() < options.antipodes; ++c) {
      const std::uint64_t rank = std::uint64_t{row} * space.columns() + c;
      if (e.bfs.depths->depth_mod3(rank) != code) continue;
      // A state three levels back has, but for dead ends, a neighbour one
      // level further out; an antipode has none.
      bool further = false;
      for (int m = 0; m < space.moves() && !further; ++m)
        further = e.bfs.depths->depth_mod3(space.neighbour(rank, m)) == beyond;
      if (further) continue;
      std::vector<int> path = path_to_solved(space, *e.bfs.depths, rank);
      if (path.size() == max_depth) {
        e.antipodes.push_back(inverse_sequence(space, path));
        break;  // one per row: different antipodes
      }
    }
  return e;
}

namespace {

// The space as the frontier engine sees it (bfs::RankedSpace), with a
// cursor that keeps the moves' tables for the row of consecutive ranks.
class Ranks {
 public:
  explicit Ranks(const TwistySpace& space) : space_(space) {}
  std::uint64_t size() const { return space_.size(); }

  template <class Visit>
  bool for_each_neighbour(std::uint64_t rank, Visit&& visit) const {
    for (int m = 0; m < space_.moves(); ++m)
      if (visit(space_.neighbour(rank, m))) return true;
    return false;
  }

  class Cursor {
   public:
    explicit Cursor(const TwistySpace& space) : space_(space) {}
    template <class Visit>
    bool for_each_neighbour(std::uint64_t rank, Visit&& visit) {
      const std::uint64_t row = rank / space_.columns();
      if (row != row_) enter(static_cast<std::uint32_t>(row));
      const auto column = static_cast<std::uint32_t>(rank - row * space_.columns());
      for (std::size_t m = 0; m < to_.size(); ++m)
        if (visit(to_[m] + action_[m][column])) return true;
      return false;
    }

   private:
    void enter(std::uint32_t row) {
      row_ = row;
      to_.resize(static_cast<std::size_t>(space_.moves()));
      action_.resize(to_.size());
      for (int m = 0; m < space_.moves(); ++m) {
        to_[static_cast<std::size_t>(m)] =
            std::uint64_t{space_.row_step(row, m)} * space_.columns();
        action_[static_cast<std::size_t>(m)] = space_.action(row, m);
      }
    }
    const TwistySpace& space_;
    std::uint64_t row_ = ~std::uint64_t{0};
    std::vector<std::uint64_t> to_;  // first rank of each move's row
    std::vector<const std::uint16_t*> action_;
  };
  Cursor cursor(std::uint64_t) const { return Cursor(space_); }

 private:
  const TwistySpace& space_;
};

// Up to `wanted` states of `level` (this process's part), the first of each
// row, rows in order: antipode candidates.
std::vector<std::uint64_t> first_of_rows(const TwistySpace& space, const AtomicBitmap& level,
                                         const RankPart& part, std::size_t wanted) {
  std::vector<std::uint64_t> found;
  std::uint64_t last_row = ~std::uint64_t{0};
  for (std::size_t w = 0; w < level.words() && found.size() < wanted; ++w)
    for (std::uint64_t bits = level.load_word(w); bits != 0 && found.size() < wanted;
         bits &= bits - 1) {
      const std::uint64_t rank =
          part.first + w * 64 + static_cast<unsigned>(std::countr_zero(bits));
      if (rank / space.columns() == last_row) continue;
      last_row = rank / space.columns();
      found.push_back(rank);
    }
  return found;
}

// Every process's candidates, merged: the first state of each of the first
// `wanted` rows of the whole level.
std::vector<std::uint64_t> merge_candidates(const TwistySpace& space,
                                            const std::vector<std::uint64_t>& mine,
                                            std::size_t wanted, Cluster& cluster) {
  std::string bytes(reinterpret_cast<const char*>(mine.data()), mine.size() * sizeof mine[0]);
  std::vector<std::uint64_t> all;
  for (const std::string& part : gather_texts(cluster, bytes)) {
    const std::size_t at = all.size();
    all.resize(at + part.size() / sizeof(std::uint64_t));
    std::memcpy(all.data() + at, part.data(), part.size());
  }
  std::sort(all.begin(), all.end());
  std::vector<std::uint64_t> firsts;
  for (std::uint64_t rank : all) {
    if (firsts.size() == wanted) break;
    if (firsts.empty() || rank / space.columns() != firsts.back() / space.columns())
      firsts.push_back(rank);
  }
  return firsts;
}

}  // namespace

std::uint64_t shared_bfs_bytes(const TwistySpace& space, int processes, bool depth_table) {
  const RankPart part = part_of(space.size(), 0, processes);  // the largest part
  const std::uint64_t own_bits = part.count * (3 + (depth_table ? 2 : 0));
  const std::uint64_t gathered_bits = processes > 1 ? space.size() : 0;
  return (own_bits + gathered_bits) / 8 + action_bytes(space);
}

SharedEnumeration enumerate_shared(const TwistySpace& space, const SharedEnumerateOptions& options,
                                   Cluster& cluster) {
  if (space.moves() > static_cast<int>(bfs::kMaxNeighbours))
    throw InputError(space.definition().file, 0,
                     fmt::format("{} moves: across processes a BFS takes at most {} (choose "
                                 "fewer with --moves, or run in one process)",
                                 space.moves(), bfs::kMaxNeighbours));
  const Ranks ranks(space);
  const RankPart part = part_of(space.size(), cluster.process(), cluster.processes());
  bfs::BfsOptions bfs_options;
  bfs_options.policy = options.policy;
  bfs_options.cluster = &cluster;
  bfs_options.depth_table = options.antipodes > 0;
  bfs_options.on_progress = options.on_progress;
  std::vector<std::uint64_t> candidates;  // of the last level with states
  std::vector<LevelClasses> classes;
  bfs_options.on_level = [&](const bfs::LevelStats& level, const bfs::LevelStates& states) {
    if (options.classes_of != nullptr) {
      const LevelClasses mine =
          count_classes(space, *options.classes_of, *states.level, part.first);
      classes.push_back({total(cluster, mine.classes), total(cluster, mine.with_inverse)});
    }
    if (options.on_level) options.on_level(level);
    if (level.states > 0) candidates = first_of_rows(space, *states.level, part, options.antipodes);
  };
  bfs_options.should_stop = options.should_stop;
  bfs::add_checkpoints(bfs_options, options.checkpoint, options.checkpoint_every, options.resume);
  // A resumed search may find no level after the saved one.
  if (bfs_options.restore)
    bfs_options.restore = [&, restore = std::move(bfs_options.restore)](bfs::BfsBoundary& b) {
      restore(b);
      candidates = first_of_rows(space, b.frontier, part, options.antipodes);
    };
  std::vector<std::uint64_t> sources = options.sources;
  if (sources.empty()) sources.push_back(space.solved_rank());
  SharedEnumeration e;
  e.bfs = bfs::frontier_bfs(ranks, sources, bfs_options);
  e.classes = std::move(classes);
  if (e.bfs.stopped || options.antipodes == 0) return e;
  for (std::uint64_t rank : merge_candidates(space, candidates, options.antipodes, cluster)) {
    const std::vector<std::uint64_t> path =
        bfs::path_to_source(ranks, *e.bfs.depths, sources, rank, part, &cluster);
    std::vector<int> moves;  // towards solved
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
      int m = 0;
      while (space.neighbour(path[i], m) != path[i + 1]) ++m;
      moves.push_back(m);
    }
    e.antipodes.push_back(inverse_sequence(space, moves));
  }
  return e;
}

std::vector<int> path_to_solved(const TwistySpace& space, const bfs::RowDepths& depths,
                                std::uint64_t rank) {
  std::vector<int> path;
  int code = depths.depth_mod3(rank);
  if (code < 0) throw InputError("this position is not reachable with the chosen moves");
  while (rank != space.solved_rank()) {
    const int closer = (code + 2) % 3;
    int found = -1;
    for (int m = 0; m < space.moves() && found < 0; ++m) {
      const std::uint64_t next = space.neighbour(rank, m);
      if (depths.depth_mod3(next) == closer) found = m, rank = next;
    }
    if (found < 0) throw std::logic_error("twisty: a depth table with no way down");
    path.push_back(found);
    code = closer;
  }
  return path;
}

std::vector<int> inverse_sequence(const TwistySpace& space, const std::vector<int>& moves) {
  std::vector<int> out;
  for (auto it = moves.rbegin(); it != moves.rend(); ++it) out.push_back(space.inverse(*it));
  return out;
}

std::string sequence_text(const TwistySpace& space, const std::vector<int>& moves) {
  return sequence_text(space.move_list(), moves);
}

// ---- table files

namespace {

constexpr TableFileKind kTableFile{"cubenum twisty depth table 1\n", "twisty depth table",
                                   "table file"};

}  // namespace

std::string moves_identity(const std::vector<Move>& moves, const Arrangement& solved) {
  std::string id = "moves";
  std::string effects;
  for (const Move& m : moves) {
    id += " " + m.name;
    for (std::size_t s = 0; s < m.effect.perm.size(); ++s) {
      effects.append(m.effect.perm[s].begin(), m.effect.perm[s].end());
      effects.append(m.effect.ori[s].begin(), m.effect.ori[s].end());
    }
  }
  for (std::size_t s = 0; s < solved.perm.size(); ++s) {
    effects.append(solved.perm[s].begin(), solved.perm[s].end());
    effects.append(solved.ori[s].begin(), solved.ori[s].end());
  }
  return id + fmt::format(" definition {:016x}", hash_bytes(effects.data(), effects.size()));
}

// What a table belongs to: the definition's pieces and moves as ranked, the
// search's moves and the layout.
std::string space_identity(const TwistySpace& space) {
  return fmt::format("rows {} columns {} ", space.rows(), space.columns()) +
         moves_identity(space.move_list(), space.definition().solved);
}

void save_table(const std::string& path, const TwistySpace& space, const bfs::RowDepths& depths) {
  write_table_file(path, "--table", kTableFile, space_identity(space),
                   {reinterpret_cast<const std::byte*>(depths.data()), depths.bytes()});
}

bfs::RowDepths load_table(const std::string& path, const TwistySpace& space) {
  TableFileReader file(path, kTableFile);
  if (file.header() != space_identity(space))
    throw InputError(path, 0,
                     "this table belongs to another puzzle, other moves or another layout "
                     "(build it again with --table)");
  bfs::RowDepths depths(space.rows(), space.columns());
  file.read({reinterpret_cast<std::byte*>(depths.data()), depths.bytes()});
  return depths;
}

}  // namespace cubenum::twisty
