// Rolling cubes: grids, the rank, and the text forms.
#include "cubenum/puzzles/rolling_cubes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "cubenum/core/checked.hpp"
#include "cubenum/core/error.hpp"

namespace cubenum::rolling {
namespace {

// Out of line: inlined with constant arguments, InputError's message
// concatenation trips a false -Wrestrict in g++ 12.
[[noreturn, gnu::noinline]] void throw_input_error(const std::string& source,
                                                   const std::string& problem) {
  throw InputError(source, 0, problem);
}

std::uint64_t power6(unsigned n) {
  std::uint64_t p = 1;
  while (n-- > 0) p *= 6;
  return p;
}

// Where the cube comes from for a roll into the empty cell, or -1.
int source_cell(unsigned rows, unsigned cols, unsigned empty, Roll r) {
  const int row = static_cast<int>(empty / cols), col = static_cast<int>(empty % cols);
  int from_row = row, from_col = col;
  switch (r) {
    case Roll::Up:
      from_row = row + 1;
      break;  // it travels north: it was south
    case Roll::Down:
      from_row = row - 1;
      break;
    case Roll::Left:
      from_col = col + 1;
      break;
    case Roll::Right:
      from_col = col - 1;
      break;
  }
  if (from_row < 0 || from_col < 0 || from_row >= static_cast<int>(rows) ||
      from_col >= static_cast<int>(cols))
    return -1;
  return from_row * static_cast<int>(cols) + from_col;
}

}  // namespace

Roll opposite(Roll r) {
  switch (r) {
    case Roll::Up:
      return Roll::Down;
    case Roll::Down:
      return Roll::Up;
    case Roll::Left:
      return Roll::Right;
    case Roll::Right:
      return Roll::Left;
  }
  return r;
}

unsigned Grid::empty() const {
  return static_cast<unsigned>(std::find(cells.begin(), cells.end(), kEmptyCell) - cells.begin());
}

Grid parse_grid(std::string_view text, const std::string& source, unsigned rows, unsigned cols) {
  auto fail = [&](const std::string& problem) {
    throw_input_error(source, fmt::format("grid {}: {}", excerpt(text), problem));
  };
  Grid grid;
  std::size_t row_start = 0;
  unsigned empties = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '/') {
      const char c = text[i];
      if (c == '.') {
        grid.cells.push_back(kEmptyCell);
        ++empties;
      } else if (c >= '0' && c <= '5') {
        grid.cells.push_back(static_cast<std::int8_t>(c - '0'));
      } else {
        fail(fmt::format("{} at position {} is not an orientation 0-5 or '.'",
                         excerpt(std::string_view(&c, 1)), i + 1));
      }
      continue;
    }
    const auto width = static_cast<unsigned>(i - row_start);
    if (width == 0) fail(fmt::format("row {} is empty", grid.rows + 1));
    if (grid.rows == 0) grid.cols = width;
    if (width != grid.cols)
      fail(fmt::format("row {} has {} cells, row 1 has {}", grid.rows + 1, width, grid.cols));
    ++grid.rows;
    row_start = i + 1;
  }
  if (grid.cells.size() > kMaxCells)
    fail(fmt::format("{} cells; at most {} are supported", grid.cells.size(), kMaxCells));
  if (grid.cells.size() < 2) fail("a grid needs at least 2 cells");
  if (empties != 1) fail(fmt::format("{} empty cells ('.'); there must be exactly one", empties));
  if ((rows != 0 && grid.rows != rows) || (cols != 0 && grid.cols != cols))
    fail(fmt::format("it is {}x{}, expected {}x{}", grid.rows, grid.cols, rows, cols));
  return grid;
}

std::string roll_letters(const std::vector<Roll>& moves) {
  std::string letters;
  for (const Roll r : moves) letters += kRollLetters[static_cast<unsigned>(r)];
  return letters;
}

std::string format_grid(const Grid& grid) {
  std::string text;
  for (unsigned i = 0; i < grid.cells.size(); ++i) {
    if (i > 0 && i % grid.cols == 0) text += '/';
    text += grid.cells[i] == kEmptyCell ? '.' : static_cast<char>('0' + grid.cells[i]);
  }
  return text;
}

std::vector<std::string> draw_grid(const Grid& grid) {
  const std::string border = fmt::format("+{}+", std::string(grid.cols, '-'));
  std::vector<std::string> lines{border};
  const std::string compact = format_grid(grid);
  for (unsigned r = 0; r < grid.rows; ++r)
    lines.push_back(fmt::format("|{}|", compact.substr(r * (grid.cols + 1), grid.cols)));
  lines.push_back(border);
  return lines;
}

