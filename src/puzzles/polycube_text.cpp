// The project's text format for polycube puzzles (docs/PUZZLES.md): pieces
// and the target as cube lists or layer pictures, one problem per file.
// GCC 12 warns falsely (-Wrestrict, GCC bug 105329) on std::string's
// operator+ inlined from InputError here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

#include "cubenum/core/checked.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/input_file.hpp"
#include "cubenum/puzzles/polycube.hpp"

namespace cubenum::polycube {
namespace {

constexpr int kMaxCount = 1000;

class TextReader {
 public:
  explicit TextReader(std::string path) : path_(std::move(path)) {
    problem_.name = std::filesystem::path(path_).stem().string();
  }

  Problem read(const std::string& text) {
    std::istringstream in(text);
    std::string line_text;
    while (std::getline(in, line_text)) {
      ++line_;
      if (const auto hash = line_text.find('#');
          hash != std::string::npos && !in_picture_row(line_text))
        line_text.erase(hash);
      read_line(line_text);
    }
    finish();
    return std::move(problem_);
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(path_, line_, problem);
  }

  // A row of a layer picture may hold '#': it is not a comment there. In a
  // layer, a line that starts with '#', '.' or '+' is a row when it holds
  // nothing else, a comment when its first word is '#' alone and its second
  // is not a row's, and refused otherwise: "##. # note" could be the row
  // "##.#" or the row "##." with a note, and a wrong guess would be a
  // silently wrong count.
  bool in_picture_row(const std::string& text) const {
    if (!in_layer_) return false;
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos ||
        std::string_view("#.+").find(text[first]) == std::string::npos)
      return false;
    if (text.find_first_not_of("#.+ \t\r", first) == std::string::npos) return true;
    std::istringstream words(text);
    std::string word, next;
    words >> word >> next;
    if (word == "#" && next.find_first_not_of("#.+") != std::string::npos) return false;
    fail(
        "a picture row with other text after it ('#' is a cube in a picture: put a comment "
        "on a line of its own, '#' then a space)");
  }

  int number(const std::string& word, int low, int high, const char* what) const {
    int value = 0;
    const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (error != std::errc() || end != word.data() + word.size())
      fail(fmt::format("{} {} is not an integer", what, excerpt(word)));
    if (value < low || value > high)
      fail(fmt::format("{} {} is outside {}..{}", what, value, low, high));
    return value;
  }

  void read_line(const std::string& text) {
    std::istringstream words(text);
    std::string keyword;
    if (!(words >> keyword)) return;  // blank or comment
    if (in_picture_row(text)) return picture_row(keyword, words);
    in_layer_ = false;
    std::vector<std::string> args;
    for (std::string w; words >> w;) args.push_back(w);
    if (keyword == "name") return name(text);
    if (keyword == "piece") return piece(args);
    if (keyword == "target") return target(args);
    if (keyword == "cube") return cube(args, false);
    if (keyword == "variable") return cube(args, true);
    if (keyword == "box") return box(args);
    if (keyword == "layer") return layer(args);
    fail(fmt::format(
        "unknown keyword {} (expected name, piece, target, cube, variable, box or layer)",
        excerpt(keyword)));
  }

  void name(const std::string& text) {
    const auto start = text.find_first_not_of(" \t", text.find("name") + 4);
    if (start == std::string::npos) fail("'name' without a name");
    problem_.name = text.substr(start, text.find_last_not_of(" \t\r") + 1 - start);
  }

  void piece(const std::vector<std::string>& args) {
    if (args.empty() || args.size() > 2) fail("expected 'piece NAME [COUNT | MIN-MAX]'");
    if (in_target_) fail("a piece after the target: pieces come first");
    Piece p;
    p.name = args[0];
    for (const Piece& other : problem_.pieces)
      if (other.name == p.name) fail(fmt::format("piece {} named twice", excerpt(p.name)));
    if (args.size() == 2) {
      const auto dash = args[1].find('-');
      if (dash == 0)
        fail(fmt::format("count {} is negative (a count is 1..{}, a range MIN-MAX as 0-6)",
                         excerpt(args[1]), kMaxCount));
      if (dash == std::string::npos) {
        p.min_count = p.max_count = number(args[1], 1, kMaxCount, "count");
      } else {
        p.min_count = number(args[1].substr(0, dash), 0, kMaxCount, "least count");
        p.max_count = number(args[1].substr(dash + 1), 1, kMaxCount, "most count");
        if (p.min_count > p.max_count)
          fail(fmt::format("count range {} runs backwards", excerpt(args[1])));
      }
    }
    close_block();
    problem_.pieces.push_back(std::move(p));
    block_line_ = line_;
    seen_.clear();
  }

  void target(const std::vector<std::string>& args) {
    if (!args.empty())
      fail("'target' takes nothing after it (the cubes follow on lines of their own)");
    if (in_target_) fail("a second target");
    close_block();
    in_target_ = true;
    block_line_ = line_;
    seen_.clear();
  }

  void add(const Voxel& v, bool variable) {
    if (!in_target_ && problem_.pieces.empty()) fail("a cube before any 'piece' or 'target'");
    if (variable && !in_target_) fail("'variable' voxels belong to the target, not to a piece");
    if (seen_.size() >= static_cast<std::size_t>(kMaxShapeCubes))
      fail(fmt::format("{} has more than {} cubes", block_name(), kMaxShapeCubes));
    const auto [it, fresh] = seen_.try_emplace(v, line_);
    if (!fresh)
      fail(fmt::format("cube ({},{},{}) given twice (first on line {})", v[0], v[1], v[2],
                       it->second));
    if (!in_target_)
      problem_.pieces.back().cubes.push_back(v);
    else
      (variable ? problem_.variable : problem_.fixed).push_back(v);
  }

