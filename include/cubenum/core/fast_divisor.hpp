#pragma once
#include <cstdint>

namespace cubenum {

// Division of numbers below 2^32 by a constant, by multiplication (Lemire,
// Kaser and Kurz, "Faster remainder by direct computation", 2019).
class FastDivisor {
 public:
  FastDivisor() = default;
  explicit FastDivisor(std::uint64_t divisor)
      : divisor_(divisor), magic_(~std::uint64_t{0} / divisor + 1) {}
  std::uint64_t quotient(std::uint64_t n) const {
    return divisor_ == 1 ? n : static_cast<std::uint64_t>((__uint128_t{magic_} * n) >> 64);
  }
  std::uint64_t remainder(std::uint64_t n) const {
    return static_cast<std::uint64_t>((__uint128_t{magic_ * n} * divisor_) >> 64);
  }

 private:
  std::uint64_t divisor_ = 1, magic_ = 0;
};

}  // namespace cubenum
