#pragma once
// The list of findings a load produces. All errors are collected, not only the first.
#include <algorithm>
#include <vector>

#include "interlink/Diagnostic.hpp"

namespace interlink {

class Diagnostics {
 public:
  void add(Diagnostic d) { items_.push_back(std::move(d)); }
  void error(ErrorCode code, std::string message, SourceLocation where = {}) {
    items_.push_back(makeError(code, std::move(message), std::move(where)));
  }
  /// `subject`: what the warning is about, by name (Diagnostic::subject), for grouping repeats.
  void warning(ErrorCode code, std::string message, SourceLocation where = {}, std::string subject = {}) {
    items_.emplace_back(Severity::Warning, code, std::move(message), std::move(where), std::move(subject));
  }
  void append(const Diagnostics& other) {
    items_.insert(items_.end(), other.items_.begin(), other.items_.end());
  }

  bool hasErrors() const {
    return std::any_of(items_.begin(), items_.end(), [](const Diagnostic& d) { return d.isError(); });
  }
  std::size_t errorCount() const {
    return static_cast<std::size_t>(
        std::count_if(items_.begin(), items_.end(), [](const Diagnostic& d) { return d.isError(); }));
  }
  bool contains(ErrorCode code) const {
    return std::any_of(items_.begin(), items_.end(), [code](const Diagnostic& d) { return d.code == code; });
  }

  const std::vector<Diagnostic>& items() const { return items_; }
  std::vector<Diagnostic>& items() { return items_; }
  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace interlink
