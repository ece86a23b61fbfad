// Runs across processes (core/cluster.hpp, the frontier engine and the
// backtracking counts under mpirun): the split of the ranks, the messages'
// coding, and whole runs under `mpirun -np P` against the same run in one
// process.
//
// The expected results are the one-process run's (the rolling cubes' own
// tests check those against published and naive counts): a distributed
// run must agree with it field for field at every process count.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cubenum/bfs/rank_exchange.hpp"
#include "cubenum/core/cluster.hpp"
#include "room_puzzle.hpp"
#include "run_cubenum.hpp"
#include "scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using cubenum::testing::contains;
using cubenum::testing::run_cubenum;
using cubenum::testing::run_mpi;
using Json = nlohmann::json;

TEST(RankParts, CoverTheSpaceInOrderOnWordBoundariesAndAgreeWithTheOwner) {
  for (std::uint64_t states :
       {0ULL, 1ULL, 12ULL, 63ULL, 64ULL, 65ULL, 1000ULL, 46656ULL, 15116544ULL, 4353564672ULL}) {
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

// Buckets of dense ranks (sorted through a bitmap), of sparse ones (sorted
// by comparison), and both in one message, against a std::set of the ranks.
TEST(RankMessages, RoundTripSortedWithoutRepeats) {
  std::mt19937_64 random(7);
  for (const std::string kind : {"dense", "sparse", "mixed"}) {
    for (std::size_t size : {1, 2, 4095, 4096, 4097, 100000, 300000}) {
      std::vector<std::uint64_t> ranks;
      for (std::size_t i = 0; i < size; ++i) {
        const bool far = kind == "sparse" || (kind == "mixed" && i % 2 == 1);
        ranks.push_back(far ? random() % (std::uint64_t{1} << 40)
                            : 5'000'000'000ULL + random() % (2 * size + 1));
      }
      if (kind == "sparse") ranks.push_back(~std::uint64_t{0});  // the largest rank survives
      const std::set<std::uint64_t> expected(ranks.begin(), ranks.end());
      const auto message = cubenum::bfs::encode_ranks(ranks);
      EXPECT_EQ(decoded(message), std::vector<std::uint64_t>(expected.begin(), expected.end()))
          << size << " " << kind;
    }
  }
  EXPECT_TRUE(cubenum::bfs::encode_ranks({}).empty());
}

TEST(RankMessages, DenseRanksTakeAboutAByteEach) {
  std::vector<std::uint64_t> ranks;
  for (std::uint64_t r = 5'000'000'000ULL; r < 5'000'000'000ULL + 1'000'000; r += 3)
    ranks.push_back(r);
  const auto message = cubenum::bfs::encode_ranks(ranks);
  EXPECT_LT(message.size(), ranks.size() * 11 / 10);
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
  refused(longer);                                       // a block shorter than its ranks
  refused({std::byte{1}, std::byte{0}});                 // a block of no ranks
  refused(std::vector<std::byte>(12, std::byte{0xFF}));  // a varint past 64 bits
}

// The JSON result without what differs between runs of the same problem
// (and how its classes were searched: by the row engine in one process
// where they have rows, by the frontier engine across processes).
Json result_of(const fs::path& json) {
  std::ifstream in(json);
  Json j = Json::parse(in);
  for (const char* field : {"seconds", "threads", "processes"}) j.erase(field);
  if (j.contains("over_classes"))
    for (const char* field : {"engine", "bits"}) j["over_classes"].erase(field);
  return j;
}

struct Grid {
  std::string args;
  int processes;
};

// The output but the "wrote FILE" lines, which name each run's own file (on
// standard error: under mpirun they may come between lines of standard
// output).
std::string without_wrote_lines(const std::string& output) {
  std::istringstream in(output);
  std::string kept;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("wrote ", 0) != 0) kept += line + "\n";
  return kept;
}

// `command` under mpirun at `processes` (1 thread each) writes the JSON of
// the same command run alone (JSON files in `dir`); and, if asked, the same
// output (`same_output`).
void expect_the_one_process_result(const fs::path& dir, const std::string& command, int processes,
                                   bool same_output = false) {
  const auto alone = run_cubenum(command + " --json " + (dir / "alone.json").string());
  ASSERT_EQ(alone.status, 0) << alone.output;
  const auto shared =
      run_mpi(processes, command + " --threads 1 --json " + (dir / "shared.json").string());
  ASSERT_EQ(shared.status, 0) << shared.output;
  EXPECT_EQ(result_of(dir / "shared.json"), result_of(dir / "alone.json")) << command;
  if (same_output) {
    EXPECT_EQ(without_wrote_lines(shared.output), without_wrote_lines(alone.output)) << command;
  }
}

class Distributed : public ::testing::TestWithParam<Grid> {};

TEST_P(Distributed, BfsAndSolveGiveTheOneProcessResult) {
  const auto [args, processes] = GetParam();
  const fs::path dir = cubenum::testing::scratch("distributed-" + std::to_string(processes) + "-" +
                                                 std::to_string(std::hash<std::string>{}(args)));
  for (const std::string action : {"bfs", "solve"}) {
    const std::string command = "rolling-cubes " + action + " " + args;
    // The same output too: one table, written once.
    ASSERT_NO_FATAL_FAILURE(expect_the_one_process_result(dir, command, processes, true));
    std::ifstream in(dir / "shared.json");
    const Json shared_json = Json::parse(in);
    if (processes > 1)
      EXPECT_EQ(shared_json["processes"], processes);
    else
      EXPECT_FALSE(shared_json.contains("processes"));
  }
}

INSTANTIATE_TEST_SUITE_P(
    RollingCubes, Distributed,
    ::testing::Values(Grid{"--rows 2 --cols 3", 1},  // under mpirun, alone
                      Grid{"--rows 3 --cols 2", 3}, Grid{"--rows 2 --cols 3", 2},
                      Grid{"--rows 2 --cols 3", 5}, Grid{"--rows 3 --cols 3", 2},
                      Grid{"--rows 3 --cols 3", 3},
                      Grid{"--rows 3 --cols 3 --direction top-down", 4},
                      Grid{"--rows 2 --cols 3 --direction bottom-up", 3},
                      // The depth table alone (two-bit storage), top-down.
                      Grid{"--rows 3 --cols 3 --storage two-bit", 3},
                      Grid{"--rows 2 --cols 3 --storage two-bit", 2}),
    [](const auto& param_info) {
      std::string name = param_info.param.args + "_" + std::to_string(param_info.param.processes);
      std::replace_if(
          name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
      return name;
    });

// The pocket cube's tables and optimal solutions: on the frontier engine
// across processes, on the row engine alone; the same JSON.
TEST(Distributed, PocketCubeTablesAndSolutionsAreTheOneProcessOnes) {
  const fs::path dir = cubenum::testing::scratch("distributed-pocket-cube");
  const std::vector<std::pair<std::string, int>> runs = {
      {"pocket-cube bfs --metric qtm", 2},
      {"pocket-cube bfs --metric htm", 3},
      {"pocket-cube solve --metric htm --scramble \"R U2 F' R2 U F2 R' U'\"", 2},
      {"pocket-cube solve --metric qtm --scramble \"F R' U2 R F'\"", 3}};
  for (const auto& [command, processes] : runs)
    expect_the_one_process_result(dir, command, processes);
}

// Definition files (twisty): the frontier engine across processes, the row
// engine alone (over the classes too where they have rows: pocket-cube
// U,R up to rotations); the same levels, the same antipodes as move
// sequences.
TEST(Distributed, DefinitionFileTablesAndAntipodesAreTheOneProcessOnes) {
  const fs::path dir = cubenum::testing::scratch("distributed-twisty");
  const std::string data = CUBENUM_DATA_DIR;
  const std::vector<std::pair<std::string, int>> runs = {
      {"twisty bfs " + data + "/twisty/tiles-2x3.tws", 2},
      {"twisty bfs " + data + "/twisty/tiles-2x3.tws --direction bottom-up", 3},
      {"twisty bfs " + data + "/twisty/tower-2x3x2.tws --antipodes 8", 3},
      {"twisty bfs " + data + "/twisty/tower-2x3x2.tws --direction top-down --quarter", 4},
      {"twisty bfs " + data + "/twisty/pocket-cube.tws --moves U,F,R --antipodes 0", 2},
      // Classes up to symmetry: a BFS over classes, each process holding
      // its part of them; a BFS over positions, each process counting the
      // classes of its part.
      {"twisty bfs " + data + "/twisty/tiles-2x3.tws --symmetry all --inverse", 3},
      {"twisty bfs " + data + "/twisty/pocket-cube.tws --moves U,R --symmetry rotations", 2},
      {"twisty bfs " + data + "/twisty/tiles-2x3.tws --symmetry all --inverse --over positions", 3},
      {"twisty bfs " + data + "/twisty/pocket-cube.tws --moves U,R --symmetry all --over positions",
       2}};
  for (const auto& [command, processes] : runs)
    expect_the_one_process_result(dir, command, processes);
  const auto table = run_mpi(
      2, "twisty bfs " + data + "/twisty/tiles-2x3.tws --table " + (dir / "depths.bin").string());
  EXPECT_EQ(table.status, 2) << table.output;
  EXPECT_TRUE(contains(table.output, "--table: the depth table is written by one process"))
      << table.output;
}

// Runs `command` on 2 processes in time-limited slices (longer each slice:
// a stop drops the level in progress) until it ends: the last run and the
// number of slices.
std::pair<cubenum::testing::ProgramRun, int> run_mpi_in_slices(const std::string& command,
                                                               const std::string& ck,
                                                               const std::string& out) {
  double limit = 0.02;
  auto run = run_mpi(2, command + " --checkpoint " + ck + " --checkpoint-every 0 --time-limit " +
                            std::to_string(limit) + " --json " + out);
  int slices = 1;
  while (run.status == 4 && ++slices < 30) {
    limit *= 1.6;
    run = run_mpi(2, command + " --resume " + ck + " --checkpoint-every 0 --time-limit " +
                         std::to_string(limit) + " --json " + out);
  }
  return {run, slices};
}

// The BFS over classes across processes in time-limited slices (three
// bitmaps; two bits an index where --memory leaves no room for three in
// a process): the one-process counts.
TEST(DistributedCheckpoint, ClassSlicesGiveTheOneProcessResult) {
  for (const std::string memory : {"", " --memory 0.00015"}) {
    SCOPED_TRACE(memory);
    const fs::path dir = cubenum::testing::scratch("distributed-class-slices");
    const std::string whole = "twisty bfs " + std::string(CUBENUM_DATA_DIR) +
                              "/twisty/pocket-cube.tws --moves U,F,R --symmetry all --threads 1";
    const std::string command = whole + memory;  // each process holds half the indices
    const auto alone = run_cubenum(whole + " --json " + (dir / "alone.json").string());
    ASSERT_EQ(alone.status, 0) << alone.output;
    const std::string ck = (dir / "ck").string(), out = (dir / "sliced.json").string();
    const auto [run, slices] = run_mpi_in_slices(command, ck, out);
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_GT(slices, 1);
    Json sliced = result_of(out), one = result_of(dir / "alone.json");
    EXPECT_EQ(sliced["resumed"], true);
    for (const char* field : {"distribution", "classes", "states", "total_classes"})
      EXPECT_EQ(sliced[field], one[field]) << field;
  }
}

// A definition's BFS across processes in time-limited slices: the one-process result.
TEST(DistributedCheckpoint, DefinitionFileSlicesGiveTheOneProcessResult) {
  const fs::path dir = cubenum::testing::scratch("distributed-twisty-slices");
  const std::string command =
      "twisty bfs " + std::string(CUBENUM_DATA_DIR) + "/twisty/tower-2x3x2.tws --threads 1";
  const auto alone = run_cubenum(command + " --json " + (dir / "alone.json").string());
  ASSERT_EQ(alone.status, 0) << alone.output;
  const std::string ck = (dir / "ck").string(), out = (dir / "sliced.json").string();
  const auto [run, slices] = run_mpi_in_slices(command, ck, out);
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_GT(slices, 2);
  Json sliced = result_of(out);
  EXPECT_EQ(sliced["resumed"], true);
  sliced.erase("resumed");
  EXPECT_EQ(sliced, result_of(dir / "alone.json"));
  // A one-process checkpoint (the row engine's) is not for mpirun's.
  const auto mixed = run_cubenum(command + " --resume " + ck);
  EXPECT_EQ(mixed.status, 2) << mixed.output;
  EXPECT_TRUE(contains(mixed.output, "processes is 2 there, missing here")) << mixed.output;
  // ... and it says how to go on (issue 33).
  EXPECT_TRUE(contains(mixed.output,
                       "saved by 2 processes: resume it with the same command under mpirun -np 2"))
      << mixed.output;
}

// The optimal search shares its subtrees among processes: the same
// solutions (the first four in move order), counts and nodes as one
// process, for scrambles of several lengths.
TEST(Distributed, OptimalSearchGivesOneProcesssAnswers) {
  const std::string scrambles = ::testing::TempDir() + "/distributed-scrambles.txt";
  std::ofstream(scrambles) << "R U F D L U2\nU2 F\nR U2 L D F B U' R\n";
  const std::string command = "twisty solve " + std::string(CUBENUM_DATA_DIR) +
                              "/twisty/tower-2x3x2.tws --method search --all 4 --scrambles " +
                              scrambles + " --json -";
  const auto alone = run_cubenum(command);
  ASSERT_EQ(alone.status, 0) << alone.output;
  const auto answers = [](const std::string& output) {
    nlohmann::json json = nlohmann::json::parse(output)["solutions"];
    for (auto& s : json) s.erase("seconds");
    return json;
  };
  for (int processes : {2, 3}) {
    const auto shared = run_mpi(processes, command + " --threads 1");
    ASSERT_EQ(shared.status, 0) << shared.output;
    EXPECT_EQ(answers(shared.output), answers(alone.output)) << processes << " processes";
  }
  std::filesystem::remove(scrambles);
}

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

  const auto alone_only = run_mpi(2, "nine-colour-cube count");
  EXPECT_EQ(alone_only.status, 2) << alone_only.output;
  EXPECT_TRUE(contains(alone_only.output, "nine-colour-cube count runs in one process"))
      << alone_only.output;
  const auto two_bit_bottom_up =
      run_mpi(2, "rolling-cubes bfs --storage two-bit --direction bottom-up");
  EXPECT_EQ(two_bit_bottom_up.status, 2) << two_bit_bottom_up.output;
  EXPECT_TRUE(contains(two_bit_bottom_up.output, "two-bit storage under mpirun runs top-down"))
      << two_bit_bottom_up.output;
  const auto symmetry = run_mpi(2, "pocket-cube bfs --symmetry");
  EXPECT_EQ(symmetry.status, 2) << symmetry.output;
  EXPECT_TRUE(contains(symmetry.output, "--symmetry: runs in one process")) << symmetry.output;
  // A count's --memory guard is its own process's: refused under mpirun.
  const auto memory = run_mpi(2, "foam count --memory 4 --challenge pool " +
                                     std::string(CUBENUM_DATA_DIR) + "/foam/happy-cube-marble.txt");
  EXPECT_EQ(memory.status, 2) << memory.output;
  EXPECT_TRUE(contains(memory.output, "--memory: not under mpirun")) << memory.output;
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

namespace {

// Checkpoints across processes: each process saves its part, the first
// one the manifest; stopped by --time-limit in slices and resumed, the run
// gives the one-process result.
TEST(DistributedCheckpoint, SlicesAcrossProcessesGiveTheOneProcessResult) {
  const fs::path dir = cubenum::testing::scratch("distributed-slices");
  const std::string command = "rolling-cubes bfs --rows 3 --cols 3";
  const auto alone = run_cubenum(command + " --json " + (dir / "alone.json").string());
  ASSERT_EQ(alone.status, 0) << alone.output;
  const std::string ck = (dir / "ck").string(), out = (dir / "sliced.json").string();
  auto run = run_mpi(2, command + " --threads 1 --checkpoint " + ck +
                            " --checkpoint-every 0 --time-limit 0.2 --json " + out);
  ASSERT_EQ(run.status, 4) << run.output;
  int slices = 1;
  double limit = 0.2;  // a tenth longer each slice: a stop drops the level in progress
  do {                 // 1 thread and 2 by turns: a checkpoint does not depend on them
    const std::string threads = slices % 2 == 0 ? " --threads 2" : " --threads 1";
    limit *= 1.1;
    run = run_mpi(2, command + threads + " --resume " + ck + " --checkpoint-every 0 --time-limit " +
                         std::to_string(limit) + " --json " + out);
    ASSERT_TRUE(run.status == 0 || run.status == 4) << run.output;
  } while (run.status == 4 && ++slices < 60);
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_GT(slices, 1);
  Json sliced = result_of(out);
  EXPECT_EQ(sliced["resumed"], true);
  sliced.erase("resumed");
  EXPECT_EQ(sliced, result_of(dir / "alone.json"));
  // Both processes' parts are in the folder, and nothing else but the manifest.
  int parts = 0;
  for (const auto& entry : fs::directory_iterator(ck)) {
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(name == "checkpoint.json" || name.find(".p0.") != std::string::npos ||
                name.find(".p1.") != std::string::npos)
        << name;
    parts += name.ends_with(".bin") ? 1 : 0;
  }
  EXPECT_EQ(parts, 4);  // depths and frontier, of each process

  // Another process count: refused.
  const auto three = run_mpi(3, command + " --resume " + ck);
  EXPECT_EQ(three.status, 2) << three.output;
  EXPECT_TRUE(contains(three.output, "processes is 2 there, 3 here")) << three.output;
  const auto one = run_cubenum(command + " --resume " + ck);
  EXPECT_EQ(one.status, 2) << one.output;
  EXPECT_TRUE(contains(one.output, "processes is 2 there, missing here")) << one.output;

  // The second process's depth table damaged: refused, once, by every process.
  for (const auto& entry : fs::directory_iterator(ck)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("depths.p1.")) continue;
    std::fstream f(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x55');
  }
  const auto damaged = run_mpi(2, command + " --resume " + ck);
  EXPECT_EQ(damaged.status, 2) << damaged.output;
  const std::string said = "corrupt: its checksum (XXH3)";
  const auto first = damaged.output.find(said);
  ASSERT_NE(first, std::string::npos) << damaged.output;
  EXPECT_EQ(damaged.output.find(said, first + 1), std::string::npos) << damaged.output;
}

}  // namespace

namespace {

// The cubenum processes whose command line holds `marker` (this test's
// checkpoint folder: tests running beside it have their own).
std::vector<int> processes_with(const std::string& marker) {
  std::vector<int> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
    std::string command = cubenum::testing::read(entry.path() / "cmdline");
    std::replace(command.begin(), command.end(), '\0', ' ');
    if (command.rfind(CUBENUM_BINARY, 0) == 0 && command.find(marker) != std::string::npos)
      found.push_back(std::stoi(name));
  }
  return found;
}

// Starts `mpirun -np processes cubenum args` in the background (its output
// into `log`) and returns once its processes, whose command lines hold
// `marker`, all run.
void start_mpi(int processes, const std::string& args, const std::string& marker,
               const std::string& log = "/dev/null") {
  const std::string launch =
      cubenum::testing::mpi_command(processes, args) + " > " + log + " 2>&1 &";
  ASSERT_EQ(std::system(launch.c_str()), 0);
  for (int waited = 0;
       processes_with(marker).size() < static_cast<std::size_t>(processes) && waited < 1000;
       ++waited)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

// Waits (`seconds` at most) until no process with `marker` is left, and a
// moment more for mpirun itself; returns whether none is left.
bool all_ended(const std::string& marker, int seconds) {
  for (int waited = 0; !processes_with(marker).empty() && waited < 10 * seconds; ++waited)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  return processes_with(marker).empty();
}

// Starts the run as start_mpi does, kills one of its processes (SIGKILL)
// once `moment` has returned, and waits for mpirun to end the others.
// `killed` is false when the run had ended before (a busy machine timed
// the whole run slower than it then ran): its checkpoint is then a
// finished run's.
void kill_one_process_when(int processes, const std::string& args, const std::string& marker,
                           const std::function<void()>& moment, bool& killed) {
  start_mpi(processes, args, marker);
  moment();
  const std::vector<int> running = processes_with(marker);
  killed = !running.empty();
  if (killed) ::kill(running.back(), SIGKILL);
  ASSERT_TRUE(all_ended(marker, 60)) << "mpirun did not end the killed run's processes";
}

// The same, `at_ms` after the processes run.
void kill_one_process_at(int processes, const std::string& args, const std::string& marker,
                         int at_ms, bool& killed) {
  kill_one_process_when(
      processes, args, marker,
      [at_ms] { std::this_thread::sleep_for(std::chrono::milliseconds(at_ms)); }, killed);
}

// Moments to kill `mpirun -np processes cubenum args` at: fractions of
// the time the whole run takes here (timed once, into a scratch folder
// `marker` + "-timed"), so that they fall inside the run on a fast machine
// as on a slow one.
std::vector<int> moments_ms(int processes, const std::string& args, const std::string& marker,
                            std::initializer_list<double> fractions) {
  const auto whole = run_mpi(processes, args + " --checkpoint " + marker + "-timed");
  EXPECT_EQ(whole.status, 0) << whole.output;
  std::vector<int> moments;
  for (const double f : fractions) moments.push_back(static_cast<int>(1000 * f * whole.seconds));
  return moments;
}

// SIGKILL to one process of a run under mpirun, at several moments (during
// levels, during checkpoint writes: one is written at every level); mpirun
// then ends the others. Resumed, or started afresh when the kill came
// before the first commit, the run gives the one-process result.
TEST(DistributedCheckpoint, OneProcessKilledAtAnyMomentResumesToTheSameResult) {
  const fs::path dir = cubenum::testing::scratch("distributed-kill");
  const std::string command = "rolling-cubes bfs --rows 3 --cols 3 --threads 1";
  const auto alone = run_cubenum(command + " --json " + (dir / "alone.json").string());
  ASSERT_EQ(alone.status, 0) << alone.output;
  int resumed = 0, kills = 0;
  const std::string saving = command + " --checkpoint-every 0";
  int n = 0;
  for (const int at_ms : moments_ms(2, saving, (dir / "ck").string(), {0.1, 0.25, 0.4, 0.55})) {
    const std::string ck = (dir / ("ck" + std::to_string(++n))).string();
    const std::string out = (dir / "killed.json").string();
    fs::remove(out);
    bool killed = false;
    ASSERT_NO_FATAL_FAILURE(
        kill_one_process_at(2, saving + " --checkpoint " + ck, ck, at_ms, killed));
    kills += killed ? 1 : 0;
    const bool saved = fs::exists(fs::path(ck) / "checkpoint.json");
    resumed += saved ? 1 : 0;
    const auto run =
        run_mpi(2, command + (saved ? " --resume " : " --checkpoint ") + ck + " --json " + out);
    ASSERT_EQ(run.status, 0) << "killed at " << at_ms << " ms: " << run.output;
    Json result = result_of(out);
    result.erase("resumed");
    EXPECT_EQ(result, result_of(dir / "alone.json")) << "killed at " << at_ms << " ms";
    for (const auto& entry : fs::directory_iterator(ck))  // a killed save's temporaries
      EXPECT_FALSE(entry.path().filename().string().ends_with(".partial")) << entry.path();
  }
  EXPECT_GT(kills, 0);    // at least one run was killed
  EXPECT_GT(resumed, 0);  // at least one kill came after a checkpoint
}

}  // namespace

// ------------------------------------------------ backtracking counts

namespace {

const std::string kData = CUBENUM_DATA_DIR;
// A short count (325 piece choices).
const std::string kShapeCount = "foam count --shape cuboid:2x1x1 --colours blue,green,red " +
                                kData + "/foam/happy-cube-original.txt";
// A longer count (11,155 piece choices): long enough for kills
// to land inside the search.
const std::string kLongerShapeCount =
    "foam count --shape cuboid:2x1x1 --colours blue,green,red,yellow " + kData +
    "/foam/happy-cube-original.txt";

// A count's JSON without what differs between runs of the same count.
Json counts_of(const fs::path& json) {
  Json j = result_of(json);
  j.erase("resumed");
  for (Json& r : j["results"]) {
    r.erase("seconds");
    r.erase("count_seconds");
  }
  return j;
}

bool has_part(const fs::path& ck) {
  if (!fs::exists(ck)) return false;
  for (const auto& entry : fs::directory_iterator(ck))
    if (fs::exists(entry.path() / "checkpoint.json")) return true;
  return false;
}

// The subtrees dealt to the processes from one counter: every count the
// same at every process count (a pool over shapes, a shape, several
// searches in one run, piece choices).
TEST(DistributedCounts, FoamCountsAreTheOneProcessOnes) {
  const fs::path dir = cubenum::testing::scratch("distributed-foam");
  const std::string sets = kData + "/foam/happy-cube-original.txt " + kData +
                           "/foam/happy-cube-marble.txt " + kData + "/foam/happy-cube-micro.txt";
  const std::vector<std::string> commands = {
      "foam count --challenge pool " + sets, kShapeCount, "foam count --challenge own " + sets,
      "foam count --challenge one-per-colour --by shape " + sets,
      kShapeCount + " --no-choices",  // no canonical forms: the sums by ties travel
      // by identity and by shape from one search: the counts by shape travel
      "foam count --by both --shape cuboid:2x1x1 --colours blue,green,red " + kData +
          "/foam/happy-cube-micro.txt"};
  for (const std::string& command : commands) {
    const auto alone = run_cubenum(command + " --json " + (dir / "alone.json").string());
    ASSERT_EQ(alone.status, 0) << alone.output;
    for (const int processes : {1, 2, 3, 4}) {
      const auto shared =
          run_mpi(processes, command + " --threads 1 --json " + (dir / "shared.json").string());
      ASSERT_EQ(shared.status, 0) << shared.output;
      EXPECT_EQ(counts_of(dir / "shared.json"), counts_of(dir / "alone.json"))
          << command << " on " << processes << " processes";
    }
  }
}

// Each process saves its own part, on its own schedule; a count stopped in
// slices goes on at any process count, and alone.
TEST(DistributedCounts, CheckpointedSlicesGoOnAtAnyProcessCount) {
  const fs::path dir = cubenum::testing::scratch("distributed-foam-slices");
  const auto alone = run_cubenum(kShapeCount + " --json " + (dir / "alone.json").string());
  ASSERT_EQ(alone.status, 0) << alone.output;
  const std::string ck = (dir / "ck").string(), out = (dir / "sliced.json").string();
  double limit = alone.seconds / 40;  // a fifth longer each slice
  const auto slice = [&] {
    limit *= 1.2;
    return " --threads 1 --checkpoint-every 0.01 --time-limit " + std::to_string(limit) +
           " --json " + out;
  };
  auto run = run_mpi(2, kShapeCount + " --checkpoint " + ck + slice());
  ASSERT_EQ(run.status, 4) << run.output;
  EXPECT_FALSE(fs::exists(out));
  int slices = 1;
  while (run.status == 4 && slices < 40) {
    const int processes = 1 + slices % 3;  // 2, 3, 1, 2, ...
    run = processes == 1 ? run_cubenum(kShapeCount + " --resume " + ck + slice())
                         : run_mpi(processes, kShapeCount + " --resume " + ck + slice());
    ASSERT_TRUE(run.status == 0 || run.status == 4) << run.output;
    ++slices;
    // The first process folded the earlier parts into its own.
    for (const auto& entry : fs::directory_iterator(ck))
      EXPECT_TRUE(
          entry.path().filename().string().starts_with("part.s" + std::to_string(slices) + ".p"))
          << entry.path();
  }
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_GT(slices, 3);
  RecordProperty("slices", slices);
  EXPECT_EQ(counts_of(out), counts_of(dir / "alone.json"));
}

// SIGKILL to one process of a count under mpirun (saving after every
// subtree), at several moments (fractions of the run's time, and the
// moment the first part is committed: a kill after a save however fast the
// machine); mpirun ends the others. Resumed on two processes, or started
// afresh when no part was saved, the count is the one-process count.
TEST(DistributedCounts, OneProcessKilledAtAnyMomentResumesToTheSameCount) {
  const fs::path dir = cubenum::testing::scratch("distributed-foam-kill");
  const std::string& count = kLongerShapeCount;
  const auto alone = run_cubenum(count + " --json " + (dir / "alone.json").string());
  ASSERT_EQ(alone.status, 0) << alone.output;
  const std::string saving = count + " --threads 1 --checkpoint-every 0";
  std::vector<int> moments = moments_ms(3, saving, (dir / "ck").string(), {0.02, 0.1, 0.25, 0.4});
  moments.push_back(-1);  // at the first part
  int resumed = 0, kills = 0, n = 0;
  for (const int at_ms : moments) {
    const std::string ck = (dir / ("ck" + std::to_string(++n))).string();
    const std::string out = (dir / "killed.json").string();
    const std::string when = at_ms < 0 ? "at the first part" : std::to_string(at_ms) + " ms";
    fs::remove(out);
    bool killed = false;
    const auto moment = [&ck, at_ms] {
      if (at_ms >= 0) return std::this_thread::sleep_for(std::chrono::milliseconds(at_ms));
      for (int waited = 0; !has_part(ck) && !processes_with(ck).empty() && waited < 60000; ++waited)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    };
    ASSERT_NO_FATAL_FAILURE(
        kill_one_process_when(3, saving + " --checkpoint " + ck, ck, moment, killed));
    kills += killed ? 1 : 0;
    const bool saved = has_part(ck);
    resumed += saved ? 1 : 0;
    const auto run = run_mpi(
        2, count + (saved ? " --resume " : " --checkpoint ") + ck + " --threads 1 --json " + out);
    ASSERT_EQ(run.status, 0) << "killed " << when << ": " << run.output;
    EXPECT_EQ(counts_of(out), counts_of(dir / "alone.json")) << "killed " << when;
    for (const auto& entry : fs::recursive_directory_iterator(ck))
      EXPECT_FALSE(entry.path().filename().string().ends_with(".partial")) << entry.path();
  }
  RecordProperty("kills", kills);
  RecordProperty("resumed", resumed);
  EXPECT_GT(kills, 0);
  EXPECT_GT(resumed, 0);
}

}  // namespace

namespace {

// A polycube count's subtrees dealt across processes: the same counts.
TEST(DistributedCounts, PolycubeCountsAreTheOneProcessOnes) {
  const fs::path dir = cubenum::testing::scratch("distributed-polycube");
  const std::string count = "polycube count " + kData + "/polycubes/pentomino-2x3x10.txt";
  const auto alone = run_cubenum(count + " --json " + (dir / "alone.json").string());
  ASSERT_EQ(alone.status, 0) << alone.output;
  const auto fields = [](const fs::path& json) {
    Json r = result_of(json)["results"][0];
    return Json{r["raw"], r["rotations"], r["symmetries"], r["burrtools"], r["nodes"]};
  };
  for (const int processes : {2, 3}) {
    const auto shared =
        run_mpi(processes, count + " --threads 1 --json " + (dir / "shared.json").string());
    ASSERT_EQ(shared.status, 0) << shared.output;
    EXPECT_EQ(fields(dir / "shared.json"), fields(dir / "alone.json")) << processes;
  }
}

// polycube count --disassemble: the count's subtrees are dealt to the
// processes' threads one at a time, each counted and the classes met in it
// taken apart there (each class once, by one process), the tallies
// gathered: the same assemblies,
// solutions and levels as one process, and BurrTools' count of solutions
// (the congruent cubes listed apart told apart, a second disassembly of
// its own classes) too. The puzzle: three unit cubes in the 3x3x3 room of
// tests/room_puzzle.hpp, the third listed apart (tests/disassembly_test.cpp
// has its counts from burrTxt and Burnside's lemma: 453 classes, 1269 as
// BurrTools counts, every one a solution, at 14 levels).
TEST(DistributedCounts, PolycubeDisassemblyIsTheOneProcessOne) {
  const fs::path dir = cubenum::testing::scratch("distributed-disassembly");
  const std::string file = (dir / "room.txt").string();
  cubenum::testing::write(file, cubenum::testing::room_puzzle(
                                    "room", 3, "piece C 2\ncube 0 0 0\npiece D\ncube 0 0 0\n"));
  const std::string count = "polycube count " + file + " --disassemble";
  const auto alone = run_cubenum(count + " --json " + (dir / "alone.json").string());
  ASSERT_EQ(alone.status, 0) << alone.output;
  const auto result = cubenum::testing::room_result<Json>;
  const Json one = result(dir / "alone.json");
  ASSERT_EQ(one["solutions"]["symmetries"], 453);
  ASSERT_EQ(one["solutions"]["burrtools"], 1269);
  // "...: 3 processes: classes decided by each 150, 148, 155": their sum.
  const auto decided = [](const std::string& output, const std::string& what) {
    const std::string said = what + ": ";
    const auto at = output.find(said);
    if (at == std::string::npos) return -1;
    const auto by = output.find("decided by each ", at);
    std::istringstream shares(output.substr(by + 16, output.find('\n', by) - by - 16));
    int sum = 0;
    for (std::string share; std::getline(shares, share, ',');) sum += std::stoi(share);
    return sum;
  };
  for (const int processes : {2, 3}) {
    const auto shared = run_mpi(
        processes, count + " --threads 1 --verbose --json " + (dir / "shared.json").string());
    ASSERT_EQ(shared.status, 0) << shared.output;
    EXPECT_EQ(result(dir / "shared.json"), one) << processes;
    EXPECT_EQ(decided(shared.output, "room, disassembly"), 453) << shared.output;
    EXPECT_EQ(decided(shared.output, "room, disassembly, congruent pieces apart"), 1269)
        << shared.output;
  }
}

// polycube count --disassemble in time-limited slices on 2 processes, 3
// and 1 by turns: each process saves the subtrees it finished (counted,
// their classes taken apart) in its own part, and a resumed run, at any
// process count, takes up the others:
// the one-process result. The puzzle: four unit cubes in the 3x3x3 room
// of tests/room_puzzle.hpp, whose disassembly takes most of the run
// (tests/checkpoint_test.cpp has its counts from Burnside's lemma and
// burrTxt: 2451 classes at 31 levels).
TEST(DistributedCheckpoint, PolycubeDisassemblySlicesGoOnAtAnyProcessCount) {
  const fs::path dir = cubenum::testing::scratch("distributed-disassembly-slices");
  const std::string file = (dir / "room.txt").string();
  cubenum::testing::write(file,
                          cubenum::testing::room_puzzle("room", 3, "piece C 4\ncube 0 0 0\n"));
  const std::string count = "polycube count " + file + " --disassemble";
  const auto alone = run_cubenum(count + " --threads 1 --json " + (dir / "alone.json").string());
  ASSERT_EQ(alone.status, 0) << alone.output;
  const auto result = cubenum::testing::room_result<Json>;
  ASSERT_EQ(result(dir / "alone.json")["solutions"]["symmetries"], 2451);
  // The subtrees saved as finished, over every part, and of how many.
  const auto decided = [](const fs::path& ck) {
    std::pair<std::uint64_t, std::uint64_t> saved{0, 0};
    for (const auto& part : fs::directory_iterator(ck)) {
      const fs::path manifest = part.path() / "checkpoint.json";
      if (!fs::exists(manifest)) continue;
      std::ifstream in(manifest);
      const Json json = Json::parse(in);
      for (const Json& search : json["state"]["searches"])
        if (search["search"] == "problem 1, disassembly") {
          saved.first += search["finished"].get<int>();
          saved.second = search["subtrees"].get<int>();
        }
    }
    return saved;
  };
  const std::string ck = (dir / "ck").string(), out = (dir / "sliced.json").string();
  // From a tenth of the one-thread run, a fifth longer each slice.
  double limit = alone.seconds / 10;
  const auto slice = [&] {
    limit *= 1.2;
    return " --threads 1 --checkpoint-every 0.01 --time-limit " + std::to_string(limit) +
           " --json " + out;
  };
  auto run = run_mpi(2, count + " --checkpoint " + ck + slice());
  ASSERT_EQ(run.status, 4) << run.output;
  int slices = 1;
  bool part_decided = false;  // a slice stopped with some subtrees saved, not all
  while (run.status == 4 && slices < 30) {
    const auto [saved, subtrees] = decided(ck);
    part_decided = part_decided || (saved > 0 && saved < subtrees);
    const int processes = 1 + slices % 3;  // 2, 3, 1, 2, ...
    run = processes == 1 ? run_cubenum(count + " --resume " + ck + slice())
                         : run_mpi(processes, count + " --resume " + ck + slice());
    ASSERT_TRUE(run.status == 0 || run.status == 4) << run.output;
    ++slices;
  }
  ASSERT_EQ(run.status, 0) << run.output;
  RecordProperty("slices", slices);
  EXPECT_TRUE(part_decided) << "no slice stopped with some subtrees saved, not all";
  EXPECT_EQ(result(out), result(dir / "alone.json"));
}

// Ctrl-C under mpirun: the terminal sends SIGINT to every process of the
// run (and mpirun may pass it on again: a second signal within a second is
// the same request); each stops promptly and saves its part (the count,
// alone, runs for minutes: the signal always comes in the middle).
TEST(DistributedCounts, CtrlCStopsEveryProcessWithItsPart) {
  const fs::path dir = cubenum::testing::scratch("distributed-foam-sigint");
  const std::string ck = (dir / "ck").string(), log = (dir / "log.txt").string();
  const std::string count = "foam count --by both --shape cuboid:3x1x1 " + kData +
                            "/foam/happy-cube-marble.txt --threads 1";
  start_mpi(2, count + " --checkpoint " + ck, ck, log);
  std::this_thread::sleep_for(std::chrono::seconds(3));
  const std::vector<int> running = processes_with(ck);
  ASSERT_EQ(running.size(), 2U);
  for (const int pid : running) ::kill(pid, SIGINT);
  for (const int pid : running) ::kill(pid, SIGINT);  // the same Ctrl-C, passed on
  EXPECT_TRUE(all_ended(ck, 30)) << "the processes did not stop";
  const std::string output = cubenum::testing::read(log);
  const std::string said = "stopped by a signal";
  const auto first = output.find(said);
  ASSERT_NE(first, std::string::npos) << output;
  EXPECT_EQ(output.find(said, first + 1), std::string::npos) << output;
  for (const char* part : {"part.s1.p0", "part.s1.p1"})
    EXPECT_TRUE(fs::exists(fs::path(ck) / part / "checkpoint.json")) << part;
  // The parts are whole: a resumed slice reads both and stops again.
  const auto again = run_mpi(2, count + " --resume " + ck + " --time-limit 1");
  EXPECT_EQ(again.status, 4) << again.output;
  EXPECT_TRUE(contains(again.output, "2 saved parts")) << again.output;
}

}  // namespace
