// Foam cubes: three encodings of "does this piece fit on the last face?"
// (the seed's border-cell arrays, 128-bit shell masks, edge codes with a
// compatibility table), and the backtracking engine's throughput.
#include <benchmark/benchmark.h>

#include <array>
#include <vector>

#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/foam.hpp"

namespace {

using namespace cubenum;
using search::CellMask;
using search::PlateGrid;

const std::string kOriginal = std::string(CUBENUM_DATA_DIR "/foam/happy-cube-original.txt");
constexpr int kLast = 5;  // face B, tested with the other five placed

// Border position i (clockwise from the top-left) of a plate.
search::PlateCell border_cell(int i) {
  if (i <= 4) return {0, i};
  if (i <= 8) return {i - 4, 4};
  if (i <= 12) return {4, 12 - i};
  return {16 - i, 0};
}

// The fixture: a solved cube (the first assembly of the blue set) with its
// last face emptied, and every placement of the 36 pieces on that face.
struct FitFixture {
  const search::PlateSurface& surface = puzzles::foam_cube_surface();
  std::array<PlateGrid, 6> placed{};  // grids of the five placed faces
  std::vector<PlateGrid> candidates;  // grids on the last face

  FitFixture() {
    const auto set = puzzles::load_foam_set(kOriginal);
    const auto own =
        puzzles::foam_problems(puzzles::FoamChallenge::Own, puzzles::FoamBy::Identity, {set});
    search::AssemblyOptions first;
    first.list_limit = 1;
    first.list_up_to = search::SymmetryGroup::None;
    const auto solution = puzzles::count_foam(own[0], first).listed.at(0);
    for (int f = 0; f < 6; ++f)
      placed[f] =
          search::transform_grid(own[0].kinds[solution[f].kind].grid, solution[f].transform);
    for (const auto& piece : set.pieces)
      for (int e = 0; e < search::kPlateTransforms; ++e)
        candidates.push_back(search::transform_grid(piece.grid, e));
  }

  bool cell_set(PlateGrid g, search::PlateCell p) const {
    return g & search::plate_bit(p.row, p.col);
  }
};

// 1. The seed's encoding: 16 border cells per placement, and for each border
// cell of the last face the (face, position) pairs that share it.
struct CellArrays {
  using Border = std::array<std::uint8_t, 16>;
  struct Shared {
    int position, face1, position1, face2, position2;  // face2 = -1 on an edge
  };
  std::array<Border, 6> placed{};
  std::vector<Border> candidates;
  std::vector<Shared> shared;

  explicit CellArrays(const FitFixture& fx) {
    auto border = [&](PlateGrid g) {
      Border b{};
      for (int i = 0; i < 16; ++i) b[i] = fx.cell_set(g, border_cell(i));
      return b;
    };
    for (int f = 0; f < 6; ++f) placed[f] = border(fx.placed[f]);
    for (const PlateGrid g : fx.candidates) candidates.push_back(border(g));
    for (int i = 0; i < 16; ++i) {
      Shared s{i, -1, 0, -1, 0};
      const int cell = fx.surface.cell_of(kLast, border_cell(i));
      for (int f = 0; f < 6; ++f)
        for (int j = 0; f != kLast && j < 16; ++j)
          if (fx.surface.cell_of(f, border_cell(j)) == cell) {
            (s.face1 < 0 ? s.face1 : s.face2) = f;
            (s.face2 < 0 ? s.position1 : s.position2) = j;
          }
      shared.push_back(s);
    }
  }
  bool fits(const Border& c) const {
    for (const Shared& s : shared) {
      const int n = c[s.position] + placed[s.face1][s.position1] +
                    (s.face2 >= 0 ? placed[s.face2][s.position2] : 0);
      if (n != 1) return false;
    }
    return true;
  }
};

// 2. The engine's encoding: a 128-bit mask over the 98 shell cells.
struct ShellMasks {
  CellMask covered = 0, full = 0;
  std::vector<CellMask> candidates;

  explicit ShellMasks(const FitFixture& fx) {
    auto mask = [&](int face, PlateGrid g) {
      CellMask m = 0;
      for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 5; ++c)
          if (fx.cell_set(g, {r, c})) m |= CellMask{1} << fx.surface.cell_of(face, {r, c});
      return m;
    };
    for (int f = 0; f < 6; ++f)
      if (f != kLast) covered |= mask(f, fx.placed[f]);
    for (int c = 0; c < fx.surface.cell_count(); ++c) full |= CellMask{1} << c;
    for (const PlateGrid g : fx.candidates) candidates.push_back(mask(kLast, g));
  }
  bool fits(CellMask m) const { return (m & covered) == 0 && (m | covered) == full; }
};

