#pragma once
// Files for tests that write and read their own inputs and outputs (the
// hardening and checkpoint cases): a fresh folder per test, whole-file
// reads and writes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace cubenum::testing {

// The folders scratch() made in this process, removed as it ends where
// every test it ran passed (a failing test's files stay, to be looked at).
class ScratchFolders {
 public:
  ScratchFolders() = default;
  ScratchFolders(const ScratchFolders&) = delete;
  ScratchFolders& operator=(const ScratchFolders&) = delete;
  ~ScratchFolders() {
    if (!::testing::UnitTest::GetInstance()->Passed()) return;
    for (const std::filesystem::path& dir : made_) {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  }
  void add(const std::filesystem::path& dir) { made_.push_back(dir); }

 private:
  std::vector<std::filesystem::path> made_;
};

inline ScratchFolders& scratch_folders() {
  static ScratchFolders folders;
  return folders;
}

// A fresh, empty folder for one test's files, apart for each process: ctest
// runs every test in a process of its own, several at once, and tests of
// one program (or of two) that share a name would empty each other's.
inline std::filesystem::path scratch(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) /
      ("cubenum-hardening-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  scratch_folders().add(dir);
  return dir;
}

inline std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace cubenum::testing
