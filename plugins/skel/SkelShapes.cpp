// The SKEL reader, shapes: visualization and collision shapes, their geometry and meshes, as
// DART 6.12 reads them.
#include "SkelDocumentReader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "MeshReader.hpp"
#include "ShapeInertia.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/UniqueNames.hpp"
#include "interlink/xml/XmlParser.hpp"
#include "interlink/xml/XmlValues.hpp"

namespace interlink::skel::detail {

std::optional<Shape> Reader::readShape(const XmlElement& element, const std::string& bodyName, bool visual,
                                       SkeletonRecord& model) {
  Shape shape;
  shape.where = element.where;
  shape.pose.where = element.where;
  Pose planeOffset = Pose::Identity();
  bool geometryRead = false;
  bool notCollidable = false;
  for (const auto& child : element.children) {
    if (child.name == "transformation") {
      if (const auto pose = transformation(child)) {
        shape.pose.pose = *pose;
        shape.pose.where = child.where;
      }
    } else if (child.name == "geometry") {
      geometryRead = readGeometry(child, shape.geometry, planeOffset);
    } else if (visual && child.name == "color") {
      const auto values = parseDoubles(child.text, child.where, "<color> (r g b or r g b a)", diagnostics_, {3, 4});
      if (values) {
        shape.color = Eigen::Vector4d((*values)[0], (*values)[1], (*values)[2], values->size() == 4 ? (*values)[3] : 1.0);
      }
    } else if (!visual && child.name == "collidable") {
      // Default true. A shape that does not collide is no collision shape (DART gives it no collision aspect).
      if (const auto collidable = boolean(child, "<collidable>")) notCollidable = !*collidable;
    } else {
      unsupported(model.kept, visual ? "skeleton/body/visualization_shape" : "skeleton/body/collision_shape", child);
    }
  }
  if (element.child("geometry") == nullptr) {
    error(ErrorCode::ELEMENT_MISSING, "<" + element.name + "> of body '" + bodyName + "' needs a <geometry>",
          element.where);
    return std::nullopt;
  }
  if (!geometryRead) return std::nullopt;
  if (notCollidable) {
    note(ErrorCode::NONE, "collision shape of body '" + bodyName + "' has <collidable> false; it is left out of the collisions",
         element.where);
    return std::nullopt;
  }
  shape.pose.pose = shape.pose.pose * planeOffset;
  return shape;
}

bool Reader::readGeometry(const XmlElement& geometryElement, Geometry& geometry, Pose& planeOffset) {
  // DART looks for the kinds in this order and takes the first it finds.
  static const std::array<const char*, 10> kinds{"sphere", "box",   "ellipsoid",    "cylinder", "capsule",
                                                 "cone",   "pyramid", "plane", "multi_sphere", "mesh"};
  const XmlElement* shapeElement = nullptr;
  for (const char* kind : kinds) {
    if ((shapeElement = geometryElement.child(kind)) != nullptr) break;
  }
  if (shapeElement == nullptr) {
    error(ErrorCode::ELEMENT_INVALID,
          "<geometry> needs one of sphere, box, ellipsoid, cylinder, capsule, cone, pyramid, plane, multi_sphere, "
          "mesh",
          geometryElement.where);
    return false;
  }
  for (const auto& other : geometryElement.children) {
    if (&other != shapeElement) {
      warning(ErrorCode::ELEMENT_UNSUPPORTED,
              "<" + other.name + "> in <geometry> is ignored: DART uses only <" + shapeElement->name + ">",
              other.where);
    }
  }
  const XmlElement& e = *shapeElement;
  const std::string& kind = e.name;
  auto positive = [&](const char* child, const char* what) -> std::optional<double> {
    const auto value = requiredNumber(e, child, what);
    if (value) requirePositive(*value, *e.child(child), std::string("<") + kind + "> " + child);
    return value;
  };
  // The document's defaults: <size> 1 1 1, cylinder radius 0.5 and height 1.
  auto positiveOr = [&](const char* child, const char* what, double fallback) -> std::optional<double> {
    if (e.child(child) == nullptr) return fallback;
    return positive(child, what);
  };
  auto positiveSize = [&]() -> std::optional<Vector3> {
    if (e.child("size") == nullptr) return Vector3::Ones();
    const auto size = requiredVector3(e, "size", "x y z");
    if (size) {
      for (int i = 0; i < 3; ++i) requirePositive((*size)[i], *e.child("size"), "<" + kind + "> size");
    }
    return size;
  };

  if (kind == "sphere") {
    geometry.type = GeometryType::Sphere;
    const auto radius = positive("radius", "radius");
    if (!radius) return false;
    geometry.radius = *radius;
  } else if (kind == "box") {
    geometry.type = GeometryType::Box;
    const auto size = positiveSize();
    if (!size) return false;
    geometry.size = *size;
  } else if (kind == "ellipsoid") {
    // DART 6.12's <size> holds the diameters.
    geometry.type = GeometryType::Ellipsoid;
    const auto size = positiveSize();
    if (!size) return false;
    geometry.size = *size;
    geometry.radii = *size / 2.0;
  } else if (kind == "cylinder" || kind == "capsule" || kind == "cone") {
    geometry.type = kind == "cylinder" ? GeometryType::Cylinder
                                       : (kind == "capsule" ? GeometryType::Capsule : GeometryType::Cone);
    const bool cylinder = kind == "cylinder";
    const auto radius = cylinder ? positiveOr("radius", "radius", 0.5) : positive("radius", "radius");
    // The document's hierarchy spells a collision cylinder's height <length>.
    const char* heightName = e.child("height") == nullptr && e.child("length") != nullptr ? "length" : "height";
    const auto height = cylinder ? positiveOr(heightName, "height along z", 1.0) : positive(heightName, "height along z");
    if (!radius || !height) return false;
    geometry.radius = *radius;
    geometry.length = *height;
  } else if (kind == "pyramid") {
    geometry.type = GeometryType::Pyramid;
    const auto width = positive("base_width", "base width along x");
    const auto depth = positive("base_depth", "base depth along y");
    const auto height = positive("height", "height along z");
    if (!width || !depth || !height) return false;
    geometry.size = Vector3(*width, *depth, *height);
  } else if (kind == "plane") {
    geometry.type = GeometryType::Plane;
    const auto normal = requiredVector3(e, "normal", "x y z");
    if (!normal) return false;
    if (normal->norm() == 0) {
      error(ErrorCode::VALUE_INVALID, "plane <normal> must not be the zero vector", e.child("normal")->where);
      return false;
    }
    geometry.normal = normal->normalized();
    // The core's plane passes through its shape frame: DART's offset moves the frame along the normal.
    double offset = 0;
    if (const XmlElement* offsetElement = e.child("offset")) {
      if (const auto value = number(*offsetElement, "plane <offset>")) offset = *value;
    } else if (const XmlElement* point = e.child("point")) {
      note(ErrorCode::ELEMENT_DEPRECATED, "plane <point> is deprecated since DART 4.3; use <offset>", point->where);
      if (const auto value = vector3(*point, "plane <point> (x y z)")) offset = geometry.normal.dot(*value);
    }
    planeOffset.translation() = geometry.normal * offset;
  } else if (kind == "multi_sphere") {
    geometry.type = GeometryType::MultiSphere;
    for (const XmlElement* sphereElement : e.childrenNamed("sphere")) {
      const auto radius = requiredNumber(*sphereElement, "radius", "radius");
      const auto position = requiredVector3(*sphereElement, "position", "x y z");
      if (!radius || !position) continue;
      requirePositive(*radius, *sphereElement->child("radius"), "multi_sphere sphere radius");
      geometry.spheres.push_back(Sphere{*radius, *position});
    }
    if (geometry.spheres.empty()) {
      error(ErrorCode::ELEMENT_MISSING, "<multi_sphere> needs at least one <sphere>", e.where);
      return false;
    }
  } else {
    readMesh(e, geometry);
  }
  return true;
}

void Reader::readMesh(const XmlElement& mesh, Geometry& geometry) {
  geometry.type = GeometryType::Mesh;
  const XmlElement* fileName = mesh.child("file_name");
  if (fileName == nullptr) {
    error(ErrorCode::ELEMENT_MISSING, "<mesh> needs a <file_name>", mesh.where);
    return;
  }
  geometry.meshUri = trim(fileName->text);
  if (const XmlElement* scale = mesh.child("scale")) {
    if (const auto value = vector3(*scale, "mesh <scale> (x y z)")) geometry.scale = *value;
  }

  // DART resolves the name relative to the .skel file.
  std::string resolved;
  std::string uri = geometry.meshUri;
  if (uri.rfind("file://", 0) == 0) uri = uri.substr(7);
  if (uri.find("://") == std::string::npos) {
    const std::filesystem::path candidate =
        std::filesystem::path(uri).is_absolute() ? std::filesystem::path(uri) : std::filesystem::path(baseDirectory_) / uri;
    std::error_code ignored;
    if (std::filesystem::is_regular_file(candidate, ignored)) resolved = candidate.lexically_normal().string();
  }
  if (resolved.empty() && host_ != nullptr && host_->resolveUri != nullptr) {
    resolved = host_->resolveUri(host_->context, geometry.meshUri, path_);
  }
  // A missing or refused mesh is reported by the core's mesh check (check/MeshCheck.cpp), as for
  // every format; a refused one is not opened here.
  if (resolved.empty()) return;
  geometry.meshResolvedPath = resolved;
  if (host_ != nullptr && host_->size >= sizeof(plugin::HostServices) && host_->checkPath != nullptr &&
      !host_->checkPath(host_->context, resolved).empty()) {
    return;
  }

  // Measured the way DART 6.12's MeshShape imports it, so that vertex counts and bounds (and the
  // bounding-box inertia DART derives from them) agree; each file once.
  mesh::MeshError problem;
  auto info = meshReader_.measure(resolved, mesh::MeshMeasure::AsDart, problem);
  if (!info) {
    // A warning: kinematics does not need the mesh (an inertia taken from it is an error there).
    warning(problem.code, "mesh '" + resolved + "' could not be read: " + problem.message, fileName->where);
    return;
  }
  geometry.mesh = info;
}

}  // namespace interlink::skel::detail
