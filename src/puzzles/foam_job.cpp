// `foam count` as a job (puzzles/foam_job.hpp): the decisions the count
// makes, its checkpoint identity, its progress, and its JSON.
#include "cubenum/puzzles/foam_job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <limits>
#include <memory>

#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/hash.hpp"
#include "cubenum/core/memory.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/search/count_checkpoint.hpp"

namespace cubenum::puzzles {
namespace {

// The part of the request that only the search has (its subtrees, or
// pieces one by one), named as its option, or null.
const char* search_option(const FoamCountRequest& r) {
  if (!r.checkpoints.checkpoint.empty()) return "--checkpoint";
  if (!r.checkpoints.resume.empty()) return "--resume";
  if (r.direct) return "--direct";
  return nullptr;
}

// How a shape's pool tells its pieces apart: `both` searches by identity
// (over shapes where pieces are congruent) and counts by shape in the same
// search.
FoamBy shape_by(const FoamCountRequest& r) {
  return r.by == "both" ? FoamBy::Identity : parse_foam_by(r.by);
}

// ------------------------------------------------------------ checkpoints

std::string hex_hash(const std::string& text) {
  return fmt::format("{:016x}", hash_bytes(text.data(), text.size()));
}

// What a count's checkpoint must match: the challenge, the pieces (each
// set's name and its pieces' colours and codes, hashed: a file whose
// comments changed still fits), the shape's cubes, and the method, which
// decides the search's subtrees.
CheckpointJson count_identity(const FoamCountRequest& r, bool via_shapes) {
  CheckpointJson pieces = CheckpointJson::array();
  for (const FoamSet& set : r.sets) {
    std::string text;
    for (const FoamPiece& p : set.pieces)
      text += fmt::format("{} {} {};", p.colour, p.index, p.code);
    pieces.push_back({{"set", set.name}, {"pieces", set.pieces.size()}, {"xxh3", hex_hash(text)}});
  }
  CheckpointJson identity = {
      {"puzzle", "foam"}, {"action", "count"},        {"challenge", to_string(r.challenge)},
      {"by", r.by},       {"via_shapes", via_shapes}, {"sets", pieces}};
  if (r.shape) {
    // A shape's method follows from its pieces (congruent ones: over
    // shapes), so the pieces come first in what a refusal names. Its
    // subtrees are those of the search anchored on the largest orbit of
    // faces, the anchor's placement the least under its stabiliser, filled
    // by the cells they share with the faces placed: a checkpoint of an
    // earlier search (over every face; by neighbours; every anchor
    // placement) is refused.
    identity.erase("via_shapes");
    std::string cubes;
    for (const Vec3& c : r.shape->cubes) cubes += fmt::format("{},{},{};", c[0], c[1], c[2]);
    identity["shape"] = {{"cubes", r.shape->cubes.size()}, {"xxh3", hex_hash(cubes)}};
    identity["colours"] = r.colours;
    identity["search"] = "anchored up to the anchor's stabiliser, faces by shared cells";
    identity["via_shapes"] = via_shapes;
  }
  // A count without the choices saves tallies without them.
  if (!r.piece_choices) identity["piece_choices"] = false;
  return identity;
}

// The options of one search of the count, named for the checkpoint.
void apply(search::CountCheckpoint& checkpoint, search::AssemblyOptions& options,
           const std::string& name) {
  options.stop = checkpoint.stop();
  options.cluster = &this_cluster();
  options.checkpoint = checkpoint.ledger();
  options.checkpoint_name = name;
}

// The count's options on what it keeps: the piece choices unless left
// out, and the memory guard (core/memory.hpp) beside the stop it has.
std::shared_ptr<const MemoryGuard> guard_memory(const FoamCountRequest& r,
                                                search::AssemblyOptions& options) {
  options.count_selections = r.piece_choices;
  auto guard = count_memory_guard(r.memory_gib);
  options.stop = stop_or_guard(std::move(options.stop), guard);
  return guard;
}

// After a count its guard stopped (its counts shown as lower bounds):
// throws MemoryStop saying what held the memory and what to do.
[[noreturn]] void memory_stopped(const FoamCountRequest& r, const MemoryGuard& guard) {
  // Not saved now (the tallies' bytes would take as much again); the
  // checkpoint's last save goes on elsewhere.
  const std::string& dir =
      r.checkpoints.checkpoint.empty() ? r.checkpoints.resume : r.checkpoints.checkpoint;
  throw MemoryStop(fmt::format(
      "the count held {} of memory, more than the {} {}, and was stopped: the counts above "
      "are lower bounds{}. {}",
      bytes_text(guard.held()), bytes_text(guard.limit()),
      r.memory_gib ? "that --memory allows"
                   : "it may use (60 % of the memory available at its start)",
      dir.empty() ? ""
                  : fmt::format("; what {} saved before (if anything) goes on with --resume {} "
                                "where there is more memory (--memory GiB)",
                                dir, dir),
      r.piece_choices
          ? "The piece choices take it (every distinct set of pieces is kept): --no-choices "
            "counts raw, rotations and symmetries without them, in little memory."
          : "Give it more with --memory GiB on a larger machine."));
}

// ------------------------------------------------------------ progress

// A count that, a few seconds into its search, looks like more than an
// hour says so once on standard error, progress line or not (a run whose
// standard error is not a terminal draws none): never an endless run
// without a word. (Counted from the start, the estimate of the subtrees'
// sizes before the search can make a count of minutes say years.)
void warn_if_long(FoamSearchProgress& progress) {
  if (progress.subtrees.seconds_measured() < 3 || progress.warned.load(std::memory_order_relaxed))
    return;
  const double left = progress.subtrees.seconds_left();
  if (left < 3600 || progress.warned.exchange(true) || this_cluster().process() != 0) return;
  progress::note_line(fmt::format(
      "cubenum: note: a long count: about {} left, from the subtrees' estimated sizes (a rough "
      "guide); --time-limit S stops it, and with --checkpoint DIR it goes on later{}",
      progress::duration(left), progress.hint));
}

// Names longer than this (a pool of several sets) are cut short on the
// progress line.
constexpr std::size_t kShortName = 40;

std::string short_name(const std::string& name) {
  if (name.size() <= kShortName) return name;
  // (Formatted: `substr + "..."` trips GCC 12's -Warray-bounds false positive.)
  return fmt::format("{}...", std::string_view(name).substr(0, kShortName - 3));
}

// ------------------------------------------------------------ decisions

// A pool counted by identity whose pieces are not all different in shape
// goes over shapes unless `direct` (same counts): the direct search finds
// each assembly once per way to pick the congruent copies (the pool of all
// seven Happy Cube sets: gigabytes and hours directly, seconds over
// shapes).
bool choose_via_shapes(const FoamCountRequest& r, FoamChallenge challenge, FoamBy by,
                       FoamCountResult& result, FoamCountView& view) {
  if (r.via_shapes) return true;
  if (r.direct || challenge != FoamChallenge::Pool || by != FoamBy::Identity) return false;
  // A shape's pool is the pieces of the colours asked for (a cube's, all).
  const FoamProblem by_shape =
      r.shape ? foam_shape_pool(r.sets, FoamBy::Shape, r.colours)
              : foam_problems(FoamChallenge::Pool, FoamBy::Shape, r.sets).front();
  if (by_shape.kinds.size() == by_shape.pieces.size()) return false;
  result.notes.push_back(fmt::format(
      "{} pieces in {} shapes: counted over shapes, each assembly as the ways to pick its "
      "congruent pieces (same counts; --direct: piece by piece)",
      by_shape.pieces.size(), by_shape.kinds.size()));
  if (this_cluster().process() == 0) view.note(result.notes.back());  // under mpirun, once
  return true;
}

// How a shape is counted: by the search, by layers, or by layers first
// and by the search if the layers outgrow the memory allowed.
enum class ShapeMethod { Search, Layers, LayersThenSearch };

// The method asked for, or for Auto (one process, nothing only the search
// has) the widest frontier of the layers' fill order (layers_frontier)
// decides: the layers where they suit the shape, tried first up to
// kLayersTriedFrontier cells.
ShapeMethod choose_shape_method(const FoamCountRequest& r, const FoamProblem& pool,
                                FoamCountResult& result, FoamCountView& view) {
  if (r.method != FoamMethod::Auto)
    return r.method == FoamMethod::Layers ? ShapeMethod::Layers : ShapeMethod::Search;
  if (search_option(r) != nullptr || this_cluster().processes() > 1) return ShapeMethod::Search;
  const std::optional<int> frontier = layers_frontier(*r.shape, pool);
  if (!frontier || *frontier > kLayersTriedFrontier) return ShapeMethod::Search;
  const bool layers = *frontier <= kLayersWidestFrontier;
  result.notes.push_back(
      layers ? "counted by layers (the pool's many congruent pieces make few distinct states; "
               "--method search: assembly by assembly)"
             : fmt::format("counting by layers first (many congruent pieces, but a frontier of "
                           "{} cells: they may outgrow the memory, and then the search counts "
                           "it; --method search: the search alone)",
                           *frontier));
  view.note(result.notes.back());
  return layers ? ShapeMethod::Layers : ShapeMethod::LayersThenSearch;
}

// ------------------------------------------------------------ a challenge

FoamCountResult count_challenge(const FoamCountRequest& r, FoamCountView& view) {
  FoamCountResult result;
  const FoamBy by = parse_foam_by(r.by);
  result.via_shapes = choose_via_shapes(r, r.challenge, by, result, view);
  const auto problems = foam_problems(r.challenge, by, r.sets, result.via_shapes);
  search::CountCheckpoint checkpoint(r.checkpoints, r.time_limit,
                                     count_identity(r, result.via_shapes));
  view.problems(problems);
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const FoamProblem& problem = problems[i];
    FoamSearchProgress progress("foam count: " + short_name(problem.name));
    auto options = progress.options();
    apply(checkpoint, options, fmt::format("{}:{}", i, problem.name));
    const auto guard = guard_memory(r, options);
    Stopwatch clock;
    FoamCount count = count_foam(problem, options);
    const double seconds = clock.seconds();
    if (guard && guard->tripped() && !count.complete) {
      view.counted(problem, count, seconds);
      memory_stopped(r, *guard);
    }
    if (!count.complete) checkpoint.stopped();
    view.counted(problem, count, seconds);
    progress::note("{}: {} search nodes, {:.3f} s", problem.name,
                   progress::grouped(progress.nodes.done()), seconds);
    result.problems.push_back({problem.name, problem.counts_choices, std::move(count), seconds});
  }
  checkpoint.finished();
  result.resumed = checkpoint.resumed();
  return result;
}

// ------------------------------------------------------------ a shape

template <class Count>
FoamShapeTally shape_tally(std::string by, const Count& c) {
  return {std::move(by), c.raw, c.rotations, c.symmetries, c.piece_choices, std::nullopt};
}

// The count by layers, its progress the layers done: with `both`, by
// identity and then by shape (the layers keep the copies left, so the two
// are separate counts). With `fallback`, outgrowing the memory gives
// nothing (the search counts it then).
std::optional<FoamShapeResult> shape_by_layers(const FoamCountRequest& r, const FoamProblem& pool,
                                               bool fallback, FoamCountResult& result,
                                               FoamCountView& view) {
  Progress layers("foam count by layers: " + r.shape->name, 0, "layers");
  search::LayerOptions options;
  options.layer_done = [&layers](int done, int total, std::uint64_t states) {
    layers.set_total(static_cast<std::uint64_t>(total));
    layers.set_done(static_cast<std::uint64_t>(done));
    layers.set_detail(fmt::format("{} states in the last", states));
  };
  auto guard = count_memory_guard(r.memory_gib);
  if (r.time_limit > 0) {
    auto clock = std::make_shared<Stopwatch>();
    options.stop = [clock, limit = r.time_limit] { return clock->seconds() > limit; };
  }
  options.stop = stop_or_guard(std::move(options.stop), guard);
  std::vector<std::pair<std::string, FoamProblem>> pools = {{"identity", pool}};
  if (r.by == "both")
    pools.emplace_back("shape", foam_shape_pool(r.sets, FoamBy::Shape, r.colours));
  else
    pools.front().first.clear();
  FoamShapeResult shape;
  shape.pool = pool.name;
  shape.pieces = pool.pieces.size();
  shape.method = "layers";
  Stopwatch clock;
  for (const auto& [by, counted] : pools) {
    const search::LayerTally c = count_foam_shape_by_layers(*r.shape, counted, options);
    if (!c.complete && fallback && guard && guard->tripped()) {
      result.notes.push_back(fmt::format(
          "the layers held {}, more than the {} allowed (--memory): counted by the search "
          "instead",
          bytes_text(guard->held()), bytes_text(guard->limit())));
      view.note(result.notes.back());
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
    shape.tallies.push_back(shape_tally(by, c));
    shape.tallies.back().largest_layer = c.largest_layer;
  }
  shape.seconds = clock.seconds();
  return shape;
}

// The search's count of a shape, shown (and the shape first unless
// `shown`).
FoamShapeResult shape_by_search(const FoamCountRequest& r, const FoamProblem& pool,
                                double time_limit, bool shown, FoamCountResult& result,
                                FoamCountView& view) {
  search::CountCheckpoint checkpoint(r.checkpoints, time_limit,
                                     count_identity(r, result.via_shapes));
  if (!shown) view.shape(*r.shape, pool);
  FoamSearchProgress progress("foam count: " + r.shape->name);
  // Where only a part of the request that the search alone has kept Auto
  // from the layers.
  const char* option = search_option(r);
  if (r.method == FoamMethod::Auto && option != nullptr && this_cluster().processes() == 1) {
    const std::optional<int> frontier = layers_frontier(*r.shape, pool);
    if (frontier && *frontier <= kLayersTriedFrontier)
      progress.hint = fmt::format(
          "; without {}, the layers may count it far faster (many congruent pieces)", option);
  }
  auto options = progress.options();
  options.tally_by_shape = r.by == "both";
  apply(checkpoint, options, "shape");
  const auto guard = guard_memory(r, options);
  if (time_limit > 0)
    progress.subtrees.set_detail("stops at --time-limit " + progress::duration(time_limit));
  Stopwatch clock;
  const FoamShapeCount c = count_foam_shape(*r.shape, pool, options);
  FoamShapeResult shape;
  shape.pool = pool.name;
  shape.pieces = pool.pieces.size();
  shape.method = "search";
  shape.seconds = clock.seconds();
  shape.out_of_memory = guard && guard->tripped() && !c.complete;
  if (!c.complete && checkpoint.saving() && !shape.out_of_memory) checkpoint.stopped();
  if (!shape.out_of_memory) checkpoint.finished();
  shape.tallies.push_back(shape_tally(c.by_shape ? "identity" : "", c));
  if (c.by_shape) shape.tallies.push_back(shape_tally("shape", *c.by_shape));
  shape.complete = c.complete;
  shape.subtrees_done = c.subtrees_done;
  shape.subtrees_total = c.subtrees_total;
  result.resumed = checkpoint.resumed();
  view.shape_counted(shape);
  if (shape.out_of_memory) memory_stopped(r, *guard);
  return shape;
}

FoamCountResult count_shape(const FoamCountRequest& r, FoamCountView& view) {
  FoamCountResult result;
  result.via_shapes = choose_via_shapes(r, FoamChallenge::Pool, shape_by(r), result, view);
  const FoamProblem pool = foam_shape_pool(r.sets, shape_by(r), r.colours, result.via_shapes);
  const ShapeMethod method = choose_shape_method(r, pool, result, view);
  if (method == ShapeMethod::Search) {
    result.shape = shape_by_search(r, pool, r.time_limit, false, result, view);
    return result;
  }
  view.shape(*r.shape, pool);
  Stopwatch tried;
  result.shape = shape_by_layers(r, pool, method == ShapeMethod::LayersThenSearch, result, view);
  if (result.shape) {
    view.shape_counted(*result.shape);
    return result;
  }
  // The search has what is left of the time limit.
  const double left = r.time_limit > 0 ? std::max(1e-3, r.time_limit - tried.seconds()) : 0;
  result.shape = shape_by_search(r, pool, left, true, result, view);
  return result;
}

}  // namespace

FoamSearchProgress::FoamSearchProgress(const std::string& what)
    : subtrees(what, 0, "subtrees"),
      nodes("search", 0, "nodes"),
      assemblies("found", 0, "assemblies") {}

search::AssemblyOptions FoamSearchProgress::options() {
  search::AssemblyOptions options;
  options.progress = [this](const search::SplitProgress& p) {
    subtrees.set_total(p.total);
    subtrees.set_done(p.done);
    subtrees.set_done_before(p.before);
  };
  options.work_done = [this](double share) {
    subtrees.set_fraction(share);
    warn_if_long(*this);
  };
  options.nodes = &nodes;
  options.assemblies = &assemblies;
  return options;
}

FoamMethod parse_foam_method(const std::string& word) {
  if (word == "auto") return FoamMethod::Auto;
  if (word == "search") return FoamMethod::Search;
  if (word == "layers") return FoamMethod::Layers;
  throw InputError("--method", 0, "expected auto, search or layers, got " + excerpt(word));
}

void check_foam_count(const FoamCountRequest& r) {
  if (!r.piece_choices && !r.shape && r.challenge == FoamChallenge::Own)
    throw InputError("--no-choices", 0,
                     "--challenge own counts no piece choices (one-per-colour, pool and --shape "
                     "do)");
  if (r.memory_gib && !(*r.memory_gib > 0))
    throw InputError("--memory", 0, "expected a positive number of GiB");
  if (r.by == "both" && !r.shape)
    throw InputError("--by", 0,
                     "both: only with --shape (one search counts by identity and by "
                     "shape)");
  if (r.method == FoamMethod::Layers) {
    if (!r.shape) throw InputError("--method", 0, "layers: only with --shape");
    if (const char* name = search_option(r))
      throw InputError("--method", 0,
                       fmt::format("a count by layers has no {} (it keeps its layers in memory, "
                                   "not subtrees)",
                                   name));
    if (this_cluster().processes() > 1)
      throw InputError("--method", 0, "a count by layers runs in one process, not under mpirun");
  }
}

void FoamCountView::note(const std::string& text) {
  fmt::print(stderr, "cubenum: note: {}\n", text);
}

FoamCountResult count_foam_job(const FoamCountRequest& request, FoamCountView& view) {
  check_foam_count(request);
  return request.shape ? count_shape(request, view) : count_challenge(request, view);
}

// A count in JSON: a number up to 2^64 - 1, past it (the layers' 128 bits)
// its decimal digits as a string (JSON readers keep 64 bits at most).
Json foam_wide_json(search::LayerCount n) {
  if (n <= std::numeric_limits<std::uint64_t>::max()) return static_cast<std::uint64_t>(n);
  return search::decimal(n);
}

Json foam_problem_json(const FoamProblemResult& p, bool choices_counted) {
  Json r = {{"name", p.name},
            {"raw", p.count.raw},
            {"rotations", p.count.rotations},
            {"symmetries", p.count.symmetries}};
  if (p.counts_choices)
    r["piece_choices"] = choices_counted ? foam_wide_json(p.count.piece_choices) : Json(nullptr);
  r["seconds"] = p.seconds;
  return r;
}

Json foam_shape_json(const FoamShape& shape, const std::string& by,
                     const std::vector<std::string>& colours, const std::string& pool,
                     std::size_t pieces, const std::vector<Json>& results) {
  Json listed = Json::array();
  for (const Json& result : results) {
    Json named = {{"name", pool}};
    for (const auto& [key, value] : result.items()) named[key] = value;
    listed.push_back(std::move(named));
  }
  const search::PlateSurface& surface = shape.surface;
  return {{"challenge", "pool"},
          {"shape", shape.name},
          {"cubes", shape.cubes.size()},
          {"faces", surface.face_count()},
          {"cells", surface.cell_count()},
          {"symmetry_order", surface.symmetries().size()},
          {"rotation_order", surface.rotation_count()},
          {"by", by},
          {"colours", colours},
          {"pieces", pieces},
          {"results", std::move(listed)}};
}

Json foam_count_json(const FoamCountRequest& request, const FoamCountResult& result) {
  Json fields;
  if (const auto& s = result.shape) {
    std::vector<Json> results;
    for (const FoamShapeTally& t : s->tallies) {
      Json r = {{"raw", foam_wide_json(t.raw)},
                {"rotations", foam_wide_json(t.rotations)},
                {"symmetries", foam_wide_json(t.symmetries)},
                {"piece_choices",
                 request.piece_choices ? foam_wide_json(t.piece_choices) : Json(nullptr)},
                {"complete", s->complete}};
      if (s->method == "layers") {
        r["method"] = "layers";
        r["largest_layer"] = t.largest_layer.value_or(0);
        if (!t.by.empty()) r["by"] = t.by;
      } else {
        if (!t.by.empty()) r["by"] = t.by;
        r["method"] = "search";
        r["subtrees_done"] = s->subtrees_done;
        r["subtrees_total"] = s->subtrees_total;
      }
      r["count_seconds"] = s->seconds;
      results.push_back(std::move(r));
    }
    fields =
        foam_shape_json(*request.shape, request.by, request.colours, s->pool, s->pieces, results);
  } else {
    Json results = Json::array();
    for (const FoamProblemResult& p : result.problems)
      results.push_back(foam_problem_json(p, request.piece_choices));
    fields = {
        {"challenge", to_string(request.challenge)}, {"by", request.by}, {"results", results}};
  }
  if (result.resumed) fields["resumed"] = true;
  return fields;
}

}  // namespace cubenum::puzzles
