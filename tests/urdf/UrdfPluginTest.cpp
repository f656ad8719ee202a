// The URDF plugin as a host sees it: files loaded through interlink::Loader, which finds the
// plugin in the build tree's plugin directory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/ModelQuery.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink {
namespace {

const std::string kDataDir = test::sourceDir() + "/tests/urdf/data";
const std::string kDemoArm = kDataDir + "/demo_arm.urdf";

LoadOptions withPackages() {
  LoadOptions options;
  options.resourcePaths.push_back(kDataDir + "/packages");
  return options;
}

const Link* findLink(const Model& model, const std::string& name) {
  for (const Link& link : model.links) {
    if (link.name == name) return &link;
  }
  return nullptr;
}

const Joint* findJoint(const Model& model, const std::string& name) {
  for (const Joint& joint : model.joints) {
    if (joint.name == name) return &joint;
  }
  return nullptr;
}

Pose framePose(const LoadResult& result, const std::string& name) {
  auto index = result.graph.find(name);
  EXPECT_TRUE(index.has_value()) << "no frame " << name;
  return index ? result.graph.frames()[*index].pose : Pose::Identity();
}

void expectPoseNear(const Pose& actual, const Pose& expected, const std::string& what) {
  EXPECT_TRUE(actual.isApprox(expected, 1e-12)) << what << "\nactual:\n"
                                                << actual.matrix() << "\nexpected:\n"
                                                << expected.matrix();
}

LoadResult loadText(const std::string& text, const std::string& name = "robot.urdf") {
  Loader loader;
  return loader.loadString(text, kDataDir + "/" + name);
}

bool hasDiagnostic(const Diagnostics& diagnostics, ErrorCode code, int line) {
  for (const auto& d : diagnostics) {
    if (d.code == code && d.where.line == line && d.where.column > 0) return true;
  }
  return false;
}

TEST(UrdfPlugin, IsDiscoveredForTheUrdfExtension) {
  Loader loader;
  bool found = false;
  for (const auto& handle : loader.plugins().plugins()) {
    if (handle.info().name != "urdf") continue;
    found = true;
    ASSERT_EQ(handle.info().extensions.size(), 1u);
    EXPECT_EQ(handle.info().extensions.front(), ".urdf");
  }
  EXPECT_TRUE(found);
}

TEST(UrdfPlugin, DemoArmStructure) {
  Loader loader;
  LoadResult result = loader.loadFile(kDemoArm, withPackages());
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  EXPECT_TRUE(result.diagnostics.empty()) << test::dump(result.diagnostics);
  ASSERT_TRUE(result.document.model.has_value());
  const Model& model = *result.document.model;
  EXPECT_EQ(result.document.format, "urdf");
  EXPECT_EQ(model.name, "demo_arm");
  EXPECT_EQ(model.canonicalLink, "base_link");
  EXPECT_EQ(model.links.size(), 9u);
  EXPECT_EQ(model.joints.size(), 8u);

  const std::pair<const char*, JointType> types[] = {
      {"shoulder", JointType::Revolute},        {"elbow", JointType::Continuous},
      {"slide", JointType::Prismatic},          {"tool_mount", JointType::Fixed},
      {"camera_float", JointType::Free},        {"table_plane", JointType::Planar},
      {"finger_right_joint", JointType::Prismatic}};
  for (const auto& [name, type] : types) {
    const Joint* joint = findJoint(model, name);
    ASSERT_NE(joint, nullptr) << name;
    EXPECT_EQ(joint->type, type) << name;
  }
  const Joint& shoulder = *findJoint(model, "shoulder");
  EXPECT_EQ(shoulder.parent, "base_link");
  EXPECT_EQ(shoulder.child, "upper_arm");
  EXPECT_EQ(shoulder.pose.relativeTo, "base_link");
  ASSERT_EQ(shoulder.axes.size(), 1u);
  EXPECT_TRUE(shoulder.axes[0].xyz.isApprox(Vector3::UnitY()));
  EXPECT_DOUBLE_EQ(shoulder.axes[0].lower, -1.57);
  EXPECT_DOUBLE_EQ(shoulder.axes[0].upper, 1.57);
  EXPECT_DOUBLE_EQ(shoulder.axes[0].effort, 40);
  EXPECT_DOUBLE_EQ(shoulder.axes[0].velocity, 2.0);
  EXPECT_DOUBLE_EQ(shoulder.axes[0].damping, 0.7);
  EXPECT_DOUBLE_EQ(shoulder.axes[0].friction, 0.1);
  EXPECT_TRUE(std::isinf(findJoint(model, "elbow")->axes[0].upper));  // continuous: no position limits

  const Joint& mimicking = *findJoint(model, "finger_right_joint");
  ASSERT_TRUE(mimicking.mimic.has_value());
  EXPECT_EQ(mimicking.mimic->joint, "finger_left_joint");
  EXPECT_DOUBLE_EQ(mimicking.mimic->multiplier, 1.0);
  EXPECT_DOUBLE_EQ(mimicking.mimic->offset, 0.001);

  const Link& base = *findLink(model, "base_link");
  EXPECT_TRUE(base.hasInertial);
  EXPECT_DOUBLE_EQ(base.inertial.mass, 5.0);
  EXPECT_DOUBLE_EQ(base.inertial.inertia(2, 2), 0.08);
  EXPECT_TRUE(base.inertial.centerOfMass.translation().isApprox(Vector3(0, 0, 0.05)));
  ASSERT_EQ(base.visuals.size(), 1u);
  EXPECT_EQ(base.visuals[0].material, "orange");  // a robot-level material, by name
  ASSERT_TRUE(base.visuals[0].color.has_value());
  EXPECT_TRUE(base.visuals[0].color->isApprox(Eigen::Vector4d(1.0, 0.5, 0.0, 1.0)));
  EXPECT_EQ(base.visuals[0].geometry.type, GeometryType::Cylinder);
  ASSERT_EQ(base.collisions.size(), 1u);

  const Link& upper = *findLink(model, "upper_arm");
  // The child link frame is the joint frame: the link takes the joint's origin in the parent link
  // (not "relative to the joint" by name, which a link may share in URDF).
  EXPECT_EQ(upper.pose.relativeTo, "base_link");
  EXPECT_TRUE(upper.pose.pose.isApprox(shoulder.pose.pose, 1e-15));
  EXPECT_DOUBLE_EQ(upper.inertial.inertia(0, 1), 0.001);
  EXPECT_DOUBLE_EQ(upper.inertial.inertia(1, 0), 0.001);
  ASSERT_EQ(upper.visuals.size(), 1u);
  EXPECT_EQ(upper.visuals[0].name, "upper_arm_visual");
  EXPECT_EQ(upper.visuals[0].material, "blue");
  EXPECT_TRUE(upper.visuals[0].color->isApprox(Eigen::Vector4d(0, 0, 0.8, 1)));
  EXPECT_TRUE(upper.visuals[0].geometry.size.isApprox(Vector3(0.05, 0.05, 0.5)));

  const Link& gripper = *findLink(model, "gripper");
  ASSERT_EQ(gripper.visuals.size(), 1u);
  const Geometry& mesh = gripper.visuals[0].geometry;
  EXPECT_EQ(mesh.type, GeometryType::Mesh);
  EXPECT_EQ(mesh.meshUri, "package://demo_description/meshes/gripper.stl");
  EXPECT_NE(mesh.meshResolvedPath.find("packages/demo_description/meshes/gripper.stl"), std::string::npos)
      << mesh.meshResolvedPath;
  EXPECT_TRUE(mesh.scale.isApprox(Vector3(1, 1, 2)));

  ASSERT_EQ(model.kept.size(), 1u);  // <transmission> is kept, not interpreted
  EXPECT_EQ(model.kept[0].path, "robot/transmission");
}

TEST(UrdfPlugin, JointOriginIsTheChildLinkFrame) {
  Loader loader;
  LoadResult result = loader.loadFile(kDemoArm, withPackages());
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const Pose shoulder = poseFromXyzRpy(0, 0, 0.1, 0, 0, M_PI / 2);
  const Pose elbow = shoulder * poseFromXyzRpy(0, 0, 0.5, 0.1, 0.2, 0.3);
  const Pose slide = elbow * poseFromXyzRpy(0, 0, 0.4, 0, 0, 0);
  const Pose tool = slide * poseFromXyzRpy(0.02, 0, 0.03, M_PI, 0, 0);
  expectPoseNear(framePose(result, "base_link"), Pose::Identity(), "base_link");
  expectPoseNear(framePose(result, "shoulder"), shoulder, "shoulder");
  expectPoseNear(framePose(result, "upper_arm"), shoulder, "upper_arm");
  expectPoseNear(framePose(result, "forearm"), elbow, "forearm");
  expectPoseNear(framePose(result, "wrist"), slide, "wrist");
  expectPoseNear(framePose(result, "gripper"), tool, "gripper");
  expectPoseNear(framePose(result, "finger_right"), tool * poseFromXyzRpy(0, -0.02, 0.05, 0, 0, 0), "finger_right");
  expectPoseNear(framePose(result, "camera"), poseFromXyzRpy(1, 0, 1, 0, 0, 0), "camera");

  // The revolute joint turns the child about the joint axis (in the joint frame).
  Diagnostics diagnostics;
  std::vector<double> q = result.kinematics.zeroConfiguration();
  ASSERT_EQ(q.size(), 14u);  // 5 single-DOF joints, floating (6) and planar (3)
  q[0] = 0.5;
  auto poses = result.kinematics.framePoses(q, diagnostics);
  ASSERT_TRUE(poses.has_value()) << test::dump(diagnostics);
  const Pose moved = shoulder * Pose(Eigen::AngleAxisd(0.5, Vector3::UnitY()));
  expectPoseNear((*poses)[*result.graph.find("upper_arm")], moved, "upper_arm at shoulder = 0.5");
}

TEST(UrdfPlugin, CorpusFilesLoad) {
  Loader loader;
  for (const char* file : {"sdformat/test/integration/model/test_include_urdf/model.urdf",
                           "sdformat/test/sdf/material_valid.urdf"}) {
    LoadResult result = loader.loadFile(test::vendored(file));
    EXPECT_TRUE(result.ok()) << file << "\n" << test::dump(result.diagnostics);
    ASSERT_TRUE(result.document.model.has_value()) << file;
  }
  LoadResult cartpole = loader.loadFile(test::vendored("sdformat/test/sdf/material_valid.urdf"));
  ASSERT_TRUE(cartpole.document.model.has_value());
  const Model& model = *cartpole.document.model;
  EXPECT_EQ(model.name, "cartopole");
  ASSERT_EQ(model.links.size(), 1u);
  ASSERT_EQ(model.links[0].visuals.size(), 1u);
  EXPECT_EQ(model.links[0].visuals[0].material, "green");
  EXPECT_TRUE(model.links[0].visuals[0].color->isApprox(Eigen::Vector4d(0, 0.8, 0.8, 1)));
}

TEST(UrdfPlugin, IncludedFromSdformat) {
  const std::string sdf = R"(<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <include>
      <uri>)" + test::vendored("sdformat/test/integration/model/test_include_urdf/model.urdf") +
                          R"(</uri>
      <name>arm</name>
      <pose>1 2 3 0 0 0</pose>
    </include>
  </world>
</sdf>)";
  Loader loader;
  LoadOptions options;  // the vendored tree holds the included file (path policy)
  options.resourcePaths = {test::vendored("sdformat")};
  LoadResult result = loader.loadString(sdf, kDataDir + "/includes_urdf.sdf", options);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  expectPoseNear(framePose(result, "arm::link_1"), poseFromXyzRpy(1, 2, 3, 0, 0, 0), "arm::link_1");
  EXPECT_EQ(result.kinematics.dofs().size(), 1u);
}