namespace {

// rows x cols in 2..kMaxCells, computed without wrapping (2147483649 x 2
// wraps to 2 in unsigned arithmetic).
unsigned checked_cells(unsigned rows, unsigned cols) {
  const auto cells = product_at_most({rows, cols}, kMaxCells);
  if (!cells || *cells < 2)
    throw_input_error("--rows/--cols", fmt::format("a {}x{} grid: the grid needs 2 to {} cells",
                                                   rows, cols, kMaxCells));
  return *cells;
}

}  // namespace

Grid uniform_grid(unsigned rows, unsigned cols, std::uint8_t orientation) {
  checked_cells(rows, cols);
  Grid grid{rows, cols,
            std::vector<std::int8_t>(rows * cols, static_cast<std::int8_t>(orientation))};
  grid.cells[(rows / 2) * cols + cols / 2] = kEmptyCell;
  return grid;
}

RollingCubesSpace::RollingCubesSpace(unsigned rows, unsigned cols)
    : rows_(rows), cols_(cols), cubes_(checked_cells(rows, cols) - 1) {
  block_ = power6(cubes_);
  top_weight_ = power6(cols - 1);

  low_nibbles_.resize(kLowStates);
  for (std::uint64_t v = 0; v < kLowStates; ++v)
    for (unsigned j = 0, x = static_cast<unsigned>(v); j < kLowDigits; ++j, x /= 6)
      low_nibbles_[v] |= std::uint64_t{x % 6} << (4 * j);
  high_nibbles_.resize(std::max<std::uint64_t>(1, block_ / kLowStates));
  for (std::uint64_t v = 0; v < high_nibbles_.size(); ++v)
    for (std::uint64_t j = 0, x = v; x != 0; ++j, x /= 6) high_nibbles_[v] |= (x % 6) << (4 * j);

  // Cube index i (cell order, skipping the empty cell) is digit cubes-1-i.
  moves_.resize(cells());
  steps_.resize(cells());
  for (unsigned empty = 0; empty < cells(); ++empty) {
    for (Roll r : kRolls) {
      const int from = source_cell(rows, cols, empty, r);
      if (from < 0) continue;
      moves_[empty].push_back(Move{r, static_cast<unsigned>(from)});
      Step step{};
      step.roll = static_cast<std::uint8_t>(r);
      step.to_block = static_cast<std::uint64_t>(from) * block_;
      switch (r) {
        case Roll::Left:
          step.kind = Step::Sideways;
          step.nibble = cubes_ - 1 - empty;
          break;
        case Roll::Right:
          step.kind = Step::Sideways;
          step.nibble = cubes_ - empty;
          break;
        case Roll::Up:
          step.kind = Step::Up;
          step.nibble = cubes_ - empty - cols;
          break;
        case Roll::Down:
          step.kind = Step::Down;
          step.nibble = cubes_ - empty;
          break;
      }
      step.weight = power6(step.nibble);
      steps_[empty].push_back(step);
    }
  }
}

std::uint64_t RollingCubesSpace::rank(const Grid& grid) const {
  if (grid.rows != rows_ || grid.cols != cols_)
    throw std::invalid_argument("rank: grid of another size");
  std::uint64_t digits = 0;
  for (std::int8_t c : grid.cells)
    if (c != kEmptyCell) digits = digits * 6 + static_cast<std::uint64_t>(c);
  return grid.empty() * block_ + digits;
}

Grid RollingCubesSpace::unrank(std::uint64_t rank) const {
  Grid grid{rows_, cols_, std::vector<std::int8_t>(cells())};
  const auto empty = static_cast<unsigned>(rank / block_);
  std::uint64_t digits = rank % block_;
  for (unsigned cell = cells(); cell-- > 0;) {
    if (cell == empty) {
      grid.cells[cell] = kEmptyCell;
      continue;
    }
    grid.cells[cell] = static_cast<std::int8_t>(digits % 6);
    digits /= 6;
  }
  return grid;
}

std::uint64_t PackedRollingCubes::pack(const Grid& grid) {
  std::uint64_t key = 0;
  for (unsigned i = 0; i < grid.cells.size(); ++i)
    key |= static_cast<std::uint64_t>(grid.cells[i] == kEmptyCell ? 15 : grid.cells[i]) << (4 * i);
  return key;
}

Roll RollingCubesSpace::move_between(std::uint64_t a, std::uint64_t b) const {
  const auto empty = static_cast<unsigned>(a / block_);
  const std::uint64_t digits = a - empty * block_;
  const std::uint64_t nibbles = to_nibbles(digits);
  for (const Step& step : steps_[empty])
    if (neighbour(step, digits, nibbles) == b) return static_cast<Roll>(step.roll);
  throw std::logic_error("move_between: states are not neighbours");
}

}  // namespace cubenum::rolling
