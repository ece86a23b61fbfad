// The MPI plugin (libcubenum_mpi.so): the Cluster of core/cluster.hpp over
// Open MPI, loaded by the program only when mpirun started it.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cubenum/core/cluster.hpp"

namespace cubenum {
namespace {

// MPI counts are ints: larger buffers go in pieces of at most this.
constexpr std::uint64_t kPiece = std::uint64_t{1} << 30;

int piece_size(std::uint64_t size, std::uint64_t offset) {
  return static_cast<int>(std::min(kPiece, size - offset));
}

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

// Collectives are called only from the thread that runs the action, never
// from a parallel loop's workers: MPI_THREAD_FUNNELED is enough.
extern "C" cubenum::Cluster* cubenum_join_mpi(int* argc, char*** argv) {
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  if (provided < MPI_THREAD_FUNNELED) {
    std::fputs("cubenum: error: this MPI library does not support threads (MPI_THREAD_FUNNELED)\n",
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
