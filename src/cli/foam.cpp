// `cubenum foam count|solve`: foam-cube challenges (PUZZLES.md).
#include "cubenum/puzzles/foam.hpp"

#include <fmt/format.h>

#include <fstream>
#include <memory>

#include "action.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"

namespace cubenum::cli {
namespace {

using puzzles::FoamProblem;

struct FoamOptions {
  std::string challenge = "own";
  std::string by = "identity";
  std::vector<std::string> files;
  std::size_t list = 3;
  std::string up_to = "symmetries";
  std::string svg;
  bool via_shapes = false;
};

void add_common_options(CLI::App* action, FoamOptions& o) {
  action->add_option("--challenge", o.challenge, "own | one-per-colour | pool")
      ->capture_default_str();
  action->add_option("--by", o.by, "tell pieces apart by identity or by shape")
      ->capture_default_str();
  action->add_flag("--via-shapes", o.via_shapes,
                   "by identity: search over shapes, counting the ways to pick congruent copies");
  action->add_option("SET_FILE", o.files, "piece set files (data/foam/*.txt)")->required();
}

std::vector<puzzles::FoamSet> load_sets(const FoamOptions& o) {
  std::vector<puzzles::FoamSet> sets;
  for (const std::string& file : o.files) sets.push_back(puzzles::load_foam_set(file));
  return sets;
}

search::AssemblyOptions progress_options(ProgressLine& line, const std::string& name) {
  search::AssemblyOptions options;
  options.progress = [&line, name](const search::SplitProgress& p) {
    line.show(fmt::format("{}: {}/{} subtrees", name, p.done, p.total));
  };
  return options;
}

Json count_fields(const FoamProblem& problem, const puzzles::FoamCount& c, double seconds) {
  Json r = {{"name", problem.name},
            {"raw", c.raw},
            {"rotations", c.rotations},
            {"symmetries", c.symmetries}};
  if (problem.counts_choices) r["piece_choices"] = c.piece_choices;
  r["seconds"] = seconds;
  return r;
}

void print_header(std::ostream& out, bool choices) {
  out << fmt::format("{:<40} {:>12} {:>11} {:>11}{} {:>9}\n", "name", "raw", "rotations",
                     "symmetries", choices ? fmt::format(" {:>8}", "choices") : "", "seconds");
}

void print_row(std::ostream& out, const FoamProblem& p, const puzzles::FoamCount& c, double s) {
  out << fmt::format("{:<40} {:>12} {:>11} {:>11}{} {:>9.3f}\n", p.name, c.raw, c.rotations,
                     c.symmetries, p.counts_choices ? fmt::format(" {:>8}", c.piece_choices) : "",
                     s);
}

Json run_count(const FoamOptions& o, const ActionContext& ctx) {
  const auto challenge = puzzles::parse_foam_challenge(o.challenge);
  const auto by = puzzles::parse_foam_by(o.by);
  const auto problems = puzzles::foam_problems(challenge, by, load_sets(o), o.via_shapes);
  Json results = Json::array();
  print_header(ctx.out, challenge != puzzles::FoamChallenge::Own);
  for (const FoamProblem& problem : problems) {
    ProgressLine line;
    auto options = progress_options(line, problem.name);
    Stopwatch clock;
    const auto counts = puzzles::count_foam(problem, options);
    const double seconds = clock.seconds();
    print_row(ctx.out, problem, counts, seconds);
    results.push_back(count_fields(problem, counts, seconds));
  }
  return {{"challenge", o.challenge}, {"by", o.by}, {"results", results}};
}

search::SymmetryGroup parse_up_to(const std::string& word) {
  if (word == "raw") return search::SymmetryGroup::None;
  if (word == "rotations") return search::SymmetryGroup::Rotations;
  if (word == "symmetries") return search::SymmetryGroup::Symmetries;
  throw InputError("--up-to", 0, "unknown '" + word + "' (raw, rotations, symmetries)");
}

Json solution_json(const FoamProblem& problem, const search::AssemblyKey& key) {
  Json faces = Json::array();
  const auto& surface = puzzles::foam_cube_surface();
  for (int f = 0; f < surface.face_count(); ++f) {
    Json pieces = Json::array();
    for (const int i : problem.kind_pieces[key[f].kind])
      pieces.push_back(problem.pieces[i].set + " " + problem.pieces[i].name());
    faces.push_back({{"face", surface.face(f).name},
                     {"pieces", pieces},
                     {"transform", key[f].transform},
                     {"placed", puzzles::foam_code(search::transform_grid(
                                    problem.kinds[key[f].kind].grid, key[f].transform))}});
  }
  return faces;
}

Json run_solve(const FoamOptions& o, const ActionContext& ctx) {
  const auto challenge = puzzles::parse_foam_challenge(o.challenge);
  const auto by = puzzles::parse_foam_by(o.by);
  const auto up_to = parse_up_to(o.up_to);
  const auto problems = puzzles::foam_problems(challenge, by, load_sets(o), o.via_shapes);
  std::ofstream svg;
  if (!o.svg.empty()) {
    svg.open(o.svg);
    if (!svg) throw InputError("--svg", 0, "cannot write '" + o.svg + "'");
  }
  Json results = Json::array();
  std::vector<puzzles::FoamNet> nets;
  for (const FoamProblem& problem : problems) {
    ProgressLine line;
    auto options = progress_options(line, problem.name);
    options.list_limit = o.list;
    options.list_up_to = up_to;
    Stopwatch clock;
    const auto counts = puzzles::count_foam(problem, options);
    const double seconds = clock.seconds();
    ctx.out << fmt::format(
        "{}: {} raw, {} up to rotations, {} up to symmetries; first {} up to {}\n\n", problem.name,
        counts.raw, counts.rotations, counts.symmetries, counts.listed.size(), o.up_to);
    Json listed = Json::array();
    for (std::size_t i = 0; i < counts.listed.size(); ++i) {
      ctx.out << fmt::format("#{}\n{}\n", i + 1, puzzles::foam_net_text(problem, counts.listed[i]));
      listed.push_back(solution_json(problem, counts.listed[i]));
    }
    for (const auto& key : counts.listed) nets.push_back({&problem, key});
    Json r = count_fields(problem, counts, seconds);
    r["solutions"] = listed;
    results.push_back(r);
  }
  if (svg.is_open()) svg << puzzles::foam_nets_svg(nets);
  return {{"challenge", o.challenge}, {"by", o.by}, {"up_to", o.up_to}, {"results", results}};
}

}  // namespace

void register_foam(CLI::App& app) {
  CLI::App* foam = app.add_subcommand("foam", "foam cubes (Happy Cube and relatives)");
  foam->require_subcommand(1);

  auto count_opts = std::make_shared<FoamOptions>();
  CLI::App* count =
      add_action(*foam, "count", "count the assemblies of a challenge, raw and up to symmetry",
                 [count_opts](const ActionContext& ctx) { return run_count(*count_opts, ctx); });
  add_common_options(count, *count_opts);

  auto solve_opts = std::make_shared<FoamOptions>();
  CLI::App* solve =
      add_action(*foam, "solve", "list assemblies in canonical order as nets (text, SVG)",
                 [solve_opts](const ActionContext& ctx) { return run_solve(*solve_opts, ctx); });
  add_common_options(solve, *solve_opts);
  solve->add_option("--list", solve_opts->list, "how many solutions to print")
      ->capture_default_str();
  solve
      ->add_option("--up-to", solve_opts->up_to, "list one per class: raw | rotations | symmetries")
      ->capture_default_str();
  solve->add_option("--svg", solve_opts->svg, "write the nets as SVG to FILE")->type_name("FILE");
}

}  // namespace cubenum::cli
