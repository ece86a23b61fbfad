#pragma once
// Text as XML and HTML take it: & < > and " written as entities (the SVG
// plots' titles, the solution page's title).
#include <string>
#include <string_view>

namespace cubenum::report {

inline std::string xml_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace cubenum::report
