#pragma once
// What discovery concluded about one library, as one line of tab-separated text: the plugin
// cache stores it, and the plugin scanner (framework/scanner) reports it to the host. Compiled
// into both, so it uses nothing else of the core.
#include <string>
#include <vector>

#include "interlink/ErrorCode.hpp"
#include "interlink/PluginRegistry.hpp"

namespace interlink::detail {

/// Accepted (with the plugin's metadata) or refused (with the code and reason).
struct LibraryVerdict {
  bool accepted = false;
  PluginInfo info;                      // when accepted
  ErrorCode refusal = ErrorCode::NONE;  // when refused
  std::string reason;
};

/// \t, \n and \\ escaped, so that a field is one tab-free line.
std::string escapeField(const std::string& text);
std::string unescapeField(const std::string& text);
std::vector<std::string> splitFields(const std::string& line, char separator);

/// "accepted\tname\tversion\tkind\tsniffer\t.ext,.ext" or "refused\tCODE\treason".
std::string verdictFields(const LibraryVerdict& verdict);
/// Reads the fields written by verdictFields from fields[first...]; false when they are not.
bool parseVerdictFields(const std::vector<std::string>& fields, std::size_t first, LibraryVerdict& verdict);

}  // namespace interlink::detail
