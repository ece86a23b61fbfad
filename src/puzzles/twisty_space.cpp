// The ranked state space of a definition file: its construction and what
// the ranking found. Orbits and their constraints are in twisty_orbits.cpp,
// the layout in twisty_layout.cpp, positions and their codes in
// twisty_codes.cpp, and the row engine's tables in twisty_row_tables.cpp.
#include "cubenum/puzzles/twisty_space.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "cubenum/core/error.hpp"

namespace cubenum::twisty {
namespace {

std::string plural(std::uint64_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

}  // namespace

TwistySpace::TwistySpace(const Definition& def, std::vector<Move> moves,
                         const SpaceOptions& options)
    : def_(def), moves_(std::move(moves)) {
  if (moves_.empty()) throw InputError(def_.file, 0, "no moves to search with");
  // Inverses: the move whose effect undoes m (the powers of a move include
  // its inverse, and --quarter keeps it).
  const Arrangement id = def_.identity();
  for (const Move& m : moves_) {
    int inverse = -1;
    for (std::size_t j = 0; j < moves_.size() && inverse < 0; ++j)
      if (apply(def_.sets, m.effect, moves_[j].effect) == id) inverse = static_cast<int>(j);
    if (inverse < 0) throw std::logic_error("twisty: a move without its inverse");
    inverse_.push_back(inverse);
  }
  find_orbits(def_);
  blank_ = blank();
  choose_layout(options);
  find_parities();
  find_contexts();
  table_bytes_ = count_table_bytes(options);
  if (options.before_tables) options.before_tables(*this);
  has_tables_ = options.tables;
  make_encode_memos();  // the BFS over classes encodes without the tables
  if (options.tables) build_tables(options);
  solved_rank_ = rank(def_.solved);
}

TwistySpace::~TwistySpace() = default;

// ---- what the ranking found

std::vector<std::string> TwistySpace::notes() const {
  std::vector<std::string> lines;
  for (unsigned s = 0; s < def_.sets.size(); ++s) {
    const PieceSet& set = def_.sets[s];
    std::vector<std::string> parts;
    for (unsigned o = 0; o < orbits_.size(); ++o) {
      const Orbit& orbit = orbits_[o];
      if (orbit.set != s) continue;
      std::string text = orbit.kinds() == orbit.size()
                             ? fmt::format("{} distinct pieces", orbit.size())
                             : fmt::format("{} of {}", plural(orbit.size(), "piece"),
                                           plural(orbit.kinds(), "kind"));
      if (orbit.kinds() == 1 && orbit.size() == 1) text = "1 fixed piece";
      if (orbit.radix > 1) {
        text += fmt::format(", twists {} of {}", orbit.radix * orbit.potential, orbit.orientations);
        if (orbit.sum_modulus > 1)
          text += fmt::format(" summing to {} mod {}", orbit.sum_target, orbit.sum_modulus);
        if (orbit.potential > 1)
          text +=
              fmt::format(", tied to the positions mod {} ({} free)", orbit.potential, orbit.radix);
      }
      if (orbit.coupled_to >= 0)
        text += fmt::format(", moving with {}[{}]",
                            def_.sets[orbits_[static_cast<std::size_t>(orbit.coupled_to)].set].name,
                            orbits_[static_cast<std::size_t>(orbit.coupled_to)].slots[0] + 1);
      if (orbit.parity_fixed) {
        std::vector<std::string> names;
        for (unsigned source : orbit.parity_sources)
          names.push_back(fmt::format("{}[{}]", def_.sets[orbits_[source].set].name,
                                      orbits_[source].slots[0] + 1));
        text += names.empty() ? ", even permutations only"
                              : fmt::format(", parity tied to {}", fmt::join(names, " + "));
      }
      parts.push_back(fmt::format("slots {}: {}", orbit.slots[0] + 1, text));
    }
    lines.push_back(fmt::format("set {} ({} slots, {}): {}", set.name, set.slots,
                                plural(parts.size(), "orbit"), fmt::join(parts, "; ")));
  }
  lines.push_back(fmt::format("layout: {} rows x {} columns{}", rows_, columns_,
                              contexts_ > 1 ? fmt::format(", {} column contexts", contexts_) : ""));
  return lines;
}

}  // namespace cubenum::twisty
