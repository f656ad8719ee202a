// The HRDF format rules (HEBI's FORMAT.md in HebiRobotics/hebi-hrdf, 1.0.0–1.6.0) and the mapping
// onto the model, through the real loader and the real plugins.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "HrdfSupport.hpp"
#include "TestSupport.hpp"

namespace {

using namespace interlink;

class HrdfFormat : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { loader_ = new Loader(); }
  static void TearDownTestSuite() {
    delete loader_;
    loader_ = nullptr;
  }
  /// The test directory is a root of the path policy, so "../" includes between its folders load.
  LoadResult load(const std::string& xml, const std::string& name = "robot.hrdf") {
    LoadOptions options;
    options.resourcePaths = {dir_.path()};
    return loader_->loadFile(dir_.write(name, xml), options);
  }
  static bool has(const LoadResult& r, ErrorCode code, const std::string& fragment = "") {
    for (const auto& d : r.diagnostics)
      if (d.code == code && d.message.find(fragment) != std::string::npos) return true;
    return false;
  }
  static const Diagnostic* firstError(const LoadResult& r) {
    for (const auto& d : r.diagnostics)
      if (d.isError()) return &d;
    return nullptr;
  }
  static Loader* loader_;
  test::TempDir dir_;
};
Loader* HrdfFormat::loader_ = nullptr;

TEST_F(HrdfFormat, NamesLinksJointsAndOutputFrames) {
  const auto r = load(R"~(<robot version="1.4.0">
  <actuator type="X5-4" tag="base_act"/>
  <bracket type="X5LightRight"/>
  <actuator type="X5-1"/>
  <link type="X5" extension="0.3" twist="0"/>
  <joint axis="ty"/>
  <rigid-body mass="0.1"><output trans="0.1 0 0"/><output trans="0 0.1 0"><end-effector/></output></rigid-body>
</robot>)~");
  ASSERT_TRUE(r.ok()) << test::dump(r.diagnostics);
  for (const char* frame : {"base_act", "base_act/output", "base_act/joint", "bracket_1", "bracket_1/output",
                            "bracket_1/input", "actuator_2", "actuator_2/output", "link_1/output", "joint_1/output",
                            "joint_1/joint", "rigid_body_1/output_1", "rigid_body_1/output_2", "end_effector_1/output"})
    EXPECT_TRUE(r.graph.find(frame)) << frame;
  EXPECT_FALSE(r.graph.find("actuator_1"));  // tagged: named by its tag
  EXPECT_FALSE(r.graph.find("joint_1"));     // a joint element has no body
  ASSERT_EQ(r.kinematics.dofs().size(), 3u);  // depth-first document order
  EXPECT_EQ(r.kinematics.dofs()[0].joint, "base_act/joint");
  EXPECT_EQ(r.kinematics.dofs()[1].joint, "actuator_2/joint");
  EXPECT_EQ(r.kinematics.dofs()[2].joint, "joint_1/joint");
  const Model& m = *r.document.model;
  const auto joint = std::find_if(m.joints.begin(), m.joints.end(), [](const Joint& j) { return j.name == "joint_1/joint"; });
  ASSERT_NE(joint, m.joints.end());
  EXPECT_EQ(joint->type, JointType::Prismatic);
  EXPECT_TRUE(joint->axes.at(0).xyz.isApprox(Vector3::UnitY()));
  // HEBI's frame lists, typed: every listed frame or link exists, in document order.
  const auto lists = test::frameLists(m);
  EXPECT_EQ(lists.endEffectorFrames, std::vector<std::string>{"end_effector_1/output"});
  for (const auto& frame : lists.outputFrames) EXPECT_TRUE(r.graph.find(frame)) << frame;
  for (const auto& link : lists.comLinks) EXPECT_TRUE(r.graph.find(link)) << link;
  const auto first = std::find(lists.outputFrames.begin(), lists.outputFrames.end(), "rigid_body_1/output_1");
  ASSERT_NE(first, lists.outputFrames.end());
  ASSERT_NE(first + 1, lists.outputFrames.end());
  EXPECT_EQ(*(first + 1), "rigid_body_1/output_2");
  EXPECT_EQ(lists.outputFrames.front(), "base_act/output");
  EXPECT_EQ(lists.comLinks.front(), "base_act");
  // The end effector hangs from the second output of the rigid body.
  Diagnostics d;
  auto poses = r.kinematics.framePoses({0, 0, 0.25}, d);
  ASSERT_TRUE(poses) << test::dump(d);
  const auto ee = (*poses)[*r.graph.find("end_effector_1/output")];
  const auto out2 = (*poses)[*r.graph.find("rigid_body_1/output_2")];
  EXPECT_TRUE(ee.isApprox(out2));
  const auto j = (*poses)[*r.graph.find("joint_1/output")];
  const auto l = (*poses)[*r.graph.find("link_1/output")];
  EXPECT_TRUE((l.inverse() * j).translation().isApprox(Vector3(0, 0.25, 0)));
}

