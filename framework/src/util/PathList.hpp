#pragma once
// Colon-separated search paths (INTERLINK_PLUGIN_PATH, INTERLINK_RESOURCE_PATH).
#include <sstream>
#include <string>
#include <vector>

namespace interlink::detail {

/// The non-empty entries of a colon-separated list; an unset variable (null) gives none.
inline std::vector<std::string> splitPathList(const char* value) {
  std::vector<std::string> out;
  if (!value) return out;
  std::stringstream stream(value);
  std::string item;
  while (std::getline(stream, item, ':')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace interlink::detail
