#pragma once
// Every file cubenum writes (JSON, SVG, reports, scaling files, CSV export)
// goes through here, so that a failed, interrupted or killed run never
// leaves a truncated or emptied file, and every write is checked.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace cubenum {

// A file written to a temporary beside `path` (".NAME.cubenum-XXXXXX" in
// the same folder) and renamed over it by commit(), once complete and closed
// without error; destroyed uncommitted, it removes the temporary and leaves
// `path` as it was. A path that exists and is not a regular file
// (/dev/stdout, a pipe, /dev/full) is written in place. Errors throw
// InputError naming `source` (the option: "--json"), the path and the reason.
class OutputFile {
 public:
  OutputFile(std::string path, std::string source);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view text);
  void commit();

 private:
  [[noreturn]] void fail(const char* doing, int error) const;
  std::string path_, source_, temporary_;  // temporary_ empty: written in place
  std::FILE* file_ = nullptr;
};

// Writes `text` to `path` whole, or not at all (OutputFile).
void write_output_file(const std::string& path, const std::string& source, std::string_view text);

// Several files as one set (a report): every one is written to its
// temporary first, and only then are they renamed into place, one after
// another; an error or interruption before that leaves every file as it was.
struct OutputText {
  std::string path, text;
};
void write_output_set(const std::vector<OutputText>& files, const std::string& source);

// Before the work: throws InputError when `path` cannot be written as a
// file (a directory, a missing or unwritable folder), so that a long run does
// not fail only at its end.
void check_output_path(const std::string& path, const std::string& source);

// The same for a folder that will be created if needed (--out DIR): it is
// not a file, and its nearest existing ancestor is a writable folder.
void check_output_folder(const std::string& path, const std::string& source);

}  // namespace cubenum
