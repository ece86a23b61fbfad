#pragma once
// Keeps oneTBB's worker threads off the CPU of the thread that runs the
// job while they work for it. Linux wakes a thread next to its waker (the
// cache is hot there) and moves it only when load balancing gets round to
// it, milliseconds later; a job of a few milliseconds then often gets no
// help from its workers at all, a worker sharing the main thread's CPU.
// While a worker is in the arena it is held on the i-th allowed CPU after
// the main thread's; when it leaves it is free again, so other processes
// are not constrained by idle workers.
#include <tbb/task_scheduler_observer.h>

#include <mutex>
#include <vector>

namespace cubenum {

// One at a time. It observes the calling thread's arena from the first
// parallel loop that needs the scheduler on (core/parallel.hpp), not from
// its construction: registering starts the scheduler.
class SpreadWorkers : public tbb::task_scheduler_observer {
 public:
  SpreadWorkers();
  ~SpreadWorkers() override;
  void on_scheduler_entry(bool is_worker) override;
  void on_scheduler_exit(bool is_worker) override;

 private:
  static void start_observing();
  std::vector<int> cpus_;  // the allowed CPUs, the main thread's last
  std::once_flag observing_;
};

}  // namespace cubenum
