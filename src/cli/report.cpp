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
#include "puzzles.hpp"

namespace cubenum::cli {
namespace {

namespace fs = std::filesystem;

// Outputs up to this long are shown in the report as the program prints them.
constexpr long kMaxOutputLines = 80;

// A puzzle's section: its name (the JSON file's) and what it runs.
struct Section {
  std::string puzzle;
  ReportSection report;
};

std::vector<Section> sections() {
  std::vector<Section> all;
  for (const PuzzleCommand& puzzle : puzzle_commands())
    if (puzzle.report != nullptr) all.push_back({puzzle.name, puzzle.report()});
  return all;
}

// A command as a person would type it from the repository root.
std::string shown(const std::vector<std::string>& args) {
  std::string command = "cubenum";
  for (const auto& arg : args) command.append(" ").append(shown_path(arg));
  return command;
}

// The section's Markdown; its JSON file goes into `files`, its headline
// into `headlines`.
std::string run_section(const Section& section, int threads, const report::Machine& machine,
                        const fs::path& out_dir, Progress& progress, std::vector<OutputText>& files,
                        std::vector<std::string>& headlines) {
  std::string md = fmt::format("## {}\n\n{}\n\n", section.report.title, section.report.counts);
  Json runs = Json::array();
  for (auto args : section.report.runs) {
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
  if (section.report.headline != nullptr)
    headlines.push_back(fmt::format("  {:<17} {}", section.puzzle + ":",
                                    section.report.headline(runs.get<std::vector<Json>>())));
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
  const std::vector<Section> all = sections();
  for (const Section& section : all) runs += section.report.runs.size();
  Stopwatch clock;
  std::string body;
  std::vector<OutputText> files;  // written as one set at the end
  std::vector<std::string> headlines;
  {
    Progress progress("report", runs, "runs");
    progress.set_estimate(false);  // the runs differ too much
    for (const Section& section : all)
      body += run_section(section, options.threads, machine, out_dir, progress, files, headlines);
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
                                            all.size(), clock.seconds());
  for (const std::string& line : headlines) progress::guarded_stdout() << line << '\n';
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
