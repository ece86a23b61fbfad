// BurrTools' .xmpuzzle files (issue 14): gzip-compressed XML, or the same
// XML uncompressed. The format, as BurrTools 0.7 (burr-tools/burr-tools,
// src/lib/puzzle.cpp, problem.cpp, voxel.cpp, gridtype.cpp) writes it:
//
//   <puzzle version="2">
//     <gridType type="0"/>                      (absent: cubes)
//     <colors><color red=.. green=.. blue=../></colors>
//     <shapes>
//       <voxel x="3" y="3" z="3" type="0" name="..">#__##+...</voxel>
//     </shapes>
//     <problems>
//       <problem name=".." state=".." maxHoles="..">
//         <shapes><shape id="0" count="1"/><shape id="1" min="0" max="6"/></shapes>
//         <result id="2"/>
//         <bitmap><pair piece="1" result="1"/></bitmap>
//         <solutions>..</solutions>
//       </problem>
//     </problems>
//     <comment>..</comment>
//   </puzzle>
//
// A voxel string lists the x*y*z voxels with x fastest, then y, then z:
// '_' empty, '#' filled, '+' variable, each optionally followed by the
// decimal number of a colour constraint.
//
// Read here: the cube grid, the shapes (and their weights, and their
// voxels' colours), each problem's pieces (count, or a min-max range;
// their groups), its result (fixed and variable voxels), its colour
// constraints (the bitmap's pairs); weights and groups matter for
// disassembly only. Colours are numbered from 1 in voxel strings (0: none)
// and from 0 in a pair (BurrTools' problem.cpp stores a pair as the colours
// less one), each at most the number of <color>s. Ignored, as they change
// neither the assemblies nor their disassembly: the colours' RGB values,
// hot spots, saved solutions and solver state, the comment. Refused,
// naming the file and the element: anything else that changes the
// assemblies (other grids, maxHoles, variable voxels in a piece, a colour
// on an empty voxel) and anything malformed.
#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <pugixml.hpp>
#include <string>
#include <vector>

#include "cubenum/core/error.hpp"
#include "cubenum/core/input_file.hpp"
#include "cubenum/puzzles/polycube.hpp"

namespace cubenum::polycube {
namespace {

// The decompressed text may not be larger than any other input file: a
// gzip bomb stops here, not in memory.
constexpr std::size_t kMaxXmlBytes = kMaxInputBytes;

struct GzCloser {
  void operator()(gzFile file) const { gzclose(file); }
};

struct XmlText {
  std::string text;
  bool compressed = false;
};

// The file's bytes, decompressed when gzip-compressed (zlib reads a plain
// file through unchanged).
XmlText read_gzip_or_plain(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw InputError(path, 0, "is a directory, not a BurrTools puzzle file");
  errno = 0;
  std::unique_ptr<gzFile_s, GzCloser> file(gzopen(path.c_str(), "rb"));
  if (!file) {
    throw InputError(path, 0,
                     fmt::format("cannot open the BurrTools puzzle file: {}",
                                 errno ? std::strerror(errno) : "out of memory"));
  }
  XmlText out;
  char buffer[1 << 16];
  while (true) {
    const int n = gzread(file.get(), buffer, sizeof buffer);
    if (n < 0) {
      int code = 0;
      const char* message = gzerror(file.get(), &code);
      throw InputError(path, 0,
                       fmt::format("cannot read the BurrTools puzzle file: {}",
                                   code == Z_ERRNO ? std::strerror(errno) : message));
    }
    if (n == 0) break;
    out.text.append(buffer, static_cast<std::size_t>(n));
    out.compressed = gzdirect(file.get()) == 0;
    if (out.text.size() > kMaxXmlBytes) {
      throw InputError(path, 0,
                       fmt::format("more than {} MiB of XML{}: not a BurrTools puzzle file",
                                   kMaxXmlBytes >> 20, out.compressed ? " once decompressed" : ""));
    }
  }
  // A gzip stream cut short reads as its text so far, with an error set.
  int code = 0;
  const char* message = gzerror(file.get(), &code);
  if (code != Z_OK && code != Z_STREAM_END)
    throw InputError(path, 0, fmt::format("cannot read the BurrTools puzzle file: {}", message));
  return out;
}

// One <voxel> of the puzzle's <shapes>.
struct Shape {
  std::string name;  // as the file names it, or "S<id+1>" as BurrTools shows it
  std::vector<Voxel> filled;
  std::vector<Voxel> variable;
  std::vector<int> filled_colours, variable_colours;  // parallel (empty: no colours)
  int weight = 1;                                     // for disassembly
};

class Reader {
 public:
  Reader(std::string path, XmlText xml) : path_(std::move(path)), xml_(std::move(xml)) {}

