// `polycube count` as a job (puzzles/polycube_job.hpp).
#include "cubenum/puzzles/polycube_job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <limits>

#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/hash.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/search/count_checkpoint.hpp"

namespace cubenum::puzzles {
namespace {

using polycube::Voxel;
using Problems = std::vector<std::pair<int, polycube::Problem>>;

// What a count's checkpoint must match: each problem's pieces, counts and
// target (hashed: a file whose comments changed still fits), and the search.
CheckpointJson count_identity(const Problems& problems) {
  CheckpointJson list = CheckpointJson::array();
  for (const auto& [number, p] : problems) {
    std::string text;
    for (const auto& piece : p.pieces) {
      text += fmt::format("{} {}-{}:", piece.name, piece.min_count, piece.max_count);
      for (const Voxel& v : piece.cubes) text += fmt::format("{},{},{};", v[0], v[1], v[2]);
    }
    for (const auto* voxels : {&p.fixed, &p.variable}) {
      text += '|';
      for (const Voxel& v : *voxels) text += fmt::format("{},{},{};", v[0], v[1], v[2]);
    }
    list.push_back({{"problem", number},
                    {"xxh3", fmt::format("{:016x}", hash_bytes(text.data(), text.size()))}});
  }
  // The search's subtrees depend on its rule for the next cell: a
  // checkpoint of the lowest-cell-only search (before the rule) is refused.
  return {{"puzzle", "polycube"},
          {"action", "count"},
          {"search", "fewest ways on solid targets"},
          {"problems", list}};
}

// One count of one problem, with its progress line, stopped as the
// checkpoint says, saved there (if any) under `name`.
search::CoverCounts count_cover(const search::VoxelCover& cover, const std::string& what,
                                double time_limit, search::CountCheckpoint& checkpoint,
                                const std::string& name) {
  Progress subtrees(what, 0, "subtrees");
  if (time_limit > 0)
    subtrees.set_detail("stops at --time-limit " + progress::duration(time_limit));
  search::CoverOptions options;
  options.progress = [&](const search::SplitProgress& p) {
    subtrees.set_total(p.total);
    subtrees.set_done(p.done);
    subtrees.set_done_before(p.before);
  };
  options.stop = checkpoint.stop();
  options.cluster = &this_cluster();
  options.checkpoint = checkpoint.ledger();
  options.checkpoint_name = name;
  const search::CoverCounts c = cover.count(options);
  if (!c.complete && checkpoint.saving()) checkpoint.stopped();
  return c;
}

// The file as messages and the JSON name it.
template <class Request>
const std::string& shown_file(const Request& r) {
  return r.file_shown.empty() ? r.file : r.file_shown;
}

// --disassemble's limit on an assembly's pieces (search/disassembly.hpp).
void check_pieces(const search::CoverAssembly& assembly, const std::string& source,
                  const std::string& name) {
  if (assembly.size() > search::kMaxDisassemblyPieces)
    throw InputError(source, 0,
                     fmt::format("{}: an assembly of {} pieces: --disassemble takes at most {}",
                                 name, assembly.size(), search::kMaxDisassemblyPieces));
}

// The weights and groups of the cover's pieces (each its first's in the
// problem's list, where congruent ones are merged), by piece.
search::DisassemblyRules disassembly_rules(const polycube::Problem& problem,
                                           const search::VoxelCover& cover) {
  search::DisassemblyRules rules;
  for (const int source : cover.source_pieces()) {
    const polycube::Piece& piece = problem.pieces[static_cast<std::size_t>(source)];
    rules.weight.push_back(piece.weight);
    rules.groups.push_back(piece.groups);
  }
  return rules;
}

// The solutions among every class of `cover`'s assemblies: each class's
// first member taken apart (a class comes apart as a whole: the moves are
// the same up to the symmetry), the classes dealt to every thread.
PolycubeDisassembly disassemble_classes(const polycube::Problem& problem,
                                        const search::VoxelCover& cover, const std::string& source,
                                        const std::string& what,
                                        const std::function<bool()>& stop) {
  const search::DisassemblyRules rules = disassembly_rules(problem, cover);
  Stopwatch clock;
  const std::vector<search::CoverClass> classes =
      cover.classes(std::numeric_limits<std::size_t>::max(), stop);
  for (const search::CoverClass& c : classes) check_pieces(c.assembly, source, problem.name);
  std::vector<search::DisassemblyResult> results(classes.size());
  Progress done(what, classes.size(), "assemblies");
  std::atomic<std::size_t> finished{0};
  search::DisassemblyOptions options;
  options.stop = stop;
  parallel_for_chunks(classes.size(), 1, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      results[i] = disassemble_assembly(classes[i].assembly, rules, options);
      done.set_done(finished.fetch_add(1, std::memory_order_relaxed) + 1);
    }
  });
  PolycubeDisassembly d;
  for (std::size_t i = 0; i < classes.size(); ++i) {
    const search::DisassemblyResult& r = results[i];
    d.states += r.states;
    if (!r.complete) ++d.undecided;
    if (!r.comes_apart) continue;
    d.raw += classes[i].raw;
    d.rotations += classes[i].rotations;
    ++d.symmetries;
    ++d.levels[r.level];
  }
  d.seconds = clock.seconds();
  return d;
}

