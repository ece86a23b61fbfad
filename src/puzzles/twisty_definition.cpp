// Reading and checking a ksolve/twsearch definition file, and the moves of
// a search (powers, --moves, --quarter).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>

#include "cubenum/core/error.hpp"
#include "cubenum/core/input_file.hpp"
#include "cubenum/puzzles/twisty.hpp"

namespace cubenum::twisty {
namespace {

constexpr unsigned kMaxSlots = 255;
constexpr unsigned kMaxOrientations = 255;
constexpr std::size_t kMaxLineBytes = 1 << 16;
constexpr std::size_t kQuoteBytes = 40;

// A token for a message: printable and short.
std::string quote(const std::string& token) {
  std::string shown;
  for (char c : token.substr(0, kQuoteBytes))
    shown += std::isprint(static_cast<unsigned char>(c)) != 0 ? c : '?';
  if (token.size() > kQuoteBytes) shown += "...";
  return "'" + shown + "'";
}

// The file as lines of tokens, comments and blank lines dropped.
class Lines {
 public:
  Lines(std::istream& in, std::string file) : in_(in), file_(std::move(file)) {}

  // The next line with tokens; false at the end of the file.
  bool next(std::vector<std::string>& tokens) {
    std::string text;
    while (read(text)) {
      tokens = split(text);
      if (!tokens.empty()) return true;
    }
    return false;
  }
  int line() const { return line_; }
  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(file_, line_, problem);
  }
  [[noreturn]] void fail_at(int line, const std::string& problem) const {
    throw InputError(file_, line, problem);
  }

 private:
  bool read(std::string& text) {
    text.clear();
    if (!in_.good() || !std::getline(in_, text)) return false;
    if (text.size() > kMaxLineBytes)
      throw InputError(file_, line_ + 1, "line longer than 65536 bytes");
    ++line_;
    if (line_ == 1 && text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);  // a UTF-8 BOM
    return true;
  }

  std::vector<std::string> split(const std::string& text) const {
    std::vector<std::string> tokens;
    std::string token;
    for (char c : text) {
      if (c == '\0') fail("a NUL byte (is this a text file?)");
      if (std::isspace(static_cast<unsigned char>(c)) != 0) {
        if (!token.empty()) tokens.push_back(std::move(token));
        token.clear();
        continue;
      }
      if (c == '#' && token.empty()) break;  // a comment to the end of the line
      token += c;
    }
    if (!token.empty()) tokens.push_back(std::move(token));
    return tokens;
  }

  std::istream& in_;
  std::string file_;
  int line_ = 0;
};

std::optional<unsigned> to_number(const std::string& token) {
  if (token.empty() || token.size() > 9) return std::nullopt;
  unsigned value = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  return value;
}

bool is_number(const std::string& token) {
  return !token.empty() && (std::isdigit(static_cast<unsigned char>(token[0])) != 0 ||
                            token[0] == '?' || token[0] == '-');
}

const std::set<std::string>& unsupported_keywords() {
  static const std::set<std::string> words = {
      "Illegal",         "MoveSequence",  "MoveAlias", "StartState", "MoveTransformation",
      "Scramble",        "ScrambleState", "Ignore",    "BlockMove",  "ForbiddenPairs",
      "ForbiddenGroups", "MaxDepth"};
  return words;
}

class Reader {
 public:
  Reader(std::istream& in, const std::string& file) : lines_(in, file) { def_.file = file; }
  // For a scramble file of the definition's puzzle.
  Reader(std::istream& in, const std::string& file, const Definition& def)
      : lines_(in, file), def_(def) {}

