#pragma once
// `foam count` as a job: a request (the piece sets; the challenge or the
// shape; how pieces are told apart; the limits and the checkpoint folders)
// and its result (the counts, the method chosen and why). The library makes
// every decision: over shapes or piece by piece, by layers or by the
// search, and what a checkpoint must match. A caller fills the request and
// shows the result; a FoamCountView shows the counts as they come.
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "cubenum/core/progress.hpp"
#include "cubenum/core/run_control.hpp"
#include "cubenum/puzzles/foam.hpp"
#include "cubenum/puzzles/foam_shape.hpp"
#include "cubenum/report/json.hpp"
#include "cubenum/search/plate_layers.hpp"

namespace cubenum::puzzles {

// How a shape is counted (docs/PUZZLES.md): `Auto` picks the layers where
// they suit the shape and its pool.
enum class FoamMethod { Auto, Search, Layers };
FoamMethod parse_foam_method(const std::string& word);  // auto|search|layers

struct FoamCountRequest {
  std::vector<FoamSet> sets;
  FoamChallenge challenge = FoamChallenge::Own;  // a shape: Own (as given) or Pool
  std::string by = "identity";                   // identity | shape | both (a shape only)
  bool via_shapes = false;                       // by identity, over shapes (same counts)
  bool direct = false;  // a pool by identity: piece by piece even where pieces are congruent
  bool piece_choices = true;
  std::optional<FoamShape> shape;    // build this shape from the pool of all pieces
  std::vector<std::string> colours;  // a shape's pool: only these colours (empty: all)
  FoamMethod method = FoamMethod::Auto;
  double time_limit = 0;  // seconds; 0: none
  CheckpointOptions checkpoints;
  std::optional<double> memory_gib;  // stop past this (default: 60 % of what is available)
};

// Throws InputError, naming the option, for a request whose parts do not
// go together (a count by layers with a checkpoint, --by both without a
// shape, ...).
void check_foam_count(const FoamCountRequest& request);

// A shape's counts one way of telling its pieces apart.
struct FoamShapeTally {
  std::string by;  // "identity" or "shape" where the count has both, else empty
  search::LayerCount raw = 0, rotations = 0, symmetries = 0, piece_choices = 0;
  std::optional<std::uint64_t> largest_layer;  // by layers: the most states one layer held
};

struct FoamShapeResult {
  std::string pool;  // the pool's name
  std::size_t pieces = 0;
  std::string method;  // "search" | "layers"
  std::vector<FoamShapeTally> tallies;
  bool complete = true;
  bool out_of_memory = false;  // stopped by the memory guard (the counts are lower bounds)
  std::size_t subtrees_done = 0, subtrees_total = 0;  // the search's
  double seconds = 0;
};

struct FoamProblemResult {
  std::string name;
  bool counts_choices = false;
  FoamCount count;
  double seconds = 0;
};

struct FoamCountResult {
  bool via_shapes = false;                  // counted over shapes, as chosen
  std::vector<std::string> notes;           // each choice the library made, and why
  std::vector<FoamProblemResult> problems;  // a challenge's counts
  std::optional<FoamShapeResult> shape;     // or a shape's
  bool resumed = false;
};

// The progress line of a foam search: subtrees done of all (the time left
// from their estimated sizes), search nodes and assemblies found, with
// rates; a count that looks like more than an hour says so once.
struct FoamSearchProgress {
  explicit FoamSearchProgress(const std::string& what);
  // The search's options that feed the line (to add the rest to).
  search::AssemblyOptions options();

  Progress subtrees, nodes, assemblies;
  std::atomic<bool> warned{false};
  std::string hint;  // what the long-count note adds
};

// What a caller shows while the count goes (the command line: its tables).
// Notes go to standard error by default.
class FoamCountView {
 public:
  virtual ~FoamCountView() = default;
  virtual void note(const std::string& text);
  virtual void problems(const std::vector<FoamProblem>& /*problems*/) {}
  virtual void counted(const FoamProblem& /*problem*/, const FoamCount& /*count*/,
                       double /*seconds*/) {}
  virtual void shape(const FoamShape& /*shape*/, const FoamProblem& /*pool*/) {}
  virtual void shape_counted(const FoamShapeResult& /*result*/) {}
};

// Runs the count. Throws RunStopped (core/run_control.hpp) once a count
// stopped with a checkpoint is saved, MemoryStop (core/memory.hpp) when the
// memory guard stopped it (after the view has shown the lower bounds).
FoamCountResult count_foam_job(const FoamCountRequest& request, FoamCountView& view);

// The result's JSON fields (docs/PUZZLES.md, foam count).
Json foam_count_json(const FoamCountRequest& request, const FoamCountResult& result);

// Parts of it that `foam solve` shares: a count, a number up to 2^64 - 1
// and past it its decimal digits as a string (JSON readers keep 64 bits at
// most); one problem's counts; and a shape's fields around the results of
// its pool (each given its "name").
Json foam_wide_json(search::LayerCount n);
Json foam_problem_json(const FoamProblemResult& problem, bool choices_counted);
Json foam_shape_json(const FoamShape& shape, const std::string& by,
                     const std::vector<std::string>& colours, const std::string& pool,
                     std::size_t pieces, const std::vector<Json>& results);

}  // namespace cubenum::puzzles
