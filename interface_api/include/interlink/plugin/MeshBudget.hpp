#pragma once
// Limits on the mesh files of one load (LoadOptions::meshLimits) and what the load has spent of
// them so far. The core keeps one MeshBudget per load and hands it to every plugin call
// (HostServices::meshBudget), so that the limits hold for the load as a whole, whichever plugins
// read its meshes (docs/hostile-input.md).
#include <cstdint>

namespace interlink {

struct MeshLimits {
  /// The most files meshes may open in one load: mesh files and the files they name (an OBJ's
  /// mtllib, a glTF's buffers). Each distinct file counts once.
  std::uint64_t maxFiles = 10000;
  /// The largest mesh file, or file a mesh names, read.
  std::uint64_t maxFileBytes = std::uint64_t{256} << 20;
  /// The most memory the vertices and faces decoded from one mesh file may take.
  std::uint64_t maxDecodedBytesPerMesh = std::uint64_t{256} << 20;
  /// The same, all mesh files of one load together (each distinct file counted once).
  std::uint64_t maxDecodedBytesPerLoad = std::uint64_t{1} << 30;
  /// The deepest nesting a scene-graph mesh file (COLLADA, glTF) may have: elements, JSON values
  /// and node chains. Deeper files are refused before any decoder recurses into them.
  std::uint32_t maxNodeDepth = 1000;
};

/// One load's limits and running totals.
struct MeshBudget {
  MeshLimits limits;
  std::uint64_t filesOpened = 0;
  std::uint64_t decodedBytes = 0;
};

}  // namespace interlink