  std::vector<Scramble> read_scrambles() {
    std::vector<Scramble> scrambles;
    std::vector<std::string> t;
    while (lines_.next(t)) {
      Scramble s{"", lines_.line(), {}, std::nullopt};
      if (t[0] == "ScrambleAlg") {
        expect(t, 2, "ScrambleAlg NAME");
        s.name = t[1];
        while (true) {
          if (!lines_.next(t))
            lines_.fail_at(s.line,
                           "ScrambleAlg " + s.name + " has no End: the file ends inside it");
          if (t[0] == "End") break;
          s.moves.insert(s.moves.end(), t.begin(), t.end());
        }
      } else if (t[0] == "Scramble" || t[0] == "ScrambleState" || t[0] == "StartState") {
        expect(t, 2, "Scramble NAME");
        s.name = t[1];
        s.position = read_block(t[0] + " " + t[1], true);
        check_pieces(*s.position, s.line);
      } else if (unsupported_keywords().contains(t[0]) || t[0] == "End" || t[0] == "CPOS") {
        lines_.fail(
            fmt::format("{} is not supported in a scramble file (expected ScrambleAlg, "
                        "Scramble or a line of moves)",
                        quote(t[0])));
      } else {
        s.name = fmt::format("line {}", s.line);
        s.moves = t;
      }
      scrambles.push_back(std::move(s));
    }
    if (scrambles.empty()) lines_.fail_at(0, "no scramble in the file");
    return scrambles;
  }

  Definition read() {
    std::vector<std::string> t;
    bool solved = false;
    while (lines_.next(t)) {
      const std::string& word = t[0];
      if (unsupported_keywords().contains(word))
        lines_.fail(fmt::format("'{}' is not supported by cubenum", word));
      if (word == "Name") {
        if (!def_.name.empty()) lines_.fail("a second Name line");
        if (!def_.sets.empty()) lines_.fail("Name must come before the sets");
        expect(t, 2, "Name NAME");
        def_.name = t[1];
      } else if (word == "Set") {
        if (solved) lines_.fail("Set after Solved: every set must be declared before Solved");
        read_set(t);
      } else if (word == "Solved") {
        if (solved) lines_.fail("a second Solved block");
        if (def_.sets.empty()) lines_.fail("Solved before any Set");
        expect(t, 1, "Solved");
        def_.solved = read_block("Solved", true);
        solved = true;
      } else if (word == "Move") {
        if (!solved) lines_.fail("Move before Solved: the solved position comes first");
        read_move(t);
      } else if (word == "End") {
        lines_.fail("End without a Solved or Move block");
      } else {
        lines_.fail(fmt::format("unexpected {} (expected Name, Set, Solved or Move)", quote(word)));
      }
    }
    if (def_.sets.empty()) lines_.fail_at(0, "no Set line: the file declares no pieces");
    if (!solved) lines_.fail_at(0, "no Solved block");
    if (def_.moves.empty()) lines_.fail_at(0, "no Move block: the puzzle has no moves");
    if (def_.name.empty()) def_.name = "Unnamed";
    return std::move(def_);
  }

 private:
  void expect(const std::vector<std::string>& t, std::size_t count, const char* form) const {
    if (t.size() != count)
      lines_.fail(
          fmt::format("expected '{}', found {} word{}", form, t.size(), t.size() == 1 ? "" : "s"));
  }

  unsigned number(const std::string& token, unsigned low, unsigned high, const char* what) const {
    if (token == "?") lines_.fail(fmt::format("'?' (an unknown {}) is not supported", what));
    const auto value = to_number(token);
    if (!value)
      lines_.fail(fmt::format("{}: expected the {}, a whole number from {} to {}", quote(token),
                              what, low, high));
    if (*value < low || *value > high)
      lines_.fail(
          fmt::format("{} {} is out of range (expected {} to {})", what, *value, low, high));
    return *value;
  }

  void read_set(const std::vector<std::string>& t) {
    expect(t, 4, "Set NAME SLOTS ORIENTATIONS");
    if (is_number(t[1]))
      lines_.fail(fmt::format("a set name may not be a number: {}", quote(t[1])));
    for (const PieceSet& s : def_.sets)
      if (s.name == t[1]) lines_.fail(fmt::format("set {} is declared twice", t[1]));
    PieceSet set{t[1], number(t[2], 1, kMaxSlots, "slot count"),
                 number(t[3], 1, kMaxOrientations, "orientation count")};
    def_.sets.push_back(std::move(set));
  }

  void read_move(const std::vector<std::string>& t) {
    expect(t, 2, "Move NAME");
    const int line = lines_.line();
    for (const MoveDef& m : def_.moves)
      if (m.name == t[1])
        lines_.fail(fmt::format("move {} is defined twice (first at line {})", t[1], m.line));
    MoveDef move{t[1], line, read_block(fmt::format("Move {}", t[1]), false)};
    if (move.effect == def_.identity())
      lines_.fail_at(line, fmt::format("move {} changes nothing", move.name));
    def_.moves.push_back(std::move(move));
  }

