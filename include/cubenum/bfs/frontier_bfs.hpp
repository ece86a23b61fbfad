#pragma once
// Level-synchronous parallel BFS over a perfectly ranked state space.
//
// Three bitmaps of one bit per state: `visited` (before this level),
// `frontier` (the last level) and `next` (visited plus what this level has
// found so far). A level runs in one of two directions (Beamer's
// direction-optimising BFS):
//   top-down:  each frontier state sets its neighbours in `next` (atomic
//              fetch_or, and only after a plain load shows the bit unset):
//              one random bitmap probe per neighbour;
//   bottom-up: each unvisited state looks for a neighbour in the frontier;
//              a thread owns whole words of `next`, so no atomics.
// Words are scanned in rank order, through an optional cursor of the space
// that decodes consecutive ranks cheaply. The choice of direction depends
// only on the level's counts, never on timing, and both directions produce
// the same level sets: counts never depend on it or on the thread count.
//
// Across processes (mpirun; core/cluster.hpp) each process holds the three
// bitmaps for its own part of the ranks only (RankPart: about 1/P of the
// memory). Top-down, it expands its part of the frontier in rounds of
// about kRoundStates states and ships the neighbours that others own to them, sorted
// and delta-coded (bfs/rank_exchange.hpp); bottom-up, every process first
// gathers the whole frontier (one bit per state) and tests its own
// unvisited states against it. Level counts are summed over the processes
// and the direction is chosen from those sums, so every process takes the
// same one, and the level sets are those of a single process.
//
// Two-bit mode (BfsOptions::two_bit; Korf's two-bit BFS) keeps the depth
// table, depth mod 3, as the only per-state storage: 2 bits a state instead
// of 3 (5 with a depth table). A level's states are those of its code in the
// chunks of 2^16 states that it reached (a count per chunk); states three
// levels older in those chunks share the code and are expanded again in
// vain, which costs time, never counts. Bottom-up needs no more: an
// unreached state cannot touch a state three levels older. Across processes
// the levels run top-down only (bottom-up would gather the whole frontier).
//
// The space's concept, the options and the results are in
// frontier_interface.hpp.
#include <array>
#include <atomic>
#include <bit>
#include <concepts>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "cubenum/bfs/depth_table.hpp"
#include "cubenum/bfs/frontier_interface.hpp"
#include "cubenum/bfs/rank_exchange.hpp"
#include "cubenum/core/atomic_bitmap.hpp"
#include "cubenum/core/cluster.hpp"
#include "cubenum/core/parallel.hpp"
#include "cubenum/core/stopwatch.hpp"

