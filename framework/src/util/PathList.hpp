#pragma once
// Colon-separated search paths (INTERLINK_PLUGIN_PATH, INTERLINK_RESOURCE_PATH).
#include <cstring>
#include <string>
#include <vector>

namespace interlink::detail {

/// The non-empty entries of a colon-separated list; an unset variable (null) gives none.
/// Plain scanning: this runs for several variables at every start-up, where a string stream's
/// first use costs more than the rest of discovery.
inline std::vector<std::string> splitPathList(const char* value) {
  std::vector<std::string> out;
  if (!value) return out;
  for (const char* start = value;;) {
    const char* end = std::strchr(start, ':');
    const std::size_t length = end ? static_cast<std::size_t>(end - start) : std::strlen(start);
    if (length > 0) out.emplace_back(start, length);
    if (!end) break;
    start = end + 1;
  }
  return out;
}

}  // namespace interlink::detail
