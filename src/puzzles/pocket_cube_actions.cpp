// The pocket cube's actions: enumerate by BFS, solve optimally, export the
// seed's graph.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>

#include "cubenum/bfs/row_policies.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/output_file.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/puzzles/pocket_cube.hpp"
#include "cubenum/puzzles/twisty_class_space.hpp"
#include "cubenum/puzzles/twisty_search.hpp"
#include "cubenum/puzzles/twisty_symmetry.hpp"
#include "pocket_cube_geometry.hpp"

namespace cubenum::pocket_cube {
namespace {

constexpr std::uint64_t kSolved = 0;  // identity permutation, no twist

// The classes up to the cube's 48 symmetries by depth, from the project's
// one symmetry path: the 2x2x2 with all six faces up to its whole-cube turns
// (data/twisty/pocket-cube.tws), over its classes (twisty_class_space.hpp).
// Its positions by depth must be this cube's.
std::vector<std::uint64_t> classes_by_depth(Metric metric,
                                            const std::vector<std::uint64_t>& positions) {
  namespace tw = twisty;
  const tw::Definition def = tw::load_definition(CUBENUM_DATA_DIR "/twisty/pocket-cube.tws");
  const std::vector<tw::Move> moves = tw::expand_moves(def, {{}, metric == Metric::Quarter});
  tw::SpaceOptions layout;
  layout.tables = false;
  const tw::TwistySpace space(def, moves, layout);
  const tw::SymmetryGroup group(def, moves, {});
  tw::ClassSpaceOptions options;
  options.turns = tw::whole_turns(space, group);
  const tw::SymCoordinate split = tw::choose_sym_coordinate(space, group, options.turns.size());
  if (group.order() != kSymmetryCount || split.parts.empty())
    throw std::logic_error("pocket cube: the 2x2x2 file's symmetries are not the cube's 48");
  const tw::ClassSpace classes(space, group, split, std::move(options));
  const tw::ClassEnumeration e = tw::enumerate_classes(classes, {}, this_cluster());
  if (e.positions != positions)
    throw std::logic_error("pocket cube: the 2x2x2 file up to turns is not this cube");
  std::vector<std::uint64_t> by_depth;
  for (const tw::LevelClasses& level : e.classes) by_depth.push_back(level.classes);
  return by_depth;
}

}  // namespace

std::uint64_t Enumeration::states() const {
  return std::accumulate(distribution.begin(), distribution.end(), std::uint64_t{0});
}

std::uint64_t Enumeration::symmetry_classes() const {
  return std::accumulate(symmetry_distribution.begin(), symmetry_distribution.end(),
                         std::uint64_t{0});
}

Enumeration enumerate(Metric metric, bool symmetry, bfs::DirectionPolicy policy) {
  // Twists by piece: a turn's permutation of the twists is a vector added
  // (ShiftRows), none for U, D and half turns; three bitplanes.
  const bfs::ShiftRows<PocketCubeShiftSpace::kRadix, PocketCubeShiftSpace::kDigits> space{
      PocketCubeShiftSpace(metric)};
  Enumeration e;
  e.metric = metric;
  bfs::RowBfsOptions options;
  options.policy = policy;
  const bfs::RowBfsResult result = bfs::row_bfs<bfs::PlaneRows>(space, {&kSolved, 1}, options);
  e.distribution = result.distribution();
  e.levels = result.levels;
  for (const bfs::RowLevel& level : result.levels) {
    e.methods.push_back(level.work.method());
    e.seconds.push_back(level.seconds);
  }
  if (symmetry) e.symmetry_distribution = classes_by_depth(metric, e.distribution);
  return e;
}

Enumeration enumerate_shared(Metric metric, bfs::DirectionPolicy policy, Cluster& cluster) {
  bfs::BfsOptions options;
  options.policy = policy;
  options.cluster = &cluster;
  const bfs::BfsResult result = bfs::frontier_bfs(PocketCubeSpace(metric), {&kSolved, 1}, options);
  Enumeration e;
  e.metric = metric;
  e.distribution = result.distribution();
  for (const bfs::LevelStats& level : result.levels) {
    e.methods.push_back(level.depth == 0 ? "" : bfs::direction_text(level.direction));
    e.seconds.push_back(level.seconds);
  }
  return e;
}

Enumeration enumerate_here(Metric metric, bool symmetry, bfs::DirectionPolicy policy) {
  Cluster& cluster = this_cluster();
  if (cluster.processes() == 1) return enumerate(metric, symmetry, policy);
  if (symmetry) throw InputError("--symmetry", 0, "runs in one process (not under mpirun)");
  return enumerate_shared(metric, policy, cluster);
}

std::vector<Turn> solve(Metric metric, const Corners& start, Cluster* cluster) {
  const PocketCubeSpace space(metric);
  bfs::BfsOptions options;
  options.depth_table = true;
  options.cluster = cluster;
  const bfs::BfsResult result = bfs::frontier_bfs(space, {&kSolved, 1}, options);
  const std::vector<std::uint64_t> path = bfs::path_to_source(
      space, *result.depths, {&kSolved, 1}, position_rank(start), result.part, cluster);
  // The BFS turned the cube to bring D-L-B home; turn its faces back.
  const CubeSymmetry back = kCubeSymmetries[kSymmetryTables.inverse[fixing_rotation(start)]];
  std::vector<Turn> turns;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    int move = 0;
    while (space.neighbour(path[i], move) != path[i + 1]) ++move;
    const Turn turn = space.turn(move);
    turns.push_back({back.apply(turn.face), turn.quarters});
  }
  return turns;
}

