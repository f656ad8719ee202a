#pragma once
// Comparing an element's or attribute's name with the one a reader or a schema asks for, and
// telling names in another namespace apart.
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

/// Whether `name` has a namespace prefix ("gz:plugin", "xmlns:xacro"); a byte loop, for the same
/// reason: validators ask it of every element and attribute.
inline bool hasNamespacePrefix(std::string_view name) {
  for (char c : name) {
    if (c == ':') return true;
  }
  return false;
}

/// A name no format's vocabulary holds: a prefixed one, or the `xmlns` declaration itself.
inline bool isForeignName(std::string_view name) { return hasNamespacePrefix(name) || sameName(name, "xmlns"); }

}  // namespace interlink::xml
