// The report is the project's signature (docs/DESIGN.md): every count of
// `cubenum report` must equal the committed results/*.json, so that a
// change that alters a count fails CI. Times, thread counts and the machine
// are left aside. The whole report runs in a few seconds.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "run_cubenum.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// The JSON without what depends on the machine or the run: "machine",
// "threads", "seconds" and every "*_seconds".
Json counts(const Json& value) {
  if (value.is_array()) {
    Json out = Json::array();
    for (const Json& v : value) out.push_back(counts(v));
    return out;
  }
  if (!value.is_object()) return value;
  Json out = Json::object();
  for (const auto& [key, v] : value.items())
    if (key != "machine" && key != "threads" && key != "seconds" && !key.ends_with("_seconds"))
      out[key] = counts(v);
  return out;
}

Json load(const fs::path& path) {
  std::ifstream in(path);
  return Json::parse(in);
}

TEST(Signature, ReportCountsEqualTheCommittedResults) {
  const fs::path out = fs::path(::testing::TempDir()) / "cubenum-signature";
  fs::remove_all(out);
  const auto run = cubenum::testing::run_cubenum("report --threads 2 --out " + out.string());
  ASSERT_EQ(run.status, 0) << run.output;
  const fs::path committed = fs::path(CUBENUM_SOURCE_DIR) / "results";
  int files = 0;
  for (const auto& entry : fs::directory_iterator(out)) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    const fs::path expected = committed / entry.path().filename();
    ASSERT_TRUE(fs::exists(expected)) << expected << " is not committed";
    const Json made = counts(load(entry.path())), kept = counts(load(expected));
    ASSERT_EQ(made["runs"].size(), kept["runs"].size()) << expected;
    for (std::size_t i = 0; i < made["runs"].size(); ++i)
      EXPECT_EQ(made["runs"][i], kept["runs"][i])
          << expected.filename() << ": " << made["runs"][i]["command"] << " counts differently";
  }
  EXPECT_EQ(files, 6) << "the report's puzzles: pocket cube, rolling cubes, foam, nine-colour "
                         "cube, sudoku cube, polycubes";
  // It ends with each puzzle's headline: the pocket cube's 3,674,160
  // positions and God's numbers 14 (QTM) and 11 (HTM) are published
  // (jaapsch.net, OEIS A079761/A079762), so is Soma's 240 (Winning Ways).
  for (const char* headline :
       {"  pocket-cube:      3,674,160 positions, God's number 14 qtm, 11 htm;",
        "  polycube:         Soma cube 240,"})
    EXPECT_NE(run.output.find(headline), std::string::npos) << headline << "\n" << run.output;
  // The runs' own notes (a pool counted over shapes) only with --verbose.
  EXPECT_EQ(run.output.find("cubenum: note:"), std::string::npos) << run.output;
}

}  // namespace
