#pragma once
// A solution page (issue 18): one HTML file that stands alone, opened from
// disk with no server and no network. It inlines three.js (web/vendor/,
// bundled from the locked npm package), the viewer (web/viewer.js,
// web/viewer.css) and the data it draws, the JSON the puzzle's *_page_data
// built from the solutions cubenum computed (docs/DESIGN.md, "Solution
// pages").
#include <string>

#include "cubenum/report/json.hpp"

namespace cubenum::report {

// `data` has at least "kind" (foam, pocket-cube, rolling-cubes, polycube),
// which the viewer draws, and "title".
std::string solution_page(const Json& data);

// The JSON as the page embeds it: every '<' written as \u003c, so no
// string in it can close the <script> element that holds it.
std::string page_json(const Json& data);

// The data a written page embeds, read back (for tests): throws
// std::runtime_error when the page holds none.
Json read_page_data(const std::string& page);

}  // namespace cubenum::report
