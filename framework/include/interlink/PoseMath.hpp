#pragma once
// Pose helpers shared by every format: Euler conventions, quaternions, finiteness, text.
#include <string>
#include <vector>

#include "interlink/Export.hpp"
#include "interlink/Pose.hpp"

namespace interlink {

/// SDFormat / URDF roll-pitch-yaw: R = Rz(yaw) * Ry(pitch) * Rx(roll) (extrinsic X, Y, Z).
INTERLINK_API Matrix3 rotationFromRpy(double roll, double pitch, double yaw);
/// Inverse of rotationFromRpy, matching gz-math's Quaternion::Euler() branch choices.
INTERLINK_API Vector3 rpyFromRotation(const Matrix3& rotation);
/// Intrinsic X-Y'-Z'' (DART's <transformation>): R = Rx(a) * Ry(b) * Rz(c).
INTERLINK_API Matrix3 rotationFromIntrinsicXyz(double a, double b, double c);

INTERLINK_API Pose poseFromXyzRpy(double x, double y, double z, double roll, double pitch, double yaw);
/// Quaternion given as x, y, z, w; normalised here.
INTERLINK_API Pose poseFromXyzQuat(double x, double y, double z, double qx, double qy, double qz, double qw);

/// True when no entry of the transform is NaN or infinite.
INTERLINK_API bool isFinite(const Pose& pose);

/// Quaternion (w, x, y, z) with w >= 0 so that output is canonical.
INTERLINK_API Eigen::Vector4d quaternionWxyz(const Pose& pose);

/// "x y z roll pitch yaw" with round-trip precision.
INTERLINK_API std::string formatXyzRpy(const Pose& pose);

/// Shortest text that reads back to the same double ("%.17g" trimmed).
INTERLINK_API std::string formatNumber(double value);

/// Rotation from axis * angle (a rotation vector); identity for the zero vector.
INTERLINK_API Matrix3 rotationFromRotationVector(const Vector3& rotationVector);

}  // namespace interlink
