// The space of symmetry classes: the split of the rank, the C table, and
// the classes of positions.
#include "cubenum/puzzles/twisty_class_space.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "cubenum/core/error.hpp"
#include "cubenum/core/hash.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/ranking.hpp"

namespace cubenum::twisty {

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// The orbit of `space` holding slot `slot` of set `set`.
std::size_t orbit_holding(const TwistySpace& space, unsigned set, unsigned slot) {
  const auto& orbits = space.orbits();
  for (std::size_t o = 0; o < orbits.size(); ++o)
    if (orbits[o].set == set && std::binary_search(orbits[o].slots.begin(), orbits[o].slots.end(),
                                                   static_cast<std::uint8_t>(slot)))
      return o;
  throw std::logic_error("twisty: a slot in no orbit");
}

// Orbits that must be in C together: those a symmetry maps to one another,
// a parity and its sources, coupled pieces and their leaders.
std::vector<std::size_t> orbit_blocks(const TwistySpace& space, const SymmetryGroup& group) {
  const auto& orbits = space.orbits();
  std::vector<std::size_t> block(orbits.size());
  std::iota(block.begin(), block.end(), 0);
  const auto find = [&](std::size_t o) {
    while (block[o] != o) o = block[o] = block[block[o]];
    return o;
  };
  const auto join = [&](std::size_t a, std::size_t b) { block[find(a)] = find(b); };
  for (const Symmetry& s : group.elements())
    for (std::size_t o = 0; o < orbits.size(); ++o) {
      const unsigned set = orbits[o].set;
      join(o, orbit_holding(space, s.set_to[set], s.slot_to[set][orbits[o].slots[0]]));
    }
  for (std::size_t o = 0; o < orbits.size(); ++o) {
    if (orbits[o].coupled_to >= 0) join(o, static_cast<std::size_t>(orbits[o].coupled_to));
    if (orbits[o].parity_fixed)
      for (unsigned source : orbits[o].parity_sources) join(o, source);
  }
  for (std::size_t o = 0; o < orbits.size(); ++o) block[o] = find(o);
  return block;
}

// Each symmetry's inverse and products, from the move maps that tell the
// group's elements apart (twisty_symmetry.hpp).
struct GroupTable {
  std::vector<std::uint8_t> inverse;
  std::vector<std::vector<std::uint8_t>> product;  // [a][b]: a after b

  explicit GroupTable(const SymmetryGroup& group) {
    const auto& e = group.elements();
    // By the hash of each element's map of moves, confirmed by the map.
    const auto hash = [](const std::vector<int>& map) {
      return hash_bytes(map.data(), map.size() * sizeof(int));
    };
    std::unordered_multimap<std::uint64_t, std::uint8_t> by_map;
    for (std::size_t k = 0; k < e.size(); ++k)
      by_map.emplace(hash(e[k].move_to), static_cast<std::uint8_t>(k));
    const auto lookup = [&](const std::vector<int>& map) {
      for (auto [it, end] = by_map.equal_range(hash(map)); it != end; ++it)
        if (e[it->second].move_to == map) return it->second;
      throw std::logic_error("twisty: symmetries that are not a group");
    };
    const std::size_t moves = e[0].move_to.size();
    product.assign(e.size(), std::vector<std::uint8_t>(e.size()));
    inverse.resize(e.size());
    std::vector<int> map(moves);
    for (std::size_t a = 0; a < e.size(); ++a) {
      for (std::size_t m = 0; m < moves; ++m)
        map[static_cast<std::size_t>(e[a].move_to[m])] = static_cast<int>(m);
      inverse[a] = lookup(map);
      for (std::size_t b = 0; b < e.size(); ++b) {
        for (std::size_t m = 0; m < moves; ++m)
          map[m] = e[a].move_to[static_cast<std::size_t>(e[b].move_to[m])];
        product[a][b] = lookup(map);
      }
    }
  }
};

// Which symmetries to conjugate through positions (`direct`: generators,
// taken as the least not yet reached) and which to compose from two
// earlier ones: conjugating by a after b is conjugating by b, then by a
// (the C table's least transforms rely on it too), so a table of a
// coordinate that symmetries move by its value alone is a's table at b's.
struct SymmetryRecipe {
  struct Step {
    std::size_t product, after, before;
  };
  std::size_t identity = 0;
  std::vector<std::size_t> direct;
  std::vector<Step> composed;  // in an order where both factors come first

