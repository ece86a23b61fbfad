// Disassembly by BurrTools' rules (search/disassembly.hpp): a breadth-first
// search over the pieces' relative positions for each part, the moves of a
// position met in BurrTools' order.
#include "cubenum/search/disassembly.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "cubenum/core/hash.hpp"

namespace cubenum::search {
namespace {

using Mask = std::uint64_t;
using Offset = std::array<int, 3>;
constexpr std::uint32_t kFree = 0xFFFFFFFFu;  // a gap with nothing in the way
constexpr int kMaxCoordinate = 10000;

// How far one piece can slide towards +x, +y and +z before it meets
// another one, the other staying put, by their relative offset (kFree:
// never). Kept per pair of pieces and offset: positions of a search
// repeat the same few.
class Gaps {
 public:
  explicit Gaps(const std::vector<std::vector<Voxel>>& pieces) {
    for (const auto& piece : pieces) {
      auto& axes = lines_.emplace_back();
      for (int a = 0; a < 3; ++a) axes[a] = lines_of(piece, a);
    }
  }

  // i slides, j stays; j stands at `r` relative to i.
  const std::array<std::uint32_t, 3>& get(int i, int j, const Offset& r) {
    const bool small = std::all_of(r.begin(), r.end(), [](int c) { return std::abs(c) < 32768; });
    if (!small) return scratch_ = compute(i, j, r);
    // (Never 0, the empty slot's key: i and j differ.)
    const Mask key = (Mask(i) << 58) | (Mask(j) << 52) | (Mask(r[0] & 0xFFFF) << 32) |
                     (Mask(r[1] & 0xFFFF) << 16) | Mask(r[2] & 0xFFFF);
    if ((used_ + 1) * 2 > cache_.size()) grow();
    for (std::size_t h = slot_of(key);; h = (h + 1) & (cache_.size() - 1)) {
      Slot& slot = cache_[h];
      if (slot.key == key) return slot.gap;
      if (slot.key == 0) {
        ++used_;
        return slot = {key, compute(i, j, r)}, slot.gap;
      }
    }
  }

 private:
  // A piece's voxels along axis a, line by line (a line: the voxels whose
  // other two coordinates are u and w), each line's sorted along a.
  struct Line {
    std::uint64_t key;
    int u, w;
    int begin, end;  // in `along`
  };
  struct Lines {
    std::vector<Line> lines;  // by key
    std::vector<int> along;
  };

  static std::uint64_t line_key(int u, int w) {
    return std::uint64_t(std::uint32_t(u)) << 32 | std::uint32_t(w);
  }

  static Lines lines_of(const std::vector<Voxel>& piece, int a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    std::vector<std::pair<std::uint64_t, int>> sorted;
    for (const Voxel& v : piece) sorted.emplace_back(line_key(v[b], v[c]), v[a]);
    std::sort(sorted.begin(), sorted.end());
    Lines out;
    for (std::size_t k = 0; k < sorted.size(); ++k) {
      if (k == 0 || sorted[k].first != sorted[k - 1].first) {
        const auto u = static_cast<int>(sorted[k].first >> 32);
        const auto w = static_cast<int>(static_cast<std::uint32_t>(sorted[k].first));
        out.lines.push_back({sorted[k].first, u, w, static_cast<int>(k), static_cast<int>(k)});
      }
      out.along.push_back(sorted[k].second);
      ++out.lines.back().end;
    }
    return out;
  }

  // Along each axis, the fewest empty cells between a voxel of i and a
  // voxel of j beyond it on the same line: each line of i meets j's line
  // (if any) in one merge of the two sorted lists.
  std::array<std::uint32_t, 3> compute(int i, int j, const Offset& r) const {
    std::array<std::uint32_t, 3> gap = {kFree, kFree, kFree};
    for (int a = 0; a < 3; ++a) {
      const int b = (a + 1) % 3, c = (a + 2) % 3;
      const Lines &mine = lines_[i][a], &theirs = lines_[j][a];
      for (const Line& line : mine.lines) {
        const std::uint64_t key = line_key(line.u - r[b], line.w - r[c]);
        const auto other =
            std::lower_bound(theirs.lines.begin(), theirs.lines.end(), key,
                             [](const Line& l, std::uint64_t k) { return l.key < k; });
        if (other == theirs.lines.end() || other->key != key) continue;
        // For each of j's voxels (in i's frame), the last of i's before it.
        int x = line.begin;
        for (int y = other->begin; y < other->end; ++y) {
          const int ahead = theirs.along[y] + r[a];
          while (x + 1 < line.end && mine.along[x + 1] < ahead) ++x;
          if (mine.along[x] < ahead)
            gap[a] = std::min(gap[a], static_cast<std::uint32_t>(ahead - mine.along[x] - 1));
        }
      }
    }
    return gap;
  }

