#include "cubenum/core/error.hpp"

namespace cubenum {

std::string InputError::format(const std::string& source, int line, const std::string& problem) {
  // Appended piece by piece: GCC 12 -O3 reports a false overflow in
  // ":" + std::to_string(line) (GCC bug 105329).
  std::string where = source;
  if (line > 0) where.append(1, ':').append(std::to_string(line));
  if (where.empty()) return problem;
  return where.append(": ").append(problem);
}

}  // namespace cubenum
