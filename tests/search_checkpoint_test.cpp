// Checkpoints of the backtracking counts (search/subtree_checkpoint.hpp,
// `foam count --checkpoint / --resume / --time-limit`): a count stopped or
// killed at any moment and continued gives exactly the uninterrupted
// count; a checkpoint of another count, or damaged, is refused.
//
// The expected counts are the uninterrupted run's (the foam tests check
// those against hand-checked, published and naive counts); the skeleton's
// own test below checks a dealt, resumed sum against a plain loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cubenum/core/byte_io.hpp"
#include "cubenum/search/plate_assembly.hpp"
#include "cubenum/search/split_search.hpp"
#include "run_cubenum.hpp"
#include "scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using cubenum::testing::contains;
using cubenum::testing::run_cubenum;
using cubenum::testing::run_until;
using Json = nlohmann::json;

const std::string kData = CUBENUM_DATA_DIR;
// 1,496 subtrees, about 0.2 s on 2 threads.
const std::string kShape = "foam count --shape cuboid:2x1x1 --colours blue,green " + kData +
                           "/foam/happy-cube-original.txt";
// Five searches, one per set, 3 to 30 ms each.
const std::string kOwn =
    "foam count --challenge one-per-colour " + kData + "/foam/happy-cube-original.txt " + kData +
    "/foam/happy-cube-marble.txt " + kData + "/foam/happy-cube-micro.txt " + kData +
    "/foam/happy-cube-profi.txt " + kData + "/foam/happy-cube-little-genius.txt";

fs::path scratch(const std::string& name) {
  return cubenum::testing::scratch("search-checkpoint-" + name);
}

// The counts, without what differs between runs.
Json counts_of(const fs::path& json) {
  std::ifstream in(json);
  Json j = Json::parse(in);
  for (const char* field : {"seconds", "threads", "resumed"}) j.erase(field);
  for (Json& r : j["results"]) {
    r.erase("seconds");
    r.erase("count_seconds");
  }
  return j;
}

Json uninterrupted(const std::string& command, const fs::path& dir) {
  const auto run = run_cubenum(command + " --json " + (dir / "whole.json").string());
  EXPECT_EQ(run.status, 0) << run.output;
  return counts_of(dir / "whole.json");
}

bool has_part(const fs::path& ck) {
  if (!fs::exists(ck)) return false;
  for (const auto& entry : fs::directory_iterator(ck))
    if (fs::exists(entry.path() / "checkpoint.json")) return true;
  return false;
}

// The folders in the checkpoint folder (parts, committed or not).
std::vector<std::string> parts_in(const fs::path& ck) {
  std::vector<std::string> parts;
  for (const auto& entry : fs::directory_iterator(ck))
    parts.push_back(entry.path().filename().string());
  std::sort(parts.begin(), parts.end());
  return parts;
}

std::uintmax_t bytes_in(const fs::path& ck) {
  std::uintmax_t bytes = 0;
  for (const auto& entry : fs::recursive_directory_iterator(ck))
    if (entry.is_regular_file()) bytes += entry.file_size();
  return bytes;
}

// Runs `command` in slices of `limit` seconds (a tenth longer each time,
// so that a slab of work longer than the limit is passed in the end) until
// it completes; returns the number of slices.
int in_slices(const std::string& command, const std::string& ck, const std::string& out,
              double limit, const std::string& every = "0") {
  const auto slice = [&] {
    limit *= 1.1;
    return " --checkpoint-every " + every + " --time-limit " + std::to_string(limit) + " --json " +
           out;
  };
  auto run = run_cubenum(command + " --checkpoint " + ck + slice());
  int slices = 1;
  while (run.status == 4 && slices < 100) {
    EXPECT_TRUE(contains(run.output, "--resume " + ck)) << run.output;
    EXPECT_FALSE(fs::exists(out));  // no result of a stopped run
    // On 1 thread and on 2 by turns: a checkpoint does not depend on them.
    const std::string threads = slices % 2 == 0 ? " --threads 2" : " --threads 1";
    run = run_cubenum(command + threads + " --resume " + ck + slice());
    ++slices;
    // The resumed run folded the earlier part into its own.
    EXPECT_EQ(parts_in(ck), std::vector<std::string>{"part.s" + std::to_string(slices) + ".p0"});
  }
  EXPECT_EQ(run.status, 0) << run.output;
  return slices;
}