  // The cache: open addressing, a power of two slots (positions look up
  // every pair of pieces, the search's most frequent step).
  struct Slot {
    Mask key = 0;  // 0: empty
    std::array<std::uint32_t, 3> gap{};
  };

  // The product's top bits, which every bit of the key reaches.
  std::size_t slot_of(Mask key) const {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >>
                                    (64 - std::countr_zero(cache_.size())));
  }

  void grow() {
    std::vector<Slot> old(std::max<std::size_t>(1024, cache_.size() * 2));
    old.swap(cache_);
    for (const Slot& slot : old) {
      if (slot.key == 0) continue;
      std::size_t h = slot_of(slot.key);
      while (cache_[h].key != 0) h = (h + 1) & (cache_.size() - 1);
      cache_[h] = slot;
    }
  }

  std::vector<std::array<Lines, 3>> lines_;  // by piece and axis
  std::vector<Slot> cache_;
  std::size_t used_ = 0;
  std::array<std::uint32_t, 3> scratch_{};
};

// A move found from a position: `group` (bits of the part's pieces)
// slides `amount` steps (kFree: away) along `direction`.
struct Move {
  Mask group = 0;
  int direction = 0;
  std::uint32_t amount = 0;
};

// One part's breadth-first search.
class PartSearch {
 public:
  PartSearch(Gaps& gaps, const std::vector<int>& ids, const std::vector<Offset>& start,
             const DisassemblyOptions& options)
      : gaps_(gaps), ids_(ids), n_(static_cast<int>(ids.size())), options_(options) {
    add(start, kNone, {});
  }

  // The first separation (from the position `from`), as BurrTools meets
  // it; found = false where the part never comes apart or the search gave up.
  struct Found {
    bool found = false, stopped = false;
    std::uint32_t from = 0;
    Move move;
  };

  Found run() {
    const Found f = search();
    report();
    return f;
  }

  // The offsets of position s (piece 0 at the origin).
  std::vector<Offset> offsets(std::uint32_t s) const {
    std::vector<Offset> o(n_, Offset{0, 0, 0});
    for (int i = 1; i < n_; ++i)
      for (int a = 0; a < 3; ++a) o[i][a] = arena_[(s * (n_ - 1) + i - 1) * 3 + a];
    return o;
  }

  // The moves from the start to position s.
  std::vector<Move> path(std::uint32_t s) const {
    std::vector<Move> moves;
    for (; came_[s].parent != kNone; s = came_[s].parent) moves.push_back(came_[s].move);
    std::reverse(moves.begin(), moves.end());
    return moves;
  }

  std::uint64_t states() const { return count(); }

 private:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  struct Came {
    std::uint32_t parent;
    Move move;
  };

  // The breadth-first search, to the first separation it meets.
  Found search() {
    Found f;
    for (std::size_t begin = 0, end = count(); begin < end; begin = end, end = count()) {
      for (std::size_t s = begin; s < end; ++s) {
        if (gave_up()) return f.stopped = true, f;
        load(static_cast<std::uint32_t>(s));
        if (removal(f.move)) return f.found = true, f.from = static_cast<std::uint32_t>(s), f;
        for (int dir = 0; dir < 6; ++dir) slides(static_cast<std::uint32_t>(s), dir);
      }
    }
    return f;
  }

  std::size_t count() const { return came_.size(); }

  bool gave_up() {
    if (options_.max_states != 0 && count() > options_.max_states) return true;
    if ((++polls_ & 1023) != 0) return false;
    report();
    return options_.stop && options_.stop();
  }

  // The positions reached since the last report, to options.reached.
  void report() {
    if (options_.reached == nullptr) return;
    options_.reached->fetch_add(count() - reported_, std::memory_order_relaxed);
    reported_ = count();
  }

  // The gaps between every two pieces of the position.
  void load(std::uint32_t s) {
    at_ = offsets(s);
    limit_.assign(std::size_t(3) * n_ * n_, kFree);
    for (int i = 0; i < n_; ++i)
      for (int j = 0; j < n_; ++j) {
        if (i == j) continue;
        const Offset r = {at_[j][0] - at_[i][0], at_[j][1] - at_[i][1], at_[j][2] - at_[i][2]};
        const auto& g = gaps_.get(ids_[i], ids_[j], r);
        for (int a = 0; a < 3; ++a) limit_[(a * n_ + i) * n_ + j] = g[a];
      }
  }

