// Which move may follow which in a canonical sequence.
#include "cubenum/puzzles/twisty_canonical.hpp"

#include <algorithm>
#include <deque>

namespace cubenum::twisty {

namespace {

// A generator: its first listed move (a power of which each of its moves
// is: its step), its order in those steps, and the fewest of its moves
// that make each power.
struct Generator {
  std::size_t first = 0;
  unsigned order = 1;
  std::vector<unsigned> steps;
  std::vector<unsigned> shortest;  // [power]
  std::uint32_t state = 0;         // of (this generator, power 0); power t is state + t
};

void find_shortest(Generator& g) {
  constexpr unsigned kUnreached = ~0U;
  g.shortest.assign(g.order, kUnreached);
  g.shortest[0] = 0;
  std::deque<unsigned> queue{0};
  while (!queue.empty()) {
    const unsigned t = queue.front();
    queue.pop_front();
    for (unsigned s : g.steps)
      if (const unsigned u = (t + s) % g.order; g.shortest[u] == kUnreached) {
        g.shortest[u] = g.shortest[t] + 1;
        queue.push_back(u);
      }
  }
}

bool commuting(const Definition& def, const Arrangement& a, const Arrangement& b) {
  const Arrangement id = def.identity();
  return apply(def.sets, apply(def.sets, id, a), b) == apply(def.sets, apply(def.sets, id, b), a);
}

}  // namespace

CanonicalMoves::CanonicalMoves(const Definition& def, const std::vector<Move>& moves)
    : moves_(moves.size()) {
  std::vector<Generator> gens;
  std::vector<std::size_t> gen_of(moves.size());
  std::vector<unsigned> step_of(moves.size());
  for (std::size_t m = 0; m < moves.size(); ++m) {
    auto it = std::find_if(gens.begin(), gens.end(), [&](const Generator& g) {
      return moves[g.first].base == moves[m].base;
    });
    if (it == gens.end()) it = gens.insert(gens.end(), Generator{m, moves[m].order, {}, {}, 0});
    gen_of[m] = static_cast<std::size_t>(it - gens.begin());
    step_of[m] = moves[m].power / moves[it->first].power % it->order;
    it->steps.push_back(step_of[m]);
  }
  for (Generator& g : gens) {
    find_shortest(g);
    g.state = states_;
    states_ += g.order;
  }
  commute_.assign(gens.size(), std::vector<bool>(gens.size()));
  for (std::size_t g = 0; g < gens.size(); ++g)
    for (std::size_t h = 0; h < gens.size(); ++h)
      commute_[g][h] = commuting(def, moves[gens[g].first].effect, moves[gens[h].first].effect);
  next_.assign(std::size_t{states_} * moves_, kRefused);
  for (std::size_t m = 0; m < moves_; ++m) {
    const Generator& h = gens[gen_of[m]];
    const unsigned p = step_of[m];
    next_[m] = h.state + p;  // from kStart
    for (std::size_t g = 0; g < gens.size(); ++g)
      for (unsigned t = 1; t < gens[g].order; ++t) {
        std::uint32_t& to = next_[(gens[g].state + t) * moves_ + m];
        if (g == gen_of[m]) {
          const unsigned u = (t + p) % h.order;
          if (h.shortest[u] == h.shortest[t] + 1) to = h.state + u;
        } else if (!(commute(g, gen_of[m]) && gen_of[m] < g)) {
          to = h.state + p;
        }
      }
  }
}

std::vector<std::uint64_t> CanonicalMoves::count(std::size_t max_length) const {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  const auto add = [](std::uint64_t a, std::uint64_t b) { return a > kMax - b ? kMax : a + b; };
  std::vector<std::uint64_t> by_state(states_, 0), after(states_);
  by_state[kStart] = 1;
  std::vector<std::uint64_t> counts{1};
  for (std::size_t length = 1; length <= max_length; ++length) {
    std::fill(after.begin(), after.end(), 0);
    for (std::uint32_t state = 0; state < states_; ++state)
      for (std::size_t m = 0; m < moves_; ++m)
        if (const std::uint32_t to = next(state, m); to != kRefused)
          after[to] = add(after[to], by_state[state]);
    by_state.swap(after);
    std::uint64_t total = 0;
    for (std::uint64_t c : by_state) total = add(total, c);
    counts.push_back(total);
  }
  return counts;
}

}  // namespace cubenum::twisty
