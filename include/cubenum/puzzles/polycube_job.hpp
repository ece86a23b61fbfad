#pragma once
// `polycube count` as a job: a request (the puzzle file, which problem,
// the limits and the checkpoint folders) and its result (each problem's
// counts, BurrTools' count beside them where congruent pieces are listed
// apart, the first assemblies). The library builds the search, decides
// what a checkpoint must match and when BurrTools' count is made; a
// PolycubeCountView shows each problem as it is counted.
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cubenum/core/cube_symmetry.hpp"
#include "cubenum/core/run_control.hpp"
#include "cubenum/puzzles/polycube.hpp"
#include "cubenum/report/json.hpp"
#include "cubenum/search/disassembly.hpp"
#include "cubenum/search/voxel_cover.hpp"

namespace cubenum::puzzles {

struct PolycubeCountRequest {
  std::string file;        // the project's text format or BurrTools' .xmpuzzle
  std::string file_shown;  // the file as messages and the JSON name it (default: `file`)
  int problem = 0;         // from 1; 0: every problem of the file
  double time_limit = 0;   // seconds; 0: none
  CheckpointOptions checkpoints;
  bool burrtools = true;     // also BurrTools' count (congruent pieces listed apart told apart)
  std::size_t list = 0;      // after each count, the first N assemblies, one per class
  bool disassemble = false;  // also which assemblies come apart (BurrTools' -d), and their levels
  std::optional<double> memory_gib;  // disassembly: stop past this (default: 60 % of what is free)
};

// BurrTools' order of levels: by their numbers, first to last ("2" < "10").
struct LevelOrder {
  bool operator()(const std::string& a, const std::string& b) const;
};

// `count --disassemble`: the assemblies that come apart (solutions), one
// disassembly per class up to symmetry, in the count's own search: each
// subtree dealt to every thread of every process (mpirun) is counted and
// the classes met in it taken apart, and, with a checkpoint, saved once
// both are done (a resumed count takes up only the others).
struct PolycubeDisassembly {
  std::uint64_t raw = 0, rotations = 0, symmetries = 0;  // solutions
  // Classes whose disassembly a limit stopped or did not let begin: neither
  // solutions nor counted as none; stopped_by names the limit ("--time-limit"
  // or "--memory", with what the process held and the limit).
  std::uint64_t undecided = 0;
  std::string stopped_by;
  double memory_held = 0, memory_limit = 0;
  std::map<std::string, std::uint64_t, LevelOrder> levels;  // classes by level
  std::uint64_t states = 0;                                 // positions the disassemblies reached
  double seconds = 0;
};

// The problems of `file` asked for (all for 0), each with its number from
// 1; InputError naming `shown` for a number the file does not have.
std::vector<std::pair<int, polycube::Problem>> polycube_problems(const std::string& file,
                                                                 int problem,
                                                                 const std::string& shown);

struct PolycubeProblemCount {
  int number = 0;  // in the file, from 1
  std::string name;
  search::CoverCounts counts;
  // BurrTools' count: the same where no congruent pieces are listed apart
  // (not `merged`); else a second count, if asked for and begun.
  std::optional<search::CoverCounts> apart;
  bool merged = false;  // congruent pieces listed apart, counted as identical
  bool complete = true;
  bool mirror_pieces = false;
  int rotation_order = 0, symmetry_order = 0;
  std::size_t placements = 0;
  double seconds = 0;
  std::vector<std::string> piece_names;                // VoxelCover::piece_names
  std::vector<search::CoverAssembly> listed;           // PolycubeCountRequest::list
  std::optional<PolycubeDisassembly> solutions;        // PolycubeCountRequest::disassemble
  std::optional<PolycubeDisassembly> solutions_apart;  // BurrTools' (where `merged`)
};

struct PolycubeCountResult {
  std::vector<PolycubeProblemCount> problems;
  bool resumed = false;
};

struct PolycubeAssemblies;

// What a caller shows while the count (or the solve) goes (the command
// line: a header per problem, its counts, its first assemblies).
class PolycubeCountView {
 public:
  virtual ~PolycubeCountView() = default;
  virtual void problem(const polycube::Problem& /*problem*/, const search::VoxelCover& /*cover*/) {}
  virtual void counted(const PolycubeProblemCount& /*count*/, const PolycubeCountRequest&) {}
  virtual void listed(const polycube::Problem& /*problem*/, const search::VoxelCover& /*cover*/,
                      const std::vector<search::CoverAssembly>& /*assemblies*/) {}
  // solve --disassemble: each assembly's disassembly, after `listed`.
  virtual void disassembled(const search::VoxelCover& /*cover*/,
                            const PolycubeAssemblies& /*found*/) {}
};

// An assembly's disassembly (BurrTools' order of pieces: by piece, copies
// one after the other); `rules`' weights and groups by the cover's piece
// (its shapes are set here). The plan's pieces are the assembly's indices.
search::DisassemblyResult disassemble_assembly(const search::CoverAssembly& assembly,
                                               const search::DisassemblyRules& rules = {},
                                               const search::DisassemblyOptions& options = {});

// BurrTools' numbering of the cube's 48 transformations (the rotation
// table of its cube grid, which numbers a piece's orientations): rotation
// 4a + b is b quarter turns about x (y towards z), then turn a: none; a
// quarter turn about y taking x to z; a half turn about y; the quarter
// turn taking x to -z; a quarter turn about z taking x to y; the one
// taking x to -y. Transformation t + 24 is rotation t after the mirror
// x -> -x.
std::array<CubeSymmetry, kSymmetryCount> burrtools_transformations();

// The member of an assembly's class up to the target's symmetries that
// burrTxt takes apart: its assembler keeps, of each class, the least by
// its order of assemblies (assembly_c::smallerRotationExists over the
// result's self-symmetries: a piece chosen to break symmetry compared
// first, then every piece in the problem's order, each by its orientation
// in BurrTools' numbering, then its position). The member decides the
// order in which the disassembler meets moves, and so, among separations
// after equally many moves, the one taken and the parts' levels. Its
// pieces come in BurrTools' order: by piece, copies by orientation and
// position.
class BurrToolsMember {
 public:
  BurrToolsMember(const polycube::Problem& problem, const search::VoxelCover& cover);
  ~BurrToolsMember();
  BurrToolsMember(BurrToolsMember&&) noexcept;
  search::CoverAssembly operator()(const search::CoverAssembly& assembly) const;

