// `cubenum foam count|solve`: foam-cube challenges (PUZZLES.md).
#include "cubenum/puzzles/foam.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>

#include "action.hpp"
#include "checkpoint_options.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/output_file.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/puzzles/foam_job.hpp"
#include "cubenum/puzzles/foam_shape.hpp"
#include "cubenum/puzzles/solution_pages.hpp"
#include "puzzles.hpp"

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
  std::string html;
  bool via_shapes = false;
  bool direct = false;  // count: by identity, piece by piece even where pieces are congruent
  // Shapes (issue 7).
  std::string shape;
  std::string colours;
  std::size_t first = 0;  // 0: list canonical assemblies from a complete count
  std::uint64_t seed = 1;
  double time_limit = 0;
  // count: --checkpoint, --resume, --checkpoint-every (time_limit above).
  CheckpointOptions checkpoints;
  bool no_choices = false;           // count: skip the piece choices
  std::string method = "auto";       // count --shape: search | layers (plate_layers.hpp) | auto
  std::optional<double> memory_gib;  // count: stop past this much memory
  const Command* action = nullptr;   // to ask which options were given
};

void add_common_options(Command* action, FoamOptions& o) {
  o.action = action;
  action->add_option("--challenge", o.challenge, "own | one-per-colour | pool")
      ->capture_default_str();
  action
      ->add_option("--by", o.by,
                   "tell pieces apart by identity or by shape (count --shape: both, from one "
                   "search)")
      ->capture_default_str();
  action->add_flag("--via-shapes", o.via_shapes,
                   "by identity, faster where sets share piece shapes: search over shapes and "
                   "count each assembly as the ways to pick its congruent pieces (same counts)");
  action->add_option("SET_FILE", o.files, "piece set files (data/foam/*.txt)")->required();
  action
      ->add_option("--shape", o.shape,
                   "build this shape of unit cubes (a 'cube x y z' file or cuboid:AxBxC) "
                   "from the pool of all pieces given, each at most once")
      ->type_name("FILE|cuboid:AxBxC");
  action->add_option("--colours", o.colours, "with --shape: only pieces of these colours")
      ->type_name("c1,c2,...");
  action
      ->add_option("--time-limit", o.time_limit,
                   "stop after this many seconds: with --checkpoint, saved to go on with "
                   "--resume; else (with --shape) report how far it got (0: no limit)")
      ->type_name("SECONDS");
}

// count's checkpoints (--time-limit is a common option).
void add_count_checkpoint_options(Command* action, FoamOptions& o) {
  add_subtree_checkpoint_options(*action, o.checkpoints);
}

std::vector<std::string> split_colours(const std::string& list) {
  std::vector<std::string> out;
  std::istringstream in(list);
  for (std::string word; std::getline(in, word, ',');)
    if (!word.empty()) out.push_back(word);
  return out;
}

// Every option acts or is refused: the shape's options need --shape, and a
// shape is built from the pool of all pieces given.
void check_options(const FoamOptions& o) {
  const auto given = [&](const char* name) { return o.action->count(name) > 0; };
  const bool saved = given("--checkpoint") || given("--resume");
  if (given("--checkpoint-every") && !saved)
    throw InputError("--checkpoint-every", 0, "only with --checkpoint or --resume");
  if (!(o.checkpoints.every >= 0))
    throw InputError("--checkpoint-every", 0, "must be 0 or more seconds");
  if (given("--shape") && o.shape.empty()) throw InputError("--shape", 0, "empty");
  if (o.shape.empty()) {
    for (const char* name : {"--colours", "--first", "--seed"})
      if (given(name)) throw InputError(name, 0, "only with --shape");
    if (given("--time-limit") && !saved)
      throw InputError("--time-limit", 0,
                       "only with --shape (lower bounds), or with --checkpoint DIR (to go on)");
  } else if (given("--challenge") && o.challenge != "pool") {
    throw InputError("--challenge", 0,
                     "a shape is built from the pool of all pieces given: --challenge pool, "
                     "or leave it out");
  }
  if (o.direct &&
      (o.via_shapes || (o.shape.empty() && o.challenge != "pool") || o.by != "identity"))
    throw InputError("--direct", 0,
                     "only for a pool counted by identity (--challenge pool, or --shape), without "
                     "--via-shapes");
  if (given("--colours") && split_colours(o.colours).empty())
    throw InputError("--colours", 0, "no colour given");
  check_time_limit(o.time_limit);
}

