#pragma once
// An element that Interlink does not interpret but must not lose: elements outside the supported
// subset, custom (namespaced) elements, format-specific opaque data.
#include <string>
#include <utility>
#include <vector>

#include "interlink/SourceLocation.hpp"

namespace interlink {

/// A kept XML element as data: what a writer of the same format needs to write it back.
struct KeptNode {
  std::string name;  // qualified, as written ("sensor", "gz:system")
  std::vector<std::pair<std::string, std::string>> attributes;  // in document order
  std::string text;  // character data, trimmed
  std::vector<KeptNode> children;
};

struct KeptElement {
  std::string path;  // e.g. "model/link/sensor"
  std::string text;  // the element as written (XML/JSON text)
  SourceLocation where;
  /// The element as a tree (XML formats that write back what they read; empty name otherwise).
  KeptNode element = {};
  /// Where it belongs inside the model or world that keeps it: the tags below that scope
  /// ("link/visual", "" for a direct child) and the names of those elements ({"base", "v1"}).
  std::string within = {};
  std::vector<std::string> owners = {};
};

}  // namespace interlink
