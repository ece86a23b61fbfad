#include "cubenum/report/markdown.hpp"

#include <fmt/format.h>

#include <set>

namespace cubenum::report {
namespace {

bool is_bookkeeping(const std::string& key) {
  return key == "puzzle" || key == "action" || key == "threads" || key == "seconds";
}

bool is_timing(const std::string& key) {
  return key == "seconds" || key == "threads" ||
         (key.size() > 8 && key.compare(key.size() - 8, 8, "_seconds") == 0);
}

bool all_scalars(const Json& list) {
  for (const auto& v : list)
    if (v.is_structured()) return false;
  return true;
}

bool all_objects(const Json& list) {
  if (list.empty()) return false;
  for (const auto& v : list)
    if (!v.is_object()) return false;
  return true;
}

std::string cell(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array() && all_scalars(value)) {
    std::string s;
    for (const auto& v : value) s += (s.empty() ? "" : ", ") + cell(v);
    return s;
  }
  std::string dumped = value.dump();
  return dumped.size() > 200 ? dumped.substr(0, 197) + "..." : dumped;
}

void add_rows(const std::string& prefix, const Json& object, std::string& rows,
              std::string& tables) {
  for (const auto& [key, value] : object.items()) {
    if (prefix.empty() && is_bookkeeping(key)) continue;
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    if (value.is_object()) {
      add_rows(name, value, rows, tables);
    } else if (value.is_array() && all_objects(value)) {
      // Columns of scalars and short lists; deeper structure stays in the JSON.
      std::vector<std::string> columns;
      std::set<std::string> seen;
      for (const auto& item : value)
        for (const auto& [k, v] : item.items())
          if ((!v.is_structured() || (v.is_array() && all_scalars(v))) && seen.insert(k).second)
            columns.push_back(k);
      if (columns.empty()) continue;
      tables += fmt::format("\n`{}`:\n\n|", name);
      for (const auto& c : columns) tables += " " + c + " |";
      tables += "\n|";
      for (std::size_t i = 0; i < columns.size(); ++i) tables += "---|";
      tables += "\n";
      for (const auto& item : value) {
        tables += "|";
        for (const auto& c : columns)
          tables.append(" ").append(item.contains(c) ? cell(item[c]) : "").append(" |");
        tables += "\n";
      }
    } else {
      rows += fmt::format("| {} | {} |\n", name, cell(value));
    }
  }
}

}  // namespace

std::string fields_markdown(const Json& result) {
  std::string rows, tables;
  add_rows("", result, rows, tables);
  std::string text;
  if (!rows.empty()) text = "| field | value |\n|---|---|\n" + rows;
  return text + tables;
}

Json counts_only(Json result) {
  if (result.is_object()) {
    Json kept = Json::object();
    for (auto& [key, value] : result.items())
      if (!is_timing(key)) kept[key] = counts_only(value);
    return kept;
  }
  if (result.is_array())
    for (auto& v : result) v = counts_only(v);
  return result;
}

}  // namespace cubenum::report
