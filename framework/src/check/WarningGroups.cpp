#include "check/WarningGroups.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace interlink::detail {
namespace {

/// The message with every quoted name emptied, and the names in order.
std::pair<std::string, std::vector<std::string>> splitQuotedNames(const std::string& message) {
  std::pair<std::string, std::vector<std::string>> out;
  std::size_t at = 0;
  while (at < message.size()) {
    const std::size_t open = message.find('\'', at);
    const std::size_t close = open == std::string::npos ? open : message.find('\'', open + 1);
    if (close == std::string::npos) {
      out.first.append(message, at, std::string::npos);
      break;
    }
    out.first.append(message, at, open + 1 - at);
    out.first += '\'';
    out.second.push_back(message.substr(open + 1, close - open - 1));
    at = close + 1;
  }
  return out;
}

/// Kinds said once per load however few they are.
bool saidOnce(ErrorCode code) { return code == ErrorCode::PATH_OUTSIDE_ROOTS; }

}  // namespace

void groupRepeatedWarnings(Diagnostics& diagnostics, std::size_t keepUpTo, std::size_t namedUpTo) {
  struct Kind {
    std::size_t first = 0;             // index of its first warning
    std::vector<std::size_t> members;  // indices, in order
  };
  std::map<std::pair<ErrorCode, std::string>, Kind> kinds;
  std::vector<Diagnostic>& items = diagnostics.items();
  for (std::size_t i = 0; i < items.size(); ++i) {
    const bool once = saidOnce(items[i].code);
    if (items[i].severity != Severity::Warning && !once) continue;
    // Refusals differ by what was refused ("include" or "mesh" and its name): one kind per severity.
    Kind& kind = kinds[{items[i].code, once ? std::string(1, static_cast<char>('0' + static_cast<int>(items[i].severity)))
                                            : splitQuotedNames(items[i].message).first}];
    if (kind.members.empty()) kind.first = i;
    kind.members.push_back(i);
  }
  std::vector<bool> drop(items.size(), false);
  for (auto& [key, kind] : kinds) {
    if (kind.members.size() <= (saidOnce(key.first) ? 1 : keepUpTo)) continue;
    std::string examples;
    for (std::size_t k = 1; k < kind.members.size() && k < namedUpTo; ++k) {
      const auto names = splitQuotedNames(items[kind.members[k]].message).second;
      const std::size_t line = items[kind.members[k]].where.line;
      examples += (examples.empty() ? "" : ", ") + (names.empty() ? std::string("?") : "'" + names.front() + "'") +
                  (line > 0 ? " (line " + std::to_string(line) + ")" : "");
    }
    const std::size_t rest = kind.members.size() - std::min(kind.members.size(), namedUpTo);
    const std::string others = rest > 0 ? " and " + std::to_string(rest) + " others" : "";
    items[kind.first].message += " [and " + std::to_string(kind.members.size() - 1) + " more like it" +
                                 (examples.empty() ? others : ": " + examples + others) + "; --verbose lists every one]";
    for (std::size_t k = 1; k < kind.members.size(); ++k) drop[kind.members[k]] = true;
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (drop[i]) continue;
    if (kept != i) items[kept] = std::move(items[i]);  // never onto itself: that empties it
    ++kept;
  }
  items.resize(kept);
}

}  // namespace interlink::detail
