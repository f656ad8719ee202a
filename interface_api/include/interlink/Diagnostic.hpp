#pragma once
// One finding about an input: returned by value, never thrown.
#include <string>
#include <utility>

#include "interlink/ErrorCode.hpp"
#include "interlink/SourceLocation.hpp"

namespace interlink {

enum class Severity : int { Error = 0, Warning = 1, Note = 2 };

struct Diagnostic {
  Severity severity = Severity::Error;
  ErrorCode code = ErrorCode::NONE;
  std::string message;
  SourceLocation where;

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
    out += severity == Severity::Error ? "error" : severity == Severity::Warning ? "warning" : "note";
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
