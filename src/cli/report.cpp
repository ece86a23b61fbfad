// `cubenum report`: every puzzle's default enumeration, written as
// REPORT.md plus one JSON file per puzzle. Its counts are the project's
// functional signature: a change meant only for speed leaves them identical.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "action.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/output_file.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/stopwatch.hpp"
#include "cubenum/report/machine.hpp"
#include "cubenum/report/markdown.hpp"

namespace cubenum::cli {
namespace {

namespace fs = std::filesystem;

// Outputs up to this long are shown in the report as the program prints them.
constexpr long kMaxOutputLines = 80;

struct Section {
  std::string puzzle;  // the CLI name; also the JSON file's name
  std::string title;
  std::string counts;  // what is counted, in the words of PUZZLES.md
  std::vector<std::vector<std::string>> runs;
};

std::string data(const std::string& relative) {
  return std::string(CUBENUM_DATA_DIR "/").append(relative);
}

const std::vector<std::string> kSeries = {"happy-cube-little-genius", "happy-cube-marble",
                                          "happy-cube-micro", "happy-cube-original",
                                          "happy-cube-profi"};
const std::vector<std::string> kSingleSets = {"construct", "smart-cube"};

std::string set_file(const std::string& name) {
  return data("foam/" + name + ".txt");
}

// Every challenge of every set: own cubes, one piece per colour of each
// series, any six of each series' pool, and the pool of all sets together
// (counted through shapes: its direct search takes minutes).
std::vector<std::vector<std::string>> foam_runs() {
  std::vector<std::string> own = {"foam", "count", "--challenge", "own"};
  std::vector<std::string> one_per_colour = {"foam", "count", "--challenge", "one-per-colour"};
  std::vector<std::string> everything = {"foam", "count", "--challenge", "pool", "--via-shapes"};
  std::vector<std::vector<std::string>> pools;
  for (const auto& series : kSeries) {
    own.push_back(set_file(series));
    one_per_colour.push_back(set_file(series));
    everything.push_back(set_file(series));
    pools.push_back({"foam", "count", "--challenge", "pool", set_file(series)});
  }
  for (const auto& set : kSingleSets) {
    own.push_back(set_file(set));
    everything.push_back(set_file(set));
  }
  std::vector<std::vector<std::string>> runs = {own, one_per_colour};
  runs.insert(runs.end(), pools.begin(), pools.end());
  runs.push_back(everything);
  auto by_shape = everything;
  by_shape.back() = set_file(kSingleSets.back());
  by_shape.erase(by_shape.begin() + 4);  // --via-shapes: by shape needs no help
  by_shape.insert(by_shape.begin() + 4, {"--by", "shape"});
  runs.push_back(by_shape);
  return runs;
}

std::vector<Section> sections() {
  return {
      {"pocket-cube",
       "Pocket cube",
       "Positions modulo whole-cube rotation (one corner fixed), 3,674,160 in all, by distance "
       "from solved in the quarter-turn (QTM) and half-turn (HTM) metrics; the antipodes; "
       "classes up to the 48 symmetries (conjugation), in total and per distance.",
       {{"pocket-cube", "bfs", "--metric", "qtm", "--symmetry"},
        {"pocket-cube", "bfs", "--metric", "htm", "--symmetry"}}},
      {"rolling-cubes",
       "Rolling cubes",
       "The 3x3 grid of 8 rolling cubes and one empty cell, 9 x 6^8 = 15,116,544 states: the "
       "states reachable from all black up with the centre empty, their distances, the "
       "eccentricity of the start and the states at that distance, the shortest distance to all "
       "colour up with the centre empty, one shortest sequence and the number of them.",
       {{"rolling-cubes", "bfs"}}},
      {"foam", "Foam cubes",
       "Assemblies of the 5x5x5 shell from six foam pieces, each shell cell covered once, pieces "
       "told apart by identity (the last run: by shape, congruent pieces interchangeable): raw, "
       "up to the 24 rotations, up to the 48 symmetries; for one piece per colour and any six "
       "from a pool also the piece choices that build a cube.",
       foam_runs()},
      {"nine-colour-cube",
       "Nine-colour cube",
       "27 unit cubes, 3 of each of 9 colours, filling the 3x3x3 cube so that each face shows "
       "all 9 colours: labelled colourings; classes up to permuting the colours; up to colours "
       "and rotations; up to colours and symmetries.",
       {{"nine-colour-cube", "count"}}},
      {"sudoku-cube",
       "Sudoku cube",
       "Grid solutions of the seed's stickered cube: each corner and edge piece in a slot with a "
       "twist or flip so that every face shows 1-9 around its centre, all facing one way (a 1 "
       "may face the opposite way); each also checked for reachability by legal turns.",
       {{"sudoku-cube", "count"}}},
      {"polycube",
       "Polycube puzzles",
       "Assemblies of polycube pieces filling a target, each piece as often as the puzzle says: "
       "raw (the target fixed), up to the target's rotations, up to its symmetries (a mirror "
       "image the same assembly where it is one of the puzzle), and BurrTools' count.",
       {{"polycube", "count", data("polycubes/soma.txt")},
        {"polycube", "count", data("polycubes/pentomino-6x10.txt")},
        {"polycube", "count", data("polycubes/pentomino-2x5x6.txt")}}},
  };
}

// A command as a person would type it from the repository root.
std::string shown(const std::vector<std::string>& args) {
  std::string command = "cubenum";
  for (const auto& arg : args) command.append(" ").append(shown_path(arg));
  return command;
}

std::string run_section(const Section& section, int threads, const report::Machine& machine,
                        const fs::path& out_dir, Progress& progress,
                        std::vector<OutputText>& files) {
  std::string md = fmt::format("## {}\n\n{}\n\n", section.title, section.counts);
  Json runs = Json::array();
  for (auto args : section.runs) {
    const std::string command = shown(args);
    progress.set_detail(section.puzzle);
    progress::note("report: {}", command);
    args.push_back("--threads");
    args.push_back(std::to_string(threads));
    std::string text;
    Json result = run_captured(args, &text);
    md += fmt::format("### `{}`\n\n{:.4f} s on {} threads.\n\n{}\n", command,
                      result["seconds"].get<double>(), threads, report::fields_markdown(result));
    if (std::count(text.begin(), text.end(), '\n') <= kMaxOutputLines)
      md += fmt::format("Its output:\n\n```\n{}```\n\n", text);
    result["command"] = command;
    runs.push_back(result);
    progress.add(1);
  }
  const Json file = {
      {"puzzle", section.puzzle}, {"machine", report::to_json(machine)}, {"runs", runs}};
  files.push_back({(out_dir / (section.puzzle + ".json")).string(), file.dump(2) + "\n"});
  return md;
}

struct ReportOptions {
  std::string out;  // empty: default_output_dir()
  int threads = machine_threads();
  OutputOptions output;
};

void run_report(const ReportOptions& options) {
  apply_output_options(options.output);
  const std::string out = options.out.empty() ? default_output_dir() : options.out;
  const fs::path out_dir(out);
  check_output_folder(out, "--out");
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec || !fs::is_directory(out_dir))
    throw InputError("--out", 0, "cannot create directory '" + out + "'");