namespace cubenum::bfs {

namespace detail {

inline constexpr std::size_t kGrainWords = 512;

// Bits of word w that are states (the last word may be partly past the end).
inline std::uint64_t valid_bits(std::uint64_t states, std::size_t w) {
  const std::uint64_t first = std::uint64_t{w} * 64;
  return states - first >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (states - first)) - 1;
}

// The cursor of a space without one of its own: the space itself.
template <class S>
struct PlainCursor {
  const S& space;
  template <class Visit>
  bool for_each_neighbour(std::uint64_t rank, Visit&& visit) const {
    return space.for_each_neighbour(rank, visit);
  }
};

template <RankedSpace S>
auto cursor_at(const S& space, std::uint64_t first) {
  if constexpr (requires { space.cursor(first); })
    return space.cursor(first);
  else
    return PlainCursor<S>{space};
}

// Words of a level's bitmaps, scanned in rank order: this process's part
// of the space and the range of its words a pass covers.
struct Scan {
  RankPart part;
  std::size_t begin = 0, end = 0;
  std::atomic<std::uint64_t>* scanned;  // states scanned in the level so far
};

// Runs body(cursor, w) for every word w of the scan, in chunks of words in
// rank order; w is local (its first state is part.first + 64 w).
template <RankedSpace S, class Body>
void for_words(const S& space, const Scan& scan, const BfsOptions& options, Body&& body) {
  parallel_for_chunks(scan.end - scan.begin, kGrainWords, [&](std::size_t begin, std::size_t end) {
    if (options.should_stop && options.should_stop()) return;
    begin += scan.begin;
    end += scan.begin;
    auto cursor = cursor_at(space, scan.part.first + std::uint64_t{begin} * 64);
    for (std::size_t w = begin; w != end; ++w) body(cursor, w);
    if (options.on_progress) options.on_progress(*scan.scanned += (end - begin) * 64);
  });
}

// What a top-down level reads and writes (local ranks): the frontier's
// states by word, whether a state is reached, and reaching one (from any
// thread). With bitmaps: `frontier` and `next`.
struct BitmapLevel {
  const AtomicBitmap& frontier;
  AtomicBitmap& next;
  std::uint64_t frontier_word(std::size_t w) const { return frontier.load_word(w); }
  bool reached(std::uint64_t local) const { return next.test(local); }
  void reach(std::uint64_t local) { next.try_set(local); }
  void prefetch(std::uint64_t local) const { next.prefetch(local / 64); }
};

// In two-bit mode: the depth table, the last level's states by chunk, and
// the chunks this level reaches.
struct TwoBitLevel {
  DepthTable& table;
  unsigned depth;  // the frontier's
  const std::vector<std::uint64_t>& frontier_chunks;
  AtomicBitmap& reached_chunks;
  std::uint64_t frontier_word(std::size_t w) const {
    return frontier_chunks[w * 64 / kChunkStates] != 0 ? table.word_at(w, depth) : 0;
  }
  bool reached(std::uint64_t local) const { return table.depth_mod3(local) != DepthTable::kUnseen; }
  void reach(std::uint64_t local) {
    if (table.try_record(local, depth + 1)) reached_chunks.try_set(local / kChunkStates);
  }
  void prefetch(std::uint64_t local) const { table.prefetch(local); }
};

// Alone: the whole space is this process's.
template <RankedSpace S, class Level>
void expand_top_down(const S& space, const Scan& scan, Level& level, const BfsOptions& options) {
  for_words(space, scan, options, [&](auto& cursor, std::size_t w) {
    // The word's neighbours are gathered, each asked for as it comes (the
    // look-ups of a big table then overlap), those not yet reached kept
    // without a branch (whether one is new is unpredictable, a mispredicted
    // branch), then set; also whenever the buffer fills (a space of more
    // than kMaxNeighbours moves: a pattern database's view of the megaminx).
    std::array<std::uint64_t, 64 * kMaxNeighbours> fresh;
    std::size_t all = 0;
    const auto settle = [&] {
      std::size_t count = 0;
      for (std::size_t i = 0; i < all; ++i) {
        fresh[count] = fresh[i];
        count += !level.reached(fresh[i]);
      }
      for (std::size_t i = 0; i < count; ++i) level.reach(fresh[i]);
      all = 0;
    };
    for (std::uint64_t bits = level.frontier_word(w); bits != 0; bits &= bits - 1)
      cursor.for_each_neighbour(std::uint64_t{w} * 64 + std::countr_zero(bits),
                                [&](std::uint64_t n) {
                                  level.prefetch(n);
                                  fresh[all++] = n;
                                  if (all == fresh.size()) settle();
                                  return false;
                                });
    settle();
  });
}

// Two-bit mode, bottom-up: an unreached state whose neighbour has the
// frontier's code is in the next level (never three levels older: it would
// have been reached before). A thread owns whole words of the table.
template <RankedSpace S>
void expand_bottom_up_two_bit(const S& space, const Scan& scan, DepthTable& table, unsigned depth,
                              const std::vector<std::uint64_t>& seen_chunks,
                              AtomicBitmap& reached_chunks, const BfsOptions& options) {
  const std::uint64_t first = scan.part.first;
  const int code = static_cast<int>(depth % 3);
  for_words(space, scan, options, [&](auto& cursor, std::size_t w) {
    const std::size_t chunk = w * 64 / kChunkStates;
    if (seen_chunks[chunk] == std::min(kChunkStates, scan.part.count - chunk * kChunkStates))
      return;  // all reached
    std::uint64_t found = 0;
    for (std::uint64_t bits = table.unseen_word(w) & valid_bits(scan.part.count, w); bits != 0;
         bits &= bits - 1) {
      const int bit = std::countr_zero(bits);
      if (cursor.for_each_neighbour(first + std::uint64_t{w} * 64 + bit,
                                    [&](std::uint64_t n) { return table.depth_mod3(n) == code; }))
        found |= std::uint64_t{1} << bit;
    }
    if (found == 0) return;
    table.record_word(w, found, depth + 1);
    reached_chunks.try_set(chunk);
  });
}

// `whole_frontier` covers every rank (the gathered frontier when shared).
template <RankedSpace S>
void expand_bottom_up(const S& space, const Scan& scan, const AtomicBitmap& visited,
                      const AtomicBitmap& whole_frontier, AtomicBitmap& next,
                      const BfsOptions& options) {
  const std::uint64_t first = scan.part.first;
  for_words(space, scan, options, [&](auto& cursor, std::size_t w) {
    const std::uint64_t old = visited.load_word(w);
    std::uint64_t found = 0;
    for (std::uint64_t bits = ~old & valid_bits(scan.part.count, w); bits != 0; bits &= bits - 1) {
      const int bit = std::countr_zero(bits);
      if (cursor.for_each_neighbour(first + std::uint64_t{w} * 64 + bit,
                                    [&](std::uint64_t n) { return whole_frontier.test(n); }))
        found |= std::uint64_t{1} << bit;
    }
    next.store_word(w, old | found);
  });
}

// Across processes, top-down expands about this many frontier states
// between two exchanges: the neighbours waiting to be sent stay below
// kRoundStates * degree ranks (8 bytes each) whatever the level's size.
inline constexpr std::uint64_t kRoundStates = std::uint64_t{1} << 20;

// The states a top-down level expands (Level::frontier_word; in two-bit
// mode older states of its code too) by chunk of kChunkWords words.
inline constexpr std::size_t kChunkWords = kChunkStates / 64;
template <class Level>
std::vector<std::uint64_t> chunk_counts(const Level& level, std::size_t words) {
  std::vector<std::uint64_t> counts((words + kChunkWords - 1) / kChunkWords);
  parallel_for_chunks(counts.size(), 1, [&](std::size_t b, std::size_t e) {
    for (std::size_t c = b; c != e; ++c)
      for (std::size_t w = c * kChunkWords; w < std::min(words, (c + 1) * kChunkWords); ++w)
        counts[c] += static_cast<std::uint64_t>(std::popcount(level.frontier_word(w)));
  });
  return counts;
}

// Word boundaries that cut the frontier into `rounds` slices of about
// equal numbers of states (to a chunk): the processes exchange in step
// after each round, so each round must be as long on every process. Cut
// by words instead, a round over a dense stretch on one process keeps the
// others waiting (most of a 3x4 rolling-cubes run's time, in MPI).
inline std::vector<std::size_t> balanced_rounds(const std::vector<std::uint64_t>& counts,
                                                std::size_t words, std::uint64_t states,
                                                std::uint64_t rounds) {
  std::vector<std::size_t> bounds{0};
  std::uint64_t done = 0;
  for (std::size_t c = 0; c < counts.size() && bounds.size() < rounds; ++c) {
    done += counts[c];
    // Round r ends once r + 1 rounds' share of the states is done.
    while (bounds.size() < rounds && done > 0 && done * rounds >= states * bounds.size())
      bounds.push_back(std::min(words, (c + 1) * kChunkWords));
  }
  while (bounds.size() <= rounds) bounds.push_back(words);
  return bounds;
}

// Top-down across processes: neighbours this process owns are set in
// `next` at once, the others are sent to their owners after each round,
// and what the others send is set on arrival. Every process runs the same
// number of rounds (enough for the largest frontier part). Returns this
// process's sending (messages, ranks, bytes). Rounds are cut by the states
// they expand: the neighbours waiting to be sent grow with those.
template <RankedSpace S, class Level>
std::array<std::uint64_t, 3> expand_top_down_shared(const S& space, Cluster& cluster,
                                                    const Scan& level, Level& frontier,
                                                    const BfsOptions& options) {
  const int processes = cluster.processes(), self = cluster.process();
  const RankSplit split(space.size(), processes);
  const RankPart part = level.part;
  const std::size_t words = level.end;
  const std::vector<std::uint64_t> counts = chunk_counts(frontier, words);
  std::uint64_t mine = 0;
  for (std::uint64_t c : counts) mine += c;
  std::uint64_t rounds = std::max<std::uint64_t>(1, (mine + kRoundStates - 1) / kRoundStates);
  cluster.max_of({&rounds, 1});
  const std::vector<std::size_t> bounds = balanced_rounds(counts, words, mine, rounds);
  std::array<std::uint64_t, 3> sent{};
  // Kept from round to round: their memory is touched once.
  PerWorker<std::vector<std::vector<std::uint64_t>>> outboxes;
  std::vector<std::uint64_t> ranks;
  for (std::uint64_t round = 0; round < rounds; ++round) {
    Scan scan = level;
    scan.begin = bounds[round];
    scan.end = bounds[round + 1];
    for_words(space, scan, options, [&](auto& cursor, std::size_t w) {
      // A word's neighbours, this process's and the others', gathered
      // without a branch (which is which is unpredictable), then handled;
      // also whenever a buffer fills (more than kMaxNeighbours moves).
      std::array<std::uint64_t, 64 * kMaxNeighbours> here, away;
      std::size_t here_count = 0, away_count = 0;
      const auto handle = [&] {
        for (std::size_t i = 0; i < here_count; ++i) frontier.reach(here[i]);
        here_count = 0;
        if (away_count == 0) return;
        auto& out = outboxes.local();
        if (out.empty()) out.resize(processes);
        for (std::size_t i = 0; i < away_count; ++i) out[split.owner(away[i])].push_back(away[i]);
        away_count = 0;
      };
      for (std::uint64_t bits = frontier.frontier_word(w); bits != 0; bits &= bits - 1)
        cursor.for_each_neighbour(part.first + std::uint64_t{w} * 64 + std::countr_zero(bits),
                                  [&](std::uint64_t n) {
                                    const bool is_mine = part.owns(n);
                                    here[here_count] = part.local(n);
                                    away[away_count] = n;
                                    here_count += is_mine;
                                    away_count += !is_mine;
                                    if (here_count == here.size() || away_count == away.size())
                                      handle();
                                    return false;
                                  });
      handle();
    });
    std::vector<std::vector<std::byte>> send(processes);
    for (int p = 0; p < processes; ++p) {
      if (p == self) continue;
      ranks.clear();
      outboxes.for_each([&](auto& out) {
        if (out.empty()) return;
        ranks.insert(ranks.end(), out[p].begin(), out[p].end());
        out[p].clear();
      });
      if (ranks.empty()) continue;
      sent[0] += 1;
      sent[1] += ranks.size();  // repeats included: the coding drops them
      send[p] = encode_ranks(ranks);
      sent[2] += send[p].size();
    }
    const auto received = cluster.exchange(std::move(send));
    for (int p = 0; p < processes; ++p)
      decode_ranks(received[p], [&](std::span<const std::uint64_t> arrived) {
        for (std::uint64_t n : arrived) {
          if (!part.owns(n)) throw std::runtime_error("frontier_bfs: a rank sent to its non-owner");
          frontier.reach(part.local(n));
        }
      });
  }
  return sent;
}

// The whole frontier on every process, from every process's part.
inline void gather_frontier(Cluster& cluster, std::uint64_t states, const AtomicBitmap& frontier,
                            AtomicBitmap& whole) {
  std::vector<std::uint64_t> sizes;
  for (int p = 0; p < cluster.processes(); ++p)
    sizes.push_back((part_of(states, p, cluster.processes()).count + 63) / 64 * 8);
  cluster.gather_all(frontier.bytes(), whole.bytes(), sizes);
}

// On entry next = visited + this level's states. frontier = next & ~visited;
// visited = next (so next equals visited again for the next level); returns
// the number of new states.
inline std::uint64_t advance(AtomicBitmap& visited, AtomicBitmap& frontier,
                             const AtomicBitmap& next, DepthTable* depths, unsigned depth) {
  return parallel_sum<std::uint64_t>(visited.words(), kGrainWords,
                                     [&](std::size_t begin, std::size_t end) {
                                       std::uint64_t sum = 0;
                                       for (std::size_t w = begin; w != end; ++w) {
                                         const std::uint64_t old = visited.load_word(w);
                                         const std::uint64_t fresh = next.load_word(w) & ~old;
                                         frontier.store_word(w, fresh);
                                         if (fresh == 0) continue;
                                         visited.store_word(w, old | fresh);
                                         if (depths != nullptr)
                                           depths->record_word(w, fresh, depth);
                                         sum += static_cast<std::uint64_t>(std::popcount(fresh));
                                       }
                                       return sum;
                                     });
}

// Beamer's rule with uniform degree: go bottom-up once the frontier is more
// than 1/alpha of the unvisited states. Beamer's alpha = 14 suits power-law
// graphs, where most unvisited vertices touch the frontier. In puzzle graphs
// (uniform small degree, levels growing by a steady factor) an unvisited
// state that is not in the next level scans all its neighbours in vain, so
// bottom-up pays only once most unvisited states are in the next level:
// alpha = 2 (on the pocket cube about twice as fast as 14,
// results/pocket-cube.md).
inline constexpr std::uint64_t kBottomUpAlpha = 2;

// Two-bit mode: the reached states of chunk c.
inline std::uint64_t seen_in_chunk(const DepthTable& table, std::size_t c) {
  const std::size_t per_chunk = 2 * kChunkWords;  // table words
  std::uint64_t seen = 0;
  for (std::size_t i = c * per_chunk; i < std::min(table.cells().words(), (c + 1) * per_chunk); ++i)
    seen += table.seen_in_cells(i);
  return seen;
}

// Two-bit mode, after a level: the states it reached, by chunk, into
// `frontier_chunks` (the reached ones into `seen_chunks`, counted again in
// the chunks it reached); returns their number.
inline std::uint64_t advance_two_bit(const DepthTable& table, AtomicBitmap& reached_chunks,
                                     std::vector<std::uint64_t>& seen_chunks,
                                     std::vector<std::uint64_t>& frontier_chunks) {
  const std::uint64_t fresh =
      parallel_sum<std::uint64_t>(seen_chunks.size(), 1, [&](std::size_t begin, std::size_t end) {
        std::uint64_t sum = 0;
        for (std::size_t c = begin; c != end; ++c) {
          frontier_chunks[c] = 0;
          if (!reached_chunks.test(c)) continue;
          const std::uint64_t seen = seen_in_chunk(table, c);
          frontier_chunks[c] = seen - seen_chunks[c];
          seen_chunks[c] = seen;
          sum += frontier_chunks[c];
        }
        return sum;
      });
  reached_chunks.clear();
  return fresh;
}

inline Direction choose(DirectionPolicy policy, std::uint64_t frontier, std::uint64_t unvisited) {
  if (policy == DirectionPolicy::TopDown) return Direction::TopDown;
  if (policy == DirectionPolicy::BottomUp) return Direction::BottomUp;
  return frontier * kBottomUpAlpha > unvisited ? Direction::BottomUp : Direction::TopDown;
}

}  // namespace detail