// One problem's counts, and BurrTools' beside them: BurrTools tells apart
// congruent pieces listed as two, so its count is then that of another
// puzzle, counted again where asked for and the first count is complete.
PolycubeProblemCount count_problem(const PolycubeCountRequest& r, int number,
                                   const polycube::Problem& problem,
                                   const search::VoxelCover& cover,
                                   search::CountCheckpoint& checkpoint) {
  PolycubeProblemCount p;
  p.number = number;
  p.name = problem.name;
  Stopwatch clock;
  const std::string name = fmt::format("problem {}", number);
  p.counts = count_cover(cover, "polycube count: " + problem.name, r.time_limit, checkpoint, name);
  p.merged = cover.piece_names().size() < problem.pieces.size();
  if (!p.merged)
    p.apart = p.counts;
  else if (r.burrtools && p.counts.complete)
    p.apart = count_cover(search::VoxelCover(problem, r.file, true),
                          "polycube count: " + problem.name + ", congruent pieces apart",
                          r.time_limit, checkpoint, name + ", congruent pieces apart");
  p.complete = p.counts.complete && (!p.apart || p.apart->complete);
  p.seconds = clock.seconds();
  p.mirror_pieces = cover.mirror_pieces();
  p.rotation_order = cover.rotation_order();
  p.symmetry_order = cover.symmetry_order();
  p.placements = cover.placements();
  p.piece_names = cover.piece_names();
  if (r.disassemble && p.counts.complete) {
    const auto stop = checkpoint.stop();
    p.solutions = disassemble_classes(problem, cover, shown_file(r),
                                      "polycube count: " + problem.name + ", disassembly", stop);
    if (!p.merged)
      p.solutions_apart = p.solutions;
    else if (r.burrtools && p.apart && p.apart->complete)
      p.solutions_apart = disassemble_classes(
          problem, search::VoxelCover(problem, r.file, true), shown_file(r),
          "polycube count: " + problem.name + ", disassembly, congruent pieces apart", stop);
  }
  return p;
}

}  // namespace

Problems polycube_problems(const std::string& file_name, int problem, const std::string& shown) {
  polycube::PuzzleFile file = polycube::read_polycube_file(file_name);
  const int n = static_cast<int>(file.problems.size());
  if (problem < 0 || problem > n)
    throw InputError(
        "--problem", 0,
        fmt::format("{} has {} problem{}: --problem takes 1..{}", shown, n, n == 1 ? "" : "s", n));
  Problems chosen;
  for (int i = 0; i < n; ++i)
    if (problem == 0 || problem == i + 1) chosen.emplace_back(i + 1, std::move(file.problems[i]));
  return chosen;
}