TEST(UrdfPlugin, UnknownJointTypeHasLineAndColumn) {
  LoadResult result = loadText(R"(<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="hinge">
    <parent link="a"/><child link="b"/>
  </joint>
</robot>)");
  EXPECT_FALSE(result.ok());
  EXPECT_TRUE(hasDiagnostic(result.diagnostics, ErrorCode::ATTRIBUTE_INVALID, 4)) << test::dump(result.diagnostics);
  EXPECT_NE(test::dump(result.diagnostics).find("'hinge'"), std::string::npos);
}

TEST(UrdfPlugin, LinkWithTwoParentsIsRefused) {
  LoadResult result = loadText(R"(<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <link name="c"/>
  <joint name="j1" type="fixed"><parent link="a"/><child link="c"/></joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="c"/></joint>
</robot>)");
  EXPECT_FALSE(result.ok());
  EXPECT_TRUE(hasDiagnostic(result.diagnostics, ErrorCode::KINEMATIC_LOOP, 6)) << test::dump(result.diagnostics);
  EXPECT_NE(test::dump(result.diagnostics).find("'j1'"), std::string::npos);
}

TEST(UrdfPlugin, CycleIsRefusedNamingItsJoints) {
  LoadResult result = loadText(R"(<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="ba" type="fixed"><parent link="b"/><child link="a"/></joint>
</robot>)");
  EXPECT_FALSE(result.ok());
  EXPECT_TRUE(result.diagnostics.contains(ErrorCode::KINEMATIC_LOOP)) << test::dump(result.diagnostics);
  const std::string text = test::dump(result.diagnostics);
  EXPECT_NE(text.find("'ab'"), std::string::npos) << text;
  EXPECT_NE(text.find("'ba'"), std::string::npos) << text;
  // Said once, in URDF's words (joint, link), not as an SDFormat relative_to cycle.
  EXPECT_FALSE(result.diagnostics.contains(ErrorCode::POSE_RELATIVE_TO_CYCLE)) << text;
  EXPECT_EQ(text.find("relative_to"), std::string::npos) << text;
  EXPECT_EQ(result.diagnostics.errorCount(), 1u) << text;
}

