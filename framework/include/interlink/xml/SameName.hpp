#pragma once
// Comparing an element's or attribute's name with the one a reader or a schema asks for.
#include <cstddef>
#include <string_view>

namespace interlink::xml {

/// Whether `name` is `wanted`. Names are short and a lookup compares many of the same length
/// ("ixx", "ixy", "ixz"..., a schema's twenty children of <link>): a length check and a byte loop,
/// inline, instead of a call to memcmp for each (4% of loading a URDF chain; issue 31).
inline bool sameName(std::string_view name, std::string_view wanted) {
  if (name.size() != wanted.size()) return false;
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    if (name[i] != wanted[i]) return false;
  }
  return true;
}

}  // namespace interlink::xml
