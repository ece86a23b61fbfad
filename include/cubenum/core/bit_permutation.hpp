#pragma once
// A fixed permutation of the bits of a bitset, applied as a Beneš network
// of delta swaps (Knuth, TAOCP 4A, 7.1.3). A bitset of N = 2^k bits goes
// through at most 2k - 1 stages; stage s swaps bits i and i + d_s wherever
// its mask says so. A stage is the same few operations on every word: no
// branch and no per-bit work, so a dense bitset costs no more than a sparse
// one. Bitsets of 4 to 32 words are held in vector registers throughout
// (GCC/Clang vector extensions: AVX2 where the build targets it, pairs of
// SSE or NEON registers elsewhere).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace cubenum {

class BitPermutation {
 public:
  BitPermutation() = default;
  // Bit i goes to bit to[i]; `to` must be a permutation of [0, to.size()).
  // Throws std::invalid_argument otherwise.
  explicit BitPermutation(std::span<const std::uint32_t> to);

  // Words of the bitsets it permutes: to.size() bits rounded up to a power
  // of two, at least one word. Bits past to.size() stay where they are.
  std::size_t words() const { return words_; }

  // Permutes words() words in place.
  void apply(std::uint64_t* bits) const { apply(bits, words_, bits); }

  // Writes to `out` (words() words) the permuted bits of `in`: its first
  // `in_words` words (at most words()), the rest taken as zero.
  void apply(const std::uint64_t* in, std::size_t in_words, std::uint64_t* out) const {
    switch (words_) {
      case 4:
        return apply_vectors<1>(in, in_words, out);
      case 8:
        return apply_vectors<2>(in, in_words, out);
      case 16:
        return apply_vectors<4>(in, in_words, out);
      case 32:
        return apply_vectors<8>(in, in_words, out);
      default:
        return apply_words(in, in_words, out);
    }
  }

  // The stages of a network on 2^k bits, s = 0 .. 2k - 2, have the
  // distances 2^(k-1), ..., 2, 1, 2, ..., 2^(k-1).
  static constexpr unsigned distance(unsigned log_bits, unsigned stage) {
    return 1U << (stage < log_bits ? log_bits - 1 - stage : stage - (log_bits - 1));
  }

 private:
  using Vector = std::uint64_t __attribute__((vector_size(32)));  // 4 words

  // One stage. At distance d < 64 it swaps bits i and i + d of a word where
  // the mask has bit i; at d = 64k it swaps the bit between words w and
  // w ^ k where the mask, stored in both words, has it.
  template <unsigned D, std::size_t Vectors>
  static void stage(Vector (&x)[Vectors], const std::uint64_t* mask) {
    for (std::size_t v = 0; v < Vectors; ++v) {
      Vector m;  // (no function returns a Vector: that would warn of an ABI change without AVX)
      __builtin_memcpy(&m, mask + 4 * v, sizeof m);
      if constexpr (D >= 256) {  // the partner is another vector
        constexpr std::size_t k = D / 256;
        if (k >= Vectors || (v & k) != 0) continue;
        const Vector t = (x[v] ^ x[v + k]) & m;
        x[v] ^= t;
        x[v + k] ^= t;
      } else if constexpr (D >= 64) {  // the partner is in the same vector
        const Vector partner = D == 64 ? __builtin_shuffle(x[v], Vector{1, 0, 3, 2})
                                       : __builtin_shuffle(x[v], Vector{2, 3, 0, 1});
        x[v] ^= (x[v] ^ partner) & m;
      } else {
        const Vector t = ((x[v] >> D) ^ x[v]) & m;
        x[v] ^= t ^ (t << D);
      }
    }
  }

  // Bitsets of 4 to 32 words: every stage unrolled with its distance known
  // to the compiler, the bitset in registers throughout.
  template <std::size_t Vectors>
  static void load(Vector (&x)[Vectors], const std::uint64_t* in, std::size_t in_words) {
    // Whole vectors straight from `in`: assembling them from words written
    // just before would stall on store forwarding.
    for (std::size_t v = 0; v < Vectors; ++v) {
      if (4 * v + 4 <= in_words) {
        __builtin_memcpy(&x[v], in + 4 * v, sizeof x[v]);
      } else {
        std::uint64_t part[4] = {};
        for (std::size_t w = 4 * v; w < in_words; ++w) part[w - 4 * v] = in[w];
        __builtin_memcpy(&x[v], part, sizeof x[v]);
      }
    }
  }

