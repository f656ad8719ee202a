#include "MeshInfo.hpp"

#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <limits>

namespace interlink::shift::detail {
namespace {

struct Accumulator {
  std::size_t vertices = 0;
  std::size_t faces = 0;
  Vector3 lower = Vector3::Constant(std::numeric_limits<double>::infinity());
  Vector3 upper = Vector3::Constant(-std::numeric_limits<double>::infinity());
};

// Meshes are placed by the node hierarchy; bounds are taken in the file's root frame.
void visit(const aiScene& scene, const aiNode& node, const aiMatrix4x4& parent, Accumulator& out) {
  const aiMatrix4x4 transform = parent * node.mTransformation;
  for (unsigned i = 0; i < node.mNumMeshes; ++i) {
    const aiMesh* mesh = scene.mMeshes[node.mMeshes[i]];
    if (!mesh) continue;
    out.vertices += mesh->mNumVertices;
    out.faces += mesh->mNumFaces;
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const aiVector3D p = transform * mesh->mVertices[v];
      const Vector3 point(p.x, p.y, p.z);
      out.lower = out.lower.cwiseMin(point);
      out.upper = out.upper.cwiseMax(point);
    }
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c)
    if (node.mChildren[c]) visit(scene, *node.mChildren[c], transform, out);
}

}  // namespace

const MeshReading& MeshCache::read(const std::string& path) {
  auto found = readings_.find(path);
  if (found != readings_.end()) return found->second;
  MeshReading reading;
  Assimp::Importer importer;
  // Shared corners count once; polygons are counted as written (not triangulated).
  const aiScene* scene = importer.ReadFile(path, aiProcess_JoinIdenticalVertices);
  if (!scene || !scene->mRootNode) {
    reading.error = importer.GetErrorString();
    if (reading.error.empty()) reading.error = "Assimp returned no scene";
  } else {
    Accumulator sum;
    visit(*scene, *scene->mRootNode, aiMatrix4x4(), sum);
    MeshInfo info;
    info.vertexCount = sum.vertices;
    info.faceCount = sum.faces;
    if (sum.vertices > 0) {
      info.boundsMin = sum.lower;
      info.boundsMax = sum.upper;
    }
    reading.info = info;
  }
  return readings_.emplace(path, std::move(reading)).first->second;
}

}  // namespace interlink::shift::detail
