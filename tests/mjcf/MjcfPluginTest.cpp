// The MJCF plugin as a host sees it: files loaded through interlink::Loader, which finds the
// plugin (and the SDFormat and Juice plugins that share ".xml") in the build tree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink {
namespace {

namespace fs = std::filesystem;

const std::string kMujocoData = test::sourceDir() + "/tests/data/mujoco";

LoadResult loadText(const std::string& text, const std::string& name = "model.xml") {
  Loader loader;
  return loader.loadString(text, "/tmp/interlink-mjcf-test/" + name);
}

Pose framePose(const LoadResult& result, const std::string& name) {
  auto index = result.graph.find(name);
  EXPECT_TRUE(index.has_value()) << "no frame " << name;
  return index ? result.graph.frames()[*index].pose : Pose::Identity();
}

/// The element of `elements` (links, joints) called `name`, or null.
template <class Element>
const Element* named(const std::vector<Element>& elements, const std::string& name) {
  auto found = std::find_if(elements.begin(), elements.end(), [&](const Element& e) { return e.name == name; });
  return found == elements.end() ? nullptr : &*found;
}

TEST(MjcfPlugin, ClaimsXmlWithAMujocoRootAndTheMjcfExtension) {
  for (const char* name : {"model.xml", "model.mjcf"}) {
    LoadResult result = loadText("<?xml version='1.0'?>\n<!-- a comment -->\n<mujoco model='m'><worldbody>"
                                 "<body name='b'><geom size='1'/></body></worldbody></mujoco>", name);
    ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
    EXPECT_EQ(result.document.format, "mjcf") << name;
    EXPECT_EQ(result.document.model->name, "m");
  }
  // A .mjcf file whose root is not <mujoco> gets the plugin's own located error.
  LoadResult wrong = loadText("<robot name='r'/>", "model.mjcf");
  EXPECT_FALSE(wrong.ok());
  EXPECT_TRUE(wrong.diagnostics.contains(ErrorCode::ELEMENT_INVALID)) << test::dump(wrong.diagnostics);
}

TEST(MjcfPlugin, OtherXmlFormatsKeepTheirFiles) {
  Loader loader;
  const std::string sdf = test::vendored("sdformat/test/sdf/joint_complete.sdf");
  // The SDFormat sample read under an .xml name must not be claimed by the MJCF plugin.
  const LoadResult result = loader.loadString(test::readFile(sdf), "/tmp/interlink-mjcf-test/model.xml");
  EXPECT_NE(result.document.format, "mjcf");
}

TEST(MjcfPlugin, OrientationFormsAgree) {
  // The same rotation (90 degrees about z) in every form MJCF has.
  const std::string text = R"(<mujoco>
    <compiler angle="degree" eulerseq="XYZ"/>
    <worldbody>
      <body name="quat" quat="0.7071067811865476 0 0 0.7071067811865476"><geom size="1"/></body>
      <body name="axisangle" axisangle="0 0 1 90"><geom size="1"/></body>
      <body name="xyaxes" xyaxes="0 1 0 -1 0 0"><geom size="1"/></body>
      <body name="euler" euler="0 0 90"><geom size="1"/></body>
    </worldbody></mujoco>)";
  LoadResult result = loadText(text);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const Pose expected(Eigen::AngleAxisd(M_PI / 2, Vector3::UnitZ()));
  for (const char* name : {"quat", "axisangle", "xyaxes", "euler"}) {
    EXPECT_TRUE(framePose(result, name).isApprox(expected, 1e-12)) << name;
  }
  // zaxis: the minimal rotation taking z onto x is 90 degrees about y.
  LoadResult z = loadText("<mujoco><worldbody><body name='z' zaxis='1 0 0'><geom size='1'/></body></worldbody></mujoco>");
  ASSERT_TRUE(z.ok());
  EXPECT_TRUE(framePose(z, "z").isApprox(Pose(Eigen::AngleAxisd(M_PI / 2, Vector3::UnitY())), 1e-12));
}