TEST(UrdfPlugin, EveryErrorIsReported) {
  LoadResult result = loadText(R"(<robot name="r">
  <link name="a">
    <inertial><mass value="heavy"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="b"/>
  <joint name="j" type="revolute">
    <parent link="a"/><child link="b"/>
    <axis xyz="0 0"/>
  </joint>
  <joint name="k" type="fixed"><parent link="nowhere"/><child link="b"/></joint>
</robot>)");
  EXPECT_FALSE(result.ok());
  EXPECT_TRUE(hasDiagnostic(result.diagnostics, ErrorCode::VALUE_INVALID, 3)) << test::dump(result.diagnostics);
  EXPECT_TRUE(hasDiagnostic(result.diagnostics, ErrorCode::ELEMENT_MISSING, 6)) << test::dump(result.diagnostics);  // <limit>
  EXPECT_TRUE(result.diagnostics.contains(ErrorCode::JOINT_PARENT_LINK_INVALID)) << test::dump(result.diagnostics);
  EXPECT_TRUE(result.diagnostics.contains(ErrorCode::KINEMATIC_LOOP)) << test::dump(result.diagnostics);
  EXPECT_GE(result.diagnostics.errorCount(), 4u);
}

TEST(UrdfPlugin, WorldLinkIsTheWorld) {
  LoadResult result = loadText(R"(<robot name="r">
  <link name="world"/>
  <link name="base"/>
  <joint name="fix" type="fixed"><origin xyz="0 0 1"/><parent link="world"/><child link="base"/></joint>
</robot>)");
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  ASSERT_EQ(result.document.model->links.size(), 1u);
  expectPoseNear(framePose(result, "base"), poseFromXyzRpy(0, 0, 1, 0, 0, 0), "base");
  // The mapping is said where the link is (docs/urdf.md documents it).
  EXPECT_TRUE(hasDiagnostic(result.diagnostics, ErrorCode::NONE, 2)) << test::dump(result.diagnostics);
  EXPECT_NE(test::dump(result.diagnostics).find("note[NONE]: link 'world' is the world"), std::string::npos);
}

