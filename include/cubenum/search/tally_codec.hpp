#pragma once
// A tally's bytes, as a count split into subtrees saves them in its
// checkpoints: a four-letter format name (its version), then the tally's
// own fields (core/byte_io.hpp). Every tally starts so; reading one checks
// the name against the formats this build reads and refuses another with
// a message naming both.
#include <cstdint>
#include <initializer_list>
#include <string>

#include "cubenum/core/byte_io.hpp"

namespace cubenum::search {

// A format name as the number its four letters make, first letter lowest
// ("ATL2": the bytes 'A' 'T' 'L' '2').
constexpr std::uint32_t tally_format(const char (&name)[5]) {
  return std::uint32_t(std::uint8_t(name[0])) | std::uint32_t(std::uint8_t(name[1])) << 8 |
         std::uint32_t(std::uint8_t(name[2])) << 16 | std::uint32_t(std::uint8_t(name[3])) << 24;
}

// The four letters of a format name (other bytes as '?').
std::string tally_format_name(std::uint32_t format);

inline void put_tally_format(ByteWriter& w, std::uint32_t format) {
  w.put(format);
}

// Reads the format name and returns it; throws InputError(source) when it
// is none of `known` ("<what> of format 'XXXX', which this cubenum does
// not read (it reads ATL2, ATLY)").
std::uint32_t get_tally_format(ByteReader& r, std::initializer_list<std::uint32_t> known,
                               const std::string& source, const std::string& what);

}  // namespace cubenum::search
