#pragma once
// Permutation puzzles from a definition file in the ksolve/twsearch text
// format (the format of twsearch's samples/main/*.tws):
//
//   Name NAME
//   Set NAME SLOTS ORIENTATIONS          one line per set of pieces
//   Solved                               the start of the search
//   NAME                                 per set: the pieces in each slot,
//   1 2 3 4 ...                            repeated numbers for identical
//   0 0 0 0 ...                            pieces; optional orientations
//   End
//   Move NAME                            per move, the sets it changes
//   NAME
//   4 1 2 3 ...                          slot i takes the piece of slot p[i]
//   1 0 2 0 ...                          optional: twists, by piece (ksolve)
//   End
//
// `#` starts a comment. Everything else twsearch knows (Illegal,
// MoveSequence, StartState, `?` wildcards, ...) is refused with the line.
//
// Positions and moves are kept in one form, by slot ("state
// representation"): perm[i] is the piece in slot i and ori[i] its twist.
// Applying move m to position s:
//   perm'[i] = s.perm[m.perm[i]],  ori'[i] = (s.ori[m.perm[i]] + m.ori[i]) mod o.
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace cubenum::twisty {

struct PieceSet {
  std::string name;
  unsigned slots = 0;
  unsigned orientations = 1;  // twists of a piece: 1 means none
};

// A position, or a move's effect on the solved position: per set, the
// piece in each slot (0-based; equal numbers are identical pieces) and its
// twist.
struct Arrangement {
  std::vector<std::vector<std::uint8_t>> perm, ori;  // [set][slot]
  bool operator==(const Arrangement&) const = default;
};

// The effect of `move` after `state`: `move` is a move or any arrangement
// whose pieces are all distinct.
Arrangement apply(const std::vector<PieceSet>& sets, const Arrangement& state,
                  const Arrangement& move);
// The same into `out` (shaped like `state`), reusing its storage.
void apply(const std::vector<PieceSet>& sets, const Arrangement& state, const Arrangement& move,
           Arrangement& out);

struct MoveDef {
  std::string name;
  int line = 0;  // where its block starts
  Arrangement effect;
};

// A definition file as written, checked.
struct Definition {
  std::string file;  // the path, for messages
  std::string name;
  std::vector<PieceSet> sets;
  Arrangement solved;
  std::vector<MoveDef> moves;

  Arrangement identity() const;
};

// Reads a definition; a bad or unsupported file is an InputError naming
// the file, the line and the problem.
Definition parse_definition(std::istream& in, const std::string& file);
Definition load_definition(const std::string& path);

// A scramble file, as twsearch reads them: blocks `ScrambleAlg NAME`
// (lines of moves, up to `End`) and `Scramble NAME` (a position written as
// the Solved block is, up to `End`), or lines of moves, a scramble a line.
struct Scramble {
  std::string name;                     // a line's: "line N"
  int line = 0;                         // where it starts
  std::vector<std::string> moves;       // as written (any move of the file and its powers)
  std::optional<Arrangement> position;  // a Scramble block's
};
std::vector<Scramble> parse_scrambles(std::istream& in, const std::string& file,
                                      const Definition& def);
std::vector<Scramble> load_scrambles(const std::string& path, const Definition& def);

// A move of the search: a power of a move of the file.
struct Move {
  std::string
      name;      // R, R2, R' (twsearch's names: R2' for the fourth power of a move of order 5, ...)
  int base = 0;  // index in Definition::moves
  unsigned power = 1;
  unsigned order = 1;  // of the base move, or of the restricted generator
  unsigned cost = 1;   // quarter turns: min(power, order - power) in the generator's steps
  Arrangement effect;
};

// Which moves a search uses. Empty `names`: every move of the file and all
// its powers, except whole-puzzle rotations (x, y, z and names like `Fv`),
// as twsearch does; otherwise the named moves and their powers (`R2` gives
// the powers of R2). `quarter` keeps each move and its inverse only.
struct MoveChoice {
  std::vector<std::string> names;
  bool quarter = false;
};

// The moves of a search; an unknown or repeated name is an InputError
// naming `option` (e.g. "--moves").
std::vector<Move> expand_moves(const Definition& def, const MoveChoice& choice,
                               const std::string& option = "--moves");

// Every power of every move of the file, rotations included (for reading
// scrambles).
std::vector<Move> all_powers(const Definition& def);

// Splits "A,B,C" (spaces allowed) into names.
std::vector<std::string> split_move_list(const std::string& text);

// Reads a sequence of the search's moves ("R U2 F'"); an unknown move is an
// InputError naming `option`. Returns indices into `moves`.
std::vector<int> parse_sequence(const std::vector<Move>& moves, const std::string& text,
                                const std::string& option = "--scramble");
// Indices into `moves` as text, e.g. "R U2 F'".
std::string sequence_text(const std::vector<Move>& moves, const std::vector<int>& sequence);

}  // namespace cubenum::twisty
