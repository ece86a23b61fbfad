// `cubenum twisty info|bfs|solve FILE`: any permutation puzzle from a
// ksolve/twsearch definition file.
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>

#include "action.hpp"
#include "checkpoint_options.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/output_file.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/puzzles/twisty_search.hpp"
#include "cubenum/core/memory.hpp"

namespace cubenum::cli {
namespace {

namespace tw = cubenum::twisty;

struct SpaceArgs {
  std::string file;
  std::optional<std::string> moves;  // (given empty: refused)
  bool quarter = false;
};

struct BfsArgs {
  SpaceArgs space;
  std::string direction = "auto";
  std::optional<double> memory_gib;
  std::size_t antipodes = 5;
  std::optional<std::string> table;
  CheckpointOptions checkpoints;
};

struct SolveArgs {
  SpaceArgs space;
  std::string scramble;
  std::optional<std::string> table;
  std::optional<double> memory_gib;
};

// The space of the file. `before_tables` sees it laid out, before any
// table is built (where what the run needs is checked); without `tables`
// it is only laid out, to be described.
std::unique_ptr<tw::TwistySpace> make_space(
    const SpaceArgs& args, std::function<void(const tw::TwistySpace&)> before_tables = {},
    bool tables = true) {
  const tw::Definition def = tw::load_definition(args.file);
  tw::MoveChoice choice{tw::split_move_list(args.moves.value_or("")), args.quarter};
  if (args.moves && choice.names.empty())
    throw InputError("--moves", 0, "no move names (expected e.g. --moves U,F,R)");
  tw::SpaceOptions options;
  options.before_tables = std::move(before_tables);
  options.tables = tables;
  return std::make_unique<tw::TwistySpace>(def, tw::expand_moves(def, choice), options);
}

// Whether solve reads its --table (it exists) rather than writing it.
bool reads_table(const SolveArgs& args) {
  return args.table && std::ifstream(*args.table);
}

bfs::DirectionPolicy parse_direction(const std::string& text) {
  if (text == "auto") return bfs::DirectionPolicy::Auto;
  if (text == "top-down") return bfs::DirectionPolicy::TopDown;
  if (text == "bottom-up") return bfs::DirectionPolicy::BottomUp;
  throw InputError(
      "--direction", 0,
      fmt::format("unknown direction '{}' (expected auto, top-down or bottom-up)", text));
}

// What a BFS of the space needs in each of `processes` processes, known
// before any table is built: the search's figure (twisty_search.hpp) and
// the space's tables, which that figure counts in part only (not the
// networks, nor what building them takes): an upper bound.
std::uint64_t bfs_need(const tw::TwistySpace& space, int processes, bool depth_table) {
  return (processes > 1 ? tw::shared_bfs_bytes(space, processes, depth_table)
                        : tw::bfs_bytes(space)) +
         space.table_bytes();
}

// Refuses a space whose BFS would not fit: in --memory GiB, else in the
// memory the machine has available.
void check_memory(std::uint64_t need_bytes, const tw::TwistySpace& space,
                  std::optional<double> memory_gib) {
  check_fits(double(need_bytes), fmt::format("{} ranked states", space.size()),
             this_cluster().processes() > 1 ? "bitmaps and tables" : "2 bits a state and tables",
             memory_gib);
}

void print_space(const tw::TwistySpace& space, std::ostream& out) {
  const tw::Definition& def = space.definition();
  std::vector<std::string> names;
  for (const tw::Move& m : space.move_list()) names.push_back(m.name);
  fmt::print(out, "{} ({}): {} moves: {}\n", def.name, def.file, names.size(),
             fmt::join(names, " "));
  for (const std::string& note : space.notes()) fmt::print(out, "{}\n", note);
  fmt::print(out, "ranked states {} (the BFS needs {})\n", space.size(),
             bytes_text(double(tw::bfs_bytes(space))));
}

Json space_json(const tw::TwistySpace& space) {
  std::vector<std::string> names;
  for (const tw::Move& m : space.move_list()) names.push_back(m.name);
  return {{"file", space.definition().file},
          {"name", space.definition().name},
          {"moves", names},
          {"ranked_states", space.size()},
          {"rows", space.rows()},
          {"columns", space.columns()},
          {"notes", space.notes()}};
}

Json run_info(const SpaceArgs& args, const ActionContext& ctx) {
  // No tables: what they and the BFS need is known from the layout, and
  // building them would take as long as they are big.
  const auto space = make_space(args, {}, false);
  print_space(*space, ctx.out);
  return space_json(*space);
}

// A BFS's outcome as the table shows it, from either engine.
struct BfsSummary {
  std::vector<std::uint64_t> distribution;
  std::vector<std::string> methods;  // per level: how it was built
  std::vector<double> seconds;
  std::uint64_t reached = 0;
  bool stopped = false;
  std::vector<std::vector<int>> antipodes;
  std::optional<bfs::RowDepths> depths;  // the row engine's, for --table
};

// The progress line: states reached of the ranked ones, and the level
// being built (`units` done of `total`); with --verbose a line per level.
class LevelProgress {
 public:
  LevelProgress(const tw::TwistySpace& space, std::uint64_t total, std::string units)
      : progress_("twisty bfs", space.size(), "states"), total_(total), units_(std::move(units)) {
    progress_.set_estimate(false);
  }
  void level(unsigned depth, std::uint64_t states, const std::string& method, double seconds) {
    reached_ += states;
    progress_.set_done(reached_);
    level_.reset();
    level_.emplace(fmt::format("level {}", depth + 1), total_, units_);
    progress::note("level {:2}  {:>15} positions  {:>11}  {:8.3f} s  (total {}, {:.1f} s)", depth,
                   progress::grouped(states), method, seconds, progress::grouped(reached_),
                   clock_.seconds());
  }
  void done(std::uint64_t units) {
    if (level_) level_->set_done(units);
  }
  void end() { level_.reset(); }