TEST(UrdfPlugin, FramesShowsTheWorldLinkMapping) {
  // `interlink frames` says where the link 'world' went, beside the frames it lists.
  const std::string directory = test::makeTempDir("interlink-urdf-world");
  ASSERT_FALSE(directory.empty());
  const std::string file = directory + "/fixed_base.urdf";
  std::ofstream(file) << R"(<robot name="r">
  <link name="world"/>
  <link name="base"/>
  <joint name="fix" type="fixed"><origin xyz="0 0 1"/><parent link="world"/><child link="base"/></joint>
</robot>
)";
  const test::CommandResult frames = test::run(test::cliPath() + " frames '" + file + "'");
  EXPECT_EQ(frames.exitCode, 0) << frames.output;
  EXPECT_NE(frames.output.find("base  link  0 0 1"), std::string::npos) << frames.output;
  EXPECT_NE(frames.output.find(":2:3: note[NONE]: link 'world' is the world: it becomes the model frame 'r'"),
            std::string::npos)
      << frames.output;
}

TEST(UrdfPlugin, JointEndsAreSaidInUrdfWordsOnce) {
  LoadResult result = loadText(R"(<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="a"/></joint>
  <joint name="k" type="fixed"><parent link="a"/><child link="zz"/></joint>
  <joint name="m" type="fixed"><parent link="yy"/><child link="b"/></joint>
</robot>)");
  EXPECT_FALSE(result.ok());
  const std::string text = test::dump(result.diagnostics);
  EXPECT_TRUE(hasDiagnostic(result.diagnostics, ErrorCode::JOINT_CHILD_LINK_INVALID, 5)) << text;
  EXPECT_TRUE(hasDiagnostic(result.diagnostics, ErrorCode::JOINT_PARENT_LINK_INVALID, 6)) << text;
  EXPECT_NE(text.find("child link 'zz' of joint 'k' is not a link of robot 'r'"), std::string::npos) << text;
  EXPECT_NE(text.find("parent link 'yy' of joint 'm' is not a link of robot 'r'"), std::string::npos) << text;
  std::size_t same = 0;
  for (const auto& d : result.diagnostics) same += d.code == ErrorCode::JOINT_PARENT_SAME_AS_CHILD ? 1 : 0;
  EXPECT_EQ(same, 1u) << text;  // said once, not again by the kinematics
  // SDFormat's vocabulary stays out of URDF diagnostics.
  for (const char* sdformatWord : {"frame", "nested model", "attached", "relative_to"}) {
    EXPECT_EQ(text.find(sdformatWord), std::string::npos) << sdformatWord << "\n" << text;
  }
}

