#include "cubenum/bfs/rank_exchange.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <utility>

#include "cubenum/core/parallel.hpp"

namespace cubenum::bfs {
namespace {

void put_varint(std::vector<std::byte>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::byte>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::byte>(v));
}

// Reads a varint at `at`, advancing it; throws past `end` or past 64 bits.
std::uint64_t get_varint(const std::byte*& at, const std::byte* end) {
  std::uint64_t v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (at == end) throw std::runtime_error("rank message: truncated");
    const auto byte = static_cast<std::uint64_t>(*at++);
    v |= (byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return v;
  }
  throw std::runtime_error("rank message: varint longer than 64 bits");
}

std::vector<std::byte> encode_block(std::span<const std::uint64_t> ranks) {
  std::vector<std::byte> body;
  body.reserve(ranks.size() * 2 + 16);
  put_varint(body, ranks.size());
  put_varint(body, ranks[0]);
  for (std::size_t i = 1; i < ranks.size(); ++i) put_varint(body, ranks[i] - ranks[i - 1]);
  std::vector<std::byte> block;
  put_varint(block, body.size());
  block.insert(block.end(), body.begin(), body.end());
  return block;
}

// The ranks go through a counting scatter into buckets of 2^span_bits
// consecutive ranks (about 256 ranks a bucket), and each bucket is sorted
// on its own, in cache and in parallel: through a bitmap of its span when
// its ranks are dense (which drops repeats in the same pass), else by
// std::sort. Sorting a BFS round's neighbours (hundreds of thousands of
// ranks over a part of billions) whole costs too much at hundreds of rounds
// a level.
constexpr std::size_t kRanksPerBucket = 256;
constexpr std::uint64_t kMostBuckets = 1 << 16;
constexpr std::size_t kScatterChunks = 64;  // fixed: the same buckets at any thread count

struct Buckets {
  std::uint64_t low = 0;  // the first bucket's first rank
  unsigned span_bits = 0;
  std::size_t count = 1;
  std::vector<std::uint64_t> ranks;  // by bucket
  std::vector<std::size_t> start;    // bucket k: ranks[start[k], start[k + 1])
};

Buckets scatter(std::span<const std::uint64_t> ranks) {
  Buckets b;
  const auto [low_at, high_at] = std::minmax_element(ranks.begin(), ranks.end());
  b.low = *low_at;
  const std::uint64_t span = *high_at - b.low;
  const std::uint64_t wanted =
      std::clamp<std::uint64_t>(ranks.size() / kRanksPerBucket, 1, kMostBuckets);
  while (b.span_bits < 63 && (span >> b.span_bits) >= wanted) ++b.span_bits;
  b.count = static_cast<std::size_t>(span >> b.span_bits) + 1;
  const std::size_t n = ranks.size(), chunk = (n + kScatterChunks - 1) / kScatterChunks;
  auto bucket_of = [&](std::uint64_t r) {
    return static_cast<std::size_t>((r - b.low) >> b.span_bits);
  };
  // at[c][k]: where chunk c's ranks of bucket k go (counts first, then offsets).
  std::vector<std::vector<std::size_t>> at(kScatterChunks, std::vector<std::size_t>(b.count));
  parallel_for_chunks(kScatterChunks, 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t c = first; c != last; ++c)
      for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i)
        ++at[c][bucket_of(ranks[i])];
  });
  b.start.resize(b.count + 1);
  std::size_t offset = 0;
  for (std::size_t k = 0; k < b.count; ++k) {
    b.start[k] = offset;
    for (std::size_t c = 0; c < kScatterChunks; ++c) offset += std::exchange(at[c][k], offset);
  }
  b.start[b.count] = offset;
  b.ranks.resize(n);
  parallel_for_chunks(kScatterChunks, 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t c = first; c != last; ++c)
      for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i)
        b.ranks[at[c][bucket_of(ranks[i])]++] = ranks[i];
  });
  return b;
}

// Bucket k's ranks in increasing order without repeats, into `sorted`.
void sort_bucket(const Buckets& b, std::size_t k, std::vector<std::uint64_t>& seen,
                 std::vector<std::uint64_t>& sorted) {
  sorted.assign(b.ranks.begin() + static_cast<std::ptrdiff_t>(b.start[k]),
                b.ranks.begin() + static_cast<std::ptrdiff_t>(b.start[k + 1]));
  const std::uint64_t span_words = ((std::uint64_t{1} << b.span_bits) + 63) / 64;
  if (span_words > 4 * sorted.size()) {  // sparse: sorting costs less than the bitmap
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    return;
  }
  seen.resize(span_words);
  const std::uint64_t first = b.low + (std::uint64_t{k} << b.span_bits);
  for (std::uint64_t r : sorted) seen[(r - first) / 64] |= std::uint64_t{1} << ((r - first) % 64);
  sorted.clear();
  for (std::size_t w = 0; w != span_words; ++w)
    for (std::uint64_t bits = std::exchange(seen[w], 0); bits != 0; bits &= bits - 1)
      sorted.push_back(first + w * 64 + static_cast<unsigned>(std::countr_zero(bits)));
}

}  // namespace

std::vector<std::byte> encode_ranks(std::span<const std::uint64_t> ranks) {
  if (ranks.empty()) return {};
  const Buckets buckets = scatter(ranks);
  std::vector<std::vector<std::byte>> encoded(buckets.count);
  parallel_for_chunks(buckets.count, 16, [&](std::size_t first, std::size_t last) {
    std::vector<std::uint64_t> seen, sorted;
    for (std::size_t k = first; k != last; ++k) {
      if (buckets.start[k] == buckets.start[k + 1]) continue;
      sort_bucket(buckets, k, seen, sorted);
      encoded[k] = encode_block(sorted);
    }
  });
  std::vector<std::byte> out;
  std::size_t bytes = 0;
  for (const auto& block : encoded) bytes += block.size();
  out.reserve(bytes);
  for (const auto& block : encoded) out.insert(out.end(), block.begin(), block.end());
  return out;
}

void decode_ranks(std::span<const std::byte> encoded,
                  const std::function<void(std::span<const std::uint64_t>)>& visit) {
  std::vector<std::span<const std::byte>> blocks;
  const std::byte* at = encoded.data();
  const std::byte* end = at + encoded.size();
  while (at != end) {
    const std::uint64_t size = get_varint(at, end);
    if (size > static_cast<std::uint64_t>(end - at))
      throw std::runtime_error("rank message: truncated");
    blocks.emplace_back(at, size);
    at += size;
  }
  parallel_for_chunks(blocks.size(), 1, [&](std::size_t b, std::size_t e) {
    std::vector<std::uint64_t> ranks;
    for (std::size_t i = b; i != e; ++i) {
      const std::byte* p = blocks[i].data();
      const std::byte* stop = p + blocks[i].size();
      const std::uint64_t count = get_varint(p, stop);
      if (count == 0 || count > blocks[i].size())
        throw std::runtime_error("rank message: bad block");
      ranks.resize(count);
      ranks[0] = get_varint(p, stop);
      for (std::size_t k = 1; k < count; ++k) ranks[k] = ranks[k - 1] + get_varint(p, stop);
      if (p != stop) throw std::runtime_error("rank message: block longer than its ranks");
      visit(ranks);
    }
  });
}

}  // namespace cubenum::bfs
