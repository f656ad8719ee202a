#include "check/WarningGroups.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace interlink::detail {
namespace {

/// What tells one kind of warning from another, and how a member of the kind is named: the
/// message without its structured subject (Diagnostic::subject), named by the subject. A warning
/// that carries no subject is grouped by its text with every quoted name emptied, named by the
/// first of them.
std::pair<std::string, std::string> kindOf(const Diagnostic& d) {
  if (!d.subject.empty()) {
    const std::size_t at = d.message.find(d.subject);
    const std::string name = d.subject.find('\'') == std::string::npos ? "'" + d.subject + "'" : d.subject;
    if (at == std::string::npos) return {d.message, name};
    return {d.message.substr(0, at) + '\0' + d.message.substr(at + d.subject.size()), name};
  }
  std::pair<std::string, std::string> out;
  std::size_t at = 0;
  while (at < d.message.size()) {
    const std::size_t open = d.message.find('\'', at);
    const std::size_t close = open == std::string::npos ? open : d.message.find('\'', open + 1);
    if (close == std::string::npos) {
      out.first.append(d.message, at, std::string::npos);
      break;
    }
    out.first.append(d.message, at, open + 1 - at);
    out.first += '\'';
    if (out.second.empty()) out.second = d.message.substr(open, close - open + 1);
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
                                            : kindOf(items[i]).first}];
    if (kind.members.empty()) kind.first = i;
    kind.members.push_back(i);
  }
  std::vector<bool> drop(items.size(), false);
  for (auto& [key, kind] : kinds) {
    if (kind.members.size() <= (saidOnce(key.first) ? 1 : keepUpTo)) continue;
    std::string examples;
    for (std::size_t k = 1; k < kind.members.size() && k < namedUpTo; ++k) {
      const Diagnostic& member = items[kind.members[k]];
      const std::size_t line = member.where.line;
      const std::string name = kindOf(member).second;
      examples += (examples.empty() ? "" : ", ") + (name.empty() ? std::string("?") : name) +
                  (line > 0 ? " (line " + std::to_string(line) + ")" : "");
    }
    const std::size_t rest = kind.members.size() - std::min(kind.members.size(), namedUpTo);
    const std::string others = rest > 0 ? " and " + std::to_string(rest) + " others" : "";
    items[kind.first].message += " [and " + std::to_string(kind.members.size() - 1) + " more like it" +
                                 (examples.empty() ? others : ": " + examples + others) + "]";
    items[kind.first].alike = kind.members.size() - 1;
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
