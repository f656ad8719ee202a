#pragma once
// Where an element or a diagnostic comes from. Line and column are 1-based; 0 means unknown.
#include <string>

namespace interlink {

struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;

  bool known() const { return !file.empty() || line > 0; }
};

}  // namespace interlink
