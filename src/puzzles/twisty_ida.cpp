// IDA*: each depth's tree, cut into subtrees searched on every thread.
#include "cubenum/puzzles/twisty_ida.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <span>
#include <utility>

#include "cubenum/core/cluster.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/twisty_canonical.hpp"
#include "cubenum/search/split_search.hpp"

namespace cubenum::twisty {

namespace {

// Subtrees are cut up to kSplitDepth moves down, and no deeper than it
// takes for kSubtreesPerWorker a worker: enough to keep every worker busy
// to the end of a depth; each more costs a frontier node and a task, the
// most of a small search's time.
constexpr unsigned kSplitDepth = 3;
constexpr std::size_t kSubtreesPerWorker = 64;
// The tables a round of look-ups asks after the first's: more cells asked
// for at once, against cells asked for children that a table before them
// cuts (results/twisty-solve.md).
constexpr std::size_t kRoundTables = 2;

// A subtree's root: the moves to it, its canonical state, the position by
// piece and its bound from each pattern database.
struct Root {
  std::vector<int> path;
  std::uint32_t state = CanonicalMoves::kStart;
  std::vector<std::uint8_t> pieces;
  std::vector<unsigned> h;
};

struct SubtreeResult {
  std::uint64_t count = 0, nodes = 0;
  std::vector<std::vector<int>> solutions;
  bool interrupted = false;  // by should_stop
};

// A depth's tally: its counts, and the first `keep` solutions in move order
// (by subtree, then in the order the subtree's search found them).
struct Found {
  std::uint64_t count = 0, nodes = 0;
  bool interrupted = false;
  std::vector<std::pair<std::uint64_t, std::vector<int>>> solutions;
  std::size_t keep = 1;

  void add(std::uint64_t subtree, SubtreeResult&& r) {
    Found one{r.count, r.nodes, r.interrupted, {}, keep};
    for (auto& s : r.solutions) one.solutions.emplace_back(subtree, std::move(s));
    *this += std::move(one);
  }
  Found& operator+=(Found&& other) {
    count += other.count;
    nodes += other.nodes;
    interrupted |= other.interrupted;
    keep = std::max(keep, other.keep);
    for (auto& s : other.solutions) solutions.push_back(std::move(s));
    trim();
    return *this;
  }
  void trim() {
    std::stable_sort(solutions.begin(), solutions.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    if (solutions.size() > keep) solutions.resize(keep);
  }

  // Every process's tallies added, on every process (as words: the
  // counts, then each solution's subtree, length and moves).
  void combine(Cluster& cluster) {
    std::uint64_t totals[3] = {count, nodes, interrupted ? 1U : 0U};
    cluster.sum(totals);
    std::vector<std::uint64_t> mine;
    for (const auto& [subtree, moves] : solutions) {
      mine.push_back(subtree);
      mine.push_back(moves.size());
      mine.insert(mine.end(), moves.begin(), moves.end());
    }
    std::vector<std::uint64_t> sizes(static_cast<std::size_t>(cluster.processes()));
    sizes[static_cast<std::size_t>(cluster.process())] = mine.size() * sizeof(std::uint64_t);
    cluster.sum(sizes);
    std::uint64_t bytes = 0;
    for (std::uint64_t size : sizes) bytes += size;
    std::vector<std::uint64_t> all(bytes / sizeof(std::uint64_t));
    cluster.gather_all(std::as_bytes(std::span(mine)), std::as_writable_bytes(std::span(all)),
                       sizes);
    solutions.clear();
    for (std::size_t i = 0; i < all.size(); i += 2 + all[i + 1])
      solutions.emplace_back(all[i],
                             std::vector<int>(all.begin() + static_cast<long>(i + 2),
                                              all.begin() + static_cast<long>(i + 2 + all[i + 1])));
    trim();
    count = totals[0];
    nodes = totals[1];
    interrupted = totals[2] != 0;
  }
};

// The children of one node, made together: their positions and the ranks
// of their views first, each rank's table cell asked for from memory, then
// the look-ups, so that the cells arrive while others are computed.
class Children {
 public:
  Children(std::size_t moves, std::size_t pieces, std::size_t pdbs)
      : pieces_(moves * pieces),
        ranks_(moves * pdbs),
        inverse_ranks_(moves * pdbs),
        h_(moves * pdbs),
        move_(moves),
        state_(moves),
        kept_(moves),
        inverse_(pieces),
        width_(pieces),
        pdbs_(pdbs) {}
  std::uint8_t* pieces(std::size_t j) { return &pieces_[j * width_]; }
  std::uint64_t* ranks(std::size_t j) { return &ranks_[j * pdbs_]; }
  // A child's inverse (one at a time, while its ranks are made) and the
  // ranks of its views, by table.
  std::uint8_t* inverse() { return inverse_.data(); }
  std::uint64_t* inverse_ranks(std::size_t j) { return &inverse_ranks_[j * pdbs_]; }
  unsigned* h(std::size_t j) { return &h_[j * pdbs_]; }
  int& move(std::size_t j) { return move_[j]; }
  std::uint32_t& state(std::size_t j) { return state_[j]; }
  // The children within the bound, in move order.
  std::size_t& kept() { return count_; }
  std::size_t& kept(std::size_t k) { return kept_[k]; }

