#pragma once
// The <asset> section of an MJCF file: meshes and heightfields (their files found, a mesh's data
// read only when a geom needs it, each file once per load), materials and textures by name, skins
// kept as data.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "MjcfAttributes.hpp"
#include "MjcfMesh.hpp"

namespace interlink::mjcf::detail {

struct MeshAsset {
  std::string name;
  std::string file;
  std::string resolved;                // empty when not found (reported) or inline
  Vector3 scale = Vector3::Ones();
  const xml::XmlElement* xml = nullptr;  // the <mesh>, for its compilation on demand
  std::string cls;
  bool compiled = false;               // compileMesh ran (once)
  bool usable = false;                 // its triangles loaded
  std::optional<MeshInertia> inertia;  // when the mesh compiled and can give a mass
  std::string problem;                 // else MuJoCo's reason, for the geoms that need its mass
  bool hull = true;                    // qhull builds the vertices' convex hull
  SourceLocation where;
};

class AssetReader : public AttributeReader {
 public:
  AssetReader(const std::string& path, const plugin::HostServices* host, MjcfModel& model, Diagnostics& diagnostics)
      : AttributeReader(model.compiler, diagnostics), path_(path), model_(model), meshReader_(host) {}

  void readAssets(const xml::XmlElement& asset);

  /// The mesh or heightfield asset `name`, or null.
  MeshAsset* findMesh(const std::string& name);
  const MeshAsset* findHfield(const std::string& name) const;
  /// The mesh with its data read and weighed (reading its file at most once per load).
  const MeshAsset& compiled(MeshAsset& mesh);
  bool hasMaterial(const std::string& name) const { return materials_.count(name) != 0; }

 protected:
  std::string path_;
  MjcfModel& model_;

 private:
  /// Keeps a <material>, <texture> or inline-data <mesh> for an MJCF writer: its class applied,
  /// its files as found.
  void keepAsset(const xml::XmlElement& asset);
  void compileMesh(MeshAsset& mesh);
  std::optional<MeshTriangles> meshFile(const std::string& resolved, const Vector3& scale, mesh::MeshError& error);

  std::map<std::string, MeshAsset> meshes_, hfields_;
  std::set<std::string> materials_, textures_;
  /// Each mesh file's triangles (unscaled) or the reason they could not be read, per load.
  std::map<std::string, std::pair<std::optional<MeshTriangles>, mesh::MeshError>> files_;
  mesh::MeshReader meshReader_;  // every mesh file through the framework's checks and limits
};

}  // namespace interlink::mjcf::detail
