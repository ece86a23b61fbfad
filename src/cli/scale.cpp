// `cubenum scale [--threads 1,2,4] [--repeat N] [--out DIR] <puzzle> <action> ...`:
// one job at several thread counts, checked to give identical counts,
// written as scaling-<job>.md and an SVG plot of the speedup.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <filesystem>
#include <fstream>

#include "action.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/core/output_file.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/report/machine.hpp"
#include "cubenum/report/markdown.hpp"
#include "cubenum/report/scaling.hpp"

namespace cubenum::cli {
namespace {

namespace fs = std::filesystem;

struct ScaleOptions {
  std::string threads;  // "1,2,4"; empty: 1, 2, 4, ... up to all cores
  int repeat = 3;
  std::string out;   // empty: default_output_dir()
  std::string json;  // scale's own result
  OutputOptions output;
};

int parse_positive(const std::string& flag, const std::string& text) {
  std::size_t used = 0;
  int value = 0;
  try {
    value = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value < 1)
    throw InputError(flag, 0, "'" + text + "' is not a positive whole number");
  return value;
}

std::vector<int> thread_counts(const std::string& list) {
  std::vector<int> counts;
  if (list.empty()) {
    const int all = machine_threads();
    for (int t = 1; t < all; t *= 2) counts.push_back(t);
    counts.push_back(all);
    return counts;
  }
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    counts.push_back(parse_positive("--threads", list.substr(start, comma - start)));
    start = comma + 1;
  }
  return counts;
}

// The job: the words after scale's own options, checked to hold none of
// the options scale sets or writes itself.
std::vector<std::string> job_words(std::vector<std::string> words) {
  if (!words.empty() && words.front() == "--") words.erase(words.begin());
  if (words.size() < 2 || words[0].rfind('-', 0) == 0)
    throw InputError("scale", 0,
                     words.empty() || words[0].rfind('-', 0) != 0
                         ? "name a job: cubenum scale [OPTIONS] <puzzle> <action> [its options]"
                         : "unknown option '" + words[0] +
                               "' (scale's options are --threads, --repeat, --out, --json, "
                               "--verbose, --progress; the job comes after them)");
  for (const std::string& w : words) {
    const std::string flag = w.substr(0, w.find('='));
    if (flag == "--threads" || flag == "--json" || flag == "--out" || flag == "--repeat")
      throw InputError("scale", 0,
                       "'" + flag +
                           "' in the job: scale sets the job's threads and writes its "
                           "own files; put scale's options before the job (cubenum scale --help)");
  }
  return words;
}

// The job's words joined by '-', files by their stem:
// "foam count --challenge pool data/foam/micro.txt" -> "foam-count-challenge-pool-micro".
std::string job_name(const std::vector<std::string>& job) {
  std::string name;
  for (const auto& arg : job) {
    if (arg == "--verbose" || arg == "--progress") continue;  // change nothing timed
    const std::string word =
        arg.find('/') != std::string::npos ? fs::path(arg).stem().string() : arg;
    for (char c : word)
      if (std::isalnum(static_cast<unsigned char>(c)))
        name += c;
      else if (!name.empty() && name.back() != '-')
        name += '-';
    if (!name.empty() && name.back() != '-') name += '-';
  }
  while (!name.empty() && name.back() == '-') name.pop_back();
  return name;
}

void run_scale(const ScaleOptions& o, const std::vector<std::string>& words) {
  apply_output_options(o.output);
  const std::vector<std::string> job = job_words(words);
  const std::vector<int> threads = thread_counts(o.threads);
  // A point above the machine's threads would be labelled with threads that
  // never ran (oneTBB runs at most that many).
  for (const int t : threads)
    if (t > machine_threads())
      throw InputError(
          "--threads", 0,
          fmt::format("{}: this machine runs {} threads at once", t, machine_threads()));
  std::vector<std::string> shown_job;
  for (const std::string& w : job) shown_job.push_back(shown_path(w));
  const std::string command = fmt::format("cubenum {}", fmt::join(shown_job, " "));
  // Check the outputs first: an unwritable place fails before the runs.
  const std::string out = o.out.empty() ? default_output_dir() : o.out;
  check_output_folder(out, "--out");
  const bool json_file = !o.json.empty() && o.json != "-";
  if (json_file) check_output(o.json, "--json");
  const std::string name = job_name(job);
  const fs::path md_path = fs::path(out) / ("scaling-" + name + ".md");
  const fs::path svg_path = fs::path(out) / ("scaling-" + name + ".svg");

  std::vector<report::ScalingPoint> points;
  Json reference;
  {
    Progress progress("scale: " + command, threads.size() * static_cast<std::size_t>(o.repeat),
                      "runs");
    progress.set_estimate(false);  // more threads, shorter runs
    for (int t : threads) {
      progress.set_detail(fmt::format("{} thread{}", t, t == 1 ? "" : "s"));
      std::vector<double> seconds;
      for (int r = 0; r < o.repeat; ++r) {
        auto args = job;
        args.push_back("--threads");
        args.push_back(std::to_string(t));
        const Json result = run_captured(args);
        const Json counts = report::counts_only(result);
        if (reference.is_null()) reference = counts;
        if (counts != reference)
          throw std::runtime_error(
              fmt::format("{} gave different counts on {} threads", command, t));
        seconds.push_back(result["seconds"].get<double>());
        progress.add(1);
        progress::note("{} thread{}, run {}: {:.4f} s", t, t == 1 ? "" : "s", r + 1,
                       seconds.back());
      }
      points.push_back({t, report::median(seconds)});
      if (o.json != "-")
        progress::guarded_stdout()
            << fmt::format("{:>3} thread{}: {:.4f} s (median of {})\n", t, t == 1 ? " " : "s",
                           points.back().seconds, o.repeat);
    }
  }

  const std::string made_by =
      fmt::format("cubenum scale --threads {} --repeat {} {}", fmt::join(threads, ","), o.repeat,
                  fmt::join(shown_job, " "));
  const std::string md = fmt::format(
      "# Thread scaling: `{}`\n\nMade by `{}`; each time is the median of {} runs of the job "
      "inside one process (start-up excluded). Every run gave identical counts.\n\n"
      "Machine: {}.\n\n{}\n![speedup](scaling-{}.svg)\n",
      command, made_by, o.repeat, report::describe(report::this_machine()),
      report::scaling_markdown(points), name);
  // The counts too, so that scales run apart (a thread count a process)
  // can be checked against each other.
  Json result = {
      {"command", command}, {"repeat", o.repeat}, {"points", Json::array()}, {"counts", reference}};
  for (const auto& p : points)
    result["points"].push_back({{"threads", p.threads}, {"seconds", p.seconds}});
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec)
    throw InputError("--out", 0, fmt::format("cannot create {}: {}", excerpt(out), ec.message()));
  std::vector<OutputText> files = {{md_path.string(), md},
                                   {svg_path.string(), report::speedup_svg(points, command)}};
  if (json_file) files.push_back({o.json, result.dump(2) + '\n'});
  write_output_set(files, "--out");
  if (o.json == "-") progress::guarded_stdout() << result.dump(2) << std::endl;
  if (o.json != "-")
    progress::guarded_stdout() << "wrote " << shown_path(md_path.string()) << " and "
                               << shown_path(svg_path.string()) << '\n';
}

