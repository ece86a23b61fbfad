#include "cubenum/core/memory.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"

namespace cubenum {

double available_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

namespace {

// This process's address space and resident set, in bytes (0: unknown).
struct ProcessSize {
  double address_space = 0, resident = 0;
};
ProcessSize process_size() {
  std::FILE* statm = std::fopen("/proc/self/statm", "r");
  if (statm == nullptr) return {};
  unsigned long long size = 0, resident = 0;
  const bool read = std::fscanf(statm, "%llu %llu", &size, &resident) == 2;
  std::fclose(statm);
  const double page = double(sysconf(_SC_PAGESIZE));
  return read ? ProcessSize{double(size) * page, double(resident) * page} : ProcessSize{};
}

}  // namespace

double address_space_left() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
  // (At least a byte: 0 would read "unknown".)
  return std::max(double(limit.rlim_cur) - process_size().address_space, 1.0);
}

double resident_bytes() {
  return process_size().resident;
}

namespace {

// The memory a run may take, and where that figure comes from (for the
// message of a refusal).
struct Allowance {
  double bytes = 0;
  const char* source = "";
};

Allowance allowance(std::optional<double> memory_gib) {
  if (memory_gib && !(*memory_gib > 0))
    throw InputError("--memory", 0, "expected a positive number of GiB");
  if (memory_gib) return {*memory_gib * 0x1p30, "that --memory allows"};
  const Allowance machine{available_bytes(), "this machine has available"};
  const Allowance limit{address_space_left(), "that the address-space limit (ulimit -v) leaves"};
  if (limit.bytes > 0 && (machine.bytes == 0 || limit.bytes < machine.bytes)) return limit;
  return machine;
}

}  // namespace

double memory_allowed(std::optional<double> memory_gib) {
  return allowance(memory_gib).bytes;
}

double check_fits(double need, const std::string& states, const std::string& what,
                  std::optional<double> memory_gib) {
  if (!memory_gib && need < 0x1p26) return 0;
  const Allowance have = allowance(memory_gib);
  if (have.bytes > 0 && need > have.bytes)
    throw InputError(fmt::format("{} need {}{} for the BFS ({}), more than the {} {}", states,
                                 bytes_text(need),
                                 this_cluster().processes() > 1 ? " in each process" : "", what,
                                 bytes_text(have.bytes), have.source));
  return have.bytes;
}

bool MemoryGuard::operator()() const {
  if (tripped()) return true;
  const std::int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::steady_clock::now().time_since_epoch())
                               .count();
  std::int64_t next = next_check_ns_.load(std::memory_order_relaxed);
  // One thread reads the resident set; the others go on meanwhile.
  if (now < next || !next_check_ns_.compare_exchange_strong(next, now + 250'000'000)) return false;
  const double held = resident_bytes();
  if (held <= limit_) return false;
  held_.store(held, std::memory_order_relaxed);
  tripped_.store(true, std::memory_order_relaxed);
  return true;
}

std::shared_ptr<const MemoryGuard> count_memory_guard(std::optional<double> memory_gib) {
  if (memory_gib && this_cluster().processes() > 1)
    throw InputError("--memory", 0,
                     "not under mpirun: a process stopped on its own would leave the others "
                     "waiting");
  const double allowed = memory_gib ? memory_allowed(memory_gib) : 0.6 * available_bytes();
  if (allowed <= 0 || this_cluster().processes() > 1) return nullptr;
  return std::make_shared<const MemoryGuard>(allowed);
}

std::function<bool()> stop_or_guard(std::function<bool()> stop,
                                    std::shared_ptr<const MemoryGuard> guard) {
  if (!guard) return stop;
  return
      [stop = std::move(stop), guard = std::move(guard)] { return (*guard)() || (stop && stop()); };
}

}  // namespace cubenum
