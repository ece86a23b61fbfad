#pragma once
// The command line's words: a Command is the program, a puzzle or one of its
// actions; an Option is one of a command's options. They keep CLI11's names
// (add_subcommand, add_option, capture_default_str, ...) so code reads like
// CLI11's, but only command.cpp includes CLI11: its header is ten seconds of
// compile time in every file that includes it (it defines validators at
// namespace scope), and the puzzles' command files need none of it.
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace cubenum::cli {

// The program's exit status (README, "Exit status").
inline constexpr int kExitSuccess = 0;
inline constexpr int kExitInternal = 1;     // a bug: an internal error
inline constexpr int kExitUsage = 2;        // bad usage or input, or an output not written
inline constexpr int kExitOutOfMemory = 3;  // the job needs more memory than there is
inline constexpr int kExitStopped = 4;      // stopped (--time-limit, Ctrl-C) with a checkpoint
// Interrupted (Ctrl-C): the signal's status, 130 in the shell; outputs are
// left as they were.

// What an option's value must be: Range(1, 64) or IsMember({"a", "b"}).
struct Check {
  enum class Kind { Range, Member } kind = Kind::Range;
  double low = 0, high = 0;
  std::vector<std::string> members;
};
inline Check Range(double low, double high) {
  return {Check::Kind::Range, low, high, {}};
}
inline Check IsMember(std::vector<std::string> members) {
  return {Check::Kind::Member, 0, 0, std::move(members)};
}

class Option {
 public:
  // nullptr: an option that is not built (Command::options_only_along);
  // every method does nothing.
  explicit Option(CLI::Option* option) : option_(option) {}
  Option* required();
  Option* type_name(const std::string& name);  // shown in --help: --out DIR
  Option* capture_default_str();               // --help shows the default value
  Option* excludes(Option* other);
  Option* check(const Check& check);

 private:
  CLI::Option* option_;
};

class Command {
 public:
  // The program itself; `description` heads its --help.
  static std::unique_ptr<Command> program(const std::string& description);
  ~Command();
  Command(const Command&) = delete;
  Command& operator=(const Command&) = delete;

  Command* add_subcommand(const std::string& name, const std::string& description);
  Command* require_subcommand(int count = 1);
  // For a command line that names one puzzle and one action (`words`, from
  // the program down): the options of the commands added after this call
  // are built only on that path. Every other command is still added, with
  // its name, description and callback, so that the command line is read as
  // before (an unknown or misplaced action is told the same), but its
  // add_option and add_flag build nothing: the command line cannot give
  // them (the other actions' options would be a sizeable share of a small
  // run's start).
  void options_only_along(std::vector<std::string> words);
  // Options. The value is written into `target` when the command line is
  // parsed; T is one of the types instantiated in command.cpp (std::string,
  // std::optional<std::string>, int, unsigned, std::size_t, double,
  // std::vector<std::string>); add a line there for another.
  template <class T>
  Option* add_option(const std::string& name, T& target, const std::string& description = "");
  Option* add_flag(const std::string& name, bool& target, const std::string& description);
  // An option that names a file the command writes (--json, --svg, --table):
  // `path` gives its value when the command runs (nullopt: nothing written
  // this time, as an existing --table that is read). add_action checks every
  // output given before the work (check_outputs in action.hpp).
  struct Output {
    std::string flag;
    std::function<std::optional<std::string>()> path;
  };
  Command* add_output(std::string flag, std::function<std::optional<std::string>()> path);
  const std::vector<Output>& outputs() const { return outputs_; }
  // Text after the options in --help.
  Command* footer(const std::string& text);
  // The usage line of --help, after "Usage: " (default: CLI11's).
  Command* usage(const std::string& text);
  // Runs when this command is the one given, after its options are read.
  Command* callback(std::function<void()> run);
  // Everything after the first word that is not one of this command's own
  // options is left unparsed, for remaining() (`cubenum scale` runs a job).
  Command* prefix_command();
  std::vector<std::string> remaining() const;
  // How many times the option was given (0 for an option the command lacks).
  std::size_t count(const std::string& name) const;

  const std::string& get_name() const { return name_; }
  const std::string& get_description() const { return description_; }
  std::vector<const Command*> get_subcommands() const;
  const Command* find_subcommand(const std::string& name) const;

  // Parses the words (without the program's name) and runs the callback of
  // the command they name. Throws InputError on a bad command line.
  void parse(const std::vector<std::string>& words);
  // For main(): parses argv and runs; prints help, errors and exits as a
  // program does, and returns the exit status.
  int run_main(int argc, char** argv);
  // The --help text.
  std::string help() const;

 private:
  // For an error on the command line `words`: " (did you mean --metric for
  // --metirc?)" for an option the named command lacks but has one like, or
  // "". And where the words name a puzzle but no action, its actions, a line
  // each (else "").
  std::string suggestion(const std::vector<std::string>& words) const;
  std::string actions_text(const std::vector<std::string>& words) const;
  struct Shared;
  Command(CLI::App* app, Shared* shared, std::string name, std::string description,
          std::size_t depth, bool with_options);
  Option* unbuilt_option();

  CLI::App* app_;
  Shared* shared_;                 // every handle of the program
  std::unique_ptr<Shared> owned_;  // the program's own: its CLI11 app and handles
  std::string name_, description_;
  std::vector<Command*> children_;
  std::vector<Output> outputs_;
  std::size_t depth_;  // 0: the program, 1: a puzzle, 2: an action
  bool with_options_;  // false: off options_only_along's path
};

}  // namespace cubenum::cli
