// `cubenum polycube count|solve FILE`: polycube assembly puzzles from the
// project's text format or BurrTools' .xmpuzzle (search/voxel_cover.hpp).
#include "cubenum/puzzles/polycube.hpp"

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <ostream>

#include "action.hpp"
#include "checkpoint_options.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/output_file.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/puzzles/polycube_drawing.hpp"
#include "cubenum/puzzles/polycube_job.hpp"
#include "cubenum/puzzles/solution_pages.hpp"
#include "puzzles.hpp"

namespace cubenum::cli {
namespace {

using polycube::Voxel;

struct PolycubeOptions {
  std::string file;
  int problem = 0;  // 1-based; 0: every problem of the file
  double time_limit = 0;
  std::size_t first = 1;
  std::size_t list = 0;              // count --list: show this many after the count
  CheckpointOptions checkpoints;     // count: --checkpoint, --resume, --checkpoint-every
  bool no_burrtools = false;         // count: skip the count with congruent pieces apart
  bool disassemble = false;          // which assemblies come apart, their levels (solve: plans)
  std::optional<double> memory_gib;  // --disassemble: stop past this much memory
  std::string svg;
  std::string html;
};

long cube_count(const std::vector<polycube::Piece>& pieces, bool at_most) {
  long n = 0;  // (no wrap: pieces of millions of cubes, counts up to 65535)
  for (const auto& p : pieces)
    n += static_cast<long>(p.cubes.size()) * (at_most ? p.max_count : p.min_count);
  return n;
}

void print_header(std::ostream& out, const polycube::Problem& p, const search::VoxelCover& cover) {
  const long least = cube_count(p.pieces, false), most = cube_count(p.pieces, true);
  const char* mirrors = cover.symmetry_order() == cover.rotation_order() ? "no reflections"
                        : cover.mirror_pieces()
                            ? "an assembly and its mirror image count once (every piece's mirror "
                              "image is a piece)"
                            : "an assembly and its mirror image count once where the mirror "
                              "image is an assembly too";
  out << fmt::format(
      "{}: {} piece{} ({} cubes), target {} voxels ({} may stay empty), {} placements; "
      "symmetry order {} ({} rotations); {}\n",
      p.name, p.pieces.size(), p.pieces.size() == 1 ? "" : "s",
      least == most ? fmt::format("{}", least) : fmt::format("{}-{}", least, most),
      p.fixed.size() + p.variable.size(), p.variable.size(), cover.placements(),
      cover.symmetry_order(), cover.rotation_order(), mirrors);
  if (!cover.fixed_piece().empty())
    progress::note("{}: piece {} placed first, in {} placements (one per orbit)", p.name,
                   cover.fixed_piece(), cover.first_placements());
  progress::note("{}: the search fills {} first", p.name,
                 cover.cell_choice() == search::CellChoice::fewest_fits
                     ? "the cell with the fewest ways (placements that fit it, or leaving it empty)"
                     : "the lowest open cell");
}

// The line on disassemblies a limit stopped: how many, which limit, and
// what that leaves of the solutions (`after`).
std::string undecided_text(std::uint64_t undecided, const std::string& stopped_by, double held,
                           double limit, const char* one, const char* many, const char* after) {
  const std::string why =
      stopped_by == "--memory"
          ? fmt::format("--memory: the process held {}, more than the {} allowed",
                        progress::bytes_text(held), progress::bytes_text(limit))
          : stopped_by;
  if (undecided == 0) return fmt::format("stopped by {}: no more solutions looked for\n", why);
  return fmt::format("undecided: {} {} not taken apart to the end (stopped by {}): {}\n", undecided,
                     undecided == 1 ? one : many, why, after);
}

// polycube count's and solve's text: each problem's header, its counts and
// BurrTools' beside them (count), its first assemblies; with `drawings`
// (solve), the first one's layers kept for --svg and every one for --html.
class PolycubeText : public puzzles::PolycubeCountView {
 public:
  PolycubeText(std::ostream& out, bool drawings) : out_(out), drawings_(drawings) {}
  void problem(const polycube::Problem& problem, const search::VoxelCover& cover) override {
    print_header(out_, problem, cover);
  }
  void counted(const puzzles::PolycubeProblemCount& p,
               const puzzles::PolycubeCountRequest& r) override {
    const search::CoverCounts& c = p.counts;
    out_ << fmt::format("{:>16} {:>14} {:>14} {:>9}\n", "raw", "rotations", "symmetries",
                        "seconds");
    out_ << fmt::format("{:>16} {:>14} {:>14} {:>9.3f}\n", c.raw, c.rotations, c.symmetries,
                        p.seconds);
    if (p.merged && p.apart)
      out_ << fmt::format(
          "congruent pieces listed apart are counted as identical; BurrTools tells them apart "
          "and counts {}{}\n",
          p.apart->symmetries, p.apart->complete ? "" : " or more (stopped by --time-limit)");
    else if (p.merged && !r.burrtools)
      out_ << "congruent pieces listed apart are counted as identical; BurrTools' count, "
              "which tells them apart, was left out (--no-burrtools)\n";
    if (!c.complete)
      out_ << fmt::format(
          "stopped by --time-limit after {}/{} subtrees: the counts{} are lower bounds{}\n",
          c.subtrees_done, c.subtrees_total, p.solutions ? " and the solutions below" : "",
          p.merged && r.burrtools ? " (BurrTools' count, which comes after, was not begun)" : "");
    if (p.solutions) solutions(p);
  }
  // count --disassemble: the assemblies that come apart, and their levels.
  void solutions(const puzzles::PolycubeProblemCount& p) {
    const puzzles::PolycubeDisassembly& d = *p.solutions;
    out_ << fmt::format("{:>16} {:>14} {:>14} {:>9}\n", "come apart: raw", "rotations",
                        "symmetries", "seconds");
    out_ << fmt::format("{:>16} {:>14} {:>14} {:>9.3f}\n", d.raw, d.rotations, d.symmetries,
                        d.seconds);
    if (p.merged && p.solutions_apart)
      out_ << fmt::format("BurrTools (congruent pieces told apart) counts {} that come apart\n",
                          p.solutions_apart->symmetries);
    if (d.undecided > 0)
      out_ << undecided_text(d.undecided, d.stopped_by, d.memory_held, d.memory_limit, "class",
                             "classes",
                             "neither solutions nor counted as none, so the solutions are lower "
                             "bounds");
    if (d.levels.empty()) return;
    out_ << "level (BurrTools' notation): solutions up to symmetry\n";
    for (const auto& [level, classes] : d.levels)
      out_ << fmt::format("{:>16} {:>14}\n", level, classes);
  }
  void listed(const polycube::Problem& problem, const search::VoxelCover& cover,
              const std::vector<search::CoverAssembly>& assemblies) override {
    out_ << fmt::format("first {} assembl{} (one per class up to symmetry)\n", assemblies.size(),
                        assemblies.size() == 1 ? "y" : "ies");
    const auto& names = cover.piece_names();
    page_start_ = page_assemblies.size();
    for (std::size_t i = 0; i < assemblies.size(); ++i) {
      out_ << fmt::format("#{}\n{}\n", i + 1,
                          puzzles::polycube_layers_text(problem, names, assemblies[i]));
      if (!drawings_) continue;
      page_assemblies.push_back(puzzles::polycube_assembly_json(
          cover, assemblies[i], fmt::format("{} #{}", problem.name, i + 1)));
      if (svg_of_first.empty())
        svg_of_first = puzzles::polycube_layers_svg(problem, names, assemblies[i]);
    }
  }
  void disassembled(const search::VoxelCover& cover,
                    const puzzles::PolycubeAssemblies& found) override {
    const auto& plans = found.disassemblies;
    for (std::size_t i = 0; i < found.assemblies.size(); ++i) {
      out_ << fmt::format(
          "#{} level {} ({} moves)\n{}", i + 1, plans[i].level, plans[i].plan.size(),
          puzzles::polycube_plan_text(cover.piece_names(), found.assemblies[i], plans[i]));
      if (drawings_)  // the page plays it
        page_assemblies[page_start_ + i]["disassembly"] =
            puzzles::polycube_disassembly_json(cover.piece_names(), found.assemblies[i], plans[i]);
    }
    if (found.undecided > 0 || !found.stopped_by.empty())
      out_ << undecided_text(found.undecided, found.stopped_by, found.memory_held,
                             found.memory_limit, "assembly", "assemblies",
                             "maybe solutions, not among those shown");
  }
  std::string svg_of_first;
  Json page_assemblies = Json::array();

