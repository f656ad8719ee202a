// Rotation conventions shared by every format. The Euler extraction follows gz-math's
// Quaternion::Euler() exactly (same quaternion formulas, tolerance and gimbal-lock branches) so
// that angles printed by Interlink and libsdformat agree.
#include "interlink/PoseMath.hpp"

#include <charconv>
#include <cmath>

namespace interlink {

Matrix3 rotationFromRpy(double roll, double pitch, double yaw) {
  return (Eigen::AngleAxisd(yaw, Vector3::UnitZ()) * Eigen::AngleAxisd(pitch, Vector3::UnitY()) *
          Eigen::AngleAxisd(roll, Vector3::UnitX()))
      .toRotationMatrix();
}

Vector3 rpyFromRotation(const Matrix3& rotation) {
  Quaternion q(rotation);
  const double norm = q.norm();
  // gz-math normalises, and treats a (near) zero quaternion as the identity.
  if (std::abs(norm) <= 1e-6) {
    q = Quaternion::Identity();
  } else {
    q.coeffs() /= norm;
  }
  const double w = q.w();
  const double x = q.x();
  const double y = q.y();
  const double z = q.z();
  const double squ = w * w;
  const double sqx = x * x;
  const double sqy = y * y;
  const double sqz = z * z;

  Vector3 rpy;
  const double sarg = -2 * (x * z - w * y);
  if (sarg <= -1.0) {
    rpy.y() = -0.5 * M_PI;
  } else if (sarg >= 1.0) {
    rpy.y() = 0.5 * M_PI;
  } else {
    rpy.y() = std::asin(sarg);
  }

  constexpr double tolerance = 1e-15;
  if (std::abs(sarg - 1) < tolerance) {
    // Pitch is +pi/2: only roll + yaw is defined; gz-math puts it all in roll.
    rpy.z() = 0;
    rpy.x() = std::atan2(2 * (x * y - z * w), squ - sqx + sqy - sqz);
  } else if (std::abs(sarg + 1) < tolerance) {
    rpy.z() = 0;
    rpy.x() = std::atan2(-2 * (x * y - z * w), squ - sqx + sqy - sqz);
  } else {
    rpy.x() = std::atan2(2 * (y * z + w * x), squ - sqx - sqy + sqz);
    rpy.z() = std::atan2(2 * (x * y + w * z), squ + sqx - sqy - sqz);
  }
  return rpy;
}

Matrix3 rotationFromIntrinsicXyz(double a, double b, double c) {
  return (Eigen::AngleAxisd(a, Vector3::UnitX()) * Eigen::AngleAxisd(b, Vector3::UnitY()) *
          Eigen::AngleAxisd(c, Vector3::UnitZ()))
      .toRotationMatrix();
}

Pose poseFromXyzRpy(double x, double y, double z, double roll, double pitch, double yaw) {
  Pose pose = Pose::Identity();
  pose.linear() = rotationFromRpy(roll, pitch, yaw);
  pose.translation() = Vector3(x, y, z);
  return pose;
}

Pose poseFromXyzQuat(double x, double y, double z, double qx, double qy, double qz, double qw) {
  Quaternion q(qw, qx, qy, qz);
  const double norm = q.norm();
  // As gz-math's Quaternion::Normalize: a (near) zero quaternion means no rotation.
  if (!(norm > 1e-6)) {
    q = Quaternion::Identity();
  } else {
    q.coeffs() /= norm;
  }
  Pose pose = Pose::Identity();
  pose.linear() = q.toRotationMatrix();
  pose.translation() = Vector3(x, y, z);
  return pose;
}

bool isFinite(const Pose& pose) { return pose.matrix().allFinite(); }

Eigen::Vector4d quaternionWxyz(const Pose& pose) {
  Quaternion q(pose.rotation());
  q.normalize();
  Eigen::Vector4d wxyz(q.w(), q.x(), q.y(), q.z());
  // q and -q are the same rotation; pick the one whose first non-zero entry is positive.
  for (int i = 0; i < 4; ++i) {
    if (wxyz[i] > 0) break;
    if (wxyz[i] < 0) {
      wxyz = -wxyz;
      break;
    }
  }
  for (int i = 0; i < 4; ++i) {
    if (wxyz[i] == 0) wxyz[i] = 0;  // no "-0" in output
  }
  return wxyz;
}

std::string formatXyzRpy(const Pose& pose) {
  const Vector3 t = pose.translation();
  const Vector3 rpy = rpyFromRotation(pose.linear());
  std::string out;
  for (int i = 0; i < 3; ++i) out += formatNumber(t[i]) + " ";
  for (int i = 0; i < 3; ++i) out += formatNumber(rpy[i]) + (i < 2 ? " " : "");
  return out;
}

std::string formatNumber(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";  // also for -0
  char buffer[64];
  // std::to_chars without a format gives the shortest text that reads back to the same double.
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

Matrix3 rotationFromRotationVector(const Vector3& rotationVector) {
  const double angle = rotationVector.norm();
  if (angle == 0 || !std::isfinite(angle)) return Matrix3::Identity();
  return Eigen::AngleAxisd(angle, rotationVector / angle).toRotationMatrix();
}

}  // namespace interlink