// BFS from `sources` (all at depth 0) over every reachable state.
template <RankedSpace S>
BfsResult frontier_bfs(const S& space, std::span<const std::uint64_t> sources,
                       const BfsOptions& options = {}) {
  const std::uint64_t states = space.size();
  Cluster* const cluster =
      options.cluster != nullptr && options.cluster->processes() > 1 ? options.cluster : nullptr;
  const bool two_bit = options.two_bit;
  if (two_bit && cluster != nullptr && options.policy == DirectionPolicy::BottomUp)
    throw std::invalid_argument("frontier_bfs: two-bit mode runs top-down across processes");
  BfsResult result;
  result.part =
      cluster ? part_of(states, cluster->process(), cluster->processes()) : RankPart{0, states};
  const RankPart part = result.part;
  // With bitmaps: visited, frontier, next (and the table when kept). In
  // two-bit mode: the table, and per chunk its reached states, the last
  // level's, and whether this level reached any.
  const std::uint64_t bitmap_bits = two_bit ? 0 : part.count;
  result.visited = AtomicBitmap(bitmap_bits);
  AtomicBitmap frontier(bitmap_bits), next(bitmap_bits);
  AtomicBitmap whole_frontier;  // across processes: gathered for bottom-up levels
  if (options.depth_table || two_bit) result.depths.emplace(part.count);
  DepthTable* depths = result.depths ? &*result.depths : nullptr;
  const std::size_t chunks = two_bit ? (part.count + kChunkStates - 1) / kChunkStates : 0;
  std::vector<std::uint64_t> seen_chunks(chunks), frontier_chunks(chunks);
  AtomicBitmap reached_chunks(chunks);
  auto all = [&](std::uint64_t mine) { return cluster ? total(*cluster, mine) : mine; };
  auto advance = [&](unsigned depth) {
    return all(two_bit
                   ? detail::advance_two_bit(*depths, reached_chunks, seen_chunks, frontier_chunks)
                   : detail::advance(result.visited, frontier, next, depths, depth));
  };

  BfsBoundary boundary{result.levels,
                       result.reached,
                       result.visited,
                       frontier,
                       depths,
                       cluster,
                       two_bit ? &frontier_chunks : nullptr};
  Stopwatch clock;
  LevelStats level;
  bool restored = false;  // the level is a saved one, already counted
  if (options.restore) {
    options.restore(boundary);
    result.resumed = restored = true;
    // `next` equals `visited` between levels; two-bit: the reached states by chunk.
    parallel_for_chunks(next.words(), detail::kGrainWords, [&](std::size_t b, std::size_t e) {
      for (std::size_t w = b; w != e; ++w) next.store_word(w, result.visited.load_word(w));
    });
    parallel_for_chunks(chunks, 1, [&](std::size_t b, std::size_t e) {
      for (std::size_t c = b; c != e; ++c) seen_chunks[c] = detail::seen_in_chunk(*depths, c);
    });
    level = result.levels.back();
  } else {
    for (std::uint64_t s : sources)
      if (part.owns(s)) {
        if (!two_bit)
          next.try_set(part.local(s));
        else if (depths->try_record(part.local(s), 0))
          reached_chunks.try_set(part.local(s) / kChunkStates);
      }
    level = LevelStats{0, advance(0), clock.seconds(), Direction::TopDown};
  }

  // A two-bit level writes its states into the table as it goes: it cannot
  // be dropped half way, so a stop waits for its end (and its boundary).
  BfsOptions level_options = options;
  if (two_bit) level_options.should_stop = nullptr;
  bool stopping = false;
  for (;; restored = false) {
    const LevelStates level_states{two_bit ? nullptr : &frontier,
                                   two_bit ? nullptr : &result.visited, depths};
    if (!restored) {
      if (level.states == 0) break;
      result.levels.push_back(level);
      result.reached += level.states;
      if (options.on_level) options.on_level(level, level_states);
      if (options.stop_after && options.stop_after(level, level_states)) break;
    }
    if (stopping) {
      result.stopped = true;
      if (options.at_boundary) options.at_boundary(boundary, true);
      break;
    }
    if (options.at_boundary) options.at_boundary(boundary, false);

    clock.restart();
    std::atomic<std::uint64_t> scanned{0};
    const detail::Scan scan{part, 0, (part.count + 63) / 64, &scanned};
    LevelStats next_level{level.depth + 1};
    next_level.direction = detail::choose(options.policy, level.states, states - result.reached);
    if (two_bit && cluster != nullptr) next_level.direction = Direction::TopDown;
    detail::BitmapLevel bitmaps{frontier, next};
    detail::TwoBitLevel table{*depths, level.depth, frontier_chunks, reached_chunks};
    if (next_level.direction == Direction::TopDown && cluster != nullptr) {
      auto sent =
          two_bit ? detail::expand_top_down_shared(space, *cluster, scan, table, level_options)
                  : detail::expand_top_down_shared(space, *cluster, scan, bitmaps, level_options);
      cluster->sum(sent);
      next_level.messages = sent[0];
      next_level.sent_ranks = sent[1];
      next_level.sent_bytes = sent[2];
    } else if (next_level.direction == Direction::TopDown) {
      if (two_bit)
        detail::expand_top_down(space, scan, table, level_options);
      else
        detail::expand_top_down(space, scan, bitmaps, level_options);
    } else if (two_bit) {
      detail::expand_bottom_up_two_bit(space, scan, *depths, level.depth, seen_chunks,
                                       reached_chunks, level_options);
    } else if (cluster != nullptr) {
      if (whole_frontier.bits() == 0) whole_frontier = AtomicBitmap(states);
      detail::gather_frontier(*cluster, states, frontier, whole_frontier);
      next_level.messages = static_cast<std::uint64_t>(cluster->processes());  // a broadcast each
      next_level.sent_bytes = whole_frontier.bytes().size() * (cluster->processes() - 1);
      detail::expand_bottom_up(space, scan, result.visited, whole_frontier, next, level_options);
    } else {
      detail::expand_bottom_up(space, scan, result.visited, frontier, next, level_options);
    }
    bool stop = options.should_stop && options.should_stop();
    if (cluster != nullptr) stop = any(*cluster, stop);
    if (stop && two_bit) {
      stopping = true;  // at the boundary after this level
    } else if (stop) {
      result.stopped = true;
      if (options.at_boundary) options.at_boundary(boundary, true);
      break;
    }
    next_level.states = advance(next_level.depth);
    next_level.seconds = clock.seconds();
    level = next_level;
  }
  return result;
}