  explicit SymmetryRecipe(const GroupTable& group) {
    const std::size_t order = group.inverse.size();
    while (group.product[identity][identity] != identity) ++identity;
    std::vector<bool> known(order, false);
    known[identity] = true;
    std::vector<std::size_t> reached{identity};
    for (std::size_t first = 0; first < order; ++first) {
      if (known[first]) continue;
      direct.push_back(first);
      known[first] = true;
      reached.push_back(first);
      // Close what is known under the generators so far.
      for (std::size_t i = 0; i < reached.size(); ++i)
        for (std::size_t g : direct) {
          for (const auto& [a, b] : {std::pair{g, reached[i]}, std::pair{reached[i], g}}) {
            const std::size_t p = group.product[a][b];
            if (known[p]) continue;
            known[p] = true;
            reached.push_back(p);
            composed.push_back({p, a, b});
          }
        }
    }
  }
};

// A sample's next number (xorshift: the same samples on every run).
std::uint64_t next_sample(std::uint64_t& state) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

// The construction checks: whether check(i) holds for each i below count
// where there are at most `samples`, else for `samples` of them drawn from
// `seed`.
template <class Check>
bool checks_pass(std::uint64_t count, std::uint64_t samples, std::uint64_t seed, Check check) {
  if (count <= samples) {
    for (std::uint64_t i = 0; i < count; ++i)
      if (!check(i)) return false;
    return true;
  }
  for (std::uint64_t sample = 0; sample < samples; ++sample)
    if (!check(next_sample(seed) % count)) return false;
  return true;
}

// Whether the symmetries map ranked positions to ranked positions (they
// map reached ones to reached ones, but the ranking may hold more twists
// than the moves reach): then C may hold twists, its values all ranked
// images of one another. Checked on a sample of ranks.
bool symmetries_keep_ranked(const TwistySpace& space, const SymmetryGroup& group) {
  Arrangement position = space.definition().solved, image = position;
  Position scratch;
  std::uint64_t state = 0x2545f4914f6cdd1dULL;
  // Where each generator keeps them, so do their products.
  const SymmetryRecipe recipe{GroupTable(group)};
  for (int sample = 0; sample < 1024; ++sample) {
    space.unrank(next_sample(state) % space.size(), position, scratch);
    for (std::size_t k : recipe.direct) {
      group.conjugate(k, position, image);
      if (!space.contains(image)) return false;
    }
  }
  return true;
}

// For `samples` sampled ranks (the same on every run): on_sample(p) with the
// sample read into p, then on_image(p) with each symmetry's image of it, in
// the group's order.
template <class OnSample, class OnImage>
void for_each_sampled_image(const TwistySpace& space, const SymmetryGroup& group,
                            std::size_t samples, OnSample&& on_sample, OnImage&& on_image) {
  Arrangement position = space.definition().solved, image = position;
  Position scratch, coded;
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  for (std::size_t sample = 0; sample < samples; ++sample) {
    space.unrank(next_sample(state) % space.size(), position, scratch);
    space.read_position(position, coded);
    on_sample(coded);
    for (std::size_t k = 0; k < group.order(); ++k) {
      group.conjugate(k, position, image);
      space.read_position(image, coded);
      on_image(coded);
    }
  }
}

// Which parts of the rank each symmetry leaves as they were, at sampled
// ranks: [sample * order + k], bit i for part i (at most 64 parts). A C of
// parts P then has about values * mean |stabiliser| / |G| classes (a set's
// orbits number the sum of |stabiliser| / |G| over its members), where
// values / |G| assumes no value is fixed by any symmetry but the identity.
std::vector<std::uint64_t> sample_fixed_parts(const TwistySpace& space, const SymmetryGroup& group,
                                              std::size_t samples) {
  const std::size_t parts = space.parts().size();
  std::vector<std::uint64_t> values(parts), fixed;
  fixed.reserve(samples * group.order());
  for_each_sampled_image(
      space, group, samples,
      [&](const Position& p) {
        for (std::size_t i = 0; i < parts; ++i) values[i] = space.part_value(i, p);
      },
      [&](const Position& p) {
        std::uint64_t mask = 0;
        for (std::size_t i = 0; i < parts; ++i)
          if (space.part_value(i, p) == values[i]) mask |= std::uint64_t{1} << i;
        fixed.push_back(mask);
      });
  return fixed;
}

// The kinds in the slots of orbit 0 at sampled ranks and in each
// symmetry's image of them: [(sample * (order + 1) + 1 + k) * n + slot],
// the sample's own at k = -1.
std::vector<std::uint8_t> sample_kinds(const TwistySpace& space, const SymmetryGroup& group,
                                       std::size_t samples) {
  const auto n = static_cast<std::ptrdiff_t>(space.orbits()[0].size());
  std::vector<std::uint8_t> kinds;
  kinds.reserve(samples * (group.order() + 1) * static_cast<std::size_t>(n));
  const auto keep = [&](const Position& p) {
    kinds.insert(kinds.end(), p.kind.begin(), p.kind.begin() + n);
  };
  for_each_sampled_image(space, group, samples, keep, keep);
  return kinds;
}

std::string set_names(const TwistySpace& space, const std::vector<std::size_t>& parts) {
  std::vector<std::string> names;
  for (std::size_t i : parts) {
    const std::string& name =
        space.definition().sets[space.orbits()[space.parts()[i].orbit].set].name;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

// The index space, and the C table and two bits an index, where C has
// about `classes` classes.
void estimate_bytes(SymCoordinate& split, long double classes) {
  const auto values = static_cast<long double>(split.values);
  const long double indices = classes * static_cast<long double>(split.rest);
  split.estimated_indices = static_cast<std::uint64_t>(indices);
  split.estimated_bytes = static_cast<std::uint64_t>(indices / 4 + 5 * values + 4 * classes);
}

// The split with C the parts `c_parts` (whole blocks' pieces, maybe their
// twists), R in its blocks; no parts where C has more than 2^32 values.
SymCoordinate make_split(const TwistySpace& space, const std::vector<std::size_t>& block,
                         std::vector<std::size_t> c_parts, std::size_t order,
                         std::uint64_t one_table_bytes = kOneRestTableBytes) {
  const auto& parts = space.parts();
  SymCoordinate split;
  long double values = 1;
  for (std::size_t i : c_parts) values *= static_cast<long double>(parts[i].size);
  if (values > std::numeric_limits<std::uint32_t>::max() - 1) return split;
  split.parts = std::move(c_parts);
  std::sort(split.parts.begin(), split.parts.end());
  split.values = static_cast<std::uint64_t>(values);
  split.rest = space.size() / split.values;
  // Few values of C: most are fixed by some symmetry, little reduction.
  const long double g = static_cast<long double>(order);
  estimate_bytes(split, values >= 64 * g ? values / g : values);
  // R's parts by block, in the order of their weights.
  std::map<std::size_t, std::size_t> block_number;
  for (std::size_t i = parts.size(); i-- > 0;) {
    if (std::binary_search(split.parts.begin(), split.parts.end(), i)) continue;
    const auto [it, added] = block_number.emplace(block[parts[i].orbit], split.rest_blocks.size());
    if (added) split.rest_blocks.emplace_back();
    split.rest_blocks[it->second].parts.push_back(i);
    split.rest_blocks[it->second].values *= parts[i].size;
  }
  // One table where it is small: one look-up a neighbour, not one a block.
  const auto moves = static_cast<std::uint64_t>(space.moves());
  if (split.rest_blocks.size() > 1 && split.rest * (moves + order) * 4 <= one_table_bytes) {
    SymCoordinate::Block all;
    for (std::size_t i = parts.size(); i-- > 0;)
      if (!std::binary_search(split.parts.begin(), split.parts.end(), i)) all.parts.push_back(i);
    all.values = split.rest;
    split.rest_blocks = {std::move(all)};
  }
  if (split.rest_blocks.empty()) split.rest_blocks.emplace_back();  // R has one value
  const bool with_twists = std::any_of(split.parts.begin(), split.parts.end(), [&](std::size_t i) {
    return parts[i].kind == Part::Kind::Twists;
  });
  split.text = fmt::format("{} pieces{} ({} values)", set_names(space, split.parts),
                           with_twists ? " and twists" : "", split.values);
  return split;
}

// [symmetry][i]: where each symmetry takes the orbit's i-th slot, as an
// index into its slots; empty where some symmetry takes a slot out of it.
std::vector<std::vector<std::uint8_t>> slot_images(const Orbit& orbit, const SymmetryGroup& group) {
  std::vector<std::vector<std::uint8_t>> moved;
  for (const Symmetry& e : group.elements()) {
    if (e.set_to[orbit.set] != orbit.set) return {};
    auto& image = moved.emplace_back(orbit.size());
    for (std::size_t i = 0; i < orbit.size(); ++i) {
      const std::uint8_t to = e.slot_to[orbit.set][orbit.slots[i]];
      const auto at = std::lower_bound(orbit.slots.begin(), orbit.slots.end(), to);
      if (at == orbit.slots.end() || *at != to) return {};
      image[i] = static_cast<std::uint8_t>(at - orbit.slots.begin());
    }
  }
  return moved;
}

// Block systems of `size` slots a block over n <= 64 slots (moved: each
// symmetry's images of the slots): the least slot not yet in a block
// takes each choice of size - 1 others in turn, with the block's images
// under the group as blocks too where they are disjoint or equal. At most
// 8 systems, and a bounded search.
std::vector<std::vector<std::uint8_t>> equal_block_systems(
    const std::vector<std::vector<std::uint8_t>>& moved, std::size_t n, std::size_t size) {
  const auto image = [&](const std::vector<std::uint8_t>& g, std::uint64_t set) {
    std::uint64_t out = 0;
    for (; set != 0; set &= set - 1) out |= std::uint64_t{1} << g[std::countr_zero(set)];
    return out;
  };
  const std::uint64_t all = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  std::vector<std::vector<std::uint8_t>> systems;
  std::vector<std::uint64_t> blocks;
  std::size_t budget = 1 << 16;
  const auto search = [&](const auto& self, std::uint64_t taken) -> void {
    if (taken == all) {
      // Blocks numbered by their least slots, as block_systems numbers them.
      std::vector<std::uint64_t> ordered = blocks;
      std::sort(ordered.begin(), ordered.end(),
                [](std::uint64_t a, std::uint64_t b) { return (a & -a) < (b & -b); });
      std::vector<std::uint8_t> block(n);
      for (std::size_t b = 0; b < ordered.size(); ++b)
        for (std::uint64_t set = ordered[b]; set != 0; set &= set - 1)
          block[static_cast<std::size_t>(std::countr_zero(set))] = static_cast<std::uint8_t>(b);
      systems.push_back(std::move(block));
      return;
    }
    const std::uint64_t first = ~taken & (taken + 1);  // the least slot left
    std::vector<std::uint8_t> free;
    for (std::uint64_t set = all & ~taken & ~first; set != 0; set &= set - 1)
      free.push_back(static_cast<std::uint8_t>(std::countr_zero(set)));
    if (free.size() + 1 < size) return;
    std::vector<std::size_t> pick(size - 1);
    std::iota(pick.begin(), pick.end(), 0);
    while (systems.size() < 8 && budget > 0) {
      --budget;
      std::uint64_t block = first;
      for (std::size_t j : pick) block |= std::uint64_t{1} << free[j];
      const std::size_t before = blocks.size();
      std::uint64_t covered = 0;
      bool fits = true;
      for (const auto& g : moved) {
        const std::uint64_t b = image(g, block);
        if (std::find(blocks.begin() + static_cast<std::ptrdiff_t>(before), blocks.end(), b) !=
            blocks.end())
          continue;
        if ((b & (taken | covered)) != 0) {
          fits = false;
          break;
        }
        covered |= b;
        blocks.push_back(b);
      }
      if (fits) self(self, taken | covered);
      blocks.resize(before);
      // The next choice, in colex order.
      std::size_t j = 0;
      while (j + 1 < pick.size() && pick[j] + 1 == pick[j + 1]) ++j;
      if (pick[j] + 1 >= free.size()) break;
      ++pick[j];
      for (std::size_t i = 0; i < j; ++i) pick[i] = i;
    }
  };
  search(search, 0);
  return systems;
}

// The block systems of the group on an orbit's slots (a partition that
// every symmetry maps onto itself), each the least one joining slot 0 to
// another slot: [slot]: its block, numbered from slot 0's. Only those of
// equal blocks of 2 to 7 slots, and at most 8 of them.
std::vector<std::vector<std::uint8_t>> block_systems(const Orbit& orbit,
                                                     const SymmetryGroup& group) {
  const std::size_t n = orbit.size();
  const std::vector<std::vector<std::uint8_t>> moved = slot_images(orbit, group);
  if (moved.empty()) return {};
  std::vector<std::vector<std::uint8_t>> systems;
  for (std::size_t t = 1; t < n; ++t) {
    std::vector<std::size_t> root(n);
    std::iota(root.begin(), root.end(), 0);
    const auto find = [&](std::size_t x) {
      while (root[x] != x) x = root[x] = root[root[x]];
      return x;
    };
    root[t] = 0;
    // Where i and its root share a block, so do their images.
    for (bool joined = true; joined;) {
      joined = false;
      for (const auto& image : moved)
        for (std::size_t i = 0; i < n; ++i) {
          const std::size_t a = find(image[i]), b = find(image[find(i)]);
          if (a != b) {
            root[std::max(a, b)] = std::min(a, b);
            joined = true;
          }
        }
    }
    std::vector<std::uint8_t> block(n);
    std::map<std::size_t, std::uint8_t> number;
    std::map<std::uint8_t, std::size_t> sizes;
    for (std::size_t i = 0; i < n; ++i) {
      const auto [it, added] = number.emplace(find(i), static_cast<std::uint8_t>(number.size()));
      block[i] = it->second;
      ++sizes[block[i]];
    }
    const std::size_t size = sizes[0];
    if (size < 2 || size > 7 || sizes.size() < 2 || sizes.size() > 8 ||
        std::any_of(sizes.begin(), sizes.end(), [&](const auto& s) { return s.second != size; }) ||
        std::find(systems.begin(), systems.end(), block) != systems.end())
      continue;
    systems.push_back(std::move(block));
  }
  // A group that does not take slot 0 to every slot leaves the slots it
  // does not reach alone in those systems: search for equal blocks then.
  if (!systems.empty() || n > 64) return systems;
  for (std::size_t size = 2; size <= 7; ++size)
    if (n % size == 0 && n / size >= 2 && n / size <= 8)
      for (std::vector<std::uint8_t>& block : equal_block_systems(moved, n, size))
        systems.push_back(std::move(block));
  return systems;
}

}  // namespace

SymCoordinate choose_sym_coordinate(const TwistySpace& space, const SymmetryGroup& group,
                                    std::size_t turns) {
  SymCoordinate best;
  if (space.moves() > static_cast<int>(bfs::kMaxNeighbours)) {
    best.text = fmt::format(
        "{} moves: a BFS over classes takes at most {} (choose fewer with "
        "--moves)",
        space.moves(), bfs::kMaxNeighbours);
    return best;
  }
  if (group.order() > 255 || group.order() * turns > 65536) {
    best.text = fmt::format(
        "a group of order {}{}: a BFS over classes takes at most 255 symmetries, 2^16 with "
        "turns",
        group.order(), turns > 1 ? fmt::format(" with {} turns", turns) : "");
    return best;
  }
  const std::vector<std::size_t> block = orbit_blocks(space, group);
  // Each block's pieces parts, and its twists parts.
  std::map<std::size_t, std::vector<std::size_t>> pieces, twists;
  const auto& parts = space.parts();
  for (std::size_t i = 0; i < parts.size(); ++i)
    (parts[i].kind == Part::Kind::Pieces ? pieces : twists)[block[parts[i].orbit]].push_back(i);
  std::vector<std::vector<std::size_t>> blocks, block_twists;
  for (auto& [b, p] : pieces) {
    blocks.push_back(p);
    block_twists.push_back(twists[b]);
  }
  // Orbits of one piece a slot: their twists alone (the mastermorphix's
  // edges).
  for (auto& [b, t] : twists)
    if (!pieces.contains(b)) {
      blocks.emplace_back();
      block_twists.push_back(t);
    }
  if (pieces.empty() || blocks.size() > 16) {
    best.text = pieces.empty() ? "no pieces to permute: the positions are all twists"
                               : "too many independent orbits to choose from";
    return best;
  }
  const bool any_twists = std::any_of(block_twists.begin(), block_twists.end(),
                                      [](const auto& t) { return !t.empty(); });
  const bool twists_in_c = any_twists && symmetries_keep_ranked(space, group);
  const std::size_t order = group.order() * turns;
  std::vector<SymCoordinate> splits;
  for (std::uint32_t choice = 2; choice < (2U << blocks.size()); ++choice) {
    // The low bit: C takes its blocks' twists too (a C of few arrangements
    // then has many more values, and far fewer of them fixed by symmetries).
    const std::uint32_t mask = choice >> 1;
    const bool with_twists = (choice & 1) != 0;
    std::vector<std::size_t> c_parts;
    bool has_twists = false;
    bool twists_alone = false;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      if ((mask >> b & 1) == 0) continue;
      twists_alone |= blocks[b].empty();
      c_parts.insert(c_parts.end(), blocks[b].begin(), blocks[b].end());
      if (!with_twists) continue;
      c_parts.insert(c_parts.end(), block_twists[b].begin(), block_twists[b].end());
      has_twists |= !block_twists[b].empty();
    }
    if ((with_twists && (!has_twists || !twists_in_c)) || (twists_alone && !with_twists)) continue;
    SymCoordinate split = make_split(space, block, std::move(c_parts), order);
    if (!split.parts.empty()) splits.push_back(std::move(split));
  }
  const std::size_t whole_orbits = splits.size();
  for (SymCoordinate& split : piece_block_coordinates(space, group, turns))
    splits.push_back(std::move(split));
  // The classes sampled only where there is a choice to make (lo33 has one
  // C, every position).
  const std::vector<std::uint64_t> fixed = turns == 1 && parts.size() <= 64 && splits.size() > 1
                                               ? sample_fixed_parts(space, group, 256)
                                               : std::vector<std::uint64_t>{};
  for (std::size_t i = 0; i < whole_orbits && !fixed.empty(); ++i) {
    SymCoordinate& split = splits[i];
    std::uint64_t in_c = 0;
    for (std::size_t part : split.parts) in_c |= std::uint64_t{1} << part;
    const auto stabilising = static_cast<long double>(std::count_if(
        fixed.begin(), fixed.end(), [&](std::uint64_t kept) { return (kept & in_c) == in_c; }));
    estimate_bytes(split, static_cast<long double>(split.values) * stabilising /
                              static_cast<long double>(fixed.size()));
  }
  // Of those whose index space is within half as much again as the size
  // over |G| where some are (and the classes were sampled), the most values
  // of C within half as much again as the least memory: a C with few
  // values has many fixed by some symmetry, and their classes cost a
  // canonical R at every visit.
  const long double reduced =
      static_cast<long double>(space.size()) / static_cast<long double>(order);
  const auto compact = [&](const SymCoordinate& split) {
    return static_cast<long double>(split.estimated_indices) <= 1.5L * reduced;
  };
  const bool any_compact = !fixed.empty() && std::any_of(splits.begin(), splits.end(), compact);
  std::uint64_t least = std::numeric_limits<std::uint64_t>::max();
  for (const SymCoordinate& split : splits)
    if (!any_compact || compact(split)) least = std::min(least, split.estimated_bytes);
  for (SymCoordinate& split : splits)
    if ((!any_compact || compact(split)) && split.estimated_bytes <= least + least / 2 &&
        (best.parts.empty() || split.values > best.values))
      best = std::move(split);
  if (best.parts.empty()) best.text = "every choice of pieces has more than 2^32 arrangements";
  return best;
}

std::vector<SymCoordinate> piece_block_coordinates(const TwistySpace& space,
                                                   const SymmetryGroup& group, std::size_t turns) {
  const std::size_t order = group.order() * turns;
  std::vector<SymCoordinate> splits;
  if (space.orbits().size() != 1) return splits;
  const Orbit& orbit = space.orbits()[0];
  if (orbit.kinds() != orbit.size() || orbit.orientations != 1 || orbit.size() > 64 ||
      orbit.coupled_to >= 0)
    return splits;
  const std::vector<std::vector<std::uint8_t>> systems = block_systems(orbit, group);
  const std::size_t samples = 256, n = orbit.size();
  const std::vector<std::uint8_t> kinds = turns == 1 && !systems.empty()
                                              ? sample_kinds(space, group, samples)
                                              : std::vector<std::uint8_t>{};
  for (const std::vector<std::uint8_t>& block : systems) {
    SymCoordinate::PieceBlocks b;
    b.size = static_cast<unsigned>(std::count(block.begin(), block.end(), 0));
    b.count = static_cast<unsigned>(orbit.size() / b.size);
    b.parity_kept = orbit.has_parity && orbit.parity_fixed && orbit.parity_sources.empty();
    b.block_of.resize(orbit.size());
    for (std::size_t i = 0; i < orbit.size(); ++i) b.block_of[orbit.kind[i]] = block[i];
    const std::vector<std::uint8_t> counts(b.count, static_cast<std::uint8_t>(b.size));
    const std::uint64_t values = multinomial(counts);
    const long double rest =
        std::pow(static_cast<long double>(factorial(b.size)), b.count) / (b.parity_kept ? 2 : 1);
    if (values == 0 || values > std::numeric_limits<std::uint32_t>::max() - 1 || rest > 1e15L)
      continue;
    SymCoordinate split;
    for (std::size_t i = 0; i < space.parts().size(); ++i) split.parts.push_back(i);
    split.values = values;
    split.rest = static_cast<std::uint64_t>(rest);
    const long double g = static_cast<long double>(order);
    const long double v = static_cast<long double>(values);
    long double classes = v >= 64 * g ? v / g : v;
    if (!kinds.empty()) {
      // Each sample's images whose blocks lie in its blocks' slots.
      std::uint64_t stabilising = 0;
      for (std::size_t sample = 0; sample < samples; ++sample) {
        const std::uint8_t* own = &kinds[sample * (order + 1) * n];
        for (std::size_t k = 0; k < order; ++k) {
          const std::uint8_t* image = own + (k + 1) * n;
          std::size_t i = 0;
          while (i < n && b.block_of[own[i]] == b.block_of[image[i]]) ++i;
          stabilising += i == n;
        }
      }
      classes =
          v * static_cast<long double>(stabilising) / static_cast<long double>(samples * order);
    }
    split.estimated_indices = static_cast<std::uint64_t>(classes * rest);
    split.estimated_bytes = static_cast<std::uint64_t>(
        classes * rest / 4 + 5 * v +
        classes * (4 + kBlockActionBytes * static_cast<long double>(space.moves())));
    split.text = fmt::format("{} pieces' {} blocks of {} ({} values)",
                             space.definition().sets[orbit.set].name, b.count, b.size, values);
    split.piece_blocks = std::move(b);
    splits.push_back(std::move(split));
  }
  return splits;
}

SymCoordinate sym_coordinate(const TwistySpace& space, const SymmetryGroup& group,
                             std::vector<std::size_t> c_parts, std::size_t turns,
                             std::uint64_t one_table_bytes) {
  return make_split(space, orbit_blocks(space, group), std::move(c_parts), group.order() * turns,
                    one_table_bytes);
}

// C and R where C is an orbit's blocks, from and to the orbit's kinds slot
// by slot. C: which slots hold each block's pieces, block by block a
// combination of the slots earlier blocks left (colex ranks: no division
// but one a block to unrank). R: a digit a block, numbering its pieces'
// order in its slots so that the digit's low bit is the order's parity
// (the last block's parity bit is then left out where the moves keep the
// orbit's parity).
class ClassSpace::BlockCode {
 public:
  BlockCode(const SymCoordinate::PieceBlocks& blocks, const Orbit& orbit)
      : blocks_(blocks),
        slots_(orbit.size()),
        digits_(static_cast<std::uint32_t>(factorial(blocks.size))),
        divisor_(digits_),
        solved_parity_(permutation_parity(orbit.kind)) {
    for (std::size_t i = 0; i < slots_; ++i) {
      solved_[i] = orbit.kind[i];
      home_[orbit.kind[i]] = static_cast<std::uint8_t>(i);
    }
    members_.resize(blocks.count);
    index_.resize(blocks.block_of.size());
    for (std::size_t kind = 0; kind < blocks.block_of.size(); ++kind) {
      std::vector<std::uint8_t>& m = members_[blocks.block_of[kind]];
      index_[kind] = static_cast<std::uint8_t>(m.size());
      m.push_back(static_cast<std::uint8_t>(kind));
    }
    number_of_.resize(digits_);
    orders_.resize(std::size_t{digits_} * blocks.size);
    std::uint32_t next[2] = {0, 1};
    std::vector<std::uint8_t> order(blocks.size);
    for (std::uint32_t rank = 0; rank < digits_; ++rank) {
      permutation_unrank(rank, order);
      std::uint32_t& number = next[permutation_parity(order)];
      number_of_[rank] = static_cast<std::uint16_t>(number);
      std::copy(order.begin(), order.end(), orders_.begin() + number * blocks.size);
      number += 2;
    }
  }

