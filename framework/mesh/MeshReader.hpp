#pragma once
// Mesh files for every format plugin, read one way (issue 29): every file a mesh opens (the mesh
// itself, an OBJ's mtllib, a glTF's buffers) goes through Interlink's own I/O, where it must be a
// regular file no larger than the limit, allowed by the load's path policy and within the load's
// count of mesh files; only the mesh formats the project supports are decoded (MeshFormat.hpp);
// counts a header claims are checked against the file's size before anything is allocated; the
// decoded size of a mesh and of the load is capped (MeshLimits); scene graphs deeper than the limit
// are refused before Assimp recurses into them, and Assimp runs on a thread of its own with a large
// stack. OBJ and binary STL are read by a small reader of this module, Assimp's results without
// Assimp's fixed cost per file. Each distinct file is decoded once per MeshReader (one plugin call);
// a measurement, once per process while the file's bytes stay the same (MeasureCache.hpp).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interlink/ErrorCode.hpp"
#include "interlink/model/Geometry.hpp"
#include "interlink/plugin/MeshBudget.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::mesh {

/// Why a mesh could not be read: FILE_READ (missing, not a regular file, too large, a format not
/// supported, malformed), PATH_OUTSIDE_ROOTS (the path policy), MESH_LIMIT (a MeshLimits bound).
/// The message never quotes bytes of the file.
struct MeshError {
  ErrorCode code = ErrorCode::NONE;
  std::string message;
};

/// Polygons as the file writes them (no welding, no triangulation): Assimp's import without
/// post-processing, one vertex per face corner, faces in file order. Points and lines are faces of
/// one and two corners.
struct MeshPolygons {
  std::vector<float> vertices;            // x, y, z per vertex
  std::vector<std::uint32_t> cornerCounts;  // corners of each face
  std::vector<std::uint32_t> corners;       // vertex indices, cornerCounts[f] for face f
  std::uint64_t decodedBytes() const {
    return 4 * (vertices.size() + cornerCounts.size() + corners.size());
  }
};

/// What a measurement (MeshInfo: vertex and face counts, bounds) is taken after.
enum class MeshMeasure {
  /// Shift: shared corners counted once (Assimp's JoinIdenticalVertices), polygons as written,
  /// vertices placed by the node hierarchy.
  JoinedVertices,
  /// DART 6.12's MeshShape import: normals, triangulation, joined vertices, points and lines
  /// dropped, meshes optimised and pre-transformed (COLLADA's up axis undone).
  AsDart,
};

class MeshReader {
 public:
  /// Limits, running totals and the path policy from the host of the plugin call (defaults and
  /// no path policy when the host offers none).
  explicit MeshReader(const plugin::HostServices* host);
  ~MeshReader();
  MeshReader(const MeshReader&) = delete;
  MeshReader& operator=(const MeshReader&) = delete;

  /// The bytes of a file a mesh asset names (MuJoCo's MSH), through the same checks.
  std::optional<std::string> readBytes(const std::string& path, MeshError& error);

  /// The polygons of an STL, OBJ, COLLADA, glTF or PLY file, read once per reader.
  std::shared_ptr<const MeshPolygons> polygons(const std::string& path, MeshError& error);

  /// Vertex and face counts and bounds (in the file's units) after the import steps of `how`.
  std::optional<MeshInfo> measure(const std::string& path, MeshMeasure how, MeshError& error);

  /// The mesh as one glTF binary (.glb) for drawing: triangles in metres, Z up as Gazebo and RViz
  /// draw it (COLLADA's <unit> applied, its <up_axis> ignored), node transforms baked into the
  /// vertices, materials as plain colours. Decoded by Assimp in its own process; not cached.
  std::optional<std::string> displayGlb(const std::string& path, MeshError& error);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace interlink::mesh
