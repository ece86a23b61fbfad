// `cubenum foam count|solve`: foam-cube challenges (PUZZLES.md).
#include "cubenum/puzzles/foam.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>

#include "action.hpp"
#include "checkpoint_options.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/hash.hpp"
#include "cubenum/core/output_file.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/puzzles/foam_shape.hpp"
#include "cubenum/puzzles/solution_pages.hpp"
#include "cubenum/search/subtree_checkpoint.hpp"
#include "cubenum/core/memory.hpp"

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

// The option given that only the search has (its subtrees, or pieces one
// by one), or null.
const char* search_option(const FoamOptions& o) {
  for (const char* name : {"--checkpoint", "--resume", "--checkpoint-every", "--direct"})
    if (o.action->count(name) > 0) return name;
  return nullptr;
}

// count's own options.
void check_count_options(const FoamOptions& o) {
  if (o.no_choices && o.shape.empty() && o.challenge == "own")
    throw InputError("--no-choices", 0,
                     "--challenge own counts no piece choices (one-per-colour, pool and --shape "
                     "do)");
  if (o.memory_gib && !(*o.memory_gib > 0))
    throw InputError("--memory", 0, "expected a positive number of GiB");
  if (o.by == "both" && o.shape.empty())
    throw InputError("--by", 0,
                     "both: only with --shape (one search counts by identity and by "
                     "shape)");
  if (o.method != "auto" && o.method != "search" && o.method != "layers")
    throw InputError("--method", 0, "expected auto, search or layers, got " + excerpt(o.method));
  if (o.method == "layers") {
    if (o.shape.empty()) throw InputError("--method", 0, "layers: only with --shape");
    if (const char* name = search_option(o))
      throw InputError("--method", 0,
                       fmt::format("a count by layers has no {} (it keeps its layers in memory, "
                                   "not subtrees)",
                                   name));
    if (this_cluster().processes() > 1)
      throw InputError("--method", 0, "a count by layers runs in one process, not under mpirun");
  }
}

std::vector<puzzles::FoamSet> load_sets(const FoamOptions& o) {
  std::vector<puzzles::FoamSet> sets;
  for (const std::string& file : o.files) sets.push_back(puzzles::load_foam_set(file));
  return sets;
}

// ------------------------------------------------------------ checkpoints

std::string hex_hash(const std::string& text) {
  return fmt::format("{:016x}", hash_bytes(text.data(), text.size()));
}

// What a count's checkpoint must match: the challenge, the pieces (each
// set's name and its pieces' colours and codes, hashed: a file whose
// comments changed still fits), the shape's cubes, and the method, which
// decides the search's subtrees.
CheckpointJson count_identity(const FoamOptions& o, const std::vector<puzzles::FoamSet>& sets,
                              bool via_shapes, const puzzles::FoamShape* shape) {
  CheckpointJson pieces = CheckpointJson::array();
  for (const puzzles::FoamSet& set : sets) {
    std::string text;
    for (const puzzles::FoamPiece& p : set.pieces)
      text += fmt::format("{} {} {};", p.colour, p.index, p.code);
    pieces.push_back({{"set", set.name}, {"pieces", set.pieces.size()}, {"xxh3", hex_hash(text)}});
  }
  CheckpointJson identity = {{"puzzle", "foam"},         {"action", "count"},
                             {"challenge", o.challenge}, {"by", o.by},
                             {"via_shapes", via_shapes}, {"sets", pieces}};
  if (shape != nullptr) {
    // A shape's method follows from its pieces (congruent ones: over
    // shapes), so the pieces come first in what a refusal names. Its
    // subtrees are those of the search anchored on the largest orbit of
    // faces, the anchor's placement the least under its stabiliser, filled
    // by the cells they share with the faces placed: a checkpoint of an
    // earlier search (over every face; by neighbours; every anchor
    // placement) is refused.
    identity.erase("via_shapes");
    std::string cubes;
    for (const Vec3& c : shape->cubes) cubes += fmt::format("{},{},{};", c[0], c[1], c[2]);
    identity["shape"] = {{"cubes", shape->cubes.size()}, {"xxh3", hex_hash(cubes)}};
    identity["colours"] = split_colours(o.colours);
    identity["search"] = "anchored up to the anchor's stabiliser, faces by shared cells";
    identity["via_shapes"] = via_shapes;
  }
  // A count without the choices saves tallies without them.
  if (o.no_choices) identity["piece_choices"] = false;
  return identity;
}