  PuzzleFile read() {
    pugi::xml_document doc;
    const pugi::xml_parse_result parsed =
        doc.load_buffer(xml_.text.data(), xml_.text.size(), pugi::parse_default);
    if (!parsed) {
      fail_at(static_cast<std::ptrdiff_t>(parsed.offset), "",
              fmt::format("not well-formed XML: {}", parsed.description()));
    }
    const pugi::xml_node puzzle = doc.document_element();
    if (std::string_view(puzzle.name()) != "puzzle") {
      fail(puzzle, fmt::format("the document is a <{}>, not a BurrTools <puzzle>", puzzle.name()));
    }
    const std::string version = puzzle.attribute("version").value();
    if (version != "1" && version != "2") {
      fail(puzzle, version.empty() ? "no version attribute (BurrTools writes version=\"2\")"
                                   : fmt::format("version {} is not one BurrTools writes (1 or 2)",
                                                 excerpt(version, 20)));
    }
    read_grid(puzzle);
    for (const pugi::xml_node colours : puzzle.children("colors"))
      for ([[maybe_unused]] const pugi::xml_node colour : colours.children("color")) ++colours_;
    for (const pugi::xml_node shapes : puzzle.children("shapes"))
      for (const pugi::xml_node voxel : shapes.children("voxel")) read_shape(voxel);

    PuzzleFile file;
    file.path = path_;
    for (const pugi::xml_node problems : puzzle.children("problems"))
      for (const pugi::xml_node problem : problems.children("problem"))
        file.problems.push_back(read_problem(problem, static_cast<int>(file.problems.size()) + 1));
    if (file.problems.empty()) fail(puzzle, "no <problem> in <problems>: nothing to solve");
    return file;
  }

 private:
  // -------------------------------------------------------------- errors

  [[noreturn]] void fail_at(std::ptrdiff_t offset, const std::string& where,
                            const std::string& problem) const {
    int line = 0;
    if (offset >= 0 && static_cast<std::size_t>(offset) <= xml_.text.size()) {
      line = 1 + static_cast<int>(std::count(xml_.text.begin(), xml_.text.begin() + offset, '\n'));
    }
    // A plain file's line is the file's own (path:line, as every other
    // parser); a compressed file's is a line of the text inside it.
    std::string message = context_ + where;
    if (xml_.compressed && line > 0) {
      message += fmt::format("{}line {} of the decompressed XML", where.empty() ? "" : " (", line);
      if (!where.empty()) message += ')';
    }
    if (!message.empty()) message += ": ";
    throw InputError(path_, xml_.compressed ? 0 : line, message + problem);
  }

  // The element as a start tag with its attributes, for messages.
  static std::string tag(const pugi::xml_node node) {
    std::string text = fmt::format("<{}", node.name());
    for (const pugi::xml_attribute a : node.attributes())
      text += fmt::format(" {}=\"{}\"", a.name(), a.value());
    text += '>';
    if (text.size() > 80) text = text.substr(0, 76) + " ...>";
    std::string shown;
    for (const char c : text) {
      const auto u = static_cast<unsigned char>(c);
      shown += u < 0x20 || u == 0x7f ? fmt::format("\\x{:02x}", u) : std::string(1, c);
    }
    return shown;
  }

