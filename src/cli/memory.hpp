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

// Refuses a BFS whose tables need `need` bytes (in each process under
// mpirun) when that is more than memory_allowed; `states` names the space
// ("15116544 states"), `what` the tables. Returns the memory allowed, or 0
// when the need is too small to ask the system (64 MiB) and no --memory
// was given.
double check_fits(double need, const std::string& states, const std::string& what,
                  std::optional<double> memory_gib);

}  // namespace cubenum::cli
