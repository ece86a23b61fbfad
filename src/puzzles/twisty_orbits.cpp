// The ranked space's orbits (the slots the moves bring to one another), the
// twists' potentials, the orbits that move together, and the parities the
// moves tie.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "cubenum/core/error.hpp"
#include "cubenum/core/progress.hpp"
#include "cubenum/core/ranking.hpp"
#include "twisty_space_internal.hpp"

namespace cubenum::twisty {
namespace {

unsigned parity_of(std::span<const std::uint8_t> perm) {
  std::vector<bool> seen(perm.size(), false);
  unsigned parity = 0;
  for (std::size_t i = 0; i < perm.size(); ++i) {
    if (seen[i]) continue;
    std::size_t length = 0;
    for (std::size_t j = i; !seen[j]; j = perm[j]) {
      seen[j] = true;
      ++length;
    }
    parity ^= (length + 1) & 1U;  // a cycle of even length is odd
  }
  return parity;
}

// The largest potential (see Orbit) the orbit's twists have: for each
// divisor d of the radix, from the largest, phi is propagated from position
// 0 along every move and checked; the pieces of one kind must also share
// their base (identical pieces are told apart by nothing else). Then the
// digits become free parts: radix / d values, moved by
// (phi(from) + add - phi(to)) / d.
void find_potential(Orbit& o, const std::vector<std::uint8_t>& solved_digits) {
  const std::size_t k = o.size();
  for (unsigned d = o.radix; d > 1; --d) {
    if (o.radix % d != 0) continue;
    std::vector<int> phi(k, -1);
    std::vector<std::size_t> queue{0};
    phi[0] = 0;
    bool ok = true;
    for (std::size_t head = 0; head < queue.size() && ok; ++head) {
      const std::size_t j = queue[head];
      for (std::size_t m = 0; m < o.from.size() && ok; ++m)
        for (std::size_t i = 0; i < k && ok; ++i) {
          if (o.from[m][i] != j) continue;  // the piece at j moves to i
          const int want = static_cast<int>((static_cast<unsigned>(phi[j]) + o.add[m][i]) % d);
          if (phi[i] < 0) {
            phi[i] = want;
            queue.push_back(i);
          } else {
            ok = phi[i] == want;
          }
        }
    }
    if (!ok || queue.size() != k) continue;
    std::vector<int> base(o.kinds(), -1);
    for (std::size_t i = 0; i < k && ok; ++i) {
      const int b = static_cast<int>((solved_digits[i] + d - static_cast<unsigned>(phi[i])) % d);
      int& kind_base = base[o.kind[i]];
      if (kind_base >= 0 && kind_base != b) ok = false;
      kind_base = b;
    }
    if (!ok) continue;
    o.potential = d;
    o.phi.assign(phi.begin(), phi.end());
    o.kind_base.assign(base.begin(), base.end());
    const unsigned free = o.radix / d;
    for (std::size_t m = 0; m < o.from.size(); ++m)
      for (std::size_t i = 0; i < k; ++i) {
        const int shift = (phi[o.from[m][i]] + o.add[m][i] - phi[i]) / static_cast<int>(d);
        o.add[m][i] = static_cast<std::uint8_t>((shift % static_cast<int>(free) + free) % free);
      }
    o.radix = free;
    // free_digit without a division: [(phi + base) * d * free + digit].
    o.free_of.resize((2 * d - 1) * d * free);
    for (unsigned tie = 0; tie < 2 * d - 1; ++tie)
      for (unsigned digit = 0; digit < d * free; ++digit)
        o.free_of[(tie * d * free) + digit] =
            static_cast<std::uint8_t>((digit + 2 * d * free - tie) % (d * free) / d);
    return;
  }
}

}  // namespace

// A digit (twist / step) as the free part of a piece of kind `kind` at
// position i, and back: digit = phi(i) + base(kind) + potential * free,
// mod potential * radix.
unsigned Orbit::free_digit(std::size_t i, unsigned of_kind, unsigned digit) const {
  if (potential == 1) return digit;
  return free_of[(phi[i] + kind_base[of_kind]) * radix * potential + digit];
}

unsigned Orbit::full_digit(std::size_t i, unsigned of_kind, unsigned free) const {
  if (potential == 1) return free;
  return (phi[i] + kind_base[of_kind] + potential * free) % (radix * potential);
}

bool Orbit::fits(std::size_t i, unsigned of_kind, unsigned digit) const {
  return potential == 1 ||
         (digit + potential - phi[i] % potential) % potential == kind_base[of_kind];
}

void TwistySpace::find_orbits(const Definition& def) {
  for (unsigned s = 0; s < def.sets.size(); ++s) {
    const PieceSet& set = def.sets[s];
    std::vector<unsigned> root(set.slots);
    std::iota(root.begin(), root.end(), 0U);
    auto find = [&](unsigned x) {
      while (root[x] != x) x = root[x] = root[root[x]];
      return x;
    };
    for (const Move& m : moves_)
      for (unsigned i = 0; i < set.slots; ++i) {
        const unsigned a = find(i), b = find(m.effect.perm[s][i]);
        if (a != b) root[std::max(a, b)] = std::min(a, b);
      }
    for (unsigned first = 0; first < set.slots; ++first) {
      if (find(first) != first) continue;
      Orbit o;
      o.set = s;
      for (unsigned i = first; i < set.slots; ++i)
        if (find(i) == first) o.slots.push_back(static_cast<std::uint8_t>(i));
      // Kinds: the pieces in the orbit, in increasing order of their numbers.
      std::vector<std::uint8_t> pieces;
      for (std::uint8_t slot : o.slots) pieces.push_back(def.solved.perm[s][slot]);
      o.piece = pieces;
      std::sort(o.piece.begin(), o.piece.end());
      o.piece.erase(std::unique(o.piece.begin(), o.piece.end()), o.piece.end());
      o.count.assign(o.piece.size(), 0);
      o.kind_of_label.assign(256, 0);
      for (std::size_t k = 0; k < o.piece.size(); ++k)
        o.kind_of_label[o.piece[k]] = static_cast<std::uint8_t>(k);
      for (std::uint8_t p : pieces) {
        const auto k = static_cast<std::uint8_t>(
            std::lower_bound(o.piece.begin(), o.piece.end(), p) - o.piece.begin());
        o.kind.push_back(k);
        ++o.count[k];
      }
      // Where each move takes the orbit's pieces from.
      std::vector<int> position(set.slots, -1);
      for (std::size_t i = 0; i < o.slots.size(); ++i) position[o.slots[i]] = static_cast<int>(i);
      for (const Move& m : moves_) {
        std::vector<std::uint8_t> from;
        for (std::uint8_t slot : o.slots)
          from.push_back(static_cast<std::uint8_t>(position[m.effect.perm[s][slot]]));
        o.from.push_back(std::move(from));
      }
      // Twists: the step every twist keeps, then the sum the moves keep.
      o.orientations = set.orientations;
      const unsigned om = set.orientations;
      unsigned step = om;
      for (const Move& m : moves_)
        for (std::uint8_t slot : o.slots) step = std::gcd(step, unsigned{m.effect.ori[s][slot]});
      const unsigned first_twist = def.solved.ori[s][o.slots[0]];
      for (std::uint8_t slot : o.slots)
        step = std::gcd(step, (def.solved.ori[s][slot] + om - first_twist) % om);
      if (step == 0 || step == om) step = om;  // twists never change
      o.step = step;
      o.radix = om / step;
      o.offset = first_twist % step;
      for (const Move& m : moves_) {
        std::vector<std::uint8_t> add;
        for (std::uint8_t slot : o.slots)
          add.push_back(static_cast<std::uint8_t>(o.radix == 1 ? 0 : m.effect.ori[s][slot] / step));
        o.add.push_back(std::move(add));
      }
      if (o.radix > 1) {
        std::vector<std::uint8_t> solved_digits;
        for (std::uint8_t slot : o.slots)
          solved_digits.push_back(
              static_cast<std::uint8_t>(((def.solved.ori[s][slot] + om - o.offset) % om) / step));
        find_potential(o, solved_digits);
        // The sum of the (free) digits the moves keep.
        unsigned modulus = o.radix;
        for (const auto& add : o.add)
          modulus = std::gcd(modulus, std::accumulate(add.begin(), add.end(), 0U) % o.radix);
        o.sum_modulus = modulus == 0 ? o.radix : modulus;
        unsigned sum = 0;
        for (std::size_t i = 0; i < o.size(); ++i)
          sum += o.free_digit(i, o.kind[i], solved_digits[i]);
        o.sum_target = sum % o.sum_modulus;
      }
      o.has_parity = o.size() >= 2 && o.kinds() == o.size();
      if (o.has_parity) o.solved_parity = parity_of(o.kind);
      orbits_.push_back(std::move(o));
    }
  }
  find_couplings();
  for (const Orbit& o : orbits_) {
    base_.push_back(base_.empty() ? 0 : base_.back() + orbits_[base_.size() - 1].size());
    if (o.has_parity && o.size() > 20)
      throw InputError(def.file, 0,
                       fmt::format("set {} has {} distinct pieces in one orbit: too many states "
                                   "to enumerate",
                                   def.sets[o.set].name, o.size()));
  }
}

// Orbits whose pieces follow an earlier orbit's distinct pieces: a
// bijection beta of the positions with from_B[m][beta(i)] =
// beta(from_A[m][i]) for every move, found from each choice of beta(0)
// by propagation along the moves.
void TwistySpace::find_couplings() {
  for (std::size_t b = 0; b < orbits_.size(); ++b) {
    Orbit& follower = orbits_[b];
    if (follower.kinds() < 2) continue;
    const std::size_t k = follower.size();
    for (std::size_t a = 0; a < b && follower.coupled_to < 0; ++a) {
      const Orbit& leader = orbits_[a];
      if (leader.size() != k || leader.kinds() != k || leader.coupled_to >= 0) continue;
      for (std::size_t start = 0; start < k && follower.coupled_to < 0; ++start) {
        std::vector<int> beta(k, -1);
        std::vector<bool> used(k, false);
        std::vector<std::size_t> queue{0};
        beta[0] = static_cast<int>(start);
        used[start] = true;
        bool ok = true;
        for (std::size_t head = 0; head < queue.size() && ok; ++head) {
          const std::size_t i = queue[head];
          for (std::size_t m = 0; m < moves_.size() && ok; ++m) {
            const std::size_t j = leader.from[m][i];
            const int image = follower.from[m][static_cast<std::size_t>(beta[i])];
            if (beta[j] < 0) {
              ok = !used[static_cast<std::size_t>(image)];
              beta[j] = image;
              used[static_cast<std::size_t>(image)] = true;
              queue.push_back(j);
            } else {
              ok = beta[j] == image;
            }
          }
        }
        if (!ok || queue.size() != k) continue;
        follower.coupled_to = static_cast<int>(a);
        follower.beta.assign(beta.begin(), beta.end());
        follower.follow.assign(k, 0);
        for (std::size_t i = 0; i < k; ++i)
          follower.follow[leader.kind[i]] = follower.kind[static_cast<std::size_t>(beta[i])];
        follower.has_parity = false;  // its arrangement is the leader's
      }
    }
  }
}

// The kinds of a coupled orbit's pieces, from its leader's.
void TwistySpace::follow_leaders(Position& p) const {
  for (std::size_t o = 0; o < orbits_.size(); ++o) {
    const Orbit& follower = orbits_[o];
    if (follower.coupled_to < 0) continue;
    const auto a = static_cast<std::size_t>(follower.coupled_to);
    for (std::size_t i = 0; i < follower.size(); ++i)
      p.kind[base_[o] + follower.beta[i]] = follower.follow[p.kind[base_[a] + i]];
  }
}

// Parities the moves tie: Gaussian elimination over GF(2) of the moves'
// parities on the orbits of distinct pieces, the orbits in the order of
// their last part, so that an orbit's parity is fixed only by orbits
// decoded before it.
void TwistySpace::find_parities() {
  std::vector<unsigned> order;
  std::vector<std::size_t> last_part(orbits_.size(), 0);
  for (std::size_t i = 0; i < parts_.size(); ++i)
    if (parts_[i].kind == Part::Kind::Pieces) last_part[parts_[i].orbit] = i;
  for (unsigned o = 0; o < orbits_.size(); ++o)
    if (orbits_[o].has_parity) order.push_back(o);
  std::sort(order.begin(), order.end(),
            [&](unsigned a, unsigned b) { return last_part[a] < last_part[b]; });
  std::vector<std::vector<std::uint8_t>> rows;
  for (std::size_t m = 0; m < moves_.size(); ++m) {
    std::vector<std::uint8_t> row;
    for (unsigned o : order)
      row.push_back(static_cast<std::uint8_t>(parity_of(orbits_[o].from[m])));
    rows.push_back(std::move(row));
  }
  std::vector<int> pivot_row(order.size(), -1);
  std::size_t rank = 0;
  for (std::size_t c = 0; c < order.size() && rank < rows.size(); ++c) {
    std::size_t r = rank;
    while (r < rows.size() && rows[r][c] == 0) ++r;
    if (r == rows.size()) continue;
    std::swap(rows[r], rows[rank]);
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (i != rank && rows[i][c] != 0)
        for (std::size_t j = 0; j < order.size(); ++j) rows[i][j] ^= rows[rank][j];
    pivot_row[c] = static_cast<int>(rank++);
  }
  for (std::size_t c = 0; c < order.size(); ++c) {
    if (pivot_row[c] >= 0) continue;
    Orbit& o = orbits_[order[c]];
    o.parity_fixed = true;
    for (std::size_t p = 0; p < c; ++p)
      if (pivot_row[p] >= 0 && rows[static_cast<std::size_t>(pivot_row[p])][c] != 0)
        o.parity_sources.push_back(order[p]);
    Part& last = parts_[last_part[order[c]]];
    last.halved = true;
    last.size /= 2;
  }
  // (The product of all parts is at most 2^48, checked by whole_parts.)
  std::uint64_t row_count = 1, columns = 1;
  for (std::size_t i = 0; i < parts_.size(); ++i)
    (i < row_parts_ ? row_count : columns) *= parts_[i].size;
  if (row_count > std::numeric_limits<std::uint32_t>::max())
    throw InputError(
        def_.file, 0,
        fmt::format("{} ranked states would need {} for the BFS (2 bits a state), and make {} rows "
                    "of {} columns, more than the {} rows cubenum lays out",
                    row_count * columns, progress::bytes_text(double(row_count * columns) / 4),
                    row_count, columns, std::numeric_limits<std::uint32_t>::max()));
  rows_ = static_cast<std::uint32_t>(row_count);
  columns_ = static_cast<std::uint32_t>(columns);
}

}  // namespace cubenum::twisty
