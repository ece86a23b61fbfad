// Positions of the ranked space and their codes: parts decoded and
// encoded, moves applied, arrangements ranked and unranked.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "cubenum/core/ranking.hpp"
#include "twisty_space_internal.hpp"

namespace cubenum::twisty {

// No part filled yet; an orbit of one kind of piece has no part and holds
// that kind everywhere.
Position TwistySpace::blank() const {
  const std::size_t n = orbits_.empty() ? 0 : base_.back() + orbits_.back().size();
  Position p{std::vector<std::uint8_t>(n, kFree), std::vector<std::uint8_t>(n, 0)};
  for (std::size_t o = 0; o < orbits_.size(); ++o)
    if (orbits_[o].kinds() == 1)
      std::fill_n(p.kind.begin() + static_cast<std::ptrdiff_t>(base_[o]), orbits_[o].size(), 0);
  return p;
}

unsigned TwistySpace::orbit_parity(const Position& p, unsigned orbit) const {
  return permutation_parity(
      std::span<const std::uint8_t>(p.kind.data() + base_[orbit], orbits_[orbit].size()));
}

// The parity the moves leave orbit `orbit` (parity_fixed) given its sources.
unsigned TwistySpace::required_parity(const Position& p, unsigned orbit) const {
  const Orbit& o = orbits_[orbit];
  unsigned parity = o.solved_parity;
  for (unsigned source : o.parity_sources)
    parity ^= orbit_parity(p, source) ^ orbits_[source].solved_parity;
  return parity;
}

void TwistySpace::decode_part(const Part& part, std::uint64_t value, Position& p) const {
  const Orbit& o = orbits_[part.orbit];
  const std::size_t k = o.size();
  if (part.kind == Part::Kind::Twists) {
    std::uint8_t* digit = p.digit.data() + base_[part.orbit];
    const unsigned q = o.sum_modulus;
    if (q == 1) {
      digits_unrank(value, o.radix, {digit, k});
      return;
    }
    const unsigned lasts = o.radix / q;  // values of the last digit
    digits_unrank(value / lasts, o.radix, {digit, k - 1});
    unsigned sum = 0;
    for (std::size_t i = 0; i + 1 < k; ++i) sum += digit[i];
    digit[k - 1] =
        static_cast<std::uint8_t>((o.sum_target + q - sum % q) % q + q * (value % lasts));
    return;
  }
  std::uint8_t* kind = p.kind.data() + base_[part.orbit];
  if (part.first_kind == 0) std::fill(kind, kind + k, kFree);
  std::array<std::uint8_t, 256> free, counts, labels;  // the first m, named + 1 used
  std::size_t m = 0;
  for (std::size_t i = 0; i < k; ++i)
    if (kind[i] == kFree) free[m++] = static_cast<std::uint8_t>(i);
  const unsigned named = part.end_kind - part.first_kind;
  unsigned placed = 0;
  for (unsigned j = 0; j < named; ++j) placed += counts[j] = o.count[part.first_kind + j];
  counts[named] = static_cast<std::uint8_t>(m - placed);  // the filler: kinds after this part
  multiset_unrank(part.halved ? 2 * value : value, {counts.data(), named + 1}, {labels.data(), m});
  for (std::size_t j = 0; j < m; ++j)
    if (labels[j] < named) kind[free[j]] = static_cast<std::uint8_t>(part.first_kind + labels[j]);
  if (part.halved && orbit_parity(p, part.orbit) != required_parity(p, part.orbit))
    std::swap(kind[free[m - 2]], kind[free[m - 1]]);
}

std::uint64_t TwistySpace::encode_part(const Part& part, const Position& p) const {
  const Orbit& o = orbits_[part.orbit];
  const std::size_t k = o.size();
  if (part.kind == Part::Kind::Twists) {
    const std::uint8_t* digit = p.digit.data() + base_[part.orbit];
    const unsigned q = o.sum_modulus;
    if (q == 1) return digits_rank({digit, k}, o.radix);
    return digits_rank({digit, k - 1}, o.radix) * (o.radix / q) + digit[k - 1] / q;
  }
  const std::uint8_t* kind = p.kind.data() + base_[part.orbit];
  const unsigned named = part.end_kind - part.first_kind;
  const std::size_t index = static_cast<std::size_t>(&part - parts_.data());
  std::atomic<std::uint32_t>* memo = encoded_.empty() ? nullptr : encoded_[index].get();
  if (memo == nullptr) return rank_pieces(part, kind);
  std::uint32_t key = 0;
  if (!place_weight_[index].empty()) {
    // Each of the part's pieces' place among the slots earlier parts left
    // (the part's labels follow from the places), without a branch.
    const std::uint32_t* weight = place_weight_[index].data();
    std::uint32_t place = 0;
    for (std::size_t i = 0; i < k; ++i) {
      key += place * weight[kind[i]];
      place += kind[i] >= part.first_kind ? 1 : 0;
    }
  } else {
    // Each slot's label + 1 (the part's kinds, then one label for every
    // later kind), 0 for a slot of an earlier part.
    for (std::size_t i = 0; i < k; ++i)
      key = key * (named + 2) + (kind[i] < part.first_kind
                                     ? 0
                                     : 1 + std::min<unsigned>(kind[i] - part.first_kind, named));
  }
  const std::uint32_t known = memo[key].load(std::memory_order_relaxed);
  if (known != kUnknown) return known;
  const std::uint64_t rank = rank_pieces(part, kind);
  // Every thread that computes it stores the same value.
  memo[key].store(static_cast<std::uint32_t>(rank), std::memory_order_relaxed);
  return rank;
}

// The multiset rank of a pieces part's labels, in the slots of its orbit
// (`kind`) that earlier parts left.
std::uint64_t TwistySpace::rank_pieces(const Part& part, const std::uint8_t* kind) const {
  const Orbit& o = orbits_[part.orbit];
  const std::size_t k = o.size();
  const unsigned named = part.end_kind - part.first_kind;
  std::array<std::uint8_t, 256> counts, labels;  // the first named + 1, m used
  std::size_t m = 0;
  for (std::size_t i = 0; i < k; ++i)
    if (kind[i] >= part.first_kind)
      labels[m++] = static_cast<std::uint8_t>(std::min<unsigned>(kind[i] - part.first_kind, named));
  unsigned placed = 0;
  for (unsigned j = 0; j < named; ++j) placed += counts[j] = o.count[part.first_kind + j];
  counts[named] = static_cast<std::uint8_t>(m - placed);
  std::uint64_t rank = multiset_rank({labels.data(), m}, {counts.data(), named + 1},
                                     part.halved ? 2 * part.size : part.size);
  return part.halved ? rank / 2 : rank;
}

// A pieces part's memo key: by labels, (named + 2)^slots patterns; by
// places, where each kind is one piece, free^named.
TwistySpace::MemoKey TwistySpace::memo_key(const Part& part) const {
  const Orbit& o = orbits_[part.orbit];
  const unsigned named = part.end_kind - part.first_kind;
  MemoKey key{0, std::pow(double(named + 2), double(o.size()))};
  unsigned free = 0;
  bool single = true;
  for (unsigned j = part.first_kind; j < o.kinds(); ++j) free += o.count[j];
  for (unsigned j = part.first_kind; j < part.end_kind; ++j) single = single && o.count[j] == 1;
  const double places = std::pow(double(free), double(named));
  if (single && places < key.patterns) key = {free, places};
  return key;
}

// A memo for each pieces part whose key has at most 2^16 patterns (a rank
// costs a few hundred instructions; a look-up, one load).
void TwistySpace::make_encode_memos() {
  encoded_.resize(parts_.size());
  place_weight_.assign(parts_.size(), {});
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    const Part& part = parts_[i];
    if (part.kind != Part::Kind::Pieces || part.size > kUnknown) continue;
    const MemoKey key = memo_key(part);
    if (key.patterns > double(1 << 16)) continue;
    const auto n = static_cast<std::size_t>(key.patterns);
    if (key.place_base != 0) {
      // Piece first_kind + j weighs base^j; other kinds (and kFree) nothing.
      std::vector<std::uint32_t>& weight = place_weight_[i];
      weight.assign(256, 0);
      for (std::uint32_t j = part.first_kind, w = 1; j < part.end_kind; ++j, w *= key.place_base)
        weight[j] = w;
    }
    encoded_[i] = std::make_unique<std::atomic<std::uint32_t>[]>(n);
    for (std::size_t j = 0; j < n; ++j) encoded_[i][j].store(kUnknown, std::memory_order_relaxed);
  }
}

