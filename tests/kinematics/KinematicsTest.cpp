// Forward kinematics on documents built in code.
#include <gtest/gtest.h>

#include "TestSupport.hpp"
#include "interlink/Kinematics.hpp"
#include "interlink/PoseMath.hpp"

namespace interlink {
namespace {

Document pendulum() {
  Model model;
  model.name = "pendulum";
  Link base;
  base.name = "base";
  Link arm;
  arm.name = "arm";
  arm.pose.pose = poseFromXyzRpy(0, 0, -1, 0, 0, 0);
  Link tip;
  tip.name = "tip";
  tip.pose.pose = poseFromXyzRpy(0, 0, -2, 0, 0, 0);
  model.links = {base, arm, tip};
  Joint shoulder;
  shoulder.name = "shoulder";
  shoulder.type = JointType::Revolute;
  shoulder.parent = "base";
  shoulder.child = "arm";
  shoulder.pose.pose = poseFromXyzRpy(0, 0, 1, 0, 0, 0);  // at the base origin, relative to the child
  JointAxis axis;
  axis.xyz = Vector3::UnitY();
  shoulder.axes.push_back(axis);
  shoulder.initialPositions = {0.5};
  Joint slider;
  slider.name = "slider";
  slider.type = JointType::Prismatic;
  slider.parent = "arm";
  slider.child = "tip";
  JointAxis down;
  down.xyz = -Vector3::UnitZ();
  slider.axes.push_back(down);
  model.joints = {shoulder, slider};
  Frame marker;
  marker.name = "marker";
  marker.attachedTo = "tip";
  marker.pose.pose = poseFromXyzRpy(0.1, 0, 0, 0, 0, 0);
  model.frames.push_back(marker);
  Document document;
  document.formatVersion = "1.9";
  document.model = model;
  return document;
}

/// The pendulum with its frame graph and kinematics built, and what building them reported.
struct BuiltPendulum {
  Document document = pendulum();
  Diagnostics diagnostics;
  FrameGraph graph = FrameGraph::build(document, diagnostics);
  Kinematics kinematics = Kinematics::build(document, graph, diagnostics);
};

TEST(Kinematics, DofOrderFollowsTheDocument) {
  const BuiltPendulum built;
  ASSERT_FALSE(built.diagnostics.hasErrors()) << test::dump(built.diagnostics);
  const Kinematics& kinematics = built.kinematics;
  ASSERT_EQ(kinematics.dofs().size(), 2u);
  EXPECT_EQ(kinematics.dofs()[0].name, "shoulder");
  EXPECT_EQ(kinematics.dofs()[1].name, "slider");
  EXPECT_EQ(kinematics.initialConfiguration(), (std::vector<double>{0.5, 0.0}));
}

TEST(Kinematics, ForwardKinematicsMovesLinksAndAttachedFrames) {
  BuiltPendulum built;
  Diagnostics& diagnostics = built.diagnostics;
  const FrameGraph& graph = built.graph;
  const Kinematics& kinematics = built.kinematics;
  ASSERT_FALSE(diagnostics.hasErrors()) << test::dump(diagnostics);
  const double angle = M_PI / 2;
  auto poses = kinematics.framePoses({angle, 0.5}, diagnostics);
  ASSERT_TRUE(poses);
  auto at = [&](const std::string& name) { return (*poses)[*graph.find(name)]; };
  // Rotating +90 deg about +y takes -z to -x: the arm origin (0,0,-1) goes to (-1,0,0).
  EXPECT_TRUE(at("arm").translation().isApprox(Vector3(-1, 0, 0), 1e-12)) << at("arm").translation().transpose();
  // The tip slides 0.5 further along the arm's -z (now -x): (-2.5, 0, 0).
  EXPECT_TRUE(at("tip").translation().isApprox(Vector3(-2.5, 0, 0), 1e-12)) << at("tip").translation().transpose();
  // The marker keeps its offset in the tip frame: +x of the tip is now -z of the model.
  EXPECT_TRUE(at("marker").translation().isApprox(Vector3(-2.5, 0, -0.1), 1e-12)) << at("marker").translation().transpose();
  EXPECT_TRUE(at("base").translation().isApprox(Vector3(0, 0, 0)));
}

TEST(Kinematics, PosesMadeWhenReadKeepOnePosePerLinkAndMatchEachFramesOwnWalk) {
  BuiltPendulum built;
  ASSERT_FALSE(built.diagnostics.hasErrors()) << test::dump(built.diagnostics);
  Diagnostics diagnostics;
  const std::vector<double> q{0.7, -0.3};
  std::optional<FramePoses> poses = built.kinematics.posesAt(q, diagnostics);
  ASSERT_TRUE(poses) << test::dump(diagnostics);
  ASSERT_EQ(poses->size(), built.graph.frames().size());
  EXPECT_EQ(poses->keptPoses(), 3u) << "one per link: base, arm, tip (not the joints' and the marker's frames)";
  const std::optional<std::vector<Pose>> listed = built.kinematics.framePoses(q, diagnostics);
  ASSERT_TRUE(listed);
  for (std::size_t i = 0; i < poses->size(); ++i) {
    const std::optional<Pose> walked = built.kinematics.framePose(i, q, diagnostics);
    ASSERT_TRUE(walked) << i;
    EXPECT_TRUE((*poses)[i].isApprox(*walked, 1e-12)) << built.graph.frames()[i].name;
    EXPECT_EQ((*poses)[i].matrix(), (*listed)[i].matrix()) << built.graph.frames()[i].name;
  }
  EXPECT_FALSE(built.kinematics.posesAt({1.0}, diagnostics));
}

TEST(Kinematics, WrongConfigurationSizeIsAnError) {
  const BuiltPendulum built;
  Diagnostics errors;
  EXPECT_FALSE(built.kinematics.framePoses({1.0}, errors));
  EXPECT_TRUE(errors.contains(ErrorCode::KINEMATICS_INVALID));
}

TEST(Kinematics, SecondParentJointBecomesALoopClosure) {
  Document document = pendulum();
  Joint extra;
  extra.name = "extra";
  extra.type = JointType::Revolute;
  extra.parent = "base";
  extra.child = "tip";
  extra.axes.push_back(JointAxis{});
  document.model->joints.push_back(extra);
  Diagnostics diagnostics;
  FrameGraph graph = FrameGraph::build(document, diagnostics);
  Kinematics kinematics = Kinematics::build(document, graph, diagnostics);
  EXPECT_TRUE(diagnostics.contains(ErrorCode::KINEMATIC_LOOP)) << test::dump(diagnostics);
  EXPECT_NE(kinematics.describeTree().find("loop closures"), std::string::npos) << kinematics.describeTree();
}

TEST(Kinematics, JointWhoseParentAndChildShareALinkIsAnError) {
  Document document = pendulum();
  Frame onArm;
  onArm.name = "on_arm";
  onArm.attachedTo = "arm";
  document.model->frames.push_back(onArm);
  Joint bad;
  bad.name = "bad";
  bad.type = JointType::Fixed;
  bad.parent = "on_arm";
  bad.child = "arm";
  document.model->joints.push_back(bad);
  Diagnostics diagnostics;
  FrameGraph graph = FrameGraph::build(document, diagnostics);
  Kinematics::build(document, graph, diagnostics);
  EXPECT_TRUE(diagnostics.contains(ErrorCode::JOINT_PARENT_SAME_AS_CHILD)) << test::dump(diagnostics);
}

}  // namespace
}  // namespace interlink
