#include "memory.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>

#include "cubenum/core/error.hpp"

namespace cubenum::cli {

double available_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

std::string bytes_text(double bytes) {
  if (bytes >= 0x1p30) return fmt::format("{:.2f} GiB", bytes / 0x1p30);
  if (bytes >= 0x1p20) return fmt::format("{:.1f} MiB", bytes / 0x1p20);
  return fmt::format("{:.0f} KiB", std::ceil(bytes / 0x1p10));
}

double memory_allowed(std::optional<double> memory_gib) {
  if (memory_gib && !(*memory_gib > 0))
    throw InputError("--memory", 0, "expected a positive number of GiB");
  return memory_gib ? *memory_gib * 0x1p30 : available_bytes();
}

}  // namespace cubenum::cli
