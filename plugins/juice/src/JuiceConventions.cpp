#include "JuiceConventions.hpp"

#include <cmath>

namespace interlink::juice {

namespace {

constexpr double kPi = 3.14159265358979323846;

double radians(double degrees) { return degrees * kPi / 180.0; }

Quaternion aboutAxis(const Vector3& axis, double degrees) {
  return Quaternion(Eigen::AngleAxisd(radians(degrees), axis));
}

Quaternion zxy(double yawDegrees, double pitchDegrees, double rollDegrees) {
  return aboutAxis(Vector3::UnitZ(), yawDegrees) * aboutAxis(Vector3::UnitX(), pitchDegrees) *
         aboutAxis(Vector3::UnitY(), rollDegrees);
}

}  // namespace

Quaternion bodyOrientation(double yawDegrees, double pitchDegrees, double rollDegrees) {
  return zxy(yawDegrees, pitchDegrees, rollDegrees).normalized();
}

Vector3 hingeAxis(double yawDegrees, double pitchDegrees, double rollDegrees) {
  return (zxy(yawDegrees, pitchDegrees, -rollDegrees) * Vector3::UnitZ()).normalized();
}

Vector3 sliderAxis(double yawDegrees, double pitchDegrees, double rollDegrees) {
  return (zxy(-yawDegrees, pitchDegrees, rollDegrees) * -Vector3::UnitZ()).normalized();
}

Vector3 boxInertia(double mass, const Vector3& e) {
  return Vector3(mass / 12.0 * (e.y() * e.y() + e.z() * e.z()), mass / 12.0 * (e.x() * e.x() + e.z() * e.z()),
                 mass / 12.0 * (e.x() * e.x() + e.y() * e.y()));
}

Vector3 capsuleInertia(double mass, double radius, double length) {
  // ODE's capped cylinder at unit density, then scaled to the body's mass (dMassAdjust).
  const double r2 = radius * radius;
  const double cylinderMass = kPi * r2 * length;
  const double capsMass = 4.0 / 3.0 * kPi * r2 * radius;
  const double total = cylinderMass + capsMass;
  if (!(total > 0)) return Vector3::Zero();
  const double across = cylinderMass * (0.25 * r2 + length * length / 12.0) +
                        capsMass * (0.4 * r2 + 0.375 * radius * length + 0.25 * length * length);
  const double along = (cylinderMass * 0.5 + capsMass * 0.4) * r2;
  const double scale = mass / total;
  return Vector3(across * scale, across * scale, along * scale);
}

Vector3 sphereInertia(double mass, double radius) {
  const double moment = 0.4 * mass * radius * radius;
  return Vector3(moment, moment, moment);
}

Vector3 cylinderInertia(double mass, double radius, double tubeLength) {
  return capsuleInertia(mass, radius, tubeLength / 2.0);
}

}  // namespace interlink::juice
