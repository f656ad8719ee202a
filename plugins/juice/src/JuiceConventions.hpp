#pragma once
// Juice's own geometric conventions, written once and used by the reader and the tests.
// Every formula mirrors what Juice's ODE back end does at simulation start (see docs/juice.md).
#include "interlink/Pose.hpp"

namespace interlink::juice {

/// Juice's Shape enumeration as stored in the file.
enum class ShapeKind : int { Box = 1, Capsule = 2, Sphere = 3, Cylinder = 4 };

/// Body orientation from the file's Rotation (degrees): q = qz(yaw) * qx(pitch) * qy(roll).
Quaternion bodyOrientation(double yawDegrees, double pitchDegrees, double rollDegrees);

/// Hinge axis in the model frame: R(qz(yaw) * qx(pitch) * qy(-roll)) * (0, 0, 1).
/// (Juice negates the pitch before its vector rotation, which negates pitch and roll again.)
Vector3 hingeAxis(double yawDegrees, double pitchDegrees, double rollDegrees);

/// Slider axis in the model frame: R(qz(-yaw) * qx(pitch) * qy(roll)) * (0, 0, -1).
Vector3 sliderAxis(double yawDegrees, double pitchDegrees, double rollDegrees);

/// Principal moments (about the body's x, y, z) for a body of `mass`, computed the way ODE's
/// dMassSetBox / dMassSetCappedCylinder / dMassSetSphere followed by dMassAdjust do.
Vector3 boxInertia(double mass, const Vector3& fullExtents);
/// Capped cylinder along z; `length` excludes the caps.
Vector3 capsuleInertia(double mass, double radius, double length);
Vector3 sphereInertia(double mass, double radius);
/// Juice gives flat cylinders the capsule tensor, and passes half the tube length to it.
Vector3 cylinderInertia(double mass, double radius, double tubeLength);

}  // namespace interlink::juice