constexpr const char* kScaleFooter =
    "JOB: a puzzle, an action and the action's own options, exactly as given to cubenum,\n"
    "after scale's options. scale adds --threads N to each run; the job may not set\n"
    "--threads, --json or --out itself.\n"
    "Each time is the median of --repeat runs inside this process (start-up excluded), and\n"
    "every run must give the same counts. Writes scaling-<job>.md (table, machine, command)\n"
    "and scaling-<job>.svg (speedup against threads, with the ideal line) into --out.\n"
    "Example:  cubenum scale --threads 1,2 --repeat 5 pocket-cube bfs --metric htm";

}  // namespace

void register_scale(Command& app) {
  auto options = std::make_shared<ScaleOptions>();
  Command* scale = app.add_subcommand(
      "scale", "time a job at several thread counts and write its speedup table and plot");
  scale
      ->add_option("--threads", options->threads,
                   "thread counts, comma-separated (default: 1, 2, 4, ... and all cores)")
      ->type_name("LIST");
  scale->add_option("--repeat", options->repeat, "runs at each thread count (the median is kept)")
      ->check(Range(1, 1000000))
      ->capture_default_str();
  scale
      ->add_option("--out", options->out,
                   "directory for scaling-<job>.md and .svg (default: results/ beside the cubenum "
                   "program, build/results)")
      ->type_name("DIR");
  scale->add_option("--json", options->json, "also write the times as JSON to FILE ('-': stdout)")
      ->type_name("FILE");
  add_output_options(*scale, options->output);
  scale->footer(kScaleFooter);
  scale->usage("cubenum scale [OPTIONS] PUZZLE ACTION [THE ACTION'S OPTIONS]");
  scale->prefix_command();  // the first word that is not scale's own starts the job
  scale->callback([scale, options] { run_scale(*options, scale->remaining()); });
}

}  // namespace cubenum::cli
