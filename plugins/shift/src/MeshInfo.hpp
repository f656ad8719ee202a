#pragma once
// Mesh measurements through Assimp, cached per resolved path for one load.
#include <map>
#include <optional>
#include <string>

#include "interlink/model/Geometry.hpp"

namespace interlink::shift::detail {

struct MeshReading {
  std::optional<MeshInfo> info;
  std::string error;  // Assimp's reason when the file could not be read
};

class MeshCache {
 public:
  /// Reads (once) the mesh at an existing absolute path and measures it.
  const MeshReading& read(const std::string& path);

 private:
  std::map<std::string, MeshReading> readings_;
};

}  // namespace interlink::shift::detail
