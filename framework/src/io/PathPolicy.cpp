#include "io/PathPolicy.hpp"

namespace interlink::detail {
namespace {

namespace fs = std::filesystem;

/// True when `path` is `root` or inside it (both canonical).
bool isWithin(const fs::path& path, const fs::path& root) {
  auto p = path.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++p) {
    if (p == path.end() || *p != *r) return false;
  }
  return true;
}

}  // namespace

PathPolicy PathPolicy::confinedTo(const std::vector<std::string>& rootDirectories) {
  PathPolicy policy;
  policy.confined_ = true;
  for (const std::string& directory : rootDirectories) {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(fs::absolute(directory, ec), ec);
    if (ec) continue;
    policy.roots_.push_back(canonical);
    policy.rootList_ += (policy.rootList_.empty() ? "'" : ", '") + canonical.string() + "'";
  }
  return policy;
}

std::string PathPolicy::refusal(const std::string& path) const {
  if (!confined_) return {};
  auto [known, inserted] = refusals_.try_emplace(path);
  if (!inserted) return known->second;
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) return {};
  for (const fs::path& root : roots_) {
    if (isWithin(canonical, root)) return {};
  }
  known->second = "'" + canonical.string() + "' is outside the directories this load is confined to (" +
                  (rootList_.empty() ? std::string("none") : rootList_) +
                  "; LoadOptions::confineToRoots)";
  return known->second;
}

}  // namespace interlink::detail
