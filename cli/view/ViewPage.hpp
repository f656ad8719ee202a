#pragma once
// The page of `interlink view`: the scene, the meshes as glTF binary and the viewer (three.js and
// the project's viewer script, both compiled into the command) in one HTML document.
#include <map>
#include <string>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Loader.hpp"

namespace interlink::cli::view {

/// The model's meshes as glTF binaries, each distinct file content once.
struct MeshBlobs {
  std::vector<std::string> glb;
  std::map<std::string, int> indexOfPath;  // resolved path -> index into glb
  Diagnostics diagnostics;                 // meshes that could not be read
};

/// Reads every mesh once (files with the same content share one blob).
MeshBlobs readMeshes(const std::vector<std::string>& paths);

/// The scene of a load with its meshes (meshPaths + readMeshes + sceneJson).
struct ViewScene {
  std::string json;
  MeshBlobs meshes;
};
ViewScene buildViewScene(const LoadResult& loaded, const std::string& title);

/// A self-contained page: the scene and every mesh (deflated, base64) inside, no network access.
std::string selfContainedPage(const ViewScene& scene, const std::string& title);

/// The page of live mode: it fetches /scene.json and /mesh/N and follows /state.
std::string livePage(const std::string& title);

}  // namespace interlink::cli::view
