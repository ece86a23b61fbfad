// PlateAssembly::first: a few solutions fast, by randomised restarts of a
// depth-first search on the most constrained face.
#include <algorithm>
#include <random>
#include <set>

#include "plate_assembly_internal.hpp"

namespace cubenum::search {

const PlateAssembly::BucketTable& PlateAssembly::table_for(PlateGrid decided, Restart& r) const {
  auto it = r.tables.find(decided);
  if (it == r.tables.end()) it = r.tables.emplace(decided, make_bucket_table(decided)).first;
  return it->second;
}

bool PlateAssembly::free_to_place(const State& st, int f, const Candidate& c) const {
  const int group = kinds_[c.kind].group;
  return (c.grid & st.covered[f]) == 0 && st.remaining[c.kind] != 0 &&
         (group < 0 || st.group_used[group] < group_capacity_[group]);
}

// The open face with the fewest candidates that fit (fail first); -1 when
// some face has none.
int PlateAssembly::most_constrained_face(const State& st, Restart& r) const {
  int best = -1;
  std::uint32_t best_size = UINT32_MAX;
  for (int f = 0; f < surface_->face_count(); ++f) {
    if (r.placed[f]) continue;
    PlateGrid decided = 0, undecided = 0;
    bool touches = false;
    for (const auto& [bit, g] : shared_cells_[f]) {
      (r.placed[g] ? decided : undecided) |= PlateGrid{1} << bit;
      touches |= r.placed[g];
    }
    if (!touches && best >= 0) continue;
    decided &= ~undecided;
    const BucketTable& t = table_for(decided, r);
    const std::uint32_t bucket = bucket_of(decided, st.covered[f]);
    // The candidates that fit (the bucket's pattern on the decided cells,
    // no cell a neighbour covers, the piece free), counted up to the best
    // so far: none is a dead end, found before any placement is tried.
    std::uint32_t size = 0;
    for (std::uint32_t i = t.bucket_start[bucket];
         i != t.bucket_start[bucket + 1] && size < best_size; ++i)
      size += free_to_place(st, f, t.candidates[i]);
    if (size == 0) return -1;
    if (size < best_size) best = f, best_size = size;
  }
  return best;
}

// Depth-first, each time on the most constrained open face; true when the
// restart is over (enough solutions, out of budget, or stopped).
bool PlateAssembly::probe(State& st, int depth, Restart& r) const {
  if (depth == surface_->face_count()) {
    if (r.seen->insert(st.key).second) r.found->push_back(st.key);
    return r.found->size() >= r.wanted;
  }
  if (!border_sums_reachable(st, depth)) return false;
  const int f = most_constrained_face(st, r);
  if (f < 0) return false;
  PlateGrid decided = 0, undecided = 0;
  for (const auto& [bit, g] : shared_cells_[f])
    (r.placed[g] ? decided : undecided) |= PlateGrid{1} << bit;
  decided &= ~undecided;
  const BucketTable& t = table_for(decided, r);
  const std::uint32_t bucket = bucket_of(decided, st.covered[f]);
  const std::uint32_t begin = t.bucket_start[bucket], size = t.bucket_start[bucket + 1] - begin;
  const auto [link_begin, link_end] = all_link_range_[f];
  for (std::uint32_t i = 0; i < size; ++i) {
    const Candidate& c = t.candidates[begin + (r.offset[depth] + i) % size];
    if (!free_to_place(st, f, c)) continue;
    const int group = kinds_[c.kind].group;
    for (std::uint32_t l = link_begin; l != link_end; ++l)
      st.covered[all_links_[l].face] |=
          all_links_[l].image[extract_bits(c.grid, all_links_[l].cells)];
    --st.remaining[c.kind];
    take_borders(st, c.kind, 1);
    if (group >= 0) ++st.group_used[group];
    r.placed[f] = true;
    st.key[f] = {c.kind, c.transform};
    ++r.placements;
    const bool check = (r.placements & 1023) == 0;
    if (check && r.progress != nullptr) r.progress->add(1024);
    const bool over =
        r.placements > r.budget || (check && *r.stop && (*r.stop)()) || probe(st, depth + 1, r);
    if (r.placements > r.budget) r.out_of_budget = true;
    r.placed[f] = false;
    ++st.remaining[c.kind];
    take_borders(st, c.kind, -1);
    if (group >= 0) --st.group_used[group];
    for (std::uint32_t l = link_begin; l != link_end; ++l)
      st.covered[all_links_[l].face] &=
          ~all_links_[l].image[extract_bits(c.grid, all_links_[l].cells)];
    if (over) return true;
  }
  return false;
}

FirstResult PlateAssembly::first(const FirstOptions& options) const {
  FirstResult result;
  // Fewer pieces than faces, or none that fill the borders: nothing to search.
  if (usable_pieces(kinds_, group_capacity_) < static_cast<std::uint64_t>(surface_->face_count()) ||
      !borders_fillable()) {
    result.exhausted = true;
    return result;
  }
  const AssemblyOptions plain;
  std::set<AssemblyKey> seen;
  std::mt19937_64 random(options.seed);
  Restart r;
  r.wanted = options.wanted;
  r.stop = &options.stop;
  r.progress = options.placements;
  r.found = &result.solutions;
  r.seen = &seen;
  r.offset.resize(depths_.size());
  for (std::uint64_t budget = std::max<std::uint64_t>(options.node_budget, 1);;
       budget = budget > UINT64_MAX / 2 ? UINT64_MAX : 2 * budget) {
    State st = start_state(plain);
    r.placed.assign(surface_->face_count(), false);
    for (auto& o : r.offset) o = static_cast<std::uint32_t>(random());
    r.budget = budget;
    r.out_of_budget = false;
    ++result.restarts;
    const bool over = probe(st, 0, r);
    result.placements += std::min(r.placements, budget);
    r.placements = 0;
    if (result.solutions.size() >= options.wanted) break;
    if (!over && !r.out_of_budget) {
      result.exhausted = true;
      break;
    }
    if (options.stop && options.stop()) break;
  }
  return result;
}

}  // namespace cubenum::search
