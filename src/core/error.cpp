#include "cubenum/core/error.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace cubenum {
namespace {

bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f;
}

// A file name or flag as given, or quoted when it holds control bytes or is
// too long to show.
std::string shown_source(const std::string& source) {
  constexpr std::size_t kLongest = 200;
  if (source.size() <= kLongest && std::none_of(source.begin(), source.end(), is_control))
    return source;
  return excerpt(source, kLongest);
}

}  // namespace

std::string excerpt(std::string_view text, std::size_t max) {
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < max; ++i) {
    if (is_control(text[i]))
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i]));
    else
      out += text[i];
  }
  out += '\'';
  if (text.size() > max) out += fmt::format(" (the first {} of {} characters)", max, text.size());
  return out;
}

std::string InputError::format(const std::string& source, int line, const std::string& problem) {
  // Appended piece by piece: GCC 12 -O3 reports a false overflow in
  // ":" + std::to_string(line) (GCC bug 105329).
  std::string where = shown_source(source);
  if (line > 0) where.append(1, ':').append(std::to_string(line));
  if (where.empty()) return problem;
  return where.append(": ").append(problem);
}

}  // namespace cubenum
