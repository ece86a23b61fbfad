// The BFS over symmetry classes, and the positions and classes of each
// level counted from its classes.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <optional>

#include "cubenum/bfs/bfs_checkpoint.hpp"
#include "cubenum/bfs/frontier_bfs.hpp"
#include "cubenum/bfs/row_bfs.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/twisty_class_space.hpp"

namespace cubenum::twisty {

namespace {

// A level's positions and self-inverse classes from its bitmap (this
// process's part).
struct BitmapTally {
  std::uint64_t positions = 0, self_inverse = 0;
  BitmapTally& operator+=(const BitmapTally& o) {
    positions += o.positions;
    self_inverse += o.self_inverse;
    return *this;
  }
};

BitmapTally tally_level(const ClassSpace& space, const AtomicBitmap& level, std::uint64_t first,
                        bool inverse) {
  const std::uint64_t order = space.group_order();
  return parallel_sum<BitmapTally>(level.words(), 64, [&](std::size_t begin, std::size_t end) {
    BitmapTally sum;
    ClassSpace::Cursor cursor = space.cursor(first + begin * 64);
    for (std::size_t w = begin; w != end; ++w) {
      std::uint64_t bits = level.load_word(w);
      if (bits == 0) continue;
      // A word within plain classes: |G| positions a class.
      const std::uint64_t low = first + w * 64;
      if (space.plain(low, low + 63 - static_cast<unsigned>(std::countl_zero(bits)), inverse)) {
        sum.positions += order * static_cast<std::uint64_t>(std::popcount(bits));
        continue;
      }
      for (; bits != 0; bits &= bits - 1) {
        const std::uint64_t index = first + w * 64 + static_cast<unsigned>(std::countr_zero(bits));
        sum.positions += space.special(index) ? cursor.positions(index) : order;
        if (inverse) sum.self_inverse += cursor.self_inverse(index);
      }
    }
    return sum;
  });
}

// In two-bit mode a level's states are not told apart from those three
// levels older, but only the special classes' positions can differ from
// |G| a class: for them, the indices already counted are kept.
class SpecialTally {
 public:
  SpecialTally(const ClassSpace& space, const RankPart& part)
      : space_(space),
        part_(part),
        seen_(space.special_classes() * space.split().rest),
        cursor_(space.cursor(part.first)) {}

  // The level's special indices (code depth % 3, not yet counted): how many
  // and their positions.
  std::pair<std::uint64_t, std::uint64_t> count(const bfs::DepthTable& depths, unsigned depth) {
    std::uint64_t found = 0, positions = 0;
    visit([&](std::uint64_t index, std::uint64_t bit) {
      if (depths.depth_mod3(index - part_.first) != static_cast<int>(depth % 3) || seen_.test(bit))
        return;
      seen_.try_set(bit);
      ++found;
      positions += cursor_.positions(index);
    });
    return {found, positions};
  }
  // After a resume: every index reached so far is counted.
  void mark_reached(const bfs::DepthTable& depths) {
    visit([&](std::uint64_t index, std::uint64_t bit) {
      if (depths.depth_mod3(index - part_.first) != bfs::DepthTable::kUnseen) seen_.try_set(bit);
    });
  }

 private:
  template <class Body>
  void visit(Body&& body) {
    const std::uint64_t rest = space_.split().rest;
    const auto& classes = space_.stabilisers();
    for (std::size_t s = 0; s < classes.size(); ++s) {
      const std::uint64_t first = std::uint64_t{classes[s].first} * rest;
      for (std::uint64_t r = 0; r < rest; ++r)
        if (first + r >= part_.first && first + r < part_.first + part_.count)
          body(first + r, s * rest + r);
    }
  }

