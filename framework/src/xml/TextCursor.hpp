#pragma once
// Line and column of a byte of UTF-8 text, counted in UTF-16 units as libsdformat does, for diagnostics
// found before or beside the XML parser.
#include <cstddef>
#include <string>
#include <string_view>

#include "interlink/Utf8.hpp"

namespace interlink::xml::detail {

inline bool isUtf8Continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

inline bool isAllSpace(std::string_view text) {
  for (char c : text) {
    if (!isSpace(c)) return false;
  }
  return true;
}

/// Text between child elements is layout, not content: white space only is dropped, its memory
/// too (both readers build the same tree with this).
inline void dropLayoutText(std::string& text) {
  if (!isAllSpace(text)) return;
  if (text.capacity() > std::string().capacity()) {
    std::string().swap(text);
  } else {
    text.clear();
  }
}

/// How many more bytes than columns (UTF-16 units) a UTF-8 byte adds:
/// +1 for a continuation byte, -1 for the lead of a 4-byte sequence (two UTF-16 units).
inline int extraBytesOf(unsigned char c) { return c < 0xC0 ? 1 : (c >= 0xF0 ? -1 : 0); }

/// Columns count UTF-16 units (as libsdformat does), so two for a 4-byte UTF-8 sequence.
inline int columnsOfUtf8Lead(unsigned char c) { return c >= 0xF0 ? 2 : 1; }

/// Line and column of every byte in [from, to) as the scan moves forward.
struct Cursor {
  int line = 1;
  int column = 1;

  void advance(std::string_view content, std::size_t& offset) {
    const char c = content[offset];
    if (c == '\n' || c == '\r') {
      ++offset;
      if (c == '\r' && offset < content.size() && content[offset] == '\n') ++offset;
      ++line;
      column = 1;
      return;
    }
    column += columnsOfUtf8Lead(static_cast<unsigned char>(c));
    ++offset;
    while (offset < content.size() && isUtf8Continuation(static_cast<unsigned char>(content[offset]))) ++offset;
  }
};

}  // namespace interlink::xml::detail
