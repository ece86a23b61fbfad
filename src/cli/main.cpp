// cubenum: exact, parallel enumeration of cube puzzles.
//   cubenum <puzzle> <action> [options]      cubenum list
#include "action.hpp"

int main(int argc, char** argv) {
  auto app = cubenum::cli::build_app(argc > 1 ? argv[1] : "");
  return app->run_main(argc, argv);
}