  [[noreturn]] void fail(const pugi::xml_node node, const std::string& problem) const {
    fail_at(node.offset_debug(), tag(node), problem);
  }

  // ----------------------------------------------------------- numbers

  // A whole number in 0..max, or nullopt: BurrTools' atoi would read
  // "3x" as 3 and "" as 0; here they are errors.
  static std::optional<std::uint64_t> number(std::string_view text, std::uint64_t max) {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value > max)
      return std::nullopt;
    return value;
  }

  std::uint64_t attribute_number(const pugi::xml_node node, const char* name,
                                 std::uint64_t max = 1'000'000'000) const {
    const pugi::xml_attribute a = node.attribute(name);
    if (!a) fail(node, fmt::format("no {} attribute", name));
    const auto value = number(a.value(), max);
    if (!value) {
      fail(node, fmt::format("{}={} is not a whole number from 0 to {}", name,
                             excerpt(a.value(), 20), max));
    }
    return *value;
  }

  // ------------------------------------------------------------- parts

  // A piece's groups, for disassembly: a group attribute (every copy in
  // it), or <group group="G" count="N"/> elements (BurrTools' problem.cpp).
  std::vector<std::pair<int, int>> part_groups(const pugi::xml_node part,
                                               std::uint64_t copies) const {
    constexpr std::uint64_t kMaxGroup = 65535;  // BurrTools keeps groups in 16 bits
    if (part.attribute("group")) {
      const auto group = attribute_number(part, "group", kMaxGroup);
      if (group != 0) return {{static_cast<int>(group), static_cast<int>(copies)}};
    }
    std::vector<std::pair<int, int>> groups;
    for (const pugi::xml_node g : part.children("group"))
      groups.emplace_back(static_cast<int>(attribute_number(g, "group", kMaxGroup)),
                          static_cast<int>(attribute_number(g, "count", kMaxGroup)));
    return groups;
  }

  void read_grid(const pugi::xml_node puzzle) const {
    int seen = 0;
    for (const pugi::xml_node grid : puzzle.children("gridType")) {
      if (++seen > 1) fail(grid, "a second <gridType> (BurrTools allows one)");
      const std::uint64_t type = attribute_number(grid, "type");
      if (type != 0) {
        static constexpr const char* kGrids[] = {"cubes", "triangular prisms", "spheres",
                                                 "rhombic dodecahedra", "tetrahedra and octahedra"};
        fail(grid, fmt::format("grid type {}{} is not supported: only the cube grid (type 0)", type,
                               type < 5 ? fmt::format(" ({})", kGrids[type]) : ""));
      }
    }
  }