std::string seed_id(const Corners& corners) {
  return seed_id(stickers_from_corners(corners));
}

std::string seed_id(const Stickers& stickers) {
  static const auto rotations = [] {
    std::array<detail::FaceletMap, kRotationCount> maps{};
    for (int s = 0; s < kRotationCount; ++s)
      maps[s] = detail::make_symmetry_map(kCubeSymmetries[s], false);
    return maps;
  }();
  std::string least(kStickerCount, '9'), image(kStickerCount, '0');
  for (const auto& map : rotations) {
    for (int f = 0; f < kStickerCount; ++f) image[map.to[f]] = static_cast<char>('0' + stickers[f]);
    least = std::min(least, image);
  }
  return least;
}

namespace {

// Writes `lines` rows, produced in parallel chunks and appended in order.
template <class Row>
void write_rows(const std::filesystem::path& file, const char* header, std::uint64_t count,
                Progress* progress, Row&& row) {
  // Renamed into place when complete: a killed export leaves no truncated file.
  OutputFile out(file.string(), "--neo4j");
  out.write(header);
  constexpr std::uint64_t kChunk = 1 << 16;
  for (std::uint64_t begin = 0; begin < count; begin += 16 * kChunk) {
    const std::uint64_t end = std::min(count, begin + 16 * kChunk);
    std::vector<std::string> chunks((end - begin + kChunk - 1) / kChunk);
    parallel_for_chunks(chunks.size(), 1, [&](std::size_t c, std::size_t) {
      for (std::uint64_t i = begin + c * kChunk; i < std::min(end, begin + (c + 1) * kChunk); ++i)
        row(i, chunks[c]);
    });
    for (const auto& chunk : chunks) out.write(chunk);
    if (progress != nullptr) progress->add(end - begin);
  }
  out.commit();
}

}  // namespace

ExportCounts export_neo4j(const std::filesystem::path& dir, Progress* progress) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    detail::reject("--neo4j", fmt::format("cannot create '{}': {}", dir.string(), error.message()));

  // Every node's id, once: 24 digits each.
  if (progress != nullptr) progress->set_detail("ids");
  std::vector<std::array<char, kStickerCount>> ids(kPositionCount);
  parallel_for_chunks(kPositionCount, 1 << 14, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r != end; ++r) {
      const std::string id = seed_id(unrank(r));
      std::memcpy(ids[r].data(), id.data(), kStickerCount);
    }
    if (progress != nullptr) progress->add(end - begin);
  });
  progress::note("ids of {} positions made", progress::grouped(kPositionCount));
  auto append_id = [&](std::string& out, std::uint64_t r) {
    out.append(ids[r].data(), kStickerCount);
  };

  ExportCounts counts;
  counts.nodes = kPositionCount;
  if (progress != nullptr) progress->set_detail("nodes.csv");
  write_rows(dir / "nodes.csv", "pos:ID;:LABEL\n", kPositionCount, progress,
             [&](std::uint64_t r, std::string& out) {
               append_id(out, r);
               out += ";Cube\n";
             });

  // Each pair of positions a quarter turn apart once, from the lower rank.
  const PocketCubeSpace space(Metric::Quarter);
  std::atomic<std::uint64_t> edges{0};
  progress::note("wrote {}", (dir / "nodes.csv").string());
  if (progress != nullptr) progress->set_detail("edges.csv");
  write_rows(dir / "edges.csv", ":START_ID;:END_ID;:TYPE\n", kPositionCount, progress,
             [&](std::uint64_t r, std::string& out) {
               std::uint64_t written = 0;
               space.for_each_neighbour(r, [&](std::uint64_t n) {
                 if (r < n) {
                   append_id(out, r);
                   out += ';';
                   append_id(out, n);
                   out += ";MOVE\n";
                   ++written;
                 }
                 return false;
               });
               edges.fetch_add(written, std::memory_order_relaxed);
             });
  counts.edges = edges.load();
  progress::note("wrote {}", (dir / "edges.csv").string());
  return counts;
}

}  // namespace cubenum::pocket_cube