TEST_F(HrdfFormat, TextInsideARigidBodyAndAnUnderflowSayWhatTheyAre) {
  const auto r = load(R"~(<robot version="1.4.0">
  <rigid-body mass="1">heavy</rigid-body>
  <rigid-body mass="1e-400"/>
  <rigid-body mass="1" com_trans="0 1e-400 0"/>
</robot>)~");
  EXPECT_FALSE(r.ok());
  const std::string dump = test::dump(r.diagnostics);
  EXPECT_NE(dump.find(":2:3: error[ELEMENT_INVALID]: <rigid-body> takes no text content; found 'heavy'"), std::string::npos)
      << dump;
  std::size_t underflows = 0;
  for (const auto& d : r.diagnostics) {
    if (d.message.find("underflows") != std::string::npos) {
      ++underflows;
      EXPECT_TRUE(d.where.line == 3 || d.where.line == 4) << d.format();
    }
  }
  EXPECT_EQ(underflows, 2u) << dump;
  EXPECT_EQ(dump.find("finite"), std::string::npos) << dump;
  EXPECT_EQ(dump.find("out of range"), std::string::npos) << dump;
}

TEST_F(HrdfFormat, EveryElementExampleOfTheSpecLoads) {
  const char* examples[] = {
      R"~(<actuator type="T5-9"/>)~",
      R"~(<link type="R8" extension="0.325" twist="pi/2"/>)~",
      R"~(<rigid-body mass="0.5" com_trans="0.25 0 0" output_rot="Rx(pi/4)" output_trans="0.5 0 0"/>)~",
      R"~(<rigid-body mass="0.5" com_trans="0.25 0 0" output_rot="Rx(pi)">
            <output rot="Rx(pi/4)" trans="0.5 0 0"/>
            <output trans="1.5 0 0"/>
            <output/>
          </rigid-body>)~",
      R"~(<joint axis="rx"/>)~",
      R"~(<end-effector type="Custom" mass="0.1" com_trans="0 0 0.5" output_trans="0 0 0.1"/>)~",
      R"~(<actuator type="X5-9" mass_offset="0.2" tag="wrist"/>)~",
      R"~(<actuator type="T5-9" mass_offset="0.2"/>)~",
      R"~(<bracket type="R8HeavyLeftInside"><output><actuator type="R8-3"/></output></bracket>)~",
  };
  for (const char* example : examples) {
    const auto r = load(std::string(R"~(<robot version="1.6.0" rot="1 0 0 0 1 0 0 0 1" trans="0 0 0">)~") + example +
                        "</robot>");
    EXPECT_TRUE(r.ok()) << example << "\n" << test::dump(r.diagnostics);
  }
  // The include examples, each relative to the including file.
  dir_.write("my_robot/left_arm.hrdf", R"~(<robot version="1.6.0"><actuator type="X5-1"/></robot>)~");
  dir_.write("left_arm.hrdf", R"~(<robot version="1.6.0"><actuator type="X5-1"/></robot>)~");
  dir_.write("robot_parts/left_arm.hrdf", R"~(<robot version="1.6.0"><actuator type="X5-1"/></robot>)~");
  for (const char* path : {"my_robot/left_arm.hrdf", "./my_robot/left_arm.hrdf", "left_arm.hrdf",
                           "../robot_parts/left_arm.hrdf"}) {
    const auto r = load(std::string(R"~(<robot version="1.6.0"><include path=")~") + path + "\"/></robot>",
                        "sub/includer.hrdf");
    if (std::string(path).rfind("..", 0) == 0) {
      EXPECT_TRUE(r.ok()) << path << "\n" << test::dump(r.diagnostics);
    } else {
      // Relative to sub/: only ../robot_parts exists from there (the include service's URI_LOOKUP).
      EXPECT_TRUE(has(r, ErrorCode::URI_LOOKUP)) << path;
    }
    const auto top = load(std::string(R"~(<robot version="1.6.0"><include path=")~") + path + "\"/></robot>",
                          "includer.hrdf");
    EXPECT_EQ(top.ok(), std::string(path).rfind("..", 0) != 0) << path << "\n" << test::dump(top.diagnostics);
  }
}