// 3. Edge codes: 5 bits per side (clockwise), a 32x32 table of which sides
// mesh (middles complementary, corners not both), and the corners checked
// as a 4-bit pattern against the corners the placed faces leave open.
struct EdgeCodes {
  struct Codes {
    std::array<std::uint8_t, 4> side;
    std::uint8_t corners;
  };
  std::array<std::array<bool, 32>, 32> mesh{};
  std::array<std::uint8_t, 4> neighbour_side{};  // the placed side meeting side k
  std::uint8_t open_corners = 0;
  std::vector<Codes> candidates;

  static Codes codes(PlateGrid g, const FitFixture& fx) {
    Codes c{};
    for (int k = 0; k < 4; ++k) {
      for (int t = 0; t < 5; ++t) c.side[k] |= fx.cell_set(g, border_cell((4 * k + t) % 16)) << t;
      c.corners |= (c.side[k] & 1) << k;
    }
    return c;
  }

  explicit EdgeCodes(const FitFixture& fx) {
    for (int a = 0; a < 32; ++a)
      for (int b = 0; b < 32; ++b) {
        bool ok = true;  // b runs the other way along the shared edge
        for (int t = 0; t < 5; ++t) {
          const int x = a >> t & 1, y = b >> (4 - t) & 1;
          ok &= (t == 0 || t == 4) ? !(x && y) : (x ^ y);
        }
        mesh[a][b] = ok;
      }
    for (int k = 0; k < 4; ++k) {
      const int mid = fx.surface.cell_of(kLast, border_cell(4 * k + 2));
      for (int f = 0; f < 6; ++f)
        for (int m = 0; f != kLast && m < 4; ++m)
          if (fx.surface.cell_of(f, border_cell(4 * m + 2)) == mid)
            neighbour_side[k] = codes(fx.placed[f], fx).side[m];
      const int corner = fx.surface.cell_of(kLast, border_cell(4 * k));
      bool covered = false;
      for (int f = 0; f < 6; ++f)
        for (int j = 0; f != kLast && j < 16; j += 4)
          covered |= fx.surface.cell_of(f, border_cell(j)) == corner &&
                     fx.cell_set(fx.placed[f], border_cell(j));
      open_corners |= !covered << k;
    }
    for (const PlateGrid g : fx.candidates) candidates.push_back(codes(g, fx));
  }
  bool fits(const Codes& c) const {
    return c.corners == open_corners && mesh[c.side[0]][neighbour_side[0]] &&
           mesh[c.side[1]][neighbour_side[1]] && mesh[c.side[2]][neighbour_side[2]] &&
           mesh[c.side[3]][neighbour_side[3]];
  }
};

template <class Encoding>
void run_fit(benchmark::State& state) {
  const FitFixture fx;
  const Encoding enc(fx);
  const ShellMasks reference(fx);
  int expected = 0, got = 0;
  for (const auto& m : reference.candidates) expected += reference.fits(m);
  for (const auto& c : enc.candidates) got += enc.fits(c);
  if (got != expected || expected == 0) {
    state.SkipWithError("encodings disagree");
    return;
  }
  for (auto _ : state)
    for (const auto& c : enc.candidates) benchmark::DoNotOptimize(enc.fits(c));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(enc.candidates.size()));
}

void BM_FoamFitCellArrays(benchmark::State& state) {
  run_fit<CellArrays>(state);
}
void BM_FoamFitShellMasks(benchmark::State& state) {
  run_fit<ShellMasks>(state);
}
void BM_FoamFitEdgeCodes(benchmark::State& state) {
  run_fit<EdgeCodes>(state);
}
BENCHMARK(BM_FoamFitCellArrays);
BENCHMARK(BM_FoamFitShellMasks);
BENCHMARK(BM_FoamFitEdgeCodes);

// Backtracking throughput on one thread: assemblies (raw) per second.
void run_count(benchmark::State& state, puzzles::FoamChallenge challenge) {
  cubenum::ThreadLimit one(1);
  const auto problem = puzzles::foam_problems(challenge, puzzles::FoamBy::Identity,
                                              {puzzles::load_foam_set(kOriginal)})[0];
  std::uint64_t raw = 0;
  for (auto _ : state) raw += puzzles::count_foam(problem).raw;
  state.SetItemsProcessed(static_cast<std::int64_t>(raw));
}
void BM_FoamCountOnePerColourOriginal(benchmark::State& state) {
  run_count(state, puzzles::FoamChallenge::OnePerColour);
}
void BM_FoamCountPoolOriginal(benchmark::State& state) {
  run_count(state, puzzles::FoamChallenge::Pool);
}
BENCHMARK(BM_FoamCountOnePerColourOriginal)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FoamCountPoolOriginal)->Unit(benchmark::kMillisecond);

}  // namespace
