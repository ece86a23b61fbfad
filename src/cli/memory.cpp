#include "memory.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>

#include "cubenum/core/cluster.hpp"
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

double check_fits(double need, const std::string& states, const std::string& what,
                  std::optional<double> memory_gib) {
  if (!memory_gib && need < 0x1p26) return 0;
  const double have = memory_allowed(memory_gib);
  if (have > 0 && need > have)
    throw InputError(fmt::format(
        "{} need {}{} for the BFS ({}), more than the {} {}", states, bytes_text(need),
        this_cluster().processes() > 1 ? " in each process" : "", what, bytes_text(have),
        memory_gib ? "that --memory allows" : "this machine has available"));
  return have;
}

}  // namespace cubenum::cli
