#include "MeshProbe.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

namespace interlink::skel::detail {

std::optional<MeshInfo> probeMesh(const std::string& path, std::string& error) {
  Assimp::Importer importer;
  // DART drops points and lines and imports with these steps.
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene =
      importer.ReadFile(path, aiProcess_GenNormals | aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                  aiProcess_SortByPType | aiProcess_OptimizeMeshes);
  if (scene == nullptr) {
    error = importer.GetErrorString();
    return std::nullopt;
  }
  std::string extension = path.substr(path.find_last_of('.') + 1);
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // Assimp turns COLLADA's up axis into a root rotation; DART undoes it before pre-transforming.
  if ((extension == "dae" || extension == "zae") && scene->mRootNode != nullptr) {
    scene->mRootNode->mTransformation = aiMatrix4x4();
  }
  scene = importer.ApplyPostProcessing(aiProcess_PreTransformVertices);
  if (scene == nullptr) {
    error = importer.GetErrorString();
    return std::nullopt;
  }

  MeshInfo info;
  Vector3 low = Vector3::Constant(std::numeric_limits<double>::infinity());
  Vector3 high = -low;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* mesh = scene->mMeshes[m];
    info.vertexCount += mesh->mNumVertices;
    info.faceCount += mesh->mNumFaces;
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const Vector3 p(mesh->mVertices[v].x, mesh->mVertices[v].y, mesh->mVertices[v].z);
      low = low.cwiseMin(p);
      high = high.cwiseMax(p);
    }
  }
  if (info.vertexCount > 0) {
    info.boundsMin = low;
    info.boundsMax = high;
  }
  return info;
}

}  // namespace interlink::skel::detail
