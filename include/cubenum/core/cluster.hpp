#pragma once
// The processes of one run: this process alone, or the P processes that
// `mpirun -np P cubenum ...` started, each with its own threads.
//
// The engines talk to the others only through this interface, at the
// points where every process calls the same operation in the same order
// (collectives), from the thread that runs the action. The MPI
// implementation lives in a plugin (libcubenum_mpi.so, src/mpi/) that the
// program loads only when mpirun started it: linking Open MPI into the
// program costs every run the start-up of its dozen libraries, more than a
// small puzzle's whole run.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace cubenum {

// A number every thread of every process may draw from (for handing out
// work): held by the first process and changed by one-sided atomic
// operations, so no process has to stop to answer.
class SharedCounter {
 public:
  virtual ~SharedCounter() = default;
  // Adds `n` and returns the value before.
  virtual std::uint64_t fetch_add(std::uint64_t n) = 0;
};

class Cluster {
 public:
  virtual ~Cluster() = default;

  virtual int process() const = 0;    // this process's number, 0..processes()-1
  virtual int processes() const = 0;  // how many there are

  // Sums (max_of: maximum) of every process's values, element by element,
  // left in `values` on every process.
  virtual void sum(std::span<std::uint64_t> values) = 0;
  virtual void max_of(std::span<std::uint64_t> values) = 0;

  // All to all: `send[p]` goes to process p (send has processes() parts);
  // returns what each process sent to this one, by process.
  virtual std::vector<std::vector<std::byte>> exchange(
      std::vector<std::vector<std::byte>> send) = 0;

  // Every process's `mine`, in process order, into `all` (the parts'
  // sizes, by process, are `sizes`; they add up to all.size()).
  virtual void gather_all(std::span<const std::byte> mine, std::span<std::byte> all,
                          std::span<const std::uint64_t> sizes) = 0;

  // A counter starting at 0 (every process makes it, together, and
  // destroys it together). Unlike the collectives, any thread may call its
  // fetch_add, while the action's thread calls nothing else.
  virtual std::unique_ptr<SharedCounter> shared_counter() = 0;

  // Ends every process of the run at once with `status` (after an error
  // that only this process met, while the others may wait for it).
  [[noreturn]] virtual void abort(int status) = 0;
};

// The run's processes: this one alone unless join_cluster found mpirun.
Cluster& this_cluster();

// A counter of this process alone (what a cluster of one makes).
std::unique_ptr<SharedCounter> local_counter();

// Joins the other processes when mpirun started this one (its environment
// says so), loading the MPI plugin beside the program; otherwise does
// nothing. Throws InputError when mpirun started a program built without
// the plugin. leave_cluster() ends the membership (MPI_Finalize).
void join_cluster(int& argc, char**& argv);
void leave_cluster();

// Small helpers over the collectives.
inline std::uint64_t total(Cluster& cluster, std::uint64_t value) {
  cluster.sum({&value, 1});
  return value;
}
inline bool any(Cluster& cluster, bool value) {
  std::uint64_t v = value ? 1 : 0;
  cluster.max_of({&v, 1});
  return v != 0;
}

// Every process's `mine`, by process, on every process.
std::vector<std::string> gather_texts(Cluster& cluster, const std::string& mine);

// The first process's non-empty `problem` (an error message), on every
// process; empty when no process has one. For errors that may strike one
// process only (a damaged file of its own), so that all of them stop alike.
std::string first_problem(Cluster& cluster, const std::string& problem);

// A contiguous, 64-aligned range of ranks [first, first + count): the part
// of a ranked space one process owns. Ranks are split in equal word
// ranges, the last part taking what is left.
struct RankPart {
  std::uint64_t first = 0;
  std::uint64_t count = 0;
  bool owns(std::uint64_t rank) const { return rank - first < count; }
  std::uint64_t local(std::uint64_t rank) const { return rank - first; }
};

// Every rank: the part of a process alone.
inline constexpr RankPart kAllRanks{0, ~std::uint64_t{0}};

// The split itself: every part but the last holds `per_part` ranks.
struct RankSplit {
  std::uint64_t states = 0, per_part = 64;
  int processes = 1;

  RankSplit(std::uint64_t states_, int processes_)
      : states(states_),
        per_part(std::max<std::uint64_t>(
                     1, ((states_ + 63) / 64 + static_cast<std::uint64_t>(processes_) - 1) /
                            static_cast<std::uint64_t>(processes_)) *
                 64),
        processes(processes_) {}

  RankPart part(int process) const {
    const std::uint64_t first = std::min(states, per_part * static_cast<std::uint64_t>(process));
    return {first, std::min(states, first + per_part) - first};
  }
  int owner(std::uint64_t rank) const { return static_cast<int>(rank / per_part); }
};

inline RankPart part_of(std::uint64_t states, int process, int processes) {
  return RankSplit(states, processes).part(process);
}

inline int owner_of(std::uint64_t rank, std::uint64_t states, int processes) {
  return RankSplit(states, processes).owner(rank);
}

}  // namespace cubenum
