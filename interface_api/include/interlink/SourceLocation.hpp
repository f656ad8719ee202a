#pragma once
// Where an element or a diagnostic comes from. Line and column are 1-based; 0 means unknown.
#include <atomic>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace interlink {

/// A file name shared by every location in that file: copying one is a reference-count increment,
/// not an allocation, which matters when each of a file's 100 000 elements remembers where it is.
/// Reads like a `const std::string`. One pointer wide (the count lives beside the name, where a
/// std::shared_ptr takes two), so a SourceLocation is 16 bytes instead of 24 in every element,
/// attribute and model record. The count is atomic: trees and models are shared across threads.
class FileName {
 public:
  FileName() = default;
  FileName(std::string name) : shared_(name.empty() ? nullptr : new Shared{{1}, std::move(name)}) {}
  FileName(const char* name) : FileName(std::string(name ? name : "")) {}
  FileName(const FileName& other) noexcept : shared_(other.shared_) {
    if (shared_) shared_->references.fetch_add(1, std::memory_order_relaxed);
  }
  FileName(FileName&& other) noexcept : shared_(other.shared_) { other.shared_ = nullptr; }
  FileName& operator=(FileName other) noexcept {
    std::swap(shared_, other.shared_);
    return *this;
  }
  ~FileName() {
    if (shared_ && shared_->references.fetch_sub(1, std::memory_order_acq_rel) == 1) delete shared_;
  }

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
    std::atomic<std::size_t> references;
    const std::string name;
  };
  Shared* shared_ = nullptr;
};

struct SourceLocation {
  FileName file;
  int line = 0;
  int column = 0;

  bool known() const { return !file.empty() || line > 0; }
};

}  // namespace interlink
