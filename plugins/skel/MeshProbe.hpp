#pragma once
// Measures a mesh file with Assimp the way DART 6.12's MeshShape imports it, so that vertex
// counts and bounds (and the bounding-box inertia DART derives from them) agree.
#include <optional>
#include <string>

#include "interlink/model/Geometry.hpp"

namespace interlink::skel::detail {

/// Vertex and face counts and the unscaled bounds of every mesh in the file after DART's import
/// steps; nothing (and `error` set) when Assimp cannot read it.
std::optional<MeshInfo> probeMesh(const std::string& path, std::string& error);

}  // namespace interlink::skel::detail
