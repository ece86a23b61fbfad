// The one file that includes CLI11 (command.hpp says why).
#include "command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <optional>
#include <string_view>
#include <system_error>

#include "checkpoint_options.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/memory.hpp"
#include "cubenum/report/machine.hpp"

namespace cubenum::cli {
namespace {

// Standard output is written through a buffer: a write that failed (a full
// disk, /dev/full, a closed pipe) shows only when it is flushed.
// Standard error may fail too (2>/dev/full): say what we can, never throw.
int say_error(int status, const std::string& message) {
  Cluster& cluster = this_cluster();
  if (cluster.processes() == 1) {
    std::fputs(("cubenum: " + message + "\n").c_str(), stderr);
    return status;
  }
  // Under mpirun, a bad command line or input (or a stop) is met by every
  // process alike: the first one says it. Anything else may be this
  // process's alone while the others wait for it: say which, end them all.
  if (status == kExitUsage || status == kExitStopped) {
    if (cluster.process() == 0) std::fputs(("cubenum: " + message + "\n").c_str(), stderr);
    return status;
  }
  std::fputs(fmt::format("cubenum: process {} of {}: {}\n", cluster.process(), cluster.processes(),
                         message)
                 .c_str(),
             stderr);
  cluster.abort(status);
  return status;  // not reached: abort ends the process
}

int check_stdout() {
  std::cout.flush();
  if (std::fflush(stdout) == 0 && std::ferror(stdout) == 0 && std::cout.good()) return 0;
  return say_error(kExitUsage,
                   fmt::format("error: writing standard output: {}", std::strerror(errno)));
}

}  // namespace

struct Command::Shared {
  std::unique_ptr<CLI::App> app;
  std::deque<std::unique_ptr<Command>> commands;  // every subcommand's handle
  std::deque<Option> options;
  std::vector<std::string> path;  // options_only_along's words; empty: every command's options
  Option unbuilt{nullptr};        // what an option off that path is given
};

Option* Option::required() {
  if (option_ != nullptr) option_->required();
  return this;
}

Option* Option::type_name(const std::string& name) {
  if (option_ != nullptr) option_->type_name(name);
  return this;
}

Option* Option::capture_default_str() {
  if (option_ != nullptr) option_->capture_default_str();
  return this;
}

Option* Option::excludes(Option* other) {
  if (option_ != nullptr && other->option_ != nullptr) option_->excludes(other->option_);
  return this;
}

namespace {

// "abc is not a whole number", "0 is outside 1..65536", or "" for a value
// in the range (CLI11's own says "Value abc not in range").
std::string range_error(const std::string& value, double low, double high) {
  const bool whole = low == std::floor(low) && high == std::floor(high);
  const char* end = value.data() + value.size();
  if (whole) {
    long long n = 0;
    const auto [at, error] = std::from_chars(value.data(), end, n);
    if (error == std::errc::invalid_argument || at != end)
      return fmt::format("{} is not a whole number", value);
    if (error == std::errc() && double(n) >= low && double(n) <= high) return "";
  } else {
    char* at = nullptr;
    const double x = std::strtod(value.c_str(), &at);
    if (value.empty() || at != end || !std::isfinite(x))
      return fmt::format("{} is not a number", value);
    if (x >= low && x <= high) return "";
  }
  return fmt::format("{} is outside {}..{}", value, low, high);
}

}  // namespace

Option* Option::check(const Check& check) {
  if (option_ == nullptr) return this;
  // The help shows "--threads INT=2", not CLI11's "INT:INT in [1 - 65536]";
  // the option's description says what is allowed, and a bad value is told
  // why.
  if (check.kind == Check::Kind::Member) {
    option_->check(CLI::IsMember(check.members));
    return this;
  }
  option_->check(CLI::Validator([low = check.low, high = check.high](
                                    std::string& value) { return range_error(value, low, high); },
                                ""));
  return this;
}

Command::Command(CLI::App* app, Shared* shared, std::string name, std::string description,
                 std::size_t depth, bool with_options)
    : app_(app),
      shared_(shared),
      name_(std::move(name)),
      description_(std::move(description)),
      depth_(depth),
      with_options_(with_options) {}

Command::~Command() = default;

std::unique_ptr<Command> Command::program(const std::string& description) {
  auto shared = std::make_unique<Shared>();
  shared->app = std::make_unique<CLI::App>(description, "cubenum");
  shared->app->set_version_flag(
      "--version", [] { return report::version_line(); }, "print the version and the commit");
  std::unique_ptr<Command> root(
      new Command(shared->app.get(), shared.get(), "cubenum", description, 0, true));
  root->owned_ = std::move(shared);
  return root;
}

Command* Command::add_subcommand(const std::string& name, const std::string& description) {
  CLI::App* sub = app_->add_subcommand(name, description);
  const std::vector<std::string>& path = shared_->path;
  const bool with_options = with_options_ && (depth_ >= path.size() || path[depth_] == name);
  shared_->commands.push_back(std::unique_ptr<Command>(
      new Command(sub, shared_, name, description, depth_ + 1, with_options)));
  children_.push_back(shared_->commands.back().get());
  return children_.back();
}

void Command::options_only_along(std::vector<std::string> words) {
  shared_->path = std::move(words);
}

Option* Command::unbuilt_option() {
  return &shared_->unbuilt;
}

Command* Command::require_subcommand(int count) {
  app_->require_subcommand(count);
  return this;
}

template <class T>
Option* Command::add_option(const std::string& name, T& target, const std::string& description) {
  if (!with_options_) return unbuilt_option();
  shared_->options.emplace_back(app_->add_option(name, target, description));
  return &shared_->options.back();
}

// The value types options have; add one here for another.
template Option* Command::add_option(const std::string&, std::string&, const std::string&);
template Option* Command::add_option(const std::string&, std::optional<std::string>&,
                                     const std::string&);
template Option* Command::add_option(const std::string&, bool&, const std::string&);
template Option* Command::add_option(const std::string&, int&, const std::string&);
template Option* Command::add_option(const std::string&, unsigned&, const std::string&);
template Option* Command::add_option(const std::string&, std::size_t&, const std::string&);
template Option* Command::add_option(const std::string&, double&, const std::string&);
template Option* Command::add_option(const std::string&, std::optional<double>&,
                                     const std::string&);
template Option* Command::add_option(const std::string&, std::vector<std::string>&,
                                     const std::string&);
template Option* Command::add_option(const std::string&, std::vector<int>&, const std::string&);

Option* Command::add_flag(const std::string& name, bool& target, const std::string& description) {
  if (!with_options_) return unbuilt_option();
  shared_->options.emplace_back(app_->add_flag(name, target, description));
  return &shared_->options.back();
}

Command* Command::add_output(std::string flag, std::function<std::optional<std::string>()> path) {
  outputs_.push_back({std::move(flag), std::move(path)});
  return this;
}

Command* Command::footer(const std::string& text) {
  app_->footer(text);
  return this;
}

namespace {

class UsageFormatter : public CLI::Formatter {
 public:
  explicit UsageFormatter(std::string usage) : usage_(std::move(usage)) {}
  std::string make_usage(const CLI::App*, std::string) const override {
    return get_label("Usage") + ": " + usage_ + "\n";
  }

