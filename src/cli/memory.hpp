#pragma once
// What a run's tables need against the memory there is.
#include <cstdint>
#include <optional>
#include <string>

namespace cubenum::cli {

// Memory this machine has to give (MemAvailable), or 0 if unknown.
double available_bytes();

// "1.50 GiB", "12.0 MiB", "3 KiB".
std::string bytes_text(double bytes);

// The memory a run may take: --memory GiB (`memory_gib`, checked to be
// positive) when given, else what the machine has available (0: unknown).
double memory_allowed(std::optional<double> memory_gib);

}  // namespace cubenum::cli
