#pragma once
// Private to src/puzzles/twisty_*.cpp, the ranked space's files: the
// constants and helpers they share.
#include <cstdint>

#include "cubenum/puzzles/twisty_space.hpp"

namespace cubenum::twisty {
namespace {  // each file its own copy, as when they were one file

constexpr std::uint8_t kFree = 0xFF;  // a position no part has filled yet

inline std::uint64_t binomial(unsigned n, unsigned k) {
  std::uint64_t r = 1;
  for (unsigned i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

}  // namespace

}  // namespace cubenum::twisty
