// `twisty solve` as a job (puzzles/twisty_solve.hpp).
#include "cubenum/puzzles/twisty_solve.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>

#include "cubenum/bfs/row_bfs.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/memory.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/puzzles/twisty_canonical.hpp"
#include "cubenum/puzzles/twisty_ida.hpp"
#include "cubenum/puzzles/twisty_pattern.hpp"

namespace cubenum::twisty {

SolveMethod parse_solve_method(const std::string& text) {
  if (text == "auto") return SolveMethod::Auto;
  if (text == "table") return SolveMethod::Table;
  if (text == "search") return SolveMethod::Search;
  throw InputError("--method", 0, "unknown method '" + text + "' (expected auto, table or search)");
}

bool reads_table(const SolveRequest& request) {
  return request.table && std::ifstream(*request.table);
}

namespace {

constexpr std::uint64_t kQuickSequences = 1 << 16;

// The depth a search without tables goes to: the deepest whose shallower
// depths together hold at most kQuickSequences canonical sequences
// (`sequences`: their count at each depth to the deepest allowed).
unsigned quick_search_depth(const std::vector<std::uint64_t>& sequences) {
  unsigned depth = 0;
  std::uint64_t shallower = 0;
  while (depth + 1 < sequences.size() && (shallower += sequences[depth]) <= kQuickSequences)
    ++depth;
  return depth;
}

// A scramble and the position it makes.
struct Scrambled {
  std::string name;
  Arrangement position;
};

// The request's scrambles: --scramble's moves, or the scramble file's.
std::vector<Scrambled> scrambles(const SolveRequest& request, const Definition& def) {
  const std::vector<Move> all = all_powers(def);
  const auto play = [&](const std::vector<int>& sequence) {
    Arrangement x = def.solved;
    for (int m : sequence) x = apply(def.sets, x, all[static_cast<std::size_t>(m)].effect);
    return x;
  };
  if (request.scramble) return {{*request.scramble, play(parse_sequence(all, *request.scramble))}};
  if (!request.scramble_file)
    throw InputError("--scramble", 0, "no scramble: give --scramble or --scrambles");
  std::vector<Scrambled> out;
  for (const Scramble& s : load_scrambles(*request.scramble_file, def)) {
    if (s.position) {
      out.push_back({s.name, *s.position});
      continue;
    }
    std::string text;
    for (const std::string& m : s.moves) {
      if (std::none_of(all.begin(), all.end(), [&](const Move& x) { return x.name == m; }))
        throw InputError(*request.scramble_file, s.line, fmt::format("unknown move '{}'", m));
      text += (text.empty() ? "" : " ") + m;
    }
    out.push_back({s.name.starts_with("line ") ? text : s.name, play(parse_sequence(all, text))});
  }
  return out;
}

// Whether the full depth table fits: a space cubenum can rank, whose BFS
// fits in memory.
bool table_fits(const SolveRequest& request) {
  try {
    const auto laid = make_space(request.space, {}, false);
    const double allowed = memory_allowed(request.memory_gib);
    return allowed == 0 || double(bfs_need(*laid, 1, true)) <= allowed;
  } catch (const InputError&) {  // more states than cubenum ranks
    return false;
  }
}

// The pattern databases: read from the tables folder where there, else
// built (and written there).
std::vector<std::unique_ptr<PatternDatabase>> pattern_databases(const PieceMoves& moves,
                                                                const SolveRequest& request,
                                                                std::vector<PatternUse>& used) {
  const double allowed = memory_allowed(request.memory_gib);
  std::vector<Pattern> patterns;
  if (request.patterns) {
    double bytes = 0;
    std::istringstream list(*request.patterns);
    for (std::string text; std::getline(list, text, ';');) {
      patterns.push_back(parse_pattern(moves, text, "--patterns"));
      bytes += double(*pattern_states(moves, patterns.back())) / 4;
    }
    if (allowed > 0 && bytes > allowed)
      throw InputError("--patterns", 0,
                       fmt::format("the pattern databases need {}, more than the {} allowed",
                                   progress::bytes_text(bytes), progress::bytes_text(allowed)));
  } else {
    // Tables kept for later solves are worth a longer build.
    const std::uint64_t most_states = std::uint64_t{1} << (request.tables ? 32 : 27);
    patterns = choose_patterns(moves, allowed > 0 ? allowed : 4.0 * (1ULL << 30), most_states);
  }
  std::vector<std::unique_ptr<PatternDatabase>> pdbs;
  for (const Pattern& pattern : patterns) {
    PatternUse use;
    use.name = pattern_name(moves.definition(), pattern);
    const Stopwatch clock;
    if (request.tables) {
      use.file = (std::filesystem::path(*request.tables) / pattern_file(moves, pattern)).string();
      use.loaded = std::filesystem::exists(*use.file);
    }
    progress::note("twisty solve: {} pattern database {}", use.loaded ? "reading" : "building",
                   use.name);
    pdbs.push_back(use.loaded
                       ? std::make_unique<PatternDatabase>(moves, pattern, *use.file)
                       : std::make_unique<PatternDatabase>(moves, pattern, Clamping::WhereDeep));
    // Under mpirun every process builds its own; the first writes it.
    if (use.file && !use.loaded && this_cluster().process() == 0) pdbs.back()->save(*use.file);
    use.states = pdbs.back()->states();
    use.bytes = pdbs.back()->table_bytes();
    use.max_depth = pdbs.back()->max_depth();
    use.clamped = pdbs.back()->clamped();
    use.inverse_lookups = reads_inverse(moves, *pdbs.back(), request.inverse_lookups);
    use.seconds = clock.seconds();
    used.push_back(std::move(use));
  }
  return pdbs;
}

// Each table read through up to `per_table` symmetries too, each chosen for
// the fewest pieces read that the table's lookups so far read (the 3x3x3's
// first seven edges' table: a symmetry that reads the other five first).
std::vector<std::unique_ptr<PatternDatabase>> symmetric_lookups(
    const PieceMoves& moves, const std::vector<std::unique_ptr<PatternDatabase>>& pdbs,
    unsigned per_table, std::vector<PatternUse>& used) {
  std::vector<std::unique_ptr<PatternDatabase>> views;
  if (per_table == 0 || pdbs.empty()) return views;
  std::optional<SymmetryGroup> found;
  try {
    found.emplace(moves.definition(), moves.moves(), SymmetryRequest{SymmetryChoice::All, false});
  } catch (const InputError& e) {
    progress::note("twisty solve: the tables are read as they are: {}", e.what());
    return views;
  }
  const SymmetryGroup& group = *found;
  using Pieces = std::vector<std::pair<std::size_t, bool>>;
  for (std::size_t t = 0; t < pdbs.size(); ++t) {
    std::set<Pieces> seen;                        // the look-ups' piece lists so far
    std::set<std::pair<std::size_t, bool>> read;  // and their pieces
    const auto take = [&](const Pieces& pieces) {
      seen.insert(pieces);
      read.insert(pieces.begin(), pieces.end());
    };
    take(pdbs[t]->read_pieces());
    for (unsigned v = 0; v < per_table; ++v) {
      std::optional<PatternDatabase> best;
      Pieces best_pieces;
      std::size_t best_overlap = std::numeric_limits<std::size_t>::max();
      for (std::size_t k = 1; k < group.order(); ++k) {
        std::optional<PatternDatabase> view = pdbs[t]->conjugated(group, k);
        if (!view) continue;
        Pieces pieces = view->read_pieces();
        if (seen.contains(pieces)) continue;
        std::size_t overlap = 0;
        for (const auto& piece : pieces) overlap += read.contains(piece);
        if (overlap < best_overlap) {
          best_overlap = overlap;
          best = std::move(view);
          best_pieces = std::move(pieces);
        }
      }
      if (!best) break;
      take(best_pieces);
      views.push_back(std::make_unique<PatternDatabase>(std::move(*best)));
      ++used[t].symmetric_lookups;
    }
  }
  return views;
}

// The progress line of one scramble's search: nodes, the depth and its
// subtrees done.
class SearchProgress {
 public:
  explicit SearchProgress(const std::string& scramble)
      : progress_("twisty solve " + scramble, 0, "nodes") {
    progress_.set_estimate(false);
  }
  void subtree(unsigned depth, std::uint64_t nodes, std::size_t done, std::size_t subtrees) {
    progress_.set_done(nodes);
    if (done == 1 || done == subtrees || done % 64 == 0)
      progress_.set_detail(fmt::format("depth {}, {}/{} subtrees", depth, done, subtrees));
  }
  void depth(unsigned depth, std::uint64_t nodes) {
    progress::note("twisty solve: no solution of {} moves ({} nodes, {:.1f} s)", depth,
                   progress::grouped(nodes), clock_.seconds());
  }

