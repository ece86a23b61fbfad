// Every example in README.md is run, and its output must be what the README
// shows, so the README stays true. An example is a ```console block of
// "$ cubenum ..." lines, each followed by its output. Times differ from run
// to run: numbers followed by a unit of time ("0.12 s", "15 ms") and JSON
// "seconds" fields compare as equal whatever their value. Trailing spaces
// count: the output has none.
#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Example {
  std::string command;  // after "$ "
  std::string expected;
};

std::vector<Example> readme_examples() {
  std::ifstream in(CUBENUM_SOURCE_DIR "/README.md");
  std::vector<Example> examples;
  bool in_console = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("```", 0) == 0) {
      in_console = !in_console && line == "```console";
      continue;
    }
    if (!in_console) continue;
    if (line.rfind("$ ", 0) == 0)
      examples.push_back({line.substr(2), ""});
    else if (!examples.empty())
      examples.back().expected += line + "\n";
  }
  return examples;
}

bool is_word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// If a time starts at text[i] (spaces, a number, maybe one space, a unit of
// s, ms or us ending a word), where it ends; else 0. By hand: <regex> took
// five seconds to compile.
std::size_t end_of_time(const std::string& text, std::size_t i) {
  const auto digit = [&](std::size_t k) {
    return k < text.size() && std::isdigit(static_cast<unsigned char>(text[k])) != 0;
  };
  std::size_t k = i;
  while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
  if (!digit(k)) return 0;
  while (digit(k)) ++k;
  if (k < text.size() && text[k] == '.' && digit(k + 1))
    for (++k; digit(k);) ++k;
  if (k < text.size() && std::isspace(static_cast<unsigned char>(text[k])) != 0) ++k;
  for (const std::string unit : {"ms", "us", "s"})
    if (text.compare(k, unit.size(), unit) == 0 &&
        (k + unit.size() == text.size() || !is_word(text[k + unit.size()])))
      return k + unit.size();
  return 0;
}

std::string without_times(const std::string& text) {
  const std::string seconds = "\"seconds\": ";
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (text.compare(i, seconds.size(), seconds) == 0) {
      std::size_t k = i + seconds.size();
      while (k < text.size() && (std::isdigit(static_cast<unsigned char>(text[k])) != 0 ||
                                 std::string_view(".e+-").find(text[k]) != std::string_view::npos))
        ++k;
      out += seconds + "<time>";
      i = k;
    } else if (const std::size_t end = end_of_time(text, i); end != 0) {
      out += " <time>";
      i = end;
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::string run_in_source_dir(const std::string& command) {
  const std::string shell =
      "cd '" CUBENUM_SOURCE_DIR "' && PATH='" +
      std::string(CUBENUM_BINARY).substr(0, std::string(CUBENUM_BINARY).rfind('/')) +
      "':\"$PATH\" " + command + " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(shell.c_str(), "r"), pclose);
  std::string output;
  std::array<char, 4096> buffer{};
  while (fgets(buffer.data(), buffer.size(), pipe.get()) != nullptr) output += buffer.data();
  return output;
}

TEST(Readme, EveryExampleGivesTheOutputShown) {
  const auto examples = readme_examples();
  ASSERT_FALSE(examples.empty()) << "README.md has no ```console examples";
  for (const Example& e : examples) {
    ASSERT_EQ(e.command.rfind("cubenum ", 0), 0U) << "examples run cubenum: " << e.command;
    EXPECT_EQ(without_times(run_in_source_dir(e.command)), without_times(e.expected))
        << "README example: $ " << e.command;
  }
}

}  // namespace
