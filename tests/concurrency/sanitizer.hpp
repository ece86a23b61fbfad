#pragma once
// Whether this build runs under ThreadSanitizer: its tests then take the
// smaller cases (ThreadSanitizer slows every memory access).
namespace cubenum::testing {

#if defined(__SANITIZE_THREAD__)
inline constexpr bool kUnderThreadSanitizer = true;
#else
inline constexpr bool kUnderThreadSanitizer = false;
#endif

}  // namespace cubenum::testing
