// `polycube count` as a job (puzzles/polycube_job.hpp).
#include "cubenum/puzzles/polycube_job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <functional>
#include <limits>
#include <numeric>
#include <set>
#include <span>
#include <stdexcept>
#include <tuple>

#include "cubenum/core/byte_io.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/cube_symmetry.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/hash.hpp"
#include "cubenum/core/memory.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/search/count_checkpoint.hpp"
#include "cubenum/search/subtree_count.hpp"
#include "cubenum/search/tally_codec.hpp"

namespace cubenum::puzzles {
namespace {

using polycube::Voxel;
using Problems = std::vector<std::pair<int, polycube::Problem>>;

// A shape's colours for the identity below ("": none, so that a puzzle
// without colours keeps the identity it had before colours were read).
std::string colour_text(const std::vector<int>& colours) {
  if (std::all_of(colours.begin(), colours.end(), [](int c) { return c == 0; })) return "";
  std::string text = "colours";
  for (const int c : colours) text += fmt::format(" {}", c);
  return text + ':';
}

// What a count's checkpoint must match: each problem's pieces, counts and
// target (hashed: a file whose comments changed still fits), the weights
// and groups of the pieces that have any (they decide which classes come
// apart: a checkpoint of --disassemble holds those decided), the colours
// where there are any, and the search.
CheckpointJson count_identity(const Problems& problems) {
  CheckpointJson list = CheckpointJson::array();
  for (const auto& [number, p] : problems) {
    std::string text;
    for (const auto& piece : p.pieces) {
      text += fmt::format("{} {}-{}:", piece.name, piece.min_count, piece.max_count);
      if (piece.weight != 1 || !piece.groups.empty()) {
        text += fmt::format("weight {} groups", piece.weight);
        for (const auto& [group, copies] : piece.groups)
          text += fmt::format(" {}x{}", group, copies);
        text += ':';
      }
      for (const Voxel& v : piece.cubes) text += fmt::format("{},{},{};", v[0], v[1], v[2]);
      text += colour_text(piece.colours);
    }
    for (const auto* voxels : {&p.fixed, &p.variable}) {
      text += '|';
      for (const Voxel& v : *voxels) text += fmt::format("{},{},{};", v[0], v[1], v[2]);
    }
    text += colour_text(p.fixed_colours) + colour_text(p.variable_colours);
    for (const auto& [piece, target] : p.allowed) text += fmt::format("{}>{};", piece, target);
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

// What stops the disassemblies: --time-limit (or a signal, with a
// checkpoint) and the memory guard (--memory), which is also why.
struct DisassemblyStop {
  std::function<bool()> stop;  // either
  std::shared_ptr<const MemoryGuard> guard;

  // Why a disassembly was stopped: "--memory" where the guard tripped.
  void tell(std::string& stopped_by, double& held, double& limit) const {
    if (guard && guard->tripped()) {
      stopped_by = "--memory";
      held = guard->held();
      limit = guard->limit();
    } else {
      stopped_by = "--time-limit";
    }
  }
};

DisassemblyStop disassembly_stop(std::function<bool()> stop, std::optional<double> memory_gib) {
  if (memory_gib && !(*memory_gib > 0))
    throw InputError("--memory", 0, "expected a positive number of GiB");
  DisassemblyStop s;
  s.guard = count_memory_guard(memory_gib);
  s.stop = stop_or_guard(std::move(stop), s.guard);
  return s;
}

// The searches' options: `limits`' stop, polled by every search now and
// then, also shows the positions reached so far on the progress line.
search::DisassemblyOptions disassembly_options(const DisassemblyStop& limits, Progress& line,
                                               std::atomic<std::uint64_t>& reached) {
  search::DisassemblyOptions options;
  options.reached = &reached;
  options.stop = [&limits, &line, &reached] {
    line.set_detail(fmt::format("{} positions reached",
                                progress::grouped(reached.load(std::memory_order_relaxed))));
    return limits.stop && limits.stop();
  };
  return options;
}

// What the disassemblies of some classes found (a subtree count's tally,
// search/subtree_count.hpp: the classes are its subtrees, dealt to every
// thread and process, and a checkpoint records the ones decided): the
// solutions among them, raw and up to rotation and symmetry, by level; the
// classes decided; the positions reached (also by disassemblies a limit
// stopped).
struct DisassemblyTally {
  std::uint64_t raw = 0, rotations = 0, symmetries = 0, decided = 0, states = 0;
  std::map<std::string, std::uint64_t, LevelOrder> levels;

  DisassemblyTally& operator+=(const DisassemblyTally& o) {
    raw += o.raw, rotations += o.rotations, symmetries += o.symmetries;
    decided += o.decided, states += o.states;
    for (const auto& [level, classes] : o.levels) levels[level] += classes;
    return *this;
  }

  // For checkpoints and between processes: the format's name, the five
  // numbers, then the levels (each its text and its classes).
  static constexpr std::uint32_t kFormat = search::tally_format("PDTY");
  std::vector<std::byte> encode() const {
    ByteWriter w;
    search::put_tally_format(w, kFormat);
    for (const std::uint64_t v : {raw, rotations, symmetries, decided, states}) w.put(v);
    w.put(std::uint64_t{levels.size()});
    for (const auto& [level, classes] : levels) {
      w.bytes(std::as_bytes(std::span(level.data(), level.size())));
      w.put(classes);
    }
    return std::move(w.out);
  }
  static DisassemblyTally decode(std::span<const std::byte> bytes, const std::string& source) {
    const char* what = "a polycube disassembly tally";
    ByteReader r(bytes, source, what);
    search::get_tally_format(r, {kFormat}, source, what);
    DisassemblyTally t;
    for (std::uint64_t* v : {&t.raw, &t.rotations, &t.symmetries, &t.decided, &t.states})
      *v = r.get<std::uint64_t>();
    const std::uint64_t n = r.length(8 + 1 + 8);  // (a level: its length, a digit, its classes)
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::span<const std::byte> text = r.bytes();
      std::string level(reinterpret_cast<const char*>(text.data()), text.size());
      // Numbers joined by dots, as BurrTools writes a level.
      bool valid = !level.empty() && level.front() != '.' && level.back() != '.' &&
                   level.find("..") == std::string::npos && level.size() <= 4096;
      for (const char c : level) valid = valid && ((c >= '0' && c <= '9') || c == '.');
      if (!valid)
        throw InputError(source, 0, fmt::format("{} holds a level that is none (corrupt)", what));
      t.levels[std::move(level)] += r.get<std::uint64_t>();
    }
    if (!r.done()) throw InputError(source, 0, fmt::format("{} runs on (corrupt)", what));
    return t;
  }
};

// One subtree's share of a count with its disassemblies (a subtree
// count's tally): the cover's counts; the classes met (each class is met
// in one subtree, where its listed member lies) and what their
// disassemblies found; and, not saved (a ledger knows its finished
// subtrees), the subtrees whose count this run finished or stopped.
struct CountAndDisassemblyTally {
  search::CoverTally counts;
  std::uint64_t met = 0;
  DisassemblyTally d;
  std::uint64_t counted = 0, count_stopped = 0;

  CountAndDisassemblyTally& operator+=(const CountAndDisassemblyTally& o) {
    counts += o.counts;
    met += o.met;
    d += o.d;
    counted += o.counted, count_stopped += o.count_stopped;
    return *this;
  }

  // For checkpoints and between processes: the format's name, the
  // counts, the classes met, then the disassemblies' tally.
  static constexpr std::uint32_t kFormat = search::tally_format("PCDT");
  std::vector<std::byte> encode() const {
    ByteWriter w;
    search::put_tally_format(w, kFormat);
    for (const std::uint64_t v :
         {counts.raw, counts.rotations, counts.symmetries, counts.nodes, met})
      w.put(v);
    const std::vector<std::byte> bytes = d.encode();
    w.bytes(std::span<const std::byte>(bytes));
    return std::move(w.out);
  }
  static CountAndDisassemblyTally decode(std::span<const std::byte> bytes,
                                         const std::string& source) {
    const char* what = "a polycube count and disassembly tally";
    ByteReader r(bytes, source, what);
    search::get_tally_format(r, {kFormat}, source, what);
    CountAndDisassemblyTally t;
    for (std::uint64_t* v :
         {&t.counts.raw, &t.counts.rotations, &t.counts.symmetries, &t.counts.nodes, &t.met})
      *v = r.get<std::uint64_t>();
    t.d = DisassemblyTally::decode(r.bytes(), source);
    if (!r.done()) throw InputError(source, 0, fmt::format("{} runs on (corrupt)", what));
    return t;
  }
};

// count --disassemble: the counts of `cover`'s assemblies and the
// solutions among them, in one search: each subtree of the count (dealt
// to every thread of every process, as a count's are) is counted, and each
// class met in it is taken apart there (the member burrTxt takes apart: a
// class comes apart as a whole, the moves being the same up to the
// symmetry; the member decides the level where separations tie). A
// subtree is finished once its count and every disassembly in it are;
// with a checkpoint, those finished are saved under `name` (a resumed run
// takes up the others), and a stop by --time-limit or a signal saves and
// ends the run (RunStopped). Otherwise a class whose disassembly a limit
// stopped, or did not let begin, is undecided: neither a solution nor
// counted as none; where the limit stopped counts too, they are lower
// bounds, and so are the solutions.
std::pair<search::CoverCounts, PolycubeDisassembly> count_and_disassemble(
    const polycube::Problem& problem, const search::VoxelCover& cover, const std::string& source,
    const std::string& what, const std::function<bool()>& count_stop, const DisassemblyStop& limits,
    search::CountCheckpoint& checkpoint, const std::string& name) {
  const search::DisassemblyRules rules = disassembly_rules(problem, cover);
  const BurrToolsMember member(problem, cover);
  Stopwatch clock;
  const search::CoverSubtrees subtrees = cover.subtrees();
  Progress done(what, subtrees.size(), "subtrees");
  std::atomic<std::uint64_t> reached{0};
  const search::DisassemblyOptions options = disassembly_options(limits, done, reached);
  std::vector<std::uint32_t> indices(subtrees.size());
  std::iota(indices.begin(), indices.end(), 0U);
  search::SubtreeCount<CountAndDisassemblyTally> deal;
  deal.progress = [&done](const search::SplitProgress& p) {
    done.set_total(p.total);
    done.set_done(p.done);
    done.set_done_before(p.before);
  };
  deal.cluster = &this_cluster();
  deal.checkpoint = checkpoint.ledger();
  deal.checkpoint_name = name;
  // Each process's tally to every process; with --verbose, the classes
  // each decided.
  deal.sum_across = [&what](Cluster& processes, const CountAndDisassemblyTally& mine) {
    const std::vector<std::byte> bytes = mine.encode();
    CountAndDisassemblyTally sum;
    std::string shares;
    for (const std::string& part : gather_texts(
             processes, std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()))) {
      const CountAndDisassemblyTally t = CountAndDisassemblyTally::decode(
          std::as_bytes(std::span(part.data(), part.size())), "another process");
      shares += fmt::format("{}{}", shares.empty() ? "" : ", ", t.d.decided);
      sum += t;
    }
    // (Not saved, so not in the encoding: each process's own.)
    std::array<std::uint64_t, 2> subtree_counts = {mine.counted, mine.count_stopped};
    processes.sum(subtree_counts);
    sum.counted = subtree_counts[0];
    sum.count_stopped = subtree_counts[1];
    progress::note("{}: {} processes: classes decided by each {}", what, processes.processes(),
                   shares);
    return sum;
  };
  const auto search_one = [&](const std::uint32_t& i, CountAndDisassemblyTally& tally) {
    std::vector<search::CoverClass> met;
    const bool counted = subtrees.search(
        i, tally.counts, [&met](search::CoverClass&& c) { met.push_back(std::move(c)); },
        count_stop);
    ++(counted ? tally.counted : tally.count_stopped);
    tally.met += met.size();
    bool whole = counted;
    for (const search::CoverClass& c : met) {
      check_pieces(c.assembly, source, problem.name);
      if (limits.stop && limits.stop()) {  // not begun
        whole = false;
        continue;
      }
      const search::DisassemblyResult r = disassemble_assembly(member(c.assembly), rules, options);
      tally.d.states += r.states;
      if (!r.complete) {
        whole = false;
        continue;
      }
      ++tally.d.decided;
      if (r.comes_apart) {
        tally.d.raw += c.raw;
        tally.d.rotations += c.rotations;
        ++tally.d.symmetries;
        ++tally.d.levels[r.level];
      }
    }
    return whole;
  };
  const search::SubtreeTotal<CountAndDisassemblyTally> total =
      search::count_subtrees<CountAndDisassemblyTally, std::uint32_t>(
          std::span<const std::uint32_t>(indices), search_one, deal);
  search::CoverCounts counts = subtrees.counts(total.tally.counts);
  counts.complete = total.tally.count_stopped == 0;
  counts.subtrees_done = total.earlier_finished + total.tally.counted;
  PolycubeDisassembly d;
  d.raw = total.tally.d.raw;
  d.rotations = total.tally.d.rotations;
  d.symmetries = total.tally.d.symmetries;
  d.levels = total.tally.d.levels;
  d.states = total.tally.d.states;
  d.undecided = total.tally.met - std::min(total.tally.met, total.tally.d.decided);
  if (d.undecided > 0) limits.tell(d.stopped_by, d.memory_held, d.memory_limit);
  // Stopped by --time-limit or a signal with a checkpoint: saved, to go on
  // (the memory guard's undecided classes are reported; their subtrees are
  // not saved as finished: a --resume tries them again).
  if (checkpoint.saving() && (!counts.complete || (d.undecided > 0 && d.stopped_by != "--memory")))
    checkpoint.stopped();
  d.seconds = clock.seconds();
  return {counts, d};
}

// One problem's counts, and BurrTools' beside them (with --disassemble,
// the solutions too): BurrTools tells apart congruent pieces listed as
// two, so its count is then that of another puzzle, counted again where
// asked for and the first count is complete.
PolycubeProblemCount count_problem(const PolycubeCountRequest& r, int number,
                                   const polycube::Problem& problem,
                                   const search::VoxelCover& cover,
                                   search::CountCheckpoint& checkpoint) {
  PolycubeProblemCount p;
  p.number = number;
  p.name = problem.name;
  Stopwatch clock;
  const std::string name = fmt::format("problem {}", number);
  p.merged = cover.piece_names().size() < problem.pieces.size();
  if (r.disassemble) {
    // The count and the disassemblies in one search (BurrTools' count, a
    // second one, where congruent pieces listed apart are merged).
    const DisassemblyStop limits = disassembly_stop(checkpoint.stop(), r.memory_gib);
    const std::string what = "polycube count: " + problem.name + ", disassembly";
    std::tie(p.counts, p.solutions) =
        count_and_disassemble(problem, cover, shown_file(r), what, checkpoint.stop(), limits,
                              checkpoint, name + ", disassembly");
    if (!p.merged) {
      p.apart = p.counts;
      p.solutions_apart = p.solutions;
    } else if (r.burrtools && p.counts.complete) {
      std::tie(p.apart, p.solutions_apart) =
          count_and_disassemble(problem, search::VoxelCover(problem, r.file, true), shown_file(r),
                                what + ", congruent pieces apart", checkpoint.stop(), limits,
                                checkpoint, name + ", disassembly, congruent pieces apart");
      if (!p.apart->complete) p.solutions_apart.reset();
    }
  } else {
    p.counts =
        count_cover(cover, "polycube count: " + problem.name, r.time_limit, checkpoint, name);
    if (!p.merged)
      p.apart = p.counts;
    else if (r.burrtools && p.counts.complete)
      p.apart = count_cover(search::VoxelCover(problem, r.file, true),
                            "polycube count: " + problem.name + ", congruent pieces apart",
                            r.time_limit, checkpoint, name + ", congruent pieces apart");
  }
  p.complete = p.counts.complete && (!p.apart || p.apart->complete);
  p.seconds = clock.seconds();
  p.mirror_pieces = cover.mirror_pieces();
  p.rotation_order = cover.rotation_order();
  p.symmetry_order = cover.symmetry_order();
  p.placements = cover.placements();
  p.piece_names = cover.piece_names();
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
// search order, taken apart in batches (a batch's classes on every thread),
// each as the member burrTxt takes apart; those a limit stopped counted
// apart (undecided).
void first_solutions(const polycube::Problem& problem, const search::VoxelCover& cover,
                     const std::string& source, std::size_t n, const DisassemblyStop& limits,
                     PolycubeAssemblies& found) {
  const search::DisassemblyRules rules = disassembly_rules(problem, cover);
  const BurrToolsMember member(problem, cover);
  Progress line("polycube solve: " + problem.name + ", disassembly", 0, "assemblies");
  std::atomic<std::uint64_t> reached{0};
  const search::DisassemblyOptions options = disassembly_options(limits, line, reached);
  std::size_t taken = 0;
  for (std::size_t batch = std::max<std::size_t>(n, 64);; batch *= 4) {
    std::vector<search::CoverAssembly> assemblies = cover.first(batch, limits.stop);
    for (std::size_t i = taken; i < assemblies.size(); ++i) {
      check_pieces(assemblies[i], source, problem.name);
      assemblies[i] = member(assemblies[i]);
    }
    std::vector<search::DisassemblyResult> results(assemblies.size() - taken);
    std::atomic<std::size_t> finished{taken};
    line.set_total(assemblies.size());
    parallel_for_chunks(results.size(), 1, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        if (limits.stop && limits.stop())
          results[i].complete = false;  // not begun
        else
          results[i] = disassemble_assembly(assemblies[taken + i], rules, options);
        line.set_done(finished.fetch_add(1, std::memory_order_relaxed) + 1);
      }
    });
    for (std::size_t i = 0; i < results.size() && found.assemblies.size() < n; ++i) {
      if (!results[i].complete) ++found.undecided;
      if (results[i].comes_apart) {
        found.assemblies.push_back(assemblies[taken + i]);
        found.disassemblies.push_back(std::move(results[i]));
      }
    }
    taken = assemblies.size();
    if (found.assemblies.size() >= n || assemblies.size() < batch ||
        (limits.stop && limits.stop())) {
      if (found.undecided > 0 || (limits.stop && limits.stop()))
        limits.tell(found.stopped_by, found.memory_held, found.memory_limit);
      return;
    }
  }
}

std::vector<PolycubeAssemblies> solve_polycube_job(const PolycubeSolveRequest& r,
                                                   PolycubeCountView& view) {
  check_time_limit(r.time_limit);
  std::vector<PolycubeAssemblies> found;
  const auto stop = deadline(r.time_limit);
  const DisassemblyStop limits =
      r.disassemble ? disassembly_stop(stop, r.memory_gib) : DisassemblyStop{stop, nullptr};
  for (auto& [number, problem] : polycube_problems(r.file, r.problem, shown_file(r))) {
    const search::VoxelCover cover(problem, r.file);
    view.problem(problem, cover);
    found.push_back({});
    found.back().number = number;
    found.back().name = problem.name;
    found.back().piece_names = cover.piece_names();
    if (r.disassemble)
      first_solutions(problem, cover, shown_file(r), r.first, limits, found.back());
    else
      found.back().assemblies = cover.first(r.first, stop);
    view.listed(problem, cover, found.back().assemblies);
    if (r.disassemble) view.disassembled(cover, found.back());
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

// ---- BurrTools' member of a class ---------------------------------------

namespace {

// Shapes with their colours: orientations, pieces and the result's
// symmetries are the same only where the colours coincide too.
using Shape = std::vector<search::ColouredVoxel>;

Shape turned(const Shape& s, const CubeSymmetry& g) {
  Shape out;
  out.reserve(s.size());
  for (const search::ColouredVoxel& c : s) {
    const Voxel v = g.apply({c[0], c[1], c[2]});
    out.push_back({v[0], v[1], v[2], c[3]});
  }
  return search::normalized(std::move(out));
}

}  // namespace

std::array<CubeSymmetry, kSymmetryCount> burrtools_transformations() {
  const CubeSymmetry about_x({0, 2, 1}, {1, 1, -1});
  const CubeSymmetry turn[6] = {CubeSymmetry(),
                                CubeSymmetry({2, 1, 0}, {1, 1, -1}),
                                CubeSymmetry({0, 1, 2}, {-1, 1, -1}),
                                CubeSymmetry({2, 1, 0}, {-1, 1, 1}),
                                CubeSymmetry({1, 0, 2}, {1, -1, 1}),
                                CubeSymmetry({1, 0, 2}, {-1, 1, 1})};
  const CubeSymmetry mirror({0, 1, 2}, {-1, 1, 1});
  std::array<CubeSymmetry, kSymmetryCount> t{};
  for (int a = 0; a < 6; ++a) {
    CubeSymmetry quarter;
    for (int b = 0; b < 4; ++b, quarter = about_x * quarter) {
      t[4 * a + b] = turn[a] * quarter;
      t[24 + 4 * a + b] = turn[a] * quarter * mirror;
    }
  }
  return t;
}

struct BurrToolsMember::Tables {
  std::array<CubeSymmetry, kSymmetryCount> numbering = burrtools_transformations();
  // Each orientation of each piece of the cover, by (piece, shape): the
  // least number that turns the piece's shape as the file gives it into it.
  // (Where congruent pieces are told apart, pieces share shapes.)
  std::map<std::pair<int, Shape>, int> orientation;
  std::vector<int> least, most;  // each cover piece's copies
  struct Symmetry {
    CubeSymmetry g;
    Voxel shift;  // v -> g(v) + shift
  };
  std::vector<Symmetry> result;  // the target's self-symmetries, in BurrTools' numbering
  int pivot = -1;                // the slot compared first (-1: none)
  // By cover piece: for each rotation r (by symmetry_index), the least
  // number n with R_n(shape) = r(shape) (up to translation); the piece its
  // mirror image is (-1: none of the puzzle's) and the rotation-and-mirror
  // m with shape = m(partner's shape), so that a mirror g turns a piece
  // placed by R_n into the partner placed by g R_n m.
  std::vector<std::array<int, kSymmetryCount>> number;
  std::vector<int> partner;
  std::vector<CubeSymmetry> from_partner;
};

BurrToolsMember::BurrToolsMember(const polycube::Problem& problem, const search::VoxelCover& cover)
    : tables_(std::make_unique<Tables>()) {
  Tables& t = *tables_;
  const std::vector<int>& source = cover.source_pieces();
  const auto shape = [&](int p) {
    const polycube::Piece& piece = problem.pieces[static_cast<std::size_t>(p)];
    return search::with_colours(piece.cubes, piece.colours);
  };
  const auto canonical = [&](const Shape& s) {
    Shape least = turned(s, t.numbering[0]);
    for (int r = 1; r < kRotationCount; ++r) least = std::min(least, turned(s, t.numbering[r]));
    return least;
  };
  // Each piece of the problem (BurrTools' part) as the cover's piece it is
  // (its own where congruent pieces are told apart) or is one of
  // (congruent pieces merged), and its symmetries (bits by number).
  std::vector<int> cover_piece;
  std::vector<std::uint64_t> piece_symmetry;
  t.least.assign(source.size(), 0);
  t.most.assign(source.size(), 0);
  for (std::size_t p = 0; p < problem.pieces.size(); ++p) {
    const Shape c = canonical(shape(static_cast<int>(p)));
    int k = static_cast<int>(std::find(source.begin(), source.end(), p) - source.begin());
    if (k == static_cast<int>(source.size())) {
      k = 0;
      while (k < static_cast<int>(source.size()) && canonical(shape(source[k])) != c) ++k;
    }
    if (k == static_cast<int>(source.size()))
      throw std::logic_error("BurrToolsMember: a piece the cover does not have");
    cover_piece.push_back(k);
    t.least[k] += problem.pieces[p].min_count;
    t.most[k] += problem.pieces[p].max_count;
    std::uint64_t bits = 0;
    const Shape s = search::normalized(shape(static_cast<int>(p)));
    for (int n = 0; n < kSymmetryCount; ++n)
      if (turned(s, t.numbering[n]) == s) bits |= std::uint64_t(1) << n;
    piece_symmetry.push_back(bits);
  }
  for (std::size_t k = 0; k < source.size(); ++k)
    for (int n = 0; n < kRotationCount; ++n)
      t.orientation.emplace(
          std::pair{static_cast<int>(k), turned(shape(source[k]), t.numbering[n])}, n);
  const CubeSymmetry mirror = t.numbering[kRotationCount];
  for (std::size_t k = 0; k < source.size(); ++k) {
    std::array<int, kSymmetryCount> numbers{};
    numbers.fill(-1);
    for (const CubeSymmetry& r : cube_rotations())
      numbers[symmetry_index(r)] =
          t.orientation.at({static_cast<int>(k), turned(shape(source[k]), r)});
    t.number.push_back(numbers);
    // The partner, as the cover tells mirror images (voxel_cover_model.cpp):
    // a piece that is its own mirror image itself, else the k-th piece of
    // its mirror shape for the k-th of its own shape (pieces told apart).
    const Shape image = turned(shape(source[k]), mirror);
    std::vector<int> of_image;
    int rank = 0;
    for (std::size_t j = 0; j < source.size(); ++j) {
      if (t.orientation.contains({static_cast<int>(j), image})) of_image.push_back(int(j));
      if (j < k && canonical(shape(source[j])) == canonical(shape(source[k]))) ++rank;
    }
    const bool own = std::find(of_image.begin(), of_image.end(), int(k)) != of_image.end();
    const int partner = own                                        ? static_cast<int>(k)
                        : rank < static_cast<int>(of_image.size()) ? of_image[rank]
                                                                   : -1;
    t.partner.push_back(partner);
    // mirror(shape) = R_n(partner) up to translation: shape = mirror R_n (partner).
    t.from_partner.push_back(partner < 0 ? CubeSymmetry()
                                         : mirror.inverse() *
                                               t.numbering[t.orientation.at({partner, image})]);
  }

  // The result's self-symmetries: fixed voxels onto fixed ones, variable
  // onto variable, each onto one of its colour, the bounding box onto
  // itself.
  const Shape fixed_shape = search::with_colours(problem.fixed, problem.fixed_colours),
              variable_shape = search::with_colours(problem.variable, problem.variable_colours);
  const std::set<search::ColouredVoxel> fixed(fixed_shape.begin(), fixed_shape.end()),
      variable(variable_shape.begin(), variable_shape.end());
  std::vector<Voxel> all = problem.fixed;
  all.insert(all.end(), problem.variable.begin(), problem.variable.end());
  const auto low_of = [](const std::vector<Voxel>& s) {
    Voxel low = s.front();
    for (const Voxel& v : s)
      for (int a = 0; a < 3; ++a) low[a] = std::min(low[a], v[a]);
    return low;
  };
  const Voxel low = low_of(all);
  std::uint64_t result_symmetry = 0;
  for (int n = 0; n < kSymmetryCount; ++n) {
    const CubeSymmetry& g = t.numbering[n];
    std::vector<Voxel> moved;
    for (const Voxel& v : all) moved.push_back(g.apply(v));
    const Voxel moved_low = low_of(moved);
    Voxel shift{};
    for (int a = 0; a < 3; ++a) shift[a] = low[a] - moved_low[a];
    const auto onto = [&](const Shape& from, const std::set<search::ColouredVoxel>& to) {
      return std::all_of(from.begin(), from.end(), [&](const search::ColouredVoxel& c) {
        const Voxel w = g.apply({c[0], c[1], c[2]});
        return to.count({w[0] + shift[0], w[1] + shift[1], w[2] + shift[2], c[3]}) != 0;
      });
    };
    if (onto(fixed_shape, fixed) && onto(variable_shape, variable)) {
      t.result.push_back({g, shift});
      result_symmetry |= std::uint64_t(1) << n;
    }
  }
  if (t.result.size() <= 1) return;

  // The piece that breaks symmetry (BurrTools' assembler_1 prepare): the
  // first of the pieces with the fewest copies, among them of the fewest
  // symmetries in common with the result's (every conjugate of the
  // result's counted); none where it has copies or pieces have ranges.
  std::array<int, kSymmetryCount> number_of{};
  for (int n = 0; n < kSymmetryCount; ++n) number_of[t.numbering[n].code()] = n;
  std::uint64_t conjugates = 0;
  for (int x = 0; x < kSymmetryCount; ++x)
    for (int r = 0; r < kSymmetryCount; ++r) {
      const CubeSymmetry c = t.numbering[r] * t.numbering[x] * t.numbering[r].inverse();
      if ((result_symmetry >> number_of[c.code()] & 1) != 0) conjugates |= std::uint64_t(1) << x;
    }
  std::size_t best = 0;
  int best_common = std::popcount(conjugates & piece_symmetry[0]);
  bool ranges = false;
  for (std::size_t p = 0; p < problem.pieces.size(); ++p) {
    ranges = ranges || problem.pieces[p].min_count != problem.pieces[p].max_count;
    const int common = std::popcount(conjugates & piece_symmetry[p]);
    if (p > 0 &&
        (problem.pieces[p].max_count < problem.pieces[best].max_count ||
         (problem.pieces[p].max_count == problem.pieces[best].max_count && common < best_common))) {
      best = p;
      best_common = common;
    }
  }
  if (ranges || problem.pieces[best].max_count > 1) return;
  t.pivot = 0;
  for (int k = 0; k < cover_piece[best]; ++k) t.pivot += t.most[k];
}

BurrToolsMember::~BurrToolsMember() = default;
BurrToolsMember::BurrToolsMember(BurrToolsMember&&) noexcept = default;

search::CoverAssembly BurrToolsMember::operator()(const search::CoverAssembly& assembly) const {
  const Tables& t = *tables_;
  // Each piece as placed: its rotation (one turning the shape into it) and
  // its box's corners.
  struct Placed {
    int piece;
    CubeSymmetry rotation;
    Voxel low, high;
  };
  std::vector<Placed> placed;
  for (const search::PlacedPiece& p : assembly) {
    Placed q{p.piece, CubeSymmetry(), p.voxels.front(), p.voxels.front()};
    for (const Voxel& v : p.voxels)
      for (int a = 0; a < 3; ++a) {
        q.low[a] = std::min(q.low[a], v[a]);
        q.high[a] = std::max(q.high[a], v[a]);
      }
    const auto it = t.orientation.find(
        {p.piece, search::normalized(search::with_colours(p.voxels, p.colours))});
    if (it == t.orientation.end())
      throw std::logic_error("BurrToolsMember: a placed piece that is no turn of its piece");
    q.rotation = t.numbering[it->second];
    placed.push_back(q);
  }
  // A placement as BurrTools compares them: orientation, then position
  // (any fixed point of the piece: its least corner); an empty slot last.
  // Each member's key: its slots (by piece, copies sorted), the pivot first.
  using Key = std::array<int, 4>;
  constexpr Key kEmpty = {255, 0, 0, 0};
  struct Slot {
    Key key;
    std::size_t from;  // the piece of `assembly` it is
  };
  std::vector<std::vector<Slot>> slots(t.most.size());
  std::vector<Key> key, best_key;
  std::vector<std::size_t> order, best_order;
  const Tables::Symmetry* best = nullptr;
  for (const Tables::Symmetry& s : t.result) {
    for (auto& k : slots) k.clear();
    const bool mirror = !s.g.is_rotation();
    bool valid = true;
    for (std::size_t i = 0; i < placed.size() && valid; ++i) {
      const Placed& p = placed[i];
      // (A mirror image of a piece that is none of the puzzle's: not an assembly.)
      const int piece = mirror ? t.partner[static_cast<std::size_t>(p.piece)] : p.piece;
      if (piece < 0) {
        valid = false;
        break;
      }
      const CubeSymmetry r =
          mirror ? s.g * p.rotation * t.from_partner[static_cast<std::size_t>(p.piece)]
                 : s.g * p.rotation;
      const Voxel a = s.g.apply(p.low), b = s.g.apply(p.high);
      Key k{t.number[static_cast<std::size_t>(piece)][symmetry_index(r)], 0, 0, 0};
      for (int c = 0; c < 3; ++c) k[c + 1] = std::min(a[c], b[c]) + s.shift[c];
      slots[static_cast<std::size_t>(piece)].push_back({k, i});
    }
    for (std::size_t k = 0; k < slots.size() && valid; ++k) {
      const int copies = static_cast<int>(slots[k].size());
      valid = copies >= t.least[k] && copies <= t.most[k];
    }
    if (!valid) continue;
    key.clear();
    order.clear();
    for (auto& k : slots) {
      std::sort(k.begin(), k.end(), [](const Slot& x, const Slot& y) { return x.key < y.key; });
      for (const Slot& slot : k) {
        key.push_back(slot.key);
        order.push_back(slot.from);
      }
      for (std::size_t e = k.size(); e < static_cast<std::size_t>(t.most[&k - slots.data()]); ++e)
        key.push_back(kEmpty);
    }
    if (t.pivot >= 0) std::rotate(key.begin(), key.begin() + t.pivot, key.begin() + t.pivot + 1);
    if (best == nullptr || key < best_key) {
      best = &s;
      best_key.swap(key);
      best_order.swap(order);
    }
  }
  // The member: each piece turned by the best symmetry, in slot order.
  search::CoverAssembly member;
  if (best == nullptr) return member;
  const bool mirror = !best->g.is_rotation();
  for (const std::size_t i : best_order) {
    const search::PlacedPiece& p = assembly[i];
    member.push_back(
        {mirror ? t.partner[static_cast<std::size_t>(p.piece)] : p.piece, {}, p.colours});
    for (const Voxel& v : p.voxels) {
      Voxel w = best->g.apply(v);
      for (int a = 0; a < 3; ++a) w[a] += best->shift[a];
      member.back().voxels.push_back(w);
    }
  }
  return member;
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
          {"stopped_by", d.stopped_by.empty() ? Json(nullptr) : Json(d.stopped_by)},
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
