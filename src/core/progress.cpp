#include "cubenum/core/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace cubenum {
namespace {
std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

ProgressLine::ProgressLine() : enabled_(isatty(STDERR_FILENO) != 0) {}

ProgressLine::~ProgressLine() {
  if (shown_.load()) std::fputs("\r\033[K", stderr);
}

void ProgressLine::show(const std::string& text, bool force) {
  if (!enabled_) return;
  const std::int64_t now = now_ns();
  std::int64_t last = last_ns_.load(std::memory_order_relaxed);
  if (!force && now - last < 200'000'000) return;
  if (!last_ns_.compare_exchange_strong(last, now) && !force) return;
  std::fprintf(stderr, "\r\033[K%s", text.c_str());
  std::fflush(stderr);
  shown_.store(true);
}

}  // namespace cubenum
