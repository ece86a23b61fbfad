// Symmetries of definition files (puzzles/twisty_symmetry.hpp) and classes
// by depth. The oracles here share nothing with the code under test but the
// Symmetry records: positions and symmetries are composed as maps of
// stickers, the BFS runs over whole positions in a std::map, and orbits are
// found by listing every image.
#include "cubenum/puzzles/twisty_symmetry.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <queue>
#include <random>
#include <set>
#include <sstream>

#include "cubenum/core/checkpoint.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/twisty_class_space.hpp"
#include "cubenum/puzzles/twisty_search.hpp"
#include "cubenum/report/json.hpp"
#include "run_cubenum.hpp"

namespace cubenum::twisty {
namespace {

using testing::run_cubenum;

std::string data_file(const std::string& name) {
  return std::string(CUBENUM_DATA_DIR) + "/twisty/" + name;
}

using Sticker = std::tuple<unsigned, unsigned, unsigned>;  // set, slot, twist

// Positions and symmetries as maps of stickers.
struct StickerMaps {
  const Definition& def;

  // Identical pieces: the j-th of a kind (in slot order) is taken for the
  // one solved in the j-th slot of that kind.
  std::map<Sticker, Sticker> of_position(const Arrangement& x) const {
    std::map<Sticker, Sticker> m;
    for (unsigned s = 0; s < def.sets.size(); ++s) {
      const unsigned n = def.sets[s].orientations;
      std::map<unsigned, unsigned> taken;
      for (unsigned i = 0; i < def.sets[s].slots; ++i) {
        const unsigned label = x.perm[s][i];
        const unsigned h = nth_home(s, label, taken[label]++);
        for (unsigned k = 0; k < n; ++k) m[{s, h, k}] = {s, i, (k + x.ori[s][i]) % n};
      }
    }
    return m;
  }
  unsigned nth_home(unsigned set, unsigned label, unsigned j) const {
    for (unsigned h = 0; h < def.sets[set].slots; ++h)
      if (def.solved.perm[set][h] == label && j-- == 0) return h;
    throw std::logic_error("more pieces of a kind than solved");
  }
  std::map<Sticker, Sticker> of_symmetry(const Symmetry& sym) const {
    std::map<Sticker, Sticker> m;
    for (unsigned s = 0; s < def.sets.size(); ++s) {
      const unsigned n = def.sets[s].orientations;
      for (unsigned i = 0; i < def.sets[s].slots; ++i)
        for (unsigned k = 0; k < n; ++k)
          m[{s, i, k}] = {sym.set_to[s], sym.slot_to[s][i],
                          (sym.offset[s][i] + (sym.reverses ? n - k : k)) % n};
    }
    return m;
  }
  Arrangement to_position(const std::map<Sticker, Sticker>& m) const {
    Arrangement a = def.solved;
    for (unsigned s = 0; s < def.sets.size(); ++s)
      for (unsigned h = 0; h < def.sets[s].slots; ++h) {
        const auto [set, slot, twist] = m.at({s, h, 0});
        a.perm[set][slot] = def.solved.perm[s][h];
        a.ori[set][slot] = static_cast<std::uint8_t>(twist);
      }
    return a;
  }
  // S x S^-1.
  Arrangement conjugate(const Symmetry& sym, const Arrangement& x) const {
    return conjugate(of_symmetry(sym), x);
  }
  Arrangement conjugate(const std::map<Sticker, Sticker>& s, const Arrangement& x) const {
    const auto p = of_position(x);
    std::map<Sticker, Sticker> result;  // result(S(q)) = S(x(q))
    for (const auto& [from, to] : s) result[to] = s.at(p.at(from));
    return to_position(result);
  }
  Arrangement invert(const Arrangement& x) const {
    std::map<Sticker, Sticker> inverse;
    for (const auto& [from, to] : of_position(x)) inverse[to] = from;
    return to_position(inverse);
  }
};

bool less(const Arrangement& a, const Arrangement& b) {
  return std::tie(a.perm, a.ori) < std::tie(b.perm, b.ori);
}
using Positions = std::set<Arrangement, decltype(&less)>;

// Every reachable position by depth, by a BFS over whole positions from
// `starts` (default: solved).
std::vector<Positions> levels_of(const Definition& def, const std::vector<Move>& moves,
                                 const std::vector<Arrangement>& starts = {}) {
  std::vector<Positions> levels{Positions(&less)};
  if (starts.empty()) levels[0].insert(def.solved);
  levels[0].insert(starts.begin(), starts.end());
  Positions seen = levels[0];
  while (true) {
    Positions next(&less);
    for (const Arrangement& a : levels.back())
      for (const Move& m : moves) {
        Arrangement b = apply(def.sets, a, m.effect);
        if (seen.insert(b).second) next.insert(std::move(b));
      }
    if (next.empty()) return levels;
    levels.push_back(std::move(next));
  }
}

// Classes by listing orbits: each position not yet met starts a class, and
// every image of it (under the symmetries, then each whole-puzzle turn; of
// its inverse too, with `inverse`) is met, each checked to lie at the
// same level.
std::vector<std::uint64_t> naive_classes(const Definition& def, const SymmetryGroup& group,
                                         const std::vector<Positions>& levels, bool inverse,
                                         const std::vector<Arrangement>& turns = {}) {
  const StickerMaps maps{def};
  std::vector<std::map<Sticker, Sticker>> symmetries;
  for (const Symmetry& s : group.elements()) symmetries.push_back(maps.of_symmetry(s));
  std::vector<std::uint64_t> classes;
  for (const Positions& level : levels) {
    Positions met(&less);
    std::uint64_t count = 0;
    for (const Arrangement& x : level) {
      if (met.count(x) != 0) continue;
      ++count;
      std::vector<Arrangement> sources{x};
      if (inverse) sources.push_back(maps.invert(x));
      const auto meet = [&](const Arrangement& image) {
        EXPECT_TRUE(level.count(image) == 1) << "an image at another depth";
        met.insert(image);
      };
      for (const Arrangement& source : sources)
        for (const auto& s : symmetries) {
          const Arrangement image = maps.conjugate(s, source);
          meet(image);
          for (const Arrangement& turn : turns) meet(apply(def.sets, image, turn));
        }
    }
    EXPECT_EQ(met.size(), level.size());
    classes.push_back(count);
  }
  return classes;
}

struct Puzzle {
  std::string name;
  Definition def;
  std::vector<Move> moves;
  // R's twists parts that a class's C shifts under conjugation (the tiles'
  // twists tied to their cells; the pocket cube's corner twists, whose
  // offsets differ from corner to corner under the mirrors).
  std::size_t twist_shifts = 0;
};

std::vector<Puzzle> small_puzzles() {
  std::vector<Puzzle> puzzles;
  const Definition tiles = load_definition(data_file("tiles-2x3.tws"));
  puzzles.push_back({"tiles-2x3", tiles, expand_moves(tiles, {}), 1});
  const Definition pocket = load_definition(data_file("pocket-cube.tws"));
  puzzles.push_back({"pocket-cube U,R", pocket, expand_moves(pocket, {{"U", "R"}, false}), 1});
  puzzles.push_back(
      {"pocket-cube U,R quarter", pocket, expand_moves(pocket, {{"U", "R"}, true}), 1});
  return puzzles;
}

Arrangement random_position(const Definition& def, const std::vector<Move>& moves,
                            std::mt19937& rng) {
  Arrangement a = def.solved;
  for (int i = 0; i < 30; ++i) a = apply(def.sets, a, moves[rng() % moves.size()].effect);
  return a;
}

// The cube's symmetry group has 48 elements, 24 of them mirrors (the full
// octahedral group); every face turn of the 2x2x2 goes to a face turn.
TEST(TwistySymmetry, PocketCubeHasTheCubesFortyEight) {
  const Definition def = load_definition(data_file("pocket-cube.tws"));
  const auto moves = expand_moves(def, {});
  const SymmetryGroup all(def, moves, {});
  EXPECT_EQ(all.order(), 48u);
  EXPECT_EQ(all.reflections(), 24u);
  const SymmetryGroup rotations(def, moves, {SymmetryChoice::Rotations});
  EXPECT_EQ(rotations.order(), 24u);
  EXPECT_EQ(rotations.reflections(), 0u);
  EXPECT_EQ(SymmetryGroup(def, moves, {SymmetryChoice::None}).order(), 1u);
  // U and R alone: the symmetries that keep the edge between them, a half
  // turn about it and two mirrors (U -> R', and U -> U').
  const SymmetryGroup two(def, expand_moves(def, {{"U", "R"}, false}), {});
  EXPECT_EQ(two.order(), 4u);
  EXPECT_EQ(two.reflections(), 2u);
}

// Each symmetry conjugates every move to the move it names, conjugation
// agrees with composing sticker maps, and the elements form a group (on
// positions: every product acts as some element).
TEST(TwistySymmetry, GroupLawsAndConjugationAgreeWithStickerMaps) {
  std::mt19937 rng(7);
  for (const Puzzle& p : small_puzzles())
    for (SymmetryChoice choice : {SymmetryChoice::All, SymmetryChoice::Rotations}) {
      SCOPED_TRACE(p.name + " " + symmetry_choice_name(choice));
      const SymmetryGroup group(p.def, p.moves, {choice, true});
      const StickerMaps maps{p.def};
      ASSERT_GT(group.order(), 1u);
      for (const Symmetry& s : group.elements())
        for (std::size_t m = 0; m < p.moves.size(); ++m) {
          const Arrangement moved = apply(p.def.sets, p.def.solved, p.moves[m].effect);
          const Arrangement to = apply(p.def.sets, p.def.solved,
                                       p.moves[static_cast<std::size_t>(s.move_to[m])].effect);
          EXPECT_EQ(maps.conjugate(s, moved), to);
        }
      std::vector<Arrangement> samples;
      for (int i = 0; i < 4; ++i) samples.push_back(random_position(p.def, p.moves, rng));
      auto key = [](const std::vector<Arrangement>& xs) {
        std::string bytes;
        for (const Arrangement& x : xs)
          for (std::size_t set = 0; set < x.perm.size(); ++set) {
            bytes.append(x.perm[set].begin(), x.perm[set].end());
            bytes.append(x.ori[set].begin(), x.ori[set].end());
          }
        return bytes;
      };
      auto images = [&](std::size_t k, const std::vector<Arrangement>& xs) {
        std::vector<Arrangement> out;
        for (const Arrangement& x : xs) {
          Arrangement y = x;
          group.conjugate(k, x, y);
          EXPECT_EQ(y, maps.conjugate(group.elements()[k], x));
          out.push_back(y);
        }
        return out;
      };
      std::set<std::string> actions;
      for (std::size_t k = 0; k < group.order(); ++k) actions.insert(key(images(k, samples)));
      EXPECT_EQ(actions.size(), group.order()) << "two elements act alike";
      for (std::size_t a = 0; a < group.order(); ++a)
        for (std::size_t b = 0; b < group.order(); ++b)
          EXPECT_EQ(actions.count(key(images(a, images(b, samples)))), 1u);
      for (const Arrangement& x : samples) {
        Arrangement y = x;
        group.invert(x, y);
        EXPECT_EQ(y, maps.invert(x));
        EXPECT_EQ(apply(p.def.sets, x, y), p.def.solved) << "x then x^-1";
      }
    }
}

// Classes by depth from the BFS against listing every orbit; Burnside's
// lemma per depth; the orbits of the classes adding up to the positions.
TEST(TwistySymmetry, ClassesByDepthAgreeWithListedOrbitsAndBurnside) {
  for (const Puzzle& p : small_puzzles()) {
    SCOPED_TRACE(p.name);
    const SymmetryGroup group(p.def, p.moves, {SymmetryChoice::All, true});
    const TwistySpace space(p.def, p.moves);
    const ClassGroup up_to{&group, {}};
    EnumerateOptions options;
    options.classes_of = &up_to;
    const Enumeration e = enumerate(space, options);
    const std::vector<Positions> levels = levels_of(p.def, p.moves);
    const auto classes = naive_classes(p.def, group, levels, false);
    const auto with_inverse = naive_classes(p.def, group, levels, true);
    ASSERT_EQ(e.classes.size(), levels.size());
    for (std::size_t d = 0; d < levels.size(); ++d) {
      SCOPED_TRACE(d);
      EXPECT_EQ(e.classes[d].classes, classes[d]);
      EXPECT_EQ(e.classes[d].with_inverse, with_inverse[d]);
      std::uint64_t fixed = 0, orbit_sizes = 0;
      for (const Arrangement& x : levels[d]) {
        std::uint64_t stabiliser = 0;
        for (std::size_t k = 0; k < group.order(); ++k) {
          Arrangement y = x;
          group.conjugate(k, x, y);
          stabiliser += y == x ? 1 : 0;
        }
        fixed += stabiliser;
        if (least_of_class(space, up_to, space.rank(x)).classes == 1)
          orbit_sizes += group.order() / stabiliser;
      }
      EXPECT_EQ(fixed, classes[d] * group.order()) << "Burnside";
      EXPECT_EQ(orbit_sizes, levels[d].size());
    }
  }
}

// Identical pieces: a symmetry maps kinds to kinds; inversion is refused.
TEST(TwistySymmetry, IdenticalPiecesAreMappedByKindAndHaveNoInverse) {
  std::istringstream in(R"(Name Pairs
Set TILE 6 4
Solved
TILE
1 1 2 2 3 3
End
Move L
TILE
4 1 3 5 2 6
1 1 0 1 1 0
End
Move R
TILE
1 5 2 4 6 3
0 1 1 0 1 1
End
)");
  const Definition def = parse_definition(in, "pairs.tws");
  const auto moves = expand_moves(def, {});
  const SymmetryGroup group(def, moves, {});
  const TwistySpace space(def, moves);
  const ClassGroup up_to{&group, {}};
  EnumerateOptions options;
  options.classes_of = &up_to;
  const Enumeration e = enumerate(space, options);
  const auto classes = naive_classes(def, group, levels_of(def, moves), false);
  ASSERT_EQ(e.classes.size(), classes.size());
  for (std::size_t d = 0; d < classes.size(); ++d) EXPECT_EQ(e.classes[d].classes, classes[d]);
  EXPECT_THROW(SymmetryGroup(def, moves, {SymmetryChoice::All, true}), InputError);
}

// The 2x2x2's corners without their twists: 8! arrangements, of which the
// moves make 24 whole-cube turns (U D', R L', F B' and their products).
// Classes up to symmetry and turns against listing orbits; the BFS from
// every turn against the levels of a BFS over whole positions whose
// positions are counted once for all their turns.
TEST(TwistySymmetry, WholePuzzleTurnsAreFoundAndCountedOnce) {
  Definition def = load_definition(data_file("pocket-cube.tws"));
  def.sets[0].orientations = 1;
  for (MoveDef& m : def.moves) std::fill(m.effect.ori[0].begin(), m.effect.ori[0].end(), 0);
  std::fill(def.solved.ori[0].begin(), def.solved.ori[0].end(), 0);
  const auto moves = expand_moves(def, {});
  const SymmetryGroup group(def, moves, {SymmetryChoice::All, true});
  const TwistySpace space(def, moves);
  const ClassGroup up_to{&group, whole_turns(space, group)};
  ASSERT_EQ(up_to.turns.size(), 24u);
  EnumerateOptions options;
  options.classes_of = &up_to;
  for (const Arrangement& t : up_to.turns)
    options.sources.push_back(space.rank(apply(def.sets, def.solved, t)));
  const Enumeration e = enumerate(space, options);
  // Depth from the nearest turn of solved: a BFS over whole positions from
  // all of them at once.
  std::vector<Arrangement> turned;
  for (const Arrangement& t : up_to.turns) turned.push_back(apply(def.sets, def.solved, t));
  const std::vector<Positions> levels = levels_of(def, moves, turned);
  const auto classes = naive_classes(def, group, levels, false, up_to.turns);
  const auto with_inverse = naive_classes(def, group, levels, true, up_to.turns);
  ASSERT_EQ(e.classes.size(), levels.size());
  std::uint64_t total = 0;
  for (std::size_t d = 0; d < levels.size(); ++d) {
    EXPECT_EQ(e.bfs.levels[d].states, levels[d].size());
    EXPECT_EQ(levels[d].size() % 24, 0u);
    EXPECT_EQ(e.classes[d].classes, classes[d]);
    total += levels[d].size() / 24;
  }
  EXPECT_EQ(total, 40320u / 24);
  // Over classes of the transforms x -> S x S^-1 t (48 x 24), by table and
  // through positions: positions up to turns and classes by depth, and up
  // to inversion (the turns are symmetries, so x t's inverse t^-1 x^-1 is
  // (t^-1 x^-1 t) t^-1, a transform of x^-1).
  const SymCoordinate split = choose_sym_coordinate(space, group, up_to.turns.size());
  ASSERT_FALSE(split.parts.empty()) << split.text;
  for (NeighbourMethod method : {NeighbourMethod::ByTable, NeighbourMethod::ThroughPositions}) {
    const ClassSpace over(space, group, split, {up_to.turns, method, {}, {}});
    EXPECT_EQ(over.table_driven(), method == NeighbourMethod::ByTable);
    ClassBfsOptions inverse;
    inverse.inverse = true;
    const ClassEnumeration c = enumerate_classes(over, inverse, this_cluster());
    ASSERT_EQ(c.positions.size(), levels.size());
    for (std::size_t d = 0; d < levels.size(); ++d) {
      EXPECT_EQ(c.positions[d], levels[d].size() / 24);
      EXPECT_EQ(c.classes[d].classes, classes[d]);
      EXPECT_EQ(c.classes[d].with_inverse, with_inverse[d]);
    }
  }
}

// The 2x2x2's corners without twists: 8! positions, every symmetry of the cube.
Puzzle corner_permutations() {
  Definition def = load_definition(data_file("pocket-cube.tws"));
  def.sets[0].orientations = 1;
  for (MoveDef& m : def.moves) std::fill(m.effect.ori[0].begin(), m.effect.ori[0].end(), 0);
  std::fill(def.solved.ori[0].begin(), def.solved.ori[0].end(), 0);
  return {"corner permutations", def, expand_moves(def, {})};
}

// The classes up to inversion by depth: by listing orbits where that is
// quick, else those the raw BFS counts (checked against listed orbits by
// ClassesByDepthAgreeWithListedOrbitsAndBurnside).
std::vector<std::uint64_t> classes_with_inverse(const Puzzle& p, const SymmetryGroup& group,
                                                const TwistySpace& space,
                                                const std::vector<Positions>& levels) {
  if (space.size() < 40320) return naive_classes(p.def, group, levels, true);
  std::vector<std::uint64_t> with_inverse;
  const ClassGroup up_to{&group, {}};
  EnumerateOptions raw;
  raw.classes_of = &up_to;
  for (const LevelClasses& c : enumerate(space, raw).classes)
    with_inverse.push_back(c.with_inverse);
  return with_inverse;
}

// The BFS over `classes` against the levels of positions and the classes
// (up to inversion too) listed by depth, with one thread and two, with
// three bitmaps and two bits an index.
void expect_class_bfs_agrees(const ClassSpace& classes, const std::vector<Positions>& levels,
                             const std::vector<std::uint64_t>& expected,
                             const std::vector<std::uint64_t>& with_inverse) {
  // The row engine where the space has its rows (ClassRows: pushing,
  // pulling, or either as its cost model says), and the frontier engine on
  // its indices.
  using bfs::DirectionPolicy;
  std::vector<std::pair<bool, DirectionPolicy>> engines = {{false, DirectionPolicy::Auto}};
  if (ClassRows::of(classes))
    for (DirectionPolicy policy :
         {DirectionPolicy::Auto, DirectionPolicy::TopDown, DirectionPolicy::BottomUp})
      engines.emplace_back(true, policy);
  for (int threads : {1, 2})
    for (const auto& [rows, policy] : engines)
      for (int mode = 0; mode < 3; ++mode) {
        const bool two_bit = mode == 1, inverse = mode == 2;
        SCOPED_TRACE(::testing::Message()
                     << threads << " threads, two bits " << two_bit << ", inverse " << inverse
                     << ", by table " << classes.table_driven() << ", rows " << rows << ", policy "
                     << static_cast<int>(policy));
        ThreadLimit limit(threads);
        ClassBfsOptions options;
        options.two_bit = two_bit;
        options.inverse = inverse;
        options.rows = rows;
        options.policy = policy;
        const ClassEnumeration e = enumerate_classes(classes, options, this_cluster());
        ASSERT_EQ(e.positions.size(), levels.size());
        for (std::size_t d = 0; d < levels.size(); ++d) {
          SCOPED_TRACE(d);
          EXPECT_EQ(e.positions[d], levels[d].size());
          EXPECT_EQ(e.classes[d].classes, expected[d]);
          EXPECT_EQ(e.bfs.levels[d].states, expected[d]);
          if (inverse) {
            EXPECT_EQ(e.classes[d].with_inverse, with_inverse[d]);
          }
        }
      }
}

// The BFS over classes (twisty_class_space.hpp) against the listed orbits:
// positions, classes and classes up to inversion by depth, the same with
// one thread and with two.
TEST(TwistyClassBfs, AgreesWithListedOrbits) {
  std::vector<Puzzle> puzzles = small_puzzles();
  puzzles.push_back(corner_permutations());
  for (const Puzzle& p : puzzles) {
    SCOPED_TRACE(p.name);
    const SymmetryGroup group(p.def, p.moves, {SymmetryChoice::All, true});
    const TwistySpace space(p.def, p.moves);
    const SymCoordinate split = choose_sym_coordinate(space, group);
    ASSERT_FALSE(split.parts.empty()) << split.text;
    const ClassSpace classes(space, group, split, {{}, NeighbourMethod::ByTable, false, {}});
    const ClassSpace moved_then(space, group, split, {{}, NeighbourMethod::ByTable, true, {}});
    const ClassSpace through_positions(space, group, split,
                                       {{}, NeighbourMethod::ThroughPositions, {}, {}});
    EXPECT_TRUE(classes.table_driven());
    EXPECT_FALSE(classes.moves_then_conjugates());
    // R moved then conjugated by one table, where R is one block (not
    // where C is blocks of an orbit: corner permutations).
    EXPECT_EQ(moved_then.moves_then_conjugates(), !split.piece_blocks.has_value());
    // The row engine's rows, where that table is R's whole action.
    EXPECT_EQ(ClassRows::of(moved_then) != nullptr, !split.piece_blocks.has_value());
    EXPECT_FALSE(through_positions.table_driven());
    EXPECT_EQ(classes.twist_shifts(), p.twist_shifts);
    // C's images and the shifts come from its kinds (the tables by kinds,
    // checked here against positions).
    EXPECT_TRUE(classes.acts_on_kinds());
    EXPECT_LT(classes.size(), space.size());
    const std::vector<Positions> levels = levels_of(p.def, p.moves);
    const auto expected = naive_classes(p.def, group, levels, false);
    const auto with_inverse = classes_with_inverse(p, group, space, levels);
    for (const ClassSpace* space_of_classes : {&classes, &moved_then, &through_positions})
      expect_class_bfs_agrees(*space_of_classes, levels, expected, with_inverse);
  }
}

// The row engine's run over classes stopped after each level in turn (a
// checkpoint at every level) and resumed: the classes and positions of the
// levels done travel with the checkpoint, and the run ends with the
// uninterrupted run's counts.
TEST(TwistyClassBfs, RowsResumedAfterAnyLevelEndAsTheUninterruptedRun) {
  const Puzzle p = small_puzzles().front();  // tiles-2x3
  const SymmetryGroup group(p.def, p.moves, {SymmetryChoice::All, true});
  const TwistySpace space(p.def, p.moves);
  const ClassSpace classes(space, group, choose_sym_coordinate(space, group),
                           {{}, NeighbourMethod::ByTable, true, {}});
  ASSERT_NE(ClassRows::of(classes), nullptr);
  ClassBfsOptions options;
  options.inverse = true;
  const ClassEnumeration whole = enumerate_classes(classes, options, this_cluster());
  const auto counts = [](const ClassEnumeration& e) {
    std::vector<std::array<std::uint64_t, 3>> c;
    for (std::size_t d = 0; d < e.positions.size(); ++d)
      c.push_back({e.positions[d], e.classes[d].classes, e.classes[d].with_inverse});
    return c;
  };
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("cubenum-class-rows-" + std::to_string(::getpid()));
  for (std::size_t stop = 1; stop + 1 < whole.positions.size(); ++stop) {
    SCOPED_TRACE(stop);
    std::filesystem::remove_all(dir);
    const CheckpointJson identity = {{"test", "class rows"}};
    CheckpointWriter writer(dir.string(), identity, "--checkpoint");
    ClassBfsOptions first = options;
    first.checkpoint = &writer;
    first.checkpoint_every = 0;
    std::size_t asked = 0;
    first.should_stop = [&] { return ++asked == stop; };
    const ClassEnumeration part = enumerate_classes(classes, first, this_cluster());
    EXPECT_TRUE(part.bfs.stopped);
    const CheckpointReader reader(dir.string(), identity);
    ClassBfsOptions rest = options;
    rest.resume = &reader;
    const ClassEnumeration resumed = enumerate_classes(classes, rest, this_cluster());
    EXPECT_FALSE(resumed.bfs.stopped);
    EXPECT_EQ(counts(resumed), counts(whole));
  }
  // A checkpoint of one engine is refused by the other (a run saved by a
  // program that searched these classes the other way).
  for (const bool saved_by_rows : {true, false}) {
    SCOPED_TRACE(saved_by_rows);
    std::filesystem::remove_all(dir);
    const CheckpointJson identity = {{"test", "class rows"}};
    CheckpointWriter writer(dir.string(), identity, "--checkpoint");
    ClassBfsOptions first = options;
    first.rows = saved_by_rows;
    first.checkpoint = &writer;
    first.checkpoint_every = 0;
    first.should_stop = [] { return true; };
    enumerate_classes(classes, first, this_cluster());
    const CheckpointReader reader(dir.string(), identity);
    ClassBfsOptions rest = options;
    rest.rows = !saved_by_rows;
    rest.resume = &reader;
    EXPECT_THROW(enumerate_classes(classes, rest, this_cluster()), InputError);
  }
  std::filesystem::remove_all(dir);
}

// A tetrahedron's six edges, each corner's move a three-cycle of the edges
// that meet there (edges AB AC AD BC BD CD): the even permutations, 360.
Puzzle tetrahedron_edges() {
  std::istringstream in(R"(Name TetrahedronEdges
Set EDGE 6 1
Solved
EDGE
1 2 3 4 5 6
End
Move A
EDGE
2 3 1 4 5 6
End
Move B
EDGE
4 2 3 5 1 6
End
Move C
EDGE
1 4 3 6 5 2
End
Move D
EDGE
1 2 5 4 6 3
End
)");
  Definition def = parse_definition(in, "tetrahedron-edges.tws");
  std::vector<Move> moves = expand_moves(def, {});
  return {"tetrahedron edges", std::move(def), std::move(moves)};
}

// Four slots under a 4-cycle (0 3 1 2) and the swaps (0 1), (2 3), (0 2),
// (1 2): the positions are the 24 permutations, the one symmetry but the
// identity the swap (0 1) (the cycle to its inverse, (0 2) to (1 2)). It
// fixes slots 2 and 3, so the least block joining slot 0 to another leaves
// slots alone ({0, 1}, {2}, {3}; {0, 1, 2}, {3}): its one system of equal
// blocks, {0, 1} and {2, 3}, is found by search.
Puzzle four_slots() {
  std::istringstream in(R"(Name FourSlots
Set P 4 1
Solved
P
1 2 3 4
End
Move A
P
3 4 2 1
End
Move B
P
2 1 3 4
End
Move C
P
1 2 4 3
End
Move D
P
3 2 1 4
End
Move E
P
1 3 2 4
End
)");
  Definition def = parse_definition(in, "four-slots.tws");
  std::vector<Move> moves = expand_moves(def, {});
  return {"four slots", std::move(def), std::move(moves)};
}

// C the blocks of an orbit that every symmetry maps onto blocks: the cube's
// corners have two such systems, the two tetrads and the four pairs of
// opposite corners; the tetrahedron's edges one, its three pairs of
// opposite edges; the four slots' swap, {0, 1} and {2, 3} (found by
// search). Each as C (R each block's order; the tetrahedron's last
// within the parity its moves keep), by table and through positions,
// against the listed orbits; a position and its images share an index,
// whose position is its class's. The blocks are chosen by themselves where
// they take less memory (the corners' 8! positions; not the tetrahedron's
// 360, whose arrangements of blocks are mostly fixed by some symmetry).
TEST(TwistyClassBfs, BlocksOfAnOrbitAsC) {
  std::mt19937 rng(5);
  using Shapes = std::set<std::pair<unsigned, unsigned>>;  // blocks, and their size
  const std::vector<std::pair<Puzzle, Shapes>> cases = {{corner_permutations(), {{2, 4}, {4, 2}}},
                                                        {tetrahedron_edges(), {{3, 2}}},
                                                        {four_slots(), {{2, 2}}}};
  for (const auto& [p, expected_shapes] : cases) {
    SCOPED_TRACE(p.name);
    const SymmetryGroup group(p.def, p.moves, {SymmetryChoice::All, true});
    const TwistySpace space(p.def, p.moves);
    if (p.name == "four slots") {
      EXPECT_EQ(group.order(), 2U);
    }
    const std::vector<SymCoordinate> splits = piece_block_coordinates(space, group);
    Shapes shapes;
    for (const SymCoordinate& split : splits)
      shapes.emplace(split.piece_blocks->count, split.piece_blocks->size);
    EXPECT_EQ(shapes, expected_shapes);
    EXPECT_EQ(choose_sym_coordinate(space, group).piece_blocks.has_value(),
              p.name == "corner permutations");
    const std::vector<Positions> levels = levels_of(p.def, p.moves);
    const auto expected = naive_classes(p.def, group, levels, false);
    const auto with_inverse = classes_with_inverse(p, group, space, levels);
    for (const SymCoordinate& split : splits) {
      SCOPED_TRACE(split.text);
      EXPECT_EQ(split.piece_blocks->parity_kept, p.name == "tetrahedron edges");
      const ClassSpace classes(space, group, split);
      const ClassSpace through_positions(space, group, split,
                                         {{}, NeighbourMethod::ThroughPositions, {}, {}});
      EXPECT_TRUE(classes.table_driven());
      EXPECT_FALSE(through_positions.table_driven());
      // The chooser's estimate of the index space (Burnside's lemma on a
      // sample), against the one built.
      EXPECT_NEAR(double(split.estimated_indices), double(classes.size()),
                  0.25 * double(classes.size()));
      for (const ClassSpace* space_of_classes : {&classes, &through_positions})
        expect_class_bfs_agrees(*space_of_classes, levels, expected, with_inverse);
      for (int trial = 0; trial < 50; ++trial) {
        const Arrangement x = random_position(p.def, p.moves, rng);
        const std::uint64_t index = classes.index_of(space.rank(x));
        EXPECT_EQ(classes.index_of(classes.rank_of(index)), index);
        for (std::size_t k = 0; k < group.order(); ++k) {
          Arrangement y = x;
          group.conjugate(k, x, y);
          EXPECT_EQ(classes.index_of(space.rank(y)), index);
        }
      }
    }
  }
}

// The dino cube over its edges' blocks (the three axes they lie along:
// 12! / 4!^3 arrangements of the blocks): the positions by depth of the BFS
// over positions (twsearch's table, results/twisty.md), in about |G| times
// fewer indices than positions; its classes, in all, by Burnside's lemma:
// the moves reach the even permutations of the edges, and a symmetry acting
// on the slots as s fixes the positions commuting with s, the centraliser
// of s in the alternating group (in the symmetric group, the product of
// k^m m! over the m cycles of each length k; the half of it that is even,
// unless s's cycles have distinct odd lengths, when all of it is).
// A tetrahedron's four face centres and six one-slot edges that only
// turn: corner X's move 3-cycles the centres of the faces at X and flips
// the three edges at X (a small mastermorphix). Ranked: 12 even
// arrangements of the centres by 64 flips, 768.
Puzzle tetrahedron_with_flips() {
  std::istringstream in(R"(Name TetrahedronWithFlips
Set CENTER 4 1
Set AB 1 2
Set AC 1 2
Set AD 1 2
Set BC 1 2
Set BD 1 2
Set CD 1 2
Solved
CENTER
1 2 3 4
End
Move A
CENTER
1 3 4 2
AB
1
1
AC
1
1
AD
1
1
End
Move B
CENTER
4 2 1 3
AB
1
1
BC
1
1
BD
1
1
End
Move C
CENTER
2 4 3 1
AC
1
1
BC
1
1
CD
1
1
End
Move D
CENTER
3 1 2 4
AD
1
1
BD
1
1
CD
1
1
End
)");
  Definition def = parse_definition(in, "tetrahedron-with-flips.tws");
  std::vector<Move> moves = expand_moves(def, {});
  return {"tetrahedron with flips", std::move(def), std::move(moves)};
}

// The chooser estimates each C's classes by Burnside's lemma on a sample
// (the mean stabiliser) and takes the twists of one-slot orbits into C,
// preferring an index space within 1.5 x ranked / |G| (the goal of
// results/twisty.md). Under the tetrahedron's 12 rotations (A4 acting on
// the corners), by Burnside's lemma by hand (the identity fixes all 768;
// each of the 3 half turns 4 arrangements of the centres by 2^4 flips, 64;
// each of the 8 thirds of a turn 3 by 2^2, 12): C as the centres has 4
// classes (256 indices), as the flips 12 (R 12: 144 indices), as both
// (768 + 3 x 64 + 8 x 12) / 12 = 88 classes of one index each, within
// 1.5 x 768 / 12 = 96. The classes are those of the listed orbits.
TEST(TwistyClassBfs, OneSlotTwistsJoinCWhereTheIndexSpaceAsksForThem) {
  const Puzzle p = tetrahedron_with_flips();
  const SymmetryGroup group(p.def, p.moves, {SymmetryChoice::Rotations, true});
  const TwistySpace space(p.def, p.moves);
  ASSERT_EQ(space.size(), 768U);
  ASSERT_EQ(group.order(), 12U);
  const SymCoordinate split = choose_sym_coordinate(space, group);
  ASSERT_FALSE(split.parts.empty()) << split.text;
  EXPECT_EQ(split.values, 768U) << split.text;
  const ClassSpace classes(space, group, split);
  EXPECT_EQ(classes.size(), 88U);
  // The estimate, against the index space built.
  EXPECT_NEAR(double(split.estimated_indices), 88.0, 88.0 / 8);
  const std::vector<Positions> levels = levels_of(p.def, p.moves);
  const auto expected = naive_classes(p.def, group, levels, false);
  expect_class_bfs_agrees(classes, levels, expected, naive_classes(p.def, group, levels, true));
}

TEST(TwistyClassBfs, DinoOverItsEdgesBlocks) {
  const Definition def = load_definition(data_file("dino.tws"));
  const std::vector<Move> moves = expand_moves(def, {});
  const SymmetryGroup group(def, moves, {SymmetryChoice::All, false});
  const TwistySpace space(def, moves);
  const SymCoordinate split = choose_sym_coordinate(space, group);
  ASSERT_TRUE(split.piece_blocks.has_value()) << split.text;
  EXPECT_EQ(split.piece_blocks->count, 3U);
  EXPECT_EQ(split.piece_blocks->size, 4U);
  const ClassSpace classes(space, group, split);
  EXPECT_TRUE(classes.table_driven());
  EXPECT_EQ(classes.c_classes(), 782U);
  EXPECT_LT(classes.size(), space.size() / group.order() * 12 / 10);
  const ClassEnumeration e = enumerate_classes(classes, {}, this_cluster());
  const std::vector<std::uint64_t> by_positions = {1,         16,       160,     1408,     11712,
                                                   90912,     644756,   4070826, 21433009, 76410122,
                                                   109897795, 26611502, 328215,  366};
  EXPECT_EQ(e.positions, by_positions);
  std::uint64_t fixed = 0;
  for (const Symmetry& s : group.elements()) {
    std::vector<bool> seen(12, false);
    std::map<unsigned, unsigned> cycles;  // length: how many
    for (unsigned slot = 0; slot < 12; ++slot) {
      unsigned length = 0;
      for (unsigned x = slot; !seen[x]; x = s.slot_to[0][x], ++length) seen[x] = true;
      if (length > 0) ++cycles[length];
    }
    std::uint64_t centraliser = 1;
    bool distinct_odd = true;
    for (const auto& [length, count] : cycles) {
      for (unsigned i = 1; i <= count; ++i) centraliser *= length * i;
      distinct_odd &= length % 2 == 1 && count == 1;
    }
    fixed += distinct_odd ? centraliser : centraliser / 2;
  }
  std::uint64_t total = 0;
  for (const bfs::LevelStats& level : e.bfs.levels) total += level.states;
  EXPECT_EQ(total, fixed / group.order());
}

// R in two blocks that move apart (A's flips, B's twists), each moved and
// conjugated by its own small table; and C with A's twists too (R then B's
// twists alone): the BFS over classes by table against the one through
// positions and the listed orbits.
TEST(TwistyClassBfs, RestInBlocksIsMovedByEachBlocksTable) {
  std::istringstream in(R"(Name TwoSets
Set A 4 2
Set B 2 3
Solved
A
1 2 1 2
0 0 0 0
B
1 1
0 0
End
Move M
A
2 1 3 4
1 0 0 0
B
1 2
1 0
End
Move N
A
1 2 4 3
0 0 1 0
B
1 2
0 1
End
)");
  const Definition def = parse_definition(in, "two-sets.tws");
  const auto moves = expand_moves(def, {});
  const SymmetryGroup group(def, moves, {});
  ASSERT_GT(group.order(), 1u);
  const TwistySpace space(def, moves);
  std::vector<std::size_t> a_pieces, a_parts;
  for (std::size_t i = 0; i < space.parts().size(); ++i)
    if (space.orbits()[space.parts()[i].orbit].set == 0) {
      a_parts.push_back(i);
      if (space.parts()[i].kind == Part::Kind::Pieces) a_pieces.push_back(i);
    }
  // Blocks even where one table would be small.
  const SymCoordinate split = sym_coordinate(space, group, a_pieces, 1, 0);
  ASSERT_EQ(split.text, "A pieces (4 values)");
  ASSERT_EQ(split.rest_blocks.size(), 2u);
  EXPECT_EQ(choose_sym_coordinate(space, group).rest_blocks.size(), 1u);
  const SymCoordinate with_twists = sym_coordinate(space, group, a_parts);
  ASSERT_EQ(with_twists.text, "A pieces and twists (64 values)");
  ASSERT_EQ(with_twists.rest_blocks.size(), 1u);
  const std::vector<Positions> levels = levels_of(def, moves);
  const auto expected = naive_classes(def, group, levels, false);
  for (const SymCoordinate& c : {split, with_twists}) {
    const ClassSpace by_table(space, group, c);
    const ClassSpace through_positions(space, group, c,
                                       {{}, NeighbourMethod::ThroughPositions, {}, {}});
    ASSERT_TRUE(by_table.table_driven()) << c.text;
    // Without twists in C, its images come from its kinds; with them,
    // through positions.
    EXPECT_EQ(by_table.acts_on_kinds(), c.text == split.text) << c.text;
    for (const ClassSpace* classes : {&by_table, &through_positions})
      for (int threads : {1, 2}) {
        SCOPED_TRACE(::testing::Message() << c.text << ", " << threads << " threads, by table "
                                          << classes->table_driven());
        ThreadLimit limit(threads);
        const ClassEnumeration e = enumerate_classes(*classes, {}, this_cluster());
        ASSERT_EQ(e.positions.size(), levels.size());
        for (std::size_t d = 0; d < levels.size(); ++d) {
          EXPECT_EQ(e.positions[d], levels[d].size());
          EXPECT_EQ(e.classes[d].classes, expected[d]);
        }
      }
  }
}

// More moves than the frontier engine takes a state (17 three-cycles of 6
// slots and their inverses: 34): no BFS over classes, with the reason.
TEST(TwistyClassBfs, MoreMovesThanAStateMayHaveAreRefused) {
  std::string text = "Name Cycles\nSet T 6 1\nSolved\nT\n1 2 3 4 5 6\nEnd\n";
  int made = 0;
  for (int a = 1; a <= 6; ++a)
    for (int b = a + 1; b <= 6; ++b)
      for (int c = b + 1; c <= 6 && made < 17; ++c, ++made) {
        int perm[6] = {1, 2, 3, 4, 5, 6};
        perm[a - 1] = b, perm[b - 1] = c, perm[c - 1] = a;
        text += "Move M" + std::to_string(made) + "\nT\n";
        for (int slot : perm) text += std::to_string(slot) + " ";
        text += "\nEnd\n";
      }
  std::istringstream in(text);
  const Definition def = parse_definition(in, "cycles.tws");
  const auto moves = expand_moves(def, {});
  ASSERT_EQ(moves.size(), 34u);
  const SymmetryGroup group(def, moves, {});
  const TwistySpace space(def, moves);
  const SymCoordinate split = choose_sym_coordinate(space, group);
  EXPECT_TRUE(split.parts.empty());
  EXPECT_NE(split.text.find("34 moves: a BFS over classes takes at most 32"), std::string::npos)
      << split.text;
}

// A position and all its images have one index; an index's position is
// its class's; the positions of a class are |G| / its stabiliser.
TEST(TwistyClassBfs, EveryImageHasTheIndexOfItsClass) {
  std::mt19937 rng(11);
  std::vector<Puzzle> puzzles = small_puzzles();
  puzzles.push_back(corner_permutations());
  for (const Puzzle& p : puzzles) {
    SCOPED_TRACE(p.name);
    const SymmetryGroup group(p.def, p.moves, {SymmetryChoice::All, true});
    const TwistySpace space(p.def, p.moves);
    const ClassSpace classes(space, group, choose_sym_coordinate(space, group));
    for (int trial = 0; trial < 200; ++trial) {
      const Arrangement x = random_position(p.def, p.moves, rng);
      const std::uint64_t index = classes.index_of(space.rank(x));
      EXPECT_TRUE(classes.canonical(index));
      EXPECT_EQ(classes.index_of(classes.rank_of(index)), index);
      std::uint64_t stabiliser = 0;
      for (std::size_t k = 0; k < group.order(); ++k) {
        Arrangement y = x;
        group.conjugate(k, x, y);
        EXPECT_EQ(classes.index_of(space.rank(y)), index);
        stabiliser += y == x;
      }
      EXPECT_EQ(classes.positions(index), group.order() / stabiliser);
    }
  }
}

// The pocket cube up to whole-cube turns, from the 2x2x2 with all six faces:
// 3,674,160 positions, and the published face-turn table (Scherphuis,
// jaapsch.net/puzzles/cube2.htm; OEIS A079761).
TEST(TwistySymmetryCli, PocketCubeUpToRotationIsThePublishedTable) {
  const auto r = run_cubenum("twisty bfs " + data_file("pocket-cube.tws") +
                             " --up-to-rotation --antipodes 0 --json -");
  ASSERT_EQ(r.status, 0) << r.output;
  const Json json = Json::parse(r.output);
  EXPECT_EQ(json["whole_puzzle_turns"], 24);
  EXPECT_EQ(json["states"], 3674160);
  const std::vector<std::uint64_t> htm{1,     9,      54,     321,     1847,   9992,
                                       50136, 227536, 870072, 1887748, 623800, 2644};
  EXPECT_EQ(json["distribution"].get<std::vector<std::uint64_t>>(), htm);
}

// The same in the quarter-turn metric, up to the cube's 48 symmetries and
// inversion, over classes: the published table of positions (Scherphuis,
// as above) and of classes up to symmetry and inversion by depth
// (cubezzz.dyndns.org/drupal/?q=node/view/531, "Reduced(Oh+)"), and their
// totals, 77,802 classes (Jerry Bryan, Cube-Lovers) and 40,296 with
// inversion (Rokicki, forum.cubeman.org/?q=node/view/79). In the face-turn
// metric, the same totals.
TEST(TwistySymmetryCli, PocketCubeUpToSymmetryAndInversionIsThePublishedTable) {
  const std::string bfs = "twisty bfs " + data_file("pocket-cube.tws") +
                          " --up-to-rotation --symmetry all --inverse --antipodes 0 --json -";
  auto r = run_cubenum(bfs + " --quarter");
  ASSERT_EQ(r.status, 0) << r.output;
  Json json = Json::parse(r.output);
  EXPECT_EQ(json["symmetry"]["order"], 48);
  EXPECT_TRUE(json.contains("over_classes")) << "the BFS over classes by default";
  const std::vector<std::uint64_t> qtm{1,      6,      27,     120,     534,    2256,  8969, 33058,
                                       114149, 360508, 930588, 1350852, 782536, 90280, 276};
  const std::vector<std::uint64_t> qtm_with_inverse{1,    1,    3,     4,     13,   35,   126, 398,
                                                    1301, 3952, 10086, 14658, 8619, 1091, 8};
  EXPECT_EQ(json["distribution"].get<std::vector<std::uint64_t>>(), qtm);
  EXPECT_EQ(json["classes_with_inverse"].get<std::vector<std::uint64_t>>(), qtm_with_inverse);
  EXPECT_EQ(json["total_classes"], 77802);
  EXPECT_EQ(json["total_classes_with_inverse"], 40296);
  r = run_cubenum(bfs);
  ASSERT_EQ(r.status, 0) << r.output;
  json = Json::parse(r.output);
  EXPECT_EQ(json["total_classes"], 77802);
  EXPECT_EQ(json["total_classes_with_inverse"], 40296);
}

TEST(TwistySymmetryCli, BfsPrintsClassesAndRefusesWhatTheFileDoesNotAllow) {
  const std::string file = data_file("tiles-2x3.tws");
  // The 2x3 board's four symmetries: the identity, the half turn, two
  // mirrors (L to R', L to L').
  auto r = run_cubenum("twisty bfs " + file + " --symmetry all --inverse");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("symmetry (all): 4 elements, 2 reflections, and inversion"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("depth       positions       classes  with inverse"), std::string::npos);
  r = run_cubenum("twisty bfs " + file + " --inverse --json -");
  ASSERT_EQ(r.status, 0) << r.output;
  const Json json = Json::parse(r.output);
  EXPECT_EQ(json["symmetry"]["order"], 4);
  EXPECT_EQ(json["symmetry"]["reflections"], 2);
  EXPECT_EQ(json["classes"].size(), json["distribution"].size());
  EXPECT_EQ(json["classes_with_inverse"][0], 1);
  r = run_cubenum("twisty bfs " + file + " --symmetry mirrors");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("--symmetry: unknown group 'mirrors'"), std::string::npos) << r.output;
  r = run_cubenum("twisty info " + file + " --moves L");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("symmetry (all): "), std::string::npos) << r.output;
}

// Where the positions' two bits do not fit, the BFS runs over classes by
// itself and says so: the 2x2x2's positions by depth as the BFS over
// positions finds them (the row engine, checked against twsearch in
// twisty_test.cpp), in less memory.
TEST(TwistySymmetryCli, TooLittleMemoryForPositionsRunsOverClasses) {
  const std::string file = data_file("pocket-cube.tws");
  const auto positions = run_cubenum("twisty bfs " + file + " --over positions --json -");
  ASSERT_EQ(positions.status, 0) << positions.output;
  const auto classes = run_cubenum("twisty bfs " + file + " --memory 0.005 --json -");
  ASSERT_EQ(classes.status, 0) << classes.output;
  const Json raw = Json::parse(positions.output), over = Json::parse(classes.output);
  EXPECT_EQ(over["distribution"], raw["distribution"]);
  EXPECT_EQ(over["states"], 88179840);
  EXPECT_EQ(over["symmetry"]["order"], 48);
  EXPECT_EQ(over["over_classes"]["sym_coordinate"], "CORNER pieces (40320 values)");
  EXPECT_LT(over["over_classes"]["indices"].get<std::uint64_t>(), 88179840u / 40);
}

}  // namespace
}  // namespace cubenum::twisty
