#pragma once
// The one seam between cubenum's parallel code and the thread scheduler.
//
// Normally the work runs on oneTBB. In a ThreadSanitizer build
// (CUBENUM_SANITIZE=thread) it runs on plain std::threads instead: Debian's
// oneTBB is not instrumented, so TSan cannot see the happens-before edges of
// its task queues and reports every task hand-over as a race. With plain
// threads every edge is visible, and what TSan checks is cubenum's own
// lock-free code. Both backends honour tbb::global_control's thread limit.
#include <sched.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <vector>

#ifdef CUBENUM_PLAIN_THREADS
#include <thread>
#else
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_sort.h>
#endif

namespace cubenum {

// The CPUs this process may run on: oneTBB's default thread count and its
// arena's slots, found without oneTBB (whose topology probe loads libraries
// and costs as much as a small puzzle's whole run).
inline int machine_threads() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 ? std::max(CPU_COUNT(&set), 1) : 1;
}

namespace detail {
// Called when a loop needs oneTBB's scheduler, after starting it
// (SpreadWorkers registers there: registering starts the scheduler).
inline std::atomic<void (*)()> before_scheduler{nullptr};
// How many OneThread scopes are open.
inline std::atomic<int> one_thread_scopes{0};
}  // namespace detail

// While one exists, every loop of this seam runs on the calling thread, as
// under tbb::global_control(max_allowed_parallelism, 1), without asking
// oneTBB: creating a control allocates through oneTBB's allocator, which
// loads libtbbmalloc and reads /proc and /sys (a sizeable share of a small
// puzzle's whole run on one thread). `--threads 1`.
class OneThread {
 public:
  OneThread() { detail::one_thread_scopes.fetch_add(1, std::memory_order_relaxed); }
  ~OneThread() { detail::one_thread_scopes.fetch_sub(1, std::memory_order_relaxed); }
  OneThread(const OneThread&) = delete;
  OneThread& operator=(const OneThread&) = delete;
};

inline bool one_thread() {
  return detail::one_thread_scopes.load(std::memory_order_relaxed) > 0;
}

// While one exists, the parallel loops of this seam use at most `threads`
// workers (the --threads limit); of several, the least holds.
class ThreadLimit {
 public:
  explicit ThreadLimit(int threads)
      : control_(tbb::global_control::max_allowed_parallelism,
                 static_cast<std::size_t>(std::max(threads, 1))) {}

 private:
  tbb::global_control control_;
};

