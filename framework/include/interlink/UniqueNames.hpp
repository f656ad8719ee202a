#pragma once
// A set of names that hands out unused ones for repeats: "base", then "base(1)", "base(2)", ...
// (the suffix shape is the format's). Each base remembers the next suffix to try, so n repeats of
// one name cost linear time, not the n^2 of probing "base(1)", "base(2)", ... from the start
// every time; the names handed out are the same either way (names are never removed).
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace interlink {

class UniqueNames {
 public:
  /// Suffixes are `open` + k + `close`, for k = `firstIndex`, `firstIndex` + 1, ...
  UniqueNames(std::string open, std::string close, int firstIndex)
      : open_(std::move(open)), close_(std::move(close)), firstIndex_(firstIndex) {}

  bool taken(const std::string& name) const { return names_.count(name) != 0; }
  /// Adds `name`; false when it was taken already.
  bool add(const std::string& name) { return names_.insert(name).second; }

  /// `base` when unused, else the first unused suffixed name; either way, now taken.
  std::string unique(const std::string& base) {
    if (add(base)) return base;
    auto [next, inserted] = nextIndex_.try_emplace(base, firstIndex_);
    while (true) {
      std::string candidate = base + open_ + std::to_string(next->second++) + close_;
      if (add(candidate)) return candidate;
    }
  }

 private:
  std::string open_;
  std::string close_;
  int firstIndex_;
  std::unordered_set<std::string> names_;
  std::unordered_map<std::string, int> nextIndex_;  // per repeated base: the next suffix to try
};

}  // namespace interlink