void TwistySpace::apply_move(const Position& in, int m, Position& out) const {
  const auto move = static_cast<std::size_t>(m);
  for (std::size_t o = 0; o < orbits_.size(); ++o) {
    const Orbit& orbit = orbits_[o];
    const std::uint8_t* from = orbit.from[move].data();
    const std::uint8_t* add = orbit.add[move].data();
    const std::size_t b = base_[o], k = orbit.size();
    // Through local pointers: a byte written through a vector's element may
    // alias the vector itself, and every access would load its data again.
    const std::uint8_t* in_kind = in.kind.data() + b;
    std::uint8_t* out_kind = out.kind.data() + b;
    for (std::size_t i = 0; i < k; ++i) out_kind[i] = in_kind[from[i]];
    if (orbit.radix > 1) {
      const std::uint8_t* in_digit = in.digit.data() + b;
      std::uint8_t* out_digit = out.digit.data() + b;
      const unsigned radix = orbit.radix;
      for (std::size_t i = 0; i < k; ++i)
        out_digit[i] = static_cast<std::uint8_t>((in_digit[from[i]] + add[i]) % radix);
    }
  }
}

std::optional<Position> TwistySpace::from_arrangement(const Arrangement& a) const {
  Position p = blank();
  for (std::size_t o = 0; o < orbits_.size(); ++o) {
    const Orbit& orbit = orbits_[o];
    std::vector<std::uint8_t> count(orbit.kinds(), 0);
    unsigned sum = 0;
    for (std::size_t i = 0; i < orbit.size(); ++i) {
      const std::uint8_t slot = orbit.slots[i];
      const auto it =
          std::lower_bound(orbit.piece.begin(), orbit.piece.end(), a.perm[orbit.set][slot]);
      if (it == orbit.piece.end() || *it != a.perm[orbit.set][slot]) return std::nullopt;
      const auto kind = static_cast<std::uint8_t>(it - orbit.piece.begin());
      p.kind[base_[o] + i] = kind;
      ++count[kind];
      const unsigned twist =
          (a.ori[orbit.set][slot] + orbit.orientations - orbit.offset) % orbit.orientations;
      if (twist % orbit.step != 0 || !orbit.fits(i, kind, twist / orbit.step)) return std::nullopt;
      const unsigned free = orbit.free_digit(i, kind, twist / orbit.step);
      p.digit[base_[o] + i] = static_cast<std::uint8_t>(free);
      sum += free;
    }
    if (count != orbit.count || sum % orbit.sum_modulus != orbit.sum_target) return std::nullopt;
  }
  for (std::size_t o = 0; o < orbits_.size(); ++o)
    if (orbits_[o].parity_fixed &&
        orbit_parity(p, static_cast<unsigned>(o)) != required_parity(p, static_cast<unsigned>(o)))
      return std::nullopt;
  Position followed = p;
  follow_leaders(followed);
  if (followed.kind != p.kind) return std::nullopt;
  return p;
}

