// `cubenum rolling-cubes bfs|solve`: the state space of an R x C grid of
// rolling cubes, and shortest solutions.
#include "cubenum/puzzles/rolling_cubes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include "action.hpp"
#include "checkpoint_options.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/memory.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/puzzles/rolling_cubes_job.hpp"
#include "cubenum/puzzles/solution_pages.hpp"
#include "puzzles.hpp"

namespace cubenum::cli {
namespace {

using namespace cubenum::rolling;

struct RollingOptions {
  unsigned rows = 3, cols = 3;
  std::string start, goal;
  std::string direction = "auto";
  std::string html;  // solve: the 3D page
  std::string storage = "auto";
  std::optional<double> memory_gib;
  // Layers of the shortest-path DAG above this are not counted (16 bytes
  // each, plus sorting room).
  std::uint64_t count_limit = 200'000'000;
  CheckpointOptions checkpoints;
  const Command* action = nullptr;  // to ask which options were given
};

void add_grid_options(Command* action, const std::shared_ptr<RollingOptions>& options) {
  action->add_option("--rows", options->rows, "grid rows")->capture_default_str();
  action->add_option("--cols", options->cols, "grid columns")->capture_default_str();
  action->add_option("--start", options->start,
                     "start grid, rows separated by '/', '.' empty (default: all 0, empty at "
                     "(rows/2, cols/2))");
  action->add_option("--goal", options->goal, "goal grid (default: all 1, empty as the start)");
  action->add_option("--direction", options->direction, "BFS direction")
      ->check(IsMember({"auto", "top-down", "bottom-up"}))
      ->capture_default_str();
  action
      ->add_option("--storage", options->storage,
                   "per state: bitmaps (5 bits a state: fastest), two-bit (the depth table "
                   "alone: 2 bits a state), or auto (bitmaps when they fit in --memory)")
      ->check(IsMember({"auto", "bitmaps", "two-bit"}))
      ->capture_default_str();
  action
      ->add_option("--memory", options->memory_gib,
                   "GiB a process may take (default: the memory available)")
      ->type_name("GIB");
  add_checkpoint_options(*action, options->checkpoints);
}

struct Problem {
  RollingCubesSpace space;
  Grid start, goal;
};

// The grid size comes from --rows/--cols when given, else from --start or
// --goal, else 3x3.
Problem make_problem(const RollingOptions& o, const Command& action) {
  unsigned rows = o.rows, cols = o.cols;
  const bool sized = action.count("--rows") + action.count("--cols") > 0;
  Grid start, goal;
  if (!o.start.empty()) {
    start = parse_grid(o.start, "--start", sized ? rows : 0, sized ? cols : 0);
    rows = start.rows;
    cols = start.cols;
  } else if (!o.goal.empty() && !sized) {
    const Grid given = parse_grid(o.goal, "--goal");
    rows = given.rows;
    cols = given.cols;
  }
  RollingCubesSpace space(rows, cols);
  if (o.start.empty()) start = uniform_grid(rows, cols, 0);
  if (o.goal.empty()) {
    goal = start;
    std::fill(goal.cells.begin(), goal.cells.end(), 1);
    goal.cells[start.empty()] = kEmptyCell;
  } else {
    goal = parse_grid(o.goal, "--goal", rows, cols);
  }
  return Problem{std::move(space), std::move(start), std::move(goal)};
}

// The search the options ask for, from the problem's start to its goal.
SearchOutcome search(const Problem& p, const RollingOptions& o, bool stop) {
  SearchRequest request;
  request.start = p.start;
  request.goal = p.goal;
  request.stop_at_goal = stop;
  request.storage = o.storage == "two-bit"   ? Storage::TwoBit
                    : o.storage == "bitmaps" ? Storage::Bitmaps
                                             : Storage::Auto;
  request.direction = bfs::parse_direction_policy(o.direction);
  request.memory_gib = o.memory_gib;
  request.checkpoints = o.checkpoints;
  return rolling::search(p.space, request);
}

Json run_bfs(const ActionContext& ctx, const RollingOptions& o, const Command& action) {
  const Problem p = make_problem(o, action);
  const std::uint64_t start = p.space.rank(p.start), goal = p.space.rank(p.goal);
  const SearchOutcome outcome = search(p, o, false);
  const RollingBfsResult& r = outcome.bfs;

  Json fields = {{"rows", p.space.rows()},
                 {"cols", p.space.cols()},
                 {"start", format_grid(p.start)},
                 {"goal", format_grid(p.goal)},
                 {"states", p.space.size()},
                 {"reachable", r.reached},
                 {"distribution", r.distribution()},
                 {"max_depth", r.max_depth()},
                 {"farthest", r.levels.back().states}};
  if (r.resumed) fields["resumed"] = true;
  ctx.out << fmt::format("{}x{} rolling cubes, start {}, goal {}\n", p.space.rows(), p.space.cols(),
                         format_grid(p.start), format_grid(p.goal));
  ctx.out << fmt::format("{:>8} {:>16}\n", "distance", "states");
  for (const auto& level : r.levels)
    ctx.out << fmt::format("{:>8} {:>16}\n", level.depth, level.states);
  ctx.out << fmt::format("states {}, reachable {}, eccentricity of the start {} ({} states)\n",
                         p.space.size(), r.reached, r.max_depth(), r.levels.back().states);

  if (!r.watch_depth) {
    ctx.out << "the goal is not reachable from the start\n";
    fields["shortest_solution"] = nullptr;
    return fields;
  }
  Cluster* cluster = &this_cluster();
  ShortestSolution s =
      shortest_solution(p.space, *r.depths, start, goal, *r.watch_depth, r.part, cluster);
  const auto count = count_shortest_sequences(p.space, *r.depths, start, goal, s.length,
                                              o.count_limit, r.part, cluster);
  Json solution = {{"length", s.length}, {"moves", roll_letters(s.moves)}};
  solution["count"] = count ? Json(*count) : Json(nullptr);
  // Small counts as numbers, counts past 2^53 as exact decimal strings.
  if (count && count->size() < 16) solution["count"] = std::stoull(*count);
  fields["shortest_solution"] = solution;
  ctx.out << fmt::format("shortest solution: {} moves, {}\n", s.length, roll_letters(s.moves));
  ctx.out << fmt::format("distinct shortest sequences: {}\n",
                         count ? *count : "not counted (a layer passed --count-limit)");
  return fields;
}

void print_solution(std::ostream& out, const RollingCubesSpace& space, const ShortestSolution& s) {
  constexpr std::size_t kPerRow = 8;
  for (std::size_t first = 0; first < s.states.size(); first += kPerRow) {
    const std::size_t last = std::min(s.states.size(), first + kPerRow);
    std::vector<std::string> lines(space.rows() + 3);
    for (std::size_t i = first; i < last; ++i) {
      const std::string title =
          i == 0 ? "start"
                 : fmt::format("{}: {}", i, kRollLetters[static_cast<unsigned>(s.moves[i - 1])]);
      const auto picture = draw_grid(space.unrank(s.states[i]));
      const std::size_t width = std::max<std::size_t>(picture[0].size(), 6) + 2;
      lines[0] += fmt::format("{:<{}}", title, width);
      for (std::size_t j = 0; j < picture.size(); ++j)
        lines[j + 1] += fmt::format("{:<{}}", picture[j], width);
    }
    for (auto line : lines) {
      line.erase(line.find_last_not_of(' ') + 1);
      out << line << '\n';
    }
  }
}

Json run_solve(const ActionContext& ctx, const RollingOptions& o, const Command& action) {
  const Problem p = make_problem(o, action);
  const std::uint64_t start = p.space.rank(p.start), goal = p.space.rank(p.goal);
  const SearchOutcome outcome = search(p, o, true);
  if (!outcome.bfs.watch_depth)
    throw InputError(
        "--goal", 0,
        fmt::format("{} is not reachable from {}", format_grid(p.goal), format_grid(p.start)));
  const ShortestSolution s =
      shortest_solution(p.space, *outcome.bfs.depths, start, goal, *outcome.bfs.watch_depth,
                        outcome.bfs.part, &this_cluster());
  print_solution(ctx.out, p.space, s);
  ctx.out << fmt::format("{} moves: {}\n", s.length, roll_letters(s.moves));
  if (!o.html.empty()) {
    write_html_page(o.html, page_data(p.space, s,
                                      fmt::format("cubenum rolling-cubes solve: {} to {}",
                                                  format_grid(p.start), format_grid(p.goal))));
    say_wrote(ctx, o.html);
  }
  Json fields{
      {"rows", p.space.rows()},      {"cols", p.space.cols()}, {"start", format_grid(p.start)},
      {"goal", format_grid(p.goal)}, {"length", s.length},     {"moves", roll_letters(s.moves)}};
  if (outcome.bfs.resumed) fields["resumed"] = true;
  return fields;
}

}  // namespace

void bind_rolling_cubes(Command* puzzle) {
  auto bfs_options = std::make_shared<RollingOptions>();
  Command* bfs_action =
      add_action(*puzzle, "bfs", "the whole state space by BFS from the start; shortest solutions",
                 [bfs_options](const ActionContext& ctx) {
                   return run_bfs(ctx, *bfs_options, *bfs_options->action);
                 });
  bfs_options->action = bfs_action;
  allow_processes(bfs_action);
  add_grid_options(bfs_action, bfs_options);
  bfs_action
      ->add_option("--count-limit", bfs_options->count_limit,
                   "count shortest sequences only while a layer of the shortest-path DAG "
                   "has at most this many edges")
      ->capture_default_str();

  auto solve_options = std::make_shared<RollingOptions>();
  Command* solve_action =
      add_action(*puzzle, "solve", "a shortest sequence from --start to --goal",
                 [solve_options](const ActionContext& ctx) {
                   return run_solve(ctx, *solve_options, *solve_options->action);
                 });
  solve_options->action = solve_action;
  allow_processes(solve_action);
  add_grid_options(solve_action, solve_options);
  solve_action
      ->add_option("--html", solve_options->html,
                   "write the grid and the solution as a 3D page to FILE, each cube rolling into "
                   "the empty cell step by step (one HTML file that opens from disk)")
      ->type_name("FILE");
  add_output(*solve_action, "--html", solve_options->html);
}

}  // namespace cubenum::cli