TEST_F(HrdfFormat, ActuatorTurnsAboutItsOutputZAxis) {
  const auto r = load(R"~(<robot version="1.2.0"><actuator type="X5-1"/><end-effector/></robot>)~");
  ASSERT_TRUE(r.ok()) << test::dump(r.diagnostics);
  Diagnostics d;
  auto poses = r.kinematics.framePoses({M_PI / 2}, d);
  ASSERT_TRUE(poses);
  const Pose out = (*poses)[*r.graph.find("actuator_1/output")];
  EXPECT_TRUE(out.translation().isApprox(Vector3(0, 0, 0.03105)));
  EXPECT_TRUE(out.linear().isApprox(Eigen::AngleAxisd(M_PI / 2, Vector3::UnitZ()).toRotationMatrix()));
  // The housing and its CoM do not turn.
  const Pose housing = (*poses)[*r.graph.find("actuator_1")];
  EXPECT_TRUE(housing.isApprox(Pose::Identity()));
  EXPECT_EQ(r.document.model->joints.front().actuator, "X5-1");
}

TEST_F(HrdfFormat, RobotRotAndTransPlaceTheBase) {
  const auto r = load(R"~(<robot version="1.2.0" rot="Rz(pi/2)" trans="1 2 3"><actuator type="X5-1"/></robot>)~");
  ASSERT_TRUE(r.ok()) << test::dump(r.diagnostics);
  const auto pose = r.graph.pose("actuator_1/output", r.graph.rootName());
  ASSERT_TRUE(pose);
  EXPECT_TRUE(pose->translation().isApprox(Vector3(1, 2, 3 + 0.03105)));
  // A robot that starts with a <joint> gets a massless base link for the joint to move from.
  const auto j = load(R"~(<robot version="1.2.0" trans="0 0 1"><joint axis="rz"/><rigid-body mass="1"/></robot>)~");
  ASSERT_TRUE(j.ok()) << test::dump(j.diagnostics);
  EXPECT_TRUE(j.graph.find("base"));
  EXPECT_EQ(j.kinematics.dofs().size(), 1u);
}

TEST_F(HrdfFormat, ImplicitEndEffectorBefore120) {
  const auto r10 = load(R"~(<robot><actuator type="X5-1"/></robot>)~");
  ASSERT_TRUE(r10.ok()) << test::dump(r10.diagnostics);
  EXPECT_EQ(r10.document.model->readingNotes.at("hrdf.version"), "1.0.0");
  EXPECT_EQ(test::frameLists(*r10.document.model).endEffectorFrames, std::vector<std::string>{"end_effector_1/output"});
  const auto r12 = load(R"~(<robot version="1.2.0"><actuator type="X5-1"/></robot>)~");
  ASSERT_TRUE(r12.ok());
  ASSERT_NE(r12.document.model->extensions.find<interlink::hrdf::FrameLists>(), nullptr);
  EXPECT_TRUE(test::frameLists(*r12.document.model).endEffectorFrames.empty());
}

