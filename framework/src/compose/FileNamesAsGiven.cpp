#include "compose/FileNamesAsGiven.hpp"

#include <filesystem>
#include <unordered_map>

namespace interlink::detail {

namespace fs = std::filesystem;

void nameFilesAsGiven(Diagnostics& diagnostics, const std::string& given, const std::string& absolute) {
  if (fs::path(given).is_absolute()) return;
  std::error_code ec;
  const fs::path workingDirectory = fs::current_path(ec);
  if (ec) return;
  const FileName asGiven(given);
  std::unordered_map<std::string, FileName> renamed;  // one shared name per file
  for (Diagnostic& d : diagnostics.items()) {
    if (d.where.file.empty()) continue;
    if (d.where.file == absolute) {
      d.where.file = asGiven;
      continue;
    }
    const fs::path file(d.where.file.str());
    if (!file.is_absolute()) continue;
    auto [known, inserted] = renamed.try_emplace(d.where.file.str());
    if (inserted) {
      const fs::path relative = file.lexically_relative(workingDirectory);
      known->second = relative.empty() ? d.where.file : FileName(relative.string());
    }
    d.where.file = known->second;
  }
}

}  // namespace interlink::detail
