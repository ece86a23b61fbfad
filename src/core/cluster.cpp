#include "cubenum/core/cluster.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "cubenum/core/error.hpp"

namespace cubenum {
namespace {

class LocalCounter final : public SharedCounter {
 public:
  std::uint64_t fetch_add(std::uint64_t n) override {
    return value_.fetch_add(n, std::memory_order_relaxed);
  }

 private:
  std::atomic<std::uint64_t> value_{0};
};

// One process, alone: every collective is the identity.
class Alone final : public Cluster {
 public:
  int process() const override { return 0; }
  int processes() const override { return 1; }
  void sum(std::span<std::uint64_t>) override {}
  void max_of(std::span<std::uint64_t>) override {}
  std::vector<std::vector<std::byte>> exchange(std::vector<std::vector<std::byte>> send) override {
    return send;
  }
  void gather_all(std::span<const std::byte> mine, std::span<std::byte> all,
                  std::span<const std::uint64_t>) override {
    std::copy(mine.begin(), mine.end(), all.begin());
  }
  std::unique_ptr<SharedCounter> shared_counter() override { return local_counter(); }
  [[noreturn]] void abort(int status) override { std::_Exit(status); }
};

Alone alone;
Cluster* joined = nullptr;  // the plugin's cluster, once joined

// The plugin's entry points (src/mpi/mpi_cluster.cpp).
using JoinFn = Cluster* (*)(int*, char***);
using LeaveFn = void (*)();
LeaveFn plugin_leave = nullptr;

// mpirun (Open MPI) and other PMIx launchers set these in every process
// they start.
bool started_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr;
}

std::string plugin_path() {
  if (const char* path = std::getenv("CUBENUM_MPI_PLUGIN")) return path;
  std::error_code error;
  const auto program = std::filesystem::read_symlink("/proc/self/exe", error);
  return ((error ? std::filesystem::path(".") : program.parent_path()) / "libcubenum_mpi.so")
      .string();
}

}  // namespace

std::unique_ptr<SharedCounter> local_counter() {
  return std::make_unique<LocalCounter>();
}

Cluster& this_cluster() {
  return joined != nullptr ? *joined : alone;
}

void join_cluster(int& argc, char**& argv) {
  if (joined != nullptr || !started_by_mpirun()) return;
  const std::string path = plugin_path();
  // RTLD_GLOBAL: Open MPI's own components, which it loads in turn, look
  // for libmpi's symbols in the global scope.
  void* plugin = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (plugin == nullptr)
    throw InputError(path, 0,
                     std::string("started by mpirun, but the MPI plugin cannot be loaded (was "
                                 "cubenum built without Open MPI?): ") +
                         dlerror());
  auto join = reinterpret_cast<JoinFn>(dlsym(plugin, "cubenum_join_mpi"));
  plugin_leave = reinterpret_cast<LeaveFn>(dlsym(plugin, "cubenum_leave_mpi"));
  if (join == nullptr || plugin_leave == nullptr)
    throw InputError(path, 0, "not cubenum's MPI plugin: cubenum_join_mpi is missing");
  joined = join(&argc, &argv);
}

std::vector<std::string> gather_texts(Cluster& cluster, const std::string& mine) {
  std::vector<std::uint64_t> sizes(static_cast<std::size_t>(cluster.processes()));
  sizes[static_cast<std::size_t>(cluster.process())] = mine.size();
  cluster.sum(sizes);
  std::uint64_t all_bytes = 0;
  for (std::uint64_t size : sizes) all_bytes += size;
  std::string all(all_bytes, '\0');
  cluster.gather_all({reinterpret_cast<const std::byte*>(mine.data()), mine.size()},
                     {reinterpret_cast<std::byte*>(all.data()), all.size()}, sizes);
  std::vector<std::string> texts;
  std::uint64_t at = 0;
  for (std::uint64_t size : sizes) {
    texts.push_back(all.substr(at, size));
    at += size;
  }
  return texts;
}

std::string first_problem(Cluster& cluster, const std::string& problem) {
  for (std::string& text : gather_texts(cluster, problem))
    if (!text.empty()) return text;
  return {};
}

void leave_cluster() {
  if (joined == nullptr) return;
  plugin_leave();
  joined = nullptr;
}

}  // namespace cubenum