  // How far x can slide along `dir` while y stays (towards -a: how far y
  // could slide towards +a while x stays).
  std::uint32_t limit(int dir, int x, int y) const {
    const int a = dir / 2;
    return dir % 2 == 0 ? limit_[(a * n_ + x) * n_ + y] : limit_[(a * n_ + y) * n_ + x];
  }

  // The pieces that must slide with p for it to go `amount` along `dir`;
  // 0 where they are more than `most`.
  Mask group(int p, int dir, std::uint32_t amount, int most) const {
    Mask in = Mask(1) << p, todo = in;
    int size = 1;
    while (todo != 0) {
      const int x = std::countr_zero(todo);
      todo &= todo - 1;
      for (int y = 0; y < n_; ++y) {
        if ((in >> y & 1) != 0 || amount <= limit(dir, x, y)) continue;
        if (++size > most) return 0;
        in |= Mask(1) << y;
        todo |= Mask(1) << y;
      }
    }
    return in;
  }

  // A group that can slide away: single pieces first, then groups of up to
  // half the part, each in direction order, then piece order.
  bool removal(Move& found) const {
    for (const int most : {1, n_ / 2})
      for (int dir = 0; dir < 6; ++dir)
        for (int p = 0; p < n_; ++p)
          if (const Mask g = group(p, dir, kFree, most); g != 0)
            return found = {g, dir, kFree}, true;
    return false;
  }

  // Every slide along `dir` from position s, in BurrTools' order: each
  // piece's group for 1, 2, ... steps while it is at most half the part;
  // each new one also joined with each found before it (newest first) that
  // slides as far, where the union is new and not every piece.
  void slides(std::uint32_t s, int dir) {
    std::vector<Move>& found = found_;
    found.clear();
    const auto known = [&](Mask g, std::uint32_t amount) {
      return std::any_of(found.begin(), found.end(),
                         [&](const Move& m) { return m.group == g && m.amount == amount; });
    };
    const Mask all = n_ == 64 ? ~Mask(0) : (Mask(1) << n_) - 1;
    for (int p = 0; p < n_; ++p)
      for (std::uint32_t amount = 1;; ++amount) {
        const Mask g = group(p, dir, amount, n_ / 2);
        if (g == 0) break;
        if (known(g, amount)) continue;
        found.push_back({g, dir, amount});
        step(s, found.back());
        for (std::size_t k = found.size() - 1; k-- > 0;) {
          const Move m = found[k];
          const Mask u = g | m.group;
          if (m.amount != amount || u == all || u == g || u == m.group || known(u, amount))
            continue;
          found.push_back({u, dir, amount});
          step(s, found.back());
        }
      }
  }

  // The position after `move` from s, kept if it is new.
  void step(std::uint32_t s, const Move& move) {
    std::vector<Offset> o = at_;
    const int a = move.direction / 2;
    const int d = (move.direction % 2 == 0 ? 1 : -1) * static_cast<int>(move.amount);
    for (int i = 0; i < n_; ++i)
      if ((move.group >> i & 1) != 0) o[i][a] += d;
    add(o, s, move);
  }

  // Adds the position (any offsets: made relative to piece 0) if new.
  void add(const std::vector<Offset>& o, std::uint32_t parent, const Move& move) {
    const std::size_t width = std::size_t(n_ - 1) * 3;
    key_.resize(width);
    for (int i = 1; i < n_; ++i)
      for (int a = 0; a < 3; ++a) key_[(i - 1) * 3 + a] = o[i][a] - o[0][a];
    if (!insert()) return;
    arena_.insert(arena_.end(), key_.begin(), key_.end());
    came_.push_back({parent, move});
  }

  // Whether key_ is new (then it is the next position's).
  bool insert() {
    if ((count() + 1) * 2 > table_.size()) grow();
    const std::size_t mask = table_.size() - 1;
    for (std::size_t h = hash(key_.data()) & mask;; h = (h + 1) & mask) {
      if (table_[h] == kNone) return table_[h] = static_cast<std::uint32_t>(count()), true;
      if (std::equal(key_.begin(), key_.end(), arena_.begin() + table_[h] * key_.size()))
        return false;
    }
  }

  std::size_t hash(const int* key) const { return hash_bytes(key, key_.size() * sizeof(int)); }

  void grow() {
    table_.assign(std::max<std::size_t>(64, table_.size() * 2), kNone);
    const std::size_t mask = table_.size() - 1, width = key_.size();
    for (std::uint32_t s = 0; s < count(); ++s) {
      std::size_t h = hash(arena_.data() + s * width) & mask;
      while (table_[h] != kNone) h = (h + 1) & mask;
      table_[h] = s;
    }
  }

