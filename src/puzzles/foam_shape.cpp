// GCC 12 warns falsely (-Wrestrict, GCC bug 105329) on std::string's
// operator+ inlined from InputError here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "cubenum/puzzles/foam_shape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "cubenum/core/checked.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/input_file.hpp"

namespace cubenum::puzzles {
namespace {

[[noreturn]] void fail(const std::string& source, int line, const std::string& problem) {
  throw InputError(source, line, problem);
}

std::string point_text(const Vec3& v) {
  return fmt::format("({},{},{})", v[0], v[1], v[2]);
}

Vec3 plus(Vec3 a, const Vec3& b, int k = 1) {
  for (int i = 0; i < 3; ++i) a[i] += k * b[i];
  return a;
}

// Exposed faces: (cube index, direction in Face order U R F D L B).
std::vector<std::pair<int, int>> exposed_faces(const std::vector<Vec3>& cubes) {
  const std::set<Vec3> filled(cubes.begin(), cubes.end());
  std::vector<std::pair<int, int>> faces;
  for (int dir = 0; dir < kFaceCount; ++dir)
    for (std::size_t c = 0; c < cubes.size(); ++c)
      if (!filled.count(plus(cubes[c], face_normal(static_cast<Face>(dir)))))
        faces.emplace_back(static_cast<int>(c), dir);
  // Direction first, then position: a single cube gives U R F D L B.
  std::sort(faces.begin(), faces.end(), [&](const auto& a, const auto& b) {
    return a.second != b.second ? a.second < b.second : cubes[a.first] < cubes[b.first];
  });
  return faces;
}

// A unit edge of the shape shared by more than two faces (cubes touching
// only along it) cannot be built: reject it.
void check_edges(const std::vector<Vec3>& cubes, const std::vector<std::pair<int, int>>& faces,
                 const std::vector<int>& lines, const std::string& source) {
  std::map<std::pair<Vec3, Vec3>, std::vector<int>> edge_faces;  // corners in units of cubes
  for (std::size_t i = 0; i < faces.size(); ++i) {
    const auto [c, dir] = faces[i];
    const Vec3 n = face_normal(static_cast<Face>(dir));
    const int axis = n[0] != 0 ? 0 : n[1] != 0 ? 1 : 2;
    Vec3 corner = cubes[c];
    if (n[axis] > 0) corner[axis] += 1;
    const int a = (axis + 1) % 3, b = (axis + 2) % 3;
    Vec3 p[4] = {corner, corner, corner, corner};
    p[1][a] += 1, p[2][a] += 1, p[2][b] += 1, p[3][b] += 1;
    for (int e = 0; e < 4; ++e) {
      const auto edge = std::minmax(p[e], p[(e + 1) % 4]);
      edge_faces[{edge.first, edge.second}].push_back(static_cast<int>(i));
    }
  }
  for (const auto& [edge, on] : edge_faces)
    if (on.size() > 2) {
      const int cube = faces[on.front()].first;
      fail(source, lines.empty() ? 0 : lines[cube],
           fmt::format("cubes touch only along the edge {}-{}: a surface edge shared by {} "
                       "faces cannot be built",
                       point_text(edge.first), point_text(edge.second), on.size()));
    }
}

// A shape is one piece: every cube reached from the first through cubes
// that share a face or a corner (check_edges refuses those sharing only an
// edge; at a shared corner six faces meet and one of them fills the corner
// cell). Cubes apart would be separate surfaces built from one pool: refuse.
void check_connected(const std::vector<Vec3>& cubes, const std::vector<int>& lines,
                     const std::string& source) {
  std::map<Vec3, std::size_t> index;
  for (std::size_t c = 0; c < cubes.size(); ++c) index.emplace(cubes[c], c);
  std::vector<bool> reached(cubes.size(), false);
  std::vector<std::size_t> stack = {0};
  reached[0] = true;
  while (!stack.empty()) {
    const Vec3 cube = cubes[stack.back()];
    stack.pop_back();
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -1; dz <= 1; ++dz) {
          const auto it = index.find(plus(cube, Vec3{dx, dy, dz}));
          if (it != index.end() && !reached[it->second]) {
            reached[it->second] = true;
            stack.push_back(it->second);
          }
        }
  }
  for (std::size_t c = 0; c < cubes.size(); ++c)
    if (!reached[c])
      fail(source, lines.empty() ? 0 : lines[c],
           fmt::format("cube {} does not touch the piece that cube {} is in: a shape must be "
                       "one piece (cubes apart would be separate surfaces)",
                       point_text(cubes[c]), point_text(cubes[0])));
}

// Faces in lattice units (pitch 4), centred on the bounding box's centre
// (which every symmetry of the shape fixes), with the frames of the foam
// cube's faces (make_cube_surface).
search::PlateSurface surface_of(const std::vector<Vec3>& cubes,
                                const std::vector<std::pair<int, int>>& faces) {
  Vec3 low = cubes[0], high = cubes[0];
  for (const Vec3& c : cubes)
    for (int i = 0; i < 3; ++i) low[i] = std::min(low[i], c[i]), high[i] = std::max(high[i], c[i]);
  const search::PlateSurface cube = search::make_cube_surface();
  std::vector<search::PlateFace> plates;
  for (const auto& [c, dir] : faces) {
    Vec3 centre{};
    const Vec3 n = face_normal(static_cast<Face>(dir));
    for (int i = 0; i < 3; ++i)
      centre[i] = 4 * cubes[c][i] + 2 - 2 * (low[i] + high[i] + 1) + 2 * n[i];
    const auto& frame = cube.face(dir);
    const std::string name = cubes.size() == 1 ? frame.name
                                               : fmt::format("{} {},{},{}", frame.name, cubes[c][0],
                                                             cubes[c][1], cubes[c][2]);
    plates.push_back({name, centre, frame.right, frame.down});
  }
  return search::PlateSurface(std::move(plates));
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

int parse_coordinate(const std::string& word, const std::string& source, int line) {
  std::size_t used = 0;
  long value = 0;
  try {
    value = std::stol(word, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != word.size() || word.empty())
    fail(source, line, fmt::format("coordinate {} is not an integer", excerpt(word)));
  if (value < -kMaxShapeCoordinate || value > kMaxShapeCoordinate)
    fail(source, line,
         fmt::format("coordinate {} is out of range ({} to {})", excerpt(word),
                     -kMaxShapeCoordinate, kMaxShapeCoordinate));
  return static_cast<int>(value);
}

std::string file_stem(const std::string& path) {
  const auto slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  for (const char* ext : {".cubes.txt", ".txt"})
    if (name.size() > std::string(ext).size() && name.ends_with(ext))
      return name.substr(0, name.size() - std::string(ext).size());
  return name;
}

}  // namespace

FoamShape make_foam_shape(const std::string& name, std::vector<Vec3> cubes, std::vector<int> lines,
                          const std::string& source) {
  if (cubes.empty()) fail(source.empty() ? name : source, 0, "no cubes in the shape");
  const auto faces = exposed_faces(cubes);
  check_edges(cubes, faces, lines, source.empty() ? name : source);
  check_connected(cubes, lines, source.empty() ? name : source);
  search::PlateSurface surface = surface_of(cubes, faces);
  return {name, std::move(cubes), std::move(lines), std::move(surface)};
}

FoamShape parse_foam_shape(std::istream& in, const std::string& source, const std::string& name) {
  std::vector<Vec3> cubes;
  std::vector<int> lines;
  std::map<Vec3, int> first_line;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    text = trim(text.substr(0, text.find('#')));
    if (text.empty()) continue;
    std::istringstream words(text);
    std::string keyword, x, y, z, extra;
    words >> keyword >> x >> y >> z;
    if (keyword != "cube" || z.empty() || (words >> extra))
      fail(source, line, "expected 'cube <x> <y> <z>', got " + excerpt(text));
    const Vec3 cube{parse_coordinate(x, source, line), parse_coordinate(y, source, line),
                    parse_coordinate(z, source, line)};
    const auto [it, fresh] = first_line.try_emplace(cube, line);
    if (!fresh)
      fail(source, line,
           fmt::format("cube {} given twice (first on line {})", point_text(cube), it->second));
    if (cubes.size() == kMaxShapeCubes)
      fail(source, line, fmt::format("more than {} cubes", kMaxShapeCubes));
    cubes.push_back(cube);
    lines.push_back(line);
  }
  if (cubes.empty()) fail(source, 0, "no cubes in the file");
  return make_foam_shape(name, std::move(cubes), std::move(lines), source);
}

FoamShape load_foam_shape(const std::string& spec) {
  if (spec.starts_with("cuboid:")) {
    int size[3] = {0, 0, 0};
    char x1 = 0, x2 = 0, rest = 0;
    std::istringstream words(spec.substr(7));
    if (!(words >> size[0] >> x1 >> size[1] >> x2 >> size[2]) || x1 != 'x' || x2 != 'x' ||
        (words >> rest) || size[0] < 1 || size[1] < 1 || size[2] < 1)
      fail("--shape", 0, "expected cuboid:AxBxC with positive integers, got " + excerpt(spec));
    // Checked: 65536 x 65536 x 1 overflows an int.
    if (!product_at_most({size[0], size[1], size[2]}, kMaxShapeCubes))
      fail("--shape", 0,
           fmt::format("{}: at most {} cubes are supported", excerpt(spec), kMaxShapeCubes));
    std::vector<Vec3> cubes;
    for (int x = 0; x < size[0]; ++x)
      for (int y = 0; y < size[1]; ++y)
        for (int z = 0; z < size[2]; ++z) cubes.push_back({x, y, z});
    return make_foam_shape(spec, std::move(cubes));
  }
  std::istringstream in(read_input_file(spec, "shape file"));
  return parse_foam_shape(in, spec, file_stem(spec));
}

FoamProblem foam_shape_pool(const std::vector<FoamSet>& sets, FoamBy by,
                            const std::vector<std::string>& colours, bool via_shapes) {
  std::vector<FoamSet> chosen = sets;
  for (FoamSet& set : chosen)
    if (!colours.empty())
      std::erase_if(set.pieces, [&](const FoamPiece& p) {
        return std::find(colours.begin(), colours.end(), p.colour) == colours.end();
      });
  for (const std::string& colour : colours)
    if (std::none_of(chosen.begin(), chosen.end(), [&](const FoamSet& set) {
          return !set.pieces.empty() &&
                 std::any_of(set.pieces.begin(), set.pieces.end(),
                             [&](const FoamPiece& p) { return p.colour == colour; });
        }))
      fail("--colours", 0, "no piece has the colour " + excerpt(colour));
  FoamProblem pool = foam_problems(FoamChallenge::Pool, by, chosen, via_shapes).front();
  pool.counts_choices = true;
  if (pool.pieces.empty()) fail("--colours", 0, "no pieces in the pool");
  return pool;
}

namespace {

// Fewer pieces than faces: answered before the engine builds its tables
// (which take long on a large surface).
bool too_few_pieces(const FoamShape& shape, const FoamProblem& pool) {
  return search::usable_pieces(pool.kinds, pool.group_capacity) <
         static_cast<std::uint64_t>(shape.surface.face_count());
}

}  // namespace

FoamShapeCount count_foam_shape(const FoamShape& shape, const FoamProblem& pool,
                                const search::AssemblyOptions& options) {
  if (too_few_pieces(shape, pool)) {
    FoamShapeCount none;
    if (options.tally_by_shape) none.by_shape.emplace();
    return none;
  }
  const search::PlateAssembly engine(shape.surface, pool.kinds, pool.group_capacity);
  search::AssemblyOptions with_labels = options;
  with_labels.label_copies = pool.label_copies;
  search::AssemblyTally t = engine.count(with_labels);
  return {t.raw,           t.rotations,      t.symmetries,
          t.piece_choices, t.by_shape,       std::move(t.listed),
          t.subtrees_done, t.subtrees_total, t.complete};
}

std::optional<int> layers_frontier(const FoamShape& shape, const FoamProblem& pool) {
  constexpr double kMostCopiesLeft = 1 << 25;  // combinations of copies left
  constexpr int kMostFaces = 32;
  double combinations = 1;
  for (const search::PlateKind& k : pool.kinds) combinations *= k.multiplicity + 1;
  // Many congruent copies: half as many pieces again as shapes (Little
  // Genius has 36 in 14; Micro 36 in 25 takes more memory than the search).
  const bool copies = 2 * pool.pieces.size() >= 3 * pool.kinds.size();
  if (!copies || combinations > kMostCopiesLeft || shape.surface.face_count() > kMostFaces ||
      too_few_pieces(shape, pool) ||
      std::any_of(pool.kinds.begin(), pool.kinds.end(), [](const auto& k) { return k.group >= 0; }))
    return std::nullopt;
  return search::narrow_frontier(shape.surface);
}

bool layers_suit(const FoamShape& shape, const FoamProblem& pool, int widest_frontier) {
  const std::optional<int> frontier = layers_frontier(shape, pool);
  return frontier && *frontier <= widest_frontier;
}

search::LayerTally count_foam_shape_by_layers(const FoamShape& shape, const FoamProblem& pool,
                                              const search::LayerOptions& options) {
  if (too_few_pieces(shape, pool)) return {};
  const search::PlateLayers engine = [&] {
    try {
      return search::PlateLayers(shape.surface, pool.kinds);
    } catch (const std::invalid_argument& e) {
      throw InputError("--method", 0,
                       fmt::format("layers: {} (--method search counts it)", e.what()));
    }
  }();
  search::LayerOptions with_labels = options;
  with_labels.label_copies = pool.label_copies;
  return engine.count(with_labels);
}

search::FirstResult first_foam_shape(const FoamShape& shape, const FoamProblem& pool,
                                     const search::FirstOptions& options) {
  if (too_few_pieces(shape, pool)) {
    search::FirstResult none;
    none.exhausted = true;
    return none;
  }
  const search::PlateAssembly engine(shape.surface, pool.kinds, pool.group_capacity);
  return engine.first(options);
}

}  // namespace cubenum::puzzles
