#pragma once
// A file of one table: a magic line, a header line saying what the table
// belongs to, a checksum of the table's bytes, and the bytes. Written whole
// or not at all (output_file.hpp); read back with every part checked, an
// InputError naming the file where one is wrong.
#include <cstddef>
#include <fstream>
#include <span>
#include <string>

namespace cubenum {

struct TableFileKind {
  const char* magic;  // the first line, with its newline
  const char* kind;   // in "not a cubenum KIND"
  const char* what;   // in "the WHAT is truncated or has extra bytes"
};

void write_table_file(const std::string& path, const std::string& option, const TableFileKind& kind,
                      const std::string& header, std::span<const std::byte> bytes);

// A table file whose magic line is read and checked: the caller checks
// header(), then read() fills the table and checks its size and checksum.
class TableFileReader {
 public:
  TableFileReader(const std::string& path, const TableFileKind& kind);
  const std::string& header() const { return header_; }
  void read(std::span<std::byte> into);

 private:
  std::string path_;
  TableFileKind kind_;
  std::ifstream in_;
  std::string header_;
};

}  // namespace cubenum
