#include "cubenum/core/thread_placement.hpp"

#include <sched.h>
#include <tbb/task_arena.h>

#include <algorithm>

#include "cubenum/core/parallel.hpp"

namespace cubenum {
namespace {

SpreadWorkers* active = nullptr;  // the one whose start_observing the hook calls

bool allowed_cpus(cpu_set_t& set) {
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0;
}

}  // namespace

SpreadWorkers::SpreadWorkers() {
  cpu_set_t set;
  if (allowed_cpus(set)) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set)) cpus_.push_back(cpu);
    // Rotate so that the main thread's CPU comes last: worker i gets cpus_[i - 1].
    const int here = sched_getcpu();
    const auto at = std::find(cpus_.begin(), cpus_.end(), here);
    if (at != cpus_.end()) std::rotate(cpus_.begin(), at + 1, cpus_.end());
  }
  active = this;
  detail::before_scheduler.store(&SpreadWorkers::start_observing, std::memory_order_release);
}

SpreadWorkers::~SpreadWorkers() {
  detail::before_scheduler.store(nullptr, std::memory_order_release);
  active = nullptr;
  observe(false);
}

void SpreadWorkers::start_observing() {
  SpreadWorkers* self = active;
  std::call_once(self->observing_, [self] { self->observe(true); });
}

void SpreadWorkers::on_scheduler_entry(bool is_worker) {
  const int index = tbb::this_task_arena::current_thread_index();  // workers: 1, 2, ...
  if (!is_worker || cpus_.size() < 2 || index < 1) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpus_[static_cast<std::size_t>(index - 1) % cpus_.size()], &one);
  sched_setaffinity(0, sizeof one, &one);
}

void SpreadWorkers::on_scheduler_exit(bool is_worker) {
  if (!is_worker || cpus_.size() < 2) return;
  cpu_set_t everywhere;  // what the process was allowed at the start
  CPU_ZERO(&everywhere);
  for (const int cpu : cpus_) CPU_SET(cpu, &everywhere);
  sched_setaffinity(0, sizeof everywhere, &everywhere);
}

}  // namespace cubenum