  std::uint32_t digit_values() const { return digits_; }
  unsigned blocks() const { return blocks_.count; }

  std::uint64_t c_of(const std::uint8_t* kinds) const {
    std::uint64_t c = 0, weight = 1;
    std::array<std::uint8_t, 64> left;  // the blocks of the slots left
    for (std::size_t i = 0; i < slots_; ++i) left[i] = blocks_.block_of[kinds[i]];
    std::size_t count = slots_;
    for (unsigned b = 0; b + 1 < blocks_.count; ++b) {
      std::uint64_t chosen = 0;
      std::size_t kept = 0;
      for (std::size_t j = 0; j < count; ++j)
        if (left[j] == b)
          chosen |= std::uint64_t{1} << j;
        else
          left[kept++] = left[j];
      c += combination_rank(chosen) * weight;
      weight *= kBinomial(static_cast<unsigned>(count), blocks_.size);
      count = kept;
    }
    return c;
  }
  // Whether the inverse of (labels, digit d of block b) has `target`'s
  // labels at block b's home slots: the home of the piece in slot i gets
  // the block of the kind at home in slot i (as c_of_inverse).
  bool inverse_matches(const std::uint8_t* labels, const std::uint8_t* target, unsigned b,
                       std::uint32_t d) const {
    const std::uint8_t* order = &orders_[std::size_t{d} * blocks_.size];
    std::size_t q = 0;
    for (std::size_t i = 0; i < slots_; ++i)
      if (labels[i] == b && target[home_[members_[b][order[q++]]]] != blocks_.block_of[solved_[i]])
        return false;
    return true;
  }
  // C of the inverse of the kinds: it puts at the home of the kind in slot
  // i the kind at home in slot i.
  std::uint64_t c_of_inverse(const std::uint8_t* kinds) const {
    std::array<std::uint8_t, 64> inverse;
    for (std::size_t i = 0; i < slots_; ++i) inverse[home_[kinds[i]]] = solved_[i];
    return c_of(inverse.data());
  }
  void digits_of(const std::uint8_t* kinds, std::uint32_t* digits) const {
    std::array<std::array<std::uint8_t, 8>, kMaxPieceBlocks> order;
    std::array<std::uint8_t, kMaxPieceBlocks> filled{};
    for (std::size_t i = 0; i < slots_; ++i) {
      const std::uint8_t b = blocks_.block_of[kinds[i]];
      order[b][filled[b]++] = index_[kinds[i]];
    }
    for (unsigned b = 0; b < blocks_.count; ++b)
      digits[b] = number_of_[permutation_rank(std::span(order[b].data(), blocks_.size))];
  }
  // `Blocks` is blocks() where not 0 (a loop the compiler unrolls).
  template <unsigned Blocks = 0>
  std::uint64_t encode(const std::uint32_t* digits) const {
    const unsigned last = (Blocks != 0 ? Blocks : blocks_.count) - 1;
    std::uint64_t r = blocks_.parity_kept ? digits[last] >> 1 : digits[last];
    for (unsigned b = last; b-- > 0;) r = r * digits_ + digits[b];
    return r;
  }
  // The digits of r, the last's parity bit `parity` where it is left out
  // plus the other digits' parities (a block's order's parity is its
  // digit's low bit, and the orbit's parity their sum with C's own).
  template <unsigned Blocks = 0>
  void decode(std::uint64_t r, unsigned parity, std::uint32_t* digits) const {
    const unsigned last = (Blocks != 0 ? Blocks : blocks_.count) - 1;
    for (unsigned b = 0; b < last; ++b) {
      const std::uint64_t rest = r < kFastBelow ? divisor_.quotient(r) : r / digits_;
      digits[b] = static_cast<std::uint32_t>(r - rest * digits_);
      parity ^= digits[b] & 1;
      r = rest;
    }
    digits[last] = static_cast<std::uint32_t>(blocks_.parity_kept ? 2 * r + parity : r);
  }
  // The block of each slot's piece.
  void labels_of(std::uint64_t c, std::uint8_t* labels) const {
    std::array<std::uint8_t, 64> left;  // the slots left, increasing
    std::iota(left.begin(), left.begin() + static_cast<std::ptrdiff_t>(slots_), 0);
    std::size_t count = slots_;
    for (unsigned b = 0; b < blocks_.count; ++b) {
      std::uint64_t chosen = ~std::uint64_t{0};
      if (b + 1 < blocks_.count) {
        const std::uint64_t combinations = kBinomial(static_cast<unsigned>(count), blocks_.size);
        chosen = combination_unrank(c % combinations, blocks_.size);
        c /= combinations;
      }
      std::size_t kept = 0;
      for (std::size_t j = 0; j < count; ++j)
        if ((chosen >> j & 1) != 0)
          labels[left[j]] = static_cast<std::uint8_t>(b);
        else
          left[kept++] = left[j];
      count = kept;
    }
  }
  // The kinds of (C's labels, digits), slot by slot.
  void kinds_of(const std::uint8_t* labels, const std::uint32_t* digits,
                std::uint8_t* kinds) const {
    std::array<const std::uint8_t*, kMaxPieceBlocks> order;
    std::array<std::uint8_t, kMaxPieceBlocks> used{};
    for (unsigned b = 0; b < blocks_.count; ++b) order[b] = &orders_[digits[b] * blocks_.size];
    for (std::size_t i = 0; i < slots_; ++i) {
      const std::uint8_t b = labels[i];
      kinds[i] = members_[b][order[b][used[b]++]];
    }
  }
  // What a map of the slots does to R's digits, where C's blocks go from
  // `labels` to `to_labels`: slot j gets slot source[j]'s piece, of kind
  // relabel[its kind]. For each block t of the image, the block its pieces
  // come from, and the map of that block's digit values to t's.
  void digit_action(const std::uint8_t* labels, const std::uint8_t* to_labels,
                    const std::uint8_t* source, const std::uint8_t* relabel,
                    std::uint8_t* from_block, std::vector<std::vector<std::uint16_t>>& maps) const {
    std::array<std::uint8_t, 64> place;  // [slot]: its place among its block's slots
    std::array<std::uint8_t, kMaxPieceBlocks> seen{};
    for (std::size_t i = 0; i < slots_; ++i) place[i] = seen[labels[i]]++;
    // t's q-th slot holds the piece from the slot at place where[t][q] of
    // from_block[t]; that block's member m becomes t's member moved[t][m].
    std::array<std::array<std::uint8_t, 8>, kMaxPieceBlocks> where, moved;
    std::array<std::uint8_t, kMaxPieceBlocks> filled{};
    for (std::size_t j = 0; j < slots_; ++j) {
      const std::uint8_t t = to_labels[j], i = source[j];
      from_block[t] = labels[i];
      where[t][filled[t]++] = place[i];
    }
    for (unsigned t = 0; t < blocks_.count; ++t)
      for (std::size_t m = 0; m < blocks_.size; ++m)
        moved[t][m] = index_[relabel[members_[from_block[t]][m]]];
    maps.assign(blocks_.count, std::vector<std::uint16_t>(digits_));
    std::array<std::uint8_t, 8> order;
    for (unsigned t = 0; t < blocks_.count; ++t)
      for (std::uint32_t v = 0; v < digits_; ++v) {
        const std::uint8_t* before = &orders_[std::size_t{v} * blocks_.size];
        for (std::size_t q = 0; q < blocks_.size; ++q) order[q] = moved[t][before[where[t][q]]];
        maps[t][v] = number_of_[permutation_rank(std::span(order.data(), blocks_.size))];
      }
  }
  // The parity bit that decode adds where C's labels are these.
  unsigned parity_bit(const std::uint8_t* labels) const {
    if (!blocks_.parity_kept) return 0;
    std::array<std::uint32_t, kMaxPieceBlocks> digits{};
    std::array<std::uint8_t, 64> kinds;
    kinds_of(labels, digits.data(), kinds.data());
    return permutation_parity(std::span(kinds.data(), slots_)) ^ solved_parity_;
  }

