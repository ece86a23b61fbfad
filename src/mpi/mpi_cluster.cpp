// The MPI plugin (libcubenum_mpi.so): the Cluster of core/cluster.hpp over
// Open MPI, loaded by the program only when mpirun started it.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <vector>

#include "cubenum/core/cluster.hpp"

namespace cubenum {
namespace {

// MPI counts are ints: larger buffers go in pieces of at most this.
constexpr std::uint64_t kPiece = std::uint64_t{1} << 30;

int piece_size(std::uint64_t size, std::uint64_t offset) {
  return static_cast<int>(std::min(kPiece, size - offset));
}

// The value lives in a window of the first process; fetch_add is an
// MPI_Fetch_and_op in a passive-target epoch that stays open (lock_all),
// flushed so that the value returned is the one it replaced. Threads take
// turns (MPI_THREAD_SERIALIZED).
class MpiCounter final : public SharedCounter {
 public:
  explicit MpiCounter(int process) {
    const MPI_Aint bytes = process == 0 ? sizeof(std::uint64_t) : 0;
    MPI_Win_allocate(bytes, sizeof(std::uint64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &memory_,
                     &window_);
    if (process == 0) *memory_ = 0;
    MPI_Barrier(MPI_COMM_WORLD);  // the value is 0 before anyone adds
    MPI_Win_lock_all(MPI_MODE_NOCHECK, window_);
  }
  ~MpiCounter() override {
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
  }
  std::uint64_t fetch_add(std::uint64_t n) override {
    std::lock_guard lock(turn_);
    std::uint64_t before = 0;
    MPI_Fetch_and_op(&n, &before, MPI_UINT64_T, 0, 0, MPI_SUM, window_);
    MPI_Win_flush(0, window_);
    return before;
  }

 private:
  std::uint64_t* memory_ = nullptr;
  MPI_Win window_ = MPI_WIN_NULL;
  std::mutex turn_;
};

class MpiCluster final : public Cluster {
 public:
  MpiCluster() {
    MPI_Comm_rank(MPI_COMM_WORLD, &process_);
    MPI_Comm_size(MPI_COMM_WORLD, &processes_);
  }
  int process() const override { return process_; }
  int processes() const override { return processes_; }

  void sum(std::span<std::uint64_t> values) override { reduce(values, MPI_SUM); }
  void max_of(std::span<std::uint64_t> values) override { reduce(values, MPI_MAX); }

  std::vector<std::vector<std::byte>> exchange(std::vector<std::vector<std::byte>> send) override {
    std::vector<std::uint64_t> out_sizes(processes_), in_sizes(processes_);
    for (int p = 0; p < processes_; ++p) out_sizes[p] = send[p].size();
    MPI_Alltoall(out_sizes.data(), 1, MPI_UINT64_T, in_sizes.data(), 1, MPI_UINT64_T,
                 MPI_COMM_WORLD);
    std::vector<std::vector<std::byte>> received(processes_);
    received[process_] = std::move(send[process_]);
    std::vector<MPI_Request> requests;
    for (int p = 0; p < processes_; ++p) {
      if (p == process_) continue;
      received[p].resize(in_sizes[p]);
      int tag = 0;
      for (std::uint64_t at = 0; at < in_sizes[p]; at += kPiece, ++tag)
        MPI_Irecv(received[p].data() + at, piece_size(in_sizes[p], at), MPI_BYTE, p, tag,
                  MPI_COMM_WORLD, &requests.emplace_back());
    }
    for (int p = 0; p < processes_; ++p) {
      if (p == process_) continue;
      int tag = 0;
      for (std::uint64_t at = 0; at < out_sizes[p]; at += kPiece, ++tag)
        MPI_Isend(send[p].data() + at, piece_size(out_sizes[p], at), MPI_BYTE, p, tag,
                  MPI_COMM_WORLD, &requests.emplace_back());
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    return received;
  }

  void gather_all(std::span<const std::byte> mine, std::span<std::byte> all,
                  std::span<const std::uint64_t> sizes) override {
    std::uint64_t offset = 0;
    for (int p = 0; p < processes_; ++p) {
      std::byte* part = all.data() + offset;
      if (p == process_) std::copy(mine.begin(), mine.end(), part);
      for (std::uint64_t at = 0; at < sizes[p]; at += kPiece)
        MPI_Bcast(part + at, piece_size(sizes[p], at), MPI_BYTE, p, MPI_COMM_WORLD);
      offset += sizes[p];
    }
  }

  std::unique_ptr<SharedCounter> shared_counter() override {
    return std::make_unique<MpiCounter>(process_);
  }

  [[noreturn]] void abort(int status) override {
    MPI_Abort(MPI_COMM_WORLD, status);
    std::_Exit(status);  // MPI_Abort does not return; the compiler does not know
  }

 private:
  void reduce(std::span<std::uint64_t> values, MPI_Op op) {
    MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_UINT64_T, op,
                  MPI_COMM_WORLD);
  }

  int process_ = 0, processes_ = 1;
};

MpiCluster* cluster = nullptr;

}  // namespace
}  // namespace cubenum

// Collectives are called only from the thread that runs the action; a
// shared counter's fetch_add from any worker, one at a time, while that
// thread waits for the workers: MPI_THREAD_SERIALIZED.
extern "C" cubenum::Cluster* cubenum_join_mpi(int* argc, char*** argv) {
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
  if (provided < MPI_THREAD_SERIALIZED) {
    std::fputs(
        "cubenum: error: this MPI library does not support threads (MPI_THREAD_SERIALIZED)\n",
        stderr);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  cubenum::cluster = new cubenum::MpiCluster;
  return cubenum::cluster;
}

extern "C" void cubenum_leave_mpi() {
  delete cubenum::cluster;
  cubenum::cluster = nullptr;
  MPI_Finalize();
}
