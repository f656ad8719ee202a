#pragma once
// Mesh measurements through the framework's mesh reader (its file checks and limits), cached per
// resolved path for one load.
#include <map>
#include <optional>
#include <string>

#include "MeshReader.hpp"
#include "interlink/model/Geometry.hpp"

namespace interlink::shift::detail {

struct MeshReading {
  std::optional<MeshInfo> info;
  std::string error;  // why the file could not be read
  ErrorCode code = ErrorCode::NONE;
};

class MeshCache {
 public:
  explicit MeshCache(const plugin::HostServices* host) : reader_(host) {}
  /// Reads (once) the mesh at an existing absolute path and measures it.
  const MeshReading& read(const std::string& path);

 private:
  mesh::MeshReader reader_;
  std::map<std::string, MeshReading> readings_;
};

}  // namespace interlink::shift::detail
