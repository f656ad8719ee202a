#pragma once
// The "good" test plugin's own extension record, as a format would declare it in its public header.
#include <string>
#include <vector>

#include "interlink/model/Extension.hpp"

namespace good {

struct GoodSummary {
  static constexpr interlink::ExtensionKind kExtensionKind{"good.summary", 1};
  std::vector<std::string> linkNames;
  std::string note;
};

}  // namespace good
