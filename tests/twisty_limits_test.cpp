// Issue 33, point 5: definition spaces too big for the memory are refused at
// once, before any table is built, naming what they need; `twisty info`
// describes a space from its layout without building its tables. The
// reproducers are the issue's: one set of N distinct pieces, no twists, two
// moves, an N-cycle and a swap (every permutation is reachable). Expected
// values come from arithmetic on N! (the ranked states: all permutations;
// the BFS needs at least 2 bits a state), not from the code under test.
// Each program run is bounded (`timeout`, and `ulimit -v` where the
// unfixed program grew past gigabytes).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/puzzles/twisty.hpp"
#include "cubenum/puzzles/twisty_space.hpp"
#include "run_cubenum.hpp"
#include "scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
namespace tw = cubenum::twisty;
using cubenum::testing::contains;
using cubenum::testing::run_shell;
using cubenum::testing::scratch;
using cubenum::testing::write;

// pN: N distinct pieces; C takes each slot's piece to the slot before it
// (an N-cycle), S swaps the first two.
std::string cycle_and_swap(unsigned n) {
  std::string solved, cycle, swap;
  for (unsigned i = 1; i <= n; ++i) {
    solved += fmt::format(" {}", i);
    cycle += fmt::format(" {}", i % n + 1);
    swap += fmt::format(" {}", i == 1 ? 2 : i == 2 ? 1 : i);
  }
  return fmt::format(
      "Name P{0}\nSet PIECE {0} 1\nSolved\nPIECE\n{1}\nEnd\nMove C\nPIECE\n{2}\nEnd\n"
      "Move S\nPIECE\n{3}\nEnd\n",
      n, solved, cycle, swap);
}

fs::path reproducer(unsigned n) {
  const fs::path file = scratch(fmt::format("twisty-p{}", n)) / fmt::format("p{}.tws", n);
  write(file, cycle_and_swap(n));
  return file;
}

// The program under an address-space limit (KiB) and a time limit.
cubenum::testing::ProgramRun run_limited(unsigned kib, const std::string& args) {
  return run_shell(fmt::format("ulimit -v {}; timeout 60 {} {}", kib, CUBENUM_BINARY, args));
}

TEST(TwistyLimitsCli, InfoOfAHugeSpaceAnswersAtOnceWithoutItsTables) {
  // p14: 14! = 87,178,291,200 ranked states. `info` shows the layout
  // alone: building its tables (a context for each of its 726 million
  // rows) would not fit the address-space limit it runs under ("out of
  // memory").
  const fs::path file = reproducer(14);
  const auto run = run_limited(2'000'000, "twisty info " + file.string());
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "ranked states 87178291200 (the BFS needs")) << run.output;
  EXPECT_LT(run.seconds, 10) << run.output;
}

TEST(TwistyLimitsCli, BfsBeyondTheLayoutIsRefusedAtOnceWithWhatItNeeds) {
  // p16: 16! = 20,922,789,888,000 ranked states, at 2 bits a state
  // 5,230,697,472,000 bytes = 4.76 TiB. With columns of at most 2^16
  // states that is over 3 x 10^8 rows, and the layout the cost model
  // chooses (rows of 5! columns) has more than 2^32 - 1: refused at once,
  // not counted in 32 bits (which wrapped, and ran out of memory).
  const fs::path file = reproducer(16);
  const auto run = run_limited(2'000'000, "twisty bfs " + file.string() + " --memory 1");
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output,
                       "20922789888000 ranked states would need 4.76 TiB for the BFS "
                       "(2 bits a state)"))
      << run.output;
  EXPECT_TRUE(contains(run.output, "more than the 4294967295 rows cubenum lays out")) << run.output;
  EXPECT_LT(run.seconds, 10) << run.output;
  // p15 the same, for info too: 15! / 4 bytes = 304.47 GiB.
  const fs::path p15 = reproducer(15);
  for (const std::string action : {"info", "bfs"}) {
    const auto r = run_limited(2'000'000, "twisty " + action + " " + p15.string());
    EXPECT_EQ(r.status, 2) << action << ": " << r.output;
    EXPECT_TRUE(contains(r.output, "1307674368000 ranked states would need 304.47 GiB"))
        << r.output;
  }
}

TEST(TwistyLimitsCli, BfsBeyondMemoryIsRefusedBeforeTheTables) {
  // p13: 13! = 6,227,020,800 ranked states, at least 6227020800 / 4 bytes
  // = 1.45 GiB: more than --memory 1 (GiB). Refused as before, but before
  // its tables (8.6 million rows' contexts) are built. The same space is
  // refused by `solve --method table`, which needs the same depth table
  // (`solve` by itself then searches instead).
  const fs::path file = reproducer(13);
  for (const std::string action : {"bfs", "solve --method table --scramble S"}) {
    const auto run =
        run_limited(2'000'000, "twisty " + action + " " + file.string() + " --memory 1");
    EXPECT_EQ(run.status, 2) << action << ": " << run.output;
    EXPECT_TRUE(contains(run.output, "6227020800 ranked states need")) << run.output;
    EXPECT_TRUE(contains(run.output, "more than the 1.00 GiB that --memory allows")) << run.output;
  }
  const auto search =
      run_limited(2'000'000, "twisty solve --scramble S " + file.string() + " --memory 1 --json -");
  EXPECT_EQ(search.status, 0) << search.output;
  EXPECT_TRUE(contains(search.output, "\"method\": \"search\"")) << search.output;
  EXPECT_TRUE(contains(search.output, "\"length\": 1")) << search.output;
}