Arrangement TwistySpace::to_arrangement(const Position& position) const {
  Position p = position;
  Arrangement a = def_.solved;
  write_arrangement(p, a);
  return a;
}

void TwistySpace::write_arrangement(Position& p, Arrangement& a) const {
  follow_leaders(p);
  for (std::size_t o = 0; o < orbits_.size(); ++o) {
    const Orbit& orbit = orbits_[o];
    for (std::size_t i = 0; i < orbit.size(); ++i) {
      const std::uint8_t slot = orbit.slots[i];
      a.perm[orbit.set][slot] = orbit.piece[p.kind[base_[o] + i]];
      const unsigned digit = orbit.full_digit(i, p.kind[base_[o] + i], p.digit[base_[o] + i]);
      a.ori[orbit.set][slot] = static_cast<std::uint8_t>(orbit.offset + orbit.step * digit);
    }
  }
}

bool TwistySpace::contains(const Arrangement& a) const {
  return from_arrangement(a).has_value();
}

std::uint64_t TwistySpace::rank(const Arrangement& a) const {
  const std::optional<Position> p = from_arrangement(a);
  if (!p) throw std::invalid_argument("twisty: a position outside the ranked space");
  return encode_parts(0, row_parts_, *p) * columns_ + encode_parts(row_parts_, parts_.size(), *p);
}

