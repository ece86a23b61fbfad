// Files of one table (core/table_file.hpp).
#include "cubenum/core/table_file.hpp"

#include <cstdint>
#include <cstring>

#include "cubenum/core/error.hpp"
#include "cubenum/core/hash.hpp"
#include "cubenum/core/output_file.hpp"

namespace cubenum {

void write_table_file(const std::string& path, const std::string& option, const TableFileKind& kind,
                      const std::string& header, std::span<const std::byte> bytes) {
  const std::uint64_t checksum = hash_bytes(bytes.data(), bytes.size());
  OutputFile out(path, option);
  out.write(std::string(kind.magic) + header + "\n");
  out.write({reinterpret_cast<const char*>(&checksum), sizeof checksum});
  out.write({reinterpret_cast<const char*>(bytes.data()), bytes.size()});
  out.commit();
}

TableFileReader::TableFileReader(const std::string& path, const TableFileKind& kind)
    : path_(path), kind_(kind), in_(path, std::ios::binary) {
  if (!in_) throw InputError(path, 0, std::string("cannot open the ") + kind.what);
  std::string magic(std::strlen(kind.magic), '\0');
  in_.read(magic.data(), static_cast<std::streamsize>(magic.size()));
  if (!in_ || magic != kind.magic)
    throw InputError(path, 0, std::string("not a cubenum ") + kind.kind);
  std::getline(in_, header_);
}

void TableFileReader::read(std::span<std::byte> into) {
  std::uint64_t checksum = 0;
  in_.read(reinterpret_cast<char*>(&checksum), sizeof checksum);
  in_.read(reinterpret_cast<char*>(into.data()), static_cast<std::streamsize>(into.size()));
  if (!in_ || in_.peek() != std::ifstream::traits_type::eof())
    throw InputError(path_, 0,
                     std::string("the ") + kind_.what + " is truncated or has extra bytes");
  if (hash_bytes(into.data(), into.size()) != checksum)
    throw InputError(path_, 0,
                     std::string("the ") + kind_.what + " is damaged (checksum mismatch)");
}

}  // namespace cubenum
