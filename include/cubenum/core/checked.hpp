#pragma once
// Arithmetic on sizes that come from input (rows x cols, cuboid dimensions,
// piece counts): a product that does not fit is reported, never wrapped.
#include <initializer_list>
#include <optional>
#include <type_traits>

namespace cubenum {

// a * b, or nothing when it does not fit in T.
template <class T>
requires std::is_integral_v<T>
constexpr std::optional<T> checked_mul(T a, T b) {
  T product{};
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

// The product of `values`, or nothing when it exceeds `limit` (or T).
template <class T>
requires std::is_integral_v<T>
constexpr std::optional<T> product_at_most(std::initializer_list<T> values, T limit) {
  T product = 1;
  for (T v : values) {
    const auto next = checked_mul(product, v);
    if (!next || *next > limit) return std::nullopt;
    product = *next;
  }
  return product;
}

}  // namespace cubenum
