#pragma once
// A shape. Every format maps onto these kinds; sizes are full extents for boxes.
#include <optional>
#include <string>
#include <vector>

#include "interlink/Pose.hpp"

namespace interlink {

enum class GeometryType {
  Empty,
  Box,        // size = full extents
  Sphere,     // radius
  Cylinder,   // radius, length (along z)
  Capsule,    // radius, length of the cylindrical part (along z)
  Ellipsoid,  // radii
  Cone,       // radius, length
  Pyramid,    // size
  Plane,      // normal, planeSize
  Mesh,       // meshUri, scale
  MultiSphere,
  Heightmap,
};

/// What a mesh loader measured of a mesh file (filled when the format plugin could read it).
struct MeshInfo {
  std::size_t vertexCount = 0;
  std::size_t faceCount = 0;
  Vector3 boundsMin = Vector3::Zero();
  Vector3 boundsMax = Vector3::Zero();
};

struct Sphere {
  double radius = 0;
  Vector3 center = Vector3::Zero();
};

struct Geometry {
  GeometryType type = GeometryType::Empty;
  Vector3 size = Vector3::Zero();
  double radius = 0;
  double length = 0;
  Vector3 radii = Vector3::Zero();
  Vector3 normal = Vector3::UnitZ();
  Eigen::Vector2d planeSize = Eigen::Vector2d::Zero();
  std::string meshUri;          // as written
  std::string meshResolvedPath; // absolute path when it was found on disk
  Vector3 scale = Vector3::Ones();
  std::optional<MeshInfo> mesh;
  std::vector<Sphere> spheres;  // MultiSphere
};

inline const char* geometryTypeName(GeometryType type) {
  switch (type) {
    case GeometryType::Empty: return "empty";
    case GeometryType::Box: return "box";
    case GeometryType::Sphere: return "sphere";
    case GeometryType::Cylinder: return "cylinder";
    case GeometryType::Capsule: return "capsule";
    case GeometryType::Ellipsoid: return "ellipsoid";
    case GeometryType::Cone: return "cone";
    case GeometryType::Pyramid: return "pyramid";
    case GeometryType::Plane: return "plane";
    case GeometryType::Mesh: return "mesh";
    case GeometryType::MultiSphere: return "multi_sphere";
    case GeometryType::Heightmap: return "heightmap";
  }
  return "unknown";
}

}  // namespace interlink
