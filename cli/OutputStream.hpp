#pragma once
// The standard output of the listing commands, written through one fixed buffer: numbers are
// formatted in place (std::to_chars, shortest round-trip text) and the text goes out in 64 KB
// writes as it is made, so a listing of 50 000 frames never exists whole in memory (issue 31:
// the string stream and its copy were a third of the peak memory of `frames --json`).
#include <cstddef>
#include <string_view>

namespace interlink::cli {

class OutputStream {
 public:
  OutputStream() = default;
  ~OutputStream() { flush(); }
  OutputStream(const OutputStream&) = delete;
  OutputStream& operator=(const OutputStream&) = delete;

  OutputStream& operator<<(std::string_view text);
  OutputStream& operator<<(char c) {
    if (used_ == kCapacity) flush();
    buffer_[used_++] = c;
    return *this;
  }
  /// Clean output: the shortest text that reads back to the same double, and -0 / 1e-17 noise as
  /// 0 (as formatNumber and the writers print numbers); nan and inf as written by formatNumber.
  OutputStream& number(double value);
  /// A JSON string literal, escaped as convert::jsonQuoted escapes it.
  OutputStream& jsonString(std::string_view text);
  /// Hands what is buffered to stdout (the C stream std::cout is synchronised with).
  void flush();

 private:
  static constexpr std::size_t kCapacity = std::size_t{64} << 10;
  char buffer_[kCapacity];
  std::size_t used_ = 0;
};

}  // namespace interlink::cli
