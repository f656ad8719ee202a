#pragma once
// Assimp behind the module's gate: files only through MeshFileAccess, and every call into Assimp
// (import, post-processing, walking and freeing its scene, all recursive per node) on a thread
// of its own whose large stack the node-depth limit of MeshPrecheck keeps far from full.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "MeshFileAccess.hpp"

namespace interlink::mesh::detail {

/// Polygons as Assimp imports the file without post-processing, meshes in scene order.
std::optional<MeshPolygons> assimpPolygons(MeshFileAccess& access, const std::string& path, MeshFormat format,
                                           std::shared_ptr<const std::string> bytes, std::uint64_t maxDecodedBytes,
                                           MeshError& error);

/// Counts and bounds after the import steps of `how`; `decodedBytes` is what the import took.
std::optional<MeshInfo> assimpMeasure(MeshFileAccess& access, const std::string& path, MeshFormat format,
                                      std::shared_ptr<const std::string> bytes, MeshMeasure how,
                                      std::uint64_t maxDecodedBytes, std::uint64_t& decodedBytes, MeshError& error);

}  // namespace interlink::mesh::detail
