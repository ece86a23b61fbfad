// `polycube count` as a job (puzzles/polycube_job.hpp).
#include "cubenum/puzzles/polycube_job.hpp"

#include <fmt/format.h>

#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/hash.hpp"
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
  return p;
}

// The file as messages and the JSON name it.
template <class Request>
const std::string& shown_file(const Request& r) {
  return r.file_shown.empty() ? r.file : r.file_shown;
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

std::vector<PolycubeAssemblies> solve_polycube_job(const PolycubeSolveRequest& r,
                                                   PolycubeCountView& view) {
  check_time_limit(r.time_limit);
  std::vector<PolycubeAssemblies> found;
  for (auto& [number, problem] : polycube_problems(r.file, r.problem, shown_file(r))) {
    const search::VoxelCover cover(problem, r.file);
    view.problem(problem, cover);
    found.push_back(
        {number, problem.name, cover.piece_names(), cover.first(r.first, deadline(r.time_limit))});
    view.listed(problem, cover, found.back().assemblies);
  }
  return found;
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
  }
  Json fields = {{"file", shown_file(r)}, {"results", results}};
  if (result.resumed) fields["resumed"] = true;
  return fields;
}

}  // namespace cubenum::puzzles
