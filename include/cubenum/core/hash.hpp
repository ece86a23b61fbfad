#pragma once
// XXH3 is the project's hash: of packed states, of canonical keys, of sets.
// A hash is never an identity: equal hashes are always confirmed by keys.
// Inlined (xxHash's header-only mode): no library to load at start-up, and
// short keys hash without a call.
#define XXH_INLINE_ALL
// On AVX-512 machines (-march=native), GCC 12 warns of its own intrinsics'
// `__Y = __Y` in xxHash's AVX-512 path, wherever the path is inlined; the
// AVX2 path hashes long inputs (checkpoint checksums) fast enough.
#if defined(__AVX512F__) && !defined(XXH_VECTOR)
#define XXH_VECTOR 2  // XXH_AVX2
#endif
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
