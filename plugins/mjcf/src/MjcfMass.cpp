#include "MjcfMass.hpp"

#include "MjcfMesh.hpp"

namespace interlink::mjcf {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMinValue = 1e-15;  // MuJoCo's mjMINVAL

}  // namespace

/// Volume and principal moments (in the geom frame) of a primitive geom of `mass`, by MuJoCo
/// 2.2.2's formulas (mjCGeom::GetVolume, SetInertia). Nothing for shapes without volume.
double geomVolume(const GeomRecord& g) {
  const Vector3& s = g.size;
  if (g.typeName == "sphere") return 4 * kPi * s[0] * s[0] * s[0] / 3;
  if (g.typeName == "capsule") return kPi * (s[0] * s[0] * 2 * s[1] + 4 * s[0] * s[0] * s[0] / 3);
  if (g.typeName == "cylinder") return kPi * s[0] * s[0] * 2 * s[1];
  if (g.typeName == "ellipsoid") return 4 * kPi * s[0] * s[1] * s[2] / 3;
  if (g.typeName == "box") return 8 * s[0] * s[1] * s[2];
  if (g.meshInertia) return g.meshInertia->volume;
  return 0;
}

Vector3 geomMoments(const GeomRecord& g, double mass) {
  const Vector3& s = g.size;
  if (g.typeName == "sphere") return Vector3::Constant(2 * mass * s[0] * s[0] / 5);
  if (g.typeName == "capsule") {
    const double height = 2 * s[1], radius = s[0];
    const double sphereMass = mass * 4 * radius / (4 * radius + 3 * height);
    const double cylinderMass = mass - sphereMass;
    const double sphereInertia = 2 * sphereMass * radius * radius / 5;
    const double across = cylinderMass * (3 * radius * radius + height * height) / 12 + sphereInertia +
                          sphereMass * height * (3 * radius + 2 * height) / 8;
    return Vector3(across, across, cylinderMass * radius * radius / 2 + sphereInertia);
  }
  if (g.typeName == "cylinder") {
    const double height = 2 * s[1];
    const double across = mass * (3 * s[0] * s[0] + height * height) / 12;
    return Vector3(across, across, mass * s[0] * s[0] / 2);
  }
  if (g.typeName == "ellipsoid") {
    return Vector3(mass * (s[1] * s[1] + s[2] * s[2]) / 5, mass * (s[0] * s[0] + s[2] * s[2]) / 5,
                   mass * (s[0] * s[0] + s[1] * s[1]) / 5);
  }
  if (g.typeName == "box" || g.meshInertia) {
    const Vector3& b = g.meshInertia ? g.meshInertia->box : s;
    return Vector3(mass * (b[1] * b[1] + b[2] * b[2]) / 3, mass * (b[0] * b[0] + b[2] * b[2]) / 3,
                   mass * (b[0] * b[0] + b[1] * b[1]) / 3);
  }
  return Vector3::Zero();
}

std::optional<MassProperties> geomFrame(const std::vector<GeomRecord>& geoms, const Compiler& compiler) {
  MassProperties result;
  struct Part {
    double mass;
    Pose pose;
    Vector3 moments;
  };
  std::vector<Part> parts;
  for (const GeomRecord& g : geoms) {
    if (g.group < compiler.inertiaGroupLow || g.group > compiler.inertiaGroupHigh) continue;
    if (g.typeName == "mesh" && !g.meshInertia) continue;  // unusable: refused by the mapping
    const double volume = geomVolume(g);
    double mass = g.density * volume;
    if (g.mass) mass = *g.mass == 0 || volume > kMinValue ? *g.mass : 0;
    // A mesh weighs as its equivalent inertia box, placed at the mesh's centre and principal axes.
    const Pose pose = g.meshInertia ? g.pose * g.meshInertia->frame : g.pose;
    parts.push_back(Part{mass, pose, geomMoments(g, mass)});
  }
  if (parts.empty()) return result;
  if (parts.size() == 1) {
    result.mass = parts[0].mass;
    result.frame = parts[0].pose;
    result.inertia = parts[0].moments.asDiagonal();
    return result;
  }
  Vector3 centre = Vector3::Zero();
  for (const Part& p : parts) {
    result.mass += p.mass;
    centre += p.mass * p.pose.translation();
  }
  if (result.mass < kMinValue) return std::nullopt;
  centre /= result.mass;
  result.frame.translation() = centre;
  for (const Part& p : parts) {
    const Matrix3 R = p.pose.linear();
    const Vector3 d = p.pose.translation() - centre;
    result.inertia += R * p.moments.asDiagonal() * R.transpose();
    result.inertia += p.mass * (d.squaredNorm() * Matrix3::Identity() - d * d.transpose());
  }
  // MuJoCo keeps the combined inertia as principal moments about its own (approximate) axes.
  const PrincipalAxes principal = principalAxesAsMujoco(result.inertia);
  result.frame.linear() = principal.axes;
  result.inertia = principal.moments.asDiagonal();
  return result;
}

}  // namespace interlink::mjcf