  int set_index(const std::string& name) const {
    for (std::size_t i = 0; i < def_.sets.size(); ++i)
      if (def_.sets[i].name == name) return static_cast<int>(i);
    return -1;
  }

  // A Solved or Move block, up to its End; sets it does not name are as
  // in the identity.
  Arrangement read_block(const std::string& what, bool solved) {
    const int start = lines_.line();
    Arrangement a = def_.identity();
    std::vector<bool> named(def_.sets.size(), false);
    std::vector<bool> has_ori(def_.sets.size(), false);
    int current = -1, numbers = 0;
    std::vector<std::string> t;
    while (true) {
      if (!lines_.next(t))
        lines_.fail(fmt::format("{} (line {}) has no End: the file ends inside it", what, start));
      if (t[0] == "End") {
        expect(t, 1, "End");
        if (current >= 0 && numbers == 0)
          lines_.fail(fmt::format("set {} has no pieces line before End", def_.sets[current].name));
        break;
      }
      if (is_number(t[0])) {
        if (current < 0) lines_.fail(fmt::format("numbers before a set name in {}", what));
        if (numbers == 2)
          lines_.fail(
              fmt::format("a third line of numbers for set {} (expected pieces and "
                          "orientations)",
                          def_.sets[current].name));
        read_numbers(t, static_cast<unsigned>(current), numbers == 0, solved, a);
        if (numbers == 1) has_ori[current] = true;
        ++numbers;
        continue;
      }
      if (current >= 0 && numbers == 0)
        lines_.fail(fmt::format("set {} has no pieces line", def_.sets[current].name));
      if (t.size() != 1 || unsupported_keywords().contains(t[0]) || t[0] == "Move" ||
          t[0] == "Set" || t[0] == "Solved" || t[0] == "Name") {
        if (t[0] == "Move" || t[0] == "Set" || t[0] == "Solved" || t[0] == "Name")
          lines_.fail(fmt::format("{} (line {}) has no End before this {}", what, start, t[0]));
        lines_.fail(fmt::format("expected a set name or End in {}, found {}", what, quote(t[0])));
      }
      current = set_index(t[0]);
      if (current < 0)
        lines_.fail(
            fmt::format("set {} is not declared (no 'Set {} ...' line)", quote(t[0]), t[0]));
      if (named[current]) lines_.fail(fmt::format("set {} appears twice in {}", t[0], what));
      named[current] = true;
      numbers = 0;
    }
    if (!solved) to_state_form(a, has_ori);
    return a;
  }

  void read_numbers(const std::vector<std::string>& t, unsigned s, bool pieces, bool solved,
                    Arrangement& a) const {
    const PieceSet& set = def_.sets[s];
    if (t.size() != set.slots)
      lines_.fail(fmt::format("set {} has {} slots, but this line has {} number{}", set.name,
                              set.slots, t.size(), t.size() == 1 ? "" : "s"));
    if (!pieces) {
      for (unsigned i = 0; i < set.slots; ++i)
        a.ori[s][i] =
            static_cast<std::uint8_t>(number(t[i], 0, set.orientations - 1, "orientation"));
      return;
    }
    std::vector<unsigned> seen(set.slots + 1, 0);
    for (unsigned i = 0; i < set.slots; ++i) {
      const unsigned p = number(t[i], 1, set.slots, "piece");
      if (!solved && seen[p] != 0)
        lines_.fail(
            fmt::format("{} appears twice in set {}: a move must permute the slots 1..{} "
                        "(this one would change the count of identical pieces)",
                        p, set.name, set.slots));
      ++seen[p];
      a.perm[s][i] = static_cast<std::uint8_t>(p - 1);
    }
  }

  // A position must hold the solved position's pieces.
  void check_pieces(const Arrangement& a, int line) const {
    for (std::size_t s = 0; s < a.perm.size(); ++s) {
      std::vector<std::uint8_t> have = a.perm[s], want = def_.solved.perm[s];
      std::sort(have.begin(), have.end());
      std::sort(want.begin(), want.end());
      if (have != want)
        lines_.fail_at(line, fmt::format("the position's set {} does not hold the solved "
                                         "position's pieces",
                                         def_.sets[s].name));
    }
  }