std::uint64_t TwistySpace::rank(const Arrangement& a, Position& p) const {
  read_member(a, p);
  return encode_parts(0, row_parts_, p) * columns_ + encode_parts(row_parts_, parts_.size(), p);
}

void TwistySpace::coordinates(std::uint64_t rank, std::vector<std::uint64_t>& out) const {
  out.resize(parts_.size());
  std::uint64_t row = rank / columns_, column = rank % columns_;
  for (std::size_t i = parts_.size(); i-- > 0;) {
    std::uint64_t& value = i < row_parts_ ? row : column;
    out[i] = value % parts_[i].size;
    value /= parts_[i].size;
  }
}

bool TwistySpace::ranks_below(const Arrangement& a, const std::vector<std::uint64_t>& coordinates,
                              Position& p) const {
  read_member(a, p);
  for (std::size_t i = 0; i < parts_.size(); ++i)
    if (const std::uint64_t value = encode_part(parts_[i], p); value != coordinates[i])
      return value < coordinates[i];
  return false;
}

void TwistySpace::read_member(const Arrangement& a, Position& p) const {
  if (p.kind.size() != blank_.kind.size()) p = blank_;
  for (std::size_t o = 0; o < orbits_.size(); ++o) {
    const Orbit& orbit = orbits_[o];
    const std::uint8_t* perm = a.perm[orbit.set].data();
    const std::uint8_t* ori = a.ori[orbit.set].data();
    for (std::size_t i = 0; i < orbit.size(); ++i) {
      const std::uint8_t slot = orbit.slots[i];
      const std::uint8_t kind = orbit.kind_of_label[perm[slot]];
      p.kind[base_[o] + i] = kind;
      // ori and offset are below orientations: no division.
      unsigned twist = ori[slot] + orbit.orientations - orbit.offset;
      if (twist >= orbit.orientations) twist -= orbit.orientations;
      if (orbit.step != 1) twist /= orbit.step;
      p.digit[base_[o] + i] = static_cast<std::uint8_t>(
          orbit.potential == 1 ? twist : orbit.free_digit(i, kind, twist));
    }
  }
}

void TwistySpace::write_parts(std::span<const std::size_t> parts,
                              std::span<const std::uint64_t> values, Position& p) const {
  if (p.kind.size() != blank_.kind.size()) p = blank_;
  for (std::size_t i : parts) {
    const std::size_t b = base_[parts_[i].orbit];
    std::copy_n(blank_.kind.begin() + static_cast<std::ptrdiff_t>(b),
                orbits_[parts_[i].orbit].size(), p.kind.begin() + static_cast<std::ptrdiff_t>(b));
  }
  for (std::size_t j = 0; j < parts.size(); ++j) decode_part(parts_[parts[j]], values[j], p);
}

void TwistySpace::unrank(std::uint64_t rank, Arrangement& out, Position& p) const {
  const Position& empty = blank_;
  p.kind.assign(empty.kind.begin(), empty.kind.end());
  p.digit.assign(empty.digit.begin(), empty.digit.end());
  decode_parts(0, row_parts_, rank / columns_, p);
  decode_parts(row_parts_, parts_.size(), rank % columns_, p);
  write_arrangement(p, out);
}

Arrangement TwistySpace::unrank(std::uint64_t rank) const {
  Position p = blank();
  decode_parts(0, row_parts_, rank / columns_, p);
  decode_parts(row_parts_, parts_.size(), rank % columns_, p);
  return to_arrangement(p);
}

std::uint64_t TwistySpace::step(std::uint64_t rank, int m) const {
  Position p = blank(), q = blank();
  decode_parts(0, row_parts_, rank / columns_, p);
  decode_parts(row_parts_, parts_.size(), rank % columns_, p);
  apply_move(p, m, q);
  return encode_parts(0, row_parts_, q) * columns_ + encode_parts(row_parts_, parts_.size(), q);
}

}  // namespace cubenum::twisty