TEST(SearchCheckpoint, ShapeCountInTimeLimitedSlicesGivesTheUninterruptedCount) {
  const fs::path dir = scratch("shape-slices");
  const Json whole = uninterrupted(kShape, dir);
  const std::string ck = (dir / "ck").string(), out = (dir / "sliced.json").string();
  EXPECT_GT(in_slices(kShape, ck, out, 0.04), 2);
  EXPECT_EQ(counts_of(out), whole);
  std::ifstream in(out);
  EXPECT_TRUE(Json::parse(in).value("resumed", false));
}

TEST(SearchCheckpoint, CountWithoutChoicesInSlicesGivesTheUninterruptedCount) {
  const fs::path dir = scratch("no-choices-slices");
  const std::string command = kShape + " --no-choices";
  const Json whole = uninterrupted(command, dir);
  const std::string ck = (dir / "ck").string(), out = (dir / "sliced.json").string();
  EXPECT_GT(in_slices(command, ck, out, 0.04), 2);
  EXPECT_EQ(counts_of(out), whole);
}

// By identity and by shape from one search: the counts by shape are saved
// in the tallies too. Micro's three colours hold congruent pieces.
TEST(SearchCheckpoint, CountByBothInSlicesGivesTheUninterruptedCounts) {
  const fs::path dir = scratch("both-slices");
  const std::string command =
      "foam count --by both --shape cuboid:2x1x1 --colours blue,green,red " + kData +
      "/foam/happy-cube-micro.txt";
  const Json whole = uninterrupted(command, dir);
  ASSERT_EQ(whole["results"].size(), 2U);
  const std::string ck = (dir / "ck").string(), out = (dir / "sliced.json").string();
  EXPECT_GT(in_slices(command, ck, out, 0.1), 2);
  EXPECT_EQ(counts_of(out), whole);
}

// Many slices of a count with piece choices: one part at the end, of at
// most twice the bytes of an uninterrupted count's checkpoint (the earlier
// sessions' selections once, and the last session's, each a subset of the
// whole count's). Unfolded, each session kept its own copy of what the
// sessions share.
TEST(SearchCheckpoint, ManySlicesKeepOnePartOfBoundedSize) {
  const fs::path dir = scratch("many-slices");
  const std::string command =
      "foam count --by both --shape cuboid:2x1x1 --colours blue,green,red " + kData +
      "/foam/happy-cube-micro.txt";
  const std::string whole_ck = (dir / "whole").string(), out = (dir / "sliced.json").string();
  const auto whole = run_cubenum(command + " --checkpoint " + whole_ck + " --json " +
                                 (dir / "whole.json").string());
  ASSERT_EQ(whole.status, 0) << whole.output;
  const std::string ck = (dir / "ck").string();
  EXPECT_GT(in_slices(command, ck, out, 0.01, "0.005"), 5);
  EXPECT_EQ(counts_of(out), counts_of(dir / "whole.json"));
  EXPECT_LE(bytes_in(ck), 2 * bytes_in(whole_ck));
}

// A kill after the folding part was committed and before the parts it
// folds were removed: they are skipped, not counted twice, and go.
TEST(SearchCheckpoint, PartsFoldedButNotRemovedAreSkipped) {
  const fs::path dir = scratch("folded-left");
  const Json whole = uninterrupted(kShape, dir);
  const std::string ck = (dir / "ck").string(), out = (dir / "after.json").string();
  const std::string slice = " --threads 1 --checkpoint-every 0 --time-limit 0.1";
  ASSERT_EQ(run_cubenum(kShape + " --checkpoint " + ck + slice).status, 4);
  fs::copy(fs::path(ck) / "part.s1.p0", dir / "part.s1.p0");
  ASSERT_EQ(run_cubenum(kShape + " --resume " + ck + slice).status, 4);
  ASSERT_EQ(parts_in(ck), std::vector<std::string>{"part.s2.p0"});
  fs::copy(dir / "part.s1.p0", fs::path(ck) / "part.s1.p0");  // as if not yet removed
  const auto run = run_cubenum(kShape + " --resume " + ck + " --json " + out);
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "1 saved part")) << run.output;
  EXPECT_EQ(counts_of(out), whole);
  EXPECT_EQ(parts_in(ck), std::vector<std::string>{"part.s3.p0"});
}

TEST(SearchCheckpoint, SeveralSearchesInSlicesGiveTheUninterruptedCounts) {
  const fs::path dir = scratch("own-slices");
  const Json whole = uninterrupted(kOwn, dir);
  const std::string ck = (dir / "ck").string(), out = (dir / "sliced.json").string();
  EXPECT_GT(in_slices(kOwn, ck, out, 0.01, "0.005"), 1);
  EXPECT_EQ(counts_of(out), whole);
}

