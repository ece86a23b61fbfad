// `twisty bfs` as a job (puzzles/twisty_job.hpp).
#include "cubenum/puzzles/twisty_job.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <numeric>
#include <stdexcept>

#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/memory.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"

namespace cubenum::twisty {
namespace {

// The progress line: states reached of the ranked ones, and the level
// being built (`units` done of `total`); with --verbose a line per level.
class LevelProgress {
 public:
  LevelProgress(const TwistySpace& space, std::uint64_t total, std::string units)
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

void set_search_options(SearchOptions& options, const TwistySpace& space, const BfsRequest& args,
                        const ClassGroup& classes, CheckpointSession& checkpoints) {
  options.policy = args.direction;
  options.antipodes = args.antipodes;
  if (classes.symmetries != nullptr && args.symmetry) {
    options.classes_of = &classes;
    options.antipodes = 0;  // the row engine keeps no depth table then: alike everywhere
  }
  const Definition& def = space.definition();
  for (const Arrangement& turn : classes.turns)
    options.sources.push_back(space.rank(apply(def.sets, def.solved, turn)));
  options.checkpoint = checkpoints.writer();
  options.checkpoint_every = checkpoints.every();
  options.resume = checkpoints.reader();
  options.should_stop = [&checkpoints] { return checkpoints.should_stop(); };
}

// Either engine's enumeration as the result shows it: `method` says how
// each level was built.
template <class Enumerated, class Method>
BfsResult summarize(Enumerated& e, bool& stopped, Method method) {
  BfsResult summary;
  summary.distribution = e.bfs.distribution();
  summary.reached = e.bfs.reached;
  stopped = e.bfs.stopped;
  summary.antipodes = std::move(e.antipodes);
  for (const auto& level : e.bfs.levels) {
    summary.methods.push_back(method(level));
    summary.seconds.push_back(level.seconds);
  }
  return summary;
}

// One process: the row engine.
BfsResult bfs_alone(const TwistySpace& space, const BfsRequest& args, const ClassGroup& classes,
                    CheckpointSession& checkpoints, bool& stopped) {
  LevelProgress progress(space, space.rows(), "rows");
  EnumerateOptions options;
  set_search_options(options, space, args, classes, checkpoints);
  options.on_level = [&](const bfs::RowLevel& level) {
    progress.level(level.depth, level.states, level.work.method(), level.seconds);
  };
  options.on_progress = [&](std::uint64_t rows) { progress.done(rows); };
  Enumeration e = enumerate(space, options);
  progress.end();
  BfsResult summary = summarize(
      e, stopped, [](const bfs::RowLevel& level) { return std::string(level.work.method()); });
  summary.depths = std::move(e.bfs.depths);
  summary.classes = std::move(e.classes);
  return summary;
}

// Under mpirun: the frontier engine, each process holding its part.
BfsResult bfs_shared(const TwistySpace& space, const BfsRequest& args, const ClassGroup& classes,
                     CheckpointSession& checkpoints, Cluster& cluster, bool& stopped) {
  LevelProgress progress(space, space.size(), "scanned");
  SharedEnumerateOptions options;
  set_search_options(options, space, args, classes, checkpoints);
  options.on_level = [&](const bfs::LevelStats& level) {
    progress.level(level.depth, level.states, bfs::direction_text(level.direction), level.seconds);
    progress::note("level {:2}  sent between {} processes: {} messages, {} neighbours, {} bytes",
                   level.depth, cluster.processes(), progress::grouped(level.messages),
                   progress::grouped(level.sent_ranks), progress::grouped(level.sent_bytes));
  };
  options.on_progress = [&](std::uint64_t scanned) { progress.done(scanned); };
  SharedEnumeration e = enumerate_shared(space, options, cluster);
  progress.end();
  BfsResult summary = summarize(e, stopped, [](const bfs::LevelStats& level) {
    return std::string(level.depth == 0 ? "" : bfs::direction_text(level.direction));
  });
  summary.classes = std::move(e.classes);
  return summary;
}

// Over classes: the row engine on the class space's rows where it has them
// and one process runs (ClassRows), else the frontier engine on its
// indices, on every thread and every process.
BfsResult bfs_over_classes(const TwistySpace& space, const ClassSpace& classes, ClassSearch& plan,
                           bool inverse, const BfsRequest& args, CheckpointSession& checkpoints,
                           Cluster& cluster, bool& stopped) {
  LevelProgress progress(space, classes.size(), "scanned");
  ClassBfsOptions options;
  options.policy = args.direction;
  options.inverse = inverse;
  options.two_bit = plan.bits == 2;
  options.checkpoint = checkpoints.writer();
  options.checkpoint_every = checkpoints.every();
  options.resume = checkpoints.reader();
  options.should_stop = [&checkpoints] { return checkpoints.should_stop(); };
  options.on_level = [&](const bfs::LevelStats& level, std::uint64_t positions) {
    progress.level(level.depth, positions, bfs::direction_text(level.direction), level.seconds);
  };
  options.on_progress = [&](std::uint64_t scanned) { progress.done(scanned); };
  ClassEnumeration e = enumerate_classes(classes, options, cluster);
  progress.end();
  BfsResult summary;
  stopped = e.bfs.stopped;
  summary.distribution = e.positions;
  summary.reached = std::accumulate(e.positions.begin(), e.positions.end(), std::uint64_t{0});
  for (const auto& level : e.bfs.levels) {
    summary.methods.push_back(level.depth == 0     ? ""
                              : !e.methods.empty() ? e.methods[level.depth]
                                                   : bfs::direction_text(level.direction));
    summary.seconds.push_back(level.seconds);
  }
  summary.classes = std::move(e.classes);
  if (!e.methods.empty()) plan.rows = true, plan.bits = 2;
  return summary;
}

// Whether a BFS over positions fits in the memory allowed.
bool positions_fit(const TwistySpace& space, int processes, bool depth_table,
                   std::optional<double> memory_gib) {
  const double allowed = memory_allowed(memory_gib);
  return allowed == 0 || double(bfs_need(space, processes, depth_table)) <= allowed;
}

// Every position of a BFS from all turns of solved comes with all its turns
// at its depth: each is counted once.
void count_once_for_all_turns(BfsResult& result, std::size_t turns) {
  result.turns = turns;
  for (std::uint64_t& level : result.distribution) {
    if (level % turns != 0) throw std::logic_error("twisty: a level not made of whole turns");
    level /= turns;
  }
  result.reached /= turns;
}

}  // namespace

std::unique_ptr<TwistySpace> make_space(const SpaceRequest& args,
                                        std::function<void(const TwistySpace&)> before_tables,
                                        bool tables) {
  const Definition def = load_definition(args.file);
  MoveChoice choice{split_move_list(args.moves.value_or("")), args.quarter};
  if (args.moves && choice.names.empty())
    throw InputError("--moves", 0, "no move names (expected e.g. --moves U,F,R)");
  SpaceOptions options;
  options.before_tables = std::move(before_tables);
  options.tables = tables;
  return std::make_unique<TwistySpace>(def, expand_moves(def, choice), options);
}

// The search's figure (twisty_search.hpp) and the space's tables, which
// that figure counts in part only (not the networks, nor what building
// them takes): an upper bound.
std::uint64_t bfs_need(const TwistySpace& space, int processes, bool depth_table) {
  return (processes > 1 ? shared_bfs_bytes(space, processes, depth_table) : bfs_bytes(space)) +
         space.table_bytes();
}

void check_bfs_fits(const TwistySpace& space, int processes, bool depth_table,
                    std::optional<double> memory_gib) {
  check_fits(double(bfs_need(space, processes, depth_table)),
             fmt::format("{} ranked states", space.size()),
             processes > 1 ? "bitmaps and tables" : "2 bits a state and tables", memory_gib);
}

Json space_json(const TwistySpace& space) {
  std::vector<std::string> names;
  for (const Move& m : space.move_list()) names.push_back(m.name);
  return {{"file", space.definition().file},
          {"name", space.definition().name},
          {"moves", names},
          {"ranked_states", space.size()},
          {"rows", space.rows()},
          {"columns", space.columns()},
          {"notes", space.notes()}};
}

std::unique_ptr<SymmetryGroup> find_group(const TwistySpace& space,
                                          const SymmetryRequest& request) {
  return std::make_unique<SymmetryGroup>(space.definition(), space.move_list(), request);
}

Json group_json(const SymmetryGroup& group) {
  Json json = {{"group", symmetry_choice_name(group.choice())},
               {"order", group.order()},
               {"reflections", group.reflections()},
               {"inverse", group.inverse()}};
  if (!group.why_trivial().empty()) json["trivial_because"] = group.why_trivial();
  return json;
}

BfsOver parse_bfs_over(const std::string& text) {
  if (text == "auto") return BfsOver::Auto;
  if (text == "positions") return BfsOver::Positions;
  if (text == "classes") return BfsOver::Classes;
  throw InputError("--over", 0,
                   "unknown choice '" + text + "' (expected auto, positions or classes)");
}

BfsResult run_bfs(const BfsRequest& request,
                  const std::function<void(const TwistySpace&)>& laid_out) {
  Cluster& cluster = this_cluster();
  const bool shared = cluster.processes() > 1;
  if (request.depth_table && shared)
    throw InputError("--table", 0,
                     "the depth table is written by one process (run without mpirun)");
  const bool classes_allowed = !request.depth_table;
  if (request.over == BfsOver::Classes && !classes_allowed)
    throw InputError("--over", 0,
                     "a BFS over classes keeps no depth table of positions (drop --table)");
  // Positions or classes, decided and refused before any table is built.
  std::unique_ptr<SymmetryGroup> group;
  std::optional<ClassSearch> plan;
  const auto decide = [&](const TwistySpace& laid) {
    const int processes = cluster.processes();
    const bool fit = positions_fit(laid, processes, request.antipodes > 0, request.memory_gib);
    const bool wanted =
        request.over == BfsOver::Classes || (request.over == BfsOver::Auto && classes_allowed &&
                                             (request.symmetry.has_value() || !fit));
    if (wanted) {
      group = find_group(laid, request.symmetry.value_or(SymmetryRequest{}));
      std::vector<Arrangement> turns;
      if (request.up_to_rotation) turns = whole_turns(laid, *group, fit);
      const std::size_t transforms = group->order() * std::max<std::size_t>(turns.size(), 1);
      const auto moves = static_cast<std::size_t>(laid.moves());
      SymCoordinate split =
          choose_sym_coordinate(laid, *group, std::max<std::size_t>(turns.size(), 1));
      if (!split.parts.empty()) {
        // Three bitmaps where they fit (up to inversion: always), else
        // two bits an index.
        const double allowed = memory_allowed(request.memory_gib);
        unsigned bits = 3;
        if (!group->inverse() && allowed > 0 &&
            double(class_bfs_bytes(split, transforms, moves, processes, 3)) > allowed)
          bits = 2;
        // By itself, not where the classes take more than the positions (a
        // C of every piece: the dino's, 5 bytes a position).
        const bool smaller = class_bfs_bytes(split, transforms, moves, processes, bits) <=
                             bfs_need(laid, processes, request.antipodes > 0);
        if (request.over == BfsOver::Auto && fit && !smaller) {
          check_bfs_fits(laid, processes, request.antipodes > 0, request.memory_gib);
          return;
        }
        check_fits(
            double(class_bfs_bytes(split, transforms, moves, processes, bits)),
            fmt::format("{} ranked states", laid.size()),
            fmt::format("over classes of its {} symmetries: {} bits a class and tables; "
                        "over positions {}",
                        group->order(), bits, bytes_text(double(bfs_need(laid, processes, false)))),
            request.memory_gib);
        plan.emplace();
        plan->split = std::move(split);
        plan->bits = bits;
        plan->turns = std::move(turns);
        return;
      }
      if (request.over == BfsOver::Classes) throw InputError("--over", 0, "classes: " + split.text);
    }
    check_bfs_fits(laid, processes, request.antipodes > 0, request.memory_gib);
  };
  // A BFS over classes needs the layout only, not the move tables.
  auto space = make_space(request.space, decide, false);
  if (!plan) space = make_space(request.space);
  // What a checkpoint must match: the space (pieces, moves, layout), and
  // what is counted up to and how.
  CheckpointJson identity = {
      {"puzzle", "twisty"}, {"action", "bfs"}, {"space", space_identity(*space)}};
  if (request.symmetry)
    identity["classes"] = {symmetry_choice_name(request.symmetry->choice),
                           request.symmetry->inverse};
  if (plan)
    identity["over_classes"] = {symmetry_choice_name(group->choice()), group->order(),
                                plan->split.parts};
  // R's order of parts, where its blocks reorder them (an index means
  // another position otherwise).
  if (plan && plan->split.rest_blocks.size() > 1) {
    CheckpointJson blocks = CheckpointJson::array();
    for (const SymCoordinate::Block& b : plan->split.rest_blocks) blocks.push_back(b.parts);
    identity["rest_blocks"] = std::move(blocks);
  }
  if (plan && plan->split.piece_blocks)
    identity["piece_blocks"] = plan->split.piece_blocks->block_of;
  if (request.up_to_rotation) identity["up_to_rotation"] = true;
  CheckpointSession checkpoints(request.checkpoints, identity);
  if (laid_out) laid_out(*space);
  if (plan) {
    std::optional<Progress> building(std::in_place, "C table", plan->split.values, "values");
    ClassSpaceOptions options;
    options.turns = plan->turns;
    options.on_progress = [&](std::uint64_t values) { building->set_done(values); };
    const ClassSpace classes(*space, *group, plan->split, std::move(options));
    building.reset();
    plan->c_classes = classes.c_classes();
    plan->indices = classes.size();
    plan->table_bytes = classes.table_bytes();
    if (const CheckpointReader* saved = checkpoints.reader(); saved && cluster.process() == 0)
      fmt::print(stderr, "cubenum: resuming from {}: {} levels done\n", request.checkpoints.resume,
                 saved->state().value("levels", CheckpointJson::array()).size());
    bool stopped = false;
    BfsResult result = bfs_over_classes(*space, classes, *plan, group->inverse(), request,
                                        checkpoints, cluster, stopped);
    if (stopped) checkpoints.stopped();
    result.space = std::move(space);
    result.resumed = checkpoints.reader() != nullptr;
    result.group = std::move(group);
    result.turns = classes.turns();
    result.over_classes = std::move(plan);
    return result;
  }
  ClassGroup classes;
  if (request.symmetry || request.up_to_rotation) {
    const char* option = request.symmetry ? "--symmetry" : "--up-to-rotation";
    if (shared && (!request.checkpoints.checkpoint.empty() || !request.checkpoints.resume.empty()))
      throw InputError(option, 0, "with --checkpoint or --resume runs in one process for now");
    if (!group) group = find_group(*space, request.symmetry.value_or(SymmetryRequest{}));
    classes.symmetries = group.get();
    if (request.up_to_rotation) classes.turns = whole_turns(*space, *group);
  }
  if (const CheckpointReader* saved = checkpoints.reader(); saved && cluster.process() == 0)
    fmt::print(stderr, "cubenum: resuming from {}: {} levels done\n", request.checkpoints.resume,
               saved->state().value("levels", CheckpointJson::array()).size());
  bool stopped = false;
  BfsResult result = shared ? bfs_shared(*space, request, classes, checkpoints, cluster, stopped)
                            : bfs_alone(*space, request, classes, checkpoints, stopped);
  if (stopped) checkpoints.stopped();
  result.space = std::move(space);
  result.resumed = checkpoints.reader() != nullptr;
  if (request.symmetry) result.group = std::move(group);
  if (request.up_to_rotation) count_once_for_all_turns(result, classes.turns.size());
  return result;
}

Json bfs_json(const BfsResult& result) {
  std::vector<std::string> antipodes;
  for (const auto& sequence : result.antipodes)
    antipodes.push_back(sequence_text(*result.space, sequence));
  Json json = space_json(*result.space);
  json["states"] = result.reached;
  json["distribution"] = result.distribution;
  json["max_depth"] = result.distribution.size() - 1;
  json["antipodes"] = result.distribution.back();
  json["antipode_sequences"] = antipodes;
  if (result.resumed) json["resumed"] = true;
  if (result.turns > 1) json["whole_puzzle_turns"] = result.turns;
  if (result.over_classes) {
    const ClassSearch& c = *result.over_classes;
    json["over_classes"] = {{"sym_coordinate", c.split.text},
                            {"c_values", c.split.values},
                            {"c_classes", c.c_classes},
                            {"indices", c.indices},
                            {"table_bytes", c.table_bytes},
                            {"bits", c.bits},
                            {"engine", c.rows ? "rows" : "indices"}};
  }
  if (result.group) {
    json["symmetry"] = group_json(*result.group);
    std::vector<std::uint64_t> classes, with_inverse;
    for (const LevelClasses& level : result.classes) {
      classes.push_back(level.classes);
      with_inverse.push_back(level.with_inverse);
    }
    json["classes"] = classes;
    json["total_classes"] = std::accumulate(classes.begin(), classes.end(), std::uint64_t{0});
    if (result.group->inverse()) {
      json["classes_with_inverse"] = with_inverse;
      json["total_classes_with_inverse"] =
          std::accumulate(with_inverse.begin(), with_inverse.end(), std::uint64_t{0});
    }
  }
  return json;
}

}  // namespace cubenum::twisty
