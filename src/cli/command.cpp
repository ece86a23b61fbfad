// The one file that includes CLI11 (command.hpp says why).
#include "command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdint>
#include <new>
#include <optional>

#include "cubenum/core/error.hpp"

namespace cubenum::cli {

struct Command::Shared {
  std::unique_ptr<CLI::App> app;
  std::deque<std::unique_ptr<Command>> commands;  // every subcommand's handle
  std::deque<Option> options;
};

Option* Option::required() {
  option_->required();
  return this;
}

Option* Option::type_name(const std::string& name) {
  option_->type_name(name);
  return this;
}

Option* Option::capture_default_str() {
  option_->capture_default_str();
  return this;
}

Option* Option::excludes(Option* other) {
  option_->excludes(other->option_);
  return this;
}

Option* Option::check(const Check& check) {
  // The help shows "--threads INT=2", not CLI11's "INT:INT in [1 - 65536]";
  // the option's description says what is allowed, and a bad value is told
  // the range.
  CLI::Validator validator =
      check.kind == Check::Kind::Member ? CLI::Validator(CLI::IsMember(check.members))
      : check.low == std::floor(check.low) && check.high == std::floor(check.high)
          ? CLI::Validator(
                CLI::Range(static_cast<long long>(check.low), static_cast<long long>(check.high)))
          : CLI::Validator(CLI::Range(check.low, check.high));
  if (check.kind == Check::Kind::Range) validator.description("");
  option_->check(validator);
  return this;
}

Command::Command(CLI::App* app, Shared* shared, std::string name, std::string description)
    : app_(app), shared_(shared), name_(std::move(name)), description_(std::move(description)) {}

Command::~Command() = default;

std::unique_ptr<Command> Command::program(const std::string& description) {
  auto shared = std::make_unique<Shared>();
  shared->app = std::make_unique<CLI::App>(description, "cubenum");
  std::unique_ptr<Command> root(
      new Command(shared->app.get(), shared.get(), "cubenum", description));
  root->owned_ = std::move(shared);
  return root;
}

Command* Command::add_subcommand(const std::string& name, const std::string& description) {
  CLI::App* sub = app_->add_subcommand(name, description);
  shared_->commands.push_back(
      std::unique_ptr<Command>(new Command(sub, shared_, name, description)));
  children_.push_back(shared_->commands.back().get());
  return children_.back();
}

Command* Command::require_subcommand(int count) {
  app_->require_subcommand(count);
  return this;
}

template <class T>
Option* Command::add_option(const std::string& name, T& target, const std::string& description) {
  shared_->options.emplace_back(app_->add_option(name, target, description));
  return &shared_->options.back();
}

// The value types options have; add one here for another.
template Option* Command::add_option(const std::string&, std::string&, const std::string&);
template Option* Command::add_option(const std::string&, std::optional<std::string>&,
                                     const std::string&);
template Option* Command::add_option(const std::string&, int&, const std::string&);
template Option* Command::add_option(const std::string&, unsigned&, const std::string&);
template Option* Command::add_option(const std::string&, std::size_t&, const std::string&);
template Option* Command::add_option(const std::string&, double&, const std::string&);
template Option* Command::add_option(const std::string&, std::optional<double>&, const std::string&);
template Option* Command::add_option(const std::string&, std::vector<std::string>&,
                                     const std::string&);
template Option* Command::add_option(const std::string&, std::vector<int>&, const std::string&);

Option* Command::add_flag(const std::string& name, bool& target, const std::string& description) {
  shared_->options.emplace_back(app_->add_flag(name, target, description));
  return &shared_->options.back();
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
  return app_->count(name);
}

std::vector<const Command*> Command::get_subcommands() const {
  return {children_.begin(), children_.end()};
}

const Command* Command::find_subcommand(const std::string& name) const {
  for (const Command* child : children_)
    if (child->get_name() == name) return child;
  return nullptr;
}

void Command::parse(const std::vector<std::string>& words) {
  std::vector<std::string> reversed(words.rbegin(), words.rend());  // CLI11 takes them backwards
  try {
    app_->parse(reversed);
  } catch (const CLI::ParseError& e) {
    throw InputError(fmt::format("'{}': {}", fmt::join(words, " "), e.what()));
  }
}

namespace {

// CLI11 calls an unknown subcommand an "unexpected argument"; say what it is.
// Returns an error message, or "" when the first words name a known command.
std::string check_command_words(const Command& program, int argc, char** argv) {
  const Command* level = &program;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') return "";
    if (level->get_subcommands().empty()) return "";
    const Command* next = level->find_subcommand(word);
    if (next == nullptr) {
      if (level == &program) return fmt::format("unknown puzzle or command '{}'", word);
      return fmt::format("unknown action '{}' for {}", word, level->get_name());
    }
    level = next;
  }
  return "";
}

}  // namespace

int Command::run_main(int argc, char** argv) {
  if (const std::string problem = check_command_words(*this, argc, argv); !problem.empty()) {
    fmt::print(stderr, "cubenum: error: {} (see 'cubenum list')\n", problem);
    return 2;
  }
  try {
    app_->parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app_->exit(e);
  } catch (const InputError& e) {
    fmt::print(stderr, "cubenum: error: {}\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "cubenum: error: out of memory\n");
    return 3;
  } catch (const std::exception& e) {
    fmt::print(stderr, "cubenum: internal error: {}\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace cubenum::cli
