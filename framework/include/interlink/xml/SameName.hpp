#pragma once
// Comparing an element's or attribute's name with the one a reader or a schema asks for, telling
// names in another namespace apart, finding a name given twice, and XML's names within ASCII.
#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

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

/// Whether two of `names` (an element's attribute names) are the same; `names` may be reordered.
/// A few are compared pair by pair; many are sorted first (a tag of thousands compared pair by
/// pair took seconds per megabyte).
inline bool hasRepeatedName(std::vector<std::string_view>& names) {
  constexpr std::size_t kComparedPairwise = 16;
  if (names.size() <= kComparedPairwise) {
    for (std::size_t i = 1; i < names.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (sameName(names[i], names[j])) return true;
      }
    }
    return false;
  }
  std::sort(names.begin(), names.end());
  return std::adjacent_find(names.begin(), names.end()) != names.end();
}

/// The characters that may start an XML name, and those that may follow, within ASCII (XML 1.0's
/// NameStartChar and NameChar). Readers leave names with other characters to a full parser.
constexpr bool isAsciiNameStartChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}
constexpr bool isAsciiNameChar(char c) { return isAsciiNameStartChar(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }

/// Whether `name` is an XML name of ASCII characters only.
inline bool isAsciiXmlName(std::string_view name) {
  return !name.empty() && isAsciiNameStartChar(name[0]) && std::all_of(name.begin() + 1, name.end(), isAsciiNameChar);
}

}  // namespace interlink::xml