TEST(MjcfPlugin, DefaultClassesAndChildclass) {
  const std::string text = R"(<mujoco>
    <default>
      <joint damping="1"/>
      <default class="arm"><joint axis="0 1 0" damping="2"/><geom type="box" size="1 2 3"/></default>
    </default>
    <worldbody>
      <body name="a" childclass="arm">
        <joint name="j1"/>
        <geom name="g"/>
        <body name="b"><joint name="j2" class="main"/><geom class="main" size="0.5"/></body>
      </body>
    </worldbody></mujoco>)";
  LoadResult result = loadText(text);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const Model& model = *result.document.model;
  const Joint* j1 = named(model.joints, "j1");
  const Joint* j2 = named(model.joints, "j2");
  ASSERT_TRUE(j1 && j2);
  EXPECT_TRUE(j1->axes[0].xyz.isApprox(Vector3::UnitY()));
  EXPECT_EQ(j1->axes[0].damping, 2);
  EXPECT_TRUE(j2->axes[0].xyz.isApprox(Vector3::UnitZ()));
  EXPECT_EQ(j2->axes[0].damping, 1);
  const Link* a = named(model.links, "a");
  ASSERT_TRUE(a && !a->collisions.empty());
  EXPECT_EQ(a->collisions[0].geometry.type, GeometryType::Box);
  EXPECT_TRUE(a->collisions[0].geometry.size.isApprox(Vector3(2, 4, 6)));
  // Box of density 1000: 48 m^3.
  EXPECT_NEAR(a->inertial.mass, 48000, 1e-6);
}

TEST(MjcfPlugin, UnnamedElementsGetStableDocumentedNames) {
  const std::string text = R"(<mujoco><worldbody>
      <site pos="0 0 1"/>
      <body><joint/><geom size="1"/><site/><camera pos="1 0 0"/></body>
      <body name="named"><joint type="slide"/><geom size="1"/></body>
    </worldbody></mujoco>)";
  LoadResult result = loadText(text);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  for (const char* name : {"worldbody", "body_1", "joint_0", "site_0", "site_1", "camera_0", "named", "joint_1"}) {
    EXPECT_TRUE(result.graph.find(name).has_value()) << name;
  }
}

TEST(MjcfPlugin, SeveralJointsInOneBodyComposeInOrderAndRefIsTheFilePose) {
  // Two hinges about different anchors, the first with ref = 30 degrees: at qpos = (30deg, 0)
  // the body is where the file puts it.
  const std::string text = R"(<mujoco><worldbody>
      <body name="b" pos="1 0 0">
        <joint name="h1" axis="0 0 1" pos="0.5 0 0" ref="30"/>
        <joint name="h2" axis="1 0 0" pos="0 0.5 0"/>
        <geom size="0.1"/>
      </body></worldbody></mujoco>)";
  LoadResult result = loadText(text);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  ASSERT_EQ(result.kinematics.dofs().size(), 2u);
  Diagnostics diagnostics;
  const auto atRef = result.kinematics.framePoses({M_PI / 6, 0}, diagnostics);
  ASSERT_TRUE(atRef);
  const std::size_t b = *result.graph.find("b");
  EXPECT_TRUE((*atRef)[b].isApprox(Pose(Eigen::Translation3d(1, 0, 0)), 1e-12));
  // The intermediate link between the two joints is named after the body and the first joint.
  EXPECT_TRUE(result.graph.find("b__h1").has_value());
  EXPECT_EQ(result.kinematics.initialConfiguration()[0], M_PI / 6);
}

TEST(MjcfPlugin, EqualityWeldAndConnectAreLoopClosures) {
  LoadResult result =
      Loader().loadFile(kMujocoData + "/test/engine/testdata/core_smooth/rne_post/connect/multiple_constraints.xml");
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  int loops = 0;
  for (const TreeJoint& joint : result.kinematics.joints()) loops += joint.loopClosure ? 1 : 0;
  EXPECT_GE(loops, 1);
}

TEST(MjcfPlugin, UninterpretedSectionsAreKeptAndReportedOnce) {
  LoadResult result = Loader().loadFile(kMujocoData + "/model/tendon_arm/arm26.xml");
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  int tendonWarnings = 0;
  for (const Diagnostic& d : result.diagnostics) {
    if (d.code == ErrorCode::ELEMENT_UNSUPPORTED && d.message.find("<tendon>") != std::string::npos) ++tendonWarnings;
  }
  EXPECT_EQ(tendonWarnings, 1);
  bool keptTendon = false, keptActuator = false;
  for (const KeptElement& k : result.document.model->kept) {
    keptTendon = keptTendon || k.path == "mujoco/tendon";
    keptActuator = keptActuator || k.path == "mujoco/actuator";
  }
  EXPECT_TRUE(keptTendon);
  EXPECT_TRUE(keptActuator);
}