 private:
  std::vector<std::uint8_t> pieces_;
  std::vector<std::uint64_t> ranks_, inverse_ranks_;
  std::vector<unsigned> h_;
  std::vector<int> move_;
  std::vector<std::uint32_t> state_;
  std::vector<std::size_t> kept_;
  std::vector<std::uint8_t> inverse_;
  std::size_t count_ = 0, width_, pdbs_;
};

class Search {
 public:
  Search(const PieceMoves& moves, const std::vector<const PatternDatabase*>& pdbs,
         const IdaOptions& options)
      : moves_(moves),
        canonical_(moves.definition(), moves.moves()),
        pdbs_(pdbs),
        options_(options) {
    for (std::size_t i = 0; i < pdbs.size(); ++i)
      if (reads_inverse(moves, *pdbs[i], options.inverse_lookups)) {
        inverse_.push_back(i);
        inverse_reach_ = std::max(inverse_reach_, pdbs[i]->max_depth());
      }
  }

  // The bound of a position by its inverse's views in the clamped tables.
  unsigned inverse_bound(const std::uint8_t* pieces) const {
    std::vector<std::uint8_t> inverse(moves_.pieces());
    moves_.invert(pieces, inverse.data());
    unsigned bound = 0;
    for (std::size_t i : inverse_)
      bound = std::max(bound, pdbs_[i]->at_least(pdbs_[i]->rank(inverse.data())));
    return bound;
  }

  Children children_storage() const {
    return Children(moves_.moves().size(), moves_.pieces(), pdbs_.size());
  }

  // The children of a node (its position, distances and canonical state)
  // whose distances are at most `slack`: the first table for every child,
  // then the others, kRoundTables at a time, for the children kept so far,
  // each round's cells asked for together (a round trip to memory a round,
  // not a child); the clamped tables read as the inverse join the last
  // round, where they can bound more than `slack`. At slack 0 only a
  // solved child can be, and is told apart without the tables.
  void expand(const std::uint8_t* pieces, const unsigned* h, std::uint32_t state, unsigned slack,
              Children& out) const {
    std::size_t& kept = out.kept();
    kept = 0;
    // A move solves a position only if it moves every piece out of place.
    const std::size_t misplaced = slack == 0 ? moves_.misplaced(pieces) : 0;
    for (std::size_t m = 0; m < moves_.moves().size(); ++m) {
      const std::uint32_t next = canonical_.next(state, m);
      if (next == CanonicalMoves::kRefused) continue;
      if (slack == 0) {
        if (misplaced > moves_.moved(m) || !moves_.solved_after(pieces, m)) continue;
        moves_.apply(pieces, m, out.pieces(kept));
      }
      out.move(kept) = static_cast<int>(m);
      out.state(kept) = next;
      out.kept(kept) = kept;
      ++kept;
    }
    if (slack == 0) {
      for (std::size_t k = 0; k < kept; ++k) std::fill(out.h(k), out.h(k) + pdbs_.size(), 0U);
      return;
    }
    const bool inverse = !inverse_.empty() && slack < inverse_reach_;
    for (std::size_t first = 0; first < pdbs_.size() && kept > 0;) {
      const std::size_t last = first == 0 ? 1 : std::min(pdbs_.size(), first + kRoundTables);
      const bool with_inverse = inverse && last == pdbs_.size();
      for (std::size_t k = 0; k < kept; ++k) {
        const std::size_t j = out.kept(k);
        const auto move = static_cast<std::size_t>(out.move(j));
        for (std::size_t i = first; i < last; ++i) {
          out.ranks(j)[i] = pdbs_[i]->rank_after(pieces, move);
          pdbs_[i]->prefetch(out.ranks(j)[i]);
        }
        if (with_inverse) ask_inverse(pieces, move, j, out);
      }
      std::size_t within = 0;
      for (std::size_t k = 0; k < kept; ++k) {
        const std::size_t j = out.kept(k);
        std::size_t i = first;
        while (i < last && (out.h(j)[i] = pdbs_[i]->distance_after(h[i], out.ranks(j)[i])) <= slack)
          ++i;
        if (i == last && (!with_inverse || inverse_within(j, slack, out))) out.kept(within++) = j;
      }
      kept = within;
      first = last;
    }
    if (inverse) return;  // the children kept were made in the last round
    for (std::size_t k = 0; k < kept; ++k) {
      const std::size_t j = out.kept(k);
      moves_.apply(pieces, static_cast<std::size_t>(out.move(j)), out.pieces(j));
    }
  }

