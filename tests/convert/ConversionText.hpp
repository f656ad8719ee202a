#pragma once
// Comparing two converted files as text: what a second conversion of a converted file may change
// is only the last digit of a recomputed rotation (round-trip tests of convert).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace interlink::test {

/// Text after the first comment (which names the source file).
inline std::string withoutSourceComment(const std::string& text) {
  const std::size_t comment = text.find("<!--");
  if (comment == std::string::npos) return text;
  return text.substr(0, comment) + text.substr(text.find("-->", comment) + 3);
}

/// The texts' tokens (split at white space, quotes and markup) are equal, numbers to 1e-9
/// relative; the first five differences are reported.
inline void expectSameUpToRounding(const std::string& first, const std::string& second, const std::string& what) {
  const auto tokens = [](const std::string& text) {
    std::vector<std::string> out;
    std::string current;
    for (char c : withoutSourceComment(text)) {
      if (std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '<' || c == '>') {
        if (!current.empty()) out.push_back(current);
        current.clear();
      } else {
        current += c;
      }
    }
    if (!current.empty()) out.push_back(current);
    return out;
  };
  const std::vector<std::string> a = tokens(first), b = tokens(second);
  ASSERT_EQ(a.size(), b.size()) << what;
  std::size_t differences = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;
    char* endA = nullptr;
    char* endB = nullptr;
    const double x = std::strtod(a[i].c_str(), &endA), y = std::strtod(b[i].c_str(), &endB);
    const bool numbers = *endA == '\0' && *endB == '\0';
    if (numbers && std::abs(x - y) <= 1e-9 * std::max(1.0, std::abs(x))) continue;
    if (differences++ < 5) ADD_FAILURE() << what << ": '" << a[i] << "' became '" << b[i] << "' (token " << i << ")";
  }
}

}  // namespace interlink::test
