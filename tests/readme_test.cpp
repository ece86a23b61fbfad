// Every example in README.md is run, and its output must be what the README
// shows, so the README stays true. An example is a ```console block of
// "$ cubenum ..." lines, each followed by its output. Times differ from run
// to run: numbers followed by a unit of time ("0.12 s", "15 ms") and JSON
// "seconds" fields compare as equal whatever their value. Trailing spaces
// count: the output has none.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Example {
  std::string command;  // after "$ "
  std::string expected;
};

std::vector<Example> readme_examples() {
  std::ifstream in(std::string(CUBENUM_SOURCE_DIR) + "/README.md");
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

std::string without_times(const std::string& text) {
  static const std::regex time(R"([ \t]*\d+(\.\d+)?\s?(s|ms|us)\b)");
  static const std::regex json_seconds(R"("seconds": [0-9.e+-]+)");
  const std::string s = std::regex_replace(text, time, " <time>");
  return std::regex_replace(s, json_seconds, "\"seconds\": <time>");
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
