#include "ShapeInertia.hpp"

#include <cmath>
#include <limits>

namespace interlink::skel::detail {
namespace {

constexpr double kPi = 3.14159265358979323846;

Matrix3 boxInertia(const Vector3& size, double mass) {
  const Vector3 s2 = size.cwiseProduct(size);
  return (mass / 12.0 * Vector3(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y())).asDiagonal();
}

Matrix3 capsuleInertia(double radius, double height, double mass) {
  // Cylinder plus two hemispherical caps of one density, each cap's centroid moved to its place.
  const double r2 = radius * radius;
  const double h2 = height * height;
  const double cylinderVolume = kPi * r2 * height;
  const double sphereVolume = 4.0 / 3.0 * kPi * r2 * radius;
  const double density = mass / (cylinderVolume + sphereVolume);
  const double cylinderMass = density * cylinderVolume;
  const double capsMass = density * sphereVolume;
  const double lateral =
      cylinderMass * (h2 / 12.0 + r2 / 4.0) + capsMass * (h2 / 4.0 + 3.0 / 8.0 * height * radius + 2.0 / 5.0 * r2);
  const double axial = cylinderMass * r2 / 2.0 + capsMass * 2.0 / 5.0 * r2;
  return Vector3(lateral, lateral, axial).asDiagonal();
}

}  // namespace

std::optional<Matrix3> dartShapeInertia(const Geometry& geometry, double mass) {
  switch (geometry.type) {
    case GeometryType::Box:
      return boxInertia(geometry.size, mass);
    case GeometryType::Sphere:
      return Matrix3(Matrix3::Identity() * (2.0 / 5.0 * mass * geometry.radius * geometry.radius));
    case GeometryType::Ellipsoid: {
      const Vector3 r2 = geometry.radii.cwiseProduct(geometry.radii);
      return Matrix3((mass / 5.0 * Vector3(r2.y() + r2.z(), r2.x() + r2.z(), r2.x() + r2.y())).asDiagonal());
    }
    case GeometryType::Cylinder: {
      const double r2 = geometry.radius * geometry.radius;
      const double lateral = mass * (3.0 * r2 + geometry.length * geometry.length) / 12.0;
      return Matrix3(Vector3(lateral, lateral, mass * r2 / 2.0).asDiagonal());
    }
    case GeometryType::Capsule:
      return capsuleInertia(geometry.radius, geometry.length, mass);
    case GeometryType::Cone: {
      // DART 6.12 takes the lateral moment about a diameter of the base (3/20 r^2 + h^2/10), not
      // about the centroid (3/20 r^2 + 3/80 h^2), although the shape is centred; kept for parity.
      const double r2 = geometry.radius * geometry.radius;
      const double lateral = mass * (3.0 / 20.0 * r2 + geometry.length * geometry.length / 10.0);
      return Matrix3(Vector3(lateral, lateral, 3.0 / 10.0 * mass * r2).asDiagonal());
    }
    case GeometryType::Pyramid: {
      // Solid rectangular pyramid about its centroid.
      const double w2 = geometry.size.x() * geometry.size.x();
      const double d2 = geometry.size.y() * geometry.size.y();
      const double h2 = geometry.size.z() * geometry.size.z();
      return Matrix3(Vector3(mass * (d2 / 20.0 + 3.0 / 80.0 * h2), mass * (w2 / 20.0 + 3.0 / 80.0 * h2),
                             mass * (w2 + d2) / 20.0)
                         .asDiagonal());
    }
    case GeometryType::Plane:
      return Matrix3(Matrix3::Zero());
    case GeometryType::MultiSphere: {
      if (geometry.spheres.empty()) return Matrix3(Matrix3::Zero());
      Vector3 low = Vector3::Constant(std::numeric_limits<double>::infinity());
      Vector3 high = -low;
      for (const auto& sphere : geometry.spheres) {
        low = low.cwiseMin(sphere.center - Vector3::Constant(sphere.radius));
        high = high.cwiseMax(sphere.center + Vector3::Constant(sphere.radius));
      }
      return boxInertia(high - low, mass);
    }
    case GeometryType::Mesh: {
      if (!geometry.mesh) return std::nullopt;
      const Vector3 a = geometry.mesh->boundsMin.cwiseProduct(geometry.scale);
      const Vector3 b = geometry.mesh->boundsMax.cwiseProduct(geometry.scale);
      return boxInertia((b - a).cwiseAbs(), mass);
    }
    case GeometryType::Empty:
    case GeometryType::Heightmap:
      break;
  }
  return std::nullopt;
}

}  // namespace interlink::skel::detail
