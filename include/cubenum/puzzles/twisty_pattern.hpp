#pragma once
// Pattern databases for an optimal search (IDA*) over a definition file's
// positions: the puzzle projected onto some of its sets (the others
// forgotten), its every position's distance from solved by the BFS's depth
// table (depth mod 3, two bits a position). A sequence of moves projects to
// one no longer, so a projection's distance is a lower bound of the
// position's; a child's distance follows from its parent's and its code.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cubenum/bfs/row_storage.hpp"
#include "cubenum/puzzles/twisty.hpp"
#include "cubenum/puzzles/twisty_space.hpp"

namespace cubenum::twisty {

// The definition with only the sets named (in the file's order), and the
// moves that change them; an InputError for an unknown or repeated name.
Definition project(const Definition& def, const std::vector<std::string>& sets);
// The chosen moves a projection keeps (those that change its sets).
MoveChoice projected_choice(const Definition& projected, const MoveChoice& choice);

class PatternDatabase {
 public:
  // Builds the projection's depth table on every thread, with the moves
  // `choice` names (those that change the kept sets) and their powers.
  PatternDatabase(const Definition& def, const MoveChoice& choice,
                  const std::vector<std::string>& sets);
  ~PatternDatabase();

  const Definition& projection() const { return projected_; }
  std::uint64_t states() const { return space_->size(); }
  std::uint64_t table_bytes() const { return depths_.bytes(); }

  // A thread's storage for the look-ups.
  struct Scratch {
    Arrangement projected;
    Position coded;
  };
  // The exact distance of x's projection (walked through the table).
  unsigned distance(const Arrangement& x, Scratch& s) const;
  // The same for a neighbour of a position whose distance is `parent`:
  // one look-up.
  unsigned distance_after(unsigned parent, const Arrangement& child, Scratch& s) const {
    const int code = depths_.depth_mod3(rank(child, s));
    const int from = static_cast<int>(parent % 3);
    return code == from ? parent : code == (from + 2) % 3 ? parent - 1 : parent + 1;
  }

 private:
  std::uint64_t rank(const Arrangement& x, Scratch& s) const;

  Definition projected_;
  std::vector<std::size_t> kept_;  // the full definition's sets kept, in order
  std::unique_ptr<TwistySpace> space_;
  bfs::RowDepths depths_;
};

}  // namespace cubenum::twisty