// Threads a parallel loop may use now (the --threads limit).
inline int worker_limit() {
  if (one_thread()) return 1;
  return static_cast<int>(
      tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
}

#ifdef CUBENUM_PLAIN_THREADS
namespace detail {
inline thread_local int plain_worker_index = 0;
inline thread_local bool inside_plain_loop = false;
}  // namespace detail

inline int worker_slots() {
  return std::max(worker_limit(), 1);
}
inline int worker_index() {
  return detail::plain_worker_index;
}
inline void start_scheduler() {}
inline void finish_scheduler() {}

// Calls body(begin, end) on chunks of [0, n) of at most `grain` items.
template <class Body>
void parallel_for_chunks(std::size_t n, std::size_t grain, Body&& body) {
  grain = std::max<std::size_t>(grain, 1);
  const int threads = worker_slots();
  if (detail::inside_plain_loop || threads == 1 || n <= grain) {
    for (std::size_t b = 0; b < n; b += grain) body(b, std::min(n, b + grain));
    return;
  }
  std::atomic<std::size_t> next{0};
  auto work = [&](int index) {
    detail::plain_worker_index = index;
    detail::inside_plain_loop = true;
    for (std::size_t b; (b = next.fetch_add(grain)) < n;) body(b, std::min(n, b + grain));
    detail::inside_plain_loop = false;
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& thread : pool) thread.join();
}
#else
inline int worker_slots() {
  return machine_threads();  // = tbb::this_task_arena::max_concurrency() (tests/hardening_test.cpp)
}
inline int worker_index() {
  return std::max(tbb::this_task_arena::current_thread_index(), 0);
}

// oneTBB's scheduler is started by the first loop that needs it, not
// before: starting it (loading its allocator, threads, a topology probe)
// costs most of a small puzzle's run, and a run whose loops all fit one
// chunk never needs it.
namespace detail {
inline std::once_flag scheduler_once;
inline std::optional<tbb::task_scheduler_handle> scheduler;
}  // namespace detail

inline void start_scheduler() {
  std::call_once(detail::scheduler_once, [] { detail::scheduler.emplace(tbb::attach{}); });
  if (auto hook = detail::before_scheduler.load(std::memory_order_acquire)) hook();
}

// At exit. Under AddressSanitizer: waits for the workers, if there are
// any, so that the scheduler is shut down with what it frees only once no
// worker refers to it (which LeakSanitizer otherwise reports). Elsewhere
// the process ends with them: on a machine whose cores are busy with other
// work, waiting for each worker to be scheduled again can make a small
// run several times longer (on an idle machine it costs nothing).
inline void finish_scheduler() {
#if defined(__SANITIZE_ADDRESS__)
  if (detail::scheduler) tbb::finalize(*detail::scheduler, std::nothrow);
#else
  if (detail::scheduler) detail::scheduler->release();
#endif
}

// Calls body(begin, end) on chunks of [0, n) of at most `grain` items. The
// simple partitioner makes every chunk a task of its own: search subtrees
// differ wildly in size, and the auto partitioner's larger pieces left most
// of a big search on one thread.
template <class Body>
void parallel_for_chunks(std::size_t n, std::size_t grain, Body&& body) {
  if (n <= grain) {  // one chunk: no scheduler (whose first use starts its threads)
    if (n != 0) body(0, n);
    return;
  }
  grain = std::max<std::size_t>(grain, 1);
  if (one_thread()) {
    for (std::size_t b = 0; b < n; b += grain) body(b, std::min(n, b + grain));
    return;
  }
  start_scheduler();
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, n, grain),
      [&](const tbb::blocked_range<std::size_t>& r) { body(r.begin(), r.end()); },
      tbb::simple_partitioner());
}
#endif

// One accumulator per worker, each on its own cache lines; combined by the
// caller after the loop, so totals never depend on scheduling.
template <class Local>
class PerWorker {
 public:
  PerWorker() : slots_(static_cast<std::size_t>(worker_slots())) {}
  Local& local() {
    const auto index = static_cast<std::size_t>(worker_index());
    if (index >= slots_.size()) throw std::logic_error("PerWorker: more workers than slots");
    return slots_[index].value;
  }
  template <class F>
  void for_each(F&& f) {
    for (auto& slot : slots_) f(slot.value);
  }

 private:
  struct alignas(64) Slot {  // a cache line each: no false sharing
    Local value{};
  };
  std::vector<Slot> slots_;
};

// Runs f and g, at once where a second worker is free (f first on one
// thread); an exception from either is rethrown once both have ended.
template <class F, class G>
void parallel_invoke(F&& f, G&& g) {
  std::exception_ptr failure[2];
  parallel_for_chunks(2, 1, [&](std::size_t job, std::size_t) {
    try {
      if (job == 0)
        f();
      else
        g();
    } catch (...) {  // a plain thread must not throw
      failure[job] = std::current_exception();
    }
  });
  for (const auto& e : failure)
    if (e) std::rethrow_exception(e);
}

// Sorts [first, last) by `less`, on every worker where there are many.
template <class It, class Less>
void parallel_sort(It first, It last, Less less) {
#ifdef CUBENUM_PLAIN_THREADS
  std::sort(first, last, less);  // (the sanitizer build's: one thread is enough)
#else
  if (one_thread() || last - first < 4096) return std::sort(first, last, less);
  start_scheduler();
  tbb::parallel_sort(first, last, less);
#endif
}

// Sum over chunks of [0, n) of body(begin, end).
template <class T, class Body>
T parallel_sum(std::size_t n, std::size_t grain, Body&& body) {
  PerWorker<T> sums;
  parallel_for_chunks(n, grain, [&](std::size_t b, std::size_t e) { sums.local() += body(b, e); });
  T total{};
  sums.for_each([&](T& s) { total += s; });
  return total;
}

}  // namespace cubenum
