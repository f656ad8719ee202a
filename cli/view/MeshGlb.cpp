#include "view/MeshGlb.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cctype>

namespace interlink::cli::view {

namespace {

bool isCollada(const std::string& path) {
  std::string extension = path.substr(std::min(path.size(), path.rfind('.') == std::string::npos ? path.size() : path.rfind('.')));
  std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension == ".dae";
}

}  // namespace

std::optional<std::string> meshAsGlb(const std::string& path, std::string& error) {
  Assimp::Importer importer;
  // Lines and points are dropped (SortByPType + the removal flag): robots draw triangles.
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_LINE | aiPrimitiveType_POINT);
  const aiScene* scene = importer.ReadFile(
      path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals | aiProcess_SortByPType |
                aiProcess_PreTransformVertices | aiProcess_ValidateDataStructure);
  if (!scene || !scene->mRootNode || scene->mNumMeshes == 0) {
    error = scene ? std::string("no triangles") : std::string(importer.GetErrorString());
    return std::nullopt;
  }
  if (isCollada(path)) {
    // Assimp turns every COLLADA file Y up (its convention, applying <up_axis>); Gazebo and
    // libsdformat turn it Z up. A quarter turn about X (y -> z, z -> -y) takes one to the other:
    // a Y_UP file ends as Gazebo draws it and a Z_UP file as written.
    aiScene* editable = const_cast<aiScene*>(scene);  // owned by the importer, ours to change
    for (unsigned m = 0; m < editable->mNumMeshes; ++m) {
      aiMesh* mesh = editable->mMeshes[m];
      for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
        aiVector3D& p = mesh->mVertices[v];
        p = aiVector3D(p.x, -p.z, p.y);
        if (mesh->mNormals) {
          aiVector3D& n = mesh->mNormals[v];
          n = aiVector3D(n.x, -n.z, n.y);
        }
      }
    }
  }
  // Without a specular colour or glossiness the exporter writes plain metallic-roughness
  // materials (base colour = the file's diffuse colour), which every glTF viewer draws alike;
  // the specular-glossiness extension it writes otherwise washes colours out in three.js.
  for (unsigned m = 0; m < scene->mNumMaterials; ++m) {
    aiMaterial* material = scene->mMaterials[m];
    material->RemoveProperty(AI_MATKEY_COLOR_SPECULAR);
    material->RemoveProperty(AI_MATKEY_GLOSSINESS_FACTOR);
  }
  Assimp::Exporter exporter;
  const aiExportDataBlob* blob = exporter.ExportToBlob(scene, "glb2");
  if (!blob || !blob->data) {
    error = std::string("glTF export failed: ") + exporter.GetErrorString();
    return std::nullopt;
  }
  return std::string(static_cast<const char*>(blob->data), blob->size);
}

}  // namespace interlink::cli::view
