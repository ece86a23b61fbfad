#pragma once
// The pocket cube (2x2x2), positions modulo whole-cube rotation.
//
// Three views of one position, from slow and obvious to fast:
//   Stickers  24 colours in the seed's net layout (input, output, tests);
//   Corners   the 8 corner slots: which piece sits in each and its twist;
//   rank      the coordinates of a position with the D-L-B corner fixed:
//             corner permutation (7! = 5040) x twist (3^6 = 729).
// Every move and symmetry is derived once from the cube's geometry at the
// sticker level (a face turn rotates the stickers of one layer by 90 degrees)
// and then compiled into corner relabellings and coordinate move tables.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cubenum/bfs/frontier_bfs.hpp"
#include "cubenum/bfs/row_bfs.hpp"
#include "cubenum/core/cube_symmetry.hpp"

namespace cubenum {
class Progress;
}

namespace cubenum::pocket_cube {

enum class Metric : std::uint8_t { Quarter, Half };
// "qtm" or "htm"; anything else throws InputError("--metric", ...).
Metric parse_metric(std::string_view text);
std::string_view metric_name(Metric metric);

// ---------------------------------------------------------------- stickers
// The seed's layout (a net: T on top, then L F R B, then D):
//         0  1
//         2  3
//   4  5  6  7  8  9 10 11
//  12 13 14 15 16 17 18 19
//        20 21
//        22 23
// Colours as digits 0-5, or the letters w y g b r o in that order; the
// solved cube has U w, D y, L g, R b, F r, B o. Opposite colours are
// 0-1, 2-3, 4-5.
inline constexpr int kStickerCount = 24;
using Stickers = std::array<std::uint8_t, kStickerCount>;
inline constexpr std::string_view kColourLetters = "wygbro";

Stickers solved_stickers();
// Digits, e.g. "000022443355224433551111" for the solved cube.
std::string sticker_digits(const Stickers& stickers);

// A face turn: `quarters` clockwise quarter turns (1, 2, or 3 = ') of a face.
struct Turn {
  Face face = Face::U;
  std::uint8_t quarters = 1;
  friend bool operator==(const Turn&, const Turn&) = default;
};
std::string turn_name(Turn turn);  // "U", "R2", "F'"
std::string turns_text(const std::vector<Turn>& turns);
// Turns of one face in a row as one: R R -> R2, R R' -> nothing.
std::vector<Turn> join_half_turns(const std::vector<Turn>& turns);
// Standard notation, moves separated by spaces or not ("R U2 F'", "RU2F'").
// Throws InputError("--scramble", 0, reason) on anything else.
std::vector<Turn> parse_turns(std::string_view text);

// The geometric sticker model: the stickers of the turned layer rotate.
Stickers apply_turn(const Stickers& stickers, Turn turn);

// ---------------------------------------------------------------- corners
// Slots: 0 URF, 1 UFL, 2 ULB, 3 UBR, 4 DFR, 5 DLF, 6 DRB, 7 DBL. A piece is
// named by its home slot. The twist of a piece is where its U/D colour is:
// 0 on the slot's U/D facelet, 1 or 2 on the next facelets clockwise.
inline constexpr int kCornerCount = 8;
inline constexpr int kFixedSlot = 7;  // D-L-B: turns of U, R, F leave it home
struct Corners {
  std::array<std::uint8_t, kCornerCount> piece{0, 1, 2, 3, 4, 5, 6, 7};
  std::array<std::uint8_t, kCornerCount> twist{};
  friend bool operator==(const Corners&, const Corners&) = default;
};

// Reads a sticker string (letters or digits). Rejects, with the reason in an
// InputError from `source`: a wrong length, unknown characters, wrong colour
// counts, an impossible corner (colours no piece has, or a mirror-image
// piece), a piece twice, a twisted corner (twists not summing to 0 mod 3).
Corners parse_stickers(std::string_view text, const std::string& source = "--stickers");
Corners corners_from_stickers(const Stickers& stickers, const std::string& source);
Stickers stickers_from_corners(const Corners& corners);

Corners apply_turn(const Corners& corners, Turn turn);
// The same position turned as a whole so that the D-L-B piece is home: the
// rotation kCubeSymmetries[fixing_rotation(corners)].
Corners with_fixed_corner(const Corners& corners);
int fixing_rotation(const Corners& corners);

// ------------------------------------------------------------ coordinates
inline constexpr std::uint32_t kPermutationCount = 5040;  // 7!
inline constexpr std::uint32_t kTwistCount = 729;         // 3^6
inline constexpr std::uint64_t kPositionCount = std::uint64_t{kPermutationCount} * kTwistCount;

// rank = permutation * 729 + twist, of a position with the D-L-B piece home.
std::uint64_t rank(const Corners& fixed);
Corners unrank(std::uint64_t rank);
// Any position, any orientation.
inline std::uint64_t position_rank(const Corners& corners) {
  return rank(with_fixed_corner(corners));
}

// The generators with D-L-B fixed: QTM U U' R R' F F'; HTM adds U2 R2 F2.
std::vector<Turn> generators(Metric metric);

// The position graph: move tables over coordinates. For the frontier BFS a
// neighbour's rank is perm_step[perm][m] + twist_step[twist][m], with the
// permutation's factor 729 folded into the table; for the row engine
// (ProductRows) a permutation is a row and a twist a column.
class PocketCubeSpace {
 public:
  static constexpr int kMaxMoves = 9;

