#pragma once
// Where an element or a diagnostic comes from. Line and column are 1-based; 0 means unknown.
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

#include "interlink/CountedRef.hpp"

namespace interlink {

/// A file name shared by every location in that file: copying one is a reference-count increment,
/// not an allocation, which matters when each of a file's 100 000 elements remembers where it is.
/// Reads like a `const std::string`. One pointer wide (CountedRef), so a SourceLocation is 16
/// bytes, not the 24 it took with a std::shared_ptr, in every element, attribute and model record.
class FileName {
 public:
  FileName() = default;
  FileName(std::string name) : shared_(name.empty() ? nullptr : new Shared{{0}, std::move(name)}) {}
  FileName(const char* name) : FileName(std::string(name ? name : "")) {}

  const std::string& str() const { return shared_ ? shared_->name : empty_(); }
  operator const std::string&() const { return str(); }
  operator std::string_view() const { return str(); }
  bool empty() const { return !shared_ || shared_->name.empty(); }
  std::size_t size() const { return str().size(); }
  const char* c_str() const { return str().c_str(); }

  friend bool operator==(const FileName& a, const FileName& b) { return a.shared_ == b.shared_ || a.str() == b.str(); }
  friend bool operator!=(const FileName& a, const FileName& b) { return !(a == b); }
  friend bool operator==(const FileName& a, const std::string& b) { return a.str() == b; }
  friend bool operator!=(const FileName& a, const std::string& b) { return a.str() != b; }
  friend bool operator==(const std::string& a, const FileName& b) { return a == b.str(); }
  friend bool operator!=(const std::string& a, const FileName& b) { return a != b.str(); }
  friend bool operator==(const FileName& a, const char* b) { return a.str() == b; }
  friend bool operator!=(const FileName& a, const char* b) { return a.str() != b; }
  friend std::string operator+(const FileName& a, const std::string& b) { return a.str() + b; }
  friend std::string operator+(const std::string& a, const FileName& b) { return a + b.str(); }
  friend std::string operator+(const FileName& a, const char* b) { return a.str() + b; }
  friend std::string operator+(const char* a, const FileName& b) { return a + b.str(); }
  friend std::ostream& operator<<(std::ostream& out, const FileName& name) { return out << name.str(); }

 private:
  static const std::string& empty_() {
    static const std::string nothing;
    return nothing;
  }
  struct Shared {
    mutable ReferenceCount references;
    const std::string name;
  };
  CountedRef<const Shared> shared_;
};

struct SourceLocation {
  FileName file;
  int line = 0;
  int column = 0;

  bool known() const { return !file.empty() || line > 0; }
};

}  // namespace interlink
