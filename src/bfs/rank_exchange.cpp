#include "cubenum/bfs/rank_exchange.hpp"

#include <tbb/parallel_sort.h>

#include <algorithm>
#include <stdexcept>

#include "cubenum/core/parallel.hpp"

namespace cubenum::bfs {
namespace {

constexpr std::size_t kBlockRanks = 4096;

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

}  // namespace

std::vector<std::byte> encode_ranks(std::vector<std::uint64_t>& ranks) {
  start_scheduler();  // as every loop through the parallel seam does
  tbb::parallel_sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  const std::size_t blocks = (ranks.size() + kBlockRanks - 1) / kBlockRanks;
  std::vector<std::vector<std::byte>> encoded(blocks);
  parallel_for_chunks(blocks, 1, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i != e; ++i) {
      const std::size_t first = i * kBlockRanks;
      encoded[i] = encode_block(std::span(ranks).subspan(
          first, std::min(kBlockRanks, ranks.size() - first)));
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
    if (size > static_cast<std::uint64_t>(end - at)) throw std::runtime_error("rank message: truncated");
    blocks.emplace_back(at, size);
    at += size;
  }
  parallel_for_chunks(blocks.size(), 1, [&](std::size_t b, std::size_t e) {
    std::vector<std::uint64_t> ranks;
    for (std::size_t i = b; i != e; ++i) {
      const std::byte* p = blocks[i].data();
      const std::byte* stop = p + blocks[i].size();
      const std::uint64_t count = get_varint(p, stop);
      if (count == 0 || count > kBlockRanks) throw std::runtime_error("rank message: bad block");
      ranks.resize(count);
      ranks[0] = get_varint(p, stop);
      for (std::size_t k = 1; k < count; ++k) ranks[k] = ranks[k - 1] + get_varint(p, stop);
      if (p != stop) throw std::runtime_error("rank message: block longer than its ranks");
      visit(ranks);
    }
  });
}

}  // namespace cubenum::bfs