TEST(MjcfPlugin, AllErrorsAreReportedWithLocations) {
  const std::string text = "<mujoco>\n<worldbody>\n<body pos='0 0'>\n<geom type='cube' size='1'/>\n"
                           "<joint type='hinge' axis='0 0 0'/>\n</body>\n</worldbody>\n</mujoco>";
  LoadResult result = loadText(text);
  EXPECT_FALSE(result.ok());
  int located = 0;
  for (const Diagnostic& d : result.diagnostics) {
    if (d.isError() && d.where.line >= 3 && d.where.column > 0) ++located;
  }
  EXPECT_GE(located, 3) << test::dump(result.diagnostics);
}

TEST(MjcfPlugin, IncludesAreSplicedAndCyclesRefused) {
  const std::string dir = test::makeTempDir("interlink-mjcf-include");
  ASSERT_FALSE(dir.empty());
  std::ofstream(dir + "/part.xml") << "<mujoco><body name='included'><geom size='1'/></body></mujoco>";
  std::ofstream(dir + "/main.xml") << "<mujoco><worldbody><include file='part.xml'/></worldbody></mujoco>";
  std::ofstream(dir + "/loop.xml") << "<mujoco><include file='loop.xml'/></mujoco>";
  Loader loader;
  LoadResult ok = loader.loadFile(dir + "/main.xml");
  EXPECT_TRUE(ok.ok()) << test::dump(ok.diagnostics);
  EXPECT_TRUE(ok.graph.find("included").has_value());
  LoadResult loop = loader.loadFile(dir + "/loop.xml");
  EXPECT_TRUE(loop.diagnostics.contains(ErrorCode::INCLUDE_CYCLE)) << test::dump(loop.diagnostics);
  // An include bomb: every level includes the next ten times (10^12 copies if expanded).
  for (int level = 0; level < 12; ++level) {
    std::ofstream out(dir + "/bomb" + std::to_string(level) + ".xml");
    out << "<mujoco>";
    for (int k = 0; k < 10; ++k) out << "<include file='bomb" << level + 1 << ".xml'/>";
    out << "</mujoco>";
  }
  std::ofstream(dir + "/bomb12.xml") << "<mujoco><worldbody/></mujoco>";
  LoadResult bomb = loader.loadFile(dir + "/bomb0.xml");
  EXPECT_FALSE(bomb.ok());
  // The load's include service caps the includes (LoadOptions::maxIncludedModels) for MJCF too.
  EXPECT_TRUE(bomb.diagnostics.contains(ErrorCode::INCLUDE_LIMIT)) << test::dump(bomb.diagnostics);
  fs::remove_all(dir);
}

TEST(MjcfPlugin, AnSdformatWorldIncludesAnMjcfRobot) {
  const std::string dir = test::makeTempDir("interlink-mjcf-world");
  ASSERT_FALSE(dir.empty());
  fs::copy_file(kMujocoData + "/model/humanoid/humanoid.xml", dir + "/humanoid.xml");
  std::ofstream(dir + "/world.sdf") << R"(<?xml version="1.0"?>
<sdf version="1.9"><world name="w">
  <include><uri>humanoid.xml</uri><name>robot</name><pose>1 2 0 0 0 1.5707963267948966</pose></include>
</world></sdf>)";
  Loader loader;
  LoadResult result = loader.loadFile(dir + "/world.sdf");
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const LoadResult alone = loader.loadFile(dir + "/humanoid.xml");
  ASSERT_TRUE(alone.ok());
  const Pose placement = Eigen::Translation3d(1, 2, 0) * Eigen::AngleAxisd(M_PI / 2, Vector3::UnitZ());
  for (const char* name : {"torso", "head", "right_thigh", "left_foot"}) {
    auto inWorld = result.graph.find(std::string("robot::") + name);
    ASSERT_TRUE(inWorld.has_value()) << name;
    EXPECT_TRUE(result.graph.frames()[*inWorld].pose.isApprox(placement * framePose(alone, name), 1e-12)) << name;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace interlink
