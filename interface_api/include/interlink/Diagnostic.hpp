#pragma once
// One finding about an input: returned by value, never thrown.
#include <cstddef>
#include <string>
#include <utility>

#include "interlink/ErrorCode.hpp"
#include "interlink/SourceLocation.hpp"

namespace interlink {

enum class Severity : int { Error = 0, Warning = 1, Note = 2 };

/// "error", "warning" or "note": the one spelling of a severity (text, JSON, SARIF, Python).
inline const char* severityName(Severity severity) {
  switch (severity) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      break;
  }
  return "note";
}

struct Diagnostic {
  Severity severity = Severity::Error;
  ErrorCode code = ErrorCode::NONE;
  std::string message;
  SourceLocation where;
  /// What the finding is about, by name (a mesh's URI, a link's name), when one thing is: repeated
  /// warnings of one code whose messages differ only by their subject are said once with a count
  /// (framework check/WarningGroups). Empty when the finding has no single subject.
  std::string subject;
  /// How many more warnings like this one it stands for (grouped by their subject); 0 when alone.
  std::size_t alike = 0;

  Diagnostic() = default;
  Diagnostic(Severity severity, ErrorCode code, std::string message, SourceLocation where = {}, std::string subject = {})
      : severity(severity), code(code), message(std::move(message)), where(std::move(where)), subject(std::move(subject)) {}

  bool isError() const { return severity == Severity::Error; }

  /// Compiler-style text: `file:line:col: error[CODE]: message`.
  std::string format() const {
    std::string out;
    if (!where.file.empty()) out += where.file + ":";
    if (where.line > 0) {
      out += std::to_string(where.line) + ":";
      if (where.column > 0) out += std::to_string(where.column) + ":";
    }
    if (!out.empty()) out += " ";
    out += severityName(severity);
    out += "[";
    out += codeName(code);
    out += "]: ";
    out += message;
    return out;
  }
};

inline Diagnostic makeError(ErrorCode code, std::string message, SourceLocation where = {}) {
  return Diagnostic{Severity::Error, code, std::move(message), std::move(where)};
}

inline Diagnostic makeWarning(ErrorCode code, std::string message, SourceLocation where = {}) {
  return Diagnostic{Severity::Warning, code, std::move(message), std::move(where)};
}

}  // namespace interlink
