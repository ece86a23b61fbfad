// Checkpoints written by an earlier cubenum (tests/corpus/checkpoints/, made
// at commit 3343a76 as its README says) resume to the right counts; a tally
// of a format this build does not read is refused with both formats named.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cubenum/core/byte_io.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/search/plate_assembly.hpp"
#include "cubenum/search/tally_codec.hpp"
#include "run_cubenum.hpp"
#include "scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using cubenum::testing::run_cubenum;
using cubenum::testing::scratch;
using Json = nlohmann::json;

const std::string kSource = std::string(CUBENUM_SOURCE_DIR) + "/";

// A copy of a committed checkpoint (a resume saves into its folder).
std::string copy_of(const std::string& name) {
  const fs::path dir = scratch("compat-" + name) / name;
  fs::copy(kSource + "tests/corpus/checkpoints/" + name, dir, fs::copy_options::recursive);
  return dir.string();
}

Json counts(const std::string& args) {
  const auto run = run_cubenum(args + " --json -");
  EXPECT_EQ(run.status, 0) << args << ": " << run.output;
  const std::size_t json = run.output.find('{');
  return Json::parse(run.output.substr(json == std::string::npos ? 0 : json));
}

TEST(OldCheckpoints, PolycubeResumesToThePublishedCount) {
  // 1,396 of 9,358 subtrees finished. The 12 pentominoes tile the 5x12
  // rectangle in 1,010 ways up to its symmetries (Haselgrove and
  // Haselgrove, 1960); raw 4 x 1,010 (pieces' mirror images are pieces).
  const Json r = counts("polycube count " + kSource +
                        "data/polycubes/pentomino-5x12.txt --resume " + copy_of("pentomino-5x12"));
  EXPECT_EQ(r["resumed"], true);
  EXPECT_EQ(r["results"][0]["symmetries"], 1010);
  EXPECT_EQ(r["results"][0]["raw"], 4040);
}

TEST(OldCheckpoints, FoamResumesToTheCountOfAnUninterruptedRun) {
  // 88 of 1,412 subtrees finished, with their piece choices (a packed
  // selection set in each "ATL2" tally).
  const std::string count =
      "foam count --challenge pool --direct " + kSource + "data/foam/happy-cube-little-genius.txt";
  const Json resumed = counts(count + " --resume " + copy_of("foam-pool-little-genius"));
  const Json whole = counts(count);
  EXPECT_EQ(resumed["resumed"], true);
  for (const char* field : {"raw", "rotations", "symmetries", "piece_choices"})
    EXPECT_EQ(resumed["results"][0][field], whole["results"][0][field]) << field;
}

TEST(TallyFormat, AFormatThisBuildDoesNotReadIsRefusedByName) {
  cubenum::search::AssemblyTally tally;
  tally.raw = 7;
  std::vector<std::byte> bytes = tally.encode();
  EXPECT_EQ(cubenum::search::AssemblyTally::decode(bytes, "saved").raw, 7U);
  bytes[3] = std::byte{'9'};  // "ATL9"
  try {
    cubenum::search::AssemblyTally::decode(bytes, "saved");
    FAIL() << "a tally of format ATL9 was read";
  } catch (const cubenum::InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'ATL9'"), std::string::npos) << what;
    EXPECT_NE(what.find("ATL2"), std::string::npos) << what;
    EXPECT_NE(what.find("saved"), std::string::npos) << what;
  }
}

TEST(TallyFormat, NamesAreTheirFourLetters) {
  using cubenum::search::tally_format;
  EXPECT_EQ(tally_format("ATL2"), 0x324c5441U);  // the bytes 'A' 'T' 'L' '2', as saved before
  EXPECT_EQ(tally_format("PCTY"), 0x59544350U);
  EXPECT_EQ(cubenum::search::tally_format_name(tally_format("PCTY")), "PCTY");
  EXPECT_EQ(cubenum::search::tally_format_name(0x00015443U), "CT??");
}

}  // namespace
