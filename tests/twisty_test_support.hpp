#pragma once
// What the tests of the optimal search share: the project's definition
// files, positions as comparable keys, and random positions.
#include <random>
#include <string>
#include <vector>

#include "cubenum/puzzles/twisty.hpp"

namespace cubenum::twisty::test_support {

inline std::string data_file(const std::string& name) {
  return std::string(CUBENUM_DATA_DIR) + "/twisty/" + name;
}

inline std::string key_of(const Arrangement& a) {
  std::string key;
  for (std::size_t set = 0; set < a.perm.size(); ++set) {
    key.append(a.perm[set].begin(), a.perm[set].end());
    key.append(a.ori[set].begin(), a.ori[set].end());
  }
  return key;
}

// The position of `length` random moves from solved.
inline Arrangement random_walk(const Definition& def, const std::vector<Move>& moves, int length,
                               std::mt19937& rng) {
  Arrangement x = def.solved;
  for (int i = 0; i < length; ++i) x = apply(def.sets, x, moves[rng() % moves.size()].effect);
  return x;
}

}  // namespace cubenum::twisty::test_support