  const report::Machine machine = report::this_machine();
  std::size_t runs = 0;
  for (const Section& section : sections()) runs += section.runs.size();
  Stopwatch clock;
  std::string body;
  std::vector<OutputText> files;  // written as one set at the end
  {
    Progress progress("report", runs, "runs");
    progress.set_estimate(false);  // the runs differ too much
    for (const Section& section : sections())
      body += run_section(section, options.threads, machine, out_dir, progress, files);
  }
  // The command as given: no absolute path goes into the report.
  const std::string command =
      fmt::format("cubenum report{} --threads {}",
                  options.out.empty() ? "" : " --out " + shown_path(options.out), options.threads);
  const std::string md = fmt::format(
      "# cubenum report\n\nMade by `{}` in {:.2f} s.\n\n"
      "Machine: {}.\n\nWhat each count means: docs/PUZZLES.md. Every count here is the project's "
      "signature: a change meant only to make cubenum faster leaves all of them identical.\n\n{}",
      command, clock.seconds(), report::describe(machine), body);
  files.push_back({(out_dir / "REPORT.md").string(), md});
  write_output_set(files, "--out");
  progress::guarded_stdout() << fmt::format("wrote {} and {} JSON files in {:.2f} s\n",
                                            shown_path((out_dir / "REPORT.md").string()),
                                            sections().size(), clock.seconds());
}

}  // namespace

void register_report(Command& app) {
  auto options = std::make_shared<ReportOptions>();
  Command* report = app.add_subcommand(
      "report", "run every puzzle's default enumeration; write REPORT.md and JSON per puzzle");
  report
      ->add_option("--out", options->out,
                   "directory for the reports (default: results/ beside the cubenum program, "
                   "build/results; 'tools/run results' refreshes the repository's)")
      ->type_name("DIR");
  report->add_option("--threads", options->threads, "worker threads (default: all cores)")
      ->check(Range(1, 65536));
  add_output_options(*report, options->output);
  report->callback([options] { run_report(*options); });
}

}  // namespace cubenum::cli