 private:
  SymCoordinate::PieceBlocks blocks_;
  std::size_t slots_;
  std::uint32_t digits_;
  static constexpr std::uint64_t kFastBelow = std::uint64_t{1} << 32;  // FastDivisor's bound
  FastDivisor divisor_;                                                // by digits_
  unsigned solved_parity_;
  std::vector<std::vector<std::uint8_t>> members_;  // [block]: its kinds, increasing
  std::vector<std::uint8_t> index_;                 // [kind]: its place among its block's
  std::vector<std::uint16_t> number_of_;            // [order's rank]: its digit
  std::vector<std::uint8_t> orders_;                // [digit * size + j]: its order
  std::array<std::uint8_t, 64> solved_{}, home_{};  // [slot]: its kind solved; [kind]: its slot
};

ClassSpace::ClassSpace(const TwistySpace& space, const SymmetryGroup& group, SymCoordinate split,
                       ClassSpaceOptions options)
    : space_(space), group_(group), split_(std::move(split)), turns_(std::move(options.turns)) {
  if (split_.parts.empty() || space.moves() > static_cast<int>(bfs::kMaxNeighbours))
    throw std::invalid_argument("twisty: no sym-coordinate, or too many moves");
  if (turns_.empty()) turns_.push_back(space.definition().identity());
  transforms_ = group.order() * turns_.size();
  if (group.order() > 255 || transforms_ > 65536)
    throw std::invalid_argument("twisty: too many symmetries and turns for a BFS over classes");
  const auto& parts = space.parts();
  weight_.assign(parts.size(), 0);
  c_weight_.assign(parts.size(), 0);
  r_weight_.assign(parts.size(), 0);
  std::uint64_t row = space.columns(), column = 1, c = 1, r = 1;
  for (std::size_t i = parts.size(); i-- > 0;) {
    std::uint64_t& w = i < space.row_parts() ? row : column;
    weight_[i] = w;
    w *= parts[i].size;
    if (!split_.piece_blocks && std::binary_search(split_.parts.begin(), split_.parts.end(), i)) {
      c_weight_[i] = c;
      c *= parts[i].size;
    }
  }
  for (const SymCoordinate::Block& block : split_.rest_blocks)
    for (std::size_t i : block.parts) {
      r_weight_[i] = r;
      r *= parts[i].size;
    }
  if (split_.piece_blocks)
    blocks_ = std::make_unique<const BlockCode>(*split_.piece_blocks, space.orbits()[0]);
  build_kind_actions();
  build_table(options.on_progress);
  if (blocks_) label_classes();
  find_stabilisers();
  if (options.method == NeighbourMethod::ByTable) {
    if (blocks_)
      build_block_tables();
    else
      build_rest_tables();
  }
  if (!rest_blocks_.empty() && !rest_tables_agree()) {
    rest_blocks_.clear();
    one_block_ = nullptr;
    shifts_.clear();
    stabiliser_shifts_.clear();
  }
  if (!rest_blocks_.empty()) keep_steps();
  if (one_block_ != nullptr) build_moved_then(rest_blocks_[0], options.moved_then);
  if (group.inverse()) {
    find_self_inverse_candidates();
    if (blocks_ && options.method == NeighbourMethod::ByTable) build_inverse_masks();
  }
  // The steps kept hold C after each move already.
  if (steps_.empty() && block_steps_.empty()) build_c_moves();
}

// Kept by the same rule as c_moves_.
void ClassSpace::keep_steps() {
  const std::size_t moves = space_.move_list().size(), stride = shift_stride();
  const std::uint64_t bytes = reps_.size() * moves * (sizeof(Step) + 4 * stride);
  if (bytes > std::max<std::uint64_t>(64 << 20, size() / 8)) return;
  steps_.resize(reps_.size() * moves);
  step_shifts_.resize(steps_.size() * stride);
  parallel_for_chunks(reps_.size(), 64, [&](std::size_t begin, std::size_t end) {
    Scratch s(space_.definition().solved);
    for (std::size_t cls = begin; cls != end; ++cls)
      class_steps(static_cast<std::uint32_t>(cls), s, steps_.data() + cls * moves,
                  step_shifts_.data() + cls * moves * stride);
  });
}

ClassSpace::~ClassSpace() = default;

std::uint64_t ClassSpace::table_bytes() const {
  std::uint64_t bytes = class_of_.size() * 5 + reps_.size() * 9 + stabilisers_.size() * 32 +
                        c_moves_.size() * 4 + steps_.size() * sizeof(Step) +
                        step_shifts_.size() * 4;
  for (const RestBlock& b : rest_blocks_)
    bytes += (b.moved.size() + b.conjugated.size()) * 4 + b.moved_then.size() * 2;
  for (const TwistShift& t : shifts_) bytes += (t.low_table.size() + t.high_table.size()) * 4;
  bytes += block_steps_.size() * sizeof(BlockAction) + digit_maps_.size() * 2;
  for (const auto& fixing : block_fixing_) bytes += fixing.size() * sizeof(BlockAction);
  bytes += inverse_masks_.size() * 8 + inverse_mask_entry_.size() * 4;
  return bytes;
}

std::uint64_t ClassSpace::compose(std::uint64_t c, std::uint64_t r) const {
  std::uint64_t rank = 0;
  const auto& parts = space_.parts();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::uint64_t digit =
        c_weight_[i] != 0 ? c / c_weight_[i] % parts[i].size : r / r_weight_[i] % parts[i].size;
    rank += digit * weight_[i];
  }
  return rank;
}

void ClassSpace::split_rank(std::uint64_t rank, std::uint64_t& c, std::uint64_t& r,
                            Scratch& s) const {
  if (blocks_) {
    space_.unrank(rank, s.position, s.coded);
    split_position(s.position, c, r, s);
    return;
  }
  space_.coordinates(rank, s.coordinates);
  c = r = 0;
  for (std::size_t i = 0; i < s.coordinates.size(); ++i) {
    c += s.coordinates[i] * c_weight_[i];
    r += s.coordinates[i] * r_weight_[i];
  }
}

std::uint64_t ClassSpace::c_of(const Position& p) const {
  return blocks_ ? blocks_->c_of(p.kind.data()) : value(p, c_weight_);
}

std::uint64_t ClassSpace::r_of(const Position& p) const {
  if (!blocks_) return value(p, r_weight_);
  std::array<std::uint32_t, kMaxPieceBlocks> digits;
  blocks_->digits_of(p.kind.data(), digits.data());
  return blocks_->encode(digits.data());
}

void ClassSpace::arrange(std::uint64_t c, std::uint64_t r, Scratch& s) const {
  if (!blocks_) {
    space_.unrank(compose(c, r), s.position, s.coded);
    return;
  }
  std::array<std::uint8_t, 64> labels;
  blocks_->labels_of(c, labels.data());
  std::array<std::uint32_t, kMaxPieceBlocks> digits;
  blocks_->decode(r, blocks_->parity_bit(labels.data()), digits.data());
  arrange_blocks(labels.data(), digits.data(), s);
}

void ClassSpace::arrange_blocks(const std::uint8_t* labels, const std::uint32_t* digits,
                                Scratch& s) const {
  std::array<std::uint8_t, 64> kinds;
  blocks_->kinds_of(labels, digits, kinds.data());
  const Orbit& orbit = space_.orbits()[0];
  for (std::size_t i = 0; i < orbit.size(); ++i) {
    s.position.perm[orbit.set][orbit.slots[i]] = orbit.piece[kinds[i]];
    s.position.ori[orbit.set][orbit.slots[i]] = static_cast<std::uint8_t>(orbit.offset);
  }
  space_.read_position(s.position, s.coded);
}

void ClassSpace::split_position(const Arrangement& x, std::uint64_t& c, std::uint64_t& r,
                                Scratch& s) const {
  if (!blocks_) {
    split_rank(space_.rank(x, s.coded), c, r, s);
    return;
  }
  space_.read_position(x, s.coded);
  c = c_of(s.coded);
  r = r_of(s.coded);
}

namespace {

std::string key_of(const Arrangement& a) {
  std::string key;
  for (std::size_t set = 0; set < a.perm.size(); ++set) {
    key.append(a.perm[set].begin(), a.perm[set].end());
    key.append(a.ori[set].begin(), a.ori[set].end());
  }
  return key;
}

}  // namespace

// Transform k = (symmetry S, turn t), S = k / turns, t = k % turns, takes x
// to S x S^-1 t. Its inverse is (S^-1, the turn u with (S^-1 t S) u = 1),
// and (S2, t2) after (S1, t1) is (S2 S1, (S2 t1 S2^-1) t2).
struct ClassSpace::TransformTable {
  std::vector<std::uint16_t> inverse;
  std::vector<std::uint8_t> sym_product;   // [a * order + b]
  std::vector<std::uint8_t> turn_product;  // [t * turns + u]: t then u
  std::vector<std::uint8_t> conjugated;    // [S * turns + t]: S t S^-1
  std::size_t turns = 1, order = 1;

  TransformTable(const SymmetryGroup& group, const Definition& def,
                 const std::vector<Arrangement>& turn_list)
      : turns(turn_list.size()), order(group.order()) {
    const GroupTable symmetries(group);
    sym_product.resize(order * order);
    for (std::size_t a = 0; a < order; ++a)
      for (std::size_t b = 0; b < order; ++b) sym_product[a * order + b] = symmetries.product[a][b];
    std::map<std::string, std::uint8_t> by_position;
    std::vector<Arrangement> positions;
    for (std::size_t t = 0; t < turns; ++t) {
      positions.push_back(apply(def.sets, def.solved, turn_list[t]));
      by_position[key_of(positions.back())] = static_cast<std::uint8_t>(t);
    }
    const auto lookup = [&](const Arrangement& position) {
      const auto it = by_position.find(key_of(position));
      if (it == by_position.end()) throw std::logic_error("twisty: turns that are not a group");
      return it->second;
    };
    turn_product.resize(turns * turns);
    conjugated.resize(order * turns);
    Arrangement image = def.solved;
    for (std::size_t t = 0; t < turns; ++t) {
      for (std::size_t u = 0; u < turns; ++u)
        turn_product[t * turns + u] = lookup(apply(def.sets, positions[t], turn_list[u]));
      for (std::size_t k = 0; k < order; ++k) {
        group.conjugate(k, positions[t], image);
        conjugated[k * turns + t] = lookup(image);
      }
    }
    inverse.resize(order * turns);
    for (std::size_t k = 0; k < order * turns; ++k) {
      const std::size_t s = symmetries.inverse[k / turns];
      const std::size_t t = conjugated[s * turns + k % turns];
      std::size_t u = 0;
      while (turn_product[t * turns + u] != 0) ++u;
      inverse[k] = static_cast<std::uint16_t>(s * turns + u);
    }
  }
  std::uint16_t product(std::size_t a, std::size_t b) const {
    const std::size_t s2 = a / turns, t2 = a % turns, s1 = b / turns, t1 = b % turns;
    const std::size_t t = turn_product[conjugated[s2 * turns + t1] * turns + t2];
    return static_cast<std::uint16_t>(sym_product[s2 * order + s1] * turns + t);
  }
};

void ClassSpace::transform(std::size_t k, const Arrangement& x, Arrangement& out,
                           Arrangement& turned) const {
  const std::size_t turn = k % turns_.size();
  if (turn == 0) {
    group_.conjugate(k / turns_.size(), x, out);
    return;
  }
  group_.conjugate(k / turns_.size(), x, turned);
  apply(space_.definition().sets, turned, turns_[turn], out);
}

void ClassSpace::set_to_least(std::uint64_t c, std::size_t k) {
  if (to_least_wide_.empty())
    std::atomic_ref(to_least_[c]).store(static_cast<std::uint8_t>(k), std::memory_order_relaxed);
  else
    std::atomic_ref(to_least_wide_[c])
        .store(static_cast<std::uint16_t>(k), std::memory_order_relaxed);
}

// Every value c of C with r = 0 is transformed by every transform, once per
// orbit: the first thread to meet an orbit writes, for each member, the
// orbit's least value and a transform taking it there (a thread that meets
// the orbit too writes the same least value; where a transform fixes it,
// maybe another transform to it, which least_rest makes alike). Then the
// least values are numbered in order.
void ClassSpace::build_table(const std::function<void(std::uint64_t)>& on_progress) {
  const TransformTable table(group_, space_.definition(), turns_);
  const std::size_t order = transforms_;
  class_of_.assign(split_.values, kNone);
  if (order <= 256)
    to_least_.assign(split_.values, 0);
  else
    to_least_wide_.assign(split_.values, 0);
  std::mutex special_mutex;
  std::vector<std::uint32_t> special;  // least values with a nontrivial stabiliser
  std::atomic<std::uint64_t> done{0};
  parallel_for_chunks(split_.values, 1 << 12, [&](std::size_t begin, std::size_t end) {
    Scratch s(space_.definition().solved);
    Arrangement image = s.position;
    std::vector<std::uint64_t> images(order);
    for (std::size_t c = begin; c != end; ++c) {
      if (std::atomic_ref(class_of_[c]).load(std::memory_order_relaxed) != kNone) continue;
      if (transform_kinds_.empty())
        arrange(c, 0, s);
      else
        arrange_kinds(c, s);
      std::size_t least = 0;
      for (std::size_t k = 0; k < order; ++k) {
        std::uint64_t value = 0;
        if (!transform_kinds_.empty()) {
          act_on_kinds(transform_kinds_[k], s.coded, s.imaged);
          value = c_of(s.imaged);
        } else {
          // Symmetries and turns map orbits to orbits and kinds to kinds:
          // the image's pieces are ranked whatever its twists.
          transform(k, s.position, image, s.turned);
          space_.read_position(image, s.coded);
          value = c_of(s.coded);
        }
        images[k] = value;
        if (value < images[least]) least = k;
      }
      for (std::size_t k = 0; k < order; ++k) {
        // images[k] = T_k c, least = T_l c: T_l T_k^-1 takes images[k] there.
        set_to_least(images[k], table.product(least, table.inverse[k]));
        std::atomic_ref(class_of_[images[k]])
            .store(static_cast<std::uint32_t>(images[least]), std::memory_order_relaxed);
      }
      // A nontrivial stabiliser (of c, so of the whole orbit): another
      // transform fixing c.
      if (std::find(images.begin() + 1, images.end(), images[0]) != images.end()) {
        const std::lock_guard lock(special_mutex);
        special.push_back(static_cast<std::uint32_t>(images[least]));
      }
    }
    if (on_progress) on_progress(done += end - begin);
  });
  // Number the least values in order; every other value's least is below it.
  for (std::size_t c = 0; c < split_.values; ++c) {
    if (class_of_[c] == c) {
      class_of_[c] = static_cast<std::uint32_t>(reps_.size());
      reps_.push_back(static_cast<std::uint32_t>(c));
    } else {
      class_of_[c] = class_of_[class_of_[c]];
    }
  }
  is_special_.assign(reps_.size(), 0);
  for (std::uint32_t least : special) is_special_[class_of_[least]] = 1;
}

