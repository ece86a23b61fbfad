// IDA*: each depth's tree, cut into subtrees searched on every thread.
#include "cubenum/puzzles/twisty_ida.hpp"

#include <algorithm>
#include <atomic>
#include <limits>

#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/twisty_canonical.hpp"

namespace cubenum::twisty {

namespace {

constexpr unsigned kSplitDepth = 3;  // subtrees cut this many moves down

// A node of the tree: the moves to it, the canonical state, the position
// and its distance in each pattern database.
struct Node {
  std::vector<int> path;
  std::uint32_t state = CanonicalMoves::kStart;
  Arrangement position;
  std::vector<unsigned> h;
};

struct SubtreeResult {
  std::uint64_t count = 0, nodes = 0;
  std::vector<std::vector<int>> solutions;
  bool interrupted = false;  // by should_stop
};

class Search {
 public:
  Search(const Definition& def, const std::vector<Move>& moves,
         const std::vector<const PatternDatabase*>& pdbs, const IdaOptions& options)
      : def_(def), moves_(moves), canonical_(def, moves), pdbs_(pdbs), options_(options) {}

  // The children of `node` (g moves down) within `bound`: each written
  // into `child` (its position, state and distances), then visit(move).
  template <class Visit>
  void children(const Node& node, unsigned g, unsigned bound,
                std::vector<PatternDatabase::Scratch>& scratch, Node& child, Visit&& visit) const {
    for (std::size_t m = 0; m < moves_.size(); ++m) {
      const std::uint32_t next = canonical_.next(node.state, m);
      if (next == CanonicalMoves::kRefused) continue;
      apply(def_.sets, node.position, moves_[m].effect, child.position);
      unsigned most = 0;
      for (std::size_t i = 0; i < pdbs_.size(); ++i)
        most = std::max(
            most, child.h[i] = pdbs_[i]->distance_after(node.h[i], child.position, scratch[i]));
      if (g + 1 + most > bound) continue;
      child.state = next;
      visit(static_cast<int>(m));
    }
  }

  // The nodes `depth` moves down (fewer where the bound is nearer).
  std::vector<Node> frontier(const Node& root, unsigned bound, unsigned depth) const {
    std::vector<Node> level{root};
    std::vector<PatternDatabase::Scratch> scratch(pdbs_.size());
    Node child{{}, CanonicalMoves::kStart, root.position, root.h};
    for (unsigned d = 0; d < depth; ++d) {
      std::vector<Node> next;
      for (const Node& node : level)
        children(node, d, bound, scratch, child, [&](int m) {
          next.push_back(child);
          next.back().path = node.path;
          next.back().path.push_back(m);
        });
      level = std::move(next);
    }
    return level;
  }

  // Depth-first from `node` to `bound`: one node of storage a depth, the
  // moves to the current node in `path`.
  void search(const Node& node, unsigned bound, SubtreeResult& out,
              const std::atomic<bool>& abandon) const {
    std::vector<PatternDatabase::Scratch> scratch(pdbs_.size());
    std::vector<Node> stack(bound + 1, Node{{}, CanonicalMoves::kStart, node.position, node.h});
    const std::size_t g = node.path.size();
    stack[g].state = node.state;
    std::vector<int> path = node.path;
    descend(stack, path, g, bound, scratch, out, abandon);
  }

 private:
  void descend(std::vector<Node>& stack, std::vector<int>& path, std::size_t g, unsigned bound,
               std::vector<PatternDatabase::Scratch>& scratch, SubtreeResult& out,
               const std::atomic<bool>& abandon) const {
    if ((++out.nodes & 0xFFFF) == 0)
      out.interrupted |= options_.should_stop && options_.should_stop();
    if (out.interrupted || abandon.load(std::memory_order_relaxed)) return;
    if (g == bound) {
      if (stack[g].position == def_.solved) {
        ++out.count;
        if (out.solutions.size() < options_.keep) out.solutions.push_back(path);
      }
      return;
    }
    children(stack[g], static_cast<unsigned>(g), bound, scratch, stack[g + 1], [&](int m) {
      path.push_back(m);
      descend(stack, path, g + 1, bound, scratch, out, abandon);
      path.pop_back();
    });
  }

  const Definition& def_;
  const std::vector<Move>& moves_;
  CanonicalMoves canonical_;
  const std::vector<const PatternDatabase*>& pdbs_;
  const IdaOptions& options_;
};

}  // namespace

IdaResult solve_ida(const Definition& def, const std::vector<Move>& moves, const Arrangement& start,
                    const std::vector<const PatternDatabase*>& pdbs, const IdaOptions& options) {
  const Search search(def, moves, pdbs, options);
  Node root{{}, CanonicalMoves::kStart, start, {}};
  unsigned bound = 0;
  for (const PatternDatabase* pdb : pdbs) {
    PatternDatabase::Scratch s;
    root.h.push_back(pdb->distance(start, s));
    bound = std::max(bound, root.h.back());
  }
  IdaResult result;
  result.proven = bound;
  for (; bound <= options.max_depth; ++bound) {
    const std::vector<Node> subtrees = search.frontier(root, bound, std::min(bound, kSplitDepth));
    std::vector<SubtreeResult> found(subtrees.size());
    // Without counting, a subtree is abandoned once one before it in move
    // order holds a solution (its own first solution is then not needed).
    std::atomic<std::size_t> first_found{std::numeric_limits<std::size_t>::max()};
    std::vector<std::atomic<bool>> abandon(subtrees.size());
    parallel_for_chunks(subtrees.size(), 1, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i != end; ++i) {
        if (!options.count && options.keep <= 1 && first_found.load() < i) continue;
        if (options.should_stop && options.should_stop()) {
          found[i].interrupted = true;
          continue;
        }
        search.search(subtrees[i], bound, found[i], abandon[i]);
        if (found[i].count == 0 || options.count || options.keep > 1) continue;
        std::size_t seen = first_found.load();
        while (i < seen && !first_found.compare_exchange_weak(seen, i)) {
        }
        for (std::size_t j = i + 1; j < subtrees.size(); ++j) abandon[j] = true;
      }
    });
    bool searched_all = true;
    for (std::size_t i = 0; i < subtrees.size(); ++i) {
      searched_all &= !found[i].interrupted;
      result.nodes += found[i].nodes;
      result.count += found[i].count;
      for (auto& s : found[i].solutions)
        if (result.solutions.size() < options.keep) result.solutions.push_back(std::move(s));
    }
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