// The options of one search of the count, named for the checkpoint.
void apply(search::CountCheckpoint& checkpoint, search::AssemblyOptions& options, const std::string& name) {
  options.stop = checkpoint.stop();
  options.cluster = &this_cluster();
  options.checkpoint = checkpoint.ledger();
  options.checkpoint_name = name;
}

// The count's options on what it keeps: the piece choices unless
// --no-choices, and the memory guard (memory.hpp) beside the stop it has.
std::shared_ptr<const MemoryGuard> guard_memory(const FoamOptions& o,
                                                search::AssemblyOptions& options) {
  options.count_selections = !o.no_choices;
  auto guard = count_memory_guard(o.memory_gib);
  options.stop = stop_or_guard(std::move(options.stop), guard);
  return guard;
}

// After a count its guard stopped (its counts printed as lower bounds):
// throws MemoryStop saying what held the memory and what to do.
void memory_stopped(const FoamOptions& o, const MemoryGuard& guard) {
  // Not saved now (the tallies' bytes would take as much again); the
  // checkpoint's last save goes on elsewhere.
  const std::string& dir =
      o.checkpoints.checkpoint.empty() ? o.checkpoints.resume : o.checkpoints.checkpoint;
  throw MemoryStop(fmt::format(
      "the count held {} of memory, more than the {} {}, and was stopped: the counts above "
      "are lower bounds{}. {}",
      bytes_text(guard.held()), bytes_text(guard.limit()),
      o.memory_gib ? "that --memory allows"
                   : "it may use (60 % of the memory available at its start)",
      dir.empty() ? ""
                  : fmt::format("; what {} saved before (if anything) goes on with --resume {} "
                                "where there is more memory (--memory GiB)",
                                dir, dir),
      o.no_choices ? "Give it more with --memory GiB on a larger machine."
                   : "The piece choices take it (every distinct set of pieces is kept): "
                     "--no-choices counts raw, rotations and symmetries without them, in little "
                     "memory."));
}

// The progress line of a count: subtrees done of all (the time left from
// their estimated sizes), search nodes and assemblies found, with rates.
struct SearchProgress {
  Progress subtrees, nodes, assemblies;
  std::atomic<bool> warned{false};
  std::string hint;  // what the long-count note adds (set before the search)
  SearchProgress(const std::string& what)
      : subtrees(what, 0, "subtrees"),
        nodes("search", 0, "nodes"),
        assemblies("found", 0, "assemblies") {}
};

// A count that, a few seconds into its search, looks like more than an
// hour says so once on standard error, progress line or not (a run whose
// standard error is not a terminal draws none): never an endless run
// without a word. (Counted from the start, the estimate of the subtrees'
// sizes before the search can make a count of minutes say years.)
void warn_if_long(SearchProgress& progress) {
  if (progress.subtrees.seconds_measured() < 3 || progress.warned.load(std::memory_order_relaxed))
    return;
  const double left = progress.subtrees.seconds_left();
  if (left < 3600 || progress.warned.exchange(true) || this_cluster().process() != 0) return;
  progress::note_line(fmt::format(
      "cubenum: note: a long count: about {} left, from the subtrees' estimated sizes (a rough "
      "guide); --time-limit S stops it, and with --checkpoint DIR it goes on later{}",
      progress::duration(left), progress.hint));
}

search::AssemblyOptions progress_options(SearchProgress& progress) {
  search::AssemblyOptions options;
  options.progress = [&progress](const search::SplitProgress& p) {
    progress.subtrees.set_total(p.total);
    progress.subtrees.set_done(p.done);
    progress.subtrees.set_done_before(p.before);
  };
  options.work_done = [&progress](double share) {
    progress.subtrees.set_fraction(share);
    warn_if_long(progress);
  };
  options.nodes = &progress.nodes;
  options.assemblies = &progress.assemblies;
  return options;
}