std::vector<puzzles::FoamSet> load_sets(const FoamOptions& o) {
  std::vector<puzzles::FoamSet> sets;
  for (const std::string& file : o.files) sets.push_back(puzzles::load_foam_set(file));
  return sets;
}

puzzles::FoamShape load_shape(const FoamOptions& o) {
  if (o.challenge != "own" && o.challenge != "pool")
    throw InputError("--challenge", 0, "a shape is built from the pool of the pieces given");
  return puzzles::load_foam_shape(o.shape);
}

// The count the options ask for (the sets and the shape loaded).
puzzles::FoamCountRequest count_request(const FoamOptions& o) {
  puzzles::FoamCountRequest r;
  r.challenge = puzzles::parse_foam_challenge(o.challenge);
  r.by = o.by;
  if (o.by != "both") puzzles::parse_foam_by(o.by);  // (refuses a word it does not know)
  r.via_shapes = o.via_shapes;
  r.direct = o.direct;
  r.piece_choices = !o.no_choices;
  r.colours = split_colours(o.colours);
  r.method = puzzles::parse_foam_method(o.method);
  r.time_limit = o.time_limit;
  r.checkpoints = o.checkpoints;
  r.memory_gib = o.memory_gib;
  r.sets = load_sets(o);
  if (!o.shape.empty()) r.shape = load_shape(o);  // (a bad shape file is told before any note)
  return r;
}

// The piece choices as printed: "-" when not counted.
std::string choices_text(search::LayerCount choices, bool counted) {
  return counted ? search::decimal(choices) : "-";
}

// Names longer than this (a pool of several sets) get a line of their own
// above their counts, so the columns stay together.
constexpr std::size_t kNameColumn = 40;

// For the progress line.
std::string short_name(const std::string& name) {
  if (name.size() <= kNameColumn) return name;
  // (Formatted: `substr + "..."` trips GCC 12's -Warray-bounds false positive.)
  return fmt::format("{}...", std::string_view(name).substr(0, kNameColumn - 3));
}

// foam count's tables: a challenge's, a row per problem as it is counted;
// a shape's, its header and a row per way of telling its pieces apart. The
// columns are named as the JSON fields are (docs/PUZZLES.md).
class CountTable : public puzzles::FoamCountView {
 public:
  CountTable(std::ostream& out, bool choices_counted, bool own, bool captured)
      : out_(out), choices_counted_(choices_counted), own_(own), captured_(captured) {}

  // The choices the count makes; within report or scale, only with --verbose.
  void note(const std::string& text) override {
    if (!captured_) return FoamCountView::note(text);
    progress::note("cubenum: note: {}", text);
  }

  void problems(const std::vector<FoamProblem>& problems) override {
    for (const FoamProblem& p : problems)
      if (p.name.size() <= kNameColumn) width_ = std::max(width_, p.name.size());
    out_ << fmt::format("{:<{}} {:>12} {:>11} {:>11}{} {:>9}\n", "name", width_, "raw", "rotations",
                        "symmetries", own_ ? "" : fmt::format(" {:>13}", "piece_choices"),
                        "seconds");
  }

  void counted(const FoamProblem& p, const puzzles::FoamCount& c, double seconds) override {
    std::string name = p.name;
    if (name.size() > width_) {
      out_ << name << '\n';
      name.clear();
    }
    out_ << fmt::format(
        "{:<{}} {:>12} {:>11} {:>11}{} {:>9.3f}\n", name, width_, c.raw, c.rotations, c.symmetries,
        p.counts_choices ? fmt::format(" {:>13}", choices_text(c.piece_choices, choices_counted_))
                         : "",
        seconds);
    if (own_ && p.pieces.size() < 6)
      out_ << fmt::format("  {}: {} piece{}, and a cube takes 6: no assembly\n", p.name,
                          p.pieces.size(), p.pieces.size() == 1 ? "" : "s");
  }

  void shape(const puzzles::FoamShape& shape, const FoamProblem& pool) override {
    print_shape_header(out_, shape, pool);
  }

