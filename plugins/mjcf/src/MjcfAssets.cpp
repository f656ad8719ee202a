// The <asset> section (MjcfAssets.hpp). MuJoCo compiles every mesh asset when it loads a model;
// Interlink finds every mesh file at once but reads a mesh's data only when a geom needs it (a
// mass from the mesh, a convex hull for a colliding geom, a primitive fitted to it), and each file
// once per load however many assets name it (docs/mjcf.md).
#include "MjcfAssets.hpp"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <utility>

namespace interlink::mjcf::detail {

using xml::Attribute;
using xml::XmlElement;
namespace fs = std::filesystem;

void AssetReader::keepAsset(const XmlElement& asset) {
  XmlElement kept;
  kept.name = asset.name;
  kept.where = asset.where;
  for (const Attribute& a : asset.attributes) {
    if (a.name == "class") continue;
    kept.attributes.push_back(a);
    // A texture's files as found, so that a writer can name them from wherever it writes.
    if (asset.name == "texture" && a.name.rfind("file", 0) == 0) {
      const std::string& dir = compiler_.textureDir.empty() ? fs::path(path_).parent_path().string() : compiler_.textureDir;
      const fs::path file(a.value);
      kept.attributes.back().value = (file.is_absolute() ? file : fs::path(dir) / file).lexically_normal().string();
    }
  }
  if (asset.name == "material" || asset.name == "mesh") {
    // The class values, written explicitly: a writer writes no class for it.
    const Element e{asset, asset.name, className(asset, "main")};
    const std::vector<const char*> names =
        asset.name == "mesh" ? std::vector<const char*>{"scale", "refpos", "refquat", "smoothnormal"}
                             : std::vector<const char*>{"texture", "texrepeat", "texuniform", "emission", "specular",
                                                        "shininess", "reflectance", "rgba"};
    for (const auto& [name, value] : carried(e, names)) {
      if (!asset.attribute(name)) kept.attributes.push_back(Attribute{name, value, {}});
    }
  }
  model_.kept.push_back(KeptElement{"mujoco/asset/" + asset.name, kept.toXml(), asset.where});
}

void AssetReader::readAssets(const XmlElement& asset) {
  for (const XmlElement& c : asset.children) {
    if (c.name == "material" || c.name == "texture") {
      // Appearance: geoms keep their material's name; the name must exist (checked at the geom).
      const std::string name = c.attributeOr("name", "");
      if (!name.empty()) (c.name == "material" ? materials_ : textures_).insert(name);
      keepAsset(c);
      continue;
    }
    if (c.name == "skin") {
      // A skin deforms a mesh with the bodies it is bound to: appearance only, kept as data.
      if (const Attribute* file = c.attribute("file")) {
        const std::string& dir = compiler_.meshDir.empty() ? fs::path(path_).parent_path().string() : compiler_.meshDir;
        const fs::path resolved = fs::path(file->value).is_absolute() ? fs::path(file->value) : fs::path(dir) / file->value;
        std::error_code ec;
        if (!fs::is_regular_file(resolved, ec)) {
          diagnostics_.error(ErrorCode::URI_LOOKUP, "skin file '" + file->value + "' not found (looked for " +
                                                        resolved.lexically_normal().string() + ")", xml::attributeLocation(c, file));
        }
      }
      keep(model_.kept, "mujoco/asset/skin", c);
      continue;
    }
    if (c.name != "mesh" && c.name != "hfield") {
      keep(model_.kept, "mujoco/asset/" + c.name, c);  // <model> (3.x), checked by the schema
      continue;
    }
    const Element e{c, c.name, className(c, "main")};
    const Attribute* file = lookup(e, "file");
    std::string name = c.attributeOr("name", "");
    if (name.empty() && file) name = fs::path(file->value).stem().string();
    if (name.empty()) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<" + c.name + "> needs a 'name' or a 'file'", c.where);
      continue;
    }
    MeshAsset mesh;
    mesh.name = name;
    mesh.where = c.where;
    mesh.xml = &c;
    mesh.cls = e.cls;
    if (file) {
      mesh.file = file->value;
      const std::string& dir = compiler_.meshDir.empty() ? fs::path(path_).parent_path().string() : compiler_.meshDir;
      const fs::path resolved = fs::path(file->value).is_absolute() ? fs::path(file->value) : fs::path(dir) / file->value;
      std::error_code ec;
      if (fs::is_regular_file(resolved, ec)) {
        mesh.resolved = resolved.lexically_normal().string();
      } else {
        // MuJoCo compiles the asset, so a missing file refuses the model there too.
        diagnostics_.error(ErrorCode::URI_LOOKUP, c.name + " file '" + file->value + "' not found (looked for " +
                                                      resolved.lexically_normal().string() + ")", xml::attributeLocation(c, file));
      }
      // What can be known without reading the file is checked at once.
      std::string type = resolved.extension().string();
      for (char& ch : type) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (c.name == "mesh" && !mesh.resolved.empty() && type != ".stl" && type != ".obj" && type != ".msh") {
        diagnostics_.error(ErrorCode::FILE_READ, "mesh file '" + file->value + "': unknown mesh file type '" + type +
                                                     "' (MuJoCo reads STL, OBJ and MSH)", xml::attributeLocation(c, file));
        mesh.resolved.clear();
      }
      if (c.name == "mesh" && (lookup(e, "vertex") || lookup(e, "face"))) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, what(e) + " has both a file and inline vertex or face data", c.where);
      }
    }
    if (auto s = vector3(e, "scale")) mesh.scale = *s;
    auto& table = c.name == "mesh" ? meshes_ : hfields_;
    auto [at, added] = table.emplace(name, std::move(mesh));
    if (!added) {
      diagnostics_.error(ErrorCode::DUPLICATE_NAME, c.name + " asset '" + name + "' is defined twice", c.where);
    } else if (c.name == "mesh" && !file) {
      compiled(at->second);  // inline data costs no file read: checked at once, as MuJoCo does
      keepAsset(c);     // a mesh written in the file: MJCF output writes it back as read
    }
  }
}