  void cube(const std::vector<std::string>& args, bool variable) {
    if (args.size() != 3) fail(fmt::format("expected '{} X Y Z'", variable ? "variable" : "cube"));
    add({number(args[0], -kMaxCoordinate, kMaxCoordinate, "coordinate"),
         number(args[1], -kMaxCoordinate, kMaxCoordinate, "coordinate"),
         number(args[2], -kMaxCoordinate, kMaxCoordinate, "coordinate")},
        variable);
  }

  void box(const std::vector<std::string>& args) {
    if (!in_target_) fail("'box' belongs to the target");
    std::vector<std::string> parts;
    std::istringstream spec(args.size() == 1 ? args[0] : std::string());
    for (std::string part; std::getline(spec, part, 'x');) parts.push_back(part);
    if (parts.size() != 3) fail("expected 'box AxBxC' (three sides, as in 'box 3x4x5')");
    std::array<int, 3> size{};
    for (int axis = 0; axis < 3; ++axis)
      size[axis] = number(parts[axis], 1, kMaxCoordinate, "box side");
    // Sides up to 1000 would be up to 10^9 cubes: memory and time without
    // end for a line of a few bytes.
    if (!product_at_most({size[0], size[1], size[2]}, kMaxShapeCubes))
      fail(fmt::format("box {}x{}x{} has more than {} cubes", size[0], size[1], size[2],
                       kMaxShapeCubes));
    for (int z = 0; z < size[2]; ++z)
      for (int y = 0; y < size[1]; ++y)
        for (int x = 0; x < size[0]; ++x) add({x, y, z}, false);
  }

  void layer(const std::vector<std::string>& args) {
    if (!args.empty()) fail("'layer' takes nothing after it (the rows follow)");
    if (!in_target_ && problem_.pieces.empty()) fail("a layer before any 'piece' or 'target'");
    layer_z_ = layer_started_ ? layer_z_ + 1 : 0;
    if (layer_z_ > kMaxCoordinate)
      fail(fmt::format("{} has more than {} layers (z passes {})", block_name(), kMaxCoordinate + 1,
                       kMaxCoordinate));
    layer_started_ = true;
    layer_row_ = 0;
    in_layer_ = true;
  }

  void picture_row(const std::string& first, std::istringstream& rest) {
    std::string row = first;
    for (std::string w; rest >> w;) row += w;
    if (row.size() > static_cast<std::size_t>(kMaxCoordinate) + 1)
      fail(fmt::format("a picture row of {} columns: at most {} (x passes {})", row.size(),
                       kMaxCoordinate + 1, kMaxCoordinate));
    if (layer_row_ > kMaxCoordinate)
      fail(fmt::format("a layer of more than {} rows (y passes {})", kMaxCoordinate + 1,
                       kMaxCoordinate));
    for (std::size_t x = 0; x < row.size(); ++x) {
      if (row[x] == '.') continue;
      if (row[x] == '+' && !in_target_)
        fail("'+' (a voxel that may stay empty) belongs to the target");
      add({static_cast<int>(x), layer_row_, layer_z_}, row[x] == '+');
    }
    ++layer_row_;
  }

  std::string block_name() const {
    return in_target_ ? std::string("the target")
                      : fmt::format("piece {}", excerpt(problem_.pieces.back().name));
  }

  // The end of a piece's or the target's lines.
  void close_block() {
    if (!in_target_ && !problem_.pieces.empty() && problem_.pieces.back().cubes.empty())
      throw InputError(path_, block_line_,
                       fmt::format("piece {} has no cubes", excerpt(problem_.pieces.back().name)));
    layer_started_ = in_layer_ = false;
  }

  void finish() {
    close_block();
    if (problem_.pieces.empty())
      throw InputError(path_, 0, "no pieces ('piece NAME' and its cubes)");
    if (!in_target_) throw InputError(path_, 0, "no target ('target' and its cubes)");
    if (problem_.fixed.empty() && problem_.variable.empty())
      throw InputError(path_, block_line_, "the target has no cubes");
  }

  std::string path_;
  Problem problem_;
  int line_ = 0, block_line_ = 0;
  bool in_target_ = false;
  bool in_layer_ = false, layer_started_ = false;
  int layer_z_ = 0, layer_row_ = 0;
  std::map<Voxel, int> seen_;  // this block's cubes and their lines
};

}  // namespace

PuzzleFile read_polycube_text(const std::string& path) {
  const std::string text = read_input_file(path, "polycube puzzle file");
  return {path, {TextReader(path).read(text)}};
}

PuzzleFile read_polycube_file(const std::string& path) {
  // BurrTools' files are gzip (1f 8b) or, unpacked, XML ('<' first).
  std::ifstream in(path, std::ios::binary);
  char head[2] = {};
  in.read(head, 2);
  const bool gzip = in.gcount() == 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
                    static_cast<unsigned char>(head[1]) == 0x8b;
  if (gzip || (in.gcount() >= 1 && head[0] == '<')) return read_xmpuzzle(path);
  return read_polycube_text(path);
}

}  // namespace cubenum::polycube