// A count in JSON: a number up to 2^64 - 1, past it (the layers' 128 bits)
// its decimal digits as a string (JSON readers keep 64 bits at most).
Json wide_json(search::LayerCount n) {
  if (n <= std::numeric_limits<std::uint64_t>::max()) return static_cast<std::uint64_t>(n);
  return search::decimal(n);
}

// The piece choices as printed and in JSON: null / "-" when not counted.
Json choices_json(search::LayerCount choices, bool counted) {
  return counted ? wide_json(choices) : Json(nullptr);
}
std::string choices_text(search::LayerCount choices, bool counted) {
  return counted ? search::decimal(choices) : "-";
}

Json count_fields(const FoamProblem& problem, const puzzles::FoamCount& c, double seconds,
                  bool choices_counted = true) {
  Json r = {{"name", problem.name},
            {"raw", c.raw},
            {"rotations", c.rotations},
            {"symmetries", c.symmetries}};
  if (problem.counts_choices) r["piece_choices"] = choices_json(c.piece_choices, choices_counted);
  r["seconds"] = seconds;
  return r;
}

// Names longer than this (a pool of several sets) get a line of their own
// above their counts, so the columns stay together.
constexpr std::size_t kNameColumn = 40;

std::size_t name_width(const std::vector<FoamProblem>& problems) {
  std::size_t width = 4;  // "name"
  for (const FoamProblem& p : problems)
    if (p.name.size() <= kNameColumn) width = std::max(width, p.name.size());
  return width;
}

// For the progress line.
std::string short_name(const std::string& name) {
  if (name.size() <= kNameColumn) return name;
  // (Formatted: `substr + "..."` trips GCC 12's -Warray-bounds false positive.)
  return fmt::format("{}...", std::string_view(name).substr(0, kNameColumn - 3));
}

// The columns are named as the JSON fields are (docs/PUZZLES.md).
void print_header(std::ostream& out, std::size_t width, bool choices) {
  out << fmt::format("{:<{}} {:>12} {:>11} {:>11}{} {:>9}\n", "name", width, "raw", "rotations",
                     "symmetries", choices ? fmt::format(" {:>13}", "piece_choices") : "",
                     "seconds");
}

void print_row(std::ostream& out, std::size_t width, const FoamProblem& p,
               const puzzles::FoamCount& c, double s, bool choices_counted) {
  std::string name = p.name;
  if (name.size() > width) {
    out << name << '\n';
    name.clear();
  }
  out << fmt::format(
      "{:<{}} {:>12} {:>11} {:>11}{} {:>9.3f}\n", name, width, c.raw, c.rotations, c.symmetries,
      p.counts_choices ? fmt::format(" {:>13}", choices_text(c.piece_choices, choices_counted))
                       : "",
      s);
}

// A pool counted by identity whose pieces are not all different in shape
// goes over shapes unless --direct is given (same counts): the direct
// search finds each assembly once per way to pick the congruent copies
// (the pool of all seven Happy Cube sets: gigabytes and hours directly,
// seconds over shapes). The choice is said on standard error.
bool count_via_shapes(const FoamOptions& o, puzzles::FoamChallenge challenge, puzzles::FoamBy by,
                      const std::vector<puzzles::FoamSet>& sets) {
  if (o.via_shapes) return true;
  if (o.direct || challenge != puzzles::FoamChallenge::Pool || by != puzzles::FoamBy::Identity)
    return false;
  // A shape's pool is the pieces of the colours asked for (a cube's, all).
  const FoamProblem by_shape =
      o.shape.empty()
          ? puzzles::foam_problems(puzzles::FoamChallenge::Pool, puzzles::FoamBy::Shape, sets)
                .front()
          : puzzles::foam_shape_pool(sets, puzzles::FoamBy::Shape, split_colours(o.colours));
  if (by_shape.kinds.size() == by_shape.pieces.size()) return false;
  if (this_cluster().process() == 0)  // under mpirun, once
    fmt::print(stderr,
               "cubenum: note: {} pieces in {} shapes: counted over shapes, each assembly as the "
               "ways to pick its congruent pieces (same counts; --direct: piece by piece)\n",
               by_shape.pieces.size(), by_shape.kinds.size());
  return true;
}

