#include "MeshInfo.hpp"

namespace interlink::shift::detail {

const MeshReading& MeshCache::read(const std::string& path) {
  auto found = readings_.find(path);
  if (found != readings_.end()) return found->second;
  MeshReading reading;
  mesh::MeshError error;
  // Shared corners count once; polygons as written; bounds in the file's root frame.
  reading.info = reader_.measure(path, mesh::MeshMeasure::JoinedVertices, error);
  reading.error = error.message;
  reading.code = error.code;
  return readings_.emplace(path, std::move(reading)).first->second;
}

}  // namespace interlink::shift::detail