  // Bitsets of 4 to 32 words: every stage unrolled with its distance known
  // to the compiler, the bitset in registers throughout.
  template <std::size_t Vectors>
  void apply_vectors(const std::uint64_t* in, std::size_t in_words, std::uint64_t* out) const {
    constexpr unsigned kLogBits = std::countr_zero(Vectors * 256);
    Vector x[Vectors];
    load(x, in, in_words);
    [&]<std::size_t... S>(std::index_sequence<S...>) {
      (stage<distance(kLogBits, S)>(x, masks_.data() + S * Vectors * 4), ...);
    }
    (std::make_index_sequence<2 * kLogBits - 1>{});
    __builtin_memcpy(out, x, sizeof x);
  }

  void apply_words(const std::uint64_t* in, std::size_t in_words, std::uint64_t* x) const {
    for (std::size_t w = 0; w < words_; ++w) x[w] = w < in_words ? in[w] : 0;
    const unsigned log_bits = static_cast<unsigned>(std::countr_zero(words_ * 64));
    const std::uint64_t* mask = masks_.data();
    if (words_ < 4) {  // one or two words: a stage a word at a time
      for (unsigned s = 0; s + 1 < 2 * log_bits; ++s, mask += words_) {
        const unsigned d = distance(log_bits, s);
        for (std::size_t w = 0; w < words_; ++w) {
          if (d < 64) {
            const std::uint64_t t = ((x[w] >> d) ^ x[w]) & mask[w];
            x[w] ^= t ^ (t << d);
          } else if ((w & (d / 64)) == 0) {
            const std::uint64_t t = (x[w] ^ x[w + d / 64]) & mask[w];
            x[w] ^= t;
            x[w + d / 64] ^= t;
          }
        }
      }
      return;
    }
    // Bigger than the registers: each stage streams the bitset and its mask
    // through vectors of four words (the stage's distance chooses the loop).
    const std::size_t vectors = words_ / 4;
    // (loads write through a reference: a lambda returning a Vector would
    // change the ABI without AVX, which -Werror=psabi refuses when not inlined)
    auto load = [](Vector& v, const std::uint64_t* p) { __builtin_memcpy(&v, p, sizeof v); };
    auto store = [](std::uint64_t* p, const Vector& v) { __builtin_memcpy(p, &v, sizeof v); };
    Vector a, b, m;
    for (unsigned s = 0; s + 1 < 2 * log_bits; ++s, mask += words_) {
      const unsigned d = distance(log_bits, s);
      if (d < 64) {
        for (std::size_t v = 0; v < vectors; ++v) {
          load(a, x + 4 * v);
          load(m, mask + 4 * v);
          const Vector t = ((a >> d) ^ a) & m;
          a ^= t ^ (t << d);
          store(x + 4 * v, a);
        }
      } else if (d < 256) {
        for (std::size_t v = 0; v < vectors; ++v) {
          load(a, x + 4 * v);
          load(m, mask + 4 * v);
          const Vector partner = d == 64 ? __builtin_shuffle(a, Vector{1, 0, 3, 2})
                                         : __builtin_shuffle(a, Vector{2, 3, 0, 1});
          a ^= (a ^ partner) & m;
          store(x + 4 * v, a);
        }
      } else {
        const std::size_t k = d / 256;  // the partner vector
        for (std::size_t v = 0; v < vectors; ++v) {
          if ((v & k) != 0) continue;
          load(a, x + 4 * v);
          load(b, x + 4 * (v + k));
          load(m, mask + 4 * v);
          const Vector t = (a ^ b) & m;
          a ^= t;
          b ^= t;
          store(x + 4 * v, a);
          store(x + 4 * (v + k), b);
        }
      }
    }
  }

  std::size_t words_ = 0;
  std::vector<std::uint64_t> masks_;  // words_ per stage, every stage
};

}  // namespace cubenum
