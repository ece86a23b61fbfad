#pragma once
// Results are JSON objects whose fields keep the order they were added in,
// so reports read in the order PUZZLES.md lists the fields.
#include <nlohmann/json.hpp>

namespace cubenum {
using Json = nlohmann::ordered_json;
}  // namespace cubenum