Json run_count(const FoamOptions& o, const ActionContext& ctx) {
  const auto challenge = puzzles::parse_foam_challenge(o.challenge);
  const auto by = puzzles::parse_foam_by(o.by);
  const auto sets = load_sets(o);
  const bool via_shapes = count_via_shapes(o, challenge, by, sets);
  const auto problems = puzzles::foam_problems(challenge, by, sets, via_shapes);
  search::CountCheckpoint checkpoint(o.checkpoints, o.time_limit,
                             count_identity(o, sets, via_shapes, nullptr));
  Json results = Json::array();
  const std::size_t width = name_width(problems);
  print_header(ctx.out, width, challenge != puzzles::FoamChallenge::Own);
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const FoamProblem& problem = problems[i];
    SearchProgress progress("foam count: " + short_name(problem.name));
    auto options = progress_options(progress);
    apply(checkpoint, options, fmt::format("{}:{}", i, problem.name));
    const auto guard = guard_memory(o, options);
    Stopwatch clock;
    const auto counts = puzzles::count_foam(problem, options);
    const double seconds = clock.seconds();
    if (guard && guard->tripped() && !counts.complete) {
      print_row(ctx.out, width, problem, counts, seconds, !o.no_choices);
      memory_stopped(o, *guard);
    }
    if (!counts.complete) checkpoint.stopped();
    print_row(ctx.out, width, problem, counts, seconds, !o.no_choices);
    if (challenge == puzzles::FoamChallenge::Own && problem.pieces.size() < 6)
      ctx.out << fmt::format("  {}: {} piece{}, and a cube takes 6: no assembly\n", problem.name,
                             problem.pieces.size(), problem.pieces.size() == 1 ? "" : "s");
    progress::note("{}: {} search nodes, {:.3f} s", problem.name,
                   progress::grouped(progress.nodes.done()), seconds);
    results.push_back(count_fields(problem, counts, seconds, !o.no_choices));
  }
  checkpoint.finished();
  Json fields = {{"challenge", o.challenge}, {"by", o.by}, {"results", results}};
  if (checkpoint.resumed()) fields["resumed"] = true;
  return fields;
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
    SearchProgress progress("foam solve: " + short_name(problem.name));
    auto options = progress_options(progress);
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
  if (!o.svg.empty()) write_output_file(o.svg, "--svg", puzzles::foam_nets_svg(nets));
  if (!o.html.empty()) write_html_page(o.html, puzzles::foam_page_data(nets, page_title(o)));
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

puzzles::FoamShape load_shape(const FoamOptions& o) {
  if (o.challenge != "own" && o.challenge != "pool")
    throw InputError("--challenge", 0, "a shape is built from the pool of the pieces given");
  return puzzles::load_foam_shape(o.shape);
}

ShapeJob make_shape_job(const FoamOptions& o, puzzles::FoamShape shape,
                        const std::vector<puzzles::FoamSet>& sets, bool via_shapes) {
  auto pool = puzzles::foam_shape_pool(sets, shape_by(o), split_colours(o.colours), via_shapes);
  return {std::move(shape), std::move(pool)};
}

// The shape's JSON has the schema of every foam count (PUZZLES.md):
// challenge (a shape is built from the pool), by, the shape's fields, and
// `results`, one object (the pool) with its counts in `result`; with
// `--by both`, two (each with its "by").
Json shape_json(const ShapeJob& job, const FoamOptions& o, const std::vector<Json>& counts) {
  const auto& s = job.shape.surface;
  Json results = Json::array();
  for (const Json& result : counts) {
    Json pool = {{"name", job.pool.name}};
    for (const auto& [key, value] : result.items()) pool[key] = value;
    results.push_back(std::move(pool));
  }
  return {{"challenge", "pool"},
          {"shape", job.shape.name},
          {"cubes", job.shape.cubes.size()},
          {"faces", s.face_count()},
          {"cells", s.cell_count()},
          {"symmetry_order", s.symmetries().size()},
          {"rotation_order", s.rotation_count()},
          {"by", o.by},
          {"colours", split_colours(o.colours)},
          {"pieces", job.pool.pieces.size()},
          {"results", std::move(results)}};
}

Json shape_json(const ShapeJob& job, const FoamOptions& o, const Json& result) {
  return shape_json(job, o, std::vector<Json>{result});
}