  Gaps& gaps_;
  const std::vector<int>& ids_;
  const int n_;
  const DisassemblyOptions& options_;
  std::vector<int> arena_;  // each position: pieces 1.. relative to piece 0
  std::vector<Came> came_;
  std::vector<std::uint32_t> table_;
  std::vector<int> key_;
  std::vector<Offset> at_;
  std::vector<std::uint32_t> limit_;
  std::vector<Move> found_;
  std::uint64_t polls_ = 0;
  std::uint64_t reported_ = 0;  // positions added to options.reached
};

// One separation of the tree: its moves, then the part left behind and
// the part removed (null: a single piece, or a part taken as apart by its
// groups).
struct Separation {
  std::vector<DisassemblyMove> moves;
  std::unique_ptr<Separation> left, removed;
};

// Which groups the parts that stay together are given (DisassemblyRules):
// each such part one group, with copies of each of its shapes to spare.
class Grouping {
 public:
  explicit Grouping(const DisassemblyRules& rules) : rules_(rules) {}

  // Whether every piece of the part is of one shape group, the same.
  bool one_group(const std::vector<int>& shapes) const {
    int group = 0;
    for (const int s : shapes) {
      const auto& g = groups(s);
      if (g.size() != 1 || g[0].first == 0 || (group != 0 && g[0].first != group)) return false;
      group = g[0].first;
    }
    return group != 0;
  }

  // Adds a part that stays together; whether all of them can still be given groups.
  bool add(std::vector<int> shapes) {
    parts_.push_back(std::move(shapes));
    std::map<std::pair<int, int>, int> spare;  // (shape, group) -> copies
    for (std::size_t s = 0; s < rules_.groups.size(); ++s)
      for (const auto& [group, copies] : rules_.groups[s])
        if (group != 0) spare[{static_cast<int>(s), group}] += copies;
    return assign(0, spare);
  }

 private:
  const std::vector<std::pair<int, int>>& groups(int shape) const {
    static const std::vector<std::pair<int, int>> kNone;
    return shape < static_cast<int>(rules_.groups.size()) ? rules_.groups[shape] : kNone;
  }

  bool assign(std::size_t k, std::map<std::pair<int, int>, int>& spare) const {
    if (k == parts_.size()) return true;
    std::set<int> tried;
    for (const auto& [key, copies] : spare) {
      const int group = key.second;
      if (!tried.insert(group).second) continue;
      auto left = spare;
      bool fits = true;
      for (const int s : parts_[k]) fits = fits && --left[{s, group}] >= 0;
      if (fits && assign(k + 1, left)) return true;
    }
    return false;
  }

  const DisassemblyRules& rules_;
  std::vector<std::vector<int>> parts_;
};

struct Solver {
  Gaps gaps;
  const DisassemblyRules& rules;
  const DisassemblyOptions& options;
  Grouping grouping{rules};
  std::uint64_t states = 0;
  bool stopped = false;

  int shape(int id) const {
    return rules.shape.empty() ? id : rules.shape[static_cast<std::size_t>(id)];
  }
  int weight(int id) const {
    const int s = shape(id);
    return s < static_cast<int>(rules.weight.size()) ? rules.weight[s] : 1;
  }

  // The part `ids` from `at`: its first separation, found breadth-first,
  // and its parts taken apart in turn (BurrTools keeps to the first
  // separation it meets: where a part of it stays together, so does the
  // whole). ok = false where it does not come apart.
  std::unique_ptr<Separation> solve(const std::vector<int>& ids, const std::vector<Offset>& at,
                                    bool& ok) {
    ok = false;
    PartSearch search(gaps, ids, at, options);
    const PartSearch::Found f = search.run();
    states += search.states();
    stopped = stopped || f.stopped;
    if (!f.found) return nullptr;
    auto sep = std::make_unique<Separation>();
    for (const Move& m : search.path(f.from)) sep->moves.push_back(shown(ids, m, false));
    sep->moves.push_back(shown(ids, f.move, true));
    // Each part from where it stood before the separation; the part left
    // behind first, the removed one only where that came apart.
    const Mask out = removed(ids, f.move.group);
    const std::vector<Offset> before = search.offsets(f.from);
    std::vector<int> part_ids[2];
    std::vector<Offset> part_at[2];
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const int k = (out >> i & 1) != 0 ? 1 : 0;
      part_ids[k].push_back(ids[i]);
      part_at[k].push_back(before[i]);
    }
    sep->left = part(part_ids[0], part_at[0], ok);
    if (!ok) return nullptr;
    sep->removed = part(part_ids[1], part_at[1], ok);
    if (!ok) return nullptr;
    return sep;
  }