TEST_F(HrdfFormat, VersionRules) {
  struct Case {
    const char* xml;
    ErrorCode code;
  };
  const Case refused[] = {
      {R"~(<robot version="1.7.0"/>)~", ErrorCode::VERSION_UNSUPPORTED},
      {R"~(<robot version="1.0.0"><actuator type="X5-1" mass_offset="0.1"/></robot>)~", ErrorCode::ATTRIBUTE_INVALID},
      {R"~(<robot version="1.0.0"><rigid-body mass="1" ixx="1"/></robot>)~", ErrorCode::ATTRIBUTE_INVALID},
      {R"~(<robot version="1.1.0"><end-effector/></robot>)~", ErrorCode::ELEMENT_INVALID},
      {R"~(<robot version="1.1.0"><link type="X5" extension="0.1" twist="0" input="Inline"/></robot>)~",
       ErrorCode::ATTRIBUTE_INVALID},
      {R"~(<robot version="1.1.0" description="x"/>)~", ErrorCode::ATTRIBUTE_INVALID},
      {R"~(<robot version="1.1.0"><actuator type="R8-3"/></robot>)~", ErrorCode::VERSION_UNSUPPORTED},
      {R"~(<robot version="1.2.0"><rigid-body mass="1"><output/></rigid-body></robot>)~", ErrorCode::ELEMENT_INVALID},
      {R"~(<robot version="1.2.0"><include path="x.hrdf"/></robot>)~", ErrorCode::ELEMENT_INVALID},
      {R"~(<robot version="1.2.0"><rigid-body mass="1" mesh_path="a.obj"/></robot>)~", ErrorCode::ATTRIBUTE_INVALID},
      {R"~(<robot version="1.3.0"><actuator type="T5-1"/></robot>)~", ErrorCode::VERSION_UNSUPPORTED},
      {R"~(<robot version="1.3.0"><actuator type="X5-1" tag="a"/></robot>)~", ErrorCode::ATTRIBUTE_INVALID},
      {R"~(<robot version="1.4.0"><joint axis="rz" gear_ratio="2"/></robot>)~", ErrorCode::ATTRIBUTE_INVALID},
      {R"~(<robot version="1.5.0"><actuator type="R25-8"/></robot>)~", ErrorCode::VERSION_UNSUPPORTED},
      {R"~(<robot version="1.5.0"><link type="R25" extension="0.1" twist="0"/></robot>)~", ErrorCode::VERSION_UNSUPPORTED},
  };
  for (const auto& c : refused) {
    const auto r = load(c.xml);
    EXPECT_FALSE(r.ok()) << c.xml;
    EXPECT_TRUE(has(r, c.code)) << c.xml << "\n" << test::dump(r.diagnostics);
  }
  const char* accepted[] = {
      R"~(<robot version="1.1.0"><actuator type="X5-1" mass_offset="0.1"/></robot>)~",
      R"~(<robot version="1.3.0"><rigid-body mass="1"><output/><output/></rigid-body></robot>)~",
      R"~(<robot version="1.4.0"><actuator type="T5-1" tag="a"/></robot>)~",
      R"~(<robot version="1.5.0"><joint axis="rz" gear_ratio="2"/></robot>)~",
      R"~(<robot version="1.6.0"><actuator type="T25-8"/><link type="R25-R8" extension="0.3" twist="0"/><actuator type="R8-3"/></robot>)~",
  };
  for (const char* xml : accepted) {
    const auto r = load(xml);
    EXPECT_TRUE(r.ok()) << xml << "\n" << test::dump(r.diagnostics);
  }
  // A web URL in a 1.3.0 file's mesh_path (HEBI's own Tready kit): loaded with a warning naming
  // the rule (issue 26; --strict refuses it, tests/compose/LenientLoadingTest.cpp).
  const auto web = load(R"~(<robot version="1.3.0"><rigid-body mass="1" mesh_path="https://x/a.obj"/></robot>)~");
  EXPECT_TRUE(web.ok()) << test::dump(web.diagnostics);
  EXPECT_TRUE(has(web, ErrorCode::DEVIATION_TOLERATED, "hrdf-mesh-path-web-url")) << test::dump(web.diagnostics);
}

TEST_F(HrdfFormat, ApproximateFiguresWarn) {
  const auto r = load(R"~(<robot version="1.6.0"><actuator type="T8-9"/><rigid-body mass="0"/><actuator type="T8-9"/></robot>)~");
  ASSERT_TRUE(r.ok()) << test::dump(r.diagnostics);
  int warnings = 0;
  for (const auto& d : r.diagnostics) warnings += d.code == ErrorCode::HARDWARE_APPROXIMATE;
  EXPECT_EQ(warnings, 1);  // once per type
}

TEST_F(HrdfFormat, GearRatioIsKeptOnTheJoint) {
  const auto r = load(R"~(<robot version="1.5.0"><joint axis="tz" gear_ratio="2*pi"/><rigid-body mass="1"/></robot>)~");
  ASSERT_TRUE(r.ok()) << test::dump(r.diagnostics);
  const auto& joints = r.document.model->joints;
  const auto j = std::find_if(joints.begin(), joints.end(), [](const Joint& x) { return x.name == "joint_1/joint"; });
  ASSERT_NE(j, joints.end());
  EXPECT_DOUBLE_EQ(j->transmissionRatio, 2 * M_PI);
}

// HEBI's semantics: the output moves by q / gear_ratio; the core Kinematics applies the ratio.
TEST_F(HrdfFormat, GearRatioScalesTheMotionInForwardKinematics) {
  const auto r = load(R"~(<robot version="1.5.0"><rigid-body mass="1"/><joint axis="tz" gear_ratio="2"/><rigid-body mass="1"/></robot>)~");
  ASSERT_TRUE(r.ok()) << test::dump(r.diagnostics);
  Diagnostics d;
  const auto poses = r.kinematics.framePoses({1.0}, d);
  ASSERT_TRUE(poses) << test::dump(d);
  const double z = (*poses)[*r.graph.find("joint_1/output")].translation().z();
  EXPECT_NEAR(z, 0.5, 1e-12);
}

TEST_F(HrdfFormat, OverridesAndOffsets) {
  const auto r = load(R"~(<robot version="1.2.0">
  <actuator type="X5-1" mass="1" com_trans="0 0 0.5" ixx="2"/>
  <bracket type="X5LightLeft" mass_offset="0.05" com_trans_offset="0 0 0.01"/>
  <end-effector mass="0.1" com_trans="0 0 0.05" output_trans="0 0 0.1"/>
</robot>)~");
  ASSERT_TRUE(r.ok()) << test::dump(r.diagnostics);
  const auto& links = r.document.model->links;
  auto link = [&](const std::string& n) { return *std::find_if(links.begin(), links.end(), [&](const Link& l) { return l.name == n; }); };
  EXPECT_DOUBLE_EQ(link("actuator_1").inertial.mass, 1);
  EXPECT_TRUE(link("actuator_1").inertial.centerOfMass.translation().isApprox(Vector3(0, 0, 0.5)));
  EXPECT_DOUBLE_EQ(link("actuator_1").inertial.inertia(0, 0), 2);
  EXPECT_NEAR(link("bracket_1").inertial.mass, 0.15, 1e-12);
  EXPECT_TRUE(link("bracket_1").inertial.centerOfMass.translation().isApprox(Vector3(0, 0.0215, 0.03)));
  EXPECT_DOUBLE_EQ(link("end_effector_1").inertial.mass, 0.1);
  for (const char* xml : {R"~(<robot version="1.2.0"><actuator type="X5-1" mass="1" mass_offset="0.1"/></robot>)~",
                          R"~(<robot version="1.2.0"><bracket type="X5LightLeft" com_trans="0 0 0" com_trans_offset="0 0 1"/></robot>)~"}) {
    const auto bad = load(xml);
    EXPECT_FALSE(bad.ok()) << xml;
    EXPECT_TRUE(has(bad, ErrorCode::ATTRIBUTE_INVALID, "both")) << test::dump(bad.diagnostics);
  }
}

TEST_F(HrdfFormat, OutputsOfRigidBodiesAndBrackets) {
  const auto r = load(R"~(<robot version="1.3.0">
  <rigid-body mass="0.5" com_trans="0.25 0 0" output_rot="Rx(pi)">
    <output rot="Rx(pi/4)" trans="0.5 0 0"/>
    <output trans="1.5 0 0"/>
    <output/>
  </rigid-body>
</robot>)~");
  ASSERT_TRUE(r.ok()) << test::dump(r.diagnostics);
  const auto o1 = r.graph.pose("rigid_body_1/output_1", "rigid_body_1");
  const auto o2 = r.graph.pose("rigid_body_1/output_2", "rigid_body_1");
  const auto o3 = r.graph.pose("rigid_body_1/output_3", "rigid_body_1");
  ASSERT_TRUE(o1 && o2 && o3);
  EXPECT_TRUE(o1->linear().isApprox(Eigen::AngleAxisd(M_PI / 4, Vector3::UnitX()).toRotationMatrix()));
  EXPECT_TRUE(o2->linear().isApprox(Eigen::AngleAxisd(M_PI, Vector3::UnitX()).toRotationMatrix()));  // inherited
  EXPECT_TRUE(o2->translation().isApprox(Vector3(1.5, 0, 0)));
  EXPECT_TRUE(o3->translation().isApprox(Vector3::Zero()));

  const char* refused[] = {
      // a single-output bracket with two outputs
      R"~(<robot version="1.3.0"><bracket type="X5LightLeft"><output/><output/></bracket></robot>)~",
      // rot/trans are fixed on a bracket's outputs
      R"~(<robot version="1.3.0"><bracket type="X5LightLeft"><output trans="1 0 0"/></bracket></robot>)~",
      // outputs only under rigid bodies and brackets
      R"~(<robot version="1.3.0"><actuator type="X5-1"><output/></actuator></robot>)~",
      // output 1 is taken by the <output> chain: a following sibling has nowhere to go
      R"~(<robot version="1.3.0"><rigid-body mass="1"><output><rigid-body mass="1"/></output></rigid-body><rigid-body mass="1"/></robot>)~",
  };
  for (const char* xml : refused) {
    const auto bad = load(xml);
    EXPECT_FALSE(bad.ok()) << xml;
  }
}

TEST_F(HrdfFormat, TagsAreGloballyUnique) {
  const auto r = load(R"~(<robot version="1.4.0"><actuator type="X5-1" tag="a"/><rigid-body mass="1"><output><actuator type="X5-1" tag="a"/></output></rigid-body></robot>)~");
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(has(r, ErrorCode::DUPLICATE_NAME, "'a'")) << test::dump(r.diagnostics);
  const auto clash = load(R"~(<robot version="1.4.0"><actuator type="X5-1" tag="actuator_2"/><rigid-body mass="0"/><actuator type="X5-1"/></robot>)~");
  EXPECT_FALSE(clash.ok());
  EXPECT_TRUE(has(clash, ErrorCode::DUPLICATE_NAME)) << test::dump(clash.diagnostics);
}

TEST_F(HrdfFormat, StrictnessAndDiagnosticColumns) {
  // Unknown attribute: points at the attribute.
  auto r = load("<robot version=\"1.2.0\">\n  <rigid-body mass=\"0.5\" foo=\"2\"/>\n</robot>");
  ASSERT_FALSE(r.ok());
  auto e = firstError(r);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, ErrorCode::ATTRIBUTE_INVALID);
  EXPECT_EQ(e->where.line, 2);
  EXPECT_EQ(e->where.column, 26);
  // A bad formula: points at the offending character inside the value.
  r = load("<robot version=\"1.2.0\">\n  <link type=\"X5\" extension=\"2 pi\" twist=\"0\"/>\n</robot>");
  ASSERT_FALSE(r.ok());
  e = firstError(r);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, ErrorCode::VALUE_INVALID);
  EXPECT_EQ(e->where.line, 2);
  EXPECT_EQ(e->where.column, 32);  // the 'p' of "2 pi"
  EXPECT_NE(e->message.find("extension"), std::string::npos);
  // Element names are case-sensitive; children of an actuator are refused (HEBI ignores them).
  r = load(R"~(<robot version="1.2.0"><Actuator type="X5-1"/></robot>)~");
  EXPECT_TRUE(has(r, ErrorCode::ELEMENT_INVALID, "case-sensitive"));
  // All errors are reported, not only the first.
  r = load(R"~(<robot version="1.2.0"><rigid-body mass="x" com_trans="1/2 0 0" output_rot="rx(1)"/></robot>)~");
  EXPECT_EQ(r.diagnostics.errorCount(), 3u) << test::dump(r.diagnostics);
  // Translation vectors take plain numbers only (HEBI reads "1/2 0 0" as (1, 0, 0)).
  r = load(R"~(<robot version="1.2.0"><rigid-body mass="1" com_trans="1/2 0 0"/></robot>)~");
  EXPECT_FALSE(r.ok());
  // Whitespace inside Rx ( ... ) is allowed (HEBI refuses it).
  r = load(R"~(<robot version="1.2.0"><rigid-body mass="1" output_rot="Rx ( pi / 2 )"/></robot>)~");
  EXPECT_TRUE(r.ok()) << test::dump(r.diagnostics);
  // Text content and children where the spec allows none.
  r = load(R"~(<robot version="1.3.0"><rigid-body mass="1">heavy</rigid-body></robot>)~");
  EXPECT_TRUE(has(r, ErrorCode::ELEMENT_INVALID, "text")) << test::dump(r.diagnostics);
  r = load(R"~(<robot version="1.3.0"><include path="x.hrdf"><actuator type="X5-1"/></include></robot>)~");
  EXPECT_TRUE(has(r, ErrorCode::ELEMENT_INVALID, "no child")) << test::dump(r.diagnostics);
  // mesh_rot without mesh_path
  r = load(R"~(<robot version="1.3.0"><rigid-body mass="1" mesh_rot="Rx(1)"/></robot>)~");
  EXPECT_TRUE(has(r, ErrorCode::ATTRIBUTE_INVALID, "mesh_path"));
}

