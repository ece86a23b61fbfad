// The solution page: the viewer's style, the data, three.js and the viewer,
// in that order, in one HTML file (report/html_page.hpp).
#include "cubenum/report/html_page.hpp"

#include <stdexcept>
#include <string_view>

#include "cubenum/report/xml_text.hpp"

namespace cubenum::report {
namespace web {
// Generated at build time by cmake/embed_web.cmake from web/.
extern const std::string_view three_js;
extern const std::string_view viewer_js;
extern const std::string_view viewer_css;
}  // namespace web

namespace {

constexpr std::string_view kDataOpen = "<script type=\"application/json\" id=\"cubenum-data\">";
constexpr std::string_view kScriptClose = "</script>";

}  // namespace

std::string page_json(const Json& data) {
  const std::string text = data.dump();
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '<')
      out += "\\u003c";  // only inside strings: JSON has no '<' elsewhere
    else
      out += c;
  }
  return out;
}

std::string solution_page(const Json& data) {
  const std::string title = data.value("title", std::string("cubenum"));
  std::string page;
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<meta name=\"generator\" content=\"cubenum\">\n";
  page += "<title>" + xml_text(title) + "</title>\n<style>\n";
  page += web::viewer_css;
  page += "</style>\n</head>\n<body>\n";
  page += std::string(kDataOpen) + page_json(data) + std::string(kScriptClose) + "\n";
  page += "<script>\n";
  page += web::three_js;
  page += "\n</script>\n<script>\n";
  page += web::viewer_js;
  page += "\n</script>\n</body>\n</html>\n";
  return page;
}

Json read_page_data(const std::string& page) {
  const auto open = page.find(kDataOpen);
  if (open == std::string::npos) throw std::runtime_error("no cubenum-data in the page");
  const auto begin = open + kDataOpen.size();
  const auto end = page.find(kScriptClose, begin);
  if (end == std::string::npos) throw std::runtime_error("the page's data is not closed");
  return Json::parse(page.substr(begin, end - begin));
}

}  // namespace cubenum::report
