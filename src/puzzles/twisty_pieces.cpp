// Positions by piece, and each move as a table on a piece's byte.
#include "cubenum/puzzles/twisty_pieces.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "cubenum/core/error.hpp"

namespace cubenum::twisty {

PieceMoves::PieceMoves(const Definition& def, const std::vector<Move>& moves)
    : def_(def), moves_(moves), first_{0} {
  for (std::size_t s = 0; s < def.sets.size(); ++s) {
    const PieceSet& set = def.sets[s];
    if (set.slots * set.orientations > 256)
      throw InputError(def.file, 0,
                       fmt::format("set {}: {} slots of {} twists are more than the search "
                                   "handles (256 a set)",
                                   set.name, set.slots, set.orientations));
    first_.push_back(first_.back() + set.slots);
    std::vector<bool> distinct(set.slots);
    for (unsigned p = 0; p < set.slots; ++p)
      distinct[p] = std::count(def.solved.perm[s].begin(), def.solved.perm[s].end(),
                               def.solved.perm[s][p]) == 1;
    all_distinct_ &= std::all_of(distinct.begin(), distinct.end(), [](bool d) { return d; });
    distinct_.push_back(std::move(distinct));
  }
  solved_.resize(pieces());
  encode(def.solved, solved_.data());
  tables_.assign(moves.size() * def.sets.size() * 256, 0);
  for (std::size_t m = 0; m < moves.size(); ++m)
    for (std::size_t s = 0; s < def.sets.size(); ++s) {
      // The piece in slot effect.perm[i] goes to slot i, twisted by effect.ori[i].
      const unsigned o = def.sets[s].orientations;
      std::uint8_t* t = &tables_[(m * def.sets.size() + s) * 256];
      for (unsigned i = 0; i < def.sets[s].slots; ++i) {
        const unsigned from = moves[m].effect.perm[s][i];
        for (unsigned twist = 0; twist < o; ++twist)
          t[from * o + twist] =
              static_cast<std::uint8_t>(i * o + (twist + moves[m].effect.ori[s][i]) % o);
      }
    }
  invertible_ = check_invertible();
  home_at_.assign(def.sets.size() * 256, kNowhere);
  for (std::size_t s = 0; s < def.sets.size(); ++s) {
    const unsigned o = def.sets[s].orientations;
    for (unsigned slot = 0; slot < def.sets[s].slots; ++slot) {
      home_.push_back(def.solved.perm[s][slot]);
      home_at_[s * 256 + slot * o + def.solved.ori[s][slot]] = def.solved.perm[s][slot];
    }
  }
  for (std::size_t m = 0; m < moves.size(); ++m) {
    std::size_t count = 0;
    for (std::size_t s = 0; s < def.sets.size(); ++s)
      for (unsigned i = 0; i < def.sets[s].slots; ++i)
        count += moves[m].effect.perm[s][i] != i || moves[m].effect.ori[s][i] != 0;
    moved_.push_back(count);
  }
  slot_of_.assign(def.sets.size() * 256, 0);
  twist_undone_.assign(def.sets.size() * 256, 0);
  for (std::size_t s = 0; s < def.sets.size(); ++s) {
    const unsigned o = def.sets[s].orientations;
    for (unsigned b = 0; b < def.sets[s].slots * o; ++b) {
      slot_of_[s * 256 + b] = static_cast<std::uint8_t>(b / o);
      twist_undone_[s * 256 + b] = static_cast<std::uint8_t>((o - b % o) % o);
    }
  }
}

bool PieceMoves::check_invertible() const {
  if (!all_distinct_) return false;
  // invert() takes the solved position for the identity: no piece twisted.
  for (std::size_t s = 0; s + 1 < first_.size(); ++s)
    for (std::size_t p = first_[s]; p < first_[s + 1]; ++p)
      if (solved_[p] != (p - first_[s]) * def_.sets[s].orientations) return false;
  std::vector<std::uint8_t> once(pieces()), back(pieces());
  for (std::size_t m = 0; m < moves_.size(); ++m) {
    apply(solved_.data(), m, once.data());
    bool found = false;
    for (std::size_t k = 0; k < moves_.size() && !found; ++k) {
      apply(once.data(), k, back.data());
      found = back == solved_;
    }
    if (!found) return false;
  }
  return true;
}

void PieceMoves::encode(const Arrangement& x, std::uint8_t* out) const {
  for (std::size_t s = 0; s < def_.sets.size(); ++s) {
    const std::vector<std::uint8_t>& home = def_.solved.perm[s];
    const unsigned o = def_.sets[s].orientations;
    std::vector<bool> placed(home.size());
    for (unsigned slot = 0; slot < home.size(); ++slot) {
      // The first copy of this piece not yet placed, by its solved slot.
      unsigned p = 0;
      while (p < home.size() && (placed[p] || home[p] != x.perm[s][slot])) ++p;
      if (p == home.size()) throw std::invalid_argument("twisty: not a position of the puzzle");
      placed[p] = true;
      out[first_[s] + p] = static_cast<std::uint8_t>(slot * o + x.ori[s][slot]);
    }
  }
}

}  // namespace cubenum::twisty
