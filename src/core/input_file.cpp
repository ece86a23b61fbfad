#include "cubenum/core/input_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "cubenum/core/error.hpp"

namespace cubenum {

std::string read_input_file(const std::string& path, std::string_view what) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw InputError(path, 0, fmt::format("is a directory, not a {}", what));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path, 0, fmt::format("cannot open the {}: {}", what, std::strerror(errno)));
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxInputBytes)
      throw InputError(path, 0,
                       fmt::format("more than {} MiB: not a {}", kMaxInputBytes >> 20, what));
  }
  if (in.bad())
    throw InputError(path, 0, fmt::format("cannot read the {}: {}", what, std::strerror(errno)));
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(nul), '\n');
    throw InputError(path, static_cast<int>(line),
                     fmt::format("a NUL byte (binary data, not a {})", what));
  }
  // Old Mac line endings (CR alone) read as line ends; CR LF stays for the
  // parsers, which drop a CR before a line's end.
  for (std::size_t i = text.find('\r'); i != std::string::npos; i = text.find('\r', i + 1))
    if (i + 1 == text.size() || text[i + 1] != '\n') text[i] = '\n';
  return text;
}

}  // namespace cubenum