  explicit PocketCubeSpace(Metric metric);

  Metric metric() const { return metric_; }
  std::uint64_t size() const { return kPositionCount; }
  int moves() const { return moves_; }
  Turn turn(int move) const { return turns_[move]; }
  int inverse(int move) const { return inverse_[move]; }

  std::uint32_t rows() const { return kPermutationCount; }
  std::uint32_t columns() const { return kTwistCount; }
  std::uint32_t row_step(std::uint32_t perm, int move) const {
    return perm_step_[perm][move] / kTwistCount;
  }
  std::uint32_t column_step(std::uint32_t twist, int move) const {
    return twist_step_[twist][move];
  }

  std::uint64_t neighbour(std::uint64_t rank, int move) const {
    const auto perm = static_cast<std::uint32_t>(rank / kTwistCount);
    const auto twist = static_cast<std::uint32_t>(rank % kTwistCount);
    return perm_step_[perm][move] + twist_step_[twist][move];
  }

  template <class Visit>
  bool for_each_neighbour(std::uint64_t rank, Visit&& visit) const {
    const auto perm = static_cast<std::uint32_t>(rank / kTwistCount);
    const auto twist = static_cast<std::uint32_t>(rank % kTwistCount);
    const auto& perm_row = perm_step_[perm];
    const auto& twist_row = twist_step_[twist];
    for (int m = 0; m < moves_; ++m)
      if (visit(std::uint64_t{perm_row[m]} + twist_row[m])) return true;
    return false;
  }

 private:
  Metric metric_;
  int moves_;
  std::array<Turn, kMaxMoves> turns_{};
  std::array<int, kMaxMoves> inverse_{};
  std::vector<std::array<std::uint32_t, kMaxMoves>> perm_step_;   // [perm][move]: perm' * 729
  std::vector<std::array<std::uint16_t, kMaxMoves>> twist_step_;  // [twist][move]: twist'
};

// The same graph with the twists kept by piece, for the row engine's
// ShiftRows (bfs/row_policies.hpp): a column is
// sum of twist(p) 3^p over the pieces p = 0 .. 5 (piece 6's twist follows,
// D-L-B stays home untwisted). A turn permutes the pieces (the row: the
// permutation coordinate above) and twists the pieces it moves by what
// their slots give (the shift): U, D and half turns twist nothing.
class PocketCubeShiftSpace {
 public:
  static constexpr unsigned kRadix = 3, kDigits = 6;