TEST(UrdfPlugin, WorldParentNeedsAWorldLink) {
  LoadResult result = loadText(R"(<robot name="r">
  <link name="base"/>
  <joint name="fix" type="fixed"><parent link="world"/><child link="base"/></joint>
</robot>)");
  EXPECT_FALSE(result.ok());
  EXPECT_TRUE(hasDiagnostic(result.diagnostics, ErrorCode::JOINT_PARENT_LINK_INVALID, 3)) << test::dump(result.diagnostics);
}

TEST(UrdfPlugin, JointSharingALinkNameKeepsItsName) {
  LoadResult result = loadText(R"(<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="b" type="revolute"><origin xyz="1 0 0"/><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>)");
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  // URDF has separate namespaces: nothing to warn about, and the joint keeps its name.
  EXPECT_TRUE(result.diagnostics.empty()) << test::dump(result.diagnostics);
  ASSERT_NE(findJoint(*result.document.model, "b"), nullptr);
  ASSERT_EQ(result.kinematics.dofs().size(), 1u);
  EXPECT_EQ(result.kinematics.dofs()[0].name, "b");
  // Only the frame graph, which has one namespace, names the joint's frame "b_joint" (docs/urdf.md).
  expectPoseNear(framePose(result, "b_joint"), poseFromXyzRpy(1, 0, 0, 0, 0, 0), "b_joint");
  expectPoseNear(framePose(result, "b"), poseFromXyzRpy(1, 0, 0, 0, 0, 0), "b");
  ASSERT_EQ(result.kinematics.joints().size(), 1u);
  EXPECT_EQ(result.graph.frames()[result.kinematics.joints()[0].frame].name, "b_joint");
}

/// Link poses of `result` at the positions `byJoint` (joint name -> value), given by name.
std::map<std::string, Pose> linkPosesAt(const LoadResult& result, const std::map<std::string, double>& byJoint) {
  std::map<std::string, Pose> poses;
  Diagnostics diagnostics;
  const ModelQuery query(result);
  const auto q = query.configuration(byJoint, diagnostics);
  EXPECT_TRUE(q.has_value()) << test::dump(diagnostics);
  if (!q) return poses;
  const auto all = result.kinematics.framePoses(*q, diagnostics);
  EXPECT_TRUE(all.has_value()) << test::dump(diagnostics);
  if (!all) return poses;
  for (std::size_t i = 0; i < result.graph.frames().size(); ++i) {
    if (result.graph.frames()[i].kind == FrameKind::Link) poses[result.graph.frames()[i].name] = (*all)[i];
  }
  return poses;
}