 private:
  Progress progress_;
  Stopwatch clock_;
};

Solution search(const PieceMoves& moves, const Scrambled& scramble,
                const std::vector<const PatternDatabase*>& pdbs, const SolveRequest& request,
                unsigned max_depth) {
  IdaOptions options;
  options.max_depth = max_depth;
  options.count = request.count;
  options.keep = std::max<std::size_t>(request.all, 1);
  options.inverse_lookups = request.inverse_lookups;
  options.cluster = &this_cluster();
  const Stopwatch clock;
  if (request.time_limit > 0)
    options.should_stop = [&] { return clock.seconds() > request.time_limit; };
  SearchProgress progress(scramble.name);
  options.on_subtree = [&](unsigned depth, std::uint64_t nodes, std::size_t done,
                           std::size_t subtrees) {
    progress.subtree(depth, nodes, done, subtrees);
  };
  options.on_depth = [&](unsigned depth, std::uint64_t nodes) { progress.depth(depth, nodes); };
  IdaResult result;
  try {
    result = solve_ida(moves, scramble.position, pdbs, options);
  } catch (const std::invalid_argument&) {
    throw InputError("--scramble", 0,
                     fmt::format("the scramble {} leaves the positions the chosen moves can reach",
                                 scramble.name));
  }
  Solution solution;
  solution.scramble = scramble.name;
  solution.searched = true;
  solution.nodes = result.nodes;
  solution.proven = result.proven;
  solution.stopped = result.stopped;
  if (request.count || options.keep > 1) solution.count = result.count;
  solution.found = result.length.has_value();
  if (solution.found) {
    solution.moves = result.solutions[0];
    solution.text = sequence_text(moves.moves(), solution.moves);
    for (const auto& s : result.solutions)
      solution.listed.push_back(sequence_text(moves.moves(), s));
  }
  solution.seconds = clock.seconds();
  return solution;
}

SolveResult solve_by_search(const SolveRequest& request,
                            const std::function<void(const Solution&)>& solved) {
  if (request.table)
    throw InputError("--table", 0, "the search keeps no depth table (drop --table)");
  const Definition def = load_definition(request.space.file);
  const MoveChoice choice{split_move_list(request.space.moves.value_or("")), request.space.quarter};
  const PieceMoves moves(def, expand_moves(def, choice));
  const std::vector<Scrambled> positions = scrambles(request, def);
  if (request.tables) {
    std::error_code error;
    std::filesystem::create_directories(*request.tables, error);
    if (error)
      throw InputError(*request.tables, 0,
                       "cannot make the pattern databases' folder: " + error.message());
  }
  SolveResult result;
  result.file = def.file;
  result.searched = true;
  // A short scramble needs no tables: each is first searched without them
  // (its answer is as optimal), to quick_depth.
  const unsigned quick_depth =
      quick_search_depth(CanonicalMoves(def, moves.moves()).count(request.max_depth));
  std::vector<Solution> quick;
  const auto answered = [&](const Solution& s) {
    return s.found || s.stopped || quick_depth >= request.max_depth;
  };
  bool all_quick = true;
  for (const Scrambled& scramble : positions) {
    quick.push_back(search(moves, scramble, {}, request, quick_depth));
    all_quick &= answered(quick.back());
  }
  std::vector<std::unique_ptr<PatternDatabase>> pdbs, views;
  if (!all_quick) {
    pdbs = pattern_databases(moves, request, result.pattern_databases);
    views = symmetric_lookups(moves, pdbs, request.symmetric_lookups, result.pattern_databases);
  }
  std::vector<const PatternDatabase*> used;
  for (const auto& pdb : pdbs) used.push_back(pdb.get());
  for (const auto& view : views) used.push_back(view.get());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    result.solutions.push_back(answered(quick[i])
                                   ? std::move(quick[i])
                                   : search(moves, positions[i], used, request, request.max_depth));
    if (solved) solved(result.solutions.back());
  }
  return result;
}

SolveResult solve_by_table(const SolveRequest& request,
                           const std::function<void(const Solution&)>& solved) {
  if (request.patterns)
    throw InputError("--patterns", 0,
                     "the full depth table needs no pattern databases (drop --patterns)");
  if (request.tables)
    throw InputError("--tables", 0,
                     "the full depth table needs no pattern databases (drop --tables)");
  // The depth table, read or built, and the tables: refused before any is
  // built.
  const auto space = make_space(request.space, [&](const TwistySpace& laid_out) {
    check_bfs_fits(laid_out, 1, true, request.memory_gib);
  });
  const Definition& def = space->definition();
  const std::vector<Scrambled> positions = scrambles(request, def);
  for (const Scrambled& s : positions)
    if (!space->contains(s.position))
      throw InputError(
          "--scramble", 0,
          fmt::format("the scramble {} leaves the positions the chosen moves can reach", s.name));
  bfs::RowDepths depths;
  if (reads_table(request)) {
    depths = load_table(*request.table, *space);
  } else {
    const std::uint64_t solved_rank = space->solved_rank();
    depths = std::move(*bfs::row_bfs(*space, {&solved_rank, 1}).depths);
    if (request.table) save_table(*request.table, *space, depths);
  }
  SolveResult result;
  result.file = def.file;
  for (const Scrambled& s : positions) {
    const Stopwatch clock;
    Solution solution;
    solution.scramble = s.name;
    solution.moves = path_to_solved(*space, depths, space->rank(s.position));
    solution.text = sequence_text(*space, solution.moves);
    solution.seconds = clock.seconds();
    result.solutions.push_back(std::move(solution));
    if (solved) solved(result.solutions.back());
  }
  return result;
}

}  // namespace

SolveResult solve(const SolveRequest& request, const std::function<void(const Solution&)>& solved) {
  if (request.method == SolveMethod::Search ||
      (request.method == SolveMethod::Auto && !request.table &&
       (request.tables || request.patterns || !table_fits(request))))
    return solve_by_search(request, solved);
  return solve_by_table(request, solved);
}

}  // namespace cubenum::twisty
