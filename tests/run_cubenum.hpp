#pragma once
// Runs the real `cubenum` program (the build's binary) for the tests of the
// command line: its exit code and its standard output and error together.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace cubenum::testing {

struct ProgramRun {
  int status = -1;     // exit code
  std::string output;  // stdout and stderr
};

inline ProgramRun run_cubenum(const std::string& args) {
  const std::string command = std::string(CUBENUM_BINARY) + " " + args + " 2>&1";
  ProgramRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer{};
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe))
    run.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace cubenum::testing