  void read_shape(const pugi::xml_node voxel) {
    const auto sx = attribute_number(voxel, "x");
    const auto sy = attribute_number(voxel, "y");
    const auto sz = attribute_number(voxel, "z");
    const auto type = attribute_number(voxel, "type");
    if (type != 0) fail(voxel, fmt::format("voxel type {} is unknown (BurrTools writes 0)", type));
    Shape shape;
    shape.name = voxel.attribute("name").value();
    if (shape.name.empty()) shape.name = fmt::format("S{}", shapes_.size() + 1);
    if (voxel.attribute("weight"))
      shape.weight = static_cast<int>(attribute_number(voxel, "weight", 65535));

    // Every voxel of the string, with its colour (0: none). Whitespace is
    // let through (BurrTools writes none; hand-made files may wrap lines).
    const std::string_view text = voxel.child_value();
    // Each side is at most 10^9, so sx*sy fits in 64 bits; a volume no
    // string in a file could list is refused before the third factor.
    std::uint64_t expected = sx * sy;
    if (sz != 0 && expected > kMaxXmlBytes / sz) {
      fail(voxel, fmt::format("x*y*z = {}*{}*{} voxels, more than a file of {} MiB can list", sx,
                              sy, sz, kMaxXmlBytes >> 20));
    }
    expected *= sz;
    for (const auto& [side, axis] : {std::pair{sx, 'x'}, {sy, 'y'}, {sz, 'z'}})
      if (side > static_cast<std::uint64_t>(kMaxCoordinate) + 1)
        fail(voxel, fmt::format("{}={}: a shape takes at most {} voxels a side", axis, side,
                                kMaxCoordinate + 1));
    std::uint64_t index = 0;
    for (std::size_t i = 0; i < text.size();) {
      const char c = text[i++];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
      if (c != '_' && c != '#' && c != '+') {
        fail(voxel, fmt::format("character {} in the voxel string (only '_', '#', '+', each with "
                                "an optional colour number)",
                                excerpt(std::string_view(&text[i - 1], 1))));
      }
      std::size_t digits = i;
      while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
      const std::string_view colour = text.substr(i, digits - i);
      i = digits;
      const int colour_number = voxel_colour(voxel, colour, c, index);
      if (index >= expected) {
        fail(voxel, fmt::format("more voxels in the string than x*y*z = {}*{}*{} = {}", sx, sy, sz,
                                expected));
      }
      if (c != '_') {
        const Voxel v = {static_cast<int>(index % sx), static_cast<int>(index / sx % sy),
                         static_cast<int>(index / sx / sy)};
        (c == '#' ? shape.filled : shape.variable).push_back(v);
        (c == '#' ? shape.filled_colours : shape.variable_colours).push_back(colour_number);
        if (shape.filled.size() + shape.variable.size() > static_cast<std::size_t>(kMaxShapeCubes))
          fail(voxel, fmt::format("more than {} voxels filled: a shape takes at most {}",
                                  kMaxShapeCubes, kMaxShapeCubes));
      }
      ++index;
    }
    if (index != expected) {
      fail(voxel, fmt::format("{} voxels in the string, x*y*z = {}*{}*{} = {} expected", index, sx,
                              sy, sz, expected));
    }
    for (auto* colours : {&shape.filled_colours, &shape.variable_colours})
      if (std::all_of(colours->begin(), colours->end(), [](int n) { return n == 0; }))
        colours->clear();
    shapes_.push_back(std::move(shape));
  }

  // The colour written after voxel `index` (its character c): 0 for none,
  // else 1 to the number of <color>s.
  int voxel_colour(const pugi::xml_node voxel, std::string_view digits, char c,
                   std::uint64_t index) const {
    constexpr std::uint64_t kMaxColour = 63;  // BurrTools keeps a colour in 6 bits
    if (digits.empty()) return 0;
    const auto colour = number(digits, kMaxColour);
    if (!colour) {
      fail(voxel,
           fmt::format("voxel {} of the string has colour {}: BurrTools' colours are 1 to {}",
                       index + 1, excerpt(digits, 20), kMaxColour));
    }
    if (*colour == 0) return 0;
    if (*colour > colours_) {
      fail(voxel, fmt::format("voxel {} of the string has colour {}, but the puzzle defines {} "
                              "(<colors>)",
                              index + 1, *colour, colour_count()));
    }
    if (c == '_')
      fail(voxel, fmt::format("voxel {} of the string is empty ('_') and has colour {}: a colour "
                              "belongs on a filled or variable voxel",
                              index + 1, *colour));
    return static_cast<int>(*colour);
  }

  const Shape& shape_of(const pugi::xml_node node) const {
    const std::uint64_t id = attribute_number(node, "id");
    if (id >= shapes_.size()) {
      fail(node, shapes_.empty()
                     ? fmt::format("shape id {}, but the file has no shapes", id)
                     : fmt::format("shape id {} is out of range: the file has {} shape{} (ids 0 to "
                                   "{})",
                                   id, shapes_.size(), shapes_.size() == 1 ? "" : "s",
                                   shapes_.size() - 1));
    }
    return shapes_[id];
  }