  struct Tables;

 private:
  std::unique_ptr<Tables> tables_;
};

// A plan's moves as text, one a line: "B C -x 1", "A +z away".
std::string polycube_plan_text(const std::vector<std::string>& piece_names,
                               const search::CoverAssembly& assembly,
                               const search::DisassemblyResult& plan);

// Runs the count. Throws RunStopped (core/run_control.hpp) once a count
// stopped with a checkpoint is saved.
PolycubeCountResult count_polycube_job(const PolycubeCountRequest& request,
                                       PolycubeCountView& view);

// `polycube solve`: the first assemblies of each problem, one per class.
struct PolycubeSolveRequest {
  std::string file, file_shown;  // as PolycubeCountRequest's
  int problem = 0;
  std::size_t first = 1;
  double time_limit = 0;
  bool disassemble = false;  // the first solutions (assemblies that come apart), with their plans
  std::optional<double> memory_gib;  // as PolycubeCountRequest's
};

struct PolycubeAssemblies {
  int number = 0;
  std::string name;
  std::vector<std::string> piece_names;  // VoxelCover::piece_names
  std::vector<search::CoverAssembly> assemblies;
  std::vector<search::DisassemblyResult> disassemblies;  // each assembly's, with `disassemble`
  // Assemblies met before the solutions whose disassembly a limit stopped
  // (as PolycubeDisassembly's).
  std::uint64_t undecided = 0;
  std::string stopped_by;
  double memory_held = 0, memory_limit = 0;
};

// Shows each problem and its assemblies to the view as they are found.
std::vector<PolycubeAssemblies> solve_polycube_job(const PolycubeSolveRequest& request,
                                                   PolycubeCountView& view);

// The result's JSON fields (docs/PUZZLES.md, polycube count).
Json polycube_count_json(const PolycubeCountRequest& request, const PolycubeCountResult& result);

// Assemblies in JSON: each a list of its pieces (by name,
// VoxelCover::piece_names) and their voxels.
Json polycube_assemblies_json(const std::vector<std::string>& piece_names,
                              const std::vector<search::CoverAssembly>& assemblies);

}  // namespace cubenum::puzzles