  const ClassSpace& space_;
  RankPart part_;
  AtomicBitmap seen_;
  ClassSpace::Cursor cursor_;  // storage for positions()
};

CheckpointJson saved_counts(const ClassEnumeration& e) {
  CheckpointJson out = CheckpointJson::array();
  for (std::size_t d = 0; d < e.positions.size(); ++d)
    out.push_back({e.positions[d], e.classes[d].classes, e.classes[d].with_inverse});
  return out;
}

void restore_counts(const CheckpointJson& json, ClassEnumeration& e) {
  if (!json.is_array()) throw InputError("--resume", 0, "the checkpoint has no class counts");
  for (const CheckpointJson& c : json) {
    if (!c.is_array() || c.size() != 3 || !c[0].is_number_unsigned() ||
        !c[1].is_number_unsigned() || !c[2].is_number_unsigned())
      throw InputError("--resume", 0, "a level's counts in the checkpoint are malformed (corrupt)");
    e.positions.push_back(c[0].get<std::uint64_t>());
    e.classes.push_back({c[1].get<std::uint64_t>(), c[2].get<std::uint64_t>()});
  }
}

// The row engine on the class space's rows, one process: each level's
// rows tallied (ClassRows::tally) in parallel. A resumed run's last saved
// level is the frontier, handed to on_level again.
ClassEnumeration enumerate_class_rows(const ClassSpace& space, const ClassRows& rows,
                                      const ClassBfsOptions& options) {
  ClassEnumeration e;
  bfs::RowBfsOptions o;
  o.policy = options.policy;
  o.codes = bfs::RowCodes::Frontier;
  const std::uint32_t words = (rows.columns() + 63) / 64;
  o.on_level = [&](const bfs::RowLevel& level, const bfs::LevelRows& states) {
    struct Scratch {
      std::vector<bfs::Word> row;
      std::optional<ClassSpace::Cursor> cursor;
    };
    PerWorker<Scratch> scratch;
    const auto sum =
        parallel_sum<ClassRows::Tally>(rows.rows(), 64, [&](std::size_t begin, std::size_t end) {
          Scratch& s = scratch.local();
          if (!s.cursor) s.row.resize(words), s.cursor.emplace(space.cursor(0));
          ClassRows::Tally t;
          for (auto r = static_cast<std::uint32_t>(begin); r != end; ++r) {
            const std::uint32_t count = states.count(r);
            if (count == 0) continue;
            t += rows.tally(r, states.row(r, s.row.data()), count, options.inverse, *s.cursor);
          }
          return t;
        });
    e.positions.push_back(sum.positions);
    e.classes.push_back({sum.classes, options.inverse ? (sum.classes + sum.self_inverse) / 2 : 0});
    e.methods.push_back(level.work.method());
    const bfs::LevelStats stats{
        level.depth, sum.classes, level.seconds,
        level.work.pulled > level.work.pushed ? bfs::Direction::BottomUp : bfs::Direction::TopDown};
    if (options.on_level) options.on_level(stats, sum.positions);
  };
  if (options.on_progress)
    o.on_progress = [&](std::uint64_t done) { options.on_progress(done * rows.columns()); };
  o.checkpoint = options.checkpoint;
  o.checkpoint_every = options.checkpoint_every;
  o.resume = options.resume;
  o.should_stop = options.should_stop;
  o.save_extra = [&] { return saved_counts(e); };
  o.resume_extra = [&](const CheckpointJson& saved) {
    restore_counts(saved, e);
    if (e.positions.empty() ||
        e.positions.size() != options.resume->state().value("levels", CheckpointJson()).size())
      throw InputError("--resume", 0,
                       "the checkpoint's class counts are not its levels' (corrupt)");
    e.positions.pop_back(), e.classes.pop_back();
    e.methods.assign(e.positions.size(), "");
  };
  const std::uint64_t source = space.index_of(space.space().solved_rank());
  const bfs::RowBfsResult result = bfs::row_bfs<bfs::TwoBitRows>(rows, {&source, 1}, o);
  for (const bfs::RowLevel& level : result.levels)
    e.bfs.levels.push_back({level.depth, e.classes[level.depth].classes, level.seconds});
  for (const LevelClasses& c : e.classes) e.bfs.reached += c.classes;
  e.bfs.stopped = result.stopped;
  e.bfs.resumed = options.resume != nullptr;
  return e;
}

// A checkpoint of the other engine (saved by a program that searched the
// classes the other way) is refused: the row engine's state has no
// "two_bit".
void check_resumed_engine(const ClassBfsOptions& options, bool rows) {
  if (options.resume == nullptr || options.resume->state().contains("two_bit") != rows) return;
  const char* saved = rows ? "indices (the frontier engine)" : "rows (the row engine)";
  throw InputError("--resume", 0,
                   fmt::format("the checkpoint is of a search over the classes' {}, this run "
                               "searches their {}: resume it with the program that saved it, "
                               "or start again",
                               saved, rows ? "rows" : "indices"));
}

}  // namespace

ClassEnumeration enumerate_classes(const ClassSpace& space, const ClassBfsOptions& options,
                                   Cluster& cluster) {
  const auto rows = options.rows && cluster.processes() == 1 ? ClassRows::of(space) : nullptr;
  check_resumed_engine(options, rows != nullptr);
  if (rows) return enumerate_class_rows(space, *rows, options);
  const RankPart part = part_of(space.size(), cluster.process(), cluster.processes());
  const std::uint64_t order = space.group_order();
  ClassEnumeration e;
  SpecialTally special(space, part);
  bfs::BfsOptions bfs_options;
  bfs_options.policy = options.policy;
  bfs_options.cluster = &cluster;
  const bool two_bit = options.two_bit && !options.inverse;
  bfs_options.two_bit = two_bit;
  bfs_options.depth_table = two_bit;
  bfs_options.on_progress = options.on_progress;
  bfs_options.should_stop = options.should_stop;
  bfs_options.on_level = [&](const bfs::LevelStats& level, const bfs::LevelStates& states) {
    std::uint64_t positions = 0, with_inverse = 0;
    if (!two_bit) {
      const BitmapTally mine = tally_level(space, *states.level, part.first, options.inverse);
      positions = total(cluster, mine.positions);
      if (options.inverse) with_inverse = (level.states + total(cluster, mine.self_inverse)) / 2;
    } else {
      const auto [found, special_positions] = special.count(*states.depths, level.depth);
      positions =
          order * (level.states - total(cluster, found)) + total(cluster, special_positions);
    }
    e.positions.push_back(positions);
    e.classes.push_back({level.states, with_inverse});
    if (options.on_level) options.on_level(level, positions);
  };
  bfs::add_checkpoints(
      bfs_options, options.checkpoint, options.checkpoint_every, options.resume,
      [&] { return saved_counts(e); },
      [&](const CheckpointJson& saved) { restore_counts(saved, e); });
  if (bfs_options.restore && two_bit)
    bfs_options.restore = [&, restore = std::move(bfs_options.restore)](bfs::BfsBoundary& b) {
      restore(b);
      special.mark_reached(*b.depths);
    };
  const std::uint64_t source = space.index_of(space.space().solved_rank());
  e.bfs = bfs::frontier_bfs(space, std::span(&source, 1), bfs_options);
  return e;
}

std::uint64_t rest_table_bytes(const SymCoordinate& split, std::size_t moves,
                               std::size_t transforms, std::uint64_t indices) {
  std::uint64_t entries = 0;
  for (const SymCoordinate::Block& block : split.rest_blocks) entries += block.values;
  const std::uint64_t bytes = entries * (moves + transforms) * 4;
  return split.rest < 0xFFFFFFFF && bytes <= std::max<std::uint64_t>(256ULL << 20, indices * 3 / 8)
             ? bytes
             : 0;
}

std::uint64_t moved_then_bytes(const SymCoordinate& split, std::size_t moves,
                               std::size_t transforms, std::uint64_t indices) {
  if (split.rest_blocks.size() != 1 || split.piece_blocks || split.rest > kMovedThenValues)
    return 0;
  const std::uint64_t bytes = std::uint64_t{2} * moves * transforms * split.rest;
  return bytes <= kMovedThenBytes && bytes <= indices * 3 / 8 / 4 ? bytes : 0;
}

std::uint64_t class_bfs_bytes(const SymCoordinate& split, std::size_t order, std::size_t moves,
                              int processes, unsigned bits) {
  // C's classes: its values over the order, but a class for every 64
  // values at least where values are few for the group (many of them fixed
  // by some transform: the pocket cube's 40,320 corner arrangements under
  // 1,152 transforms make 78 classes).
  const auto values = static_cast<long double>(split.values);
  const long double classes =
      values / std::clamp(values / 64, 1.0L, static_cast<long double>(order));
  const auto indices = static_cast<std::uint64_t>(classes * static_cast<long double>(split.rest));
  const RankPart part = part_of(indices, 0, processes);
  // Blocks of an orbit as C: an action on R's digits per class and move.
  const auto block_steps =
      split.piece_blocks ? static_cast<std::uint64_t>(classes) * moves * kBlockActionBytes : 0;
  const std::uint64_t rest_tables = rest_table_bytes(split, moves, order, indices);
  return part.count * bits / 8 + split.values * 5 + rest_tables +
         (rest_tables != 0 ? moved_then_bytes(split, moves, order, indices) : 0) + block_steps;
}

}  // namespace cubenum::twisty