PolycubeCountResult count_polycube_job(const PolycubeCountRequest& r, PolycubeCountView& view) {
  check_time_limit(r.time_limit);
  const Problems problems = polycube_problems(r.file, r.problem, shown_file(r));
  search::CountCheckpoint checkpoint(r.checkpoints, r.time_limit, count_identity(problems));
  PolycubeCountResult result;
  for (const auto& [number, problem] : problems) {
    const search::VoxelCover cover(problem, r.file);
    view.problem(problem, cover);
    PolycubeProblemCount p = count_problem(r, number, problem, cover, checkpoint);
    view.counted(p, r);
    progress::note("{}: {} search nodes, {:.3f} s", problem.name, progress::grouped(p.counts.nodes),
                   p.seconds);
    if (r.list > 0) {
      p.listed = cover.first(r.list, checkpoint.stop());
      view.listed(problem, cover, p.listed);
    }
    result.problems.push_back(std::move(p));
  }
  checkpoint.finished();
  result.resumed = checkpoint.resumed();
  return result;
}

// solve --disassemble: the first `n` classes whose assembly comes apart, in
// search order, taken apart in batches (a batch's classes on every thread).
void first_solutions(const polycube::Problem& problem, const search::VoxelCover& cover,
                     const std::string& source, std::size_t n, const std::function<bool()>& stop,
                     PolycubeAssemblies& found) {
  const search::DisassemblyRules rules = disassembly_rules(problem, cover);
  search::DisassemblyOptions options;
  options.stop = stop;
  std::size_t taken = 0;
  for (std::size_t batch = std::max<std::size_t>(n, 64);; batch *= 4) {
    const std::vector<search::CoverAssembly> assemblies = cover.first(batch, stop);
    for (std::size_t i = taken; i < assemblies.size(); ++i)
      check_pieces(assemblies[i], source, problem.name);
    std::vector<search::DisassemblyResult> results(assemblies.size() - taken);
    parallel_for_chunks(results.size(), 1, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i)
        results[i] = disassemble_assembly(assemblies[taken + i], rules, options);
    });
    for (std::size_t i = 0; i < results.size() && found.assemblies.size() < n; ++i)
      if (results[i].comes_apart) {
        found.assemblies.push_back(assemblies[taken + i]);
        found.disassemblies.push_back(std::move(results[i]));
      }
    taken = assemblies.size();
    if (found.assemblies.size() >= n || assemblies.size() < batch || (stop && stop())) return;
  }
}

std::vector<PolycubeAssemblies> solve_polycube_job(const PolycubeSolveRequest& r,
                                                   PolycubeCountView& view) {
  check_time_limit(r.time_limit);
  std::vector<PolycubeAssemblies> found;
  const auto stop = deadline(r.time_limit);
  for (auto& [number, problem] : polycube_problems(r.file, r.problem, shown_file(r))) {
    const search::VoxelCover cover(problem, r.file);
    view.problem(problem, cover);
    found.push_back({number, problem.name, cover.piece_names(), {}, {}});
    if (r.disassemble)
      first_solutions(problem, cover, shown_file(r), r.first, stop, found.back());
    else
      found.back().assemblies = cover.first(r.first, stop);
    view.listed(problem, cover, found.back().assemblies);
    if (r.disassemble)
      view.disassembled(cover, found.back().assemblies, found.back().disassemblies);
  }
  return found;
}

search::DisassemblyResult disassemble_assembly(const search::CoverAssembly& assembly,
                                               const search::DisassemblyRules& rules,
                                               const search::DisassemblyOptions& options) {
  // BurrTools' order of pieces, which decides the order it meets moves in:
  // the problem's, copies of a piece one after the other.
  std::vector<const search::PlacedPiece*> order;
  for (const search::PlacedPiece& placed : assembly) order.push_back(&placed);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto* a, const auto* b) { return a->piece < b->piece; });
  std::vector<std::vector<Voxel>> pieces;
  search::DisassemblyRules with_shapes = rules;
  with_shapes.shape.clear();
  for (const search::PlacedPiece* placed : order) {
    pieces.push_back(placed->voxels);
    with_shapes.shape.push_back(placed->piece);
  }
  search::DisassemblyResult result = search::disassemble(pieces, with_shapes, options);
  for (search::DisassemblyMove& move : result.plan)  // back to the assembly's numbers
    for (int& p : move.pieces) p = static_cast<int>(order[p] - assembly.data());
  return result;
}

