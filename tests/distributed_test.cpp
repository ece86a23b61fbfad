// Runs across processes (core/cluster.hpp, the frontier engine under
// mpirun): the split of the ranks, the messages' coding, and whole runs
// under `mpirun -np P` against the same run in one process.
//
// The expected results are the one-process run's (the rolling cubes' own
// tests check those against published and naive counts): a distributed
// run must agree with it field for field at every process count.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubenum/bfs/rank_exchange.hpp"
#include "cubenum/core/cluster.hpp"
#include "run_cubenum.hpp"
#include "scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using cubenum::testing::contains;
using cubenum::testing::run_cubenum;
using cubenum::testing::run_mpi;
using Json = nlohmann::json;

TEST(RankParts, CoverTheSpaceInOrderOnWordBoundariesAndAgreeWithTheOwner) {
  for (std::uint64_t states : {0ULL, 1ULL, 12ULL, 63ULL, 64ULL, 65ULL, 1000ULL, 46656ULL,
                               15116544ULL, 4353564672ULL}) {
    for (int processes = 1; processes <= 9; ++processes) {
      std::uint64_t next = 0;
      for (int p = 0; p < processes; ++p) {
        const cubenum::RankPart part = cubenum::part_of(states, p, processes);
        EXPECT_EQ(part.first, next) << states << " " << processes << " " << p;
        if (part.count == 0) continue;  // more processes than words: nothing left
        EXPECT_EQ(part.first % 64, 0U);
        EXPECT_EQ(cubenum::owner_of(part.first, states, processes), p);
        EXPECT_EQ(cubenum::owner_of(part.first + part.count - 1, states, processes), p);
        next = part.first + part.count;
      }
      EXPECT_EQ(next, states) << states << " " << processes;
    }
  }
}

std::vector<std::uint64_t> decoded(const std::vector<std::byte>& message) {
  std::vector<std::uint64_t> all;
  std::mutex lock;
  cubenum::bfs::decode_ranks(message, [&](std::span<const std::uint64_t> block) {
    EXPECT_TRUE(std::is_sorted(block.begin(), block.end()));
    std::lock_guard guard(lock);
    all.insert(all.end(), block.begin(), block.end());
  });
  std::sort(all.begin(), all.end());
  return all;
}

TEST(RankMessages, RoundTripSortedWithoutRepeats) {
  std::mt19937_64 random(7);
  for (std::size_t size : {0, 1, 2, 4095, 4096, 4097, 100000}) {
    std::vector<std::uint64_t> ranks;
    for (std::size_t i = 0; i < size; ++i) ranks.push_back(random() % (4 * size + 1));
    ranks.push_back(~std::uint64_t{0});  // the largest rank survives the coding
    const std::set<std::uint64_t> expected(ranks.begin(), ranks.end());
    std::vector<std::uint64_t> copy = ranks;
    const auto message = cubenum::bfs::encode_ranks(copy);
    EXPECT_EQ(decoded(message), std::vector<std::uint64_t>(expected.begin(), expected.end()));
  }
}

TEST(RankMessages, DenseRanksTakeAboutAByteEach) {
  std::vector<std::uint64_t> ranks;
  for (std::uint64_t r = 5'000'000'000ULL; r < 5'000'000'000ULL + 1'000'000; r += 3)
    ranks.push_back(r);
  const std::size_t count = ranks.size();
  const auto message = cubenum::bfs::encode_ranks(ranks);
  EXPECT_LT(message.size(), count * 11 / 10);
}

TEST(RankMessages, AMalformedMessageIsRefused) {
  std::vector<std::uint64_t> ranks{1, 2, 300, 70000};
  const auto message = cubenum::bfs::encode_ranks(ranks);
  auto refused = [](std::vector<std::byte> bytes) {
    EXPECT_THROW(decoded(bytes), std::runtime_error);
  };
  refused({message.begin(), message.end() - 1});  // truncated
  std::vector<std::byte> longer = message;
  longer[0] = std::byte{static_cast<unsigned char>(std::to_integer<int>(longer[0]) - 1)};
  refused(longer);                       // a block shorter than its ranks
  refused({std::byte{1}, std::byte{0}});  // a block of no ranks
  refused(std::vector<std::byte>(12, std::byte{0xFF}));  // a varint past 64 bits
}

