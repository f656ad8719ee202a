#pragma once
// Comparing an element's or attribute's name with the one a reader asks for.
#include <cstddef>
#include <string>
#include <string_view>

namespace interlink::xml::detail {

/// Whether `name` is `wanted`. Names are short and a lookup compares many of the same length
/// ("ixx", "ixy", "ixz"...): a byte loop here instead of a call to memcmp for each, which was
/// the largest cost of the readers' attribute lookups.
inline bool sameName(const std::string& name, std::string_view wanted) {
  if (name.size() != wanted.size()) return false;
  const char* a = name.data();
  const char* b = wanted.data();
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace interlink::xml::detail