// SIGKILL at several moments: during the search, during saves (one after
// every subtree, each flushed to disk); resumed, or started afresh when
// the kill came before the first save.
TEST(SearchCheckpoint, KilledAtAnyMomentResumesToTheSameCount) {
  const fs::path dir = scratch("kill");
  const Json whole = uninterrupted(kShape, dir);
  int resumed = 0;
  for (const double at : {0.02, 0.05, 0.1, 0.2, 0.4}) {
    const std::string ck = (dir / ("ck" + std::to_string(at))).string();
    const std::string out = (dir / "killed.json").string();
    fs::remove(out);
    run_until("KILL", at, kShape + " --threads 2 --checkpoint " + ck + " --checkpoint-every 0");
    const bool saved = has_part(ck);
    resumed += saved ? 1 : 0;
    const auto run =
        run_cubenum(kShape + (saved ? " --resume " : " --checkpoint ") + ck + " --json " + out);
    ASSERT_EQ(run.status, 0) << "killed at " << at << " s: " << run.output;
    EXPECT_EQ(counts_of(out), whole) << "killed at " << at << " s";
    for (const auto& entry : fs::recursive_directory_iterator(ck))  // a killed save's temporaries
      EXPECT_FALSE(entry.path().filename().string().ends_with(".partial")) << entry.path();
  }
  EXPECT_GT(resumed, 0);
}

// Stopped before any subtree finished (a time limit shorter than the
// set-up): the folder still holds a part, and --resume goes on from it.
TEST(SearchCheckpoint, StoppedBeforeTheFirstSubtreeResumes) {
  const fs::path dir = scratch("stopped-at-once");
  const Json whole = uninterrupted(kShape, dir);
  const std::string ck = (dir / "ck").string(), out = (dir / "after.json").string();
  const auto stopped = run_cubenum(kShape + " --checkpoint " + ck + " --time-limit 0.000001");
  ASSERT_EQ(stopped.status, 4) << stopped.output;
  EXPECT_TRUE(has_part(ck));
  const auto run = run_cubenum(kShape + " --resume " + ck + " --json " + out);
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(counts_of(out), whole);
}

TEST(SearchCheckpoint, CtrlCStopsWithACheckpoint) {
  const fs::path dir = scratch("sigint");
  const Json whole = uninterrupted(kShape, dir);
  const std::string ck = (dir / "ck").string(), out = (dir / "after.json").string();
  // Saves after every subtree make the count last past the signal; a
  // signal before the handler is installed ends it (130): try later.
  int status = 130;
  for (double at = 0.05; status == 130 && at < 2; at *= 2) {
    fs::remove_all(ck);
    status =
        run_until("INT", at, kShape + " --threads 1 --checkpoint " + ck + " --checkpoint-every 0");
  }
  ASSERT_EQ(status, 4) << "0: the count ended before the signal";
  ASSERT_TRUE(has_part(ck));
  const auto run = run_cubenum(kShape + " --resume " + ck + " --json " + out);
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(counts_of(out), whole);
}

class SearchCheckpointRefused : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch(::testing::UnitTest::GetInstance()->current_test_info()->name());
    ck_ = (dir_ / "ck").string();
    const auto run = run_cubenum(kShape + " --threads 1 --checkpoint " + ck_ +
                                 " --checkpoint-every 0 --time-limit 0.05");
    ASSERT_EQ(run.status, 4) << run.output;
    ASSERT_TRUE(has_part(ck_));
  }
  fs::path ledger() const {
    for (const auto& entry : fs::recursive_directory_iterator(ck_))
      if (entry.path().filename().string().starts_with("ledger.")) return entry.path();
    return {};
  }
  fs::path dir_;
  std::string ck_;
};

TEST_F(SearchCheckpointRefused, AnotherCount) {
  const auto run = run_cubenum("foam count --shape cuboid:2x1x1 --colours blue,red " + kData +
                               "/foam/happy-cube-original.txt --resume " + ck_);
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "of another run: colours is [\"blue\",\"green\"] there"))
      << run.output;
  const auto by_shape = run_cubenum(kShape + " --by shape --resume " + ck_);
  EXPECT_EQ(by_shape.status, 2) << by_shape.output;
  EXPECT_TRUE(contains(by_shape.output, "by is \"identity\" there, \"shape\" here"))
      << by_shape.output;
  // Its tallies hold the piece choices; a count without them saves none.
  const auto no_choices = run_cubenum(kShape + " --no-choices --resume " + ck_);
  EXPECT_EQ(no_choices.status, 2) << no_choices.output;
  EXPECT_TRUE(contains(no_choices.output, "piece_choices")) << no_choices.output;
}