  // Makes child j and asks for its inverse's cells in the clamped tables
  // (a position's inverse is as far from solved as it is).
  void ask_inverse(const std::uint8_t* pieces, std::size_t move, std::size_t j,
                   Children& out) const {
    moves_.apply(pieces, move, out.pieces(j));
    moves_.invert(out.pieces(j), out.inverse());
    for (std::size_t i : inverse_) {
      out.inverse_ranks(j)[i] = pdbs_[i]->rank(out.inverse());
      pdbs_[i]->prefetch(out.inverse_ranks(j)[i]);
    }
  }
  bool inverse_within(std::size_t j, unsigned slack, Children& out) const {
    return std::all_of(inverse_.begin(), inverse_.end(), [&](std::size_t i) {
      return pdbs_[i]->at_least(out.inverse_ranks(j)[i]) <= slack;
    });
  }

  // The nodes `depth` moves down (fewer where the bound is nearer), or
  // those of the first level that holds `enough`; `expanded` counts the
  // nodes above them (the search's nodes are then the same however cut).
  std::vector<Root> frontier(const Root& root, unsigned bound, unsigned depth, std::size_t enough,
                             std::uint64_t& expanded) const {
    std::vector<Root> level{root};
    Children children = children_storage();
    for (unsigned d = 0; d < depth && level.size() < enough; ++d) {
      std::vector<Root> next;
      expanded += level.size();
      for (const Root& node : level) {
        expand(node.pieces.data(), node.h.data(), node.state, bound - d - 1, children);
        for (std::size_t k = 0; k < children.kept(); ++k) {
          const std::size_t j = children.kept(k);
          Root child{node.path,
                     children.state(j),
                     {children.pieces(j), children.pieces(j) + moves_.pieces()},
                     {children.h(j), children.h(j) + pdbs_.size()}};
          child.path.push_back(children.move(j));
          next.push_back(std::move(child));
        }
      }
      level = std::move(next);
    }
    return level;
  }

  // Depth-first from `root` to `bound`, the children of each depth made in
  // `stack` (the worker's, kept from subtree to subtree).
  void search(const Root& root, unsigned bound, std::vector<Children>& stack, SubtreeResult& out,
              const std::atomic<bool>& abandon) const {
    while (stack.size() < bound) stack.push_back(children_storage());
    std::vector<int> path = root.path;
    descend(stack, path, root.pieces.data(), root.h.data(), root.state, bound, out, abandon);
  }

 private:
  void descend(std::vector<Children>& stack, std::vector<int>& path, const std::uint8_t* pieces,
               const unsigned* h, std::uint32_t state, unsigned bound, SubtreeResult& out,
               const std::atomic<bool>& abandon) const {
    if ((++out.nodes & 0xFFFF) == 0)
      out.interrupted |= options_.should_stop && options_.should_stop();
    if (out.interrupted || abandon.load(std::memory_order_relaxed)) return;
    const std::size_t g = path.size();
    if (g == bound) {
      if (moves_.solved(pieces)) {
        ++out.count;
        if (out.solutions.size() < options_.keep) out.solutions.push_back(path);
      }
      return;
    }
    Children& children = stack[g];
    expand(pieces, h, state, static_cast<unsigned>(bound - g - 1), children);
    for (std::size_t k = 0; k < children.kept(); ++k) {
      const std::size_t j = children.kept(k);
      path.push_back(children.move(j));
      descend(stack, path, children.pieces(j), children.h(j), children.state(j), bound, out,
              abandon);
      path.pop_back();
    }
  }

