// The grid search of the sudoku cube: slots are filled one by one (the 8
// corners, then the 12 edges); every face keeps a bit mask of the digits it
// already shows and a mask of the directions its digits may still face, so
// checking a candidate piece and twist is a few ANDs per sticker.
#include "cubenum/puzzles/sudoku_cube.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "cubenum/search/split_search.hpp"

namespace cubenum::sudoku_cube {
namespace {

constexpr int kSteps = kCornerSlots + kEdgeSlots;

// What putting one piece into one slot with one twist shows on each field.
struct Placement {
  std::array<std::uint8_t, 3> face{};
  std::array<std::uint16_t, 3> digit_bit{};
  std::array<std::uint8_t, 3> directions{};  // allowed face directions: 1 bit, 2 for a 1
  bool allowed_on(const std::array<std::uint16_t, kNetFaces>& digits,
                  const std::array<std::uint8_t, kNetFaces>& dirs, int stickers) const {
    for (int q = 0; q < stickers; ++q)
      if ((digits[face[q]] & digit_bit[q]) || !(dirs[face[q]] & directions[q])) return false;
    return true;
  }
};

std::uint8_t direction_mask(const Sticker& s, int arrow) {
  const int d = (arrow + s.rotation) % 4;
  return std::uint8_t(s.digit == 1 ? (1u << d) | (1u << (d + 2) % 4) : 1u << d);
}

// placements[step][piece][twist], step < 8 a corner slot, else an edge slot.
struct Tables {
  std::array<std::array<std::array<Placement, 3>, kEdgeSlots>, kSteps> placements{};
  std::array<std::uint16_t, kNetFaces> centre_bits{};
};

Tables make_tables(const Instance& instance) {
  Tables t;
  for (int row = 0; row < kNetRows; ++row)
    for (int col = 0; col < kNetCols; ++col) {
      const Field& f = instance.net[row][col];
      int face = 0;
      for (int g = 0; g < kNetFaces; ++g)
        if (row / 3 == face_origin(g)[0] / 3 && col / 3 == face_origin(g)[1] / 3) face = g;
      if (f.kind == Field::centre)
        t.centre_bits[face] = std::uint16_t(1u << instance.centres[face]);
      if (f.kind != Field::corner && f.kind != Field::edge) continue;
      const bool corner = f.kind == Field::corner;
      const int step = corner ? f.slot : kCornerSlots + f.slot;
      const int pieces = corner ? kCornerSlots : kEdgeSlots, twists = corner ? 3 : 2;
      for (int piece = 0; piece < pieces; ++piece)
        for (int twist = 0; twist < twists; ++twist) {
          const Sticker s = corner ? instance.corners[piece][(f.index + twist) % 3]
                                   : instance.edges[piece][(f.index + twist) % 2];
          Placement& p = t.placements[step][piece][twist];
          p.face[f.index] = std::uint8_t(face);
          p.digit_bit[f.index] = std::uint16_t(1u << s.digit);
          p.directions[f.index] = direction_mask(s, f.arrow);
        }
    }
  return t;
}

struct State {
  std::array<std::uint16_t, kNetFaces> digits{};
  std::array<std::uint8_t, kNetFaces> dirs{};
  std::uint16_t corners_used = 0, edges_used = 0;
  GridSolution solution{};
  int step = 0;
};

struct Found {
  std::vector<GridSolution> solutions;
  std::uint64_t nodes = 0;
  Found& operator+=(const Found& o) {
    solutions.insert(solutions.end(), o.solutions.begin(), o.solutions.end());
    nodes += o.nodes;
    return *this;
  }
};

template <class Leaf>
void extend(const Tables& t, State& s, int stop, std::uint64_t& nodes, Leaf&& leaf) {
  ++nodes;
  if (s.step == stop) {
    leaf(static_cast<const State&>(s));
    return;
  }
  const bool corner = s.step < kCornerSlots;
  const int pieces = corner ? kCornerSlots : kEdgeSlots, twists = corner ? 3 : 2;
  std::uint16_t& used = corner ? s.corners_used : s.edges_used;
  const int slot = corner ? s.step : s.step - kCornerSlots;
  for (int piece = 0; piece < pieces; ++piece) {
    if (used >> piece & 1) continue;
    for (int twist = 0; twist < twists; ++twist) {
      const Placement& p = t.placements[s.step][piece][twist];
      if (!p.allowed_on(s.digits, s.dirs, twists)) continue;
      const State saved = s;
      for (int q = 0; q < twists; ++q) {
        s.digits[p.face[q]] |= p.digit_bit[q];
        s.dirs[p.face[q]] &= p.directions[q];
      }
      used |= std::uint16_t(1u << piece);
      std::uint8_t* pieces_in =
          corner ? s.solution.corner_piece.data() : s.solution.edge_piece.data();
      std::uint8_t* twists_in =
          corner ? s.solution.corner_twist.data() : s.solution.edge_flip.data();
      pieces_in[slot] = std::uint8_t(piece);
      twists_in[slot] = std::uint8_t(twist);
      ++s.step;
      extend(t, s, stop, nodes, leaf);
      s = saved;
    }
  }
}

GridSolution finished(const State& s) {
  GridSolution g = s.solution;
  for (int f = 0; f < kNetFaces; ++f) g.direction[f] = std::uint8_t(std::countr_zero(s.dirs[f]));
  g.reachable = is_reachable(g);
  return g;
}

template <std::size_t N>
int parity(const std::array<std::uint8_t, N>& perm) {
  int inversions = 0;
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = i + 1; j < N; ++j) inversions += perm[i] > perm[j];
  return inversions % 2;
}

}  // namespace

