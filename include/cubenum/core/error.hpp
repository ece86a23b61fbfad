#pragma once
// Errors in what the user gave us: a file, a flag, a cube state. They carry
// where the problem is, so the message can name file and line.
#include <stdexcept>
#include <string>
#include <string_view>

namespace cubenum {

class InputError : public std::runtime_error {
 public:
  // `source` is a file name or a flag ("--stickers"); `line` is 0 when the
  // input has no lines.
  InputError(std::string source, int line, const std::string& problem)
      : std::runtime_error(format(source, line, problem)),
        source_(std::move(source)),
        line_(line) {}
  explicit InputError(const std::string& problem) : std::runtime_error(problem) {}

  const std::string& source() const { return source_; }
  int line() const { return line_; }

 private:
  // "source:line: problem".
  static std::string format(const std::string& source, int line, const std::string& problem);
  std::string source_;
  int line_ = 0;
};

// `text` in single quotes for a message: at most `max` characters (a 10 MB
// line is not echoed whole), control bytes such as NUL written as \xNN.
// (Not "quoted": std::quoted would be found for std::string arguments.)
std::string excerpt(std::string_view text, std::size_t max = 60);

}  // namespace cubenum