  void shape_counted(const puzzles::FoamShapeResult& r) override {
    const bool labelled = r.tallies.size() > 1;
    const auto by = [&](const std::string& text) {
      return labelled ? fmt::format("{:<9}", text) : std::string();
    };
    out_ << fmt::format("{}{:>14} {:>12} {:>12} {:>13} {:>9}\n", by("by"), "raw", "rotations",
                        "symmetries", "piece_choices", "seconds");
    for (const puzzles::FoamShapeTally& t : r.tallies)
      out_ << fmt::format("{}{:>14} {:>12} {:>12} {:>13} {:>9.3f}\n", by(t.by),
                          search::decimal(t.raw), search::decimal(t.rotations),
                          search::decimal(t.symmetries),
                          choices_text(t.piece_choices, choices_counted_), r.seconds);
    if (!r.complete)
      out_ << fmt::format("stopped {} after {}/{} subtrees: the counts are lower bounds\n",
                          r.out_of_memory ? "at the memory limit" : "by --time-limit",
                          r.subtrees_done, r.subtrees_total);
  }

  static void print_shape_header(std::ostream& out, const puzzles::FoamShape& shape,
                                 const FoamProblem& pool) {
    const auto& s = shape.surface;
    out << fmt::format(
        "shape {}: {} cubes, {} faces, {} cells, symmetry order {} ({} rotations); "
        "pool of {} pieces\n",
        shape.name, shape.cubes.size(), s.face_count(), s.cell_count(), s.symmetries().size(),
        s.rotation_count(), pool.pieces.size());
  }

 private:
  std::ostream& out_;
  bool choices_counted_, own_, captured_;
  std::size_t width_ = 4;  // "name"
};

Json run_count(const FoamOptions& o, const ActionContext& ctx) {
  const puzzles::FoamCountRequest request = count_request(o);
  CountTable table(ctx.out, request.piece_choices,
                   request.challenge == puzzles::FoamChallenge::Own && !request.shape,
                   ctx.captured);
  return puzzles::foam_count_json(request, puzzles::count_foam_job(request, table));
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

// The page's title: the challenge and the sets' names.
std::string page_title(const FoamOptions& o) {
  std::string sets;
  for (const std::string& file : o.files)
    sets += (sets.empty() ? "" : ", ") + std::filesystem::path(file).stem().string();
  return fmt::format("cubenum foam solve --challenge {}: {}", o.challenge, sets);
}

Json run_solve(const FoamOptions& o, const ActionContext& ctx) {
  const auto challenge = puzzles::parse_foam_challenge(o.challenge);
  const auto by = puzzles::parse_foam_by(o.by);
  const auto up_to = parse_up_to(o.up_to);
  const auto problems = puzzles::foam_problems(challenge, by, load_sets(o), o.via_shapes);
  Json results = Json::array();
  std::vector<puzzles::FoamNet> nets;
  for (const FoamProblem& problem : problems) {
    puzzles::FoamSearchProgress progress("foam solve: " + short_name(problem.name));
    auto options = progress.options();
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
    Json r =
        puzzles::foam_problem_json({problem.name, problem.counts_choices, counts, seconds}, true);
    r["solutions"] = listed;
    results.push_back(r);
  }
  if (!o.svg.empty()) {
    write_output_file(o.svg, "--svg", puzzles::foam_nets_svg(nets));
    say_wrote(ctx, o.svg);
  }
  if (!o.html.empty()) {
    write_html_page(o.html, puzzles::foam_page_data(nets, page_title(o)));
    say_wrote(ctx, o.html);
  }
  return {{"challenge", o.challenge}, {"by", o.by}, {"up_to", o.up_to}, {"results", results}};
}

// ------------------------------------------------------------ shapes

struct ShapeJob {
  puzzles::FoamShape shape;
  FoamProblem pool;
};

// How a shape's pool tells its pieces apart: `--by both` searches by
// identity (over shapes where pieces are congruent) and counts by shape in
// the same search.
puzzles::FoamBy shape_by(const FoamOptions& o) {
  return o.by == "both" ? puzzles::FoamBy::Identity : puzzles::parse_foam_by(o.by);
}

// The shape's fields around its pool's `result` (PUZZLES.md).
Json shape_json(const ShapeJob& job, const FoamOptions& o, const Json& result) {
  return puzzles::foam_shape_json(job.shape, o.by, split_colours(o.colours), job.pool.name,
                                  job.pool.pieces.size(), {result});
}

ShapeJob make_shape_job(const FoamOptions& o, puzzles::FoamShape shape,
                        const std::vector<puzzles::FoamSet>& sets, bool via_shapes) {
  auto pool = puzzles::foam_shape_pool(sets, shape_by(o), split_colours(o.colours), via_shapes);
  return {std::move(shape), std::move(pool)};
}

Json shape_solution_json(const ShapeJob& job, const search::AssemblyKey& key) {
  Json faces = Json::array();
  for (int f = 0; f < job.shape.surface.face_count(); ++f)
    faces.push_back({{"face", job.shape.surface.face(f).name},
                     {"piece", puzzles::foam_piece_label(job.pool, key[f].kind)},
                     {"transform", key[f].transform},
                     {"placed", puzzles::foam_code(search::transform_grid(
                                    job.pool.kinds[key[f].kind].grid, key[f].transform))}});
  return faces;
}

void write_shape_svg(const FoamOptions& o, const ActionContext& ctx, const ShapeJob& job,
                     const std::vector<search::AssemblyKey>& keys) {
  if (o.svg.empty()) return;
  write_output_file(o.svg, "--svg",
                    keys.empty() ? "" : puzzles::foam_shape_svg(job.shape, job.pool, keys.front()));
  say_wrote(ctx, o.svg);
}

// Prints the solutions as text, draws them if --svg asks, and returns them
// as JSON.
Json show_shape_solutions(const FoamOptions& o, const ActionContext& ctx, const ShapeJob& job,
                          const std::vector<search::AssemblyKey>& keys) {
  Json listed = Json::array();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    ctx.out << fmt::format("#{}\n{}\n", i + 1,
                           puzzles::foam_assembly_text(job.shape, job.pool, keys[i]));
    listed.push_back(shape_solution_json(job, keys[i]));
  }
  write_shape_svg(o, ctx, job, keys);
  if (!o.html.empty()) {
    write_html_page(o.html, puzzles::foam_shape_page_data(
                                job.shape, job.pool, keys,
                                fmt::format("cubenum foam solve --shape {}", job.shape.name)));
    say_wrote(ctx, o.html);
  }
  return listed;
}

