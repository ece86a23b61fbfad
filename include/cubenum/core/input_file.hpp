#pragma once
// Every input file (piece sets, shapes, sudoku instances, definition files)
// is read through here, so that each parser sees text and every one refuses
// the same things the same way.
#include <cstddef>
#include <string>
#include <string_view>

namespace cubenum {

inline constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;

// The whole text of the file at `path`, `what` naming it in errors ("piece
// set file"). Throws InputError, naming the file, for a file that cannot be
// opened or read (with the system's reason), a directory, a file over
// kMaxInputBytes, and a NUL byte (with its line: not a text file). A UTF-8
// byte-order mark at the start is dropped, as editors may write one, and a
// CR that ends a line alone (old Mac files) becomes a LF.
std::string read_input_file(const std::string& path, std::string_view what);

}  // namespace cubenum