// The transforms other than the identity that fix each special class's
// least value.
void ClassSpace::find_stabilisers() {
  Scratch s(space_.definition().solved);
  special_entry_.assign(reps_.size(), kNone);
  for (std::uint32_t cls = 0; cls < reps_.size(); ++cls) {
    if (is_special_[cls] == 0) continue;
    std::vector<std::uint16_t> fixing;
    arrange(reps_[cls], 0, s);
    for (std::size_t k = 1; k < transforms_; ++k) {
      // Where the kind actions are kept, they tell the transforms moving C
      // at a few loads each (kind_actions_agree checked them).
      if (!transform_kinds_.empty()) {
        act_on_kinds(transform_kinds_[k], s.coded, s.acted);
        if (c_of(s.acted) != reps_[cls]) continue;
      }
      transform(k, s.position, s.image, s.turned);
      std::uint64_t c = 0, r = 0;
      if (!space_.contains(s.image)) continue;
      split_position(s.image, c, r, s);
      if (c == reps_[cls]) fixing.push_back(static_cast<std::uint16_t>(k));
    }
    if (fixing.empty()) {
      is_special_[cls] = 0;
    } else {
      special_entry_[cls] = static_cast<std::uint32_t>(stabilisers_.size());
      stabilisers_.emplace_back(cls, std::move(fixing));
    }
  }
}

// Each class's least C as blocks slot by slot, and decode's parity bit
// there.
void ClassSpace::label_classes() {
  const std::size_t n = space_.orbits()[0].size();
  rep_labels_.resize(reps_.size() * n);
  block_parity_.resize(reps_.size());
  for (std::size_t cls = 0; cls < reps_.size(); ++cls) {
    blocks_->labels_of(reps_[cls], &rep_labels_[cls * n]);
    block_parity_[cls] = static_cast<std::uint8_t>(blocks_->parity_bit(&rep_labels_[cls * n]));
  }
}

// A class is its own inverse only where the inverse's class of C is its
// own. Where C is whole orbits' pieces (and twists), the inverse's C
// depends on C alone. Where C is blocks, only its counts do: how many
// slots of block a hold a piece of block b, a matrix the inverse
// transposes and a symmetry permutes as it permutes the blocks (turns may
// not: every class is then a candidate).
void ClassSpace::find_self_inverse_candidates() {
  may_self_invert_.assign(reps_.size(), 1);
  Scratch s(space_.definition().solved);
  if (!blocks_) {
    for (std::uint32_t cls = 0; cls < reps_.size(); ++cls) {
      arrange(reps_[cls], 0, s);
      group_.invert(s.position, s.moved);
      space_.read_position(s.moved, s.coded);
      may_self_invert_[cls] = class_of_[c_of(s.coded)] == cls;
    }
    return;
  }
  if (turns_.size() > 1) return;
  const Orbit& orbit = space_.orbits()[0];
  const auto& block_of = split_.piece_blocks->block_of;
  const unsigned count = split_.piece_blocks->count;
  // Each symmetry's permutation of the blocks, read from the slots.
  std::vector<std::array<std::uint8_t, kMaxPieceBlocks>> moved_block;
  for (const std::vector<std::uint8_t>& image : slot_images(orbit, group_)) {
    auto& to = moved_block.emplace_back();
    for (std::size_t i = 0; i < orbit.size(); ++i)
      to[block_of[orbit.kind[i]]] = block_of[orbit.kind[image[i]]];
  }
  for (std::uint32_t cls = 0; cls < reps_.size(); ++cls) {
    const std::uint8_t* labels = &rep_labels_[cls * orbit.size()];
    std::array<std::array<std::uint8_t, kMaxPieceBlocks>, kMaxPieceBlocks> counts{};
    for (std::size_t i = 0; i < orbit.size(); ++i) ++counts[block_of[orbit.kind[i]]][labels[i]];
    const auto transposed_image = [&](const std::array<std::uint8_t, kMaxPieceBlocks>& to) {
      for (unsigned a = 0; a < count; ++a)
        for (unsigned b = 0; b < count; ++b)
          if (counts[to[a]][to[b]] != counts[b][a]) return false;
      return true;
    };
    may_self_invert_[cls] = std::any_of(moved_block.begin(), moved_block.end(), transposed_image);
  }
}

void ClassSpace::build_inverse_masks() {
  const unsigned blocks = blocks_->blocks();
  const std::uint32_t digits = blocks_->digit_values();
  const auto candidates =
      static_cast<std::size_t>(std::count(may_self_invert_.begin(), may_self_invert_.end(), 1));
  // Kept where small beside the index space (at most a quarter of its
  // three bits, or 1 MiB).
  const std::uint64_t allowed = std::max<std::uint64_t>(1 << 20, size() * 3 / 32);
  if (transforms_ > 64 || candidates * blocks * digits * 8 > allowed) return;
  inverse_mask_entry_.assign(reps_.size(), kNone);
  std::uint32_t entries = 0;
  for (std::size_t cls = 0; cls < reps_.size(); ++cls)
    if (may_self_invert_[cls] != 0) inverse_mask_entry_[cls] = entries++;
  std::vector<std::vector<std::uint32_t>> values(entries);
  for (std::uint32_t c = 0; c < class_of_.size(); ++c)
    if (const std::uint32_t entry = inverse_mask_entry_[class_of_[c]]; entry != kNone)
      values[entry].push_back(c);
  inverse_masks_.assign(std::size_t{entries} * blocks * digits, 0);
  const std::size_t n = space_.orbits()[0].size();
  parallel_for_chunks(reps_.size(), 64, [&](std::size_t begin, std::size_t end) {
    std::array<std::uint8_t, 64> target;
    for (std::size_t cls = begin; cls != end; ++cls) {
      const std::uint32_t entry = inverse_mask_entry_[cls];
      if (entry == kNone) continue;
      const std::uint8_t* labels = &rep_labels_[cls * n];
      std::uint64_t* masks = &inverse_masks_[std::size_t{entry} * blocks * digits];
      for (std::size_t v = 0; v < values[entry].size(); ++v) {
        blocks_->labels_of(values[entry][v], target.data());
        for (unsigned b = 0; b < blocks; ++b)
          for (std::uint32_t d = 0; d < digits; ++d)
            if (blocks_->inverse_matches(labels, target.data(), b, d))
              masks[b * digits + d] |= std::uint64_t{1} << v;
      }
    }
  });
}

const std::vector<std::uint16_t>* ClassSpace::stabiliser(std::uint32_t cls) const {
  const std::uint32_t entry = special_entry_[cls];
  return entry == kNone ? nullptr : &stabilisers_[entry].second;
}

// The least R among the images of (least c, r) under the stabiliser.
std::uint64_t ClassSpace::least_rest(std::uint32_t cls, std::uint64_t r, Scratch& s) const {
  const std::vector<std::uint16_t>* fixing = stabiliser(cls);
  if (fixing == nullptr) return r;
  arrange(reps_[cls], r, s);
  std::uint64_t least = r;
  for (std::uint16_t k : *fixing) {
    transform(k, s.position, s.image, s.turned);
    std::uint64_t c = 0, image = 0;
    split_position(s.image, c, image, s);
    least = std::min(least, image);
  }
  return least;
}

std::uint64_t ClassSpace::index_of(std::uint64_t rank, Scratch& s) const {
  std::uint64_t c = 0, r = 0;
  split_rank(rank, c, r, s);
  const std::uint32_t cls = class_of_[c];
  if (const std::uint16_t k = to_least(c); k != 0) {
    space_.unrank(rank, s.position, s.coded);
    transform(k, s.position, s.image, s.turned);
    split_position(s.image, c, r, s);
  }
  return std::uint64_t{cls} * split_.rest + least_rest(cls, r, s);
}

std::uint64_t ClassSpace::value(const Position& p,
                                const std::vector<std::uint64_t>& weights) const {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < weights.size(); ++i)
    if (weights[i] != 0) v += space_.part_value(i, p) * weights[i];
  return v;
}

// As index_of(rank), from the position: only C's parts of it are coded,
// and only R's of its image.
std::uint64_t ClassSpace::index_of_moved(Scratch& s) const {
  space_.read_position(s.moved, s.coded);
  const std::uint64_t c = c_of(s.coded);
  const std::uint32_t cls = class_of_[c];
  if (const std::uint16_t k = to_least(c); k != 0) {
    transform(k, s.moved, s.image, s.turned);
    space_.read_position(s.image, s.coded);
  }
  return std::uint64_t{cls} * split_.rest + least_rest(cls, r_of(s.coded), s);
}

std::uint64_t ClassSpace::index_of_moved(Scratch& s, std::uint64_t c) const {
  const std::uint32_t cls = class_of_[c];
  const std::uint16_t k = to_least(c);
  if (k != 0) transform(k, s.moved, s.image, s.turned);
  space_.read_position(k != 0 ? s.image : s.moved, s.coded);
  return std::uint64_t{cls} * split_.rest + least_rest(cls, r_of(s.coded), s);
}

// Kept where it takes at most an eighth of the index space's two bits, or
// 16 MiB.
void ClassSpace::build_c_moves() {
  const std::size_t moves = space_.move_list().size();
  const std::uint64_t bytes = reps_.size() * moves * 4;
  if (bytes > std::max<std::uint64_t>(16 << 20, size() / 32)) return;
  c_moves_.resize(reps_.size() * moves);
  parallel_for_chunks(reps_.size(), 256, [&](std::size_t begin, std::size_t end) {
    Scratch s(space_.definition().solved);
    for (std::size_t cls = begin; cls != end; ++cls) {
      arrange(reps_[cls], 0, s);
      for (std::size_t m = 0; m < moves; ++m)
        c_moves_[cls * moves + m] = static_cast<std::uint32_t>(c_after_move(m, s));
    }
  });
}

void ClassSpace::arrange_kinds(std::uint64_t c, Scratch& s) const {
  if (blocks_) {
    if (s.coded.kind.empty()) space_.read_position(space_.definition().solved, s.coded);
    std::array<std::uint8_t, 64> labels;
    blocks_->labels_of(c, labels.data());
    std::array<std::uint32_t, kMaxPieceBlocks> digits;
    blocks_->decode(0, blocks_->parity_bit(labels.data()), digits.data());
    blocks_->kinds_of(labels.data(), digits.data(), s.coded.kind.data());
    return;
  }
  s.coordinates.resize(split_.parts.size());
  for (std::size_t j = 0; j < split_.parts.size(); ++j) {
    const std::size_t i = split_.parts[j];
    s.coordinates[j] = c / c_weight_[i] % space_.parts()[i].size;
  }
  space_.write_parts(split_.parts, s.coordinates, s.coded);
}

std::uint64_t ClassSpace::c_after_move(std::size_t m, Scratch& s) const {
  if (!move_kinds_.empty()) {
    act_on_kinds(move_kinds_[m], s.coded, s.acted);
  } else {
    apply(space_.definition().sets, s.position, space_.move_list()[m].effect, s.moved);
    space_.read_position(s.moved, s.acted);
  }
  return c_of(s.acted);
}

void ClassSpace::act_on_kinds(const KindAction& a, const Position& p, Position& out) const {
  if (out.kind.size() != p.kind.size()) out = p;
  for (const KindAction::Target& t : a.orbits) {
    // Through local pointers: a byte written may alias the vectors.
    const std::uint8_t* in = p.kind.data() + t.source_base;
    const std::uint8_t* from = t.from.data();
    const std::uint8_t* relabel = t.relabel.data();
    std::uint8_t* to = out.kind.data() + t.base;
    for (std::size_t i = 0, n = t.from.size(); i < n; ++i) to[i] = relabel[in[from[i]]];
  }
}