bool is_reachable(const GridSolution& s) {
  int twist = 0, flip = 0;
  for (auto t : s.corner_twist) twist += t;
  for (auto f : s.edge_flip) flip += f;
  return twist % 3 == 0 && flip % 2 == 0 && parity(s.corner_piece) == parity(s.edge_piece);
}

std::size_t SudokuResult::reachable() const {
  return std::size_t(std::count_if(solutions.begin(), solutions.end(),
                                   [](const GridSolution& s) { return s.reachable; }));
}

SudokuResult solve_grid(const Instance& instance) {
  const Tables tables = make_tables(instance);
  State root;
  root.digits = tables.centre_bits;
  root.dirs.fill(0xf);
  // Subtrees: the first two corner slots filled (at most 8*3*7*3 = 504).
  constexpr int kSplitSteps = 2;
  std::vector<State> prefixes;
  std::uint64_t split_nodes = 0;
  extend(tables, root, kSplitSteps, split_nodes, [&](const State& s) { prefixes.push_back(s); });
  Found found = search::search_subtrees<Found, State>(prefixes, [&](State s, Found& local) {
    --local.nodes;  // the prefix itself was counted while splitting
    extend(tables, s, kSteps, local.nodes,
           [&](const State& done) { local.solutions.push_back(finished(done)); });
  });
  std::sort(found.solutions.begin(), found.solutions.end());
  return {std::move(found.solutions), found.nodes + split_nodes};
}

Sticker shown_sticker(const Instance& instance, const GridSolution& s, int row, int col) {
  const Field& f = instance.net[row][col];
  if (f.kind == Field::corner) {
    const Sticker st =
        instance.corners[s.corner_piece[f.slot]][(f.index + s.corner_twist[f.slot]) % 3];
    return {st.digit, std::uint8_t((f.arrow + st.rotation) % 4)};
  }
  if (f.kind == Field::edge) {
    const Sticker st = instance.edges[s.edge_piece[f.slot]][(f.index + s.edge_flip[f.slot]) % 2];
    return {st.digit, std::uint8_t((f.arrow + st.rotation) % 4)};
  }
  for (int face = 0; face < kNetFaces; ++face)
    if (row / 3 == face_origin(face)[0] / 3 && col / 3 == face_origin(face)[1] / 3)
      return {instance.centres[face], s.direction[face]};
  return {};
}

std::string net_text(const Instance& instance, const GridSolution& s) {
  std::string text;
  for (int row = 0; row < kNetRows; ++row) {
    std::string digits, arrows;
    for (int col = 0; col < kNetCols; ++col) {
      const char* gap = col % 3 == 2 ? " " : "";
      if (instance.net[row][col].kind == Field::none) {
        digits += fmt::format(" {}", gap);
        arrows += fmt::format(" {}", gap);
        continue;
      }
      const Sticker st = shown_sticker(instance, s, row, col);
      digits += fmt::format("{}{}", st.digit, gap);
      arrows += fmt::format(
          "{}{}", instance.net[row][col].kind == Field::centre ? '+' : "^>v<"[st.rotation], gap);
    }
    text += digits + "   " + arrows;
    while (!text.empty() && text.back() == ' ') text.pop_back();
    text += '\n';
  }
  return text;
}

}  // namespace cubenum::sudoku_cube
