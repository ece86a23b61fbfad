#include "action.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/output_file.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/core/thread_placement.hpp"
#include "cubenum/report/html_page.hpp"

namespace cubenum::cli {
namespace {

struct CommonOptions {
  int threads = machine_threads();
  std::string json;
  OutputOptions output;
};

// The words of the command line (set_command_words), for check_output.
std::vector<std::string> command_words;

// Set while run_captured runs an action: the result goes here, and the
// human-readable output to captured_text (or nowhere).
Json* captured_result = nullptr;
std::ostream* captured_text = nullptr;

// The actions that share their work among mpirun's processes.
std::vector<const Command*> distributed_actions;

// The thread limit of the process's own action, kept until the process
// ends (never destroyed): undoing the last limit makes oneTBB work out its
// default thread count, reading /sys and searching the library path for
// Intel's OpenMP runtime (libiomp5), and nothing runs after that action.
// Only the runs of report and scale, one after another in one process,
// undo theirs.
ThreadLimit* process_limit = nullptr;

// A stream that discards everything.
class NullStream : public std::ostream {
 public:
  NullStream() : std::ostream(nullptr) {}
};

}  // namespace

void add_output_options(Command& command, OutputOptions& options) {
  command.add_flag("--verbose", options.verbose,
                   "say what is being done, step by step, on standard error");
  command.add_flag("--progress", options.progress,
                   "progress lines on standard error even when it is not a terminal");
}

void apply_output_options(const OutputOptions& options) {
  progress::set_verbose(options.verbose);
  progress::set_mode(options.progress ? progress::Mode::Always : progress::Mode::Auto);
}

Command* add_action(Command& puzzle, const std::string& name, const std::string& description,
                    ActionFn run) {
  auto options = std::make_shared<CommonOptions>();
  Command* action = puzzle.add_subcommand(name, description);
  action->add_option("--threads", options->threads, "worker threads (default: all cores)")
      ->check(Range(1, 65536))
      ->capture_default_str();
  action->add_option("--json", options->json, "write the result as JSON to FILE ('-': stdout)")
      ->type_name("FILE");
  action->add_output("--json", [options]() -> std::optional<std::string> {
    if (options->json == "-") return std::nullopt;
    return options->json;
  });
  add_output_options(*action, options->output);
  action->callback([options, run = std::move(run), action, &puzzle] {
    // A run inside report or scale keeps the settings of the command around it.
    const bool captured = captured_result != nullptr;
    if (!captured) apply_output_options(options->output);
    // Under mpirun the processes share the work, and the first one speaks
    // for them all.
    Cluster& cluster = this_cluster();
    const bool speaks = cluster.process() == 0;
    if (cluster.processes() > 1 && std::find(distributed_actions.begin(), distributed_actions.end(),
                                             action) == distributed_actions.end())
      throw InputError(fmt::format(
          "{} {} runs in one process: start it without mpirun (the README's 'Beyond one "
          "machine' says which actions run under mpirun)",
          puzzle.get_name(), action->get_name()));
    if (!speaks) progress::set_mode(progress::Mode::Never);
    if (!speaks) progress::set_verbose(false);
    // An unwritable path, or one that is an input or another output, fails
    // before the work.
    if (speaks) check_outputs(*action);
    const bool json_file = !options->json.empty() && options->json != "-" && speaks;
    NullStream silent;
    std::ostream* out_stream = &progress::guarded_stdout();
    if (options->json == "-" || captured || !speaks) out_stream = &silent;
    if (captured_text != nullptr) out_stream = captured_text;
    std::ostream& out = *out_stream;

    // oneTBB runs no more threads than the machine has: say so, and record
    // the threads that ran (--threads 65536 is not 65536 threads).
    const int cores = machine_threads();
    if (options->threads > cores) {
      if (!captured)
        fmt::print(stderr, "cubenum: note: --threads {}: this machine runs {} at once; using {}\n",
                   options->threads, cores, cores);
      options->threads = cores;
    }
    // One thread: no oneTBB at all (OneThread, core/parallel.hpp). No limit
    // at all threads: undoing one makes oneTBB probe the machine
    // (process_limit above).
    std::optional<OneThread> one;
    std::optional<ThreadLimit> limit;
    if (options->threads == 1) {
      one.emplace();
    } else if (options->threads < cores) {
      if (captured)
        limit.emplace(options->threads);
      else if (process_limit == nullptr)
        process_limit = new ThreadLimit(options->threads);
    }
    std::optional<SpreadWorkers> spread;
#ifndef CUBENUM_PLAIN_THREADS
    if (options->threads > 1) spread.emplace();
#endif
    const std::string command = puzzle.get_name() + " " + action->get_name();
    progress::note("{}: {} thread{}", command, options->threads, options->threads == 1 ? "" : "s");
    Stopwatch clock;
    const ActionContext ctx{options->threads, out, progress::verbose(), captured};
    Json fields = run(ctx);
    const double seconds = clock.seconds();
    progress::note("{}: done in {:.3f} s", command, seconds);
    out.flush();

    Json result = {{"puzzle", puzzle.get_name()},
                   {"action", action->get_name()},
                   {"threads", options->threads},
                   {"seconds", seconds}};
    for (auto& [key, value] : fields.items()) result[key] = value;
    if (cluster.processes() > 1) result["processes"] = cluster.processes();
    if (captured_result != nullptr) *captured_result = result;
    if (options->json == "-" && speaks) progress::guarded_stdout() << result.dump(2) << std::endl;
    if (json_file) {
      write_output_file(options->json, "--json", result.dump(2) + '\n');
      say_wrote(ctx, options->json);
    }
  });
  return action;
}

void allow_processes(const Command* action) {
  distributed_actions.push_back(action);
}

void set_command_words(std::vector<std::string> words) {
  command_words = std::move(words);
}

void write_html_page(const std::string& file, const Json& data) {
  if (this_cluster().process() == 0) write_output_file(file, "--html", report::solution_page(data));
}

void say_wrote(const ActionContext& ctx, const std::string& path) {
  if (ctx.captured || this_cluster().process() != 0) return;
  ctx.out.flush();  // after the text printed before it, where both go to one place
  progress::note_line("wrote " + path);
}

void add_output(Command& action, const std::string& flag, const std::string& path) {
  action.add_output(flag, [&path] { return std::optional<std::string>(path); });
}

void add_output(Command& action, const std::string& flag, const std::optional<std::string>& path) {
  action.add_output(flag, [&path] { return path; });
}

void check_outputs(const Command& action) {
  for (const Command::Output& output : action.outputs()) {
    if (action.count(output.flag) == 0) continue;
    const std::optional<std::string> path = output.path();
    if (!path) continue;
    if (path->empty()) throw InputError(output.flag, 0, "an empty file name");
    check_output(*path, output.flag);
  }
}

bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::equivalent(a, b, error)) return true;  // both exist: by inode (hard and soft links)
  // One or both not there yet: where they would be, links followed as far
  // as they go.
  const fs::path first = fs::weakly_canonical(a, error);
  if (error) return false;
  const fs::path second = fs::weakly_canonical(b, error);
  return !error && first == second;
}