TEST_F(HrdfFormat, InterfacesMustMate) {
  const auto r = load(R"~(<robot version="1.2.0"><actuator type="X5-1"/><link type="R8" extension="0.3" twist="0"/></robot>)~");
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(has(r, ErrorCode::INTERFACE_MISMATCH, "X-AO-A")) << test::dump(r.diagnostics);
  // rigid bodies and joints mate with anything
  const auto ok = load(R"~(<robot version="1.2.0"><actuator type="X5-1"/><rigid-body mass="1"/><actuator type="R8-3"/><joint axis="rx"/><link type="X5" extension="0.1" twist="0"/></robot>)~");
  EXPECT_TRUE(ok.ok()) << test::dump(ok.diagnostics);
  // nothing follows an end effector
  const auto after = load(R"~(<robot version="1.2.0"><end-effector/><actuator type="X5-1"/></robot>)~");
  EXPECT_FALSE(after.ok());
}

TEST_F(HrdfFormat, UnknownTypeNamesTheKnownFamilies) {
  const auto r = load(R"~(<robot version="1.6.0"><actuator type="ACME-7"/></robot>)~");
  EXPECT_FALSE(r.ok());
  const auto e = firstError(r);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, ErrorCode::HARDWARE_UNKNOWN);
  for (const char* family : {"hebi_x", "hebi_r", "hebi_t"}) EXPECT_NE(e->message.find(family), std::string::npos) << e->message;
}