TEST_F(SearchCheckpointRefused, AFolderWithACheckpointWithoutResume) {
  const auto run = run_cubenum(kShape + " --checkpoint " + ck_);
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "holds a checkpoint already")) << run.output;
}

TEST_F(SearchCheckpointRefused, ACorruptOrTruncatedLedger) {
  const fs::path file = ledger();
  ASSERT_FALSE(file.empty());
  const std::string bytes = cubenum::testing::read(file);
  std::string flipped = bytes;
  flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x04);
  cubenum::testing::write(file, flipped);
  auto run = run_cubenum(kShape + " --resume " + ck_);
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "corrupt: its checksum (XXH3)")) << run.output;
  cubenum::testing::write(file, bytes.substr(0, bytes.size() - 3));
  run = run_cubenum(kShape + " --resume " + ck_);
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "truncated")) << run.output;
}

TEST(SearchCheckpoint, OptionsThatNeedACheckpointOrAreOfAnotherKind) {
  const fs::path dir = scratch("options");
  auto run = run_cubenum(kOwn + " --time-limit 5");
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "--checkpoint DIR")) << run.output;
  run = run_cubenum(kOwn + " --checkpoint-every 5");
  EXPECT_EQ(run.status, 2) << run.output;
  run = run_cubenum(kOwn + " --resume " + dir.string());
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "holds no checkpoint")) << run.output;
  // A rolling cubes checkpoint is not a count's.
  const std::string ck = (dir / "rolling").string();
  run = run_cubenum("rolling-cubes bfs --rows 2 --cols 3 --checkpoint " + ck +
                    " --checkpoint-every 0 --time-limit 0.000001");
  ASSERT_EQ(run.status, 4) << run.output;
  run = run_cubenum(kOwn + " --resume " + ck);
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "another kind of run")) << run.output;
}

// The skeleton: subtrees dealt from a counter, some finished before (a
// resumed run), each finished one reported once; the sum is the plain
// loop's.
TEST(SearchCheckpoint, DealtSubtreesSkipThoseFinishedBeforeAndReportEachOnce) {
  std::vector<std::uint64_t> prefixes(1000);
  std::iota(prefixes.begin(), prefixes.end(), 1);
  std::vector<std::uint32_t> pending;
  std::uint64_t expected = 0;
  for (std::uint32_t i = 0; i < prefixes.size(); ++i)
    if (i % 3 != 0) {
      pending.push_back(i);
      expected += prefixes[i] * prefixes[i];
    }
  std::mutex mutex;
  std::vector<int> reported(prefixes.size(), 0);
  cubenum::search::SubtreeRun<std::uint64_t> run;
  run.pending = pending;
  run.finished = [&](std::uint32_t s, const std::uint64_t& tally) {
    std::lock_guard lock(mutex);
    ++reported[s];
    EXPECT_EQ(tally, prefixes[s] * prefixes[s]);
  };
  const auto sum = cubenum::search::search_subtrees<std::uint64_t, std::uint64_t>(
      prefixes, [](std::uint64_t p, std::uint64_t& local) { local += p * p; }, run);
  EXPECT_EQ(sum, expected);
  for (std::uint32_t i = 0; i < prefixes.size(); ++i) EXPECT_EQ(reported[i], i % 3 != 0 ? 1 : 0);
}

// The flat selection set against std::set: the same answers to every
// insert, the same size, merges and equality, through several growths.
TEST(SelectionSet, AgreesWithStdSet) {
  std::mt19937_64 random(7);
  cubenum::search::SelectionSet flat, other;
  std::set<std::vector<std::uint16_t>> plain, plain_other;
  for (int i = 0; i < 20000; ++i) {
    std::vector<std::uint16_t> key(5);
    for (auto& kind : key) kind = static_cast<std::uint16_t>(random() % 6);
    std::sort(key.begin(), key.end());
    const bool mine = i % 3 == 0;
    EXPECT_EQ((mine ? other : flat).insert(key), (mine ? plain_other : plain).insert(key).second);
  }
  EXPECT_EQ(flat.size(), plain.size());
  EXPECT_FALSE(flat == other);
  flat.merge(other);
  plain.insert(plain_other.begin(), plain_other.end());
  EXPECT_EQ(flat.size(), plain.size());
  std::size_t seen = 0;
  flat.for_each([&](std::span<const std::uint16_t> key) {
    seen += plain.count({key.begin(), key.end()});
  });
  EXPECT_EQ(seen, plain.size());
  other.merge(flat);
  EXPECT_TRUE(flat == other);
  EXPECT_THROW(flat.insert(std::vector<std::uint16_t>{1, 2}), std::invalid_argument);
}

