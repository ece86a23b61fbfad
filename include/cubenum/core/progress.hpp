#pragma once
// A progress line on standard error for long runs: shown only when standard
// error is a terminal, redrawn at most a few times a second, erased at the
// end. Safe to call from any thread.
#include <atomic>
#include <chrono>
#include <string>

namespace cubenum {

class ProgressLine {
 public:
  ProgressLine();
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool enabled() const { return enabled_; }
  // Shows `text` unless a line was shown less than 0.2 s ago (or `force`).
  void show(const std::string& text, bool force = false);

 private:
  bool enabled_;
  std::atomic<std::int64_t> last_ns_{0};
  std::atomic<bool> shown_{false};
};

}  // namespace cubenum
