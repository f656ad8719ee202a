// Helpers shared by the two steps of the Shift plugin.
#include "ShiftRecords.hpp"

#include "interlink/PoseMath.hpp"

namespace interlink::shift::detail {

std::string joinPath(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const auto& part : parts) {
    if (!out.empty()) out += separator;
    out += part;
  }
  return out;
}

std::string joinNumbers(const std::vector<double>& values) {
  std::string out;
  for (double v : values) {
    if (!out.empty()) out += ' ';
    out += formatNumber(v);
  }
  return out;
}

std::string ShiftFile::assemblyPath(int assembly) const {
  if (assembly <= 0) return "the top level";
  std::vector<std::string> parts;
  for (int a = assembly; a > 0; a = assemblies[static_cast<std::size_t>(a)].parent)
    parts.insert(parts.begin(), assemblies[static_cast<std::size_t>(a)].name);
  return "assembly '" + joinPath(parts, ":") + "'";
}

}  // namespace interlink::shift::detail