void check_output(const std::string& path, const std::string& flag) {
  check_output_path(path, flag);
  // The output's own word names it once; another word naming it is an input
  // or another output.
  std::size_t named = 0;
  for (const std::string& word : command_words) {
    const auto equals = word.find('=');
    const std::string file =
        word.starts_with("--") && equals != std::string::npos ? word.substr(equals + 1) : word;
    if (!file.empty() && !file.starts_with("-")) named += same_file(file, path) ? 1 : 0;
  }
  if (named > 1)
    throw InputError(flag, 0,
                     fmt::format("{} is also an input or another output of this command: "
                                 "refusing to write over it",
                                 excerpt(path, 200)));
}

Json run_captured(const std::vector<std::string>& args, std::string* text) {
  auto app = build_app();
  Json result;
  std::ostringstream human;
  captured_result = &result;
  captured_text = text != nullptr ? &human : nullptr;
  try {
    app->parse(args);
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

std::string default_output_dir() {
  std::error_code error;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return "cubenum-results";
  return (program.parent_path() / "results").string();
}

std::string shown_path(const std::string& path) {
  const std::string data = std::string(CUBENUM_DATA_DIR "/");
  if (path.rfind(data, 0) == 0) return "data/" + path.substr(data.size());
  std::error_code error;
  const std::string here = std::filesystem::current_path(error).string() + "/";
  if (!error && path.rfind(here, 0) == 0) return path.substr(here.size());
  return path;
}

}  // namespace cubenum::cli
