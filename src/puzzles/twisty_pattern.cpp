// A definition projected onto some of its sets, and the depth table of the
// projection.
#include "cubenum/puzzles/twisty_pattern.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "cubenum/bfs/row_bfs.hpp"
#include "cubenum/core/error.hpp"
#include "cubenum/puzzles/twisty_search.hpp"

namespace cubenum::twisty {

namespace {

std::vector<std::size_t> kept_sets(const Definition& def, const std::vector<std::string>& names) {
  std::vector<std::size_t> kept;
  for (const std::string& name : names) {
    const auto it = std::find_if(def.sets.begin(), def.sets.end(),
                                 [&](const PieceSet& s) { return s.name == name; });
    if (it == def.sets.end())
      throw InputError(def.file, 0, fmt::format("no set {} to project onto", name));
    const auto set = static_cast<std::size_t>(it - def.sets.begin());
    if (std::find(kept.begin(), kept.end(), set) != kept.end())
      throw InputError(def.file, 0, fmt::format("set {} named twice", name));
    kept.push_back(set);
  }
  std::sort(kept.begin(), kept.end());
  return kept;
}

Arrangement project_arrangement(const Arrangement& a, const std::vector<std::size_t>& kept) {
  Arrangement out;
  for (std::size_t set : kept) {
    out.perm.push_back(a.perm[set]);
    out.ori.push_back(a.ori[set]);
  }
  return out;
}

}  // namespace

Definition project(const Definition& def, const std::vector<std::string>& sets) {
  const std::vector<std::size_t> kept = kept_sets(def, sets);
  Definition out;
  out.file = def.file;
  out.name = def.name;
  for (std::size_t set : kept) out.sets.push_back(def.sets[set]);
  out.solved = project_arrangement(def.solved, kept);
  const Arrangement identity = out.identity();
  for (const MoveDef& move : def.moves) {
    MoveDef m{move.name, move.line, project_arrangement(move.effect, kept)};
    if (m.effect != identity) out.moves.push_back(std::move(m));
  }
  return out;
}

MoveChoice projected_choice(const Definition& projected, const MoveChoice& choice) {
  MoveChoice kept{{}, choice.quarter};
  for (const std::string& name : choice.names)
    if (std::any_of(projected.moves.begin(), projected.moves.end(),
                    [&](const MoveDef& m) { return m.name == name; }))
      kept.names.push_back(name);
  return kept;
}

PatternDatabase::PatternDatabase(const Definition& def, const MoveChoice& choice,
                                 const std::vector<std::string>& sets)
    : projected_(project(def, sets)), kept_(kept_sets(def, sets)) {
  const MoveChoice kept_choice = projected_choice(projected_, choice);
  if (!choice.names.empty() && kept_choice.names.empty())
    throw InputError(def.file, 0, "no chosen move changes the sets projected onto");
  space_ = std::make_unique<TwistySpace>(projected_, expand_moves(projected_, kept_choice));
  const std::uint64_t solved = space_->solved_rank();
  depths_ = std::move(*bfs::row_bfs(*space_, {&solved, 1}).depths);
}

PatternDatabase::~PatternDatabase() = default;

std::uint64_t PatternDatabase::rank(const Arrangement& x, Scratch& s) const {
  s.projected.perm.resize(kept_.size());
  s.projected.ori.resize(kept_.size());
  for (std::size_t i = 0; i < kept_.size(); ++i) {
    s.projected.perm[i] = x.perm[kept_[i]];
    s.projected.ori[i] = x.ori[kept_[i]];
  }
  return space_->rank(s.projected, s.coded);
}

unsigned PatternDatabase::distance(const Arrangement& x, Scratch& s) const {
  const std::uint64_t r = rank(x, s);
  if (!space_->contains(s.projected))
    throw std::invalid_argument("twisty: a position whose projection the moves do not reach");
  return static_cast<unsigned>(path_to_solved(*space_, depths_, r).size());
}

}  // namespace cubenum::twisty
