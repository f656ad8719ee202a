#pragma once
// An element that Interlink does not interpret but must not lose: elements outside the supported
// subset, custom (namespaced) elements, format-specific opaque data.
#include <string>

#include "interlink/SourceLocation.hpp"

namespace interlink {

struct KeptElement {
  std::string path;  // e.g. "model/link/sensor"
  std::string text;  // the element as written (XML/JSON text)
  SourceLocation where;
};

}  // namespace interlink