// A shape's counts (from the search, by shape beside it, or the layers) in
// JSON; the piece choices null when not counted.
template <class Count>
Json count_json(const Count& c, bool choices_counted) {
  return {{"raw", wide_json(c.raw)},
          {"rotations", wide_json(c.rotations)},
          {"symmetries", wide_json(c.symmetries)},
          {"piece_choices", choices_json(c.piece_choices, choices_counted)}};
}

void print_shape_header(std::ostream& out, const ShapeJob& job) {
  const auto& s = job.shape.surface;
  out << fmt::format(
      "shape {}: {} cubes, {} faces, {} cells, symmetry order {} ({} rotations); "
      "pool of {} pieces\n",
      job.shape.name, job.shape.cubes.size(), s.face_count(), s.cell_count(), s.symmetries().size(),
      s.rotation_count(), job.pool.pieces.size());
}

// A table row of a shape's count: how the pieces are told apart (empty
// when the count is one), raw, rotations, symmetries, piece choices.
struct ShapeCountRow {
  std::string by;
  std::array<std::string, 4> counts;
};

template <class Count>
ShapeCountRow count_row(std::string by, const Count& c, bool choices_counted) {
  return {std::move(by),
          {search::decimal(c.raw), search::decimal(c.rotations), search::decimal(c.symmetries),
           choices_text(c.piece_choices, choices_counted)}};
}

void print_shape_counts(std::ostream& out, const std::vector<ShapeCountRow>& rows, double seconds) {
  const bool labelled = rows.size() > 1;
  const auto by = [&](const std::string& text) {
    return labelled ? fmt::format("{:<9}", text) : std::string();
  };
  out << fmt::format("{}{:>14} {:>12} {:>12} {:>13} {:>9}\n", by("by"), "raw", "rotations",
                     "symmetries", "piece_choices", "seconds");
  for (const ShapeCountRow& row : rows)
    out << fmt::format("{}{:>14} {:>12} {:>12} {:>13} {:>9.3f}\n", by(row.by), row.counts[0],
                       row.counts[1], row.counts[2], row.counts[3], seconds);
}

// How a shape is counted: by the search, by layers, or by layers first
// and by the search if the layers outgrow the memory allowed.
enum class ShapeMethod { Search, Layers, LayersThenSearch };

// --method, or for `auto` (one process, nothing only the search has) the
// widest frontier of the layers' fill order (puzzles::layers_frontier)
// decides: the layers where they suit the shape, tried first up to
// kLayersTriedFrontier cells; said on standard error.
ShapeMethod shape_method(const FoamOptions& o, const ShapeJob& job) {
  if (o.method != "auto") return o.method == "layers" ? ShapeMethod::Layers : ShapeMethod::Search;
  if (search_option(o) != nullptr || this_cluster().processes() > 1) return ShapeMethod::Search;
  const std::optional<int> frontier = puzzles::layers_frontier(job.shape, job.pool);
  if (!frontier || *frontier > puzzles::kLayersTriedFrontier) return ShapeMethod::Search;
  if (*frontier <= puzzles::kLayersWidestFrontier) {
    fmt::print(stderr,
               "cubenum: note: counted by layers (the pool's many congruent pieces make few "
               "distinct states; --method search: assembly by assembly)\n");
    return ShapeMethod::Layers;
  }
  fmt::print(stderr,
             "cubenum: note: counting by layers first (many congruent pieces, but a frontier of "
             "{} cells: they may outgrow the memory, and then the search counts it; --method "
             "search: the search alone)\n",
             *frontier);
  return ShapeMethod::LayersThenSearch;
}

