// Fuzzing every parser: inputs from the corpus in tests/corpus/ (and, for
// the polycube text format, the puzzles in data/polycubes/), mutated by a
// seeded random mutator (bounded and deterministic, so CI runs the same
// inputs every time). Each parser must accept an input or throw InputError;
// any other exception fails here, and a crash or undefined behaviour stops
// the AddressSanitizer + UndefinedBehaviorSanitizer build that tools/test
// runs. CUBENUM_FUZZ_ITERATIONS=N runs N mutations per corpus file
// (default 400) for a longer search; every crash found becomes a test in
// hardening_test.cpp.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubenum/core/error.hpp"
#include "cubenum/puzzles/foam.hpp"
#include "cubenum/puzzles/foam_shape.hpp"
#include "cubenum/puzzles/pocket_cube.hpp"
#include "cubenum/puzzles/polycube.hpp"
#include "cubenum/puzzles/rolling_cubes.hpp"
#include "cubenum/puzzles/sudoku_cube.hpp"
#include "cubenum/puzzles/twisty.hpp"
#include "cubenum/search/voxel_cover.hpp"
#include "scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path kCorpus = fs::path(CUBENUM_SOURCE_DIR) / "tests" / "corpus";

std::size_t iterations() {
  const char* text = std::getenv("CUBENUM_FUZZ_ITERATIONS");
  return text != nullptr ? std::strtoull(text, nullptr, 10) : 400;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// What parsers trip on: signs, limits of int and unsigned, a BOM, NUL,
// separators, a long run, not-a-number.
const std::vector<std::string> kTokens = {"-1",
                                          "0",
                                          "2147483648",
                                          "4294967297",
                                          "99999999999999999999",
                                          "\xEF\xBB\xBF",
                                          {"\0", 1},
                                          "\n",
                                          " ",
                                          "#",
                                          "/",
                                          ".",
                                          "'",
                                          "2'",
                                          "nan",
                                          "1e308",
                                          std::string(300, 'x'),
                                          "End\n",
                                          "cube 100001 0 0\n",
                                          "65536"};

// One to four random edits: overwrite, insert a token, delete or repeat a
// range, swap two lines.
std::string mutate(std::string text, std::mt19937_64& random) {
  const auto below = [&](std::size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
  };
  for (std::size_t edits = 1 + below(4); edits-- > 0;) {
    const std::size_t at = below(text.size() + 1);
    switch (below(5)) {
      case 0:
        if (!text.empty()) text[below(text.size())] = static_cast<char>(below(256));
        break;
      case 1:
        text.insert(at, kTokens[below(kTokens.size())]);
        break;
      case 2:
        text.erase(at, below(16));
        break;
      case 3:
        text.insert(at, text.substr(below(text.size() + 1), below(64)));
        break;
      default: {
        std::vector<std::string> lines;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);) lines.push_back(line);
        if (lines.size() > 1) std::swap(lines[below(lines.size())], lines[below(lines.size())]);
        text.clear();
        for (const auto& line : lines) text += line + '\n';
      }
    }
  }
  return text;
}

using Parser = std::function<void(const std::string&)>;

// Runs `parse` on every file of `dir` (a folder of corpus/, or any other;
// only those `keep` keeps, where given) and on `iterations()` mutations of
// each (or, for a file of lines, of each line), or on `iterations() /
// share` where the files are near copies of each other; `transform` (if
// given) makes each file's text a seed of its own besides (a compressed
// copy...).
void fuzz(const fs::path& dir, bool by_line, const Parser& parse,
          const std::function<std::string(const std::string&)>& transform = {},
          std::size_t share = 1, const std::function<bool(const fs::path&)>& keep = {}) {
  const std::string folder = dir.filename().string();
  std::vector<std::string> seeds;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (keep && !keep(entry.path())) continue;
    if (transform) seeds.push_back(transform(read(entry.path())));
    const std::string text = read(entry.path());
    if (!by_line) {
      seeds.push_back(text);
      continue;
    }
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) seeds.push_back(line);
  }
  ASSERT_FALSE(seeds.empty()) << dir;
  std::mt19937_64 random(20261123);  // fixed: the same inputs on every run
  for (const std::string& seed : seeds)
    for (std::size_t i = 0; i <= iterations() / share; ++i) {
      const std::string input = i == 0 ? seed : mutate(seed, random);
      try {
        parse(input);
      } catch (const cubenum::InputError&) {
        // A clear error is the right answer to bad input.
      } catch (const std::exception& e) {
        FAIL() << folder << ": " << e.what() << " on input " << cubenum::excerpt(input, 2000);
      }
    }
}

TEST(Fuzz, FoamPieceSets) {
  fuzz(kCorpus / "foam", false, [](const std::string& text) {
    std::istringstream in(text);
    const auto set = cubenum::puzzles::parse_foam_set(in, "fuzz.txt", "fuzz");
    cubenum::puzzles::foam_problems(cubenum::puzzles::FoamChallenge::Own,
                                    cubenum::puzzles::FoamBy::Shape, {set}, false);
  });
}