// Without --first: count, and list the first canonical assemblies.
Json run_shape_list(const FoamOptions& o, const ActionContext& ctx, const ShapeJob& job) {
  puzzles::FoamSearchProgress progress("foam solve: " + job.shape.name);
  auto options = progress.options();
  options.stop = deadline(o.time_limit);
  if (o.time_limit > 0)
    progress.subtrees.set_detail("stops at --time-limit " + progress::duration(o.time_limit));
  options.list_limit = o.list;
  options.list_up_to = parse_up_to(o.up_to);
  Stopwatch clock;
  const auto c = puzzles::count_foam_shape(job.shape, job.pool, options);
  const double seconds = clock.seconds();
  ctx.out << fmt::format("{} raw, {} up to rotations, {} up to symmetries{}; first {} up to {}\n\n",
                         c.raw, c.rotations, c.symmetries,
                         c.complete ? "" : " (stopped by --time-limit: lower bounds)",
                         c.listed.size(), o.up_to);
  const Json listed = show_shape_solutions(o, ctx, job, c.listed);
  Json r = {{"raw", c.raw},
            {"rotations", c.rotations},
            {"symmetries", c.symmetries},
            {"piece_choices", c.piece_choices},
            {"complete", c.complete}};
  r["count_seconds"] = seconds;
  r["solutions"] = listed;
  Json all = shape_json(job, o, r);
  all["up_to"] = o.up_to;
  return all;
}

Json run_shape_solve(const FoamOptions& o, const ActionContext& ctx) {
  const auto sets = load_sets(o);
  const ShapeJob job = make_shape_job(o, load_shape(o), sets, o.via_shapes);
  CountTable::print_shape_header(ctx.out, job.shape, job.pool);
  if (o.first == 0) return run_shape_list(o, ctx, job);
  search::FirstOptions options;
  options.wanted = o.first;
  options.seed = o.seed;
  options.stop = deadline(o.time_limit);
  Progress placements("foam solve --first: " + job.shape.name, 0, "placements");
  options.placements = &placements;
  Stopwatch clock;
  const auto found = puzzles::first_foam_shape(job.shape, job.pool, options);
  const double seconds = clock.seconds();
  ctx.out << fmt::format("{} solution(s) in {:.3f} s ({} restarts, {} placements){}\n\n",
                         found.solutions.size(), seconds, found.restarts, found.placements,
                         found.exhausted ? "; the search is exhausted: there are no more" : "");
  const Json listed = show_shape_solutions(o, ctx, job, found.solutions);
  Json r;
  r["first"] = o.first;
  r["seed"] = o.seed;
  r["found"] = found.solutions.size();
  r["exhausted"] = found.exhausted;
  r["restarts"] = found.restarts;
  r["placements"] = found.placements;
  r["solve_seconds"] = seconds;
  r["solutions"] = listed;
  return shape_json(job, o, r);
}

