// Every joint type's motion subspace (jointMotionColumn) against central finite differences of its
// motion (jointMotion), for default and given axes, transmission ratios and screw pitches, at
// non-zero coordinates. A disagreement here is a Jacobian that disagrees with forward kinematics
// (a screw joint with ratio 2 once had w = 1 where the pose moves at 1/2).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "interlink/model/JointType.hpp"

namespace interlink {
namespace {

/// The child side's velocity in the joint frame from d/dq of jointMotion: w = vee(dR R^T),
/// v = dt - w x t (the child's point at the joint frame's origin).
MotionColumn finiteDifference(JointType type, const JointMotionParameters& p, std::vector<double> q, int c) {
  constexpr double h = 1e-6;
  const double q0 = q[static_cast<std::size_t>(c)];
  q[static_cast<std::size_t>(c)] = q0 + h;
  const Pose plus = jointMotion(type, p, q.data());
  q[static_cast<std::size_t>(c)] = q0 - h;
  const Pose minus = jointMotion(type, p, q.data());
  q[static_cast<std::size_t>(c)] = q0;
  const Pose at = jointMotion(type, p, q.data());
  const Matrix3 dR = (plus.linear() - minus.linear()) / (2 * h);
  const Vector3 dt = (plus.translation() - minus.translation()) / (2 * h);
  const Matrix3 W = dR * at.linear().transpose();
  MotionColumn m;
  m.angular = Vector3(W(2, 1) - W(1, 2), W(0, 2) - W(2, 0), W(1, 0) - W(0, 1)) / 2;
  m.linear = dt - m.angular.cross(at.translation());
  return m;
}

std::string describe(JointType type, const JointMotionParameters& p, int c) {
  return std::string(jointTypeInfo(type).name) + " coordinate " + std::to_string(c) + ", " +
         std::to_string(p.axes.size()) + " axes given, ratio " + std::to_string(p.transmissionRatio) + ", pitch " +
         std::to_string(p.screwThreadPitch);
}

TEST(JointMotion, SubspaceEqualsFiniteDifferencesOfTheMotionForEveryType) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> value(-1.2, 1.2);
  auto unitVector = [&] { return Vector3(value(random), value(random), value(random)).normalized(); };
  int compared = 0;
  for (const JointTypeInfo& info : kJointTypes) {
    for (const double ratio : {1.0, 2.0, -0.5}) {
      for (const std::size_t axisCount : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
        JointMotionParameters p;
        p.transmissionRatio = ratio;
        p.screwThreadPitch = 0.35;
        for (std::size_t a = 0; a < axisCount; ++a) p.axes.push_back(unitVector());
        if (info.type == JointType::Planar && axisCount == 3) {  // two in-plane directions, orthonormal
          p.axes.resize(2);
          p.axes[1] = (p.axes[1] - p.axes[1].dot(p.axes[0]) * p.axes[0]).normalized();
        }
        std::vector<double> q(static_cast<std::size_t>(std::max(info.dofCount, 1)));
        for (double& x : q) x = value(random);
        for (int c = 0; c < info.dofCount; ++c) {
          const MotionColumn expected = finiteDifference(info.type, p, q, c);
          const MotionColumn column = jointMotionColumn(info.type, p, q.data(), c);
          EXPECT_TRUE(column.angular.isApprox(expected.angular, 1e-6) || (column.angular - expected.angular).norm() < 1e-7)
              << describe(info.type, p, c) << ": angular " << column.angular.transpose() << ", finite differences "
              << expected.angular.transpose();
          EXPECT_TRUE(column.linear.isApprox(expected.linear, 1e-6) || (column.linear - expected.linear).norm() < 1e-7)
              << describe(info.type, p, c) << ": linear " << column.linear.transpose() << ", finite differences "
              << expected.linear.transpose();
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 100);
}

TEST(JointMotion, AScrewWithRatioTwoTurnsAtHalfTheRate) {
  JointMotionParameters p;
  p.transmissionRatio = 2;
  p.screwThreadPitch = 0.1;
  const double q = 0.4;
  const MotionColumn column = jointMotionColumn(JointType::Screw, p, &q, 0);
  EXPECT_NEAR(column.angular.z(), 0.5, 1e-15);
  EXPECT_NEAR(column.linear.z(), 0.5 * 0.1 / 6.283185307179586, 1e-15);
}

TEST(JointMotion, AFloatingJointIsATranslationThenARotationVectorUpToAHalfTurn) {
  // The floating base's six coordinates: x y z, then the rotation vector. Its subspace must match
  // the motion near the identity, at large angles and close to a half turn, where the left
  // Jacobian of SO(3) is far from the identity.
  const JointMotionParameters p;
  const Vector3 axis = Vector3(0.3, -0.5, 0.8).normalized();
  for (const double angle : {0.0, 1e-7, 0.4, 2.0, 3.1}) {
    const Vector3 r = axis * angle;
    const std::vector<double> q = {0.7, -0.2, 1.3, r.x(), r.y(), r.z()};
    const Pose motion = jointMotion(JointType::Free, p, q.data());
    EXPECT_TRUE(motion.translation().isApprox(Vector3(0.7, -0.2, 1.3)));
    EXPECT_TRUE(motion.linear().isApprox(Matrix3(Eigen::AngleAxisd(angle, axis)), 1e-12)) << angle;
    for (int c = 0; c < 6; ++c) {
      const MotionColumn expected = finiteDifference(JointType::Free, p, q, c);
      const MotionColumn column = jointMotionColumn(JointType::Free, p, q.data(), c);
      EXPECT_LT((column.angular - expected.angular).norm(), 1e-6) << "angle " << angle << ", coordinate " << c;
      EXPECT_LT((column.linear - expected.linear).norm(), 1e-6) << "angle " << angle << ", coordinate " << c;
    }
  }
}

}  // namespace
}  // namespace interlink