  // A ksolve move's twists are by piece: the piece coming from slot p[i]
  // twists by o[p[i]]. By slot, slot i's piece twists by that.
  void to_state_form(Arrangement& a, const std::vector<bool>& has_ori) const {
    for (std::size_t s = 0; s < a.perm.size(); ++s) {
      if (!has_ori[s]) continue;
      const std::vector<std::uint8_t> by_piece = a.ori[s];
      for (std::size_t i = 0; i < by_piece.size(); ++i) a.ori[s][i] = by_piece[a.perm[s][i]];
    }
  }

  Lines lines_;
  Definition def_;
};

}  // namespace

Arrangement Definition::identity() const {
  Arrangement a;
  for (const PieceSet& s : sets) {
    std::vector<std::uint8_t> perm(s.slots);
    std::iota(perm.begin(), perm.end(), std::uint8_t{0});
    a.perm.push_back(std::move(perm));
    a.ori.emplace_back(s.slots, std::uint8_t{0});
  }
  return a;
}

Arrangement apply(const std::vector<PieceSet>& sets, const Arrangement& state,
                  const Arrangement& move) {
  Arrangement out = state;
  apply(sets, state, move, out);
  return out;
}

void apply(const std::vector<PieceSet>& sets, const Arrangement& state, const Arrangement& move,
           Arrangement& out) {
  for (std::size_t s = 0; s < sets.size(); ++s) {
    const unsigned o = sets[s].orientations;
    for (unsigned i = 0; i < sets[s].slots; ++i) {
      const unsigned from = move.perm[s][i];
      out.perm[s][i] = state.perm[s][from];
      out.ori[s][i] = static_cast<std::uint8_t>((state.ori[s][from] + move.ori[s][i]) % o);
    }
  }
}

Definition parse_definition(std::istream& in, const std::string& file) {
  return Reader(in, file).read();
}

std::vector<Scramble> parse_scrambles(std::istream& in, const std::string& file,
                                      const Definition& def) {
  return Reader(in, file, def).read_scrambles();
}

std::vector<Scramble> load_scrambles(const std::string& path, const Definition& def) {
  std::istringstream in(read_input_file(path, "scramble file"));
  return parse_scrambles(in, path, def);
}

Definition load_definition(const std::string& path) {
  std::istringstream in(read_input_file(path, "definition file"));
  return parse_definition(in, path);
}

namespace {

// twsearch's whole-puzzle rotations: x, y, z (with 2 or ') and a grip in
// capitals followed by v (Fv, DBRv).
bool is_rotation(const std::string& name) {
  if (!name.empty() && (name[0] == 'x' || name[0] == 'y' || name[0] == 'z') &&
      (name.size() == 1 || (name.size() == 2 && (name[1] == '2' || name[1] == '\''))))
    return true;
  std::size_t i = 0;
  while (i < name.size() && (name[i] == '_' || (name[i] >= 'A' && name[i] <= 'Z'))) ++i;
  return i > 0 && i + 1 == name.size() && name[i] == 'v';
}

// twsearch's name for power j of a move of order n: R, R2, R3, R2', R'.
std::string power_name(const std::string& base, unsigned j, unsigned n) {
  const int twist = n - j < j ? static_cast<int>(j) - static_cast<int>(n) : static_cast<int>(j);
  std::string name = base;
  if (twist != 1 && twist != -1) name += std::to_string(std::abs(twist));
  if (twist < 0) name += "'";
  return name;
}

constexpr unsigned kMaxOrder = 1000;
constexpr std::size_t kMaxMoves = 255;

// The powers g, g^2, ... of a move up to (not including) the identity.
std::vector<Arrangement> powers(const Definition& def, const Arrangement& g,
                                const std::string& name) {
  const Arrangement id = def.identity();
  std::vector<Arrangement> out{g};
  while (true) {
    Arrangement next = apply(def.sets, out.back(), g);
    if (next == id) return out;
    if (out.size() + 1 >= kMaxOrder)
      throw InputError(def.file, 0, fmt::format("move {} has order over {}", name, kMaxOrder));
    out.push_back(std::move(next));
  }
}

struct Generator {
  int base;
  unsigned step;  // the generator is base^step
};

}  // namespace

