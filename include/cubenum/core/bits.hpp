#pragma once
// Gathering and scattering the bits of a mask (BMI2's PEXT and PDEP where
// the build has them, a loop elsewhere): the plate searches' look-ups by
// the cells a face shares.
#include <cstdint>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace cubenum {

// The bits of `value` selected by `mask`, packed to the low end (PEXT).
inline std::uint64_t extract_bits(std::uint64_t value, std::uint64_t mask) {
#if defined(__BMI2__)
  return _pext_u64(value, mask);
#else
  std::uint64_t out = 0;
  for (std::uint64_t bit = 1; mask != 0; mask &= mask - 1, bit <<= 1)
    if (value & mask & -mask) out |= bit;
  return out;
#endif
}

// The low bits of `value` spread to the positions of `mask` (PDEP).
inline std::uint64_t deposit_bits(std::uint64_t value, std::uint64_t mask) {
#if defined(__BMI2__)
  return _pdep_u64(value, mask);
#else
  std::uint64_t out = 0;
  for (std::uint64_t bit = 1; mask != 0; mask &= mask - 1, bit <<= 1)
    if (value & bit) out |= mask & -mask;
  return out;
#endif
}

}  // namespace cubenum