TEST_F(HrdfFormat, Includes) {
  dir_.write("parts/leg.hrdf", R"~(<robot version="1.4.0"><actuator type="X5-1"/><include path="../common/foot.hrdf"/></robot>)~");
  dir_.write("common/foot.hrdf", R"~(<robot version="1.4.0" rot="Rx(1)"><link type="X5" extension="0.1" twist="0"/></robot>)~");
  const auto r = load(R"~(<robot version="1.4.0"><rigid-body mass="1"><output><include path="parts/leg.hrdf"/></output><output><include path="./parts/leg.hrdf"/><end-effector/></output></rigid-body></robot>)~",
                      "inc.hrdf");
  ASSERT_TRUE(r.ok()) << test::dump(r.diagnostics);
  EXPECT_EQ(r.kinematics.dofs().size(), 2u);
  EXPECT_TRUE(r.graph.find("link_2/output"));  // counted where included
  EXPECT_EQ(test::frameLists(*r.document.model).endEffectorFrames, std::vector<std::string>{"end_effector_1/output"});

  auto bad = load(R"~(<robot version="1.4.0"><include path="missing.hrdf"/></robot>)~", "m.hrdf");
  EXPECT_TRUE(has(bad, ErrorCode::URI_LOOKUP, "missing.hrdf"));
  bad = load(R"~(<robot version="1.4.0"><include path="/etc/x.hrdf"/></robot>)~", "abs.hrdf");
  EXPECT_TRUE(has(bad, ErrorCode::URI_INVALID));
  dir_.write("old.hrdf", R"~(<robot version="1.3.0"><actuator type="X5-1"/></robot>)~");
  bad = load(R"~(<robot version="1.4.0"><include path="old.hrdf"/></robot>)~", "v.hrdf");
  EXPECT_TRUE(has(bad, ErrorCode::VERSION_UNSUPPORTED, "same version"));
  dir_.write("cycle_b.hrdf", R"~(<robot version="1.4.0"><include path="cycle_a.hrdf"/></robot>)~");
  bad = load(R"~(<robot version="1.4.0"><include path="cycle_b.hrdf"/></robot>)~", "cycle_a.hrdf");
  EXPECT_TRUE(has(bad, ErrorCode::INCLUDE_CYCLE)) << test::dump(bad.diagnostics);
  // An error inside an included file points into that file.
  dir_.write("broken.hrdf", "<robot version=\"1.4.0\">\n<link type=\"X5\" extension=\"1 +\" twist=\"0\"/></robot>");
  bad = load(R"~(<robot version="1.4.0"><include path="broken.hrdf"/></robot>)~", "b.hrdf");
  const auto e = firstError(bad);
  ASSERT_TRUE(e);
  EXPECT_NE(e->where.file.str().find("broken.hrdf"), std::string::npos);
  EXPECT_EQ(e->where.line, 2);
}

