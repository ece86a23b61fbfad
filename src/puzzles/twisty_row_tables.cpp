// The row engine's tables of the ranked space: column contexts, row steps,
// the columns' permutations (built, shared by signature, and as networks).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <map>

#include "cubenum/core/error.hpp"
#include "cubenum/core/parallel.hpp"
#include "twisty_space_internal.hpp"

namespace cubenum::twisty {
namespace {

constexpr std::size_t kMaxParts = 64;
constexpr std::uint32_t kNoRow =
    ~std::uint32_t{0};  // 2^48 states have at most 48 parts of 2 or more

// Rank of a k-subset of positions (bit i: position i) in colex order.
std::uint64_t combination_rank(const std::vector<bool>& chosen) {
  std::uint64_t rank = 0;
  unsigned k = 0;
  for (unsigned i = 0; i < chosen.size(); ++i)
    if (chosen[i]) rank += binomial(i, ++k);
  return rank;
}

}  // namespace

// A range of parts' codes (positions and their codes are in
// twisty_codes.cpp): here, where the tables built from them inline them.
void TwistySpace::decode_parts(std::size_t first, std::size_t last, std::uint64_t value,
                               Position& p) const {
  std::array<std::uint64_t, kMaxParts> digits{};
  for (std::size_t i = last; i-- > first;) {
    digits[i] = value % parts_[i].size;
    value /= parts_[i].size;
  }
  for (std::size_t i = first; i < last; ++i) decode_part(parts_[i], digits[i], p);
}

std::uint64_t TwistySpace::encode_parts(std::size_t first, std::size_t last,
                                        const Position& p) const {
  std::uint64_t value = 0;
  for (std::size_t i = first; i < last; ++i)
    value = value * parts_[i].size + encode_part(parts_[i], p);
  return value;
}

// What a column permutation depends on besides the move: which slots of the
// cut orbit the row's pieces take (and the parity its column part must
// have), and the parity the row fixes for column-side orbits.
std::uint32_t TwistySpace::context_of(const Position& row) const {
  std::uint64_t context = 0;
  if (cut_orbit_ >= 0) {
    const auto cut = static_cast<unsigned>(cut_orbit_);
    const Orbit& o = orbits_[cut];
    const std::uint8_t* kind = row.kind.data() + base_[cut];
    std::vector<bool> taken(o.size());
    for (std::size_t i = 0; i < o.size(); ++i) taken[i] = kind[i] < cut_kinds_;
    context = combination_rank(taken);
    if (parts_[row_parts_].halved) {
      // The parity of the row's placement with the free slots filled in order.
      Position filled = row;
      std::uint8_t next = static_cast<std::uint8_t>(cut_kinds_);
      for (std::size_t i = 0; i < o.size(); ++i)
        if (!taken[i]) filled.kind[base_[cut] + i] = next++;
      context = context * 2 + (orbit_parity(filled, cut) ^ required_parity(row, cut));
    }
  }
  for (unsigned o : context_parities_) {
    unsigned bit = 0;
    for (unsigned source : orbits_[o].parity_sources)
      if (is_row_orbit(source)) bit ^= orbit_parity(row, source) ^ orbits_[source].solved_parity;
    context = context * 2 + bit;
  }
  return static_cast<std::uint32_t>(context);
}

bool TwistySpace::is_row_orbit(unsigned orbit) const {
  for (std::size_t i = row_parts_; i < parts_.size(); ++i)
    if (parts_[i].orbit == orbit && parts_[i].kind == Part::Kind::Pieces) return false;
  return true;
}

// The column contexts: which slots of the cut orbit the row's pieces take,
// and the parities the row fixes for column-side orbits.
void TwistySpace::find_contexts() {
  std::uint64_t contexts = 1;
  if (cut_orbit_ >= 0) {
    const Orbit& o = orbits_[static_cast<std::size_t>(cut_orbit_)];
    unsigned taken = 0;
    for (unsigned k = 0; k < cut_kinds_; ++k) taken += o.count[k];
    contexts =
        binomial(static_cast<unsigned>(o.size()), taken) * (parts_[row_parts_].halved ? 2 : 1);
  }
  for (unsigned o = 0; o < orbits_.size(); ++o) {
    if (!orbits_[o].parity_fixed || is_row_orbit(o) || static_cast<int>(o) == cut_orbit_) continue;
    for (unsigned source : orbits_[o].parity_sources)
      cut_parity_tied_ = cut_parity_tied_ || static_cast<int>(source) == cut_orbit_;
    bool from_row = false;
    for (unsigned source : orbits_[o].parity_sources) from_row = from_row || is_row_orbit(source);
    if (from_row) {
      context_parities_.push_back(o);
      contexts *= 2;
    }
  }
  parity_contexts_ = (cut_orbit_ >= 0 && parts_[row_parts_].halved ? 2U : 1U)
                     << context_parities_.size();
  if (contexts > (1U << 24))
    throw InputError(def_.file, 0, fmt::format("{} column contexts: too many", contexts));
  contexts_ = static_cast<std::uint32_t>(contexts);
}

// An upper bound of what build_tables allocates, and of the tables a search
// builds on first use, from the layout alone; each term is an allocation
// below (with malloc's 16 bytes a block where there are many blocks).
std::uint64_t TwistySpace::count_table_bytes(const SpaceOptions& options) const {
  const double rows = rows_, columns = columns_, contexts = contexts_;
  const double moves = double(moves_.size()), slots = contexts * moves;
  double bytes = 0;
  // Encoding memos: 4 bytes a key pattern, and a place key's weights
  // (make_encode_memos).
  for (const Part& part : parts_) {
    if (part.kind != Part::Kind::Pieces || part.size > kUnknown) continue;
    const MemoKey key = memo_key(part);
    if (key.patterns <= double(1 << 16))
      bytes += key.patterns * 4 + 16 + (key.place_base != 0 ? 256 * 4 + 16 : 0);
  }
  bytes += double(parts_.size()) * (8 + sizeof(std::vector<std::uint32_t>));
  // A row's context, a context's row; the rows' steps.
  if (contexts_ > 1) bytes += rows * 4 + contexts * 4;
  if (rows_ > 1 && rows * moves <= double(options.max_row_table_entries)) bytes += rows * moves * 4;
  // Per (context, move): a network pointer, a once_flag, a table pointer,
  // the table it uses, an id.
  bytes += slots * (8 + sizeof(std::once_flag) + 8 + 8 + 4);
  // The contexts that occur (a vector grown by doubling). When the tables
  // of those are built up front: the first slot of each signature; for
  // each of theirs (at most max_action_bytes of tables), a unique slot and
  // where its context starts (vectors grown by doubling), and the map of
  // signatures: a node of a string and an index, the string's own block
  // when it is longer than 15 characters (the cut orbit's free positions
  // and three numbers, grown by doubling).
  bytes += contexts * 8;
  const double built = std::min(slots, double(options.max_action_bytes) / (columns * 2));
  const double key =
      cut_orbit_ < 0 ? 0 : 2 * (double(orbits_[std::size_t(cut_orbit_)].size()) + 26) + 32;
  bytes += slots * 8 + built * (16 + 16 + 96 + key);
  // One context's moves at once: which entries the inverses gave.
  bytes += moves * columns;
  // The column permutations, 2 bytes a column, built up front or on first use.
  bytes += slots * (columns * 2 + 16);
  // Beneš networks, when they fit: stages x bits / 8 bytes of masks each
  // (and the object, its pointer kept), routed on first use. (Routing one
  // takes 17 bytes a bit for a while, a thread's scratch like the search's
  // own: not counted.)
  std::uint64_t bits = 64;
  while (bits < columns_) bits *= 2;
  const double stages = 2 * std::countr_zero(bits) - 1;
  const double networks = slots * stages * double(bits) / 8;
  if (networks <= double(options.max_network_bytes) &&
      rows * columns >= double(options.min_network_states))
    bytes += networks + slots * (64 + 16);
  return static_cast<std::uint64_t>(std::ceil(bytes));
}

void TwistySpace::build_tables(const SpaceOptions& options) {
  const auto n_moves = moves_.size();
  if (contexts_ > 1) {
    context_of_row_.resize(rows_);
    context_row_ = std::make_unique<std::atomic<std::uint32_t>[]>(contexts_);
    for (std::uint32_t c = 0; c < contexts_; ++c) context_row_[c].store(kNoRow);
  }
  if (rows_ > 1 && std::uint64_t{rows_} * n_moves <= options.max_row_table_entries)
    row_table_.resize(std::size_t{rows_} * n_moves);
  if (contexts_ > 1 || !row_table_.empty()) {
    parallel_for_chunks(rows_, 256, [&](std::size_t begin, std::size_t end) {
      Position p = blank(), q = blank();
      for (std::size_t r = begin; r != end; ++r) {
        decode_parts(0, row_parts_, r, p);
        if (contexts_ > 1) {
          const std::uint32_t c = context_of(p);
          context_of_row_[r] = c;
          context_row_[c].store(static_cast<std::uint32_t>(r), std::memory_order_relaxed);
        }
        if (row_table_.empty()) continue;
        for (std::size_t m = 0; m < n_moves; ++m) {
          apply_move(p, static_cast<int>(m), q);
          row_table_[r * n_moves + m] = static_cast<std::uint32_t>(encode_parts(0, row_parts_, q));
        }
      }
    });
  }
  networks_ =
      std::make_unique<std::atomic<const BitPermutation*>[]>(std::size_t{contexts_} * n_moves);
  std::uint64_t bits = 64;
  while (bits < columns_) bits *= 2;
  const auto stages = static_cast<std::uint64_t>(2 * std::countr_zero(bits) - 1);
  networks_fit_ = double(contexts_) * double(n_moves) * double(stages * bits / 8) <=
                      double(options.max_network_bytes) &&
                  double(rows_) * double(columns_) >= double(options.min_network_states);
  // Networks of up to 32 words stay in registers; bigger ones stream their
  // masks, and cost more a word and stage (bench/core_bench.cpp).
  network_words_ = static_cast<std::uint32_t>(bits / 64);
  permute_nanoseconds_ =
      networks_fit_ ? (network_words_ <= 32 ? 0.25 : 0.4) * double(stages) * double(network_words_)
                    : std::numeric_limits<double>::infinity();
  const std::size_t slots = std::size_t{contexts_} * n_moves;
  action_once_ = std::make_unique<std::once_flag[]>(slots);
  action_tables_.resize(slots);
  table_of_.assign(slots, nullptr);
  action_ids_.assign(slots, 0);
  // Every permutation of the contexts that occur, now and in parallel,
  // unless there are too many to keep (then each is built on first use).
  // Slots with equal signatures share one table: built once, one network.
  std::vector<std::uint32_t> used;
  for (std::uint32_t c = 0; c < contexts_; ++c)
    if (contexts_ == 1 || context_row_[c].load() != kNoRow) used.push_back(c);
  if (double(used.size()) * double(n_moves) * columns_ * 2 > double(options.max_action_bytes))
    return;
  std::vector<std::size_t> first_of(slots, 0);
  std::vector<std::size_t> unique;
  {
    std::map<std::string, std::size_t> by_signature;
    for (std::uint32_t c : used)
      for (std::size_t m = 0; m < n_moves; ++m) {
        const std::size_t i = std::size_t{c} * n_moves + m;
        const auto [at, fresh] = by_signature.emplace(signature(c, static_cast<int>(m)), i);
        first_of[i] = at->second;
        if (fresh) unique.push_back(i);
      }
  }
  build_unique_actions(unique);
  for (std::uint32_t c : used)
    for (std::size_t m = 0; m < n_moves; ++m) {
      const std::size_t i = std::size_t{c} * n_moves + m;
      if (first_of[i] == i) continue;
      std::call_once(action_once_[i], [&] {
        table_of_[i] = table_of_[first_of[i]];
        action_ids_[i] = action_ids_[first_of[i]];
      });
    }
}

// The tables of these slots (in context order), each context's at once:
// a column is decoded once for all its moves. In parallel over contexts and
// over columns, unless there is little to build (a second thread costs more
// than a few thousand entries).
void TwistySpace::build_unique_actions(const std::vector<std::size_t>& slots) const {
  const auto n_moves = moves_.size();
  std::vector<std::size_t> starts;  // slots[starts[g]..starts[g + 1]): one context
  for (std::size_t u = 0; u < slots.size(); ++u)
    if (u == 0 || slots[u] / n_moves != slots[u - 1] / n_moves) starts.push_back(u);
  starts.push_back(slots.size());
  const bool small = slots.size() * columns_ < (1U << 16);
  const std::size_t grain = small ? starts.size() : 1;
  parallel_for_chunks(starts.size() - 1, grain, [&](std::size_t begin, std::size_t end) {
    for (std::size_t g = begin; g != end; ++g) {
      const auto context = static_cast<std::uint32_t>(slots[starts[g]] / n_moves);
      std::vector<int> moves;
      std::vector<std::unique_ptr<std::uint16_t[]>> tables;
      std::vector<std::uint16_t*> out;
      for (std::size_t u = starts[g]; u != starts[g + 1]; ++u) {
        moves.push_back(static_cast<int>(slots[u] % n_moves));
        tables.push_back(std::make_unique<std::uint16_t[]>(columns_));
        out.push_back(tables.back().get());
      }
      const std::uint32_t chunk = small ? columns_ : 4096;
      parallel_for_chunks(columns_, chunk, [&](std::size_t first, std::size_t last) {
        build_actions(context, moves, out, static_cast<std::uint32_t>(first),
                      static_cast<std::uint32_t>(last));
      });
      for (std::size_t k = 0; k < moves.size(); ++k) {
        const std::size_t slot = slots[starts[g] + k];
        std::call_once(action_once_[slot], [&] { install_action(slot, std::move(tables[k])); });
      }
    }
  });
}

// What a context's permutation for move m depends on: how the move takes
// the cut orbit's free slots to the free slots after it (their order), the
// parities the contexts before and after fix, and the move itself when the
// column has other parts. Equal signatures, equal permutations.
std::string TwistySpace::signature(std::uint32_t context, int m) const {
  std::string key;
  if (cut_orbit_ < 0 || cut_parity_tied_) return std::to_string(context) + "/" + std::to_string(m);
  const auto cut = static_cast<std::size_t>(cut_orbit_);
  const std::uint32_t row = context_row_[context].load(std::memory_order_relaxed);
  Position p = blank();
  decode_parts(0, row_parts_, row, p);
  const Orbit& o = orbits_[cut];
  const std::uint8_t* kind = p.kind.data() + base_[cut];
  std::vector<int> rank_in_free(o.size(), -1);
  int free = 0;
  for (std::size_t i = 0; i < o.size(); ++i)
    if (kind[i] == kFree) rank_in_free[i] = free++;
  const auto& from = o.from[static_cast<std::size_t>(m)];
  for (std::size_t i = 0; i < o.size(); ++i)
    if (rank_in_free[from[i]] >= 0) key += static_cast<char>(rank_in_free[from[i]]);
  const std::uint32_t after = context_of_row_[row_step(row, m)];
  // fmt, not "/" + std::to_string(...): in this file GCC 12 misjudges that
  // concatenation (array-bounds).
  key += fmt::format("/{}/{}", context % parity_contexts_, after % parity_contexts_);
  if (parts_.size() - row_parts_ > 1) key += fmt::format("/{}", m);
  return key;
}

std::uint32_t TwistySpace::row_step(std::uint32_t r, int m) const {
  if (rows_ == 1) return 0;
  const auto n_moves = moves_.size();
  if (!row_table_.empty())
    return row_table_[std::size_t{r} * n_moves + static_cast<std::size_t>(m)];
  thread_local Position p, q;
  if (p.kind.size() != blank().kind.size()) p = blank(), q = blank();
  decode_parts(0, row_parts_, r, p);
  apply_move(p, m, q);
  return static_cast<std::uint32_t>(encode_parts(0, row_parts_, q));
}

const std::uint16_t* TwistySpace::action(std::uint32_t r, int m) const {
  return action_for(contexts_ > 1 ? context_of_row_[r] : 0, m);
}

const std::uint16_t* TwistySpace::action_for(std::uint32_t context, int m) const {
  const std::size_t i = std::size_t{context} * moves_.size() + static_cast<std::size_t>(m);
  std::call_once(action_once_[i], [&] {
    auto table = std::make_unique<std::uint16_t[]>(columns_);
    std::uint16_t* out = table.get();
    build_actions(context, {&m, 1}, {&out, 1}, 0, columns_);
    install_action(i, std::move(table));
  });
  return table_of_[i];
}

// Called once for each slot, under its once_flag.
void TwistySpace::install_action(std::size_t slot, std::unique_ptr<std::uint16_t[]> table) const {
  bool identity = true;
  for (std::uint32_t c = 0; c < columns_ && identity; ++c) identity = table[c] == c;
  table_of_[slot] = table.get();
  action_ids_[slot] = identity ? bfs::kIdentityAction : static_cast<std::uint32_t>(slot);
  action_tables_[slot] = std::move(table);
}

bfs::MovePower TwistySpace::move_power(int m) const {
  const Move& move = moves_[static_cast<std::size_t>(m)];
  std::size_t g = 0;
  while (moves_[g].base != move.base) ++g;
  return {static_cast<int>(g), move.power / moves_[g].power, move.order};
}

std::uint32_t TwistySpace::action_id(std::uint32_t r, int m) const {
  const std::uint32_t context = contexts_ > 1 ? context_of_row_[r] : 0;
  action_for(context, m);
  return action_ids_[std::size_t{context} * moves_.size() + static_cast<std::size_t>(m)];
}

void TwistySpace::permute(std::uint32_t id, const std::uint64_t* in, std::uint64_t* out) const {
  std::atomic<const BitPermutation*>& slot = networks_[id];
  const BitPermutation* network = slot.load(std::memory_order_acquire);
  if (network == nullptr) {
    const auto n_moves = static_cast<std::uint32_t>(moves_.size());
    const std::uint16_t* table = action_for(id / n_moves, static_cast<int>(id % n_moves));
    const std::vector<std::uint32_t> to(table, table + columns_);
    auto routed = std::make_unique<BitPermutation>(to);  // routed outside the lock
    std::lock_guard lock(networks_mutex_);
    network = slot.load(std::memory_order_relaxed);
    if (network == nullptr) {
      network = routed.get();
      slot.store(network, std::memory_order_release);
      network_storage_.push_back(std::move(routed));
    }
  }
  network->apply(in, (columns_ + 63) / 64, out);
}

// out[k][c]: where moves[k] takes column c of a row of this context, for
// the columns [first_column, end_column). Any row of the context gives the
// same permutations.
void TwistySpace::build_actions(std::uint32_t context, std::span<const int> moves,
                                std::span<std::uint16_t* const> out, std::uint32_t first_column,
                                std::uint32_t end_column) const {
  const std::uint32_t row =
      contexts_ > 1 ? context_row_[context].load(std::memory_order_relaxed) : 0;
  Position p = blank();
  decode_parts(0, row_parts_, row, p);
  Position q = p;
  // A column is decoded from the first of its parts that differs from the
  // column before's (the last part changes at every column, the others
  // seldom), starting from the kinds as they were before that part:
  // before[i], the kinds before column part i.
  const std::size_t n = parts_.size() - row_parts_;
  std::vector<std::vector<std::uint8_t>> before(std::max<std::size_t>(n, 1), p.kind);
  std::array<std::uint64_t, kMaxParts> digits{}, previous{};
  bool decoded = false;
  // With one context, the inverse of a move takes d back to c where the
  // move takes c to d: when this call builds every column, the entry of
  // the inverse (partner[k], if it is among the moves) comes with each one
  // computed, and is not computed again (known). A half turn is its own.
  constexpr std::size_t kNone = ~std::size_t{0};
  std::vector<std::size_t> partner(moves.size(), kNone);
  std::vector<std::uint8_t> known;
  if (contexts_ == 1 && first_column == 0 && end_column == columns_) {
    for (std::size_t k = 0; k < moves.size(); ++k)
      for (std::size_t j = 0; j < moves.size() && partner[k] == kNone; ++j)
        if (moves[j] == inverse(moves[k])) partner[k] = j;
    known.assign(moves.size() * columns_, 0);
  }
  const auto is_known = [&](std::size_t k, std::uint32_t c) {
    return !known.empty() && known[k * columns_ + c] != 0;
  };
  for (std::uint32_t c = first_column; c < end_column; ++c) {
    bool needed = false;
    for (std::size_t k = 0; k < moves.size() && !needed; ++k) needed = !is_known(k, c);
    if (!needed) continue;
    std::uint64_t value = c;
    for (std::size_t i = n; i-- > 0;) {
      digits[i] = value % parts_[row_parts_ + i].size;
      value /= parts_[row_parts_ + i].size;
    }
    std::size_t from = 0;
    if (decoded)
      while (from + 1 < n && digits[from] == previous[from]) ++from;
    std::copy(before[from].begin(), before[from].end(), p.kind.begin());
    for (std::size_t i = from; i < n; ++i) {
      if (i > from) std::copy(p.kind.begin(), p.kind.end(), before[i].begin());
      decode_part(parts_[row_parts_ + i], digits[i], p);
    }
    std::copy_n(digits.begin(), n, previous.begin());
    decoded = true;
    for (std::size_t k = 0; k < moves.size(); ++k) {
      if (is_known(k, c)) continue;
      apply_move(p, moves[k], q);
      const auto d = static_cast<std::uint16_t>(encode_parts(row_parts_, parts_.size(), q));
      out[k][c] = d;
      if (partner[k] != kNone) {
        out[partner[k]][d] = static_cast<std::uint16_t>(c);
        known[partner[k] * columns_ + d] = 1;
      }
    }
  }
}

}  // namespace cubenum::twisty