// Packed by the kinds' copies: the selections of a box of 36 distinct
// pieces on 24 faces (one bit a piece: one word), of 14 kinds of up to 6
// copies on 10 faces (counts, one word), of 192 kinds on 10 faces (the list,
// 8 bits a kind: two words). Random selections, given in random order,
// agree with a std::set of sorted lists, through merges with sets packed
// otherwise.
TEST(SelectionSet, PackedByCopiesAgreesWithStdSet) {
  using cubenum::search::SelectionSet;
  struct Case {
    std::vector<std::uint16_t> copies;
    std::size_t width, slot_bytes;
  };
  std::vector<Case> cases = {{std::vector<std::uint16_t>(36, 1), 24, 8},
                             {{6, 1, 2, 3, 1, 1, 4, 1, 5, 1, 2, 1, 3, 1}, 10, 8},
                             {std::vector<std::uint16_t>(192, 1), 10, 16}};
  std::mt19937_64 random(11);
  for (const Case& c : cases) {
    std::vector<std::uint16_t> pool;  // every copy of every kind
    for (std::size_t k = 0; k < c.copies.size(); ++k)
      pool.insert(pool.end(), c.copies[k], static_cast<std::uint16_t>(k));
    SelectionSet packed(c.copies), plain_packed, other(c.copies);
    std::set<std::vector<std::uint16_t>> expected;
    for (int i = 0; i < 5000; ++i) {
      std::shuffle(pool.begin(), pool.end(), random);
      std::vector<std::uint16_t> kinds(pool.begin(), pool.begin() + c.width);
      std::vector<std::uint16_t> sorted = kinds;
      std::sort(sorted.begin(), sorted.end());
      expected.insert(sorted);
      SelectionSet& into = i % 4 == 0 ? other : i % 4 == 1 ? plain_packed : packed;
      into.insert(kinds);
      EXPECT_TRUE(into.contains(kinds) && into.contains(sorted));
    }
    EXPECT_EQ(packed.slot_bytes(), c.slot_bytes);
    EXPECT_EQ(plain_packed.slot_bytes(), 8 * ((c.width + 3) / 4));  // 16 bits a kind
    packed.merge(plain_packed);      // the generic set's selections, packed
    packed.merge(std::move(other));  // packed alike: the larger kept
    EXPECT_EQ(packed.size(), expected.size());
    std::set<std::vector<std::uint16_t>> seen;
    packed.for_each([&](std::span<const std::uint16_t> kinds) {
      EXPECT_TRUE(std::is_sorted(kinds.begin(), kinds.end()));
      seen.insert({kinds.begin(), kinds.end()});
    });
    EXPECT_EQ(seen, expected);
    // A generic empty set takes the packed one's packing; it equals it.
    SelectionSet generic;
    generic.merge(packed);
    EXPECT_EQ(generic.slot_bytes(), c.slot_bytes);
    EXPECT_TRUE(generic == packed);
    // Kinds or copies beyond the set's, another length.
    std::vector<std::uint16_t> bad(pool.begin(), pool.begin() + c.width);
    bad[0] = static_cast<std::uint16_t>(c.copies.size());
    EXPECT_THROW(packed.insert(bad), std::invalid_argument);
    bad.assign(c.width, 0);
    EXPECT_THROW(packed.insert(bad), std::invalid_argument);  // more copies of kind 0
    bad.assign(c.width + 1, 0);
    EXPECT_THROW(packed.insert(bad), std::invalid_argument);
  }
}

