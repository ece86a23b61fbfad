#pragma once
// Progress lines and verbose notes on standard error, for everything long.
//
// A Progress is one task: what it is and how much of how much is done.
// While tasks run, one line on standard error shows them, outermost first:
//
//   pocket-cube export: edges 1,204,224/3,674,160 positions (33%), 1.9 M/s, 2 s, about 1 s left
//
// redrawn in place four times a second by a drawing thread, so the workers
// only add to an atomic counter. A task shows from half a second on (short
// ones never flash; CUBENUM_PROGRESS_DELAY=SECONDS changes that, for the
// tests), and its line is erased when it ends. The line is drawn
// when standard error is a terminal; `--progress` draws it anyway (then one
// line a second, for logs). Debian packages no C++ progress-bar library,
// hence this one, over fmt.
//
// note() prints a line that stays, with `--verbose` only; output written to
// standard output through guarded_stdout() erases the progress line first.
#include <fmt/core.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace cubenum {

namespace progress {

enum class Mode { Auto, Always, Never };  // Auto: when standard error is a terminal
void set_mode(Mode mode);
void set_verbose(bool on);
bool verbose();

// Prints `text` as a line of its own on standard error (erasing and later
// redrawing the progress line).
void note_line(std::string_view text);
// A line of its own on standard error, with --verbose only.
template <class... Args>
void note(fmt::format_string<Args...> format, Args&&... args) {
  if (verbose()) note_line(fmt::format(format, std::forward<Args>(args)...));
}

// Erases the progress line if it is shown; it comes back at the next draw.
void clear_line();
// Standard output, through a buffer that erases the progress line before
// anything is written.
std::ostream& guarded_stdout();

// 1234567 -> "1,234,567".
std::string grouped(std::uint64_t n);
// Seconds as "0.4 s", "12 s", "3 min 05 s", "1 h 02 min".
std::string duration(double seconds);
// Bytes as "3 KiB", "12.0 MiB", "1.50 GiB", "4.76 TiB".
std::string bytes_text(double bytes);

}  // namespace progress

class Progress {
 public:
  // `what` names the task ("pocket-cube export"); `total` is how much there
  // is to do (0: not known), counted in `unit` ("positions").
  explicit Progress(std::string what, std::uint64_t total = 0, std::string unit = {});
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Any thread, any time.
  void add(std::uint64_t amount) { done_.fetch_add(amount, std::memory_order_relaxed); }
  void set_done(std::uint64_t done) { done_.store(done, std::memory_order_relaxed); }
  void set_total(std::uint64_t total) { total_.store(total, std::memory_order_relaxed); }
  // A few words shown after the counts ("level 7"); the time left is
  // estimated only when `estimate` (the work left is like the work done).
  void set_detail(std::string detail);
  void set_estimate(bool estimate) { estimate_.store(estimate, std::memory_order_relaxed); }
  // The share of the work done, when it is not done / total (subtrees of
  // unequal sizes): the time left is then estimated from it. The first share
  // given is taken as done before this run (a count resumed from a
  // checkpoint), as is `set_done_before`: the time left comes from what
  // this run has done in its time, not from the whole. Its time starts at
  // the first share given (the work's start: not what came before it, such
  // as estimating the work, which would make the first estimates far too
  // long).
  void set_fraction(double fraction);
  void set_done_before(std::uint64_t done) { done_before_.store(done, std::memory_order_relaxed); }
  // The time left, or < 0 while there is no estimate.
  double seconds_left() const;
  // The time the estimate comes from: since the first share given, if any.
  double seconds_measured() const;
  std::uint64_t done() const { return done_.load(std::memory_order_relaxed); }
  // The seconds since the task began, less its pauses.
  double seconds() const;
  // The process did not run for `seconds` (stopped, or the machine asleep;
  // seen by the drawing thread): the task's time, and so the rate and the
  // time left, leave it out.
  void add_pause(double seconds);

  // The task's part of the line.
  std::string text() const;

 private:
  std::uint64_t done_this_run() const;  // done less done before this run

  std::string what_, unit_, detail_;  // detail_ under the drawer's lock
  std::atomic<std::uint64_t> done_{0}, total_{0}, done_before_{0};
  std::atomic<bool> estimate_{true};
  std::atomic<double> fraction_{-1};         // < 0: done / total
  std::atomic<double> fraction_before_{-1};  // the first fraction given
  std::atomic<double> fraction_since_{0};    // seconds() when it was given
  std::atomic<double> paused_{0};
  std::chrono::steady_clock::time_point start_;
};

}  // namespace cubenum
