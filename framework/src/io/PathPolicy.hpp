#pragma once
// The path policy of one load, in one place (docs/hostile-input.md). By default every path a file
// names is followed as its format says (`../meshes/x.stl`, `/usr/share/...`), as urdfdom,
// libsdformat, DART and MuJoCo do. A host that loads untrusted files confines the load to
// directory trees of its choice (LoadOptions::confineToRoots, the CLI's --confine): every file an
// include, a mesh or a plugin would open is asked about here first.
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

namespace interlink::detail {

class PathPolicy {
 public:
  /// Follows every path.
  PathPolicy() = default;
  /// Only files inside one of `rootDirectories` (compared canonically: symbolic links and `..`
  /// resolved, so neither leads out of a root).
  static PathPolicy confinedTo(const std::vector<std::string>& rootDirectories);

  bool confined() const { return confined_; }
  /// The canonical roots (empty when not confined).
  const std::vector<std::filesystem::path>& roots() const { return roots_; }

  /// Why `path` may not be opened in this load ("'/abs/path' is outside ..."), or "" when it may. A name the file
  /// system cannot resolve (a host parser's own name) is not refused: nothing is read from it.
  std::string refusal(const std::string& path) const;

 private:
  bool confined_ = false;
  std::vector<std::filesystem::path> roots_;
  std::string rootList_;  // "'/a', '/b'": the roots as refusals name them
  /// Verdicts by path as asked: a file named many times (the legs of a robot) is resolved once.
  mutable std::unordered_map<std::string, std::string> refusals_;
};

}  // namespace interlink::detail
