#include "OutputStream.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace interlink::cli {

OutputStream& OutputStream::operator<<(std::string_view text) {
  while (!text.empty()) {
    if (used_ == kCapacity) flush();
    const std::size_t n = std::min(text.size(), kCapacity - used_);
    std::memcpy(buffer_ + used_, text.data(), n);
    used_ += n;
    text.remove_prefix(n);
  }
  return *this;
}

OutputStream& OutputStream::number(double value) {
  if (std::abs(value) < 1e-15) value = 0.0;  // also -0
  if (std::isnan(value)) return *this << "nan";
  if (std::isinf(value)) return *this << (value > 0 ? "inf" : "-inf");
  if (value == 0) return *this << '0';
  constexpr std::size_t kLongest = 32;  // "-2.2250738585072014e-308" is 24 characters
  if (kCapacity - used_ < kLongest) flush();
  // A whole number below 100 000 is its digits, which is also what the shortest round trip gives
  // (its fixed form is never longer than "1e+04", and ties go to the fixed form): written as an
  // integer, a tenth of the work. Many coordinates of model files are whole.
  if (std::abs(value) < 1e5) {
    const auto whole = static_cast<long>(value);
    if (static_cast<double>(whole) == value) {
      used_ = static_cast<std::size_t>(std::to_chars(buffer_ + used_, buffer_ + kCapacity, whole).ptr - buffer_);
      return *this;
    }
  }
  // std::to_chars without a format: the shortest text that reads back to the same double.
  const auto result = std::to_chars(buffer_ + used_, buffer_ + kCapacity, value);
  used_ = static_cast<std::size_t>(result.ptr - buffer_);
  return *this;
}

namespace {

/// The bytes a JSON string cannot hold as they are: control characters, '"' and '\\'.
struct JsonSpecial {
  bool of[256] = {};
  constexpr JsonSpecial() {
    for (int c = 0; c < 0x20; ++c) of[c] = true;
    of[static_cast<unsigned char>('"')] = true;
    of[static_cast<unsigned char>('\\')] = true;
  }
};
constexpr JsonSpecial kJsonSpecial;

}  // namespace

OutputStream& OutputStream::jsonString(std::string_view text) {
  *this << '"';
  std::size_t plain = 0;  // start of the run of characters written as they are
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // Names are plain: one table lookup per byte, the cases below only for the rare others.
    if (!kJsonSpecial.of[static_cast<unsigned char>(c)]) continue;
    const char* escape = nullptr;
    switch (c) {
      case '"': escape = "\\\""; break;
      case '\\': escape = "\\\\"; break;
      case '\n': escape = "\\n"; break;
      case '\t': escape = "\\t"; break;
      case '\r': escape = "\\r"; break;
      default: break;  // another control character: \u00XX below (the table lets no other byte here)
    }
    *this << text.substr(plain, i - plain);
    plain = i + 1;
    if (escape) {
      *this << escape;
    } else {
      char code[8];
      std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      *this << code;
    }
  }
  *this << text.substr(plain);
  return *this << '"';
}

void OutputStream::flush() {
  if (used_ == 0) return;
  std::fwrite(buffer_, 1, used_, stdout);
  used_ = 0;
}

}  // namespace interlink::cli