constexpr const char* kFoamFooter =
    "Counts: raw (the cube's faces labelled), up to the 24 rotations, up to the 48 symmetries;\n"
    "piece_choices: the sets of six pieces that build at least one cube (docs/PUZZLES.md).\n"
    "--via-shapes (by identity): congruent pieces, as in a pool of several sets, make the\n"
    "direct search find each assembly once per way of picking the copies. With --via-shapes\n"
    "the search runs over shapes and counts each assembly it finds as that many: the\n"
    "counts are the same, the search much smaller where many pieces are congruent.\n"
    "foam count does so by itself for a pool or a shape with congruent pieces, and says so;\n"
    "--direct searches piece by piece.";

}  // namespace

void bind_foam(Command* foam) {
  auto count_opts = std::make_shared<FoamOptions>();
  Command* count =
      add_action(*foam, "count", "count the assemblies of a challenge, raw and up to symmetry",
                 [count_opts](const ActionContext& ctx) {
                   check_options(*count_opts);
                   return run_count(*count_opts, ctx);
                 });
  add_common_options(count, *count_opts);
  add_count_checkpoint_options(count, *count_opts);
  allow_processes(count);
  count->add_flag("--direct", count_opts->direct,
                  "a pool or a shape by identity: search piece by piece even where pieces are "
                  "congruent (slow; by default such a pool is counted over shapes, same counts)");
  count->add_flag("--no-choices", count_opts->no_choices,
                  "skip the piece choices: raw, rotations and symmetries in little memory (the "
                  "choices keep every distinct set of pieces: gigabytes for large pools)");
  count
      ->add_option("--memory", count_opts->memory_gib,
                   "stop the count, with its counts so far, when it holds more than this many "
                   "GiB (default: 60 % of the memory available at its start; not under mpirun)")
      ->type_name("GIB");
  count
      ->add_option("--method", count_opts->method,
                   "with --shape: search (assembly by assembly), layers (every state of the faces "
                   "filled so far with the ways to reach it: far faster where the pool has many "
                   "congruent pieces, far more memory where few), or auto (layers where they "
                   "suit)")
      ->capture_default_str();
  count->footer(kFoamFooter);

  auto solve_opts = std::make_shared<FoamOptions>();
  Command* solve =
      add_action(*foam, "solve", "list assemblies in canonical order as nets (text, SVG)",
                 [solve_opts](const ActionContext& ctx) {
                   check_options(*solve_opts);
                   if (solve_opts->by == "both")
                     throw InputError("--by", 0, "both: only for foam count --shape");
                   return solve_opts->shape.empty() ? run_solve(*solve_opts, ctx)
                                                    : run_shape_solve(*solve_opts, ctx);
                 });
  add_common_options(solve, *solve_opts);
  solve->footer(kFoamFooter);
  solve->add_option("--list", solve_opts->list, "how many solutions to print")
      ->check(Range(0, 1000000))
      ->capture_default_str();
  solve
      ->add_option("--up-to", solve_opts->up_to, "list one per class: raw | rotations | symmetries")
      ->capture_default_str();
  solve
      ->add_option("--svg", solve_opts->svg,
                   "write the nets as SVG to FILE (with --shape: the first assembly, isometric)")
      ->type_name("FILE");
  solve
      ->add_option("--html", solve_opts->html,
                   "write the assemblies listed as a 3D page to FILE: one HTML file that opens "
                   "from disk (drag to turn, scroll to zoom, explode, step through)")
      ->type_name("FILE");
  solve
      ->add_option("--first", solve_opts->first,
                   "with --shape: find this many solutions fast by randomised restarts "
                   "(0: count and list the first canonical ones, --list, --up-to)")
      ->check(Range(0, 1000000))
      ->capture_default_str();
  solve->add_option("--seed", solve_opts->seed, "with --shape: the random seed of --first")
      ->capture_default_str();
  add_output(*solve, "--svg", solve_opts->svg);
  add_output(*solve, "--html", solve_opts->html);
}

}  // namespace cubenum::cli
