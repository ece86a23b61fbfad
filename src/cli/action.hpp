#pragma once
// Every `cubenum <puzzle> <action>` is made by add_action: it gets --threads,
// --json, --verbose and --progress, runs under a thread limit, is timed, and
// writes its JSON.
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "command.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/report/json.hpp"

namespace cubenum::cli {

struct ActionContext {
  int threads;            // the limit the action runs under
  std::ostream& out;      // human-readable output; silent when JSON goes to stdout
  bool verbose;           // --verbose: say more on standard error (progress::note)
  bool captured = false;  // run by report or scale (run_captured): notes only with --verbose
};

// Runs the action and returns its result fields (PUZZLES.md); the wrapper
// adds puzzle, action, threads and seconds.
using ActionFn = std::function<Json(const ActionContext&)>;

// Adds action `name` to `puzzle`. The caller adds the action's own options
// to the returned command; `run` reads them when the action runs.
Command* add_action(Command& puzzle, const std::string& name, const std::string& description,
                    ActionFn run);

// Lets the action run under `mpirun -np P` with P > 1: it shares its work
// through this_cluster() (core/cluster.hpp). The other actions refuse to.
void allow_processes(const Command* action);

// --verbose and --progress, for commands that are not actions (report,
// scale); the settings apply when the command runs (apply_output_options).
struct OutputOptions {
  bool verbose = false;
  bool progress = false;
};
void add_output_options(Command& command, OutputOptions& options);
void apply_output_options(const OutputOptions& options);

// Runs one command line (without the program name) in this process and
// returns the action's full result (puzzle, action, threads, seconds and
// its fields), printing nothing; its human-readable output goes to `text`
// if given. Used by `report` and `scale`.
Json run_captured(const std::vector<std::string>& args, std::string* text = nullptr);

// The whole command line: every puzzle, `list`, `report` and `scale`; or,
// when `command` names a puzzle, that puzzle alone, and when `action` (the
// word after it) names one of its actions, only that action's options
// (Command::options_only_along).
std::unique_ptr<Command> build_app(std::string_view command = {}, std::string_view action = {});

// The commands that are not puzzles (a puzzle's flags: puzzles.hpp).
void register_report(Command& app);
void register_scale(Command& app);

// The command line's words (after the program's name), kept for
// check_output; main() sets them.
void set_command_words(std::vector<std::string> words);

// Option `flag`, read into `path`, names a file the action writes: checked
// with the action's other outputs before the work (check_outputs).
void add_output(Command& action, const std::string& flag, const std::string& path);
void add_output(Command& action, const std::string& flag, const std::optional<std::string>& path);

// Before the work, every output the command line gives to `action` (add_action
// calls it): check_output for each; an empty file name is refused.
void check_outputs(const Command& action);

// Throws InputError when `path` (given to `flag`) cannot be written
// (core/output_file.hpp) or is also an input file or another output of the
// command line (`foam count in.txt --json in.txt`, `--svg x --json x`), by
// its path or through a link, whether it exists yet or not.
void check_output(const std::string& path, const std::string& flag);

// Whether two paths name one file: the same inode, or (where one is not
// there yet) the same place once links are followed.
bool same_file(const std::string& a, const std::string& b);

// --html FILE (issue 18): writes the solution page that draws `data`
// (report/html_page.hpp); under mpirun, the first process only.
void write_html_page(const std::string& file, const Json& data);

// "wrote FILE" on standard error, once an output file the user named is in
// place, so that a run which prints pages of text still says where its file
// went. Silent inside report and scale (ctx.captured) and on all but
// mpirun's first process, which alone writes.
void say_wrote(const ActionContext& ctx, const std::string& path);

// Where report and scale write unless told: build/results, beside the
// program, so that running them never changes the repository's results/.
std::string default_output_dir();

// `path` as a person types it from the repository root: files of the data
// directory as data/..., paths under the current directory relative to it.
// No absolute path goes into a report.
std::string shown_path(const std::string& path);

}  // namespace cubenum::cli
