// `cubenum scale <puzzle> <action> [options] --threads 1,2,4 [--repeat N]`:
// one job at several thread counts, checked to give identical counts,
// written as results/scaling-<job>.md and an SVG plot of the speedup.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "action.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/report/machine.hpp"
#include "cubenum/report/markdown.hpp"
#include "cubenum/report/scaling.hpp"

namespace cubenum::cli {
namespace {

namespace fs = std::filesystem;

struct ScaleOptions {
  std::vector<int> threads;
  int repeat = 3;
  std::string out = "results";
  std::vector<std::string> job;  // the command line of the job
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

// Takes scale's own flags out of the words after `scale`; the rest is the job.
ScaleOptions parse(const std::vector<std::string>& words) {
  ScaleOptions o;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    const bool own = w == "--threads" || w == "--repeat" || w == "--out";
    if (!own) {
      o.job.push_back(w);
      continue;
    }
    if (i + 1 == words.size()) throw InputError(w, 0, "needs a value");
    const std::string& value = words[++i];
    if (w == "--repeat") o.repeat = parse_positive(w, value);
    if (w == "--out") o.out = value;
    if (w == "--threads") {
      std::size_t start = 0;
      while (start <= value.size()) {
        const std::size_t comma = std::min(value.find(',', start), value.size());
        o.threads.push_back(parse_positive(w, value.substr(start, comma - start)));
        start = comma + 1;
      }
    }
  }
  if (o.job.size() < 2)
    throw InputError("scale", 0, "name a job: cubenum scale <puzzle> <action> ...");
  if (o.threads.empty()) o.threads = {1, 2};
  return o;
}

// The job's words joined by '-', files by their stem:
// "foam count --challenge pool data/foam/micro.txt" -> "foam-count-challenge-pool-micro".
std::string job_name(const std::vector<std::string>& job) {
  std::string name;
  for (const auto& arg : job) {
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

void run_scale(const std::vector<std::string>& words) {
  const ScaleOptions o = parse(words);
  const std::string command = fmt::format("cubenum {}", fmt::join(o.job, " "));
  std::vector<report::ScalingPoint> points;
  Json reference;
  for (int threads : o.threads) {
    std::vector<double> seconds;
    for (int r = 0; r < o.repeat; ++r) {
      auto args = o.job;
      args.push_back("--threads");
      args.push_back(std::to_string(threads));
      const Json result = run_captured(args);
      const Json counts = report::counts_only(result);
      if (reference.is_null()) reference = counts;
      if (counts != reference)
        throw std::runtime_error(
            fmt::format("{} gave different counts on {} threads", command, threads));
      seconds.push_back(result["seconds"].get<double>());
    }
    points.push_back({threads, report::median(seconds)});
    std::cout << fmt::format("{:>3} threads: {:.4f} s (median of {})\n", threads,
                             points.back().seconds, o.repeat);
  }

  std::error_code ec;
  fs::create_directories(o.out, ec);
  const std::string name = job_name(o.job);
  const fs::path md_path = fs::path(o.out) / ("scaling-" + name + ".md");
  const fs::path svg_path = fs::path(o.out) / ("scaling-" + name + ".svg");
  std::ofstream md(md_path), svg(svg_path);
  md << fmt::format(
      "# Thread scaling: `{}`\n\nMade by `cubenum scale {} --threads {} --repeat {}`; each time is "
      "the median of {} runs of the job inside one process (start-up excluded). Every run gave "
      "identical counts.\n\nMachine: {}.\n\n{}\n![speedup](scaling-{}.svg)\n",
      command, fmt::join(o.job, " "), fmt::join(o.threads, ","), o.repeat, o.repeat,
      report::describe(report::this_machine()), report::scaling_markdown(points), name);
  svg << report::speedup_svg(points, command);
  if (!md || !svg) throw InputError("--out", 0, "cannot write into '" + o.out + "'");
  std::cout << "wrote " << md_path.string() << " and " << svg_path.string() << '\n';
}

}  // namespace

void register_scale(CLI::App& app) {
  auto words = std::make_shared<std::vector<std::string>>();
  CLI::App* scale = app.add_subcommand(
      "scale",
      "run a job at several thread counts (--threads 1,2,4 --repeat N); write the scaling");
  scale->prefix_command();  // everything after `scale` is ours to read
  scale->callback([scale, words] {
    *words = scale->remaining();
    run_scale(*words);
  });
}

}  // namespace cubenum::cli
