// The table of the command line's puzzles (puzzles.hpp), with what
// `cubenum report` runs of each.
#include "puzzles.hpp"

#include <fmt/format.h>

#include <cstdint>

#include "cubenum/core/progress.hpp"

namespace cubenum::cli {
namespace {

std::string data(const std::string& relative) {
  return std::string(CUBENUM_DATA_DIR "/").append(relative);
}

const std::vector<std::string> kSeries = {"happy-cube-little-genius", "happy-cube-marble",
                                          "happy-cube-micro", "happy-cube-original",
                                          "happy-cube-profi"};
const std::vector<std::string> kSingleSets = {"construct", "smart-cube"};

std::string set_file(const std::string& name) {
  return data("foam/" + name + ".txt");
}

// Every challenge of every set: own cubes, one piece per colour of each
// series, any six of each series' pool, and the pool of all sets together
// (counted through shapes: its direct search takes minutes).
std::vector<std::vector<std::string>> foam_runs() {
  std::vector<std::string> own = {"foam", "count", "--challenge", "own"};
  std::vector<std::string> one_per_colour = {"foam", "count", "--challenge", "one-per-colour"};
  std::vector<std::string> everything = {"foam", "count", "--challenge", "pool", "--via-shapes"};
  std::vector<std::vector<std::string>> pools;
  for (const auto& series : kSeries) {
    own.push_back(set_file(series));
    one_per_colour.push_back(set_file(series));
    everything.push_back(set_file(series));
    pools.push_back({"foam", "count", "--challenge", "pool", set_file(series)});
  }
  for (const auto& set : kSingleSets) {
    own.push_back(set_file(set));
    everything.push_back(set_file(set));
  }
  std::vector<std::vector<std::string>> runs = {own, one_per_colour};
  runs.insert(runs.end(), pools.begin(), pools.end());
  runs.push_back(everything);
  auto by_shape = everything;
  by_shape.back() = set_file(kSingleSets.back());
  by_shape.erase(by_shape.begin() + 4);  // --via-shapes: by shape needs no help
  by_shape.insert(by_shape.begin() + 4, {"--by", "shape"});
  runs.push_back(by_shape);
  return runs;
}

// ------------------------------------------------------------ headlines

std::string grouped(const Json& n) {
  return progress::grouped(n.get<std::uint64_t>());
}

std::string pocket_cube_headline(const std::vector<Json>& runs) {
  std::string depths;
  for (const Json& r : runs)
    depths += fmt::format("{}{} {}", depths.empty() ? "" : ", ", r["max_depth"].get<int>(),
                          r["metric"].get<std::string>());
  return fmt::format("{} positions, God's number {}; {} classes up to symmetry",
                     grouped(runs.front()["states"]), depths,
                     grouped(runs.front()["symmetry_classes"]));
}

std::string rolling_cubes_headline(const std::vector<Json>& runs) {
  const Json& r = runs.front();
  const Json& s = r["shortest_solution"];
  return fmt::format(
      "{} states, {} reachable, eccentricity of the start {}{}", grouped(r["states"]),
      grouped(r["reachable"]), r["max_depth"].get<int>(),
      s.is_null() ? "" : fmt::format("; shortest solution {} moves", s["length"].get<int>()));
}

std::string foam_headline(const std::vector<Json>& runs) {
  // The run over every set's pieces together, by identity (foam_runs).
  const Json& pool = runs[runs.size() - 2]["results"][0];
  return fmt::format(
      "{} challenges; any six of all {} sets' pieces: {} assemblies, {} up to symmetry",
      runs.size(), kSeries.size() + kSingleSets.size(), grouped(pool["raw"]),
      grouped(pool["symmetries"]));
}

std::string nine_colour_cube_headline(const std::vector<Json>& runs) {
  const Json& r = runs.front();
  return fmt::format("{} labelled colourings, {} up to colours and symmetries",
                     grouped(r["labelled"]), grouped(r["up_to_colours_and_symmetries"]));
}

std::string sudoku_cube_headline(const std::vector<Json>& runs) {
  const Json& r = runs.front();
  const auto solutions = r["solutions"].get<std::uint64_t>();
  return fmt::format("{} grid solution{}, {} reachable by turns", grouped(r["solutions"]),
                     solutions == 1 ? "" : "s", grouped(r["reachable"]));
}

std::string polycube_headline(const std::vector<Json>& runs) {
  std::string line;
  for (const Json& run : runs)
    for (const Json& r : run["results"])
      line += fmt::format("{}{} {}", line.empty() ? "" : ", ", r["name"].get<std::string>(),
                          grouped(r["symmetries"]));
  return line + " (up to symmetry)";
}

ReportSection pocket_cube_report() {
  return {"Pocket cube",
          "Positions modulo whole-cube rotation (one corner fixed), 3,674,160 in all, by distance "
          "from solved in the quarter-turn (QTM) and half-turn (HTM) metrics; the antipodes; "
          "classes up to the 48 symmetries (conjugation), in total and per distance.",
          {{"pocket-cube", "bfs", "--metric", "qtm", "--symmetry"},
           {"pocket-cube", "bfs", "--metric", "htm", "--symmetry"}},
          pocket_cube_headline};
}

ReportSection rolling_cubes_report() {
  return {"Rolling cubes",
          "The 3x3 grid of 8 rolling cubes and one empty cell, 9 x 6^8 = 15,116,544 states: the "
          "states reachable from all black up with the centre empty, their distances, the "
          "eccentricity of the start and the states at that distance, the shortest distance to all "
          "colour up with the centre empty, one shortest sequence and the number of them.",
          {{"rolling-cubes", "bfs"}},
          rolling_cubes_headline};
}

ReportSection foam_report() {
  return {
      "Foam cubes",
      "Assemblies of the 5x5x5 shell from six foam pieces, each shell cell covered once, pieces "
      "told apart by identity (the last run: by shape, congruent pieces interchangeable): raw, "
      "up to the 24 rotations, up to the 48 symmetries; for one piece per colour and any six "
      "from a pool also the piece choices that build a cube.",
      foam_runs(), foam_headline};
}

ReportSection nine_colour_cube_report() {
  return {"Nine-colour cube",
          "27 unit cubes, 3 of each of 9 colours, filling the 3x3x3 cube so that each face shows "
          "all 9 colours: labelled colourings; classes up to permuting the colours; up to colours "
          "and rotations; up to colours and symmetries.",
          {{"nine-colour-cube", "count"}},
          nine_colour_cube_headline};
}

ReportSection sudoku_cube_report() {
  return {
      "Sudoku cube",
      "Grid solutions of the seed's stickered cube: each corner and edge piece in a slot with a "
      "twist or flip so that every face shows 1-9 around its centre, all facing one way (a 1 "
      "may face the opposite way); each also checked for reachability by legal turns.",
      {{"sudoku-cube", "count"}},
      sudoku_cube_headline};
}

ReportSection polycube_report() {
  return {"Polycube puzzles",
          "Assemblies of polycube pieces filling a target, each piece as often as the puzzle says: "
          "raw (the target fixed), up to the target's rotations, up to its symmetries (a mirror "
          "image the same assembly where it is one of the puzzle), and BurrTools' count.",
          {{"polycube", "count", data("polycubes/soma.txt")},
           {"polycube", "count", data("polycubes/pentomino-6x10.txt")},
           {"polycube", "count", data("polycubes/pentomino-2x5x6.txt")}},
          polycube_headline};
}

}  // namespace

const std::vector<PuzzleCommand>& puzzle_commands() {
  static const std::vector<PuzzleCommand> table = {
      {"pocket-cube", "the 2x2x2 cube: distance tables, symmetry classes, optimal solving",
       bind_pocket_cube, pocket_cube_report},
      {"rolling-cubes", "cubes rolled into the empty cell of an R x C grid (up to 12 cells)",
       bind_rolling_cubes, rolling_cubes_report},
      {"foam", "foam cubes (Happy Cube and relatives)", bind_foam, foam_report},
      {"nine-colour-cube", "27 cubes in 9 colours, every face showing all nine colours",
       bind_nine_colour_cube, nine_colour_cube_report},
      {"sudoku-cube", "a stickered 3x3x3 cube: every face must show 1..9", bind_sudoku_cube,
       sudoku_cube_report},
      {"twisty", "any permutation puzzle from a ksolve/twsearch definition file", bind_twisty,
       nullptr},
      {"polycube", "polycube assembly puzzles (Soma, pentominoes, BurrTools .xmpuzzle files)",
       bind_polycube, polycube_report},
  };
  return table;
}

}  // namespace cubenum::cli