// The count by layers, its progress the layers done. With `--by both`,
// by identity and then by shape (the layers keep the copies left, so the
// two are separate counts). With `fallback`, outgrowing the memory is said
// on standard error and gives nothing (the search counts it then).
std::optional<Json> run_shape_count_by_layers(const FoamOptions& o, const ActionContext& ctx,
                                              const ShapeJob& job,
                                              const std::vector<puzzles::FoamSet>& sets,
                                              bool fallback) {
  Progress layers("foam count by layers: " + job.shape.name, 0, "layers");
  search::LayerOptions options;
  options.layer_done = [&layers](int done, int total, std::uint64_t states) {
    layers.set_total(static_cast<std::uint64_t>(total));
    layers.set_done(static_cast<std::uint64_t>(done));
    layers.set_detail(fmt::format("{} states in the last", states));
  };
  auto guard = count_memory_guard(o.memory_gib);
  if (o.time_limit > 0) {
    auto clock = std::make_shared<Stopwatch>();
    options.stop = [clock, limit = o.time_limit] { return clock->seconds() > limit; };
  }
  options.stop = stop_or_guard(std::move(options.stop), guard);
  std::vector<std::pair<std::string, FoamProblem>> pools = {{"identity", job.pool}};
  if (o.by == "both")
    pools.emplace_back(
        "shape", puzzles::foam_shape_pool(sets, puzzles::FoamBy::Shape, split_colours(o.colours)));
  else
    pools.front().first.clear();
  const bool choices = !o.no_choices;
  std::vector<ShapeCountRow> rows;
  std::vector<Json> counts;
  Stopwatch clock;
  for (const auto& [by, pool] : pools) {
    const auto c = puzzles::count_foam_shape_by_layers(job.shape, pool, options);
    if (!c.complete && fallback && guard && guard->tripped()) {
      fmt::print(stderr,
                 "cubenum: note: the layers held {}, more than the {} allowed (--memory): "
                 "counted by the search instead\n",
                 bytes_text(guard->held()), bytes_text(guard->limit()));
      return std::nullopt;
    }
    if (!c.complete) {
      const std::string why =
          "a count by layers has no counts before its last layer (--method search gives lower "
          "bounds as it goes)";
      if (guard && guard->tripped())
        throw MemoryStop(
            fmt::format("the count by layers held {}, more than the {} allowed, and was "
                        "stopped: {}",
                        bytes_text(guard->held()), bytes_text(guard->limit()), why));
      throw RunStopped(fmt::format("the count by layers was stopped by --time-limit: {}", why));
    }
    rows.push_back(count_row(by, c, choices));
    Json r = count_json(c, choices);
    r["complete"] = true;
    r["method"] = "layers";
    r["largest_layer"] = c.largest_layer;
    if (!by.empty()) r["by"] = by;
    counts.push_back(std::move(r));
  }
  const double seconds = clock.seconds();
  print_shape_counts(ctx.out, rows, seconds);
  for (Json& r : counts) r["count_seconds"] = seconds;
  return shape_json(job, o, counts);
}

// The search's count of a shape (its header printed unless `headed`).
Json run_shape_search(const FoamOptions& o, const ActionContext& ctx, const ShapeJob& job,
                      const std::vector<puzzles::FoamSet>& sets, bool via_shapes, bool headed) {
  search::CountCheckpoint checkpoint(o.checkpoints, o.time_limit,
                             count_identity(o, sets, via_shapes, &job.shape));
  if (!headed) print_shape_header(ctx.out, job);
  SearchProgress progress("foam count: " + job.shape.name);
  // Where only an option of the search kept auto from the layers.
  const char* option = search_option(o);
  if (o.method == "auto" && option != nullptr && this_cluster().processes() == 1) {
    const std::optional<int> frontier = puzzles::layers_frontier(job.shape, job.pool);
    if (frontier && *frontier <= puzzles::kLayersTriedFrontier)
      progress.hint = fmt::format(
          "; without {}, the layers may count it far faster (many congruent pieces)", option);
  }
  auto options = progress_options(progress);
  options.tally_by_shape = o.by == "both";
  apply(checkpoint, options, "shape");
  const auto guard = guard_memory(o, options);
  if (o.time_limit > 0)
    progress.subtrees.set_detail("stops at --time-limit " + progress::duration(o.time_limit));
  Stopwatch clock;
  const auto c = puzzles::count_foam_shape(job.shape, job.pool, options);
  const double seconds = clock.seconds();
  const bool out_of_memory = guard && guard->tripped() && !c.complete;
  if (!c.complete && checkpoint.saving() && !out_of_memory) checkpoint.stopped();
  if (!out_of_memory) checkpoint.finished();
  const bool choices = !o.no_choices;
  std::vector<ShapeCountRow> rows = {count_row(c.by_shape ? "identity" : "", c, choices)};
  std::vector<Json> counts = {count_json(c, choices)};
  if (c.by_shape) {
    rows.push_back(count_row("shape", *c.by_shape, choices));
    counts.push_back(count_json(*c.by_shape, choices));
  }
  print_shape_counts(ctx.out, rows, seconds);
  if (!c.complete)
    ctx.out << fmt::format("stopped {} after {}/{} subtrees: the counts are lower bounds\n",
                           out_of_memory ? "at the memory limit" : "by --time-limit",
                           c.subtrees_done, c.subtrees_total);
  if (out_of_memory) memory_stopped(o, *guard);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    Json& r = counts[i];
    r["complete"] = c.complete;
    if (c.by_shape) r["by"] = i == 0 ? "identity" : "shape";
    r["method"] = "search";
    r["subtrees_done"] = c.subtrees_done;
    r["subtrees_total"] = c.subtrees_total;
    r["count_seconds"] = seconds;
  }
  Json fields = shape_json(job, o, counts);
  if (checkpoint.resumed()) fields["resumed"] = true;
  return fields;
}