  explicit PocketCubeShiftSpace(Metric metric);

  std::uint32_t rows() const { return kPermutationCount; }
  int moves() const { return moves_; }
  std::uint32_t row_step(std::uint32_t perm, int move) const { return step_[perm][move]; }
  // The twists added, piece p's at 3^p (a column itself).
  std::uint32_t shift(std::uint32_t perm, int move) const { return shift_[perm][move]; }
  // The rank (as rank() above) of the position in row perm, column twists;
  // the second form takes the row's pieces, unrank(perm * kTwistCount).
  static std::uint64_t rank_of(std::uint32_t perm, std::uint32_t twists);
  static std::uint64_t rank_of(const Corners& row, std::uint32_t twists);

 private:
  int moves_;
  std::vector<std::array<std::uint16_t, PocketCubeSpace::kMaxMoves>> step_;   // [perm][move]
  std::vector<std::array<std::uint16_t, PocketCubeSpace::kMaxMoves>> shift_;  // [perm][move]
};

// ------------------------------------------------------------- symmetry
// Symmetry s of the 48 acts on a position by conjugation: the cube and its
// colours are moved by s (a mirror also mirrors every turn's direction),
// then the result is turned as a whole to bring D-L-B home again. (The
// classes are counted by the definition files' symmetry path, enumerate
// below; this is the geometry's own, to check them.)
Corners conjugate(const Corners& fixed, int symmetry);

// --------------------------------------------------------------- actions
struct Enumeration {
  Metric metric = Metric::Quarter;
  std::vector<std::uint64_t> distribution;           // positions per distance
  std::vector<std::uint64_t> symmetry_distribution;  // classes per distance
  std::vector<std::string> methods;                  // how each level was built
  std::vector<double> seconds;                       // and in what time
  std::vector<bfs::RowLevel> levels;                 // the row engine's (none across processes)
  std::uint64_t states() const;
  std::uint64_t symmetry_classes() const;
};
// The BFS from solved; with `symmetry`, the classes of each level up to the
// cube's 48 symmetries, from the project's one symmetry path (the 2x2x2's
// definition file up to whole-cube turns, over its classes: twisty
// bfs --up-to-rotation --symmetry all), whose positions must be these.
Enumeration enumerate(Metric metric, bool symmetry,
                      bfs::DirectionPolicy policy = bfs::DirectionPolicy::Auto);

// The same table across the processes of `cluster` (core/cluster.hpp), on
// the frontier engine, the one that runs across processes (the row engine
// of enumerate runs in one). Every process gets the whole table.
Enumeration enumerate_shared(Metric metric, bfs::DirectionPolicy policy, Cluster& cluster);

// The table on the engine that suits this_cluster(): enumerate in one
// process, enumerate_shared across several (where `symmetry` is refused:
// the classes are counted in one process).
Enumeration enumerate_here(Metric metric, bool symmetry, bfs::DirectionPolicy policy);

// One optimal sequence that takes `start` to solved, in `start`'s own
// frame: the generators of the fixed-corner frame, renamed to the faces they
// are in the frame the cube is held in.
std::vector<Turn> solve(Metric metric, const Corners& start, Cluster* cluster = nullptr);

// The seed's Neo4j import files in `dir`: nodes.csv (pos:ID;:LABEL) and
// edges.csv (:START_ID;:END_ID;:TYPE), ';'-separated. A node's id is the
// seed's: the least of the 24 digit strings of the position's rotations.
// Every pair of positions one quarter turn apart is one edge.
struct ExportCounts {
  std::uint64_t nodes = 0;
  std::uint64_t edges = 0;
};
// `progress` (if given) counts the positions done of 3 x kPositionCount:
// the ids, the nodes, the edges.
ExportCounts export_neo4j(const std::filesystem::path& dir, Progress* progress = nullptr);
// The seed's id of a position.
std::string seed_id(const Corners& corners);
std::string seed_id(const Stickers& stickers);

}  // namespace cubenum::pocket_cube