  // A part after a separation: apart if a single piece or all of one
  // group; else taken apart, or left together where the groups allow.
  std::unique_ptr<Separation> part(const std::vector<int>& ids, const std::vector<Offset>& at,
                                   bool& ok) {
    std::vector<int> shapes;
    for (const int id : ids) shapes.push_back(shape(id));
    ok = true;
    if (ids.size() == 1 || grouping.one_group(shapes)) return nullptr;
    auto sep = solve(ids, at, ok);
    if (!ok && !stopped) ok = grouping.add(shapes);
    return sep;
  }

  // The side of a move shown moving: the group, unless it is heavier than
  // the rest (its heaviest piece than theirs): then the rest, the other way.
  bool turned(const std::vector<int>& ids, Mask group) const {
    int moving = 0, still = 0;
    for (std::size_t i = 0; i < ids.size(); ++i)
      ((group >> i & 1) != 0 ? moving : still) =
          std::max((group >> i & 1) != 0 ? moving : still, weight(ids[i]));
    return still < moving;
  }

  Mask removed(const std::vector<int>& ids, Mask group) const {
    const Mask all = ids.size() == 64 ? ~Mask(0) : (Mask(1) << ids.size()) - 1;
    return turned(ids, group) ? all & ~group : group;
  }

  DisassemblyMove shown(const std::vector<int>& ids, const Move& m, bool away) const {
    DisassemblyMove move;
    const Mask group = removed(ids, m.group);
    for (std::size_t i = 0; i < ids.size(); ++i)
      if ((group >> i & 1) != 0) move.pieces.push_back(ids[i]);
    move.direction = turned(ids, m.group) ? m.direction ^ 1 : m.direction;
    move.distance = away ? 0 : static_cast<int>(m.amount);
    move.separation = away;
    return move;
  }
};

bool many_moves(const Separation* s) {
  return s != nullptr &&
         (s->moves.size() > 1 || many_moves(s->left.get()) || many_moves(s->removed.get()));
}

// BurrTools' level: this separation's moves, then each part's where it
// takes more than one move somewhere.
std::string level_of(const Separation& s) {
  std::string text = std::to_string(s.moves.size());
  for (const Separation* part : {s.left.get(), s.removed.get()})
    if (many_moves(part)) {
      text += '.';
      text += level_of(*part);
    }
  return text;
}

void plan_of(const Separation& s, std::vector<DisassemblyMove>& plan) {
  plan.insert(plan.end(), s.moves.begin(), s.moves.end());
  for (const Separation* part : {s.left.get(), s.removed.get()})
    if (part != nullptr) plan_of(*part, plan);
}

}  // namespace

const char* direction_name(int direction) {
  static constexpr const char* kNames[6] = {"+x", "-x", "+y", "-y", "+z", "-z"};
  return direction >= 0 && direction < 6 ? kNames[direction] : "?";
}

DisassemblyResult disassemble(const std::vector<std::vector<Voxel>>& pieces,
                              const DisassemblyOptions& options) {
  return disassemble(pieces, DisassemblyRules{}, options);
}

DisassemblyResult disassemble(const std::vector<std::vector<Voxel>>& pieces,
                              const DisassemblyRules& rules, const DisassemblyOptions& options) {
  if (pieces.size() > kMaxDisassemblyPieces)
    throw std::invalid_argument("disassembly: more than 64 pieces in one assembly");
  if (!rules.shape.empty() && rules.shape.size() != pieces.size())
    throw std::invalid_argument("disassembly: a shape for each piece, or none");
  for (const auto& piece : pieces)
    for (const Voxel& v : piece)
      for (const int c : v)
        if (std::abs(c) > kMaxCoordinate)
          throw std::invalid_argument("disassembly: a coordinate beyond +-10000");
  DisassemblyResult result;
  if (pieces.size() < 2) return result;  // BurrTools: nothing to take apart
  Solver solver{Gaps(pieces), rules, options};
  std::vector<int> ids(pieces.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i);
  bool ok = false;
  const auto tree = solver.solve(ids, std::vector<Offset>(pieces.size(), Offset{0, 0, 0}), ok);
  result.states = solver.states;
  result.complete = !solver.stopped;
  if (!ok || solver.stopped) return result;
  result.comes_apart = true;
  result.level = level_of(*tree);
  plan_of(*tree, result.plan);
  return result;
}

}  // namespace cubenum::search