 private:
  std::string usage_;
};

}  // namespace

Command* Command::usage(const std::string& text) {
  app_->formatter(std::make_shared<UsageFormatter>(text));
  return this;
}

Command* Command::callback(std::function<void()> run) {
  app_->callback(std::move(run));
  return this;
}

Command* Command::prefix_command() {
  app_->prefix_command();
  return this;
}

std::vector<std::string> Command::remaining() const {
  return app_->remaining();
}

std::size_t Command::count(const std::string& name) const {
  const CLI::Option* option = app_->get_option_no_throw(name);
  return option != nullptr ? option->count() : 0;
}

std::vector<const Command*> Command::get_subcommands() const {
  return {children_.begin(), children_.end()};
}

const Command* Command::find_subcommand(const std::string& name) const {
  for (const Command* child : children_)
    if (child->get_name() == name) return child;
  return nullptr;
}

namespace {

// The command the leading words name (the program, a puzzle, or one of its
// actions), and the word after them where it names none of the command's
// subcommands though it has some (nullptr: none such).
struct NamedCommand {
  const Command* command;
  const std::string* unknown;
};
NamedCommand named_command(const Command& program, const std::vector<std::string>& words) {
  const Command* level = &program;
  for (const std::string& word : words) {
    if (word.empty() || word[0] == '-' || level->get_subcommands().empty()) break;
    const Command* next = level->find_subcommand(word);
    if (next == nullptr) return {level, &word};
    level = next;
  }
  return {level, nullptr};
}

// CLI11 calls an unknown subcommand an "unexpected argument"; say what it is.
// Returns an error message, or "" when the first words name a known command.
std::string check_command_words(const Command& program, const std::vector<std::string>& words) {
  const auto [level, unknown] = named_command(program, words);
  if (unknown == nullptr) return "";
  if (level == &program) return fmt::format("unknown puzzle or command '{}'", *unknown);
  return fmt::format("unknown action '{}' for {}", *unknown, level->get_name());
}

// Edits (insertions, deletions, substitutions, swaps of neighbours) from a to b.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string Command::suggestion(const std::vector<std::string>& words) const {
  const Command& command = *named_command(*this, words).command;
  std::vector<std::string> known;
  for (const CLI::Option* option : command.app_->get_options())
    for (const std::string& name : option->get_lnames()) known.push_back("--" + name);
  for (const std::string& word : words) {
    if (!word.starts_with("--")) continue;
    const std::string given = word.substr(0, word.find('='));
    if (std::find(known.begin(), known.end(), given) != known.end()) continue;
    std::string best;
    std::size_t best_distance = 3;  // at most two edits away
    for (const std::string& name : known)
      if (const std::size_t d = edit_distance(given, name); d < best_distance)
        best = name, best_distance = d;
    if (!best.empty()) return fmt::format(" (did you mean {} for {}?)", best, given);
  }
  return "";
}

std::string Command::actions_text(const std::vector<std::string>& words) const {
  const Command& command = *named_command(*this, words).command;
  if (&command == this || command.children_.empty()) return "";
  std::string text = fmt::format("{} needs an action:\n", command.get_name());
  for (const Command* action : command.children_)
    text += fmt::format("  {} {:<10} {}\n", command.get_name(), action->get_name(),
                        action->get_description());
  return text +
         fmt::format("Run 'cubenum {} ACTION --help' for an action's options.", command.get_name());
}

void Command::parse(const std::vector<std::string>& words) {
  if (const std::string problem = check_command_words(*this, words); !problem.empty())
    throw InputError(problem + " (see 'cubenum list')");
  std::vector<std::string> reversed(words.rbegin(), words.rend());  // CLI11 takes them backwards
  try {
    app_->parse(reversed);
  } catch (const CLI::ParseError& e) {
    throw InputError(fmt::format("'{}': {}", fmt::join(words, " "), e.what()));
  }
}

int Command::run_main(int argc, char** argv) {
  const std::vector<std::string> words(argv + 1, argv + argc);
  try {
    if (const std::string problem = check_command_words(*this, words); !problem.empty())
      throw InputError(problem + " (see 'cubenum list')");
    app_->parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version print and succeed; CLI11's own codes for a bad
    // command line (105, 106, 109...) become the program's one usage code.
    if (e.get_exit_code() == 0) {
      if (this_cluster().process() != 0) return kExitSuccess;  // the first process prints it
      return app_->exit(e) == 0 ? check_stdout() : kExitUsage;
    }
    // A puzzle without its action: its actions. An unknown option: the
    // nearest one the command has.
    if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) {
      if (const std::string actions = actions_text(words); !actions.empty())
        return say_error(kExitUsage, "error: " + actions);
    }
    const std::string hint =
        dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr ? suggestion(words) : "";
    return say_error(kExitUsage, fmt::format("error: {}{}\nRun with --help for more information.",
                                             e.what(), hint));
  } catch (const InputError& e) {
    return say_error(kExitUsage, fmt::format("error: {}", e.what()));
  } catch (const RunStopped& e) {
    return say_error(kExitStopped, e.what());
  } catch (const MemoryStop& e) {
    return say_error(kExitOutOfMemory, fmt::format("error: {}", e.what()));
  } catch (const std::bad_alloc&) {
    return say_error(kExitOutOfMemory, "error: out of memory");
  } catch (const std::system_error& e) {
    // Output that failed (fmt writing to a full standard output) or a
    // file system call refused: the system's reason.
    return say_error(kExitUsage, fmt::format("error: {}", e.what()));
  } catch (const std::exception& e) {
    return say_error(kExitInternal, fmt::format("internal error: {}", e.what()));
  }
  return check_stdout();
}

std::string Command::help() const {
  return app_->help();
}

}  // namespace cubenum::cli