// The JSON result without what differs between runs of the same problem.
Json result_of(const fs::path& json) {
  std::ifstream in(json);
  Json j = Json::parse(in);
  for (const char* field : {"seconds", "threads", "processes"}) j.erase(field);
  return j;
}

struct Grid {
  std::string args;
  int processes;
};

class Distributed : public ::testing::TestWithParam<Grid> {};

TEST_P(Distributed, BfsAndSolveGiveTheOneProcessResult) {
  const auto [args, processes] = GetParam();
  const fs::path dir = cubenum::testing::scratch(
      "distributed-" + std::to_string(processes) + "-" +
      std::to_string(std::hash<std::string>{}(args)));
  for (const std::string action : {"bfs", "solve"}) {
    const std::string command = "rolling-cubes " + action + " " + args;
    const auto alone = run_cubenum(command + " --json " + (dir / "alone.json").string());
    ASSERT_EQ(alone.status, 0) << alone.output;
    const auto shared = run_mpi(processes, command + " --threads 1 --json " +
                                               (dir / "shared.json").string());
    ASSERT_EQ(shared.status, 0) << shared.output;
    EXPECT_EQ(result_of(dir / "shared.json"), result_of(dir / "alone.json")) << command;
    EXPECT_EQ(shared.output, alone.output) << command;  // one table, written once
    std::ifstream in(dir / "shared.json");
    EXPECT_EQ(Json::parse(in)["processes"], processes);
  }
}

INSTANTIATE_TEST_SUITE_P(
    RollingCubes, Distributed,
    ::testing::Values(Grid{"--rows 3 --cols 2", 3}, Grid{"--rows 2 --cols 3", 2},
                      Grid{"--rows 2 --cols 3", 5}, Grid{"--rows 3 --cols 3", 2},
                      Grid{"--rows 3 --cols 3", 3},
                      Grid{"--rows 3 --cols 3 --direction top-down", 4},
                      Grid{"--rows 2 --cols 3 --direction bottom-up", 3}),
    [](const auto& param_info) {
      std::string name = param_info.param.args + "_" + std::to_string(param_info.param.processes);
      std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
      return name;
    });

TEST(Distributed, ProcessesWithNoStatesTakePartAlike) {
  // 12 states, one word: two of the three processes own nothing.
  const std::string command = "rolling-cubes bfs --rows 1 --cols 2";
  const auto alone = run_cubenum(command);
  ASSERT_EQ(alone.status, 0) << alone.output;
  const auto shared = run_mpi(3, command + " --threads 1");
  ASSERT_EQ(shared.status, 0) << shared.output;
  EXPECT_EQ(shared.output, alone.output);
}

TEST(Distributed, ErrorsAreSaidOnceAndEndEveryProcess) {
  const auto bad = run_mpi(3, "rolling-cubes bfs --rows 0");
  EXPECT_EQ(bad.status, 2) << bad.output;
  const std::string said = "cubenum: error:";
  const auto first = bad.output.find(said);
  ASSERT_NE(first, std::string::npos) << bad.output;
  EXPECT_EQ(bad.output.find(said, first + 1), std::string::npos) << bad.output;

  const auto alone_only = run_mpi(2, "pocket-cube bfs");
  EXPECT_EQ(alone_only.status, 2) << alone_only.output;
  EXPECT_TRUE(contains(alone_only.output, "pocket-cube bfs runs in one process"))
      << alone_only.output;

  const fs::path dir = cubenum::testing::scratch("distributed-checkpoint");
  const auto checkpoint =
      run_mpi(2, "rolling-cubes bfs --rows 2 --cols 3 --checkpoint " + (dir / "c").string());
  EXPECT_EQ(checkpoint.status, 2) << checkpoint.output;
  EXPECT_TRUE(contains(checkpoint.output, "--checkpoint: checkpoints are for runs in one process"))
      << checkpoint.output;
}

TEST(Distributed, StartedByMpirunWithoutThePluginIsRefused) {
  const auto run = cubenum::testing::run_shell(
      "OMPI_COMM_WORLD_SIZE=2 CUBENUM_MPI_PLUGIN=/nonexistent/libcubenum_mpi.so " +
      std::string(CUBENUM_BINARY) + " rolling-cubes bfs --rows 2 --cols 2");
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "/nonexistent/libcubenum_mpi.so")) << run.output;
  EXPECT_TRUE(contains(run.output, "started by mpirun")) << run.output;
}

}  // namespace
