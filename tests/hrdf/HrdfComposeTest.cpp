// An SDFormat world includes an .hrdf arm and welds a gripper model to its end-effector frame.
#include <gtest/gtest.h>

#include "HrdfSupport.hpp"
#include "TestSupport.hpp"

namespace {

using namespace interlink;

TEST(HrdfCompose, WorldIncludesAnArmAndWeldsAGripperToItsEndEffector) {
  test::TempDir dir;
  dir.write("arms/arm.hrdf", R"~(<robot version="1.2.0">
  <actuator type="X5-4"/><bracket type="X5LightRight"/><actuator type="X5-4"/>
  <link type="X5" extension="0.3" twist="pi"/><actuator type="X5-1"/><end-effector/>
</robot>)~");
  // SDFormat 1.10: world-level joints (the weld) belong to the world from that version on.
  const auto world = dir.write("lab.sdf", R"~(<?xml version="1.0"?>
<sdf version="1.10">
  <world name="lab">
    <include>
      <uri>arms/arm.hrdf</uri>
      <name>arm</name>
      <pose>1 0 0.5 0 0 0</pose>
    </include>
    <model name="gripper">
      <pose relative_to="arm::end_effector_1/output">0 0 0.02 0 0 0</pose>
      <link name="palm"><inertial><mass>0.2</mass></inertial></link>
    </model>
    <joint name="weld" type="fixed">
      <parent>arm::end_effector_1/output</parent>
      <child>gripper::palm</child>
    </joint>
  </world>
</sdf>)~");
  Loader loader;
  const auto result = loader.loadFile(world);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  ASSERT_EQ(result.kinematics.dofs().size(), 3u);
  EXPECT_EQ(result.kinematics.dofs()[0].joint, "arm::actuator_1/joint");
  for (const std::vector<double>& q : {std::vector<double>{0, 0, 0}, std::vector<double>{0.4, -0.7, 1.2}}) {
    Diagnostics d;
    const auto poses = result.kinematics.framePoses(q, d);
    ASSERT_TRUE(poses) << test::dump(d);
    const Pose ee = (*poses)[*result.graph.find("arm::end_effector_1/output")];
    const Pose palm = (*poses)[*result.graph.find("gripper::palm")];
    Pose offset = Pose::Identity();
    offset.translation() = Vector3(0, 0, 0.02);
    EXPECT_TRUE(palm.isApprox(ee * offset, 1e-12)) << "q = " << q[0] << " " << q[1] << " " << q[2];
    const Pose base = (*poses)[*result.graph.find("arm::actuator_1")];
    EXPECT_TRUE(base.translation().isApprox(Vector3(1, 0, 0.5)));
  }
}

}  // namespace
