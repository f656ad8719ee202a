#include "interlink/SimilarNames.hpp"

#include <algorithm>
#include <cctype>
#include <utility>
#include "interlink/model/Names.hpp"

namespace interlink {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

/// Optimal string alignment distance (Levenshtein with adjacent transpositions), ignoring case;
/// gives up past `limit` (returns limit + 1).
std::size_t editDistance(const std::string& a, const std::string& b, std::size_t limit) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  if ((n > m ? n - m : m - n) > limit) return limit + 1;
  std::vector<std::size_t> before(m + 1), previous(m + 1), current(m + 1);
  for (std::size_t j = 0; j <= m; ++j) previous[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    current[0] = i;
    std::size_t rowMinimum = current[0];
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1])) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
      rowMinimum = std::min(rowMinimum, current[j]);
    }
    if (rowMinimum > limit) return limit + 1;
    before.swap(previous);
    previous.swap(current);
  }
  return previous[m];
}

}  // namespace

std::vector<std::string> similarNames(const std::string& written, const std::vector<std::string>& candidates,
                                      std::size_t most) {
  std::vector<std::pair<std::size_t, const std::string*>> close;
  for (const std::string& candidate : candidates) {
    if (candidate == written) continue;
    if (names::containsDelimiter(candidate) && names::localName(candidate) == written) {
      close.emplace_back(0, &candidate);  // the name of a frame in a nested scope, without its scope
      continue;
    }
    const std::size_t limit = std::max<std::size_t>(1, std::max(written.size(), candidate.size()) / 3);
    const std::size_t distance = editDistance(written, candidate, limit);
    if (distance <= limit) close.emplace_back(distance, &candidate);
  }
  std::stable_sort(close.begin(), close.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (const auto& entry : close) {
    if (names.size() == most) break;
    if (std::find(names.begin(), names.end(), *entry.second) == names.end()) names.push_back(*entry.second);
  }
  return names;
}

std::string didYouMean(const std::string& written, const std::vector<std::string>& candidates) {
  const std::vector<std::string> names = similarNames(written, candidates);
  if (names.empty()) return {};
  std::string text = "; did you mean ";
  for (std::size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + ("'" + names[i] + "'");
  }
  return text + "?";
}

}  // namespace interlink
