#pragma once
// A mesh file as glTF binary for the page: the one place `interlink view` uses Assimp (to move
// onto the framework's mesh module once it exists).
#include <optional>
#include <string>

namespace interlink::cli::view {

/// Reads the mesh at `path` (STL, COLLADA, OBJ, ... whatever Assimp reads) and writes it as one
/// glTF binary (.glb) in metres, Z up, as Gazebo and RViz draw it: COLLADA's <unit> is applied
/// and its <up_axis> ignored (gz-common's ColladaLoader does not turn meshes). Node transforms are
/// baked into the vertices. On failure returns nothing and says why in `error`.
std::optional<std::string> meshAsGlb(const std::string& path, std::string& error);

}  // namespace interlink::cli::view