// A quadruped whose hip and knee joints share their names with actuator-housing links (as in
// ANYmal's descriptions): every place a user names joints uses the file's joint names.
TEST(UrdfPlugin, QuadrupedJointsNamedLikeLinksKeepTheirNamesEverywhere) {
  const std::string file = kDataDir + "/quadruped_shared_names.urdf";
  Loader loader;
  const LoadResult result = loader.loadFile(file);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  EXPECT_TRUE(result.diagnostics.empty()) << test::dump(result.diagnostics);

  // The DOF list is the file's joint names.
  std::vector<std::string> dofs;
  for (const Dof& dof : result.kinematics.dofs()) dofs.push_back(dof.name);
  EXPECT_EQ(dofs, (std::vector<std::string>{"LF_HAA", "LF_HFE", "LF_KFE", "RH_HAA", "RH_HFE", "RH_KFE"}));

  // Positions by the file's joint names (a robot's joint_states) move the right links: the
  // thigh turns about the HFE joint's axis (y), which the housing link LF_HFE does not.
  const std::map<std::string, double> positions = {{"LF_HAA", 0.3}, {"LF_HFE", 0.8}, {"LF_KFE", -1.2},
                                                    {"RH_HAA", -0.2}, {"RH_HFE", -0.6}, {"RH_KFE", 1.1}};
  const std::map<std::string, Pose> moved = linkPosesAt(result, positions);
  const Pose hip = poseFromXyzRpy(0.3, 0.1, 0, 0, 0, 0) * poseFromXyzRpy(0, 0, 0, 0.3, 0, 0);
  expectPoseNear(moved.at("LF_HIP"), hip, "LF_HIP");
  expectPoseNear(moved.at("LF_THIGH"), hip * poseFromXyzRpy(0.06, 0.1, 0, 0, 0.8, 0), "LF_THIGH");
  expectPoseNear(moved.at("LF_HFE"), hip * poseFromXyzRpy(0.06, 0.08, 0, 1.5707963267948966, 0, 0), "LF_HFE");
  expectPoseNear(moved.at("LF_SHANK"),
                 hip * poseFromXyzRpy(0.06, 0.1, 0, 0, 0.8, 0) * poseFromXyzRpy(0.1, 0.04, -0.28, 0, 0, 0.2) *
                     poseFromXyzRpy(0, 0, 0, 0, -1.2, 0),
                 "LF_SHANK");

  // Conversions write the file's joint names where the target format allows them.
  Diagnostics diagnostics;
  const auto urdf = convert::writeUrdf(result, diagnostics);
  ASSERT_TRUE(urdf.has_value()) << test::dump(diagnostics);
  EXPECT_NE(urdf->find("<joint name=\"LF_HFE\" type=\"revolute\""), std::string::npos) << *urdf;
  EXPECT_NE(urdf->find("<link name=\"LF_HFE\""), std::string::npos) << *urdf;
  const LoadResult urdfBack = loader.loadString(*urdf, kDataDir + "/converted.urdf");
  ASSERT_TRUE(urdfBack.ok()) << test::dump(urdfBack.diagnostics);
  for (const auto& [link, pose] : linkPosesAt(urdfBack, positions)) expectPoseNear(pose, moved.at(link), "URDF: " + link);

  const std::string json = convert::writeJson(result);
  EXPECT_TRUE(std::regex_search(json, std::regex(R"("name": "LF_HFE",\s*"type": "revolute")"))) << json;

  const auto mjcf = convert::writeMjcf(result, diagnostics);
  ASSERT_TRUE(mjcf.has_value()) << test::dump(diagnostics);
  EXPECT_NE(mjcf->find("<joint name=\"LF_HFE\" type=\"hinge\""), std::string::npos) << *mjcf;
  EXPECT_NE(mjcf->find("<body name=\"LF_HFE\""), std::string::npos) << *mjcf;

  // SDFormat 1.7 and later give joints and links one namespace: there the joint is written with
  // its frame's name, LF_HFE_joint (docs/urdf.md), and moves the same links.
  const auto sdf = convert::writeSdformat(result, diagnostics);
  ASSERT_TRUE(sdf.has_value()) << test::dump(diagnostics);
  EXPECT_NE(sdf->find("<joint name=\"LF_HFE_joint\" type=\"revolute\""), std::string::npos) << *sdf;
  bool renameSaid = false;  // a warning says so: positions by name change with it
  for (const Diagnostic& d : diagnostics) {
    renameSaid |= d.code == ErrorCode::DUPLICATE_NAME && d.severity == Severity::Warning &&
                  d.message.find("joint 'LF_HFE' is named like a link") != std::string::npos &&
                  d.message.find("written as 'LF_HFE_joint'") != std::string::npos;
  }
  EXPECT_TRUE(renameSaid) << test::dump(diagnostics);
  const LoadResult sdfBack = loader.loadString(*sdf, kDataDir + "/converted.sdf");
  ASSERT_TRUE(sdfBack.ok()) << test::dump(sdfBack.diagnostics);
  std::map<std::string, double> sdfPositions;
  for (const auto& [name, value] : positions) {
    const bool shared = name.find("HFE") != std::string::npos || name.find("KFE") != std::string::npos;
    sdfPositions[name + (shared ? "_joint" : "")] = value;
  }
  for (const auto& [link, pose] : linkPosesAt(sdfBack, sdfPositions)) {
    const std::string name = link.substr(link.rfind(':') == std::string::npos ? 0 : link.rfind(':') + 1);
    expectPoseNear(pose, moved.at(name), "SDFormat: " + link);
  }
}

