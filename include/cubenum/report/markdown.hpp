#pragma once
// Results as Markdown, and the comparison of results that must agree.
#include <string>

#include "cubenum/report/json.hpp"

namespace cubenum::report {

// The result fields of one run as a Markdown table: scalars one row each,
// lists of numbers comma-separated, nested objects as `field.key` rows,
// lists of objects as a table of their own (their scalar fields; deeper
// structure stays in the JSON). The run's bookkeeping (puzzle,
// action, threads, seconds) is left out.
std::string fields_markdown(const Json& result);

// `result` without anything that measures time ("seconds", "*_seconds") or
// names the thread count: what must be identical between two runs.
Json counts_only(Json result);

}  // namespace cubenum::report