MeshAsset* AssetReader::findMesh(const std::string& name) {
  auto found = meshes_.find(name);
  return found == meshes_.end() ? nullptr : &found->second;
}

const MeshAsset* AssetReader::findHfield(const std::string& name) const {
  auto found = hfields_.find(name);
  return found == hfields_.end() ? nullptr : &found->second;
}

const MeshAsset& AssetReader::compiled(MeshAsset& mesh) {
  if (!mesh.compiled) {
    mesh.compiled = true;
    compileMesh(mesh);
  }
  return mesh;
}

std::optional<MeshTriangles> AssetReader::meshFile(const std::string& resolved, const Vector3& scale, mesh::MeshError& error) {
  auto found = files_.find(resolved);
  if (found == files_.end()) {
    mesh::MeshError reason;
    auto triangles = readMeshFile(meshReader_, resolved, Vector3::Ones(), reason);
    found = files_.emplace(resolved, std::make_pair(std::move(triangles), std::move(reason))).first;
  }
  if (!found->second.first) {
    error = found->second.second;
    return std::nullopt;
  }
  MeshTriangles mesh = found->second.first.value();
  // A mirroring scale turns the faces over; MuJoCo swaps two corners to keep them outward.
  if (scale[0] * scale[1] * scale[2] < 0) {
    for (std::size_t f = 0; f + 2 < mesh.faces.size(); f += 3) std::swap(mesh.faces[f + 1], mesh.faces[f + 2]);
  }
  return mesh;
}

/// The mesh's triangles (file or inline vertex/face) must load, else MuJoCo refuses the model.
/// Whether the mesh can give a mass is only known, and only matters, when a geom takes its mass
/// from it.
void AssetReader::compileMesh(MeshAsset& mesh) {
  const Element e{*mesh.xml, "mesh", mesh.cls};
  std::optional<MeshTriangles> triangles;
  mesh::MeshError error;
  if (!mesh.resolved.empty()) {
    triangles = meshFile(mesh.resolved, mesh.scale, error);
    if (!triangles) {
      diagnostics_.error(error.code, "mesh file '" + mesh.file + "': " + error.message, xml::attributeLocation(e.xml, lookup(e, "file")));
      return;
    }
  } else if (!mesh.file.empty()) {
    return;  // not found: reported already
  }
  if (!triangles) {
    auto inlineValues = [&](const char* name, std::size_t least) -> std::optional<std::vector<double>> {
      auto values = numbers(e, name, {});
      if (values && (values->size() % 3 != 0 || values->size() < least)) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, std::string(name) + " of " + what(e) + " needs a multiple of 3 numbers" +
                                                             (least ? " (4 vertices at least)" : ""),
                           xml::attributeLocation(e.xml, lookup(e, name)));
        return std::nullopt;
      }
      return values;
    };
    const auto vertices = inlineValues("vertex", 12);
    const auto faces = inlineValues("face", 0);
    if (!vertices) {
      if (!lookup(e, "vertex")) diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, what(e) + " needs a 'file' or 'vertex'", e.xml.where);
      return;
    }
    triangles.emplace();
    for (double v : *vertices) triangles->vertices.push_back(static_cast<float>(v));
    const int count = static_cast<int>(vertices->size() / 3);
    const std::vector<double> noFaces;
    for (double f : faces ? *faces : noFaces) {
      if (f != std::floor(f) || f < 0 || f >= count) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "face of " + what(e) + " names a vertex that does not exist",
                           xml::attributeLocation(e.xml, lookup(e, "face")));
        return;
      }
      triangles->faces.push_back(static_cast<int>(f));
    }
  }
  // MuJoCo builds the hull for colliding geoms (checked at the geom) and for a mesh without faces.
  mesh.hull = convexHull(*triangles);
  if (!mesh.hull && triangles->faces.empty()) {
    diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                       what(e) + " has no faces and its vertices have no convex hull (qhull fails: flat or too few)",
                       e.xml.where);
    return;
  }
  mesh.usable = true;
  Vector3 refPos = vector3(e, "refpos").value_or(Vector3::Zero());
  Quaternion refQuat = Quaternion::Identity();
  if (auto q = numbers(e, "refquat", {4})) refQuat = Quaternion((*q)[0], (*q)[1], (*q)[2], (*q)[3]);
  const double density = number(Element{e.xml, "geom", e.cls}, "density").value_or(1000);
  mesh.inertia = meshInertia(std::move(*triangles), mesh.scale, refPos, refQuat, density, compiler_.exactMeshInertia,
                             mesh.problem);
}

}  // namespace interlink::mjcf::detail
