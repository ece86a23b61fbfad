#pragma once
// The data of the solution pages (report/html_page.hpp, issue 18): for each
// puzzle the JSON object that web/viewer.js draws, built from the solutions
// cubenum computed and the puzzles' own geometry (docs/DESIGN.md, "Solution
// pages"). Lengths are in unit cubes: a foam plate is 5x5 unit cubes on the
// lattice of its PlateSurface, a polycube's voxel is one.
//
// Assembly pages (foam on the cube or a shape, polycube) hold
//   {kind: "assembly", title, subtitle, assemblies: [{name, pieces: [piece]}]}
// with a piece {label, colour ("#rrggbb"), explode (the direction the
// slider moves it: a foam plate's outward normal, a polycube piece's centre
// seen from the assembly's), cells ([[x, y, z], ...], one unit cube each)}
// and, for foam, also {face, transform, placed (the 16-character code as
// placed), centre, right, down} as the solve's JSON and text give them.
// A polycube solution's assembly may hold `disassembly`
// (polycube_disassembly_json), which the page plays.
// The foam cube's page also holds explode (the slider's percent when the
// page opens; 0 if absent) and labels: true (name the faces U, R, F, ...).
#include <string>
#include <vector>

#include "cubenum/puzzles/foam.hpp"
#include "cubenum/puzzles/foam_shape.hpp"
#include "cubenum/puzzles/pocket_cube.hpp"
#include "cubenum/puzzles/polycube.hpp"
#include "cubenum/puzzles/rolling_cubes.hpp"
#include "cubenum/report/json.hpp"
#include "cubenum/search/disassembly.hpp"
#include "cubenum/search/voxel_cover.hpp"

namespace cubenum::puzzles {

// Assemblies on the foam cube (foam solve), named "problem #n".
Json foam_page_data(const std::vector<FoamNet>& nets, const std::string& title);
// Assemblies of a shape (foam solve --shape).
Json foam_shape_page_data(const FoamShape& shape, const FoamProblem& pool,
                          const std::vector<search::AssemblyKey>& keys, const std::string& title);

// One polycube assembly (polycube solve), for an assembly page's list.
Json polycube_assembly_json(const search::VoxelCover& cover, const search::CoverAssembly& assembly,
                            const std::string& name);
// The colour of polycube piece `piece` in the layers' SVG and on the page, as "#rrggbb".
std::string polycube_piece_colour(int piece);
// A solution's disassembly (polycube solve --disassemble), for its
// assembly's `disassembly`: {level, moves: [{pieces (indices into the
// assembly's pieces), direction ([dx, dy, dz], a unit axis), distance
// (unit steps; null for a separation: the pieces slide away for good),
// text (as the solve's text gives the move)}]}. The page plays the moves
// one by one, each slide along its axis, a separation far enough away.
Json polycube_disassembly_json(const std::vector<std::string>& piece_names,
                               const search::CoverAssembly& assembly,
                               const search::DisassemblyResult& plan);
Json polycube_page_data(Json assemblies, const std::string& title);

}  // namespace cubenum::puzzles

namespace cubenum::pocket_cube {

// {kind: "pocket-cube", title, metric, length (in the metric), moves (the
// solve's text), colours (the six colours' fills, w y g b r o), slots (the
// 8 corner centres), facelets ([{slot, face, normal}] in the net order of
// pocket_cube.hpp), steps ([{move, face, normal, quarters}], a half turn
// one step), states (sticker digits, the start and after each step)}.
Json page_data(const Corners& start, const std::vector<Turn>& turns, Metric metric,
               const std::string& title);

}  // namespace cubenum::pocket_cube

namespace cubenum::rolling {

// {kind: "rolling-cubes", title, rows, cols, length, moves (letters),
// steps ([{roll, from, to}]: the cube at cell `from` rolls into `to`),
// states ([[orientation or -1 for the empty cell, ...]], start first),
// orientations (the meaning of the digits: where the black face points)}.
Json page_data(const RollingCubesSpace& space, const ShortestSolution& solution,
               const std::string& title);

}  // namespace cubenum::rolling
