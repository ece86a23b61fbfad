// cubenum: exact, parallel enumeration of cube puzzles.
//   cubenum <puzzle> <action> [options]      cubenum list
#include <iostream>

#include "action.hpp"
#include "command.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"

namespace {

int run(int argc, char** argv) {
  auto app = cubenum::cli::build_app(argc > 1 ? argv[1] : "", argc > 2 ? argv[2] : "");
  if (argc == 1) {
    // No command: what there is to run, as --help and `list` say it.
    std::cout << app->help() << "\nPuzzles and actions:\n";
    char list[] = "list";
    char* words[] = {argv[0], list};
    return app->run_main(2, words);
  }
  cubenum::cli::set_command_words({argv + 1, argv + argc});
  return app->run_main(argc, argv);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    cubenum::join_cluster(argc, argv);  // when mpirun started this process
  } catch (const cubenum::InputError& e) {
    std::cerr << "cubenum: error: " << e.what() << '\n';
    return cubenum::cli::kExitUsage;
  }
  const int status = run(argc, argv);
  cubenum::finish_scheduler();  // the workers gone before exit (core/parallel.hpp)
  cubenum::leave_cluster();
  return status;
}