TEST(Fuzz, FoamShapes) {
  fuzz(kCorpus / "shape", false, [](const std::string& text) {
    std::istringstream in(text);
    cubenum::puzzles::parse_foam_shape(in, "fuzz.txt", "fuzz");
  });
  // The cuboid form of --shape.
  fuzz(kCorpus / "lines", true, [](const std::string& text) {
    if (text.size() < 200) cubenum::puzzles::load_foam_shape("cuboid:" + text.substr(0, 12));
  });
}

TEST(Fuzz, SudokuInstances) {
  fuzz(kCorpus / "sudoku", false, [](const std::string& text) {
    std::istringstream in(text);
    cubenum::sudoku_cube::parse_instance(in, "fuzz.txt");
  });
}

TEST(Fuzz, TwistyDefinitions) {
  fuzz(kCorpus / "twisty", false, [](const std::string& text) {
    std::istringstream in(text);
    cubenum::twisty::parse_definition(in, "fuzz.tws");
  });
}

TEST(Fuzz, RollingCubeGrids) {
  fuzz(kCorpus / "lines", true, [](const std::string& text) {
    const auto grid = cubenum::rolling::parse_grid(text, "--start");
    const cubenum::rolling::RollingCubesSpace space(grid.rows, grid.cols);
    EXPECT_EQ(space.unrank(space.rank(grid)).cells, grid.cells) << text;
  });
}

TEST(Fuzz, ScramblesAndStickers) {
  fuzz(kCorpus / "lines", true,
       [](const std::string& text) { cubenum::pocket_cube::parse_turns(text); });
  fuzz(kCorpus / "lines", true,
       [](const std::string& text) { cubenum::pocket_cube::parse_stickers(text); });
}

// The polycube readers take a file: each input is written to one, in a
// folder of the test's own (ctest runs the tests at once).
std::string polycube_input() {
  const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  static std::map<std::string, std::string> paths;
  auto& path = paths[test];
  if (path.empty()) path = (cubenum::testing::scratch("fuzz-" + test) / "input").string();
  return path;
}

// What the engine makes of every problem read: the constructor only (the
// placements, the target's symmetries, the piece placed first), not the
// count, which may take long. It may refuse a problem with InputError (a
// bounding box over 4096 cells); as the program does, congruent pieces
// merged and, where some were, apart. A broken promise throws logic_error,
// which fuzz() reports with the input.
void set_up_cover(const cubenum::polycube::PuzzleFile& file) {
  const auto check = [](bool holds, const char* what) {
    if (!holds) throw std::logic_error(std::string("VoxelCover: not ") + what);
  };
  for (const auto& problem : file.problems) {
    const cubenum::search::VoxelCover cover(problem, file.path);
    check(cover.piece_names().size() <= problem.pieces.size(), "pieces merged <= pieces");
    check(cover.rotation_order() >= 1, "rotation order >= 1");
    check(cover.symmetry_order() >= cover.rotation_order(), "symmetries >= rotations");
    check(cover.first_placements() <= cover.placements(), "first placements <= placements");
    if (cover.piece_names().size() < problem.pieces.size()) {
      const cubenum::search::VoxelCover apart(problem, file.path, true);
      check(apart.piece_names().size() == problem.pieces.size(), "apart: every piece its own");
    }
  }
}

// The text gzip-compressed, as BurrTools saves its files.
std::string gzipped(const std::string& text) {
  const std::string path = polycube_input() + ".gz";
  gzFile out = gzopen(path.c_str(), "wb9");
  EXPECT_NE(out, nullptr);
  EXPECT_EQ(gzwrite(out, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  EXPECT_EQ(gzclose(out), Z_OK);
  return cubenum::testing::read(path);
}

// The puzzles of data/polycubes, in two tests that ctest runs side by side.
// The pentomino boxes differ in their target only, and every file sets up
// slowly: each gets an eighth of the iterations.
void fuzz_polycube_text(bool pentominoes) {
  fuzz(
      fs::path(CUBENUM_SOURCE_DIR) / "data" / "polycubes", false,
      [](const std::string& text) {
        cubenum::testing::write(polycube_input(), text);
        set_up_cover(cubenum::polycube::read_polycube_text(polycube_input()));
      },
      {}, 8,
      [pentominoes](const fs::path& file) {
        return file.filename().string().starts_with("pentomino-") == pentominoes;
      });
}

TEST(Fuzz, PolycubeText) {
  fuzz_polycube_text(false);
}

TEST(Fuzz, PolycubeTextPentominoes) {
  fuzz_polycube_text(true);
}

TEST(Fuzz, PolycubeXmpuzzle) {
  // Plain XML, and the same gzip-compressed (the mutations then reach the
  // decompression's errors: a stream cut short, a bad checksum); through
  // read_polycube_file too, which tells the formats apart by the first
  // bytes (a mutation may turn one into the other).
  for (const auto read :
       {&cubenum::polycube::read_xmpuzzle, &cubenum::polycube::read_polycube_file})
    fuzz(
        kCorpus / "xmpuzzle", false,
        [read](const std::string& text) {
          cubenum::testing::write(polycube_input(), text);
          set_up_cover(read(polycube_input()));
        },
        gzipped);
}

}  // namespace
