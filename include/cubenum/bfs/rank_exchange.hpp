#pragma once
// Ranks shipped to the process that owns them (the distributed BFS's
// messages): sorted, without repeats, as varint gaps in independent blocks.
// A level's neighbour ranks are dense, so a gap takes one to three bytes
// instead of eight, and a receiver decodes the blocks on all its threads.
//
// A block: varint byte length of the rest, varint count, the first rank,
// then count - 1 gaps (each at least 1). Blocks follow in increasing order.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace cubenum::bfs {

// `ranks` (in any order, repeats allowed) encoded.
std::vector<std::byte> encode_ranks(std::span<const std::uint64_t> ranks);

// Calls visit(block) with the ranks of each block of `encoded`, in
// increasing order within a block, from several threads at once. Throws
// std::runtime_error when `encoded` is not such a message.
void decode_ranks(std::span<const std::byte> encoded,
                  const std::function<void(std::span<const std::uint64_t>)>& visit);

}  // namespace cubenum::bfs
