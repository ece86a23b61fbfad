#pragma once
// Runs the real `cubenum` program (the build's binary) for the tests of the
// command line: its exit code and its standard output and error together.
#include <sys/wait.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace cubenum::testing {

struct ProgramRun {
  int status = -1;     // exit code
  std::string output;  // stdout and stderr
  double seconds = 0;  // wall time, to scale the moments of stops and kills
};

// Runs a shell command line, its standard error joined to its output.
inline ProgramRun run_shell(const std::string& command_line) {
  const std::string command = command_line + " 2>&1";
  ProgramRun run;
  const auto start = std::chrono::steady_clock::now();
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer{};
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe))
    run.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

inline ProgramRun run_cubenum(const std::string& args) {
  // (Appended, not `std::string(...) + " " + args`: GCC 12 -O1 warns
  // -Warray-bounds wrongly on that where it is inlined.)
  std::string line = CUBENUM_BINARY;
  line += ' ';
  line += args;
  return run_shell(line);
}

// Runs the program with `args` under `timeout`, which sends `signal` (KILL,
// INT...) after `seconds`; returns its exit status as the shell reports it.
inline int run_until(const std::string& signal, double seconds, const std::string& args) {
  const std::string command = "timeout --preserve-status -s " + signal + " " +
                              std::to_string(seconds) + " " + CUBENUM_BINARY + " " + args +
                              " > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The command line that starts the program by `mpirun -np processes` (Open
// MPI, from tools/setup): more processes than cores allowed, as root too,
// threads not bound to one core each, and killed if it ever hangs. Where a
// process ends with a non-zero status (4: stopped, saved), mpirun ends the
// others, by default only after a grace period: they have passed
// MPI_Finalize, every part saved, so at once.
inline std::string mpi_command(int processes, const std::string& args) {
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
         "OMPI_MCA_odls_base_sigkill_timeout=0 timeout 120 "
         "mpirun --oversubscribe --bind-to none -np " +
         std::to_string(processes) + " " + CUBENUM_BINARY + " " + args;
}

inline ProgramRun run_mpi(int processes, const std::string& args) {
  return run_shell(mpi_command(processes, args));
}

}  // namespace cubenum::testing