  const PieceMoves& moves_;
  CanonicalMoves canonical_;
  const std::vector<const PatternDatabase*>& pdbs_;
  const IdaOptions& options_;
  std::vector<std::size_t> inverse_;  // the tables read as the inverse too
  unsigned inverse_reach_ = 0;        // the most they can bound
};

}  // namespace

IdaResult solve_ida(const PieceMoves& moves, const Arrangement& start,
                    const std::vector<const PatternDatabase*>& pdbs, const IdaOptions& options) {
  const Search search(moves, pdbs, options);
  Root root{{}, CanonicalMoves::kStart, std::vector<std::uint8_t>(moves.pieces()), {}};
  moves.encode(start, root.pieces.data());
  unsigned bound = 0;
  for (const PatternDatabase* pdb : pdbs) {
    root.h.push_back(pdb->lower_bound(root.pieces.data()));
    bound = std::max(bound, root.h.back());
  }
  bound = std::max(bound, search.inverse_bound(root.pieces.data()));
  IdaResult result;
  result.proven = bound;
  PerWorker<std::vector<Children>> stacks;
  // The workers of every process (the same frontier in each).
  std::uint64_t workers[1] = {static_cast<std::uint64_t>(worker_limit())};
  if (options.cluster != nullptr) options.cluster->sum(workers);
  for (; bound <= options.max_depth; ++bound) {
    std::uint64_t above = 0;
    const std::vector<Root> subtrees = search.frontier(root, bound, std::min(bound, kSplitDepth),
                                                       kSubtreesPerWorker * workers[0], above);
    result.nodes += above;
    // Without counting, a subtree is abandoned once one before it in move
    // order holds a solution (its own first solution is then not needed):
    // within a process, each drawing subtrees from the shared counter.
    const bool first_only = !options.count && options.keep <= 1;
    std::atomic<std::size_t> first_found{std::numeric_limits<std::size_t>::max()};
    std::vector<std::atomic<bool>> abandon(subtrees.size());
    std::atomic<std::uint64_t> nodes{result.nodes};
    std::atomic<std::size_t> done{0};
    search::SubtreeRun<Found> run;
    run.cluster = options.cluster;
    Found found = search::search_subtrees<Found, Root>(
        subtrees,
        [&](const Root& subtree, Found& into) {
          into.keep = options.keep;
          const auto i = static_cast<std::size_t>(&subtree - subtrees.data());
          SubtreeResult r;
          if (first_only && first_found.load() < i) return;
          if (options.should_stop && options.should_stop()) {
            r.interrupted = true;
          } else {
            search.search(subtree, bound, stacks.local(), r, abandon[i]);
          }
          const std::uint64_t so_far = nodes += r.nodes;
          if (options.on_subtree) options.on_subtree(bound, so_far, ++done, subtrees.size());
          if (first_only && r.count > 0) {
            std::size_t seen = first_found.load();
            while (i < seen && !first_found.compare_exchange_weak(seen, i)) {
            }
            for (std::size_t j = i + 1; j < subtrees.size(); ++j) abandon[j] = true;
          }
          into.add(i, std::move(r));
        },
        run);
    found.keep = options.keep;
    if (options.cluster != nullptr && options.cluster->processes() > 1)
      found.combine(*options.cluster);
    else
      found.trim();
    const bool searched_all = !found.interrupted;
    result.nodes += found.nodes;
    result.count += found.count;
    for (auto& s : found.solutions) result.solutions.push_back(std::move(s.second));
    if (!result.solutions.empty()) {
      result.stopped = !searched_all;  // the count, and which is first, unfinished
      result.length = bound;
      result.proven = bound;
      return result;
    }
    if (!searched_all) {
      result.stopped = true;
      return result;
    }
    result.proven = bound + 1;
    if (options.on_depth) options.on_depth(bound, result.nodes);
  }
  return result;
}

}  // namespace cubenum::twisty
