#include "view/MeshGlb.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <string>
#include <utility>
#include <vector>

namespace interlink::cli::view {

std::optional<std::string> meshAsGlb(const std::string& path, std::string& error) {
  Assimp::Importer importer;
  // Lines and points are dropped (SortByPType + the removal flag): robots draw triangles.
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_LINE | aiPrimitiveType_POINT);
  // COLLADA as Gazebo (gz-common's ColladaLoader) and RViz draw it: <unit meter> applied,
  // <up_axis> ignored (the coordinates are the robot's, Z up, whatever the file declares).
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  const aiScene* scene = importer.ReadFile(
      path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals | aiProcess_SortByPType |
                aiProcess_PreTransformVertices | aiProcess_ValidateDataStructure);
  if (!scene || !scene->mRootNode || scene->mNumMeshes == 0) {
    error = scene ? std::string("no triangles") : std::string(importer.GetErrorString());
    return std::nullopt;
  }
  // Without a specular colour or glossiness the exporter writes plain metallic-roughness
  // materials (base colour = the file's diffuse colour), which every glTF viewer draws alike;
  // the specular-glossiness extension it writes otherwise washes colours out in three.js.
  for (unsigned m = 0; m < scene->mNumMaterials; ++m) {
    aiMaterial* material = scene->mMaterials[m];
    material->RemoveProperty(AI_MATKEY_COLOR_SPECULAR);
    material->RemoveProperty(AI_MATKEY_GLOSSINESS_FACTOR);
    // Textures are files beside the mesh that the exporter would only name; the page loads
    // nothing from outside itself, so meshes are drawn in their materials' colours.
    std::vector<std::pair<std::string, std::pair<unsigned, unsigned>>> textures;
    for (unsigned p = 0; p < material->mNumProperties; ++p) {
      const aiMaterialProperty* property = material->mProperties[p];
      if (std::string(property->mKey.C_Str()).rfind("$tex.", 0) == 0) {
        textures.push_back({property->mKey.C_Str(), {property->mSemantic, property->mIndex}});
      }
    }
    for (const auto& [key, where] : textures) material->RemoveProperty(key.c_str(), where.first, where.second);
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
