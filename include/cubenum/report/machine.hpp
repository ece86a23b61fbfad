#pragma once
// What a measured figure was measured on: every report is stamped with it.
#include <string>

#include "cubenum/report/json.hpp"

namespace cubenum::report {

struct Machine {
  std::string cpu;        // model name from /proc/cpuinfo
  unsigned cores = 0;     // hardware threads
  double memory_gib = 0;  // MemTotal
  std::string compiler;   // the compiler that built cubenum
  std::string date;       // UTC, ISO 8601
  std::string commit;     // git describe of the tree cubenum was built from, or "unknown"
};

Machine this_machine();
Json to_json(const Machine& machine);
// "cubenum 0.1.0, commit 1a2b3c4d5e": the project's version and the commit
// it was built from (as Machine::commit).
std::string version_line();
// One line: "Intel Xeon ..., 2 cores, 23.4 GiB; g++ 12.2.0; 2026-11-22T05:00Z; commit abc1234"
std::string describe(const Machine& machine);

}  // namespace cubenum::report