Json run_shape_count(const FoamOptions& o, const ActionContext& ctx) {
  const auto sets = load_sets(o);
  auto shape = load_shape(o);  // (a bad shape file is told before any note)
  const bool via_shapes = count_via_shapes(o, puzzles::FoamChallenge::Pool, shape_by(o), sets);
  const ShapeJob job = make_shape_job(o, std::move(shape), sets, via_shapes);
  const ShapeMethod method = shape_method(o, job);
  if (method == ShapeMethod::Search) return run_shape_search(o, ctx, job, sets, via_shapes, false);
  print_shape_header(ctx.out, job);
  Stopwatch tried;
  const bool fallback = method == ShapeMethod::LayersThenSearch;
  if (auto counted = run_shape_count_by_layers(o, ctx, job, sets, fallback)) return *counted;
  FoamOptions rest = o;  // the search has what is left of --time-limit
  if (o.time_limit > 0) rest.time_limit = std::max(1e-3, o.time_limit - tried.seconds());
  return run_shape_search(rest, ctx, job, sets, via_shapes, true);
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

void write_shape_svg(const FoamOptions& o, const ShapeJob& job,
                     const std::vector<search::AssemblyKey>& keys) {
  if (o.svg.empty()) return;
  write_output_file(o.svg, "--svg",
                    keys.empty() ? "" : puzzles::foam_shape_svg(job.shape, job.pool, keys.front()));
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
  write_shape_svg(o, job, keys);
  if (!o.html.empty())
    write_html_page(o.html, puzzles::foam_shape_page_data(
                                job.shape, job.pool, keys,
                                fmt::format("cubenum foam solve --shape {}", job.shape.name)));
  return listed;
}

// Without --first: count, and list the first canonical assemblies.
Json run_shape_list(const FoamOptions& o, const ActionContext& ctx, const ShapeJob& job) {
  SearchProgress progress("foam solve: " + job.shape.name);
  auto options = progress_options(progress);
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
  Json r = count_json(c, true);
  r["complete"] = c.complete;
  r["count_seconds"] = seconds;
  r["solutions"] = listed;
  Json all = shape_json(job, o, r);
  all["up_to"] = o.up_to;
  return all;
}

Json run_shape_solve(const FoamOptions& o, const ActionContext& ctx) {
  const auto sets = load_sets(o);
  const ShapeJob job = make_shape_job(o, load_shape(o), sets, o.via_shapes);
  print_shape_header(ctx.out, job);
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

void register_foam(Command& app) {
  Command* foam = app.add_subcommand("foam", "foam cubes (Happy Cube and relatives)");
  foam->require_subcommand(1);

  auto count_opts = std::make_shared<FoamOptions>();
  Command* count =
      add_action(*foam, "count", "count the assemblies of a challenge, raw and up to symmetry",
                 [count_opts](const ActionContext& ctx) {
                   check_options(*count_opts);
                   check_count_options(*count_opts);
                   return count_opts->shape.empty() ? run_count(*count_opts, ctx)
                                                    : run_shape_count(*count_opts, ctx);
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
