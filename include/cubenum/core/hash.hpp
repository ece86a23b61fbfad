#pragma once
// XXH3 is the project's hash: of packed states, of canonical keys, of sets.
// A hash is never an identity: equal hashes are always confirmed by keys.
// Inlined (xxHash's header-only mode): no library to load at start-up, and
// short keys hash without a call.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstddef>
#include <cstdint>

namespace cubenum {

inline std::uint64_t hash_bytes(const void* data, std::size_t size) {
  return XXH3_64bits(data, size);
}

inline std::uint64_t hash_u64(std::uint64_t value) {
  return XXH3_64bits(&value, sizeof value);
}

}  // namespace cubenum
