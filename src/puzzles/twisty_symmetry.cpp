// The symmetry group of a definition file's moves, found with nauty, and
// its action on positions (twisty_symmetry.hpp).
#include "cubenum/puzzles/twisty_symmetry.hpp"

#include <fmt/format.h>
#include <nauty/nausparse.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "cubenum/core/error.hpp"

namespace cubenum::twisty {

SymmetryChoice parse_symmetry_choice(const std::string& text) {
  if (text == "none") return SymmetryChoice::None;
  if (text == "rotations") return SymmetryChoice::Rotations;
  if (text == "all") return SymmetryChoice::All;
  throw InputError("--symmetry", 0,
                   fmt::format("unknown group '{}' (expected none, rotations or all)", text));
}

const char* symmetry_choice_name(SymmetryChoice choice) {
  switch (choice) {
    case SymmetryChoice::None:
      return "none";
    case SymmetryChoice::Rotations:
      return "rotations";
    case SymmetryChoice::All:
      return "all";
  }
  return "all";
}

namespace {

// The sticker graph: vertices with colours, undirected edges.
struct Graph {
  using Colour = std::tuple<int, unsigned, unsigned, unsigned>;
  std::vector<Colour> colour;
  std::vector<std::vector<int>> adjacent;

  int add(Colour c) {
    colour.push_back(c);
    adjacent.emplace_back();
    return static_cast<int>(colour.size()) - 1;
  }
  void join(int a, int b) {
    adjacent[static_cast<std::size_t>(a)].push_back(b);
    adjacent[static_cast<std::size_t>(b)].push_back(a);
  }
};

// Where each set's stickers start among the graph's first vertices.
struct Stickers {
  std::vector<int> base;
  int count = 0;
  Stickers(const std::vector<PieceSet>& sets) {
    for (const PieceSet& s : sets) {
      base.push_back(count);
      count += static_cast<int>(s.slots * s.orientations);
    }
  }
  int at(std::size_t set, unsigned slot, unsigned twist, const std::vector<PieceSet>& sets) const {
    return base[set] + static_cast<int>(slot * sets[set].orientations + twist);
  }
};

enum Kind { kSticker, kSlot, kSet, kLabel, kMove, kArcTail, kArcHead };

// Stickers first, then slots, sets, labels, moves, and per move a path
// tail - a - b - head for each sticker it moves (a also joined to the move).
Graph sticker_graph(const Definition& def, const std::vector<Move>& moves, const Stickers& st,
                    std::vector<int>& move_vertex) {
  Graph g;
  const auto& sets = def.sets;
  for (const PieceSet& s : sets)
    for (unsigned v = 0; v < s.slots * s.orientations; ++v)
      g.add({kSticker, s.slots, s.orientations, 0});
  for (std::size_t s = 0; s < sets.size(); ++s) {
    const PieceSet& set = sets[s];
    const int set_vertex = g.add({kSet, set.slots, set.orientations, 0});
    std::map<unsigned, unsigned> multiplicity;
    for (unsigned i = 0; i < set.slots; ++i) ++multiplicity[def.solved.perm[s][i]];
    std::map<unsigned, int> label_vertex;
    for (auto [label, count] : multiplicity)
      label_vertex[label] = g.add({kLabel, set.slots, set.orientations, count});
    for (unsigned i = 0; i < set.slots; ++i) {
      int slot = st.at(s, i, 0, sets);
      if (set.orientations > 1) {
        slot = g.add({kSlot, set.slots, set.orientations, 0});
        for (unsigned k = 0; k < set.orientations; ++k) {
          g.join(slot, st.at(s, i, k, sets));
          // A twist cycle: its automorphisms are k -> c + k and c - k.
          if (set.orientations >= 3 || k == 0)
            g.join(st.at(s, i, k, sets), st.at(s, i, (k + 1) % set.orientations, sets));
        }
      }
      g.join(slot, set_vertex);
      g.join(slot, label_vertex[def.solved.perm[s][i]]);
    }
  }
  for (const Move& m : moves) {
    const int mv = g.add({kMove, m.order, 0, 0});
    move_vertex.push_back(mv);
    for (std::size_t s = 0; s < sets.size(); ++s)
      for (unsigned i = 0; i < sets[s].slots; ++i)
        for (unsigned k = 0; k < sets[s].orientations; ++k) {
          const unsigned from = m.effect.perm[s][i];
          const unsigned twist = (k + m.effect.ori[s][i]) % sets[s].orientations;
          const int tail = st.at(s, from, k, sets), head = st.at(s, i, twist, sets);
          if (tail == head) continue;
          const int a = g.add({kArcTail, 0, 0, 0}), b = g.add({kArcHead, 0, 0, 0});
          g.join(tail, a);
          g.join(a, b);
          g.join(b, head);
          g.join(a, mv);
        }
  }
  return g;
}

// nauty's callback takes no user pointer: the generators go here (one
// search at a time).
std::vector<std::vector<int>>* g_generators = nullptr;

void keep_generator(int, int* perm, int*, int, int, int n) {
  g_generators->emplace_back(perm, perm + n);
}

// Generators of the graph's automorphism group, and its order.
std::vector<std::vector<int>> automorphisms(const Graph& g, double& order) {
  const int n = static_cast<int>(g.colour.size());
  std::vector<int> lab(static_cast<std::size_t>(n)), ptn(lab.size()), orbits(lab.size());
  for (int v = 0; v < n; ++v) lab[static_cast<std::size_t>(v)] = v;
  std::stable_sort(lab.begin(), lab.end(), [&](int a, int b) {
    return g.colour[static_cast<std::size_t>(a)] < g.colour[static_cast<std::size_t>(b)];
  });
  for (std::size_t i = 0; i < lab.size(); ++i)
    ptn[i] = i + 1 < lab.size() && g.colour[static_cast<std::size_t>(lab[i])] ==
                                       g.colour[static_cast<std::size_t>(lab[i + 1])]
                 ? 1
                 : 0;
  std::vector<std::size_t> v(lab.size());
  std::vector<int> d(lab.size()), e;
  for (int x = 0; x < n; ++x) {
    const auto& adj = g.adjacent[static_cast<std::size_t>(x)];
    v[static_cast<std::size_t>(x)] = e.size();
    d[static_cast<std::size_t>(x)] = static_cast<int>(adj.size());
    e.insert(e.end(), adj.begin(), adj.end());
  }
  sparsegraph sg;
  SG_INIT(sg);
  sg.nv = n;
  sg.nde = e.size();
  sg.v = v.data();
  sg.d = d.data();
  sg.e = e.data();
  sg.vlen = v.size();
  sg.dlen = d.size();
  sg.elen = e.size();
  DEFAULTOPTIONS_SPARSEGRAPH(options);
  options.defaultptn = FALSE;
  options.userautomproc = keep_generator;
  statsblk stats;
  std::vector<std::vector<int>> generators;
  g_generators = &generators;
  sparsenauty(&sg, lab.data(), ptn.data(), orbits.data(), &options, &stats, nullptr);
  g_generators = nullptr;
  order = stats.grpsize1 * std::pow(10.0, stats.grpsize2);
  return generators;
}

}  // namespace

SymmetryGroup::SymmetryGroup(const Definition& def, const std::vector<Move>& moves,
                             const SymmetryRequest& request)
    : sets_(def.sets), label_(def.solved.perm), choice_(request.choice), inverse_(request.inverse) {
  for (std::size_t s = 0; s < sets_.size(); ++s) {
    home_.emplace_back(256, std::uint8_t{0});
    for (unsigned i = sets_[s].slots; i-- > 0;)
      home_[s][label_[s][i]] = static_cast<std::uint8_t>(i);
  }
  if (inverse_)
    for (std::size_t s = 0; s < sets_.size(); ++s)
      if (std::set<std::uint8_t>(label_[s].begin(), label_[s].end()).size() != sets_[s].slots)
        throw InputError("--inverse", 0,
                         fmt::format("set {} has identical pieces: a position's inverse is "
                                     "defined for distinct pieces only",
                                     sets_[s].name));
  find(def, moves, request.max_order);
  if (choice_ == SymmetryChoice::None) elements_.resize(1);
  if (choice_ == SymmetryChoice::Rotations)
    std::erase_if(elements_, [](const Symmetry& s) { return s.reflection; });
}

std::size_t SymmetryGroup::reflections() const {
  return static_cast<std::size_t>(std::count_if(elements_.begin(), elements_.end(),
                                                [](const Symmetry& s) { return s.reflection; }));
}

namespace {

// A group element on the stickers and the moves: perm[v] for the first
// `stickers` vertices, then the moves.
using Element = std::vector<int>;

Element compose(const Element& a, const Element& b) {  // a after b
  Element r(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) r[i] = a[static_cast<std::size_t>(b[i])];
  return r;
}

// All elements generated by `generators` (identity first); false when
// there are more than `max_order`.
bool close(const std::vector<Element>& generators, std::size_t size, std::size_t max_order,
           std::vector<Element>& out) {
  Element id(size);
  for (std::size_t i = 0; i < size; ++i) id[i] = static_cast<int>(i);
  std::set<Element> seen{id};
  out = {id};
  for (std::size_t next = 0; next < out.size(); ++next)
    for (const Element& g : generators) {
      Element e = compose(g, out[next]);
      if (seen.insert(e).second) {
        if (out.size() == max_order) return false;
        out.push_back(std::move(e));
      }
    }
  return true;
}

// What a symmetry does to positions: S m S^-1 is the move it names for
// every move m, and S solved S^-1 is solved (it maps kinds of pieces to
// kinds), so S (solved g) S^-1 = solved (S g S^-1) for every product g of
// moves: two symmetries that name the same moves act alike on every
// position the moves reach, however their maps of stickers differ (a twist
// common to a whole orbit, two slots no move touches exchanged, a reversal
// that the twists' ties to positions hide).
std::string action_key(const Symmetry& s) {
  std::string key;
  for (int m : s.move_to) key += std::to_string(m) + ',';
  return key;
}

}  // namespace

void SymmetryGroup::find(const Definition& def, const std::vector<Move>& moves,
                         std::size_t max_order) {
  Symmetry identity;
  for (std::size_t s = 0; s < sets_.size(); ++s) {
    identity.set_to.push_back(static_cast<std::uint8_t>(s));
    std::vector<std::uint8_t> slots(sets_[s].slots);
    for (unsigned i = 0; i < sets_[s].slots; ++i) slots[i] = static_cast<std::uint8_t>(i);
    identity.slot_to.push_back(slots);
    identity.offset.emplace_back(sets_[s].slots, std::uint8_t{0});
  }
  for (std::size_t m = 0; m < moves.size(); ++m) identity.move_to.push_back(static_cast<int>(m));
  elements_ = {identity};
  for (const auto& twists : def.solved.ori)
    if (std::any_of(twists.begin(), twists.end(), [](std::uint8_t t) { return t != 0; })) {
      why_trivial_ = "the solved position twists pieces";
      return;
    }

  const Stickers st(sets_);
  std::vector<int> move_vertex;
  const Graph graph = sticker_graph(def, moves, st, move_vertex);
  double graph_order = 1;
  const std::vector<std::vector<int>> generators = automorphisms(graph, graph_order);
  // Each generator on the stickers and the moves (numbered after them).
  std::map<int, int> move_index;
  for (std::size_t m = 0; m < move_vertex.size(); ++m)
    move_index[move_vertex[m]] = static_cast<int>(m);
  const std::size_t size = static_cast<std::size_t>(st.count) + moves.size();
  std::vector<Element> gens;
  for (const auto& perm : generators) {
    Element e(perm.begin(), perm.begin() + st.count);
    for (int mv : move_vertex)
      e.push_back(st.count + move_index.at(perm[static_cast<std::size_t>(mv)]));
    gens.push_back(std::move(e));
  }
  std::vector<Element> all;
  if (!close(gens, size, max_order, all))
    throw InputError(def.file, 0,
                     fmt::format("the moves' symmetry group has {:.4g} elements, more than "
                                 "the {} that can be enumerated (use --symmetry none)",
                                 graph_order, max_order));
  const bool turns =
      std::any_of(moves.begin(), moves.end(), [](const Move& m) { return m.order > 2; });
  elements_.clear();
  std::set<std::string> acts;
  for (const Element& e : all) {
    Symmetry s;
    bool valid = true;
    int direction = 0;  // +1 or -1 once a set with three or more twists says
    for (std::size_t set = 0; set < sets_.size() && valid; ++set) {
      const unsigned n = sets_[set].orientations;
      std::vector<std::uint8_t> to(sets_[set].slots), offset(sets_[set].slots);
      for (unsigned i = 0; i < sets_[set].slots; ++i) {
        const int image = e[static_cast<std::size_t>(st.at(set, i, 0, sets_))];
        const auto target = static_cast<std::size_t>(
            std::upper_bound(st.base.begin(), st.base.end(), image) - st.base.begin() - 1);
        const int within = image - st.base[target];
        if (i == 0) s.set_to.push_back(static_cast<std::uint8_t>(target));
        to[i] = static_cast<std::uint8_t>(within / static_cast<int>(n));
        offset[i] = static_cast<std::uint8_t>(within % static_cast<int>(n));
        if (n >= 3) {
          const int next = e[static_cast<std::size_t>(st.at(set, i, 1, sets_))] - st.base[target];
          const int step = ((next % static_cast<int>(n)) - offset[i] + static_cast<int>(n)) %
                           static_cast<int>(n);
          const int d = step == 1 ? 1 : -1;
          if (direction != 0 && d != direction) valid = false;
          direction = d;
        }
      }
      // Identical pieces must agree on the offset of their homes: else a
      // position's image would depend on which of them is which.
      if (n > 1)
        for (unsigned i = 0; i < sets_[set].slots; ++i)
          if (offset[i] != offset[home_[set][label_[set][i]]]) valid = false;
      s.slot_to.push_back(std::move(to));
      s.offset.push_back(std::move(offset));
    }
    if (!valid) continue;
    s.reverses = direction < 0;
    for (std::size_t m = 0; m < moves.size(); ++m)
      s.move_to.push_back(e[static_cast<std::size_t>(st.count) + m] - st.count);
    // A mirror turns a move's first power into a move's last (R into L'),
    // or, where every move is a half turn, reverses twists.
    for (std::size_t m = 0; m < moves.size(); ++m) {
      const Move& to = moves[static_cast<std::size_t>(s.move_to[m])];
      if (moves[m].power == 1 && moves[m].order > 2 && to.power + 1 == to.order)
        s.reflection = true;
    }
    if (!turns) s.reflection = s.reverses;
    if (const auto turn = as_position(s)) turn_candidates_.push_back(*turn);
    if (!acts.insert(action_key(s)).second) continue;
    elements_.push_back(std::move(s));
  }
  if (elements_.size() == 1 && why_trivial_.empty()) why_trivial_ = "the moves have no symmetry";
  close_rotations();
}

// The rotations are the subgroup that the elements turning no move into an
// inverse generate (on a board whose moves shift rows, a half turn of the
// board reverses every shift, and the product of two mirrors is one): the
// rest are the reflections, a coset.
void SymmetryGroup::close_rotations() {
  std::map<std::vector<int>, std::size_t> index;
  for (std::size_t k = 0; k < elements_.size(); ++k) index[elements_[k].move_to] = k;
  std::vector<bool> rotation(elements_.size(), false);
  std::vector<std::size_t> found{0};
  rotation[0] = true;
  for (std::size_t next = 0; next < found.size(); ++next)
    for (std::size_t g = 0; g < elements_.size(); ++g) {
      if (elements_[g].reflection) continue;
      std::vector<int> product(elements_[g].move_to.size());
      for (std::size_t m = 0; m < product.size(); ++m)
        product[m] =
            elements_[g].move_to[static_cast<std::size_t>(elements_[found[next]].move_to[m])];
      const std::size_t k = index.at(product);
      if (!rotation[k]) {
        rotation[k] = true;
        found.push_back(k);
      }
    }
  for (std::size_t k = 0; k < elements_.size(); ++k) elements_[k].reflection = !rotation[k];
}

// The sticker map as a move's effect, where it is one that turns the whole
// puzzle: no mirror, pieces stay in their sets, twists keep their direction.
std::optional<Arrangement> SymmetryGroup::as_position(const Symmetry& s) const {
  if (s.reverses || s.reflection) return std::nullopt;
  Arrangement a;
  for (std::size_t set = 0; set < sets_.size(); ++set) {
    if (s.set_to[set] != set) return std::nullopt;
    std::vector<std::uint8_t> perm(sets_[set].slots), ori(sets_[set].slots);
    for (unsigned h = 0; h < sets_[set].slots; ++h) {
      perm[s.slot_to[set][h]] = static_cast<std::uint8_t>(h);
      ori[s.slot_to[set][h]] = s.offset[set][h];
    }
    a.perm.push_back(std::move(perm));
    a.ori.push_back(std::move(ori));
  }
  return a;
}

void SymmetryGroup::conjugate(std::size_t k, const Arrangement& x, Arrangement& out) const {
  const Symmetry& s = elements_[k];
  for (std::size_t set = 0; set < sets_.size(); ++set) {
    const std::size_t target = s.set_to[set];
    const unsigned n = sets_[set].orientations;
    const auto& to = s.slot_to[set];
    const auto& offset = s.offset[set];
    for (unsigned i = 0; i < sets_[set].slots; ++i) {
      const unsigned home = home_[set][x.perm[set][i]];
      out.perm[target][to[i]] = label_[target][to[home]];
      // Below 3n: two subtractions instead of a division.
      unsigned twist =
          offset[i] + n - offset[home] + (s.reverses ? n - x.ori[set][i] : x.ori[set][i]);
      if (twist >= n) twist -= n;
      if (twist >= n) twist -= n;
      out.ori[target][to[i]] = static_cast<std::uint8_t>(twist);
    }
  }
}

void SymmetryGroup::invert(const Arrangement& x, Arrangement& out) const {
  for (std::size_t set = 0; set < sets_.size(); ++set) {
    const unsigned n = sets_[set].orientations;
    for (unsigned i = 0; i < sets_[set].slots; ++i) {
      const unsigned home = home_[set][x.perm[set][i]];
      out.perm[set][home] = label_[set][i];
      out.ori[set][home] = static_cast<std::uint8_t>((n - x.ori[set][i]) % n);
    }
  }
}

std::string describe(const Symmetry& s, const std::vector<Move>& moves) {
  std::string text;
  for (std::size_t m = 0; m < moves.size(); ++m) {
    if (moves[m].power != 1) continue;
    if (!text.empty()) text += ' ';
    text += moves[m].name + "->" + moves[static_cast<std::size_t>(s.move_to[m])].name;
  }
  return text;
}

}  // namespace cubenum::twisty
