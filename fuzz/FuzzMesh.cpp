// libFuzzer harness for mesh files through the framework's mesh reader (framework/mesh, issue 29):
// the first byte picks the format (STL, OBJ, COLLADA, glTF, GLB, PLY), the rest is the file,
// written to a scratch directory and read as every plugin reads meshes: polygons (MJCF), both
// measurements (Shift, SKEL) and the glTF binary `interlink view` draws, under small limits so
// that the limits themselves are reached.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "FuzzScratch.hpp"
#include "MeshReader.hpp"

namespace {

const std::string& scratchDirectory() {
  static const std::string directory = interlink::fuzz::makeScratchDirectory("mesh");
  return directory;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  static const char* const extensions[] = {".stl", ".obj", ".dae", ".gltf", ".glb", ".ply"};
  const std::string path = scratchDirectory() + "/input" + extensions[data[0] % 6];
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  interlink::MeshBudget budget;
  budget.limits.maxDecodedBytesPerMesh = 16u << 20;
  budget.limits.maxDecodedBytesPerLoad = 32u << 20;
  budget.limits.maxNodeDepth = 200;
  interlink::plugin::HostServices host;
  host.meshBudget = &budget;
  interlink::mesh::MeshReader reader(&host);
  interlink::mesh::MeshError error;
  (void)reader.polygons(path, error);
  (void)reader.measure(path, interlink::mesh::MeshMeasure::JoinedVertices, error);
  (void)reader.measure(path, interlink::mesh::MeshMeasure::AsDart, error);
  (void)reader.displayGlb(path, error);
  return 0;
}