TEST_F(HrdfFormat, MeshesBecomeVisuals) {
  dir_.write("meshes/body.obj", "v 0 0 0\n");
  const auto r = load(R"~(<robot version="1.4.0"><rigid-body mass="1" mesh_path="meshes/body.obj" mesh_trans="0 0 1"/><rigid-body mass="1" mesh_path="https://files.hebi.us/a.obj"/><rigid-body mass="0" mesh_path=""/></robot>)~");
  ASSERT_TRUE(r.ok()) << test::dump(r.diagnostics);
  const auto& links = r.document.model->links;
  ASSERT_EQ(links[0].visuals.size(), 1u);
  EXPECT_EQ(links[0].visuals[0].geometry.type, GeometryType::Mesh);
  EXPECT_FALSE(links[0].visuals[0].geometry.meshResolvedPath.empty());
  EXPECT_TRUE(links[0].visuals[0].pose.pose.translation().isApprox(Vector3(0, 0, 1)));
  EXPECT_EQ(links[1].visuals.at(0).geometry.meshUri, "https://files.hebi.us/a.obj");
  EXPECT_TRUE(links[2].visuals.empty());
}

TEST_F(HrdfFormat, CliPrintsTheFrames) {
  const auto path = dir_.write("cli.hrdf", R"~(<robot version="1.2.0"><actuator type="X5-1"/><end-effector/></robot>)~");
  const auto out = test::run(test::cliPath() + " frames " + path + " --positions 0.5");
  EXPECT_EQ(out.exitCode, 0) << out.output;
  EXPECT_NE(out.output.find("end_effector_1/output"), std::string::npos) << out.output;
}

}  // namespace
