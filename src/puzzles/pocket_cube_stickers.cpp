// The pocket cube's stickers and corners: geometry, turns, reading and
// checking sticker strings, turn notation.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "cubenum/core/error.hpp"
#include "cubenum/puzzles/pocket_cube.hpp"
#include "pocket_cube_geometry.hpp"

namespace cubenum::pocket_cube {

Metric parse_metric(std::string_view text) {
  if (text == "qtm") return Metric::Quarter;
  if (text == "htm") return Metric::Half;
  detail::reject("--metric", fmt::format("unknown metric '{}' (expected qtm or htm)", text));
}

std::string_view metric_name(Metric metric) {
  return metric == Metric::Quarter ? "qtm" : "htm";
}

Stickers solved_stickers() {
  Stickers s{};
  for (int f = 0; f < kStickerCount; ++f) s[f] = detail::face_colour(detail::kFacelets[f].face);
  return s;
}

std::string sticker_digits(const Stickers& stickers) {
  std::string text(kStickerCount, '0');
  for (int f = 0; f < kStickerCount; ++f) text[f] = static_cast<char>('0' + stickers[f]);
  return text;
}

std::string turn_name(Turn turn) {
  std::string name(1, face_letter(turn.face));
  if (turn.quarters == 2) name += '2';
  if (turn.quarters == 3) name += '\'';
  return name;
}

std::string turns_text(const std::vector<Turn>& turns) {
  std::string text;
  for (const Turn& t : turns) {
    if (!text.empty()) text += ' ';
    text += turn_name(t);
  }
  return text;
}

std::vector<Turn> join_half_turns(const std::vector<Turn>& turns) {
  std::vector<Turn> joined;
  for (const Turn& t : turns) {
    if (!joined.empty() && joined.back().face == t.face) {
      joined.back().quarters = static_cast<std::uint8_t>((joined.back().quarters + t.quarters) % 4);
      if (joined.back().quarters == 0) joined.pop_back();
      continue;
    }
    joined.push_back(t);
  }
  return joined;
}

std::vector<Turn> parse_turns(std::string_view text) {
  std::vector<Turn> turns;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    const auto face = std::string_view("URFDLB").find(c);
    if (face == std::string_view::npos)
      detail::reject("--scramble",
                     fmt::format("unknown move '{}' at character {} (expected one of U R F D L B, "
                                 "each optionally followed by ' or 2)",
                                 c, i + 1));
    Turn turn{static_cast<Face>(face), 1};
    ++i;
    if (i < text.size() && text[i] == '2') turn.quarters = 2, ++i;
    if (i < text.size() && text[i] == '\'') turn.quarters = turn.quarters == 2 ? 2 : 3, ++i;
    turns.push_back(turn);
  }
  return turns;
}

Stickers apply_turn(const Stickers& stickers, Turn turn) {
  const detail::FaceletMap& map = detail::turn_map(turn);
  Stickers out{};
  for (int f = 0; f < kStickerCount; ++f) out[map.to[f]] = map.recolour[stickers[f]];
  return out;
}

namespace {

constexpr std::string_view kSlotNames[kCornerCount] = {"URF", "UFL", "ULB", "UBR",
                                                       "DFR", "DLF", "DRB", "DBL"};

std::string colour_names(std::uint8_t a, std::uint8_t b, std::uint8_t c) {
  return fmt::format("{} {} {}", kColourLetters[a], kColourLetters[b], kColourLetters[c]);
}

std::uint8_t read_colour(char c, std::size_t at, const std::string& source) {
  if (c >= '0' && c <= '5') return static_cast<std::uint8_t>(c - '0');
  const auto letter =
      kColourLetters.find(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (letter != std::string_view::npos) return static_cast<std::uint8_t>(letter);
  detail::reject(source,
                 fmt::format("character {} is '{}', not a colour (w y g b r o or 0-5)", at + 1, c));
}

void check_colour_counts(const Stickers& stickers, const std::string& source) {
  std::array<int, 6> count{};
  for (std::uint8_t c : stickers) ++count[c];
  if (std::all_of(count.begin(), count.end(), [](int n) { return n == 4; })) return;
  std::string counts;
  for (int c = 0; c < 6; ++c)
    counts += fmt::format("{}{} {}", c ? ", " : "", kColourLetters[c], count[c]);
  detail::reject(source,
                 fmt::format("wrong colour counts: each colour must appear 4 times ({})", counts));
}

}  // namespace

Corners corners_from_stickers(const Stickers& stickers, const std::string& source) {
  check_colour_counts(stickers, source);
  Corners corners;
  std::array<int, kCornerCount> slot_of_piece;
  slot_of_piece.fill(-1);
  int twist_sum = 0;
  for (int slot = 0; slot < kCornerCount; ++slot) {
    const auto& f = detail::kSlotFacelets[slot];
    const auto [a, b, c] = std::array{stickers[f[0]], stickers[f[1]], stickers[f[2]]};
    const detail::PieceReading reading = detail::read_piece(a, b, c);
    if (reading.piece == detail::kNoPiece)
      detail::reject(source, fmt::format("impossible corner at {}: no piece has the colours {}{}",
                                         kSlotNames[slot], colour_names(a, b, c),
                                         detail::read_piece(a, c, b).piece != detail::kNoPiece
                                             ? " in this order (it is a mirror image)"
                                             : ""));
    if (slot_of_piece[reading.piece] >= 0)
      detail::reject(source,
                     fmt::format("impossible corners: the piece {} appears at {} and at {}",
                                 colour_names(a, b, c), kSlotNames[slot_of_piece[reading.piece]],
                                 kSlotNames[slot]));
    slot_of_piece[reading.piece] = slot;
    corners.piece[slot] = reading.piece;
    corners.twist[slot] = reading.twist;
    twist_sum += reading.twist;
  }
  if (twist_sum % 3 != 0)
    detail::reject(source,
                   fmt::format("twisted corner: the corner twists sum to {} mod 3, not 0 (a "
                               "corner was turned in place)",
                               twist_sum % 3));
  return corners;
}

Corners parse_stickers(std::string_view text, const std::string& source) {
  if (text.size() != kStickerCount)
    detail::reject(
        source, fmt::format("wrong length: {} stickers, expected {}", text.size(), kStickerCount));
  Stickers stickers{};
  for (std::size_t i = 0; i < text.size(); ++i) stickers[i] = read_colour(text[i], i, source);
  return corners_from_stickers(stickers, source);
}

Stickers stickers_from_corners(const Corners& corners) {
  Stickers stickers{};
  for (int slot = 0; slot < kCornerCount; ++slot) {
    const auto& colours = detail::piece_colours(corners.piece[slot]);
    for (int k = 0; k < 3; ++k)
      stickers[detail::kSlotFacelets[slot][(corners.twist[slot] + k) % 3]] = colours[k];
  }
  return stickers;
}

}  // namespace cubenum::pocket_cube