// A move takes each slot's piece from one slot; a symmetry takes slot i's
// to slot S(i), as the piece at home in S(home) (the solved position is its
// own image); a turn is a move. C's orbits: those of its parts, or the
// orbit whose blocks it is. Where C has twists, or a symmetry or turn does
// not act so on C's orbits, there are none.
void ClassSpace::build_kind_actions() {
  const auto& parts = space_.parts();
  const auto& orbits = space_.orbits();
  std::vector<int> target(orbits.size(), -1);  // [orbit]: its place in a KindAction
  std::vector<std::size_t> orbit_of;           // [place]: the orbit
  std::vector<std::size_t> first(orbits.size(), 0);
  for (std::size_t o = 1; o < orbits.size(); ++o) first[o] = first[o - 1] + orbits[o - 1].size();
  KindAction blank;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (c_weight_[i] == 0 && !blocks_) continue;
    if (parts[i].kind == Part::Kind::Twists) return;
    const std::size_t o = parts[i].orbit;
    if (target[o] >= 0) continue;
    target[o] = static_cast<int>(blank.orbits.size());
    orbit_of.push_back(o);
    KindAction::Target& t = blank.orbits.emplace_back();
    t.base = t.source_base = first[o];
    t.from.resize(orbits[o].size());
    std::iota(t.from.begin(), t.from.end(), 0);
    t.relabel.resize(orbits[o].kinds());
    std::iota(t.relabel.begin(), t.relabel.end(), 0);
  }
  const auto index_in = [&](const Orbit& orbit, unsigned slot) {
    const auto at = std::lower_bound(orbit.slots.begin(), orbit.slots.end(), slot);
    return static_cast<std::uint8_t>(at - orbit.slots.begin());
  };
  for (const Move& move : space_.move_list()) {
    KindAction& a = move_kinds_.emplace_back(blank);
    for (std::size_t place = 0; place < a.orbits.size(); ++place) {
      const Orbit& orbit = orbits[orbit_of[place]];
      for (std::size_t i = 0; i < orbit.size(); ++i)
        a.orbits[place].from[i] = index_in(orbit, move.effect.perm[orbit.set][orbit.slots[i]]);
    }
  }
  std::vector<KindAction> symmetries;
  for (const Symmetry& e : group_.elements()) {
    KindAction& a = symmetries.emplace_back(blank);
    for (std::size_t o = 0; o < orbits.size(); ++o) {
      if (target[o] < 0) continue;
      const Orbit& from = orbits[o];
      for (std::size_t i = 0; i < from.size(); ++i) {
        const unsigned set = e.set_to[from.set], slot = e.slot_to[from.set][from.slots[i]];
        const std::size_t o2 = orbit_holding(space_, set, slot);
        if (target[o2] < 0 || orbits[o2].size() != from.size() ||
            orbits[o2].kinds() != from.kinds()) {
          move_kinds_.clear();
          return;
        }
        KindAction::Target& t = a.orbits[static_cast<std::size_t>(target[o2])];
        const std::uint8_t i2 = index_in(orbits[o2], slot);
        t.source_base = first[o];
        t.from[i2] = static_cast<std::uint8_t>(i);
        t.relabel[from.kind[i]] = orbits[o2].kind[i2];
      }
    }
  }
  for (std::size_t k = 0; k < transforms_; ++k) {
    KindAction a = symmetries[k / turns_.size()];
    const Arrangement& turn = turns_[k % turns_.size()];
    for (std::size_t place = 0; place < a.orbits.size(); ++place) {
      const Orbit& orbit = orbits[orbit_of[place]];
      std::vector<std::uint8_t>& from = a.orbits[place].from;
      const std::vector<std::uint8_t> symmetric = from;
      for (std::size_t i = 0; i < orbit.size(); ++i)
        from[i] = symmetric[index_in(orbit, turn.perm[orbit.set][orbit.slots[i]])];
    }
    transform_kinds_.push_back(std::move(a));
  }
  if (!kind_actions_agree()) {
    move_kinds_.clear();
    transform_kinds_.clear();
  }
}

// The kind actions against positions, every move and transform, on a
// sample of values of C.
bool ClassSpace::kind_actions_agree() {
  Scratch s(space_.definition().solved);
  return checks_pass(split_.values, 64, 0x6a09e667f3bcc909ULL, [&](std::uint64_t c) {
    arrange(c, 0, s);
    for (std::size_t m = 0; m < move_kinds_.size(); ++m) {
      act_on_kinds(move_kinds_[m], s.coded, s.acted);
      apply(space_.definition().sets, s.position, space_.move_list()[m].effect, s.moved);
      space_.read_position(s.moved, s.imaged);
      if (c_of(s.acted) != c_of(s.imaged)) return false;
    }
    for (std::size_t k = 0; k < transform_kinds_.size(); ++k) {
      act_on_kinds(transform_kinds_[k], s.coded, s.acted);
      transform(k, s.position, s.image, s.turned);
      space_.read_position(s.image, s.imaged);
      if (c_of(s.acted) != c_of(s.imaged)) return false;
    }
    return true;
  });
}

// A shift's digit at slot j depends on the transform and the kind it puts
// there alone (build_rest_tables' assumption): read from the shifts of
// sampled values of C until every one is seen.
void ClassSpace::learn_shifts_by_kind() {
  if (shifts_.empty() || transform_kinds_.empty()) return;
  const auto& orbits = space_.orbits();
  std::size_t unseen = 0;
  for (TwistShift& t : shifts_) {
    const bool acted =
        std::any_of(transform_kinds_[0].orbits.begin(), transform_kinds_[0].orbits.end(),
                    [&](const KindAction::Target& a) { return a.base == t.first; });
    if (!acted) return;
    t.kinds = orbits[space_.parts()[t.part].orbit].kinds();
    t.by_kind.assign(transforms_ * t.digits * t.kinds, kUnseen);
    unseen += t.by_kind.size();
  }
  Scratch s(space_.definition().solved);
  std::vector<std::uint8_t> digits(shift_digit_count_);
  std::uint64_t state = 0xbb67ae8584caa73bULL;
  // Up to 4,096 samples, and none after 64 that showed nothing new (a
  // kind that never lands in some slot).
  for (int sample = 0, stale = 0; sample < 4096 && unseen > 0 && stale < 64; ++sample) {
    const std::size_t unseen_before = unseen;
    arrange(next_sample(state) % split_.values, 0, s);
    const Arrangement x = s.position;
    for (std::size_t k = 0; k < transforms_; ++k) {
      space_.read_position(x, s.coded);
      shift_digits(static_cast<std::uint16_t>(k), x, s, digits.data());
      const std::uint8_t* digit = digits.data();
      for (TwistShift& t : shifts_)
        for (std::size_t j = 0; j < t.digits; ++j, ++digit) {
          std::uint8_t& known = t.by_kind[(k * t.digits + j) * t.kinds + s.coded.kind[t.first + j]];
          if (known == kUnseen) {
            known = *digit;
            --unseen;
          } else if (known != *digit) {
            for (TwistShift& u : shifts_) u.by_kind.clear();
            return;
          }
        }
    }
    stale = unseen == unseen_before ? stale + 1 : 0;
  }
}

std::uint64_t ClassSpace::index_of(std::uint64_t rank) const {
  Scratch s(space_.definition().solved);
  return index_of(rank, s);
}

std::uint64_t ClassSpace::rank_of(std::uint64_t index) const {
  if (blocks_) {
    Scratch s(space_.definition().solved);
    arrange(reps_[index / split_.rest], index % split_.rest, s);
    return space_.rank(s.position, s.coded);
  }
  return compose(reps_[index / split_.rest], index % split_.rest);
}

bool ClassSpace::canonical(std::uint64_t index) const {
  Scratch s(space_.definition().solved);
  return canonical(index, s);
}

bool ClassSpace::canonical(std::uint64_t index, Scratch& s) const {
  const auto cls = static_cast<std::uint32_t>(index / split_.rest);
  if (is_special_[cls] == 0) return true;
  const std::uint64_t r = index % split_.rest;
  return least_rest(cls, r, s) == r;
}

std::uint64_t ClassSpace::positions(std::uint64_t index) const {
  Scratch s(space_.definition().solved);
  return positions(index, s);
}

std::uint64_t ClassSpace::positions(std::uint64_t index, Scratch& s) const {
  const auto cls = static_cast<std::uint32_t>(index / split_.rest);
  const std::vector<std::uint16_t>* fixing = stabiliser(cls);
  if (fixing == nullptr) return group_.order();
  const std::uint64_t r = index % split_.rest;
  arrange(reps_[cls], r, s);
  std::uint64_t stabiliser = 1;
  for (std::uint16_t k : *fixing) {
    transform(k, s.position, s.image, s.turned);
    std::uint64_t c = 0, image = 0;
    split_position(s.image, c, image, s);
    stabiliser += image == r;
  }
  return group_.order() / stabiliser;
}

std::uint64_t ClassSpace::inverse_of(std::uint64_t index) const {
  Scratch s(space_.definition().solved);
  return inverse_of(index, s);
}

std::uint64_t ClassSpace::inverse_of(std::uint64_t index, Scratch& s) const {
  arrange(reps_[index / split_.rest], index % split_.rest, s);
  group_.invert(s.position, s.moved);
  return index_of_moved(s);
}

bool ClassSpace::self_inverse(std::uint64_t index, Scratch& s) const {
  const std::uint64_t cls = index / split_.rest;
  if (!may_self_invert_.empty() && may_self_invert_[cls] == 0) return false;
  if (blocks_ && !inverse_c_in_class(cls, index % split_.rest)) return false;
  arrange(reps_[cls], index % split_.rest, s);
  group_.invert(s.position, s.moved);
  space_.read_position(s.moved, s.coded);
  if (rest_blocks_.empty()) {
    const std::uint64_t c = c_of(s.coded);
    return class_of_[c] == cls && index_of_moved(s, c) == index;
  }
  // By R's tables, as a step's neighbour: the inverse's R taken to the
  // class's least C. C is whole orbits (R's tables are not kept for
  // blocks), so the inverse's C, the transform to its least and the
  // shifts there are the class's: found at its first index asked (after
  // R: shift_ids overwrites s.coded).
  const std::uint64_t inverse_r = r_of(s.coded);
  if (s.inverse_of_class != cls) {
    const std::uint64_t c = c_of(s.coded);
    s.inverse_of_class = cls;
    s.inverse_step = Step{static_cast<std::uint32_t>(cls), to_least(c), is_special_[cls] != 0};
    s.inverse_in_class = class_of_[c] == cls;
    s.inverse_shift_ids.resize(shift_stride());
    if (!shifts_.empty())
      shift_ids(s.inverse_step.transform, s.moved, s, s.inverse_shift_ids.data());
  }
  return s.inverse_in_class &&
         step_index(s.inverse_step, s.inverse_shift_ids.data(), inverse_r) == index;
}

bool ClassSpace::inverse_c_in_class(std::uint64_t cls, std::uint64_t r) const {
  std::array<std::uint32_t, kMaxPieceBlocks> digits;
  blocks_->decode(r, block_parity_[cls], digits.data());
  if (!inverse_masks_.empty()) {
    const unsigned blocks = blocks_->blocks();
    const std::uint32_t values = blocks_->digit_values();
    const std::uint64_t* masks =
        &inverse_masks_[std::size_t{inverse_mask_entry_[cls]} * blocks * values];
    std::uint64_t in_class = ~std::uint64_t{0};
    for (unsigned b = 0; b < blocks; ++b) in_class &= masks[b * values + digits[b]];
    return in_class != 0;
  }
  std::array<std::uint8_t, 64> kinds;
  blocks_->kinds_of(&rep_labels_[cls * space_.orbits()[0].size()], digits.data(), kinds.data());
  return class_of_[blocks_->c_of_inverse(kinds.data())] == cls;
}

ClassSpace::Cursor::Cursor(const ClassSpace& space)
    : space_(space),
      moves_(space.space_.move_list().size()),
      row_class_(kNone),
      own_steps_(space.steps_.empty() ? moves_ : 0),
      own_ids_(own_steps_.size() * space.shift_stride()) {}

void ClassSpace::Cursor::load_steps(std::uint32_t cls) {
  row_class_ = cls;
  if (!space_.steps_.empty()) {
    steps_ = space_.steps_.data() + std::size_t{cls} * moves_;
    ids_ = space_.step_shifts_.data() + std::size_t{cls} * moves_ * space_.shift_stride();
    return;
  }
  space_.class_steps(cls, scratch(), own_steps_.data(), own_ids_.data());
  steps_ = own_steps_.data();
  ids_ = own_ids_.data();
}

std::uint64_t ClassSpace::Cursor::positions(std::uint64_t index) {
  if (!space_.table_driven()) return space_.positions(index, scratch());
  const auto cls = static_cast<std::uint32_t>(index / space_.split_.rest);
  if (space_.is_special_[cls] == 0) return space_.group_.order();
  return space_.positions_by_table(cls, index % space_.split_.rest);
}

