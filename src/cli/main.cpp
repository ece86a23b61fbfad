// cubenum: exact, parallel enumeration of cube puzzles.
//   cubenum <puzzle> <action> [options]      cubenum list      cubenum help
#include <iostream>
#include <string>
#include <vector>

#include "action.hpp"
#include "command.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"

namespace {

// `cubenum help [PUZZLE [ACTION]]` is `cubenum [PUZZLE [ACTION]] --help`.
std::vector<std::string> command_words(int argc, char** argv) {
  std::vector<std::string> words(argv + 1, argv + argc);
  if (!words.empty() && words.front() == "help") {
    words.erase(words.begin());
    words.emplace_back("--help");
  }
  return words;
}

int run(int argc, char** argv) {
  std::vector<std::string> words = command_words(argc, argv);
  std::vector<char*> args = {argv[0]};
  for (std::string& word : words) args.push_back(word.data());
  argc = static_cast<int>(args.size());
  argv = args.data();
  auto app = cubenum::cli::build_app(argc > 1 ? argv[1] : "", argc > 2 ? argv[2] : "");
  if (argc == 1) {
    // No command: what there is to run, as --help and `list` say it.
    std::cout << app->help() << "\nPuzzles and actions:\n";
    char list[] = "list";
    char* list_words[] = {argv[0], list};
    return app->run_main(2, list_words);
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
