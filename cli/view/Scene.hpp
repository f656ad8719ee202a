#pragma once
// The scene `interlink view` draws, as JSON: the frames with the core's kinematic chain (so the
// page evaluates forward kinematics exactly as Kinematics::framePoses does), links with their
// visuals, collisions and inertia boxes, joints with limits, mimic and axes, the DOF order and
// the load's diagnostics, each element with the file and line it comes from.
#include <map>
#include <string>
#include <vector>

#include "interlink/Loader.hpp"

namespace interlink::cli::view {

/// Resolved paths of every mesh file the model's shapes use, each once, in document order.
std::vector<std::string> meshPaths(const LoadResult& loaded);

/// Every file the load read or names: the top-level file, included files, meshes, files the
/// diagnostics point at (the files live mode watches and may serve).
std::vector<std::string> modelFiles(const LoadResult& loaded, const std::string& topLevelFile);

/// The scene JSON. `meshOfPath` maps a resolved mesh path to its index among the page's mesh
/// blobs (a path missing from it is drawn as a placeholder); `extraDiagnostics` (mesh reading)
/// are listed after the load's.
std::string sceneJson(const LoadResult& loaded, const std::string& title, const std::map<std::string, int>& meshOfPath,
                      const Diagnostics& extraDiagnostics);

}  // namespace interlink::cli::view
