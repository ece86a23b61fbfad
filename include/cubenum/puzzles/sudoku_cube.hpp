#pragma once
// The sudoku cube (docs/PUZZLES.md): a 3x3x3 cube whose
// stickers carry digits; a grid solution gives every corner piece a corner
// slot and one of its 3 twists and every edge piece an edge slot and one of
// its 2 flips so that each face shows 1..9 once (with its centre), all its 8
// non-centre digits facing one way (a 1 may also face the opposite way).
//
// An instance (data/sudoku-cube/README.md) describes the cube as it is now:
// the net's fields (which slot and sticker index each one is, and its arrow),
// the stickers on each slot's fields (digit, rotation clockwise from the
// arrow) and the centre digits. A sticker's direction on its face, in the
// net's frame, is arrow + rotation (quarter turns clockwise from up).
#include <array>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace cubenum::sudoku_cube {

inline constexpr int kCornerSlots = 8, kEdgeSlots = 12, kNetFaces = 6;
inline constexpr int kNetRows = 9, kNetCols = 12;

// The faces in the order of the seed's net: up, left, front, right, back,
// down; up sits above front, down below it, left/right/back in a row.
enum class NetFace : std::uint8_t { up, left, front, right, back, down };
const char* face_name(int face);
// The net cell of the face's top-left field.
std::array<int, 2> face_origin(int face);

struct Sticker {
  std::uint8_t digit = 0;     // 1..9
  std::uint8_t rotation = 0;  // quarter turns clockwise from the field's arrow
  friend bool operator==(const Sticker&, const Sticker&) = default;
};

// One field of the net: the sticker index `index` of slot `slot` (0-based).
struct Field {
  enum Kind : std::uint8_t { none, corner, edge, centre } kind = none;
  std::uint8_t slot = 0, index = 0;
  std::uint8_t arrow = 0;  // 0 up, 1 right, 2 down, 3 left in the net
  friend bool operator==(const Field&, const Field&) = default;
};

struct Instance {
  std::string source;                                          // for messages
  std::array<std::array<Sticker, 3>, kCornerSlots> corners{};  // piece i as now on slot i
  std::array<std::array<Sticker, 2>, kEdgeSlots> edges{};
  std::array<std::uint8_t, kNetFaces> centres{};  // by NetFace
  std::array<std::array<Field, kNetCols>, kNetRows> net{};
  // Equal cubes, whatever file they came from.
  friend bool operator==(const Instance& a, const Instance& b) {
    return a.corners == b.corners && a.edges == b.edges && a.centres == b.centres && a.net == b.net;
  }
};

// Reads an instance; throws InputError(source, line, problem) when it is
// malformed: a bad digit or rotation, a piece or field listed twice, a
// missing piece, centre or field, fields of one slot not on one cubie, or
// arrows that do not turn with the pieces.
Instance parse_instance(std::istream& in, const std::string& source);
Instance load_instance(const std::string& path);
// The instance in the file format (parse_instance reads it back).
std::string format_instance(const Instance& instance);
std::string default_instance_path();  // data/sudoku-cube/seed.txt

// A grid solution: which piece sits in each slot, turned how far. Twist t
// puts sticker (q + t) % 3 of the piece on field q of the slot (the seed's
// "piece permutation"); flips likewise with % 2.
struct GridSolution {
  std::array<std::uint8_t, kCornerSlots> corner_piece{}, corner_twist{};
  std::array<std::uint8_t, kEdgeSlots> edge_piece{}, edge_flip{};
  std::array<std::uint8_t, kNetFaces> direction{};  // each face's digits: 0 up .. 3 left
  bool reachable = false;
  friend auto operator<=>(const GridSolution&, const GridSolution&) = default;
};

// The sticker a solution shows on net field (row, col); for a centre its
// digit with the face's direction.
Sticker shown_sticker(const Instance& instance, const GridSolution& s, int row, int col);

// Whether a solution can be reached from the instance's state by turning
// layers: corner twists sum to 0 mod 3, edge flips to 0 mod 2, and the
// corner and edge permutations have equal parity.
bool is_reachable(const GridSolution& s);

struct SudokuResult {
  std::vector<GridSolution> solutions;  // sorted
  std::uint64_t search_nodes = 0;
  std::size_t reachable() const;
};

// Every grid solution, searched in parallel over subtrees (oneTBB's current
// thread limit).
SudokuResult solve_grid(const Instance& instance);

// The solution in the seed's net: digits on the left, each field's direction
// (^ > v <) on the right.
std::string net_text(const Instance& instance, const GridSolution& s);

}  // namespace cubenum::sudoku_cube