std::string sequence_text(const std::vector<Move>& moves, const std::vector<int>& sequence) {
  std::string text;
  for (int m : sequence) {
    if (!text.empty()) text += ' ';
    text += moves[static_cast<std::size_t>(m)].name;
  }
  return text;
}

std::vector<std::string> split_move_list(const std::string& text) {
  std::vector<std::string> names;
  std::string name;
  for (char c : text) {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c)) != 0) {
      if (!name.empty()) names.push_back(std::move(name));
      name.clear();
    } else {
      name += c;
    }
  }
  if (!name.empty()) names.push_back(std::move(name));
  return names;
}

std::vector<Move> expand_moves(const Definition& def, const MoveChoice& choice,
                               const std::string& option) {
  // Every power of every move of the file, by name.
  std::vector<std::vector<Arrangement>> all;
  std::map<std::string, std::pair<int, unsigned>> by_name;  // name -> (base, power)
  for (std::size_t b = 0; b < def.moves.size(); ++b) {
    all.push_back(powers(def, def.moves[b].effect, def.moves[b].name));
    const auto n = static_cast<unsigned>(all.back().size() + 1);
    for (unsigned j = 1; j < n; ++j) {
      const std::string name = power_name(def.moves[b].name, j, n);
      const auto [at, fresh] = by_name.emplace(name, std::pair{static_cast<int>(b), j});
      if (!fresh)
        throw InputError(def.file, def.moves[b].line,
                         fmt::format("move {} is also the name of a power of move {}", name,
                                     def.moves[static_cast<std::size_t>(at->second.first)].name));
    }
  }
  std::vector<Generator> generators;
  if (choice.names.empty()) {
    for (std::size_t b = 0; b < def.moves.size(); ++b)
      if (!is_rotation(def.moves[b].name)) generators.push_back({static_cast<int>(b), 1});
    if (generators.empty())
      throw InputError(def.file, 0,
                       "every move is a whole-puzzle rotation; name moves with --moves");
  } else {
    std::set<int> bases;
    for (const std::string& name : choice.names) {
      const auto it = by_name.find(name);
      if (it == by_name.end())
        throw InputError(option, 0, fmt::format("no move {} in {}", quote(name), def.file));
      const auto [base, power] = it->second;
      if (!bases.insert(base).second)
        throw InputError(option, 0,
                         fmt::format("move {} is named twice (list each move once)",
                                     def.moves[static_cast<std::size_t>(base)].name));
      const auto n = static_cast<unsigned>(all[static_cast<std::size_t>(base)].size() + 1);
      generators.push_back({base, std::gcd(power, n)});
    }
  }
  std::vector<Move> moves;
  for (const Generator& g : generators) {
    const auto& pw = all[static_cast<std::size_t>(g.base)];
    const auto n = static_cast<unsigned>(pw.size() + 1);
    const unsigned order = n / g.step;  // of the generator
    for (unsigned k = 1; k < order; ++k) {
      const unsigned cost = std::min(k, order - k);
      if (choice.quarter && cost > 1) continue;
      const unsigned j = k * g.step;
      moves.push_back({power_name(def.moves[static_cast<std::size_t>(g.base)].name, j, n), g.base,
                       j, order, cost, pw[j - 1]});
    }
  }
  if (moves.size() > kMaxMoves)
    throw InputError(def.file, 0,
                     fmt::format("{} moves with their powers: cubenum handles at most {}",
                                 moves.size(), kMaxMoves));
  return moves;
}

std::vector<Move> all_powers(const Definition& def) {
  MoveChoice every;
  for (const MoveDef& m : def.moves) every.names.push_back(m.name);
  return expand_moves(def, every);
}

std::vector<int> parse_sequence(const std::vector<Move>& moves, const std::string& text,
                                const std::string& option) {
  std::vector<int> out;
  for (const std::string& token : split_move_list(text)) {
    int found = -1;
    for (std::size_t i = 0; i < moves.size() && found < 0; ++i)
      if (moves[i].name == token) found = static_cast<int>(i);
    if (found < 0) throw InputError(option, 0, fmt::format("unknown move {}", quote(token)));
    out.push_back(found);
  }
  return out;
}

}  // namespace cubenum::twisty
