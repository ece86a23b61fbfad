// Reading and checking a sudoku cube instance (data/sudoku-cube/README.md).
#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "cubenum/core/cube_symmetry.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/input_file.hpp"
#include "cubenum/puzzles/sudoku_cube.hpp"

namespace cubenum::sudoku_cube {
namespace {

constexpr const char* kFaceNames[kNetFaces] = {"up", "left", "front", "right", "back", "down"};
constexpr std::array<std::array<int, 2>, kNetFaces> kFaceOrigins = {
    {{0, 3}, {3, 0}, {3, 3}, {3, 6}, {3, 9}, {6, 3}}};
constexpr const char* kArrows = "^>v<";

// Where a net field sits on the cube (x right, y up, z front): its cubie,
// its face's outward normal, and the net's up and right on that face.
struct FieldGeometry {
  Vec3 cubie, normal, up, right;
};

Vec3 scaled(const Vec3& v, int k) {
  return {v[0] * k, v[1] * k, v[2] * k};
}

FieldGeometry field_geometry(int face, int r, int c) {
  // The cross net folded around the front face.
  switch (static_cast<NetFace>(face)) {
    case NetFace::up:
      return {{c - 1, 1, r - 1}, {0, 1, 0}, {0, 0, -1}, {1, 0, 0}};
    case NetFace::left:
      return {{-1, 1 - r, c - 1}, {-1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    case NetFace::front:
      return {{c - 1, 1 - r, 1}, {0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
    case NetFace::right:
      return {{1, 1 - r, 1 - c}, {1, 0, 0}, {0, 1, 0}, {0, 0, -1}};
    case NetFace::back:
      return {{1 - c, 1 - r, -1}, {0, 0, -1}, {0, 1, 0}, {-1, 0, 0}};
    case NetFace::down:
      return {{c - 1, -1, 1 - r}, {0, -1, 0}, {0, 0, 1}, {1, 0, 0}};
  }
  return {};
}

// The face a net cell belongs to, or -1.
int face_of_cell(int row, int col) {
  for (int f = 0; f < kNetFaces; ++f)
    if (row >= kFaceOrigins[f][0] && row < kFaceOrigins[f][0] + 3 && col >= kFaceOrigins[f][1] &&
        col < kFaceOrigins[f][1] + 3)
      return f;
  return -1;
}

Field::Kind kind_of_cell(int row, int col) {
  if (face_of_cell(row, col) < 0) return Field::none;
  const bool middle_row = row % 3 == 1, middle_col = col % 3 == 1;
  if (middle_row && middle_col) return Field::centre;
  return middle_row || middle_col ? Field::edge : Field::corner;
}

int determinant(const Vec3& a, const Vec3& b, const Vec3& c) {
  return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
         a[2] * (b[0] * c[1] - b[1] * c[0]);
}

[[noreturn, gnu::noinline]] void throw_input_error(const std::string& source, int line,
                                                   const std::string& problem) {
  throw InputError(source, line, problem);
}

class Reader {
 public:
  Reader(std::istream& in, std::string source) : in_(in) { instance_.source = std::move(source); }

  Instance read() {
    std::string line;
    while (next_line(line)) {
      std::istringstream words(line);
      std::string keyword;
      words >> keyword;
      if (keyword == "corner")
        read_piece(words, corner_lines_, 3);
      else if (keyword == "edge")
        read_piece(words, edge_lines_, 2);
      else if (keyword == "centre" || keyword == "center")
        read_centre(words);
      else if (keyword == "net")
        read_net();
      else
        fail(fmt::format("unknown line {} (expected corner, edge, centre or net)",
                         excerpt(keyword)));
    }
    check_complete();
    check_geometry();
    return instance_;
  }

 private:
  [[noreturn]] void fail(const std::string& problem, int line = -1) const {
    throw_input_error(instance_.source, line < 0 ? line_ : line, problem);
  }

  // The next line with content, comments removed.
  bool next_line(std::string& line) {
    while (std::getline(in_, line)) {
      ++line_;
      if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
      if (line.find_first_not_of(" \t\r") != std::string::npos) return true;
    }
    return false;
  }

  int read_number(std::istream& words, const std::string& what, int low, int high) {
    std::string word;
    if (!(words >> word)) fail("missing " + what);
    if (!word.empty() && word.back() == ':') word.pop_back();
    int value = 0;
    std::size_t used = 0;
    try {
      value = std::stoi(word, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != word.size())
      fail(fmt::format("{} {} is not a number", what, excerpt(word)));
    if (value < low || value > high)
      fail(fmt::format("{} {} out of {}..{}", what, value, low, high));
    return value;
  }

  template <std::size_t N>
  void read_piece(std::istream& words, std::array<int, N>& lines, int stickers) {
    const bool corner = stickers == 3;
    const char* kind = corner ? "corner" : "edge";
    const int slot = read_number(words, std::string(kind) + " number", 1, int(N)) - 1;
    if (lines[slot] != 0)
      fail(fmt::format("{} {} listed twice (first on line {})", kind, slot + 1, lines[slot]));
    lines[slot] = line_;
    std::vector<std::string> tokens;
    for (std::string t; words >> t;) tokens.push_back(t);
    if (int(tokens.size()) != stickers)
      fail(fmt::format("{} {} needs {} stickers DIGIT/ROTATION, found {}", kind, slot + 1, stickers,
                       tokens.size()));
    for (int k = 0; k < stickers; ++k) {
      const auto slash = tokens[k].find('/');
      if (slash == std::string::npos)
        fail(fmt::format("sticker {} is not DIGIT/ROTATION", excerpt(tokens[k])));
      std::istringstream digit(tokens[k].substr(0, slash)), rotation(tokens[k].substr(slash + 1));
      Sticker s{std::uint8_t(read_number(digit, "digit", 1, 9)),
                std::uint8_t(read_number(rotation, "rotation", 0, 3))};
      if (corner)
        instance_.corners[slot][k] = s;
      else
        instance_.edges[slot][k] = s;
    }
  }

  void read_centre(std::istream& words) {
    std::string name;
    words >> name;
    if (!name.empty() && name.back() == ':') name.pop_back();
    int face = -1;
    for (int f = 0; f < kNetFaces; ++f)
      if (name == kFaceNames[f]) face = f;
    if (face < 0)
      fail(fmt::format("unknown face {} (up, left, front, right, back, down)", excerpt(name)));
    if (centre_lines_[face] != 0)
      fail(fmt::format("centre {} listed twice (first on line {})", name, centre_lines_[face]));
    centre_lines_[face] = line_;
    instance_.centres[face] = std::uint8_t(read_number(words, "digit", 1, 9));
    if (std::string extra; words >> extra)
      fail("unexpected " + excerpt(extra) + " after the centre");
  }

  void read_net() {
    if (net_line_ != 0) fail(fmt::format("net given twice (first on line {})", net_line_));
    net_line_ = line_;
    std::string line;
    for (int row = 0; row < kNetRows; ++row) {
      if (!next_line(line)) fail(fmt::format("the net has {} rows, not {}", row, kNetRows));
      std::istringstream words(line);
      std::vector<std::string> tokens;
      for (std::string t; words >> t;) tokens.push_back(t);
      if (tokens.size() != kNetCols)
        fail(fmt::format("net row {} has {} fields, not {}", row + 1, tokens.size(), kNetCols));
      for (int col = 0; col < kNetCols; ++col) read_field(tokens[col], row, col);
    }
  }

  void read_field(const std::string& token, int row, int col) {
    const Field::Kind expected = kind_of_cell(row, col);
    const std::string where = fmt::format("net row {} column {}", row + 1, col + 1);
    if (expected == Field::none || expected == Field::centre) {
      const char* want = expected == Field::none ? "." : "*";
      if (token != want) fail(fmt::format("{} must be '{}', not {}", where, want, excerpt(token)));
      instance_.net[row][col].kind = expected;
      return;
    }
    const bool corner = expected == Field::corner;
    const char letter = corner ? 'c' : 'e';
    const auto dot = token.find('.');
    const char* arrow = token.empty() ? nullptr : std::strchr(kArrows, token.back());
    if (token.size() < 5 || token[0] != letter || dot == std::string::npos || arrow == nullptr ||
        *arrow == '\0')
      fail(fmt::format("{} must be a {} field {}SLOT.STICKER followed by an arrow ^ > v <, not {}",
                       where, corner ? "corner" : "edge", letter, excerpt(token)));
    std::istringstream slot_text(token.substr(1, dot - 1));
    std::istringstream index_text(token.substr(dot + 1, token.size() - dot - 2));
    const int slot = read_number(slot_text, "slot", 1, corner ? kCornerSlots : kEdgeSlots) - 1;
    const int index = read_number(index_text, "sticker index", 0, corner ? 2 : 1);
    int& seen = (corner ? corner_fields_[slot][index] : edge_fields_[slot][index]);
    // 24 corner and 24 edge cells, no field twice: so none is missing.
    if (seen != 0)
      fail(fmt::format("field {}{}.{} listed twice (first on line {})", letter, slot + 1, index,
                       seen));
    seen = line_;
    instance_.net[row][col] =
        Field{expected, std::uint8_t(slot), std::uint8_t(index), std::uint8_t(arrow - kArrows)};
  }

  void check_complete() const {
    for (int s = 0; s < kCornerSlots; ++s)
      if (corner_lines_[s] == 0) fail(fmt::format("no line for corner {}", s + 1));
    for (int s = 0; s < kEdgeSlots; ++s)
      if (edge_lines_[s] == 0) fail(fmt::format("no line for edge {}", s + 1));
    for (int f = 0; f < kNetFaces; ++f)
      if (centre_lines_[f] == 0) fail(fmt::format("no line for centre {}", kFaceNames[f]));
    if (net_line_ == 0) fail("no net");
  }

  // Each slot's fields on one cubie; the same handedness at every corner;
  // arrows that a turn carries onto arrows, so that a rotation measured
  // from an arrow travels with its piece.
  void check_geometry() const {
    std::array<std::array<FieldGeometry, 3>, kCornerSlots> corners{};
    std::array<std::array<FieldGeometry, 2>, kEdgeSlots> edges{};
    std::array<std::array<Vec3, 3>, kCornerSlots> corner_arrows{};
    std::array<std::array<Vec3, 2>, kEdgeSlots> edge_arrows{};
    for (int row = 0; row < kNetRows; ++row)
      for (int col = 0; col < kNetCols; ++col) {
        const Field& f = instance_.net[row][col];
        if (f.kind != Field::corner && f.kind != Field::edge) continue;
        const int face = face_of_cell(row, col);
        const FieldGeometry g = field_geometry(face, row % 3, col % 3);
        const Vec3 directions[4] = {g.up, g.right, scaled(g.up, -1), scaled(g.right, -1)};
        if (f.kind == Field::corner) {
          corners[f.slot][f.index] = g;
          corner_arrows[f.slot][f.index] = directions[f.arrow];
        } else {
          edges[f.slot][f.index] = g;
          edge_arrows[f.slot][f.index] = directions[f.arrow];
        }
      }
    check_slots<3>(corners, corner_arrows, "corner", corner_fields_);
    check_slots<2>(edges, edge_arrows, "edge", edge_fields_);
  }

  template <int K, std::size_t N>
  void check_slots(const std::array<std::array<FieldGeometry, K>, N>& slots,
                   const std::array<std::array<Vec3, K>, N>& arrows, const char* kind,
                   const std::array<std::array<int, K>, N>& lines) const {
    for (std::size_t s = 0; s < N; ++s) {
      for (int k = 1; k < K; ++k)
        if (slots[s][k].cubie != slots[s][0].cubie)
          fail(fmt::format("the fields of {} {} are not on one piece of the cube", kind, s + 1),
               lines[s][k]);
      if constexpr (K == 3) {
        const int hand = determinant(slots[s][0].normal, slots[s][1].normal, slots[s][2].normal);
        const int first = determinant(slots[0][0].normal, slots[0][1].normal, slots[0][2].normal);
        if (hand != first)
          fail(fmt::format("corner {} numbers its fields the other way round from corner 1", s + 1),
               lines[s][0]);
      }
    }
    // Every turn of slot 1 onto any slot (shift: the field its field 0
    // lands on) maps arrows onto arrows. That is enough: any turn of one slot
    // onto another is one of these after the inverse of another.
    constexpr std::size_t from = 0;
    for (std::size_t to = 0; to < N; ++to)
      for (int shift = 0; shift < K; ++shift) {
        const CubeSymmetry* turn = nullptr;
        for (const CubeSymmetry& g : cube_rotations()) {
          bool maps = g.apply(slots[from][0].cubie) == slots[to][0].cubie;
          for (int q = 0; q < K; ++q)
            maps = maps && g.apply(slots[from][q].normal) == slots[to][(q + shift) % K].normal;
          if (maps) turn = &g;
        }
        if (turn == nullptr) continue;  // cannot happen once handedness agrees
        for (int q = 0; q < K; ++q)
          if (turn->apply(arrows[from][q]) != arrows[to][(q + shift) % K])
            fail(fmt::format("the arrows of {} {} and {} {} do not turn into each other; "
                             "rotations measured from them would change when pieces move",
                             kind, from + 1, kind, to + 1),
                 lines[to][(q + shift) % K]);
      }
  }

  std::istream& in_;
  Instance instance_;
  int line_ = 0, net_line_ = 0;
  std::array<int, kCornerSlots> corner_lines_{};
  std::array<int, kEdgeSlots> edge_lines_{};
  std::array<int, kNetFaces> centre_lines_{};
  std::array<std::array<int, 3>, kCornerSlots> corner_fields_{};
  std::array<std::array<int, 2>, kEdgeSlots> edge_fields_{};
};

}  // namespace

const char* face_name(int face) {
  return kFaceNames[face];
}
std::array<int, 2> face_origin(int face) {
  return kFaceOrigins[face];
}

Instance parse_instance(std::istream& in, const std::string& source) {
  return Reader(in, source).read();
}

Instance load_instance(const std::string& path) {
  std::istringstream in(read_input_file(path, "instance file"));
  return parse_instance(in, path);
}

std::string format_instance(const Instance& instance) {
  std::string text;
  for (int s = 0; s < kCornerSlots; ++s) {
    text += fmt::format("corner {}:", s + 1);
    for (const Sticker& st : instance.corners[s])
      text += fmt::format(" {}/{}", st.digit, st.rotation);
    text += '\n';
  }
  for (int s = 0; s < kEdgeSlots; ++s) {
    text += fmt::format("edge {}:", s + 1);
    for (const Sticker& st : instance.edges[s])
      text += fmt::format(" {}/{}", st.digit, st.rotation);
    text += '\n';
  }
  for (int f = 0; f < kNetFaces; ++f)
    text += fmt::format("centre {}: {}\n", kFaceNames[f], instance.centres[f]);
  text += "net\n";
  for (const auto& row : instance.net) {
    for (const Field& f : row) {
      std::string token = f.kind == Field::none ? "." : f.kind == Field::centre ? "*" : "";
      if (token.empty())
        token = fmt::format("{}{}.{}{}", f.kind == Field::corner ? 'c' : 'e', f.slot + 1, f.index,
                            kArrows[f.arrow]);
      text += fmt::format("{:<7}", token);
    }
    text += '\n';
  }
  return text;
}

std::string default_instance_path() {
  return std::string(CUBENUM_DATA_DIR "/sudoku-cube/seed.txt");
}

}  // namespace cubenum::sudoku_cube