// R moved by tables, where rest_table_bytes keeps them and every twists
// part that conjugation shifts has tables of at most 2^16 shifts a half.
void ClassSpace::build_rest_tables() {
  const auto& parts = space_.parts();
  const auto& orbits = space_.orbits();
  if (split_.rest_blocks.size() > kMaxRestBlocks ||
      rest_table_bytes(split_, space_.move_list().size(), transforms_, size()) == 0)
    return;
  // Pieces in C: those of its parts, and those that follow them.
  std::vector<bool> in_c(orbits.size(), false);
  for (std::size_t i = 0; i < parts.size(); ++i)
    if (c_weight_[i] != 0) in_c[parts[i].orbit] = true;
  for (std::size_t o = 0; o < orbits.size(); ++o)
    if (orbits[o].coupled_to >= 0 && in_c[static_cast<std::size_t>(orbits[o].coupled_to)])
      in_c[o] = true;
  // Conjugation shifts the twists of C's pieces where a symmetry's offsets
  // differ over their orbit or a twist's digit depends on its piece.
  bool shifted = false;
  for (std::size_t o = 0; o < orbits.size(); ++o) {
    if (!in_c[o]) continue;
    shifted |= orbits[o].potential != 1;
    for (const Symmetry& e : group_.elements())
      for (std::uint8_t slot : orbits[o].slots)
        shifted |= e.offset[orbits[o].set][slot] != e.offset[orbits[o].set][orbits[o].slots[0]];
  }
  std::vector<std::size_t> first(orbits.size(), 0);
  for (std::size_t o = 1; o < orbits.size(); ++o) first[o] = first[o - 1] + orbits[o - 1].size();
  for (std::size_t i = 0; shifted && i < parts.size(); ++i) {
    const Orbit& o = orbits[parts[i].orbit];
    if (parts[i].kind != Part::Kind::Twists || !in_c[parts[i].orbit] || c_weight_[i] != 0) continue;
    // A last digit of several values beside the sum: not a plain shift.
    if (o.sum_modulus > 1 && o.radix != o.sum_modulus) return;
    TwistShift t;
    t.part = i;
    t.first = first[parts[i].orbit];
    t.radix = o.radix;
    t.digits = o.sum_modulus > 1 ? o.size() - 1 : o.size();
    t.weight = r_weight_[i];
    t.size = parts[i].size;
    // One table where it takes at most 2^22 entries, else two halves.
    const double shifts = std::pow(double(t.radix), double(t.digits));
    t.low = shifts * double(t.size) <= double(1 << 22) ? t.digits : t.digits / 2;
    if (std::pow(double(t.radix), double(t.digits - t.low)) > double(1 << 16)) return;
    t.weight_divisor = FastDivisor(t.weight);
    t.size_divisor = FastDivisor(t.size);
    build_shift_tables(t);
    shift_digit_count_ += t.digits;
    shifts_.push_back(std::move(t));
  }
  Scratch s(space_.definition().solved);
  space_.read_position(space_.definition().solved, s.coded);
  c_solved_ = value(s.coded, c_weight_);
  for (const SymCoordinate::Block& block : split_.rest_blocks)
    rest_blocks_.push_back(build_rest_block(block));
  if (rest_blocks_.size() == 1) one_block_ = &rest_blocks_[0];
  stabiliser_shifts_.resize(stabilisers_.size());
  for (std::size_t e = 0; e < stabilisers_.size(); ++e) {
    const auto& [cls, fixing] = stabilisers_[e];
    stabiliser_shifts_[e].resize(fixing.size() * shift_stride());
    space_.unrank(compose(reps_[cls], 0), s.position, s.coded);
    for (std::size_t j = 0; j < fixing.size(); ++j) {
      space_.read_position(s.position, s.coded);
      shift_ids(fixing[j], s.position, s, stabiliser_shifts_[e].data() + j * shift_stride());
    }
  }
  learn_shifts_by_kind();
}

// R's values moved then conjugated, each move with each transform, where
// wanted, by default where moved_then_bytes keeps them.
void ClassSpace::build_moved_then(RestBlock& b, std::optional<bool> wanted) const {
  const std::size_t moves = space_.move_list().size();
  if (b.size > kMovedThenValues ||
      !wanted.value_or(moved_then_bytes(split_, moves, transforms_, size()) != 0))
    return;
  b.moved_then.resize(moves * transforms_ * b.size);
  parallel_for_chunks(moves * transforms_, 1, [&](std::size_t begin, std::size_t end) {
    for (std::size_t mk = begin; mk != end; ++mk) {
      const std::uint32_t* moved = b.moved.data() + mk / transforms_ * b.size;
      const std::uint32_t* conjugated = b.conjugated.data() + mk % transforms_ * b.size;
      std::uint16_t* out = b.moved_then.data() + mk * b.size;
      for (std::uint64_t v = 0; v < b.size; ++v)
        out[v] = static_cast<std::uint16_t>(conjugated[moved[v]]);
    }
  });
}

// One block's values after each move and under each transform, the other
// blocks at 0 and C at home: a move or symmetry changes the block by its
// value alone, and a turn (a product of moves) does too, so a transform's
// table is its symmetry's, then its turn's.
ClassSpace::RestBlock ClassSpace::build_rest_block(const SymCoordinate::Block& block) const {
  RestBlock b;
  b.weight = block.parts.empty() ? 1 : r_weight_[block.parts.front()];
  b.size = block.values;
  b.weight_divisor = FastDivisor(b.weight);
  b.size_divisor = FastDivisor(b.size);
  const std::size_t moves = space_.move_list().size(), turns = turns_.size();
  const std::uint64_t size = b.size;
  std::vector<std::uint32_t> turned(turns * size);
  b.moved.resize(moves * size);
  b.conjugated.resize(transforms_ * size);
  const SymmetryRecipe recipe{GroupTable(group_)};
  parallel_for_chunks(size, 256, [&](std::size_t begin, std::size_t end) {
    Scratch t(space_.definition().solved);
    const auto block_value = [&](const Arrangement& x) {
      space_.read_position(x, t.coded);
      return static_cast<std::uint32_t>(value(t.coded, r_weight_) / b.weight % size);
    };
    for (std::size_t v = begin; v != end; ++v) {
      space_.unrank(compose(c_solved_, v * b.weight), t.position, t.coded);
      for (std::size_t m = 0; m < moves; ++m) {
        apply(space_.definition().sets, t.position, space_.move_list()[m].effect, t.moved);
        b.moved[m * size + v] = block_value(t.moved);
      }
      for (std::size_t u = 0; u < turns; ++u) {
        apply(space_.definition().sets, t.position, turns_[u], t.moved);
        turned[u * size + v] = block_value(t.moved);
      }
      b.conjugated[recipe.identity * turns * size + v] = static_cast<std::uint32_t>(v);
      for (std::size_t k : recipe.direct) {
        group_.conjugate(k, t.position, t.image);
        b.conjugated[k * turns * size + v] = block_value(t.image);
      }
    }
  });
  for (const SymmetryRecipe::Step& step : recipe.composed) {
    const std::uint32_t* after = b.conjugated.data() + step.after * turns * size;
    const std::uint32_t* before = b.conjugated.data() + step.before * turns * size;
    std::uint32_t* out = b.conjugated.data() + step.product * turns * size;
    for (std::uint64_t v = 0; v < size; ++v) out[v] = after[before[v]];
  }
  for (std::size_t k = 0; k < transforms_; ++k)
    if (const std::size_t u = k % turns; u != 0)
      for (std::uint64_t v = 0; v < size; ++v)
        b.conjugated[k * size + v] = turned[u * size + b.conjugated[(k - u) * size + v]];
  return b;
}

namespace {

// A shift's table number from its digits [first, last).
std::uint32_t shift_number(const std::uint8_t* shift, std::size_t first, std::size_t last,
                           unsigned radix) {
  std::uint32_t number = 0;
  for (std::size_t j = last; j-- > first;) number = number * radix + shift[j];
  return number;
}

}  // namespace

// Each table: a part's value with a shift of its digits added, the low
// table's shifts over the first `low` digits, the high table's over the
// others.
void ClassSpace::build_shift_tables(TwistShift& t) const {
  const auto count = [&](std::size_t digits) {
    return static_cast<std::uint32_t>(std::pow(double(t.radix), double(digits)));
  };
  const std::uint32_t lows = count(t.low), highs = t.low == t.digits ? 0 : count(t.digits - t.low);
  t.low_table.resize(std::uint64_t{lows} * t.size);
  t.high_table.resize(std::uint64_t{highs} * t.size);
  parallel_for_chunks(lows + highs, 1, [&](std::size_t begin, std::size_t end) {
    Scratch s(space_.definition().solved);
    for (std::size_t n = begin; n != end; ++n) {
      const bool low = n < lows;
      std::uint32_t number = static_cast<std::uint32_t>(low ? n : n - lows);
      std::uint32_t* out =
          low ? t.low_table.data() + n * t.size : t.high_table.data() + (n - lows) * t.size;
      for (std::uint64_t v = 0; v < t.size; ++v) {
        space_.unrank(compose(0, v * t.weight), s.position, s.coded);
        std::uint32_t rest = number;
        for (std::size_t j = low ? 0 : t.low; j < (low ? t.low : t.digits); ++j) {
          std::uint8_t& digit = s.coded.digit[t.first + j];
          digit = static_cast<std::uint8_t>((digit + rest % t.radix) % t.radix);
          rest /= t.radix;
        }
        out[v] = static_cast<std::uint32_t>(space_.part_value(t.part, s.coded));
      }
    }
  });
}

// The shift is the digits of S_k x less those of the tables' image of x's
// R (x read into s.coded).
void ClassSpace::shift_digits(std::uint16_t k, const Arrangement& x, Scratch& s,
                              std::uint8_t* digits) const {
  const std::uint64_t image_r = conjugated_rest(k, value(s.coded, r_weight_));
  transform(k, x, s.image, s.turned);
  space_.read_position(s.image, s.coded);
  if (s.base.digit.size() != s.coded.digit.size()) s.base = s.coded;
  for (const TwistShift& t : shifts_) {
    space_.write_twists(t.part, t.size_divisor.remainder(t.weight_divisor.quotient(image_r)),
                        s.base);
    for (std::size_t j = 0; j < t.digits; ++j)
      *digits++ = static_cast<std::uint8_t>(
          (s.coded.digit[t.first + j] + t.radix - s.base.digit[t.first + j]) % t.radix);
  }
}

void ClassSpace::shift_ids(std::uint16_t k, const Arrangement& x, Scratch& s,
                           std::uint32_t* ids) const {
  s.shift.resize(shift_digit_count_);
  shift_digits(k, x, s, s.shift.data());
  const std::uint8_t* shift = s.shift.data();
  for (const TwistShift& t : shifts_) {
    *ids++ = shift_number(shift, 0, t.low, t.radix);
    *ids++ = shift_number(shift, t.low, t.digits, t.radix);
    shift += t.digits;
  }
}

bool ClassSpace::shift_ids_by_kind(std::uint16_t k, const Position& image,
                                   std::uint32_t* ids) const {
  for (const TwistShift& t : shifts_) {
    if (t.by_kind.empty()) return false;
    const std::uint8_t* row = t.by_kind.data() + std::size_t{k} * t.digits * t.kinds;
    const std::uint8_t* kind = image.kind.data() + t.first;
    std::uint32_t number[2] = {0, 0};
    for (std::size_t j = t.digits; j-- > 0;) {
      const std::uint8_t digit = row[j * t.kinds + kind[j]];
      if (digit == kUnseen) return false;
      std::uint32_t& n = number[j < t.low ? 0 : 1];
      n = n * t.radix + digit;
    }
    *ids++ = number[0];
    *ids++ = number[1];
  }
  return true;
}

void ClassSpace::class_steps(std::uint32_t cls, Scratch& s, Step* steps, std::uint32_t* ids) const {
  const std::size_t moves = space_.move_list().size();
  const bool kinds = !move_kinds_.empty();
  const bool arranged = c_moves_.empty() || !shifts_.empty();
  if (arranged && kinds)
    arrange_kinds(reps_[cls], s);
  else if (arranged)
    arrange(reps_[cls], 0, s);
  for (std::size_t m = 0; m < moves; ++m) {
    const std::uint64_t c = arranged ? c_after_move(m, s) : c_moves_[cls * moves + m];
    const std::uint32_t next = class_of_[c];
    const std::uint16_t k = to_least(c);
    steps[m] = {next, k, is_special_[next] != 0};
    if (shifts_.empty()) continue;
    std::uint32_t* step_ids = ids + m * shift_stride();
    if (!kinds) {
      // c_after_move left the moved position in s.moved, read into s.acted.
      std::swap(s.coded, s.acted);
      shift_ids(k, s.moved, s, step_ids);
      continue;
    }
    act_on_kinds(transform_kinds_[k], s.acted, s.imaged);
    if (shift_ids_by_kind(k, s.imaged, step_ids)) continue;
    arrange(reps_[cls], 0, s);
    apply(space_.definition().sets, s.position, space_.move_list()[m].effect, s.moved);
    space_.read_position(s.moved, s.coded);
    shift_ids(k, s.moved, s, step_ids);
    arrange_kinds(reps_[cls], s);  // the kinds that shift_ids overwrote
  }
}

template <class Visit>
void ClassSpace::for_each_fixed_image(std::uint32_t cls, std::uint64_t r, Visit&& visit) const {
  const std::uint32_t entry = special_entry_[cls];
  if (blocks_) {
    std::array<std::uint32_t, kMaxPieceBlocks> digits;
    blocks_->decode(r, block_parity_[cls], digits.data());
    for (const BlockAction& a : block_fixing_[entry]) visit(act(a, digits.data()));
    return;
  }
  const std::vector<std::uint16_t>& fixing = stabilisers_[entry].second;
  const std::uint32_t* ids = stabiliser_shifts_[entry].data();
  for (std::size_t j = 0; j < fixing.size(); ++j)
    visit(rest_image(fixing[j], ids + j * shift_stride(), r));
}

