#pragma once
// Every file a mesh opens, through one gate: the load's path policy, regular files only (a FIFO
// or device is refused without blocking), the size limit and the load's count of mesh files.
// Assimp reads through GuardedIOSystem, which asks this gate for each file it opens.
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "MeshFormat.hpp"
#include "MeshReader.hpp"

namespace Assimp {
class IOSystem;
}

namespace interlink::mesh::detail {

class MeshFileAccess {
 public:
  explicit MeshFileAccess(const plugin::HostServices* host);

  MeshBudget& budget() { return *budget_; }

  /// Why the load's path policy refuses `path`, or an empty string. The one place that asks the
  /// host (HostServices::checkPath), whatever the policy's default is.
  std::string pathRefusal(const std::string& path) const;

  /// The bytes of the regular file `path` after every check, or nothing with `error` set.
  std::optional<std::string> read(const std::string& path, MeshError& error);

  /// An Assimp IOSystem for decoding the mesh `mainFile` of `format`: it opens `mainFile` (already
  /// read: `mainBytes`) and,
  /// through read(), the parts the format may name (mayOpenAsPart); nothing else. The first
  /// refusal is kept in `refusal` so that the caller reports why, not Assimp's "file not found".
  std::unique_ptr<Assimp::IOSystem> ioSystemFor(const std::string& mainFile, std::shared_ptr<const std::string> mainBytes,
                                                MeshFormat format, MeshError& refusal);

 private:
  const plugin::HostServices* host_;
  MeshBudget ownBudget_;  // when the host keeps none
  MeshBudget* budget_;
  std::set<std::string> opened_;  // distinct files counted against MeshLimits::maxFiles
};

/// `text` made safe to quote in a diagnostic: printable ASCII kept, other bytes as \xNN, at most
/// 200 characters (Assimp's messages may quote what it read).
std::string quotable(const std::string& text);

}  // namespace interlink::mesh::detail
