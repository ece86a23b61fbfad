#pragma once
// Canonical move sequences, the move orders an iterative-deepening search
// (IDA*) tries. A run of one generator's moves must be shortest for the
// power it makes (U U2 is U', U U' nothing: refused; U U in the quarter-turn
// metric is U2: kept), and of two generators that commute only the order
// with the lower-numbered first (U D, never D U). Every position that a
// sequence of length n reaches is reached by a canonical one of length at
// most n: shortening a run and sorting neighbouring commuting moves never
// lengthens a sequence.
#include <cstdint>
#include <limits>
#include <vector>

#include "cubenum/puzzles/twisty.hpp"

namespace cubenum::twisty {

class CanonicalMoves {
 public:
  // `moves`: expand_moves' list of the definition's moves and powers.
  CanonicalMoves(const Definition& def, const std::vector<Move>& moves);

  // A search's state: kStart before any move, else the last run's
  // generator and the power it has made.
  static constexpr std::uint32_t kStart = 0;
  static constexpr std::uint32_t kRefused = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t states() const { return states_; }
  // The state after `move`, or kRefused where the sequence would not be
  // canonical.
  std::uint32_t next(std::uint32_t state, std::size_t move) const {
    return next_[state * moves_ + move];
  }

  std::size_t generators() const { return commute_.size(); }
  bool commute(std::size_t g, std::size_t h) const { return commute_[g][h]; }
  // The canonical sequences of each length 0..max_length (saturating at
  // 2^64 - 1).
  std::vector<std::uint64_t> count(std::size_t max_length) const;

 private:
  std::size_t moves_ = 0;
  std::uint32_t states_ = 1;
  std::vector<std::vector<bool>> commute_;  // [g][h]
  std::vector<std::uint32_t> next_;         // [state * moves + move]
};

}  // namespace cubenum::twisty