std::uint64_t ClassSpace::least_rest_by_table(std::uint32_t cls, std::uint64_t r) const {
  std::uint64_t least = r;
  for_each_fixed_image(cls, r, [&](std::uint64_t image) { least = std::min(least, image); });
  return least;
}

std::uint64_t ClassSpace::positions_by_table(std::uint32_t cls, std::uint64_t r) const {
  std::uint64_t stabiliser = 1;
  for_each_fixed_image(cls, r, [&](std::uint64_t image) { stabiliser += image == r; });
  return group_.order() / stabiliser;
}

// The tables against positions on a sample of classes, every move: a
// definition whose twists do not shift as build_rest_tables assumes keeps
// neighbours through positions.
bool ClassSpace::rest_tables_agree() {
  Scratch s(space_.definition().solved);
  const std::size_t moves = space_.move_list().size();
  std::vector<Step> steps(moves);
  std::vector<std::uint32_t> ids(moves * shift_stride());
  std::array<std::uint32_t, kMaxRestBlocks> digits;
  const std::uint64_t indices = reps_.size() * split_.rest;
  return checks_pass(indices, 256, 0x9e3779b97f4a7c15ULL, [&](std::uint64_t index) {
    const auto cls = static_cast<std::uint32_t>(index / split_.rest);
    const std::uint64_t r = index % split_.rest;
    class_steps(cls, s, steps.data(), ids.data());
    space_.unrank(compose(reps_[cls], r), s.position, s.coded);
    const Arrangement base = s.position;
    rest_digits(r, digits.data());
    for (std::size_t m = 0; m < moves; ++m) {
      apply(space_.definition().sets, base, space_.move_list()[m].effect, s.moved);
      if (step_index(steps[m], ids.data() + m * shift_stride(), moved_rest(m, digits.data())) !=
          index_of_moved(s))
        return false;
    }
    return true;
  });
}

ClassSpace::Cursor ClassSpace::cursor(std::uint64_t) const {
  return Cursor(*this);
}

namespace {

// What a step or transform does to R's digits at a class's least C: each
// block's digit comes from one block's, through a permutation of the digit
// values (C decides which block and which permutation).
struct DigitAction {
  std::array<std::uint8_t, 8> source{};
  std::vector<std::vector<std::uint16_t>> maps;  // [block]
};

}  // namespace

template <unsigned Blocks>
std::uint64_t ClassSpace::act(const BlockAction& a, const std::uint32_t* digits) const {
  std::array<std::uint32_t, kMaxPieceBlocks> out;
  const std::uint32_t values = blocks_->digit_values();
  const unsigned blocks = Blocks != 0 ? Blocks : blocks_->blocks();
  for (unsigned t = 0; t < blocks; ++t)
    out[t] = digit_maps_[std::size_t{a.map[t]} * values + digits[a.source[t]]];
  return blocks_->encode<Blocks>(out.data());
}

template <unsigned Blocks>
void ClassSpace::block_neighbours(std::uint32_t cls, std::uint64_t r, std::uint64_t* out) const {
  std::array<std::uint32_t, kMaxPieceBlocks> digits;
  blocks_->decode<Blocks>(r, block_parity_[cls], digits.data());
  const std::size_t moves = space_.move_list().size();
  const BlockAction* steps = block_steps_.data() + std::size_t{cls} * moves;
  for (std::size_t m = 0; m < moves; ++m) {
    const BlockAction& a = steps[m];
    std::uint64_t image = act<Blocks>(a, digits.data());
    if (a.special) image = least_rest_by_table(a.cls, image);
    out[m] = std::uint64_t{a.cls} * split_.rest + image;
  }
}

// Three blocks (the dino's edges, ufo's pieces) and two with their count
// known to the compiler.
void ClassSpace::block_neighbours(std::uint32_t cls, std::uint64_t r, std::uint64_t* out) const {
  switch (blocks_->blocks()) {
    case 2:
      return block_neighbours<2>(cls, r, out);
    case 3:
      return block_neighbours<3>(cls, r, out);
    default:
      return block_neighbours<0>(cls, r, out);
  }
}

// Kept where they take at most a quarter of the index space's two bits, or
// 64 MiB, and agree with positions on a sample; neighbours through
// positions otherwise.
void ClassSpace::build_block_tables() {
  static_assert(sizeof(BlockAction) <= kBlockActionBytes);
  const std::size_t moves = space_.move_list().size();
  const unsigned blocks = blocks_->blocks();
  if (move_kinds_.empty() ||
      reps_.size() * moves * sizeof(BlockAction) > std::max<std::uint64_t>(64 << 20, size() / 16))
    return;
  const std::size_t n = space_.orbits()[0].size();
  std::mutex mutex;
  std::map<std::vector<std::uint16_t>, std::uint16_t> ids;
  bool failed = false;
  // Move m (none: moves == m) then transform k, from class cls's least C to
  // class a.cls's, as R's digits see it; each distinct map of digit values
  // kept once (a block's order relabelled and reordered: at most values^2
  // of them).
  const auto keep = [&](std::uint32_t cls, std::size_t m, std::uint16_t k, BlockAction& a) {
    const KindAction::Target& turn = transform_kinds_[k].orbits[0];
    std::array<std::uint8_t, 64> source;
    for (std::size_t j = 0; j < n; ++j)
      source[j] = m < moves ? move_kinds_[m].orbits[0].from[turn.from[j]] : turn.from[j];
    DigitAction found;
    blocks_->digit_action(&rep_labels_[cls * n], &rep_labels_[std::size_t{a.cls} * n],
                          source.data(), turn.relabel.data(), found.source.data(), found.maps);
    const std::lock_guard lock(mutex);
    for (unsigned t = 0; t < blocks; ++t) {
      a.source[t] = found.source[t];
      const auto [it, added] =
          ids.emplace(std::move(found.maps[t]), static_cast<std::uint16_t>(ids.size()));
      if (added) {
        if (ids.size() > 0xFFFF) failed = true;
        digit_maps_.insert(digit_maps_.end(), it->first.begin(), it->first.end());
      }
      a.map[t] = it->second;
    }
  };
  block_steps_.resize(reps_.size() * moves);
  parallel_for_chunks(reps_.size(), 8, [&](std::size_t begin, std::size_t end) {
    Scratch s(space_.definition().solved);
    for (std::size_t cls = begin; cls != end; ++cls) {
      arrange_kinds(reps_[cls], s);
      for (std::size_t m = 0; m < moves; ++m) {
        const std::uint64_t c = c_after_move(m, s);
        BlockAction& a = block_steps_[cls * moves + m];
        a.cls = class_of_[c];
        a.special = is_special_[a.cls] != 0;
        keep(static_cast<std::uint32_t>(cls), m, to_least(c), a);
      }
    }
  });
  block_fixing_.resize(stabilisers_.size());
  for (std::size_t e = 0; e < stabilisers_.size(); ++e) {
    const auto& [cls, fixing] = stabilisers_[e];
    for (std::uint16_t k : fixing) {
      BlockAction& a = block_fixing_[e].emplace_back();
      a.cls = cls;
      keep(cls, moves, k, a);
    }
  }
  if (failed || !block_tables_agree()) {
    block_steps_.clear();
    block_fixing_.clear();
    digit_maps_.clear();
  }
}

// The tables against positions on a sample of indices, every move.
bool ClassSpace::block_tables_agree() {
  Scratch s(space_.definition().solved);
  const std::size_t moves = space_.move_list().size();
  std::array<std::uint64_t, bfs::kMaxNeighbours> by_table;
  const std::uint64_t indices = reps_.size() * split_.rest;
  return checks_pass(indices, 256, 0x9e3779b97f4a7c15ULL, [&](std::uint64_t index) {
    const auto cls = static_cast<std::uint32_t>(index / split_.rest);
    const std::uint64_t r = index % split_.rest;
    block_neighbours(cls, r, by_table.data());
    arrange(reps_[cls], r, s);
    const Arrangement base = s.position;
    for (std::size_t m = 0; m < moves; ++m) {
      apply(space_.definition().sets, base, space_.move_list()[m].effect, s.moved);
      if (by_table[m] != index_of_moved(s)) return false;
    }
    return true;
  });
}

std::unique_ptr<const ClassRows> ClassRows::of(const ClassSpace& space) {
  if (space.turns_.size() != 1 || space.one_block_ == nullptr ||
      space.one_block_->moved_then.empty() || space.steps_.empty() ||
      space.reps_.size() > 0xFFFFFFFFU || space.space_.move_list().size() > 0xFF)
    return nullptr;
  std::unique_ptr<ClassRows> rows(new ClassRows(space));
  if (!space.shifts_.empty() && !rows->build_shifted()) return nullptr;
  rows->build_returns();
  return rows;
}

// Each (move, transform, shifts) that a step takes, once: kept where they
// take at most a quarter of the index space's three bits (as the
// moved-then table), twice that table or 1 MiB, and kMovedThenBytes.
bool ClassRows::build_shifted() {
  const std::size_t stride = space_.shift_stride(), size = space_.one_block_->size;
  const std::uint64_t allowed = std::min<std::uint64_t>(
      kMovedThenBytes, std::max({std::uint64_t{1} << 20, space_.one_block_->moved_then.size() * 4,
                                 space_.size() * 3 / 32}));
  std::map<std::vector<std::uint32_t>, std::uint32_t> ids;
  tables_.resize(std::size_t{rows()} * moves_);
  std::vector<std::uint32_t> key(2 + stride);
  for (std::uint32_t r = 0; r < rows(); ++r)
    for (std::size_t m = 0; m < moves_; ++m) {
      const std::size_t at = std::size_t{r} * moves_ + m;
      key[0] = static_cast<std::uint32_t>(m);
      key[1] = space_.steps_[at].transform;
      std::copy_n(space_.step_shifts_.data() + at * stride, stride, key.begin() + 2);
      const auto [it, added] = ids.emplace(key, static_cast<std::uint32_t>(ids.size()));
      if (added && ids.size() * size * 2 > allowed) return false;
      tables_[at] = it->second;
    }
  shifted_.resize(ids.size() * size);
  const std::vector<std::uint16_t>& moved_then = space_.one_block_->moved_then;
  for (const auto& [k, id] : ids) {
    const std::uint16_t* from = moved_then.data() + (k[0] * space_.transforms_ + k[1]) * size;
    for (std::size_t c = 0; c < size; ++c)
      shifted_[id * size + c] =
          static_cast<std::uint16_t>(space_.shifted_rest(k.data() + 2, from[c]));
  }
  return true;
}

// Move m from class r's least C goes to class t, conjugated by symmetry S
// (the step's transform) to t's least: S m^-1 S^-1 returns.
ClassRows::ClassRows(const ClassSpace& space)
    : space_(space), moves_(space.space_.move_list().size()) {}

void ClassRows::build_returns() {
  returns_.resize(std::size_t{rows()} * moves_);
  const auto& elements = space_.group_.elements();
  parallel_for_chunks(rows(), 256, [&](std::size_t begin, std::size_t end) {
    for (auto r = static_cast<std::uint32_t>(begin); r != end; ++r)
      for (std::size_t m = 0; m < moves_; ++m) {
        const ClassSpace::Step& st = step(r, static_cast<int>(m));
        const int back =
            elements[st.transform]
                .move_to[static_cast<std::size_t>(space_.space_.inverse(static_cast<int>(m)))];
        if (step(st.cls, back).cls != r)
          throw std::logic_error("ClassRows: a move's conjugated inverse does not return");
        returns_[r * moves_ + m] = static_cast<std::uint8_t>(back);
      }
  });
}

void ClassRows::close_row(std::uint32_t r, std::uint64_t* bits) const {
  // An image added ahead is visited too: it adds images of the same states.
  for_each_column(bits, [&](std::uint64_t c) {
    space_.for_each_fixed_image(
        r, c, [&](std::uint64_t image) { bits[image / 64] |= std::uint64_t{1} << (image % 64); });
  });
}

// A column of a closed row is a class where it is its stabiliser images'
// least; every other row's columns are classes.
ClassRows::Tally ClassRows::tally(std::uint32_t r, const std::uint64_t* bits, std::uint32_t count,
                                  bool inverse, ClassSpace::Cursor& cursor) const {
  const std::uint64_t stabiliser = closed(r) ? space_.stabiliser(r)->size() + 1 : 1;
  Tally t{closed(r) ? 0 : count, count * (space_.group_order() / stabiliser), 0};
  if (!closed(r) && !inverse) return t;
  const std::uint64_t first = std::uint64_t{r} * columns();
  for_each_column(bits, [&](std::uint64_t c) {
    if (closed(r) && space_.least_rest_by_table(r, c) != c) return;
    t.classes += closed(r);
    if (inverse) t.self_inverse += cursor.self_inverse(first + c);
  });
  return t;
}

}  // namespace cubenum::twisty
