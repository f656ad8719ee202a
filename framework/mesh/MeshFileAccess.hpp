#pragma once
// Every file a mesh opens, through one gate: the load's path policy, regular files only (a FIFO
// or device is refused without blocking), the size limit and the load's count of mesh files.
// Assimp (AssimpDecode.hpp) reads through it as a MeshPartSource: each file it opens asks this gate.
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "MeshFormat.hpp"
#include "MeshReader.hpp"

namespace interlink::mesh::detail {

/// The files a mesh decoder may read, each through the load's checks.
class MeshPartSource {
 public:
  /// The bytes of the regular file `path` after every check, or nothing with `error` set.
  virtual std::optional<std::string> read(const std::string& path, MeshError& error) = 0;
  virtual ~MeshPartSource() = default;
};

/// A source that lists the files read through it: in the decoder's child, so that the parent
/// counts them against its own budget afterwards; in the parent, so that a kept measurement
/// (MeasureCache.hpp) reads them again as the decode did.
class RecordingSource final : public MeshPartSource {
 public:
  explicit RecordingSource(MeshPartSource& inner) : inner_(inner) {}
  std::optional<std::string> read(const std::string& path, MeshError& error) override {
    auto bytes = inner_.read(path, error);
    if (bytes) paths.push_back(path);
    return bytes;
  }
  std::vector<std::string> paths;

 private:
  MeshPartSource& inner_;
};

class MeshFileAccess final : public MeshPartSource {
 public:
  explicit MeshFileAccess(const plugin::HostServices* host);

  MeshBudget& budget() { return *budget_; }

  /// Why the load's path policy refuses `path`, or an empty string. The one place that asks the
  /// host (HostServices::checkPath), whatever the policy's default is.
  std::string pathRefusal(const std::string& path) const;

  std::optional<std::string> read(const std::string& path, MeshError& error) override;

 private:
  const plugin::HostServices* host_;
  MeshBudget ownBudget_;  // when the host keeps none
  MeshBudget* budget_;
  std::set<std::string> opened_;  // distinct files counted against MeshLimits::maxFiles
};

}  // namespace interlink::mesh::detail
