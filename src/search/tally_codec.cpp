#include "cubenum/search/tally_codec.hpp"

#include <fmt/format.h>

#include "cubenum/core/error.hpp"

namespace cubenum::search {

std::string tally_format_name(std::uint32_t format) {
  std::string name;
  for (int i = 0; i < 4; ++i) {
    const auto c = static_cast<char>((format >> (8 * i)) & 0xff);
    name += c >= ' ' && c <= '~' ? c : '?';
  }
  return name;
}

std::uint32_t get_tally_format(ByteReader& r, std::initializer_list<std::uint32_t> known,
                               const std::string& source, const std::string& what) {
  const auto format = r.get<std::uint32_t>();
  for (const std::uint32_t k : known)
    if (format == k) return format;
  std::string names;
  for (const std::uint32_t k : known) names += (names.empty() ? "" : ", ") + tally_format_name(k);
  throw InputError(source, 0,
                   fmt::format("{} of format '{}', which this cubenum does not read (it reads {}): "
                               "a checkpoint of another version, or corrupt",
                               what, tally_format_name(format), names));
}

}  // namespace cubenum::search