// Walks from `rank` to a source along a shortest path using the depth
// table of a BFS from those sources. Returns the path's states, `rank`
// first and a source last; empty if `rank` was not reached. Of the
// neighbours one step closer it takes the first in the space's order.
// Across processes every process calls it alike, with its part of the
// table (BfsResult::part), and every one gets the whole path.
template <RankedSpace S>
std::vector<std::uint64_t> path_to_source(const S& space, const DepthTable& depths,
                                          std::span<const std::uint64_t> sources,
                                          std::uint64_t rank, const RankPart& part = kAllRanks,
                                          Cluster* cluster = nullptr) {
  auto depth_here = [&](std::uint64_t r) {
    return part.owns(r) ? depths.depth_mod3(part.local(r)) : DepthTable::kUnseen;
  };
  // Only the owner knows a depth: the others say unseen (0 once shifted).
  auto depth_of = [&](std::uint64_t r) {
    std::uint64_t code = static_cast<std::uint64_t>(depth_here(r) + 1);
    if (cluster != nullptr) cluster->max_of({&code, 1});
    return static_cast<int>(code) - 1;
  };
  auto is_source = [&](std::uint64_t r) {
    for (std::uint64_t s : sources)
      if (s == r) return true;
    return false;
  };
  std::vector<std::uint64_t> path;
  if (depth_of(rank) == DepthTable::kUnseen) return path;
  path.push_back(rank);
  std::vector<std::uint64_t> around;
  while (!is_source(rank)) {
    const int closer = (depth_of(rank) + 2) % 3;
    around.clear();
    space.for_each_neighbour(rank, [&](std::uint64_t n) {
      around.push_back(n);
      return false;
    });
    std::uint64_t first = 0;  // counted from the end: the largest wins across processes
    for (std::size_t i = 0; i < around.size() && first == 0; ++i)
      if (depth_here(around[i]) == closer) first = around.size() - i;
    if (cluster != nullptr) cluster->max_of({&first, 1});
    if (first == 0) throw std::logic_error("path_to_source: no neighbour one step closer");
    rank = around[around.size() - first];
    path.push_back(rank);
  }
  return path;
}

}  // namespace cubenum::bfs