TEST(TwistyLimitsCli, AnAddressSpaceLimitIsMemoryNotAvailable) {
  // p12: 12! = 479,001,600 ranked states, at 2 bits a state 114.2 MiB, its
  // tables and counts more: over the 100 MiB that `ulimit -v 102400`
  // leaves (less what the program itself maps). Was: the tables built,
  // then "out of memory" (status 3). Over positions: by itself the BFS
  // would run over classes (the blocks of pieces its mirror keeps), which
  // fit in two bits a class.
  const fs::path file = reproducer(12);
  const auto run = run_limited(102'400, "twisty bfs " + file.string() + " --over positions");
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "479001600 ranked states need")) << run.output;
  EXPECT_TRUE(contains(run.output, "that the address-space limit (ulimit -v) leaves"))
      << run.output;
}

// ---- the library

tw::Definition parse(const std::string& text) {
  std::istringstream in(text);
  return tw::parse_definition(in, "test.tws");
}

// Bytes malloc holds now (its heap's blocks in use and its mapped blocks).
double held_bytes() {
  const struct mallinfo2 info = mallinfo2();
  return double(info.uordblks) + double(info.hblkhd);
}

TEST(TwistyLimits, TheTablesHoldNoMoreThanTheirBound) {
  // What the constructor leaves allocated (its tables) against table_bytes,
  // known before: on one thread, so that malloc's main heap holds it all.
  const std::string data = std::string(CUBENUM_SOURCE_DIR) + "/data/twisty/";
  struct Case {
    tw::Definition def;
    tw::MoveChoice moves;
    std::uint32_t max_columns;
  };
  const std::vector<Case> cases = {
      {tw::load_definition(data + "pocket-cube.tws"), {}, 1U << 16},
      {tw::load_definition(data + "pocket-cube.tws"), {{"U", "F", "R"}, false}, 1U << 16},
      {tw::load_definition(data + "pocket-cube.tws"), {{"U", "R"}, true}, 100},
      {tw::load_definition(data + "tiles-3x3.tws"), {}, 1U << 16},
      {tw::load_definition(data + "tower-2x3x2.tws"), {}, 1U << 16},
      {parse(cycle_and_swap(10)), {}, 1U << 16},
      {parse(cycle_and_swap(11)), {}, 1U << 16},
  };
  const cubenum::OneThread one;
  for (const Case& c : cases) {
    tw::SpaceOptions options;
    options.max_columns = c.max_columns;
    // What the space holds without its tables (the definition, the orbits).
    options.tables = false;
    double layout = held_bytes();
    {
      const tw::TwistySpace laid_out(c.def, tw::expand_moves(c.def, c.moves), options);
      layout = held_bytes() - layout;
    }
    options.tables = true;
    std::uint64_t bound = 0;
    options.before_tables = [&](const tw::TwistySpace& laid_out) {
      bound = laid_out.table_bytes();
    };
    const double before = held_bytes() + layout;
    const tw::TwistySpace space(c.def, tw::expand_moves(c.def, c.moves), options);
    SCOPED_TRACE(c.def.name + ": " + space.notes().back());
    EXPECT_EQ(bound, space.table_bytes());
    EXPECT_GT(held_bytes() - before, 0);
    EXPECT_LE(held_bytes() - before, double(bound));
    // Every column permutation built, and every network routed, as a
    // search may.
    std::vector<std::uint64_t> in(space.permute_words(), ~std::uint64_t{0});
    std::vector<std::uint64_t> out(space.permute_words());
    for (std::uint32_t r = 0; r < space.rows(); ++r)
      for (int m = 0; m < space.moves(); ++m) {
        space.action(r, m);
        const std::uint32_t id = space.action_id(r, m);
        if (space.permute_nanoseconds() < 1e300 && id != cubenum::bfs::kIdentityAction)
          space.permute(id, in.data(), out.data());
      }
    EXPECT_LE(held_bytes() - before, double(bound));
  }
}

TEST(TwistyLimits, ALayoutAloneBuildsNoTables) {
  // p14 laid out: the callback sees the layout (14! states) before any
  // table, and without tables the space still ranks positions.
  const tw::Definition def = parse(cycle_and_swap(14));
  tw::SpaceOptions options;
  options.tables = false;
  std::uint64_t seen = 0;
  options.before_tables = [&](const tw::TwistySpace& laid_out) { seen = laid_out.size(); };
  const double before = held_bytes();
  const tw::TwistySpace space(def, tw::expand_moves(def, {}), options);
  EXPECT_EQ(seen, 87178291200U);
  EXPECT_EQ(space.size(), 87178291200U);
  EXPECT_LT(held_bytes() - before, 1 << 20);
  EXPECT_EQ(space.rank(def.solved), space.solved_rank());
  EXPECT_EQ(space.unrank(space.solved_rank()), def.solved);
  // A callback that throws refuses the space.
  options.tables = true;
  options.before_tables = [](const tw::TwistySpace&) { throw cubenum::InputError("too big"); };
  EXPECT_THROW({ const tw::TwistySpace refused(def, tw::expand_moves(def, {}), options); },
               cubenum::InputError);
}

}  // namespace
