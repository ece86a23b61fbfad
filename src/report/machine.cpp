#include "cubenum/report/machine.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <thread>

namespace cubenum::report {
namespace {

// The value after "key:" on the first line of `file` that starts with key.
std::string proc_field(const char* file, const std::string& key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

std::string command_output(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::string text;
  std::array<char, 256> buffer{};
  while (fgets(buffer.data(), buffer.size(), pipe.get()) != nullptr) text += buffer.data();
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

std::string source_commit() {
  const std::string commit = command_output("git -C '" CUBENUM_SOURCE_DIR
                                            "' describe --always --dirty --abbrev=10 2>/dev/null");
  return commit.empty() ? "unknown" : commit;
}

}  // namespace

std::string version_line() {
  return fmt::format("cubenum {}, commit {}", CUBENUM_VERSION, source_commit());
}

Machine this_machine() {
  Machine m;
  m.cpu = proc_field("/proc/cpuinfo", "model name");
  if (m.cpu.empty()) m.cpu = "unknown CPU";
  m.cores = std::thread::hardware_concurrency();
  const std::string mem_kib = proc_field("/proc/meminfo", "MemTotal");
  m.memory_gib = mem_kib.empty() ? 0 : std::stod(mem_kib) / (1024.0 * 1024.0);
#if defined(__clang__)
  m.compiler = "clang++ " __clang_version__;
#elif defined(__GNUC__)
  m.compiler = "g++ " __VERSION__;
#else
  m.compiler = "unknown compiler";
#endif
  m.date = fmt::format(
      "{:%Y-%m-%dT%H:%MZ}",
      fmt::gmtime(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now())));
  m.commit = source_commit();
  return m;
}

Json to_json(const Machine& m) {
  return {{"cpu", m.cpu},           {"cores", m.cores}, {"memory_gib", m.memory_gib},
          {"compiler", m.compiler}, {"date", m.date},   {"commit", m.commit}};
}

std::string describe(const Machine& m) {
  return fmt::format("{}, {} cores, {:.1f} GiB; {}; {}; commit {}", m.cpu, m.cores, m.memory_gib,
                     m.compiler, m.date, m.commit);
}

}  // namespace cubenum::report
