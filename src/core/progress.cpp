#include "cubenum/core/progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <streambuf>
#include <thread>
#include <vector>

namespace cubenum {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kTerminalPeriod = std::chrono::milliseconds(250);
constexpr auto kLogPeriod = std::chrono::seconds(1);
// The drawing thread woken this much later than asked: a pause, not load.
constexpr double kPauseSeconds = 2;

// Tasks shorter than this never show: half a second, or the seconds in
// CUBENUM_PROGRESS_DELAY (the tests set 0).
double first_draw_seconds() {
  static const double delay = [] {
    const char* text = std::getenv("CUBENUM_PROGRESS_DELAY");
    char* end = nullptr;
    const double value = text != nullptr ? std::strtod(text, &end) : 0.5;
    return text != nullptr && end != text && value >= 0 ? value : 0.5;
  }();
  return delay;
}

bool stderr_is_terminal() {
  static const bool terminal = isatty(STDERR_FILENO) != 0;
  return terminal;
}

std::size_t terminal_columns() {
  winsize size{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

// The one drawing thread and the tasks it shows. Tasks are made and ended
// on one thread (the action's); their counters move on any.
class Drawer {
 public:
  static Drawer& get() {
    static Drawer drawer;
    return drawer;
  }

  std::mutex mutex;

  ~Drawer() {
    {
      std::lock_guard lock(mutex);
      stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  void set_mode(progress::Mode mode) {
    std::lock_guard lock(mutex);
    mode_ = mode;
  }
  bool enabled() const {
    return mode_ == progress::Mode::Always ||
           (mode_ == progress::Mode::Auto && stderr_is_terminal());
  }

  void add(Progress* task) {
    std::lock_guard lock(mutex);
    tasks_.push_back(task);
    if (enabled() && !thread_.joinable()) {
      stop_ = false;
      thread_ = std::thread([this] { run(); });
    }
  }

  void remove(const Progress* task) {
    std::unique_lock lock(mutex);
    if (enabled() && !stderr_is_terminal() && shown_in_log(*task))
      std::fprintf(stderr, "%s: done\n", task->text().c_str());
    tasks_.erase(std::remove(tasks_.begin(), tasks_.end(), task), tasks_.end());
    erase_locked();
    if (!tasks_.empty() || !thread_.joinable()) return;
    stop_ = true;
    wake_.notify_all();
    std::thread finished = std::move(thread_);
    lock.unlock();
    finished.join();
  }

  // With the lock held.
  void erase_locked() {
    if (!shown_.load(std::memory_order_relaxed)) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    shown_.store(false, std::memory_order_relaxed);
  }
  bool shown() const { return shown_.load(std::memory_order_relaxed); }

 private:
  // A task old enough to be drawn, in the log's style too.
  static bool shown_in_log(const Progress& task) { return task.seconds() >= first_draw_seconds(); }

  void run() {
    std::unique_lock lock(mutex);
    const bool terminal = stderr_is_terminal();
    const Clock::duration period = terminal ? Clock::duration(kTerminalPeriod) : kLogPeriod;
    for (auto woke = Clock::now(); !stop_;) {
      wake_.wait_for(lock, period);
      // Woken far past its time: the process was stopped (Ctrl-Z, SIGSTOP)
      // or the machine asleep; the tasks' time leaves that pause out.
      const auto now = Clock::now();
      const double late = std::chrono::duration<double>(now - woke - period).count();
      if (late > kPauseSeconds)
        for (Progress* task : tasks_) task->add_pause(late);
      woke = now;
      if (!stop_) draw_locked(terminal);
    }
  }

  void draw_locked(bool terminal) {
    std::string line;
    for (const Progress* task : tasks_) {
      if (!shown_in_log(*task)) continue;
      if (!line.empty()) line += " | ";
      line += task->text();
    }
    if (line.empty()) return;
    std::fflush(stdout);  // what the action printed goes before the line
    if (!terminal) {
      std::fprintf(stderr, "%s\n", line.c_str());
      return;
    }
    const std::size_t width = terminal_columns() - 1;  // no wrapping: \r must reach its start
    if (line.size() > width) line.resize(width);
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
    shown_.store(true, std::memory_order_relaxed);
  }

  progress::Mode mode_ = progress::Mode::Auto;
  std::vector<Progress*> tasks_;
  std::thread thread_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::atomic<bool> shown_{false};  // a line is on the terminal now
};

std::atomic<bool> verbose_on{false};

// Standard output's buffer, erasing the progress line before each write.
class GuardedBuffer : public std::streambuf {
 public:
  explicit GuardedBuffer(std::streambuf* target) : target_(target) {}

 protected:
  int_type overflow(int_type c) override {
    progress::clear_line();
    return traits_type::eq_int_type(c, traits_type::eof())
               ? traits_type::not_eof(c)
               : target_->sputc(traits_type::to_char_type(c));
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    progress::clear_line();
    return target_->sputn(s, n);
  }
  int sync() override { return target_->pubsync(); }

 private:
  std::streambuf* target_;
};

}  // namespace

namespace progress {

void set_mode(Mode mode) {
  Drawer::get().set_mode(mode);
}

void set_verbose(bool on) {
  verbose_on.store(on);
}

bool verbose() {
  return verbose_on.load(std::memory_order_relaxed);
}

void note_line(std::string_view text) {
  Drawer& drawer = Drawer::get();
  std::lock_guard lock(drawer.mutex);
  drawer.erase_locked();
  std::fflush(stdout);
  fmt::print(stderr, "{}\n", text);
  std::fflush(stderr);
}

void clear_line() {
  Drawer& drawer = Drawer::get();
  if (!drawer.shown()) return;
  std::lock_guard lock(drawer.mutex);
  drawer.erase_locked();
}

std::ostream& guarded_stdout() {
  static GuardedBuffer buffer(std::cout.rdbuf());
  static std::ostream stream(&buffer);
  return stream;
}

std::string bytes_text(double bytes) {
  if (bytes >= 0x1p40) return fmt::format("{:.2f} TiB", bytes / 0x1p40);
  if (bytes >= 0x1p30) return fmt::format("{:.2f} GiB", bytes / 0x1p30);
  if (bytes >= 0x1p20) return fmt::format("{:.1f} MiB", bytes / 0x1p20);
  return fmt::format("{:.0f} KiB", std::ceil(bytes / 0x1p10));
}

std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string duration(double seconds) {
  if (seconds < 10) return fmt::format("{:.1f} s", seconds);
  if (seconds < 60) return fmt::format("{:.0f} s", seconds);
  const auto s = static_cast<std::uint64_t>(seconds + 0.5);
  if (s < 3600) return fmt::format("{} min {:02} s", s / 60, s % 60);
  return fmt::format("{} h {:02} min", s / 3600, s / 60 % 60);
}

}  // namespace progress

namespace {

std::string rate_text(double per_second) {
  if (per_second < 1e3) return fmt::format("{:.0f}", per_second);
  if (per_second < 1e6) return fmt::format("{:.1f} k", per_second / 1e3);
  if (per_second < 1e9) return fmt::format("{:.1f} M", per_second / 1e6);
  return fmt::format("{:.2f} G", per_second / 1e9);
}

}  // namespace

Progress::Progress(std::string what, std::uint64_t total, std::string unit)
    : what_(std::move(what)), unit_(std::move(unit)), total_(total), start_(Clock::now()) {
  Drawer::get().add(this);
}

Progress::~Progress() {
  Drawer::get().remove(this);
}

void Progress::set_detail(std::string detail) {
  std::lock_guard lock(Drawer::get().mutex);
  detail_ = std::move(detail);
}

double Progress::seconds() const {
  return std::max(std::chrono::duration<double>(Clock::now() - start_).count() -
                      paused_.load(std::memory_order_relaxed),
                  0.0);
}

void Progress::add_pause(double seconds) {
  // (An atomic add of a double: a compare-exchange loop.)
  double paused = paused_.load(std::memory_order_relaxed);
  while (!paused_.compare_exchange_weak(paused, paused + seconds, std::memory_order_relaxed)) {
  }
}

std::string Progress::text() const {
  const std::uint64_t done = done_.load(std::memory_order_relaxed);
  const std::uint64_t total = total_.load(std::memory_order_relaxed);
  const double elapsed = seconds();
  const std::string unit = unit_.empty() ? "" : " " + unit_;
  std::string s = what_;
  if (total > 0) {
    s += fmt::format(": {}/{}{} ({:.0f}%)", progress::grouped(done), progress::grouped(total), unit,
                     100.0 * static_cast<double>(done) / static_cast<double>(total));
  } else if (done > 0) {
    s += fmt::format(": {}{}", progress::grouped(done), unit);
  }
  const std::uint64_t done_here = done_this_run();
  if (done_here > 0 && elapsed > 0)
    s += fmt::format(", {}/s", rate_text(static_cast<double>(done_here) / elapsed));
  s += ", " + progress::duration(elapsed);
  const double left = seconds_left();
  if (left >= 0) s += ", about " + progress::duration(left) + " left";
  if (!detail_.empty()) s += ", " + detail_;
  return s;
}

void Progress::set_fraction(double fraction) {
  double unset = -1;
  if (fraction_before_.compare_exchange_strong(unset, fraction, std::memory_order_relaxed))
    fraction_since_.store(seconds(), std::memory_order_relaxed);
  fraction_.store(fraction, std::memory_order_relaxed);
}

double Progress::seconds_measured() const {
  return std::max(seconds() - fraction_since_.load(std::memory_order_relaxed), 0.0);
}

double Progress::seconds_left() const {
  const double elapsed = seconds_measured();
  const double fraction = fraction_.load(std::memory_order_relaxed);
  if (fraction >= 0) {
    const double gained = fraction - fraction_before_.load(std::memory_order_relaxed);
    return fraction < 1 && gained > 0 ? elapsed * (1 - fraction) / gained : -1;
  }
  const std::uint64_t done = done_.load(std::memory_order_relaxed);
  const std::uint64_t total = total_.load(std::memory_order_relaxed);
  const std::uint64_t done_here = done_this_run();
  if (!estimate_.load(std::memory_order_relaxed) || done_here == 0 || done >= total) return -1;
  return elapsed * static_cast<double>(total - done) / static_cast<double>(done_here);
}

std::uint64_t Progress::done_this_run() const {
  const std::uint64_t done = done_.load(std::memory_order_relaxed);
  return done - std::min(done_before_.load(std::memory_order_relaxed), done);
}

}  // namespace cubenum
