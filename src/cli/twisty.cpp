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
#include "cubenum/core/memory.hpp"
#include "cubenum/core/output_file.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/puzzles/twisty_job.hpp"
#include "cubenum/puzzles/twisty_solve.hpp"
#include "puzzles.hpp"

namespace cubenum::cli {
namespace {

namespace tw = cubenum::twisty;

using SpaceArgs = tw::SpaceRequest;

// --symmetry and --inverse: for info the whole group unless told; for bfs
// classes only when asked.
struct SymmetryArgs {
  std::optional<std::string> group;
  bool inverse = false;
  std::optional<tw::SymmetryRequest> request(bool by_default) const {
    if (!group && !inverse && !by_default) return std::nullopt;
    return tw::SymmetryRequest{tw::parse_symmetry_choice(group.value_or("all")), inverse};
  }
};

struct InfoArgs {
  SpaceArgs space;
  SymmetryArgs symmetry;
};

struct BfsArgs {
  SpaceArgs space;
  SymmetryArgs symmetry;
  bool up_to_rotation = false;
  std::string over = "auto";
  std::string direction = "auto";
  std::optional<double> memory_gib;
  std::size_t antipodes = 5;
  std::optional<std::string> table;
  CheckpointOptions checkpoints;
};

struct SolveArgs : tw::SolveRequest {
  std::string method_text = "auto";
};

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

// At most this many symmetries are listed one by one.
constexpr std::size_t kListedSymmetries = 48;

void print_group(const tw::SymmetryGroup& group, const std::vector<tw::Move>& moves,
                 std::ostream& out) {
  fmt::print(out, "symmetry ({}): {} element{}, {} reflection{}{}\n",
             tw::symmetry_choice_name(group.choice()), group.order(), group.order() == 1 ? "" : "s",
             group.reflections(), group.reflections() == 1 ? "" : "s",
             group.inverse() ? ", and inversion" : "");
  if (!group.why_trivial().empty())
    fmt::print(out, "  only the identity: {}\n", group.why_trivial());
  for (std::size_t k = 1; k < group.order() && k <= kListedSymmetries; ++k)
    fmt::print(out, "  {:>3} {}: {}\n", k, group.elements()[k].reflection ? "mirror  " : "rotation",
               tw::describe(group.elements()[k], moves));
  if (group.order() > kListedSymmetries + 1)
    fmt::print(out, "  ... and {} more\n", group.order() - kListedSymmetries - 1);
}

Json run_info(const InfoArgs& args, const ActionContext& ctx) {
  // No tables: what they and the BFS need is known from the layout, and
  // building them would take as long as they are big.
  const auto space = tw::make_space(args.space, {}, false);
  print_space(*space, ctx.out);
  const auto group = tw::find_group(*space, *args.symmetry.request(true));
  print_group(*group, space->move_list(), ctx.out);
  Json json = tw::space_json(*space);
  json["symmetry"] = tw::group_json(*group);
  return json;
}

void print_levels(const tw::BfsResult& e, std::ostream& out) {
  const bool classes = e.group != nullptr, inverse = classes && e.group->inverse();
  fmt::print(out, "{:>5} {:>15}", "depth", "positions");
  if (classes) fmt::print(out, " {:>13}", "classes");
  if (inverse) fmt::print(out, " {:>13}", "with inverse");
  fmt::print(out, " {:>11} {:>11}\n", "method", "level time");
  for (std::size_t d = 0; d < e.distribution.size(); ++d) {
    fmt::print(out, "{:>5} {:>15}", d, e.distribution[d]);
    if (classes) fmt::print(out, " {:>13}", e.classes[d].classes);
    if (inverse) fmt::print(out, " {:>13}", e.classes[d].with_inverse);
    fmt::print(out, " {:>11} {:>9.3f} s\n", e.methods[d], e.seconds[d]);
  }
  fmt::print(out, "{:>5} {:>15}", "total", e.reached);
  tw::LevelClasses total;
  for (const tw::LevelClasses& level : e.classes) total += level;
  if (classes) fmt::print(out, " {:>13}", total.classes);
  if (inverse) fmt::print(out, " {:>13}", total.with_inverse);
  fmt::print(out, "\n");
}

Json run_bfs(const BfsArgs& args, const ActionContext& ctx) {
  tw::BfsRequest request;
  request.space = args.space;
  request.direction = bfs::parse_direction_policy(args.direction);
  request.memory_gib = args.memory_gib;
  request.antipodes = args.antipodes;
  request.depth_table = args.table.has_value();
  request.checkpoints = args.checkpoints;
  request.symmetry = args.symmetry.request(false);
  request.up_to_rotation = args.up_to_rotation;
  request.over = tw::parse_bfs_over(args.over);
  const tw::BfsResult e =
      tw::run_bfs(request, [&](const tw::TwistySpace& space) { print_space(space, ctx.out); });
  const tw::TwistySpace& space = *e.space;
  if (e.group) print_group(*e.group, space.move_list(), ctx.out);
  if (e.over_classes) {
    const tw::ClassSearch& c = *e.over_classes;
    fmt::print(ctx.out,
               "BFS over classes: C = {} in {} classes, the rest raw: {} indices, {} at {} bits "
               "each{}, tables {}\n",
               c.split.text, c.c_classes, c.indices, bytes_text(double(c.indices * c.bits) / 8),
               c.bits, c.rows ? " (rows: a class's values of R)" : "",
               bytes_text(double(c.table_bytes)));
  }
  if (args.up_to_rotation)
    fmt::print(ctx.out, "{}\n",
               e.turns == 1 ? "up to rotation: the moves make no whole-puzzle turn"
                            : fmt::format("up to rotation: the moves make {} whole-puzzle turns; "
                                          "a position below stands for all {} of its turns",
                                          e.turns, e.turns));
  print_levels(e, ctx.out);
  const std::uint64_t reached = e.reached * e.turns;
  if (reached == space.size())
    fmt::print(ctx.out, "every ranked state is reachable\n");
  else
    fmt::print(ctx.out, "the moves reach {} of the {} ranked states (1 in {:.4g})\n", reached,
               space.size(), double(space.size()) / double(reached));
  fmt::print(ctx.out, "God's number {}, antipodes {}\n", e.distribution.size() - 1,
             e.distribution.back());
  for (const auto& sequence : e.antipodes)
    fmt::print(ctx.out, "  antipode: {}\n", tw::sequence_text(space, sequence));
  if (e.group && args.antipodes > 0)
    fmt::print(ctx.out, "(no antipode sequences while classes are counted: no depth table)\n");
  if (args.table) {
    tw::save_table(*args.table, space, *e.depths);
    say_wrote(ctx, *args.table);
  }
  return tw::bfs_json(e);
}

// One scramble's answer: a line (with the scramble's name when there are
// several) and its JSON.
Json solution_json(const tw::Solution& solution, const SolveArgs& args, bool named,
                   std::ostream& out) {
  const std::string name = named ? solution.scramble + ": " : "";
  Json json = {{"scramble", solution.scramble}};
  if (!solution.found && solution.stopped) {
    fmt::print(out, "{}stopped by --time-limit: no solution shorter than {} moves\n", name,
               solution.proven);
  } else if (!solution.found) {
    fmt::print(out, "{}no solution of at most {} moves (none shorter than {} moves)\n", name,
               args.max_depth, solution.proven);
  } else {
    fmt::print(out, "{}{} ({} move{}, optimal)\n", name,
               solution.text.empty() ? "already solved" : solution.text, solution.moves.size(),
               solution.moves.size() == 1 ? "" : "s");
    for (std::size_t i = 1; i < solution.listed.size(); ++i)
      fmt::print(out, "{}{}\n", std::string(name.size(), ' '), solution.listed[i]);
  }
  json["length"] = solution.found ? Json(solution.moves.size()) : Json(nullptr);
  json["moves"] = solution.found ? Json(solution.text) : Json(nullptr);
  json["seconds"] = solution.seconds;
  return json;
}

void add_search_json(const tw::Solution& solution, std::size_t listed, std::ostream& out,
                     Json& json) {
  fmt::print(out, "  {} nodes, {:.3f} s{}\n", solution.nodes, solution.seconds,
             solution.stopped ? " (stopped by --time-limit)" : "");
  if (solution.count)
    fmt::print(out, "  {}{} optimal solution{} (canonical sequences)\n",
               solution.stopped && solution.found ? "at least " : "", *solution.count,
               *solution.count == 1 ? "" : "s");
  json["stopped_by"] = solution.stopped ? Json("--time-limit") : Json(nullptr);
  json["nodes"] = solution.nodes;
  json["proven_depth"] = solution.proven;
  if (solution.count) json["optimal_solutions"] = *solution.count;
  if (listed > 1) json["solutions"] = solution.listed;
}

// What else a table is read as: "; also read through 2 symmetries and as
// the inverse".
std::string also_read(const tw::PatternUse& use) {
  std::vector<std::string> ways;
  if (use.symmetric_lookups != 0)
    ways.push_back(fmt::format("through {} {}", use.symmetric_lookups,
                               use.symmetric_lookups == 1 ? "symmetry" : "symmetries"));
  if (use.inverse_lookups) ways.push_back("as the inverse");
  return ways.empty() ? "" : fmt::format("; also read {}", fmt::join(ways, " and "));
}

Json run_solve(const SolveArgs& args, const ActionContext& ctx) {
  const bool writes_table = args.table && !tw::reads_table(args);
  tw::SolveRequest request = args;
  request.method = tw::parse_solve_method(args.method_text);
  const bool named = args.scramble_file.has_value();
  Json solutions = Json::array();
  const tw::SolveResult result = tw::solve(request, [&](const tw::Solution& solution) {
    Json json = solution_json(solution, args, named, ctx.out);
    if (solution.searched) add_search_json(solution, args.all, ctx.out, json);
    solutions.push_back(std::move(json));
  });
  if (writes_table) say_wrote(ctx, *args.table);
  Json json = {{"file", result.file}, {"method", result.searched ? "search" : "table"}};
  if (result.searched) {
    Json tables = Json::array();
    fmt::print(ctx.out, "IDA* over canonical sequences, pattern databases:{}\n",
               result.pattern_databases.empty() ? " none" : "");
    for (const tw::PatternUse& use : result.pattern_databases) {
      fmt::print(ctx.out, "  {}: {} states, {}, depth {}{}, {} in {:.2f} s{}{}\n", use.name,
                 use.states, bytes_text(double(use.bytes)), use.max_depth,
                 use.clamped ? " (clamped)" : "", use.loaded ? "read" : "built", use.seconds,
                 use.file ? (use.loaded ? " from " : ", written to ") + *use.file : "",
                 also_read(use));
      tables.push_back({{"name", use.name},
                        {"states", use.states},
                        {"bytes", use.bytes},
                        {"max_depth", use.max_depth},
                        {"file", use.file ? Json(*use.file) : Json(nullptr)},
                        {"loaded", use.loaded},
                        {"seconds", use.seconds},
                        {"symmetric_lookups", use.symmetric_lookups},
                        {"clamped", use.clamped},
                        {"inverse_lookups", use.inverse_lookups}});
    }
    json["pattern_databases"] = tables;
  }
  if (!named) {
    json.update(solutions[0]);
  } else {
    json["scramble_file"] = *args.scramble_file;
    json["solutions"] = solutions;
  }
  return json;
}

void add_symmetry_options(Command* action, SymmetryArgs& args, const std::string& what) {
  action->add_option("--symmetry", args.group, what)->type_name("none|rotations|all");
  action->add_flag("--inverse", args.inverse,
                   "also up to inversion (a position and its inverse; distinct pieces only)");
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

void bind_twisty(Command* puzzle) {
  auto info_args = std::make_shared<InfoArgs>();
  Command* info =
      add_action(*puzzle, "info", "the ranked state space: orbits, constraints, size, symmetry",
                 [info_args](const ActionContext& ctx) { return run_info(*info_args, ctx); });
  add_space_options(info, info_args->space);
  add_symmetry_options(info, info_args->symmetry,
                       "the symmetries to show (default: all that the moves have)");

  auto bfs_args = std::make_shared<BfsArgs>();
  Command* bfs = add_action(
      *puzzle, "bfs", "positions at each distance from solved, God's number and antipodes",
      [bfs_args](const ActionContext& ctx) { return run_bfs(*bfs_args, ctx); });
  add_space_options(bfs, bfs_args->space);
  add_symmetry_options(bfs, bfs_args->symmetry,
                       "also count each depth's classes up to this group (--inverse alone: all)");
  bfs->add_flag("--up-to-rotation", bfs_args->up_to_rotation,
                "count a position once for all the whole-puzzle turns the moves make (the "
                "2x2x2's U D' turns the whole cube)");
  bfs->add_option("--over", bfs_args->over,
                  "search positions or classes up to the symmetry group (auto: classes when "
                  "classes are counted or the positions do not fit)")
      ->capture_default_str();
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
  Command* solve = add_action(
      *puzzle, "solve",
      "optimal solutions of scrambles: from the BFS depth table, or by IDA* with pattern databases",
      [solve_args](const ActionContext& ctx) { return run_solve(*solve_args, ctx); });
  add_space_options(solve, solve_args->space);
  auto* scramble =
      solve->add_option("--scramble", solve_args->scramble, "moves of the file, e.g. \"R U2 F'\"");
  auto* scrambles =
      solve
          ->add_option("--scrambles", solve_args->scramble_file,
                       "solve each scramble of FILE, the tables made once: a sequence of moves a "
                       "line, or twsearch's blocks (ScrambleAlg NAME / moves / End; Scramble "
                       "NAME / a position as in Solved / End)")
          ->type_name("FILE");
  scramble->excludes(scrambles);
  scrambles->excludes(scramble);

  solve
      ->add_option("--table", solve_args->table,
                   "the depth table's file: loaded if it exists, else built and written")
      ->type_name("FILE");
  // An existing table is read: an input, not an output.
  solve->add_output("--table", [solve_args]() -> std::optional<std::string> {
    return tw::reads_table(*solve_args) ? std::nullopt : solve_args->table;
  });
  solve->add_option("--memory", solve_args->memory_gib, "as for bfs")->type_name("GIB");
  solve
      ->add_option("--method", solve_args->method_text,
                   "table: the full depth table; search: IDA* with pattern databases (chosen "
                   "within --memory); auto (default): the table where it fits and neither --tables "
                   "nor --patterns is given")
      ->type_name("auto|table|search");
  solve->add_flag("--count", solve_args->count,
                  "the search: count every optimal solution (canonical sequences)");
  solve
      ->add_option("--all", solve_args->all,
                   "the search: list up to N optimal solutions, the first in move order (and "
                   "count them all)")
      ->type_name("N");
  solve
      ->add_option("--patterns", solve_args->patterns,
                   "the search: the pattern databases, ';' between them, each sets and pieces "
                   "(from 1) joined by '+', maybe then 'slots' and pieces whose slots alone it "
                   "tracks; identical pieces are named with all of their kind, tracked by "
                   "kind: \"CORNER; EDGE 1-7 slots 8; EDGE 6-12\" (default: chosen within "
                   "--memory)")
      ->type_name("LIST");
  solve
      ->add_option("--tables", solve_args->tables,
                   "the search: the pattern databases' folder: each read where there, else "
                   "built and written there")
      ->type_name("DIR");
  solve
      ->add_option("--symmetric-lookups", solve_args->symmetric_lookups,
                   "the search: each pattern database also read through up to N of the "
                   "puzzle's symmetries, each reading other pieces of the position (default 2)")
      ->type_name("N");
  solve
      ->add_option("--inverse-lookups", solve_args->inverse_lookups,
                   "the search: each clamped pattern database also read as the position's "
                   "inverse, where every piece is distinct and every move's inverse a move: on "
                   "or off (default on)")
      ->type_name("on|off");
  solve->add_option("--max-depth", solve_args->max_depth, "the search: no deeper (default 30)")
      ->type_name("MOVES");
  solve
      ->add_option("--time-limit", solve_args->time_limit,
                   "the search: stop a scramble after this many seconds, saying the depth proven")
      ->type_name("SECONDS");
  allow_processes(solve);
}

}  // namespace cubenum::cli