  Problem read_problem(const pugi::xml_node node, int number) {
    Problem problem;
    problem.name = node.attribute("name").value();
    if (problem.name.empty()) problem.name = fmt::format("problem {}", number);
    context_ = fmt::format("problem {} ({}), ", number, excerpt(problem.name, 40));
    if (node.attribute("maxHoles")) {
      fail(node, "maxHoles (a limit on the variable voxels left empty) is not supported");
    }

    // The pieces: <shapes> holds the problem's parts "for historical
    // reasons" (BurrTools' problem.cpp).
    std::map<std::uint64_t, pugi::xml_node> seen;
    for (const pugi::xml_node shapes : node.children("shapes")) {
      for (const pugi::xml_node part : shapes.children("shape")) {
        const Shape& shape = shape_of(part);
        const std::uint64_t id = attribute_number(part, "id");
        if (!seen.emplace(id, part).second) {
          fail(part, fmt::format("shape {} is a piece of this problem twice (first at {})", id,
                                 tag(seen[id])));
        }
        constexpr std::uint64_t kMaxCount = 65535;  // BurrTools keeps counts in 16 bits
        std::uint64_t min = 1;
        std::uint64_t max = 1;
        if (part.attribute("count")) {
          min = max = attribute_number(part, "count", kMaxCount);
        } else if (part.attribute("min") || part.attribute("max")) {
          if (!part.attribute("min") || !part.attribute("max"))
            fail(part, "a range needs both min and max (or count)");
          min = attribute_number(part, "min", kMaxCount);
          max = attribute_number(part, "max", kMaxCount);
          if (min > max) fail(part, fmt::format("min {} is more than max {}", min, max));
        }
        if (max == 0) continue;  // not in this problem
        if (shape.filled.empty())
          fail(part, fmt::format("shape {} ({}) has no filled voxels", id, excerpt(shape.name)));
        if (!shape.variable.empty()) {
          fail(part,
               fmt::format("shape {} ({}) has variable voxels ('+'): not supported in a piece", id,
                           excerpt(shape.name)));
        }
        problem.pieces.push_back({shape.name, shape.filled, static_cast<int>(min),
                                  static_cast<int>(max), shape.weight, part_groups(part, max),
                                  shape.filled_colours});
      }
    }
    if (problem.pieces.empty()) fail(node, "no pieces (no <shape> in its <shapes>)");

    const pugi::xml_node result = node.child("result");
    if (!result) fail(node, "no <result>: the problem has no result shape");
    if (const pugi::xml_node second = result.next_sibling("result"))
      fail(second, "a second <result>");
    const Shape& target = shape_of(result);
    if (target.filled.empty() && target.variable.empty())
      fail(result, fmt::format("the result shape ({}) is empty", excerpt(target.name)));
    problem.fixed = target.filled;
    problem.variable = target.variable;
    problem.fixed_colours = target.filled_colours;
    problem.variable_colours = target.variable_colours;
    for (const pugi::xml_node bitmap : node.children("bitmap"))
      for (const pugi::xml_node pair : bitmap.children("pair")) {
        const int piece = pair_colour(pair, "piece");  // (checked first, then the result's)
        problem.allowed.emplace_back(piece, pair_colour(pair, "result"));
      }
    context_.clear();
    return problem;
  }

  std::string colour_count() const {
    if (colours_ == 0) return "no colours";
    return fmt::format("{} colour{}", colours_, colours_ == 1 ? "" : "s");
  }

  // A colour of a bitmap's pair, from 1 (the file's number plus one).
  int pair_colour(const pugi::xml_node pair, const char* name) const {
    const auto colour = attribute_number(pair, name);
    if (colour >= colours_) {
      fail(pair, fmt::format("{}={} is colour {}, but the puzzle defines {} (<colors>; a pair "
                             "numbers them from 0)",
                             name, colour, colour + 1, colour_count()));
    }
    return static_cast<int>(colour) + 1;
  }

  std::string path_;
  XmlText xml_;
  std::uint64_t colours_ = 0;  // the <color>s defined
  std::vector<Shape> shapes_;
  std::string context_;  // "problem 2 ('name'), " while a problem is read
};

}  // namespace

PuzzleFile read_xmpuzzle(const std::string& path) {
  return Reader(path, read_gzip_or_plain(path)).read();
}

}  // namespace cubenum::polycube