TEST(UrdfPlugin, MaterialDefinedInAnEarlierVisualIsValidRobotWide) {
  LoadResult result = loadText(R"(<robot name="r">
  <link name="a">
    <visual><geometry><box size="1 1 1"/></geometry><material name="black"><color rgba="0 0 0 1"/></material></visual>
  </link>
  <link name="b">
    <visual><geometry><box size="1 1 1"/></geometry><material name="black"/></visual>
  </link>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>)");
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  EXPECT_TRUE(result.diagnostics.empty()) << test::dump(result.diagnostics);
  const Link& b = *findLink(*result.document.model, "b");
  ASSERT_TRUE(b.visuals[0].color.has_value());
  EXPECT_TRUE(b.visuals[0].color->isApprox(Eigen::Vector4d(0, 0, 0, 1)));
}

TEST(UrdfPlugin, UndefinedMaterialAndMimicOfAMissingJointAreWarnings) {
  LoadResult result = loadText(R"(<robot name="r">
  <link name="a">
    <visual><geometry><sphere radius="1"/></geometry><material name="nowhere"/></visual>
  </link>
  <link name="b"/>
  <joint name="j" type="revolute">
    <parent link="a"/><child link="b"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="ghost" multiplier="2"/>
  </joint>
</robot>)");
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  EXPECT_TRUE(hasDiagnostic(result.diagnostics, ErrorCode::ELEMENT_INVALID, 3)) << test::dump(result.diagnostics);
  EXPECT_TRUE(hasDiagnostic(result.diagnostics, ErrorCode::JOINT_AXIS_MIMIC_INVALID, 9)) << test::dump(result.diagnostics);
  EXPECT_NE(test::dump(result.diagnostics).find("'nowhere'"), std::string::npos);
  EXPECT_NE(test::dump(result.diagnostics).find("'ghost'"), std::string::npos);
  EXPECT_EQ(result.kinematics.dofs().size(), 1u);  // the mimicking joint moves on its own
}

/// A robot with `count` links, each with a visual whose mesh does not exist, chained by fixed
/// joints that carry a <limit>.
std::string robotWithMissingMeshes(int count) {
  std::string text = "<robot name=\"r\">\n";
  for (int i = 0; i < count; ++i) {
    const std::string n = std::to_string(i);
    text += "<link name=\"l" + n + "\"><visual><geometry><mesh filename=\"package://nowhere/m" + n +
            ".stl\"/></geometry></visual></link>\n";
    if (i > 0) {
      text += "<joint name=\"j" + n + "\" type=\"fixed\"><parent link=\"l" + std::to_string(i - 1) +
              "\"/><child link=\"l" + n + "\"/><limit effort=\"1\" velocity=\"1\"/></joint>\n";
    }
  }
  return text + "</robot>\n";
}

std::size_t countCode(const Diagnostics& diagnostics, ErrorCode code) {
  std::size_t n = 0;
  for (const auto& d : diagnostics) n += d.code == code ? 1 : 0;
  return n;
}

