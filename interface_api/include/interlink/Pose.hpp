#pragma once
// Rigid transforms. X_AB is the pose of frame B expressed in frame A (Drake's monogram notation).
#include <Eigen/Geometry>

namespace interlink {

using Pose = Eigen::Isometry3d;
using Vector3 = Eigen::Vector3d;
using Matrix3 = Eigen::Matrix3d;
using Quaternion = Eigen::Quaterniond;

inline Pose identityPose() { return Pose::Identity(); }

}  // namespace interlink
