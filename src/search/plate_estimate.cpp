// The size estimate of a plate count's subtrees (for its progress):
// Knuth's random descents.
#include <random>

#include "cubenum/core/parallel.hpp"
#include "plate_assembly_internal.hpp"

namespace cubenum::search {

// Knuth's estimate of the nodes below `st` (Mathematics of Computation
// 29, 1975): a random descent, each level weighing its nodes by the
// product of the choices above it. The sum over `descents` descents; `st`
// is put back as it was.
double PlateAssembly::descend(State& st, int split, int descents, std::mt19937_64& random) const {
  const int faces = static_cast<int>(depths_.size());
  std::vector<const Candidate*> children;
  double sum = 0;
  for (int descent = 0; descent < descents; ++descent) {
    double weight = 1, nodes = 1;
    int placed = split;
    for (int depth = split; depth < faces; ++depth) {
      // The search's children: the candidates that fit and leave the later faces open.
      const bool last = depth + 1 == faces;
      children.clear();
      for (const Candidate& c : bucket_at(st, depth))
        if (fits(st, depth, c) && (last || later_faces_open(st, depth, c))) children.push_back(&c);
      if (children.empty()) break;
      weight *= static_cast<double>(children.size());
      nodes += weight;
      if (last) break;
      place(st, depth, *children[random() % children.size()]);
      placed = depth + 1;
    }
    for (int depth = placed; depth-- > split;) unplace(st, depth, *st.chosen[depth]);
    sum += nodes;
  }
  return sum;
}

// The estimator is unbiased but heavy-tailed: four descents a subtree leave
// the progress line's total off by a factor of a few early in a count, where
// 512 keep it close (results/foam-shapes.md).
// A descent costs about a node a level, so after four a subtree the count
// makes more, up to 512, while all of them stay within 0.5 % of the nodes
// the first four estimate: a count of a tenth of a second keeps four, one
// of minutes gets 512. Seeded by subtree and batch: the same every run.
std::vector<double> PlateAssembly::estimate_subtrees(const State& start, int split,
                                                     const std::vector<Prefix>& prefixes) const {
  constexpr int kFirst = 4, kMost = 512;
  std::vector<double> sum(prefixes.size(), 0.0);
  const auto add = [&](int descents, std::uint64_t batch) {
    parallel_for_chunks(prefixes.size(), 64, [&](std::size_t begin, std::size_t end) {
      for (std::size_t s = begin; s != end; ++s) {
        State st = start;
        for (int d = 0; d < split; ++d)
          place(st, d, tables_[depths_[d].table].candidates[prefixes[s][d]]);
        std::mt19937_64 random(s + 1 + batch * prefixes.size());
        sum[s] += descend(st, split, descents, random);
      }
    });
  };
  add(kFirst, 0);
  double nodes = 0;
  for (const double x : sum) nodes += x / kFirst;
  const double per_round =
      static_cast<double>(prefixes.size()) * static_cast<double>(depths_.size() - split);
  int descents = kFirst;
  while (descents < kMost && 2.0 * descents * per_round <= 0.005 * nodes) descents *= 2;
  if (descents > kFirst) add(descents - kFirst, 1);
  for (double& x : sum) x /= descents;
  return sum;
}

}  // namespace cubenum::search
