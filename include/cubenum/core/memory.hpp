#pragma once
// What a run's tables need against the memory there is, and the guard that
// stops a count whose tallies outgrow it.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "cubenum/core/progress.hpp"

namespace cubenum {

// Memory this machine has to give (MemAvailable), or 0 if unknown.
double available_bytes();

// Address space this process may still take under a limit (ulimit -v,
// RLIMIT_AS), or 0 if there is none.
double address_space_left();

// Memory this process holds (its resident set), or 0 if unknown.
double resident_bytes();

using progress::bytes_text;  // "1.50 GiB", "12.0 MiB", "3 KiB"

// The memory a run may take: --memory GiB (`memory_gib`, checked to be
// positive) when given, else what the machine has available or the
// address-space limit leaves, whichever is less (0: unknown).
double memory_allowed(std::optional<double> memory_gib);

// Refuses a BFS whose tables need `need` bytes (in each process under
// mpirun) when that is more than memory_allowed; `states` names the space
// ("15116544 states"), `what` the tables. Returns the memory allowed, or 0
// when the need is too small to ask the system (64 MiB) and no --memory
// was given.
double check_fits(double need, const std::string& states, const std::string& what,
                  std::optional<double> memory_gib);

// A count whose tallies grow as it goes (the foam counts' piece choices)
// is stopped before the machine runs out: true, from then on, once the
// process holds more than `limit` bytes. Asked from every thread, often;
// it reads the resident set at most four times a second.
class MemoryGuard {
 public:
  explicit MemoryGuard(double limit) : limit_(limit) {}
  bool operator()() const;
  bool tripped() const { return tripped_.load(std::memory_order_relaxed); }
  double limit() const { return limit_; }
  double held() const { return held_.load(std::memory_order_relaxed); }

 private:
  double limit_;
  mutable std::atomic<std::int64_t> next_check_ns_{0};
  mutable std::atomic<bool> tripped_{false};
  mutable std::atomic<double> held_{0};
};

// The guard of a count in this process: --memory GiB when given, else 60 %
// of the memory available at the start (a stopped count still adds its
// threads' tallies together, which takes up to half as much again); none
// when that is unknown or several processes share the count (each would
// stop on its own; --memory is refused there).
std::shared_ptr<const MemoryGuard> count_memory_guard(std::optional<double> memory_gib);

// `stop`, or the guard's limit reached.
std::function<bool()> stop_or_guard(std::function<bool()> stop,
                                    std::shared_ptr<const MemoryGuard> guard);

// A count stopped by its MemoryGuard (after printing what it had): the
// program says why and exits with kExitOutOfMemory.
class MemoryStop : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cubenum
