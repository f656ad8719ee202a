// Rotation conventions: round trips, gz-math's gimbal-lock branches, quaternion canonical form,
// number formatting.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>

#include "interlink/PoseMath.hpp"

namespace interlink {
namespace {

TEST(PoseMath, RpyIsExtrinsicXyz) {
  // Yaw alone turns x into y; roll after pitch order: R = Rz * Ry * Rx.
  const Matrix3 yaw = rotationFromRpy(0, 0, M_PI / 2);
  EXPECT_TRUE((yaw * Vector3::UnitX()).isApprox(Vector3::UnitY(), 1e-12));
  const Matrix3 r = rotationFromRpy(0.1, 0.2, 0.3);
  const Matrix3 expected = Eigen::AngleAxisd(0.3, Vector3::UnitZ()).toRotationMatrix() *
                           Eigen::AngleAxisd(0.2, Vector3::UnitY()).toRotationMatrix() *
                           Eigen::AngleAxisd(0.1, Vector3::UnitX()).toRotationMatrix();
  EXPECT_TRUE(r.isApprox(expected, 1e-14));
}

TEST(PoseMath, RpyRoundTrips) {
  const double angles[] = {-3.0, -1.5, -0.7, 0.0, 0.4, 1.2, 2.9};
  for (double roll : angles) {
    for (double pitch : {-1.5, -0.7, 0.0, 0.4, 1.2}) {
      for (double yaw : angles) {
        const Vector3 rpy = rpyFromRotation(rotationFromRpy(roll, pitch, yaw));
        EXPECT_NEAR(rpy.x(), roll, 1e-9) << roll << " " << pitch << " " << yaw;
        EXPECT_NEAR(rpy.y(), pitch, 1e-9);
        EXPECT_NEAR(rpy.z(), yaw, 1e-9);
      }
    }
  }
}

TEST(PoseMath, GimbalLockPutsEverythingInRollLikeGzMath) {
  // Pitch +pi/2: gz-math sets yaw to 0 and keeps roll - yaw in roll.
  const Vector3 up = rpyFromRotation(rotationFromRpy(0.3, M_PI / 2, 0.1));
  EXPECT_NEAR(up.y(), M_PI / 2, 1e-7);
  EXPECT_DOUBLE_EQ(up.z(), 0.0);
  EXPECT_NEAR(up.x(), 0.2, 1e-7);
  EXPECT_TRUE(rotationFromRpy(up.x(), up.y(), up.z()).isApprox(rotationFromRpy(0.3, M_PI / 2, 0.1), 1e-7));
  // Pitch -pi/2: roll + yaw.
  const Vector3 down = rpyFromRotation(rotationFromRpy(0.3, -M_PI / 2, 0.1));
  EXPECT_NEAR(down.y(), -M_PI / 2, 1e-7);
  EXPECT_DOUBLE_EQ(down.z(), 0.0);
  EXPECT_NEAR(down.x(), 0.4, 1e-7);
}

TEST(PoseMath, QuaternionPoseIsNormalised) {
  // Half turn about z, given unnormalised.
  const Pose pose = poseFromXyzQuat(1, 2, 3, 0, 0, 2, 0);
  EXPECT_TRUE(pose.translation().isApprox(Vector3(1, 2, 3)));
  EXPECT_TRUE((pose.linear() * Vector3::UnitX()).isApprox(-Vector3::UnitX(), 1e-12));
  // A zero quaternion means no rotation, as in gz-math.
  EXPECT_TRUE(poseFromXyzQuat(0, 0, 0, 0, 0, 0, 0).linear().isIdentity());
  // Same rotation as rpy.
  const Eigen::Quaterniond q(rotationFromRpy(0.1, -0.2, 0.3));
  const Pose fromQuat = poseFromXyzQuat(0, 0, 0, q.x(), q.y(), q.z(), q.w());
  EXPECT_TRUE(fromQuat.linear().isApprox(poseFromXyzRpy(0, 0, 0, 0.1, -0.2, 0.3).linear(), 1e-12));
}

TEST(PoseMath, QuaternionWxyzIsCanonical) {
  const Pose pose = poseFromXyzQuat(0, 0, 0, 0, 0, -0.6, -0.8);
  const Eigen::Vector4d wxyz = quaternionWxyz(pose);
  EXPECT_NEAR(wxyz[0], 0.8, 1e-12);
  EXPECT_NEAR(wxyz[3], 0.6, 1e-12);
  const Eigen::Vector4d halfTurn = quaternionWxyz(poseFromXyzRpy(0, 0, 0, 0, 0, M_PI));
  EXPECT_GE(halfTurn[0], 0.0);
  EXPECT_NEAR(std::abs(halfTurn[3]), 1.0, 1e-12);
}

TEST(PoseMath, IntrinsicXyzAndRotationVector) {
  const Matrix3 intrinsic = rotationFromIntrinsicXyz(0.1, 0.2, 0.3);
  const Matrix3 expected = Eigen::AngleAxisd(0.1, Vector3::UnitX()).toRotationMatrix() *
                           Eigen::AngleAxisd(0.2, Vector3::UnitY()).toRotationMatrix() *
                           Eigen::AngleAxisd(0.3, Vector3::UnitZ()).toRotationMatrix();
  EXPECT_TRUE(intrinsic.isApprox(expected, 1e-14));
  EXPECT_TRUE(rotationFromRotationVector(Vector3::Zero()).isIdentity());
  EXPECT_TRUE(rotationFromRotationVector(Vector3(0, 0, M_PI / 2)).isApprox(rotationFromRpy(0, 0, M_PI / 2), 1e-12));
}

TEST(PoseMath, Finiteness) {
  EXPECT_TRUE(isFinite(poseFromXyzRpy(1, 2, 3, 0.1, 0.2, 0.3)));
  EXPECT_FALSE(isFinite(poseFromXyzRpy(std::nan(""), 0, 0, 0, 0, 0)));
  EXPECT_FALSE(isFinite(poseFromXyzRpy(0, 0, 0, 0, std::numeric_limits<double>::infinity(), 0)));
}

TEST(PoseMath, FormatNumberIsShortestRoundTrip) {
  EXPECT_EQ(formatNumber(0.1), "0.1");
  EXPECT_EQ(formatNumber(1.0), "1");
  EXPECT_EQ(formatNumber(-0.0), "0");
  EXPECT_EQ(formatNumber(-2.5), "-2.5");
  EXPECT_EQ(formatNumber(1e-20), "1e-20");
  for (double v : {M_PI, 1.0 / 3.0, 123456789.123456789, 5e-324, 1.7976931348623157e308}) {
    EXPECT_EQ(std::strtod(formatNumber(v).c_str(), nullptr), v) << formatNumber(v);
  }
  EXPECT_EQ(formatXyzRpy(poseFromXyzRpy(1, 0.5, -2, 0, 0, 0)), "1 0.5 -2 0 0 0");
}

}  // namespace
}  // namespace interlink
