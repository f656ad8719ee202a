#pragma once
// UTF-8 for the readers: a byte-order mark at the start, checking a sequence (the text checks
// before parsing, the fast XML reader) and writing a code point (readers that decode escapes:
// JSON's \uXXXX, XML's character references) into the UTF-8 text every model string holds.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace interlink {

/// The length of the UTF-8 byte-order mark `text` starts with (3), or 0.
inline std::size_t byteOrderMarkLength(std::string_view text) { return text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0; }

/// The length (1-4) of the valid UTF-8 sequence at `p`, or 0: no overlong form, no surrogate, no
/// code point past U+10FFFF, no sequence cut short by `end`.
inline std::size_t validUtf8SequenceLength(const unsigned char* p, const unsigned char* end) {
  const unsigned char c = p[0];
  if (c < 0x80) return 1;
  auto continuation = [&](std::size_t i, unsigned char low = 0x80, unsigned char high = 0xBF) {
    return p + i < end && p[i] >= low && p[i] <= high;
  };
  if (c >= 0xC2 && c <= 0xDF) return continuation(1) ? 2 : 0;
  if (c == 0xE0) return continuation(1, 0xA0) && continuation(2) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return continuation(1) && continuation(2) ? 3 : 0;
  if (c == 0xED) return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : 0;
  if (c == 0xF0) return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return continuation(1) && continuation(2) && continuation(3) ? 4 : 0;
  if (c == 0xF4) return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : 0;
  return 0;
}

/// The length of the UTF-8 sequence at `p` (not ASCII) when it encodes a character XML allows: a
/// valid sequence other than U+FFFE and U+FFFF (EF BF BE, EF BF BF). Else 0.
inline std::size_t xmlCharacterLength(const unsigned char* p, const unsigned char* end) {
  const std::size_t length = validUtf8SequenceLength(p, end);
  if (length == 3 && p[0] == 0xEF && p[1] == 0xBF && p[2] >= 0xBE) return 0;
  return length;
}

/// Appends code point `code` (at most U+10FFFF; the caller has checked it) encoded in UTF-8.
inline void appendUtf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

}  // namespace interlink
