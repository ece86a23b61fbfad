#pragma once
// Whether an assembly of pieces on the cube grid comes apart, by
// BurrTools' rules (its disassembler_0 and movement analysis): pieces
// slide in unit steps along the 6 axis directions; a move is a group of
// pieces sliding together one or more steps in one direction; a group that
// can slide arbitrarily far separates, and each of the two parts is then
// taken apart in turn, from where it stood. Each part's moves come from a
// breadth-first search over the pieces' relative positions, so the number
// of moves before each separation is the least possible.
//
// The moves BurrTools considers from a position, and the order in which
// it meets them (which decides, among separations after equally many
// moves, the one it takes, and so the levels of the parts), are kept:
// a group is the set of pieces that must move with one piece (at most
// half of the part's pieces), any union of such groups sliding the same
// distance the same way is a move too, and removals are looked for first,
// single pieces before groups. The level is written as BurrTools writes
// it: the moves of each separation, then the part left behind's, then the
// part removed's, joined by dots, a part only where it or one of its own
// parts takes more than one move ("98.2.4.2").
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cubenum/search/voxel_problem.hpp"

namespace cubenum::search {

// At most this many pieces in an assembly (a group is a 64-bit mask).
inline constexpr int kMaxDisassemblyPieces = 64;

// One move of a plan: `pieces` (indices into the assembly) slide
// `distance` unit steps along `direction` (0..5: +x, -x, +y, -y, +z, -z);
// a separation slides them away for good (distance 0).
struct DisassemblyMove {
  std::vector<int> pieces;
  int direction = 0;
  int distance = 0;
  bool separation = false;
};

struct DisassemblyResult {
  bool comes_apart = false;
  bool complete = true;  // false: stopped (options.stop or max_states): undecided
  std::string level;     // BurrTools' notation, where it comes apart
  // The plan: each separation's moves (the last one the separation), then
  // the part left behind's plan, then the part removed's.
  std::vector<DisassemblyMove> plan;
  std::uint64_t states = 0;  // positions the searches reached, all parts together
};

struct DisassemblyOptions {
  std::function<bool()> stop;    // polled now and then; true gives up (complete = false)
  std::uint64_t max_states = 0;  // give up past this many positions in one search (0: none)
  // Where the searches add the positions they reach as they go (every
  // 1024 positions looked at, and at the end of each search), for a
  // progress line; null: none.
  std::atomic<std::uint64_t>* reached = nullptr;
};

// `pieces`: each piece's voxels where it stands in the assembly (no voxel
// in two pieces). Throws std::invalid_argument for more than
// kMaxDisassemblyPieces pieces or coordinates beyond +-10000.
DisassemblyResult disassemble(const std::vector<std::vector<Voxel>>& pieces,
                              const DisassemblyOptions& options = {});

// What BurrTools' rules know of the pieces beyond their voxels, by shape
// (copies of a piece share one). Empty: every piece its own shape, of
// weight 1, in no group.
struct DisassemblyRules {
  std::vector<int> shape;   // each piece's shape
  std::vector<int> weight;  // each shape's: a move shows the lighter side moving, and a
                            // separation removes it (the other side stays put)
  // Each shape's groups (group, copies; group 0: none). A part whose pieces
  // are all of one group is taken as apart without trying; a part that
  // does not come apart still counts as apart where the parts that did
  // not can each be given one group with copies enough (a cage and what
  // must stay in it).
  std::vector<std::vector<std::pair<int, int>>> groups;
};

DisassemblyResult disassemble(const std::vector<std::vector<Voxel>>& pieces,
                              const DisassemblyRules& rules,
                              const DisassemblyOptions& options = {});

// The direction's name: "+x", "-x", ... "-z".
const char* direction_name(int direction);

}  // namespace cubenum::search
