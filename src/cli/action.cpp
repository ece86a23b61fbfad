#include "action.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "cubenum/core/error.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/core/thread_placement.hpp"

namespace cubenum::cli {
namespace {

struct CommonOptions {
  int threads = tbb::info::default_concurrency();
  std::string json;
};

// Set while run_captured runs an action: the result goes here, and the
// human-readable output to captured_text (or nowhere).
Json* captured_result = nullptr;
std::ostream* captured_text = nullptr;

// A stream that discards everything.
class NullStream : public std::ostream {
 public:
  NullStream() : std::ostream(nullptr) {}
};

}  // namespace

CLI::App* add_action(CLI::App& puzzle, const std::string& name, const std::string& description,
                     ActionFn run) {
  auto options = std::make_shared<CommonOptions>();
  CLI::App* action = puzzle.add_subcommand(name, description);
  action->add_option("--threads", options->threads, "worker threads (default: all cores)")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  action->add_option("--json", options->json, "write the result as JSON to FILE ('-': stdout)")
      ->type_name("FILE");
  action->callback([options, run = std::move(run), action, &puzzle] {
    // Open the JSON file first: an unwritable path fails before the work.
    std::ofstream json_file;
    if (!options->json.empty() && options->json != "-") {
      json_file.open(options->json);
      if (!json_file) throw InputError("--json", 0, "cannot write '" + options->json + "'");
    }
    NullStream silent;
    std::ostream* out_stream = &std::cout;
    if (options->json == "-" || captured_result != nullptr) out_stream = &silent;
    if (captured_text != nullptr) out_stream = captured_text;
    std::ostream& out = *out_stream;

    tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(options->threads));
    std::optional<SpreadWorkers> spread;
#ifndef CUBENUM_PLAIN_THREADS
    if (options->threads > 1) spread.emplace();
#endif
    Stopwatch clock;
    Json fields = run(ActionContext{options->threads, out});
    const double seconds = clock.seconds();

    Json result = {{"puzzle", puzzle.get_name()},
                   {"action", action->get_name()},
                   {"threads", options->threads},
                   {"seconds", seconds}};
    for (auto& [key, value] : fields.items()) result[key] = value;
    if (captured_result != nullptr) *captured_result = result;
    if (options->json == "-") std::cout << result.dump(2) << '\n';
    if (json_file.is_open()) json_file << result.dump(2) << '\n';
  });
  return action;
}

Json run_captured(const std::vector<std::string>& args, std::string* text) {
  auto app = build_app();
  Json result;
  std::ostringstream human;
  captured_result = &result;
  captured_text = text != nullptr ? &human : nullptr;
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them backwards
  try {
    app->parse(reversed);
  } catch (...) {
    captured_result = nullptr;
    captured_text = nullptr;
    throw;
  }
  captured_result = nullptr;
  captured_text = nullptr;
  if (text != nullptr) *text = human.str();
  if (result.is_null())
    throw InputError("'" + fmt::format("{}", fmt::join(args, " ")) + "' ran no action");
  return result;
}

}  // namespace cubenum::cli