std::string polycube_plan_text(const std::vector<std::string>& piece_names,
                               const search::CoverAssembly& assembly,
                               const search::DisassemblyResult& plan) {
  // Each placed piece by its name, copies of one piece numbered.
  std::vector<std::string> label;
  for (std::size_t i = 0; i < assembly.size(); ++i) {
    const int piece = assembly[i].piece;
    const auto same = [&](const search::PlacedPiece& p) { return p.piece == piece; };
    const auto copies = std::count_if(assembly.begin(), assembly.end(), same);
    const auto before = std::count_if(assembly.begin(), assembly.begin() + i, same);
    label.push_back(copies == 1 ? piece_names[piece]
                                : fmt::format("{}#{}", piece_names[piece], before + 1));
  }
  std::string text;
  for (std::size_t m = 0; m < plan.plan.size(); ++m) {
    const search::DisassemblyMove& move = plan.plan[m];
    std::string pieces;
    for (const int p : move.pieces) pieces += (pieces.empty() ? "" : " ") + label[p];
    text += fmt::format("{:>4}. {} {} {}\n", m + 1, pieces, search::direction_name(move.direction),
                        move.separation ? "away (separates)" : fmt::format("{}", move.distance));
  }
  return text;
}

bool LevelOrder::operator()(const std::string& a, const std::string& b) const {
  const auto numbers = [](const std::string& level) {
    std::vector<unsigned long> n;
    for (std::size_t i = 0; i < level.size(); i = level.find('.', i) + 1) {
      n.push_back(std::stoul(level.substr(i)));
      if (level.find('.', i) == std::string::npos) break;
    }
    return n;
  };
  return numbers(a) < numbers(b);
}

Json polycube_assemblies_json(const std::vector<std::string>& piece_names,
                              const std::vector<search::CoverAssembly>& assemblies) {
  Json listed = Json::array();
  for (const search::CoverAssembly& assembly : assemblies) {
    Json pieces = Json::array();
    for (const auto& placed : assembly)
      pieces.push_back({{"piece", piece_names[placed.piece]}, {"voxels", placed.voxels}});
    listed.push_back(pieces);
  }
  return listed;
}

namespace {

Json solutions_json(const PolycubeDisassembly& d, const std::optional<PolycubeDisassembly>& apart) {
  Json levels = Json::array();
  for (const auto& [level, classes] : d.levels)
    levels.push_back({{"level", level}, {"count", classes}});
  return {{"raw", d.raw},
          {"rotations", d.rotations},
          {"symmetries", d.symmetries},
          {"burrtools", apart ? Json(apart->symmetries) : Json(nullptr)},
          {"undecided", d.undecided},
          {"levels", levels},
          {"states", d.states},
          {"seconds", d.seconds}};
}

}  // namespace

Json polycube_count_json(const PolycubeCountRequest& r, const PolycubeCountResult& result) {
  Json results = Json::array();
  for (const PolycubeProblemCount& p : result.problems) {
    const search::CoverCounts& c = p.counts;
    results.push_back({{"name", p.name},
                       {"problem", p.number},
                       {"raw", c.raw},
                       {"rotations", c.rotations},
                       {"symmetries", c.symmetries},
                       {"burrtools", p.apart ? Json(p.apart->symmetries) : Json(nullptr)},
                       {"complete", p.complete},
                       {"mirror_pieces", p.mirror_pieces},
                       {"rotation_order", p.rotation_order},
                       {"symmetry_order", p.symmetry_order},
                       {"placements", p.placements},
                       {"nodes", c.nodes},
                       {"count_seconds", p.seconds}});
    if (r.list > 0)
      results.back()["assemblies"] = polycube_assemblies_json(p.piece_names, p.listed);
    if (p.solutions) results.back()["solutions"] = solutions_json(*p.solutions, p.solutions_apart);
  }
  Json fields = {{"file", shown_file(r)}, {"results", results}};
  if (result.resumed) fields["resumed"] = true;
  return fields;
}

}  // namespace cubenum::puzzles