 private:
  std::ostream& out_;
  bool drawings_;
  std::size_t page_start_ = 0;  // the problem's first in page_assemblies
};

// --memory guards the disassembly alone (a count holds little memory).
void check_memory_option(const PolycubeOptions& o) {
  if (o.memory_gib && !o.disassemble)
    throw InputError("--memory", 0,
                     "only with --disassemble (it limits the disassembly's memory; a count holds "
                     "little)");
  if (o.memory_gib && !(*o.memory_gib > 0))
    throw InputError("--memory", 0, "expected a positive number of GiB");
}

Json count(const PolycubeOptions& o, const ActionContext& ctx) {
  check_memory_option(o);
  puzzles::PolycubeCountRequest request;
  request.file = o.file;
  request.file_shown = shown_path(o.file);
  request.problem = o.problem;
  request.time_limit = o.time_limit;
  request.checkpoints = o.checkpoints;
  request.burrtools = !o.no_burrtools;
  request.list = o.list;
  request.disassemble = o.disassemble;
  request.memory_gib = o.memory_gib;
  PolycubeText table(ctx.out, false);
  return puzzles::polycube_count_json(request, puzzles::count_polycube_job(request, table));
}

// solve --disassemble's plans: each solution's level and moves.
Json plans_json(const puzzles::PolycubeAssemblies& found) {
  Json plans = Json::array();
  for (const search::DisassemblyResult& d : found.disassemblies) {
    Json moves = Json::array();
    for (const search::DisassemblyMove& m : d.plan)
      moves.push_back({{"pieces", m.pieces},
                       {"direction", search::direction_name(m.direction)},
                       {"distance", m.separation ? Json(nullptr) : Json(m.distance)},
                       {"separation", m.separation}});
    plans.push_back({{"level", d.level}, {"moves", moves}});
  }
  return plans;
}

Json solve(const PolycubeOptions& o, const ActionContext& ctx) {
  check_memory_option(o);
  puzzles::PolycubeSolveRequest request;
  request.file = o.file;
  request.file_shown = shown_path(o.file);
  request.problem = o.problem;
  request.first = o.first;
  request.time_limit = o.time_limit;
  request.disassemble = o.disassemble;
  request.memory_gib = o.memory_gib;
  PolycubeText text(ctx.out, true);
  Json results = Json::array();
  for (const puzzles::PolycubeAssemblies& found : puzzles::solve_polycube_job(request, text)) {
    results.push_back(
        {{"name", found.name},
         {"problem", found.number},
         {"assemblies", puzzles::polycube_assemblies_json(found.piece_names, found.assemblies)}});
    if (o.disassemble) {
      results.back()["disassemblies"] = plans_json(found);
      results.back()["undecided"] = found.undecided;
      results.back()["stopped_by"] =
          found.stopped_by.empty() ? Json(nullptr) : Json(found.stopped_by);
    }
  }
  if (!o.svg.empty()) {
    write_output_file(o.svg, "--svg", text.svg_of_first);
    say_wrote(ctx, o.svg);
  }
  if (!o.html.empty()) {
    write_html_page(o.html, puzzles::polycube_page_data(
                                text.page_assemblies,
                                fmt::format("cubenum polycube solve {}", shown_path(o.file))));
    say_wrote(ctx, o.html);
  }
  return {{"file", shown_path(o.file)}, {"results", results}};
}

void add_common_options(Command* action, PolycubeOptions& o) {
  action
      ->add_option("file", o.file, "puzzle file: the project's text format or BurrTools' .xmpuzzle")
      ->required()
      ->type_name("FILE");
  action->add_option("--problem", o.problem, "the problem to solve, from 1 (default: every one)")
      ->check(Range(1, 1000000))
      ->type_name("N");
  action
      ->add_option("--time-limit", o.time_limit,
                   "stop after this many seconds: with --checkpoint (count), saved to go on with "
                   "--resume; else report how far it got (0: no limit)")
      ->type_name("SECONDS");
}

constexpr const char* kPolycubeFooter =
    "--disassemble: which assemblies come apart by sliding pieces, by BurrTools' rules (its -d), "
    "and their levels. Formats: docs/PUZZLES.md.";

void add_disassemble_flag(Command* action, PolycubeOptions& o, const char* what) {
  action->add_flag("--disassemble", o.disassemble, what);
  action
      ->add_option("--memory", o.memory_gib,
                   "with --disassemble: stop the disassembly, with what it decided so far, when "
                   "the process holds more than this many GiB (default: 60 % of the memory "
                   "available at its start; not under mpirun)")
      ->type_name("GIB");
}

}  // namespace

void bind_polycube(Command* puzzle) {
  auto count_opts = std::make_shared<PolycubeOptions>();
  Command* count_action =
      add_action(*puzzle, "count", "every assembly: raw, up to rotations, up to symmetries",
                 [count_opts](const ActionContext& ctx) { return count(*count_opts, ctx); });
  add_common_options(count_action, *count_opts);
  add_subtree_checkpoint_options(*count_action, count_opts->checkpoints);
  count_action
      ->add_option("--list", count_opts->list,
                   "after the count, show the first N assemblies, one per class (default 0)")
      ->check(Range(0, 1000000))
      ->type_name("N");
  count_action->add_flag("--no-burrtools", count_opts->no_burrtools,
                         "leave out BurrTools' count (congruent pieces listed apart told apart), "
                         "which needs a second count that grows factorially with such pieces");
  add_disassemble_flag(count_action, *count_opts,
                       "also count the assemblies that come apart by sliding pieces (BurrTools' "
                       "-d: solutions), raw and up to symmetry, and their levels");
  allow_processes(count_action);
  count_action->footer(kPolycubeFooter);

  auto solve_opts = std::make_shared<PolycubeOptions>();
  Command* solve_action =
      add_action(*puzzle, "solve", "the first assemblies, one per class, drawn in layers",
                 [solve_opts](const ActionContext& ctx) { return solve(*solve_opts, ctx); });
  add_common_options(solve_action, *solve_opts);
  solve_action->add_option("--first", solve_opts->first, "how many assemblies to show (default 1)")
      ->check(Range(1, 1000000))
      ->type_name("N");
  solve_action
      ->add_option("--svg", solve_opts->svg, "draw the first one's layers into this SVG file")
      ->type_name("FILE");
  solve_action
      ->add_option("--html", solve_opts->html,
                   "write the assemblies as a 3D page to FILE, each piece's unit cubes in its "
                   "colour (one HTML file that opens from disk); with --disassemble the page "
                   "plays each solution's disassembly, move by move")
      ->type_name("FILE");
  add_disassemble_flag(solve_action, *solve_opts,
                       "the first solutions (assemblies that come apart) with their level and "
                       "the shortest plan: each move's pieces, direction and distance");
  add_output(*solve_action, "--svg", solve_opts->svg);
  add_output(*solve_action, "--html", solve_opts->html);
  solve_action->footer(kPolycubeFooter);
}

}  // namespace cubenum::cli