TEST(UrdfPlugin, RepeatedWarningsAreGroupedUnlessVerbose) {
  const std::string text = robotWithMissingMeshes(100);
  Loader loader;
  LoadResult grouped = loader.loadString(text, kDataDir + "/many_meshes.urdf");
  ASSERT_TRUE(grouped.ok()) << test::dump(grouped.diagnostics);
  EXPECT_EQ(countCode(grouped.diagnostics, ErrorCode::URI_LOOKUP), 1u) << test::dump(grouped.diagnostics);
  EXPECT_EQ(countCode(grouped.diagnostics, ErrorCode::ELEMENT_UNSUPPORTED), 1u) << test::dump(grouped.diagnostics);
  const std::string dump = test::dump(grouped.diagnostics);
  EXPECT_NE(dump.find("package://nowhere/m0.stl"), std::string::npos) << dump;  // the first, in full
  EXPECT_NE(dump.find("'package://nowhere/m1.stl' (line 3)"), std::string::npos) << dump;  // then a few
  EXPECT_NE(dump.find("99 more"), std::string::npos) << dump;
  EXPECT_TRUE(hasDiagnostic(grouped.diagnostics, ErrorCode::URI_LOOKUP, 2)) << dump;  // at the first

  LoadOptions verbose;
  verbose.listEveryWarning = true;
  LoadResult all = loader.loadString(text, kDataDir + "/many_meshes.urdf", verbose);
  EXPECT_EQ(countCode(all.diagnostics, ErrorCode::URI_LOOKUP), 100u);
  EXPECT_EQ(countCode(all.diagnostics, ErrorCode::ELEMENT_UNSUPPORTED), 99u);

  // Three of a kind stay as they are.
  LoadResult few = loader.loadString(robotWithMissingMeshes(3), kDataDir + "/few_meshes.urdf");
  EXPECT_EQ(countCode(few.diagnostics, ErrorCode::URI_LOOKUP), 3u) << test::dump(few.diagnostics);
}

TEST(UrdfPlugin, CliVerboseListsEveryWarning) {
  const std::string directory = test::makeTempDir("interlink-urdf-verbose");
  ASSERT_FALSE(directory.empty());
  const std::string file = directory + "/many_meshes.urdf";
  std::ofstream(file) << robotWithMissingMeshes(20);
  const test::CommandResult grouped = test::run(test::cliPath() + " check '" + file + "'");
  EXPECT_EQ(grouped.exitCode, 0) << grouped.output;
  const test::CommandResult verbose = test::run(test::cliPath() + " check --verbose '" + file + "'");
  EXPECT_EQ(verbose.exitCode, 0) << verbose.output;
  auto lines = [](const std::string& text) { return std::count(text.begin(), text.end(), '\n'); };
  EXPECT_LE(lines(grouped.output), 4) << grouped.output;
  EXPECT_GE(lines(verbose.output), 39) << verbose.output;  // 20 meshes, 19 limits
}

TEST(UrdfPlugin, InvalidInertiasAreWarnedAboutByTheCore) {
  // urdfdom loads all of these; the core's inertia check warns, naming the link, at the <inertial>.
  LoadResult result = loadText(R"(<robot name="r">
  <link name="massless"><inertial><mass value="-1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="indefinite"><inertial><mass value="1"/><inertia ixx="1" iyy="-1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="impossible"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="3" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="fine"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="2" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="virtual"><inertial><mass value="0"/><inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="a" type="fixed"><parent link="massless"/><child link="indefinite"/></joint>
  <joint name="b" type="fixed"><parent link="massless"/><child link="impossible"/></joint>
  <joint name="c" type="fixed"><parent link="massless"/><child link="fine"/></joint>
  <joint name="d" type="fixed"><parent link="massless"/><child link="virtual"/></joint>
</robot>)");
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  EXPECT_EQ(countCode(result.diagnostics, ErrorCode::LINK_INERTIA_INVALID), 3u) << test::dump(result.diagnostics);
  for (int line : {2, 3, 4}) {
    EXPECT_TRUE(hasDiagnostic(result.diagnostics, ErrorCode::LINK_INERTIA_INVALID, line)) << line;
  }
  const std::string dump = test::dump(result.diagnostics);
  EXPECT_NE(dump.find("link 'massless' (urdf) is -1; expected a positive mass"), std::string::npos) << dump;
  EXPECT_NE(dump.find("'indefinite' (urdf) is not positive definite"), std::string::npos) << dump;
  EXPECT_NE(dump.find("'impossible' (urdf) (1, 1, 3) break the triangle inequality"), std::string::npos) << dump;
}

TEST(UrdfPlugin, MalformedXmlAndWrongRoot) {
  LoadResult broken = loadText("<robot name=\"r\"><link name=\"a\"></robot>");
  EXPECT_TRUE(broken.diagnostics.contains(ErrorCode::XML_SYNTAX)) << test::dump(broken.diagnostics);
  LoadResult wrong = loadText("<model name=\"r\"/>");
  EXPECT_TRUE(wrong.diagnostics.contains(ErrorCode::ELEMENT_INVALID)) << test::dump(wrong.diagnostics);
}

}  // namespace
}  // namespace interlink
