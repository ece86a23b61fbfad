// `cubenum pocket-cube bfs|solve|export`: the 2x2x2 cube's distance tables,
// optimal solutions and the seed's graph export.
#include "cubenum/puzzles/pocket_cube.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <memory>
#include <optional>

#include "action.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/puzzles/solution_pages.hpp"
#include "puzzles.hpp"

namespace cubenum::cli {
namespace {

namespace pc = cubenum::pocket_cube;

struct BfsArgs {
  std::string metric = "qtm";
  bool symmetry = false;
  std::string direction = "auto";
};

Json run_bfs(const BfsArgs& args, const ActionContext& ctx) {
  const pc::Metric metric = pc::parse_metric(args.metric);
  const pc::Enumeration e =
      pc::enumerate_here(metric, args.symmetry, bfs::parse_direction_policy(args.direction));
  const std::uint64_t max_depth = e.distribution.size() - 1;

  fmt::print(ctx.out, "pocket cube, {} (positions up to whole-cube rotation)\n",
             pc::metric_name(metric));
  fmt::print(ctx.out, "{:>5} {:>12}{} {:>11} {:>9}\n", "depth", "positions",
             args.symmetry ? "      classes" : "", "method", "level time");
  for (std::size_t d = 0; d < e.distribution.size(); ++d) {
    fmt::print(ctx.out, "{:>5} {:>12}", d, e.distribution[d]);
    if (args.symmetry) fmt::print(ctx.out, " {:>12}", e.symmetry_distribution[d]);
    // A level's time is the expansion of the level before it that found it.
    fmt::print(ctx.out, " {:>11} {:>8.2f} ms\n", e.methods[d], e.seconds[d] * 1e3);
  }
  fmt::print(ctx.out, "{:>5} {:>12}", "total", e.states());
  if (args.symmetry) fmt::print(ctx.out, " {:>12}", e.symmetry_classes());
  fmt::print(ctx.out, "\nmax depth {}, antipodes {}\n", max_depth, e.distribution.back());

  Json result = {{"metric", pc::metric_name(metric)},
                 {"states", e.states()},
                 {"distribution", e.distribution},
                 {"max_depth", max_depth},
                 {"antipodes", e.distribution.back()}};
  if (args.symmetry) {
    result["symmetry_classes"] = e.symmetry_classes();
    result["symmetry_distribution"] = e.symmetry_distribution;
  }
  return result;
}

struct SolveArgs {
  std::string metric = "qtm";
  std::optional<std::string> scramble;
  std::optional<std::string> stickers;
  std::string html;
};

Json run_solve(const SolveArgs& args, const ActionContext& ctx) {
  const pc::Metric metric = pc::parse_metric(args.metric);
  if (!args.scramble && !args.stickers)
    throw InputError("pocket-cube solve", 0, "give the position: --scramble S or --stickers S");
  pc::Corners start;
  if (args.stickers) {
    start = pc::parse_stickers(*args.stickers);
  } else {
    for (const pc::Turn& turn : pc::parse_turns(*args.scramble))
      start = pc::apply_turn(start, turn);
  }
  const std::vector<pc::Turn> turns = pc::solve(metric, start, &this_cluster());
  // Two quarter turns of one face in a row are written as the half turn
  // (R R -> R2); in QTM they still count two.
  const std::string moves = pc::turns_text(pc::join_half_turns(turns));
  const std::string length = fmt::format("{} move{}, {}", turns.size(),
                                         turns.size() == 1 ? "" : "s", pc::metric_name(metric));
  if (turns.empty())
    fmt::print(ctx.out, "already solved (0 moves, {})\n", pc::metric_name(metric));
  else
    fmt::print(ctx.out, "{} ({}, optimal)\n", moves, length);
  if (!args.html.empty()) {
    const std::string title =
        args.stickers ? fmt::format("cubenum pocket-cube solve --stickers {}", *args.stickers)
                      : fmt::format("cubenum pocket-cube solve --scramble \"{}\"", *args.scramble);
    write_html_page(args.html, pc::page_data(start, turns, metric, title));
    say_wrote(ctx, args.html);
  }
  return {{"metric", pc::metric_name(metric)}, {"length", turns.size()}, {"moves", moves}};
}

Json run_export(const std::string& dir, const ActionContext& ctx) {
  pc::ExportCounts counts;
  {
    Progress progress("pocket-cube export", 3 * pc::kPositionCount, "positions");
    counts = pc::export_neo4j(dir, &progress);
  }
  fmt::print(ctx.out, "wrote {}/nodes.csv ({} nodes) and {}/edges.csv ({} edges)\n", dir,
             counts.nodes, dir, counts.edges);
  return {{"directory", dir}, {"nodes", counts.nodes}, {"edges", counts.edges}};
}

}  // namespace

void bind_pocket_cube(Command* puzzle) {
  auto bfs_args = std::make_shared<BfsArgs>();
  Command* bfs =
      add_action(*puzzle, "bfs", "positions at each distance from solved (QTM or HTM)",
                 [bfs_args](const ActionContext& ctx) { return run_bfs(*bfs_args, ctx); });
  allow_processes(bfs);
  bfs->add_option("--metric", bfs_args->metric, "qtm (quarter turns) or htm (half turns too)")
      ->capture_default_str();
  bfs->add_flag("--symmetry", bfs_args->symmetry, "also count positions up to the 48 symmetries");
  bfs->add_option("--direction", bfs_args->direction, "BFS direction: auto, top-down or bottom-up")
      ->capture_default_str();
  bfs->footer(
      "The table: positions first reached at each depth (with --symmetry also their classes\n"
      "up to the 48 symmetries), how the level was built and how long it took. Method: the\n"
      "way that served most (row, move) pairs, with its share when others served some. A row\n"
      "is one corner permutation with its 729 twists as bits; a move carries a row to another\n"
      "row and twists its pieces.\n"
      "  push     each position of the level before is turned, one at a time (sparse levels)\n"
      "  pull     each position not yet reached looks for a neighbour in the level before\n"
      "  permute  a whole row is moved at once, its twists shifted as digits\n"
      "  cycles   the rows along one face's cycle (R, R2, R') are built together, sharing\n"
      "           their shifts (dense levels)\n"
      "Every method finds the same positions: the counts never depend on it.");

  auto solve_args = std::make_shared<SolveArgs>();
  Command* solve =
      add_action(*puzzle, "solve", "one optimal solution of a scramble or a sticker string",
                 [solve_args](const ActionContext& ctx) { return run_solve(*solve_args, ctx); });
  allow_processes(solve);
  solve->add_option("--metric", solve_args->metric, "qtm or htm")->capture_default_str();
  auto* scramble = solve->add_option("--scramble", solve_args->scramble,
                                     "moves in standard notation, e.g. \"R U2 F' D L B2\"");
  auto* stickers = solve->add_option("--stickers", solve_args->stickers,
                                     "24 colours in the net layout of docs/PUZZLES.md "
                                     "(letters w y g b r o or digits 0-5)");
  scramble->excludes(stickers);
  solve
      ->add_option("--html", solve_args->html,
                   "write the start and the solution as a 3D page to FILE, played move by move "
                   "(one HTML file that opens from disk)")
      ->type_name("FILE");
  add_output(*solve, "--html", solve_args->html);

  auto dir = std::make_shared<std::string>();
  Command* exporter = add_action(*puzzle, "export",
                                 "the position graph as Neo4j import files (nodes.csv, edges.csv)",
                                 [dir](const ActionContext& ctx) { return run_export(*dir, ctx); });
  exporter->add_option("--neo4j", *dir, "directory to write nodes.csv and edges.csv into")
      ->required()
      ->type_name("DIR");
}

}  // namespace cubenum::cli
