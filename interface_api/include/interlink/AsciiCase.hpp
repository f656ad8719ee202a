#pragma once
// Comparing a word of a file with a keyword in any letter case ("True", "INF", "Infinity"), as
// format readers must, without making a lower-case copy of every value they try.
#include <cstddef>
#include <string_view>

namespace interlink {

/// True when `text` is `lowerWord` (written in lower-case ASCII) up to the case of ASCII letters.
constexpr bool equalsIgnoringAsciiCase(std::string_view text, std::string_view lowerWord) noexcept {
  if (text.size() != lowerWord.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != lowerWord[i]) return false;
  }
  return true;
}

}  // namespace interlink
