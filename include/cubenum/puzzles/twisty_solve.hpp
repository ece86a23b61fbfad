#pragma once
// `twisty solve` as a job: optimal solutions of scrambles, from the full
// depth table where it fits and no pattern databases are named (or where
// asked), else by IDA* (twisty_ida.hpp)
// with pattern databases chosen within the memory (twisty_pattern.hpp),
// made once for all the scrambles and kept in a folder where asked.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cubenum/puzzles/twisty_job.hpp"

namespace cubenum::twisty {

enum class SolveMethod { Auto, Table, Search };
SolveMethod parse_solve_method(const std::string& text);  // auto, table, search

struct SolveRequest {
  SpaceRequest space;
  std::optional<std::string> scramble;       // any move of the file and its powers
  std::optional<std::string> scramble_file;  // scrambles (load_scrambles), each solved in turn
  std::optional<std::string> table;          // read where it exists, else written
  std::optional<double> memory_gib;
  SolveMethod method = SolveMethod::Auto;
  // The search's:
  bool count = false;   // count every optimal solution
  std::size_t all = 1;  // optimal solutions listed (more than one: the last depth searched whole)
  unsigned max_depth = 30;  // no deeper
  double time_limit = 0;    // seconds a scramble, 0 for none
  std::optional<std::string>
      tables;  // the pattern databases' folder: read where there, else written
  // The patterns, ';' between them (parse_pattern); none: choose_patterns.
  std::optional<std::string> patterns;
  // Each table also looked up through this many of the puzzle's
  // symmetries (PatternDatabase::conjugated), each reading other pieces.
  unsigned symmetric_lookups = 2;
  // Each clamped table also read as the position's inverse, where the
  // moves allow (IdaOptions::inverse_lookups).
  bool inverse_lookups = true;
};

// A pattern database the search used.
struct PatternUse {
  std::string name;  // pattern_name
  std::uint64_t states = 0, bytes = 0;
  unsigned max_depth = 0;
  std::optional<std::string> file;  // in the tables folder
  bool loaded = false;              // read from `file`, else built (and written there)
  double seconds = 0;               // to build or read
  unsigned symmetric_lookups = 0;   // the symmetries it is also read through
  bool clamped = false;             // PatternDatabase::clamped
  bool inverse_lookups = false;     // also read as the inverse (and so its symmetric look-ups)
};

struct Solution {
  std::string scramble;    // the moves given, or the scramble file's name for it
  std::vector<int> moves;  // an optimal sequence, in the search's moves
  std::string text;
  bool found = true;  // false: none within max_depth (the search)
  // The search's: the optimal solutions listed (SolveRequest::all), nodes,
  // the depth below which no solution exists, the count of optimal
  // (canonical) solutions where the last depth was searched whole, and
  // whether the time limit stopped it (found: the count unfinished).
  bool searched = false;
  std::vector<std::string> listed;
  std::uint64_t nodes = 0;
  unsigned proven = 0;
  std::optional<std::uint64_t> count;
  bool stopped = false;
  double seconds = 0;
};

struct SolveResult {
  std::string file;
  bool searched = false;
  std::vector<PatternUse> pattern_databases;
  std::vector<Solution> solutions;  // in the scrambles' order
};

// Solves each scramble (calling `solved` after each), the tables made once:
// an optimal solution from the full depth table (read from the request's
// table where it exists, else built and written there if named), or by the
// search where the table does not fit or the request asks. A scramble that
// leaves the positions the moves reach is an InputError, refused before
// any table is built.
SolveResult solve(const SolveRequest& request,
                  const std::function<void(const Solution&)>& solved = {});

// Whether solve reads the request's table (it exists) rather than writing it.
bool reads_table(const SolveRequest& request);

}  // namespace cubenum::twisty