 private:
  Progress progress_;
  std::optional<Progress> level_;
  std::uint64_t total_, reached_ = 0;
  std::string units_;
  Stopwatch clock_;
};

void set_search_options(tw::SearchOptions& options, const BfsArgs& args,
                        CheckpointSession& checkpoints) {
  options.policy = parse_direction(args.direction);
  options.antipodes = args.antipodes;
  options.checkpoint = checkpoints.writer();
  options.checkpoint_every = checkpoints.every();
  options.resume = checkpoints.reader();
  options.should_stop = [&checkpoints] { return checkpoints.should_stop(); };
}

// One process: the row engine.
BfsSummary bfs_alone(const tw::TwistySpace& space, const BfsArgs& args,
                     CheckpointSession& checkpoints) {
  LevelProgress progress(space, space.rows(), "rows");
  tw::EnumerateOptions options;
  set_search_options(options, args, checkpoints);
  options.on_level = [&](const bfs::RowLevel& level) {
    progress.level(level.depth, level.states, level.work.method(), level.seconds);
  };
  options.on_progress = [&](std::uint64_t rows) { progress.done(rows); };
  tw::Enumeration e = tw::enumerate(space, options);
  progress.end();
  BfsSummary summary{
      e.bfs.distribution(),   {}, {}, e.bfs.reached, e.bfs.stopped, std::move(e.antipodes),
      std::move(e.bfs.depths)};
  for (const bfs::RowLevel& level : e.bfs.levels) {
    summary.methods.push_back(level.work.method());
    summary.seconds.push_back(level.seconds);
  }
  return summary;
}

// Under mpirun: the frontier engine, each process holding its part.
BfsSummary bfs_shared(const tw::TwistySpace& space, const BfsArgs& args,
                      CheckpointSession& checkpoints, Cluster& cluster) {
  LevelProgress progress(space, space.size(), "scanned");
  tw::SharedEnumerateOptions options;
  set_search_options(options, args, checkpoints);
  options.on_level = [&](const bfs::LevelStats& level) {
    progress.level(level.depth, level.states, bfs::direction_text(level.direction), level.seconds);
    progress::note("level {:2}  sent between {} processes: {} messages, {} neighbours, {} bytes",
                   level.depth, cluster.processes(), progress::grouped(level.messages),
                   progress::grouped(level.sent_ranks), progress::grouped(level.sent_bytes));
  };
  options.on_progress = [&](std::uint64_t scanned) { progress.done(scanned); };
  tw::SharedEnumeration e = tw::enumerate_shared(space, options, cluster);
  progress.end();
  BfsSummary summary{e.bfs.distribution(),   {},          {}, e.bfs.reached, e.bfs.stopped,
                     std::move(e.antipodes), std::nullopt};
  for (const bfs::LevelStats& level : e.bfs.levels) {
    summary.methods.push_back(level.depth == 0 ? "" : bfs::direction_text(level.direction));
    summary.seconds.push_back(level.seconds);
  }
  return summary;
}

Json run_bfs(const BfsArgs& args, const ActionContext& ctx) {
  Cluster& cluster = this_cluster();
  const bool shared = cluster.processes() > 1;
  if (args.table && shared)
    throw InputError("--table", 0,
                     "the depth table is written by one process (run without mpirun)");
  // Refused before any table is built.
  const auto space = make_space(args.space, [&](const tw::TwistySpace& laid_out) {
    check_memory(bfs_need(laid_out, cluster.processes(), args.antipodes > 0), laid_out,
                 args.memory_gib);
  });
  // What a checkpoint must match: the space (pieces, moves, layout).
  CheckpointSession checkpoints(
      args.checkpoints,
      {{"puzzle", "twisty"}, {"action", "bfs"}, {"space", tw::space_identity(*space)}});
  print_space(*space, ctx.out);
  if (const CheckpointReader* saved = checkpoints.reader(); saved && cluster.process() == 0)
    fmt::print(stderr, "cubenum: resuming from {}: {} levels done\n", args.checkpoints.resume,
               saved->state().value("levels", CheckpointJson::array()).size());
  const BfsSummary e = shared ? bfs_shared(*space, args, checkpoints, cluster)
                              : bfs_alone(*space, args, checkpoints);
  if (e.stopped) checkpoints.stopped();

  fmt::print(ctx.out, "{:>5} {:>15} {:>11} {:>11}\n", "depth", "positions", "method", "level time");
  for (std::size_t d = 0; d < e.distribution.size(); ++d)
    fmt::print(ctx.out, "{:>5} {:>15} {:>11} {:>9.3f} s\n", d, e.distribution[d], e.methods[d],
               e.seconds[d]);
  fmt::print(ctx.out, "{:>5} {:>15}\n", "total", e.reached);
  if (e.reached == space->size())
    fmt::print(ctx.out, "every ranked state is reachable\n");
  else
    fmt::print(ctx.out, "the moves reach {} of the {} ranked states (1 in {:.4g})\n", e.reached,
               space->size(), double(space->size()) / double(e.reached));
  const std::size_t max_depth = e.distribution.size() - 1;
  fmt::print(ctx.out, "God's number {}, antipodes {}\n", max_depth, e.distribution.back());
  std::vector<std::string> antipodes;
  for (const auto& sequence : e.antipodes) antipodes.push_back(tw::sequence_text(*space, sequence));
  for (const std::string& a : antipodes) fmt::print(ctx.out, "  antipode: {}\n", a);
  if (args.table) {
    tw::save_table(*args.table, *space, *e.depths);
    fmt::print(ctx.out, "wrote the depth table to {} ({})\n", *args.table,
               bytes_text(double(e.depths->bytes())));
  }
  Json result = space_json(*space);
  result["states"] = e.reached;
  result["distribution"] = e.distribution;
  result["max_depth"] = max_depth;
  result["antipodes"] = e.distribution.back();
  result["antipode_sequences"] = antipodes;
  if (checkpoints.reader() != nullptr) result["resumed"] = true;
  return result;
}

Json run_solve(const SolveArgs& args, const ActionContext& ctx) {
  // The depth table, read or built, and the tables: refused before any is
  // built.
  const auto space = make_space(args.space, [&](const tw::TwistySpace& laid_out) {
    check_memory(bfs_need(laid_out, 1, true), laid_out, args.memory_gib);
  });
  const tw::Definition& def = space->definition();
  // The scramble may use any move of the file and its powers.
  const std::vector<tw::Move> all = tw::all_powers(def);
  tw::Arrangement position = def.solved;
  for (int m : tw::parse_sequence(all, args.scramble))
    position = tw::apply(def.sets, position, all[static_cast<std::size_t>(m)].effect);
  if (!space->contains(position))
    throw InputError("--scramble", 0,
                     "the scramble leaves the positions the chosen moves can reach");
  const std::uint64_t rank = space->rank(position);
  bfs::RowDepths depths;
  if (reads_table(args)) {
    depths = tw::load_table(*args.table, *space);
  } else {
    const std::uint64_t solved = space->solved_rank();
    depths = std::move(*bfs::row_bfs(*space, {&solved, 1}).depths);
    if (args.table) tw::save_table(*args.table, *space, depths);
  }
  const std::vector<int> path = tw::path_to_solved(*space, depths, rank);
  const std::string text = tw::sequence_text(*space, path);
  fmt::print(ctx.out, "{}{} ({} move{}, optimal)\n", text.empty() ? "already solved" : text, "",
             path.size(), path.size() == 1 ? "" : "s");
  return {
      {"file", def.file}, {"scramble", args.scramble}, {"length", path.size()}, {"moves", text}};
}

void add_space_options(Command* action, SpaceArgs& args) {
  action->add_option("file", args.file, "the puzzle's definition (ksolve/twsearch .tws format)")
      ->required()
      ->type_name("FILE");
  action->add_option("--moves", args.moves,
                     "search with these moves and their powers only, e.g. U,F,R "
                     "(default: every move of the file but whole-puzzle rotations)");
  action->add_flag("--quarter", args.quarter, "each move and its inverse only (no R2)");
}

}  // namespace

void register_twisty(Command& app) {
  Command* puzzle =
      app.add_subcommand("twisty", "any permutation puzzle from a ksolve/twsearch definition file");
  puzzle->require_subcommand(1);

  auto info_args = std::make_shared<SpaceArgs>();
  Command* info =
      add_action(*puzzle, "info", "the ranked state space: orbits, constraints, size",
                 [info_args](const ActionContext& ctx) { return run_info(*info_args, ctx); });
  add_space_options(info, *info_args);

  auto bfs_args = std::make_shared<BfsArgs>();
  Command* bfs = add_action(
      *puzzle, "bfs", "positions at each distance from solved, God's number and antipodes",
      [bfs_args](const ActionContext& ctx) { return run_bfs(*bfs_args, ctx); });
  add_space_options(bfs, bfs_args->space);
  bfs->add_option("--direction", bfs_args->direction, "auto, top-down or bottom-up")
      ->capture_default_str();
  bfs->add_option("--memory", bfs_args->memory_gib,
                  "refuse a BFS that needs more than this many GiB (default: the memory available)")
      ->type_name("GIB");
  bfs->add_option("--antipodes", bfs_args->antipodes, "antipodes to show as move sequences")
      ->capture_default_str();
  bfs->add_option("--table", bfs_args->table, "also write the depth table to FILE (for solve)")
      ->type_name("FILE");
  add_output(*bfs, "--table", bfs_args->table);
  add_checkpoint_options(*bfs, bfs_args->checkpoints);
  allow_processes(bfs);
  bfs->footer(
      "The table: positions first reached at each depth, how the level was built and how long\n"
      "it took. A row is a set of positions that every move carries to one row, permuting\n"
      "them (the layout line says how many rows and columns). Method: the way that served most\n"
      "(row, move) pairs, with its share when others served some.\n"
      "  push     each position of the level before is moved, one at a time\n"
      "  pull     each position not yet reached looks for a neighbour in the level before\n"
      "  permute  a whole row is moved at once (a Beneš network of bit swaps)\n"
      "  cycles   a move's powers swept around the cycles it makes of the rows, a whole\n"
      "           cycle of rows at once (docs/DESIGN.md)\n"
      "Every method finds the same positions: the counts never depend on it.\n"
      "Checkpoints are saved between levels: a stop (Ctrl-C, --time-limit) waits for the\n"
      "level in progress, whose positions are already in the table.\n"
      "Under mpirun the processes share the ranks, each holding the bitmaps of its part;\n"
      "levels are built top-down (each process moves its positions and sends the ones\n"
      "others own) or bottom-up (over the whole level gathered), as the counts say.");

  auto solve_args = std::make_shared<SolveArgs>();
  Command* solve =
      add_action(*puzzle, "solve", "an optimal solution of a scramble, from the BFS depth table",
                 [solve_args](const ActionContext& ctx) { return run_solve(*solve_args, ctx); });
  add_space_options(solve, solve_args->space);
  solve->add_option("--scramble", solve_args->scramble, "moves of the file, e.g. \"R U2 F'\"")
      ->required();
  solve
      ->add_option("--table", solve_args->table,
                   "the depth table's file: loaded if it exists, else built and written")
      ->type_name("FILE");
  // An existing table is read: an input, not an output.
  solve->add_output("--table", [solve_args]() -> std::optional<std::string> {
    return reads_table(*solve_args) ? std::nullopt : solve_args->table;
  });
  solve->add_option("--memory", solve_args->memory_gib, "as for bfs")->type_name("GIB");
}

}  // namespace cubenum::cli
