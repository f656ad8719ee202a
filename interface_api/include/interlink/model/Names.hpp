#pragma once
// Scoped names, in one place: the scope delimiter, joining and splitting, the reserved names and
// the checks of a name. A frame of a nested model is named "<model>::<frame>" from the root (as
// SDFormat 1.8 names them); every reader, the core and every writer builds and splits names here.
#include <string>
#include <string_view>

namespace interlink::names {

/// Separates the scopes of a name ("arm::forearm").
inline constexpr std::string_view kScopeDelimiter = "::";
/// The world frame, reserved in every scope.
inline constexpr std::string_view kWorld = "world";
/// The implicit frame of a model ("arm::__model__").
inline constexpr std::string_view kModelFrame = "__model__";

/// `scope` + "::" + `local`; `local` alone when `scope` is empty (the root scope).
inline std::string join(std::string_view scope, std::string_view local) {
  std::string out;
  out.reserve(scope.size() + kScopeDelimiter.size() + local.size());
  if (!scope.empty()) {
    out.append(scope);
    out.append(kScopeDelimiter);
  }
  out.append(local);
  return out;
}

/// The prefix of the names inside `scope`: "arm" -> "arm::".
inline std::string scopePrefix(std::string_view scope) {
  std::string out(scope);
  out.append(kScopeDelimiter);
  return out;
}

/// Whether `name` holds the scope delimiter.
inline bool containsDelimiter(std::string_view name) { return name.find(kScopeDelimiter) != std::string_view::npos; }

/// A scoped name cut at its last delimiter: "a::b::c" -> {"a::b", "c"}; {"", name} when unscoped.
struct SplitName {
  std::string_view scope;
  std::string_view local;
};
inline SplitName splitLast(std::string_view scoped) {
  const std::size_t at = scoped.rfind(kScopeDelimiter);
  if (at == std::string_view::npos) return {std::string_view(), scoped};
  return {scoped.substr(0, at), scoped.substr(at + kScopeDelimiter.size())};
}
/// The same cut at the first delimiter: "a::b::c" -> {"a", "b::c"}; {"", name} when unscoped.
inline SplitName splitFirst(std::string_view scoped) {
  const std::size_t at = scoped.find(kScopeDelimiter);
  if (at == std::string_view::npos) return {std::string_view(), scoped};
  return {scoped.substr(0, at), scoped.substr(at + kScopeDelimiter.size())};
}

/// The last part of a scoped name ("a::b::c" -> "c").
inline std::string_view localName(std::string_view scoped) { return splitLast(scoped).local; }

/// Every delimiter of `scoped` replaced by `with` (URDF writes "a::b" as "a__b").
inline std::string replaceDelimiters(std::string_view scoped, std::string_view with) {
  std::string out;
  out.reserve(scoped.size());
  std::size_t at = 0;
  while (true) {
    const std::size_t next = scoped.find(kScopeDelimiter, at);
    out.append(scoped.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
    if (next == std::string_view::npos) return out;
    out.append(with);
    at = next + kScopeDelimiter.size();
  }
}

/// Names no element may take: "world" and names starting and ending with "__" ("__model__"),
/// which SDFormat reserves for implicit frames.
inline bool isReserved(std::string_view name) {
  if (name == kWorld) return true;
  return name.size() >= 4 && name.compare(0, 2, "__") == 0 && name.compare(name.size() - 2, 2, "__") == 0;
}

/// What is wrong with `name` as the name of an element (the first problem found). Each caller says
/// it in its own words and error codes.
enum class NameProblem { None, Empty, Reserved, Delimiter };
inline NameProblem checkName(std::string_view name) {
  if (name.empty()) return NameProblem::Empty;
  if (isReserved(name)) return NameProblem::Reserved;
  if (containsDelimiter(name)) return NameProblem::Delimiter;
  return NameProblem::None;
}

/// Why a name is reserved, in the words of a message.
inline constexpr const char* kReservedRule = "'world' and names starting and ending with '__'";

}  // namespace interlink::names