// A tally's bytes give the tally back; damaged bytes are refused.
TEST(SearchCheckpoint, TalliesRoundTripAndDamageIsRefused) {
  cubenum::search::AssemblyTally t;
  t.raw = 123456789012;
  t.rotations = 5;
  t.symmetries = 3;
  t.subtrees_done = 17;
  t.list_limit = 2;
  t.selections.insert({1, 2, 3});
  t.selections.insert({0, 0, 4});
  t.listed.push_back({{1, 0}, {2, 7}, {3, 4}});
  const auto bytes = t.encode();
  const auto back = cubenum::search::AssemblyTally::decode(bytes, "test");
  EXPECT_EQ(back.raw, t.raw);
  EXPECT_EQ(back.rotations, t.rotations);
  EXPECT_EQ(back.symmetries, t.symmetries);
  EXPECT_EQ(back.subtrees_done, t.subtrees_done);
  EXPECT_EQ(back.list_limit, t.list_limit);
  EXPECT_TRUE(back.complete);
  EXPECT_EQ(back.selections, t.selections);
  EXPECT_EQ(back.listed, t.listed);
  EXPECT_TRUE(back.raw_by_ties.empty());
  // The sums by ties of a count without canonical forms come after the rest:
  // a tally without them (saved before they were) reads as it did.
  t.raw_by_ties = {0, 11, 0, 13};
  EXPECT_EQ(cubenum::search::AssemblyTally::decode(t.encode(), "test").raw_by_ties, t.raw_by_ties);
  // The counts by shape (--by both) after them, with the sums by ties or without.
  EXPECT_FALSE(back.by_shape.has_value());
  for (const bool ties : {true, false}) {
    if (!ties) t.raw_by_ties.clear();
    t.by_shape = cubenum::search::AssemblyTally::Counts{77, 11, 6, 0};
    const auto again = cubenum::search::AssemblyTally::decode(t.encode(), "test");
    ASSERT_TRUE(again.by_shape.has_value());
    EXPECT_EQ(again.by_shape->raw, 77U);
    EXPECT_EQ(again.by_shape->rotations, 11U);
    EXPECT_EQ(again.by_shape->symmetries, 6U);
    EXPECT_EQ(again.raw_by_ties, t.raw_by_ties);
  }
  for (std::size_t cut : {std::size_t{0}, std::size_t{3}, bytes.size() - 1})
    EXPECT_THROW(cubenum::search::AssemblyTally::decode({bytes.data(), cut}, "test"),
                 std::runtime_error);
  auto longer = bytes;
  longer.push_back(std::byte{0});
  EXPECT_THROW(cubenum::search::AssemblyTally::decode(longer, "test"), std::runtime_error);
}

// A tally keeps its selections packed (a word a selection of 4 of 40
// distinct pieces); a key that is not a selection's packing, or one there
// twice, is refused; a tally saved before the packing ("ATLY": each
// selection a length and its kinds, written here by hand) reads as it did.
TEST(SearchCheckpoint, TalliesKeepSelectionsPackedAndReadTheOldOnes) {
  using cubenum::search::AssemblyTally;
  AssemblyTally t;
  t.raw = 99;
  t.selections = cubenum::search::SelectionSet(std::vector<std::uint16_t>(40, 1));
  const std::vector<std::vector<std::uint16_t>> selections = {{0, 1, 2, 3}, {5, 9, 20, 39}};
  for (const auto& s : selections) t.selections.insert(s);
  const auto bytes = t.encode();
  const auto back = AssemblyTally::decode(bytes, "test");
  EXPECT_EQ(back.selections, t.selections);
  EXPECT_EQ(back.selections.slot_bytes(), 8U);
  EXPECT_EQ(back.raw, 99U);
  // The keys are the last 16 bytes before the listed solutions' count (8)
  // and the end: [..., key 1, key 2, 0].
  const std::size_t second_key = bytes.size() - 8 - 8;
  auto damaged = bytes;
  damaged[second_key + 7] = std::byte{0x80};  // a 41st piece's bit: no such piece
  EXPECT_THROW(AssemblyTally::decode(damaged, "test"), std::runtime_error);
  auto twice = bytes;
  std::copy(bytes.begin() + second_key - 8, bytes.begin() + second_key, twice.begin() + second_key);
  EXPECT_THROW(AssemblyTally::decode(twice, "test"), std::runtime_error);

  cubenum::ByteWriter old;
  old.put(std::uint32_t{0x594c5441});                            // "ATLY"
  for (const std::uint64_t v : {99, 0, 0, 0, 1, 0}) old.put(v);  // raw ... list_limit
  old.put(std::uint64_t{selections.size()});
  for (const auto& s : selections) {
    old.put(std::uint64_t{s.size()});
    for (const std::uint16_t kind : s) old.put(kind);
  }
  old.put(std::uint64_t{0});  // no listed solutions
  const auto before = AssemblyTally::decode(old.out, "test");
  EXPECT_EQ(before.selections, t.selections);
  EXPECT_EQ(before.raw, 99U);
}

}  // namespace
