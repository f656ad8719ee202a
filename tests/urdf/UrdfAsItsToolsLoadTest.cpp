// Issue 26, items 3 to 5: URDF files load as urdfdom (check_urdf) and KDL load them.
//  3. Links and joints are separate namespaces: a joint may share its parent's name (ANYmal C,
//     pybullet's minitaur, Kinova Gen3 lite); references are compared by frame, never by name.
//     SDFormat 1.10 to 1.12 are SDFormat >= 1.7 (one namespace), not "1.1" (issue 30).
//  4. "world" is always a frame; an unknown frame name gets a "did you mean".
//  5. What urdfdom logs and loads is loaded with a warning naming the rule; --strict refuses it.
// Files are written as ROS packages lay them out (pkg/urdf/robot.urdf); check_urdf (liburdfdom-tools)
// is the reference for what loads.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "Scratch.hpp"
#include "SharedLoader.hpp"
#include "TestSupport.hpp"
#include "UrdfText.hpp"
#include "interlink/Loader.hpp"
#include "interlink/ModelQuery.hpp"
#include "interlink/PoseMath.hpp"

namespace interlink {
namespace {

const Loader& loader() { return test::sharedLoader(); }

/// check_urdf's exit status on `file` (urdfdom 3.0, the reference).
int checkUrdf(const std::string& file) { return test::run("check_urdf '" + file + "' >/dev/null").exitCode; }

// --- item 3 -------------------------------------------------------------------------------------

/// A leg whose joints are named like their parent links, as ANYmal's hip and knee drives are.
const std::string kLegNamedLikeParents = R"(<?xml version="1.0"?>
<robot name="leg">
  <link name="base"/>
  <link name="HAA"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="thigh"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="base_to_HAA" type="fixed"><parent link="base"/><child link="HAA"/><origin xyz="0.3 0.1 0"/></joint>
)" + test::urdfRevoluteJoint("HAA", "HAA", "thigh", {"0.05 0 0", "0 0 0.3", "1 0 0"}) +
                                           "</robot>\n";

TEST(UrdfNamespaces, JointNamedLikeItsParentLinkLoadsAsUrdfdomLoadsIt) {
  test::Scratch scratch;
  const std::string file = scratch.write("leg_description/urdf/leg.urdf", kLegNamedLikeParents);
  ASSERT_EQ(checkUrdf(file), 0);
  const LoadResult result = loader().loadFile(file);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  EXPECT_FALSE(result.diagnostics.contains(ErrorCode::POSE_RELATIVE_TO_CYCLE)) << test::dump(result.diagnostics);
  ASSERT_EQ(result.kinematics.dofs().size(), 1u);
  EXPECT_EQ(result.kinematics.dofs()[0].name, "HAA");
  // At q = 0.7 the thigh turns about the joint's x axis, in the joint frame placed in link HAA.
  Diagnostics diagnostics;
  const ModelQuery query(result);
  const auto pose = query.pose("thigh", {0.7}, "", diagnostics);
  ASSERT_TRUE(pose.has_value()) << test::dump(diagnostics);
  const Pose expected = poseFromXyzRpy(0.3, 0.1, 0, 0, 0, 0) * poseFromXyzRpy(0.05, 0, 0, 0, 0, 0.3) *
                        poseFromXyzRpy(0, 0, 0, 0.7, 0, 0);
  EXPECT_LE((pose->matrix() - expected.matrix()).cwiseAbs().maxCoeff(), 1e-12) << pose->matrix();
  // The link keeps the name; the joint's frame is found by the joint, whatever it is called.
  const auto link = result.graph.find("HAA");
  ASSERT_TRUE(link.has_value());
  EXPECT_EQ(result.graph.frames()[*link].kind, FrameKind::Link);
}

TEST(UrdfNamespaces, AnymalCLoadsWithEveryJointNamedLikeItsParent) {
  // The public file (BSD-3-Clause, tests/data/anymal_c_simple_description); KDL and MuJoCo
  // agree with it at non-zero configurations in urdf_fk_differential_test (anymal_c).
  const std::string file = test::sourceDir() + "/tests/data/anymal_c_simple_description/urdf/anymal.urdf";
  ASSERT_EQ(checkUrdf(file), 0);
  const LoadResult result = loader().loadFile(file);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  EXPECT_EQ(result.kinematics.dofs().size(), 12u);
  for (const Diagnostic& d : result.diagnostics) {
    EXPECT_EQ(d.message.find("names itself"), std::string::npos) << d.format();
  }
}

const std::string kGen3LitePackage = test::sourceDir() + "/tests/data/ros_kortex/kortex_description";
const std::string kGen3Lite = "arms/gen3_lite/6dof/urdf/GEN3-LITE.urdf";  // in kGen3LitePackage

TEST(UrdfNamespaces, PublicFilesWithJointsNamedLikeLinksLoadAsUrdfdomLoadsThem) {
  // pybullet's quadrupeds hold each motor link by a fixed joint of the link's name; Kinova's Gen3
  // lite names its last joint like its parent link (origins and licences in tests/data/*/README.md).
  // KDL and MuJoCo agree with them at non-zero configurations in urdf_fk_differential_test.
  const struct {
    std::string file;
    std::size_t dofs;
    const char* sharedName;
  } files[] = {{test::sourceDir() + "/tests/data/bullet3/quadruped/minitaur.urdf", 16, "motor_front_leftL_link"},
               {test::sourceDir() + "/tests/data/bullet3/quadruped/quadruped.urdf", 16, "motor_front_leftL_link"},
               {kGen3LitePackage + "/" + kGen3Lite, 6, "END_EFFECTOR"}};
  for (const auto& f : files) {
    ASSERT_EQ(checkUrdf(f.file), 0) << f.file;
    const LoadResult result = loader().loadFile(f.file);
    ASSERT_TRUE(result.ok()) << f.file << "\n" << test::dump(result.diagnostics);
    EXPECT_EQ(result.kinematics.dofs().size(), f.dofs) << f.file;
    const auto link = result.graph.find(f.sharedName);
    ASSERT_TRUE(link.has_value()) << f.file;
    EXPECT_EQ(result.graph.frames()[*link].kind, FrameKind::Link) << f.file;
    const Joint* joint = nullptr;
    for (const Joint& j : result.document.model->joints) {
      if (j.name == f.sharedName) joint = &j;
    }
    ASSERT_NE(joint, nullptr) << f.file;
    const auto frame = result.graph.frameOf(*joint);
    ASSERT_TRUE(frame.has_value()) << f.file;
    const FrameInfo& info = result.graph.frames()[*frame];
    EXPECT_EQ(info.kind, FrameKind::Joint);
    EXPECT_EQ(info.shownName(), f.sharedName);  // its own name beside its kind
    EXPECT_EQ(info.name, std::string(f.sharedName) + "_joint");  // the graph's one namespace
    EXPECT_EQ(result.graph.find(info.name), frame);
  }
}

TEST(UrdfNamespaces, JointNamedLikeALinkKeepsItsNameInEveryOutputThatShowsTheKind) {
  // Kinova's Gen3 lite, run in its package as a user does: joint END_EFFECTOR (fixed, 0.13 m
  // along z) joins link END_EFFECTOR to DUMMY.
  const std::string cli = "cd '" + kGen3LitePackage + "' && '" + test::cliPath() + "' ";
  const std::string positions = " --positions J0=0.3,J1=-0.4,J2=0.5,J3=0.2,J4=-0.7,J5=1.1";

  // frames --json: the joint's entry is named END_EFFECTOR with kind "joint", and "frame" gives
  // the name --frame takes; no entry is named END_EFFECTOR_joint.
  test::CommandResult run = test::run(cli + "frames --json " + kGen3Lite + positions);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find(R"({"name":"END_EFFECTOR","kind":"link")"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find(R"({"name":"END_EFFECTOR","kind":"joint","frame":"END_EFFECTOR_joint")"), std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find(R"("name":"END_EFFECTOR_joint")"), std::string::npos) << run.output;

  // frames (text): the kind column tells them apart; a comment names the frame to ask for.
  run = test::run(cli + "frames " + kGen3Lite + positions);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("\nEND_EFFECTOR  joint  "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("\nEND_EFFECTOR  link  "), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("END_EFFECTOR_joint  joint"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("END_EFFECTOR=END_EFFECTOR_joint"), std::string::npos) << run.output;
  // The joint frame is DUMMY's pose (a fixed joint at the child's origin), whatever q is.
  const test::CommandResult jointFrame =
      test::run(cli + "frames " + kGen3Lite + positions + " --frame END_EFFECTOR_joint --relative-to DUMMY");
  ASSERT_EQ(jointFrame.exitCode, 0) << jointFrame.output;
  const std::size_t line = jointFrame.output.find("\nEND_EFFECTOR  joint  ");
  ASSERT_NE(line, std::string::npos) << jointFrame.output;
  std::istringstream numbers(jointFrame.output.substr(line + std::string("\nEND_EFFECTOR  joint  ").size()));
  double xyzWxyz[7] = {};
  for (double& value : xyzWxyz) numbers >> value;
  ASSERT_FALSE(numbers.fail()) << jointFrame.output;
  for (int k : {0, 1, 2, 4, 5, 6}) EXPECT_NEAR(xyzWxyz[k], 0.0, 1e-12) << jointFrame.output;
  EXPECT_NEAR(std::abs(xyzWxyz[3]), 1.0, 1e-12) << jointFrame.output;

  // graph: the joint's node is labelled END_EFFECTOR, "fixed joint".
  run = test::run(cli + "graph " + kGen3Lite);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("label=\"END_EFFECTOR\\nfixed joint\""), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("END_EFFECTOR_joint"), std::string::npos) << run.output;

  // tree: joints are named by their own names.
  run = test::run(cli + "tree " + kGen3Lite);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("DUMMY  (fixed joint 'END_EFFECTOR')"), std::string::npos) << run.output;

  // convert: URDF and MJCF keep two namespaces and the name; SDFormat 1.9 has one, so the joint is
  // written as END_EFFECTOR_joint with a warning (libsdformat 12 keeps the URDF's name and
  // refuses the model: "Joint with non-unique name [END_EFFECTOR]").
  const std::string out = test::makeTempDir("interlink-shared-names");
  ASSERT_FALSE(out.empty());
  run = test::run(cli + "convert " + kGen3Lite + " -o '" + out + "/gen3_lite.sdf'");
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("warning[DUPLICATE_NAME]: joint 'END_EFFECTOR' is named like a link"), std::string::npos)
      << run.output;
  EXPECT_NE(test::readFile(out + "/gen3_lite.sdf").find("<joint name=\"END_EFFECTOR_joint\" type=\"fixed\""),
            std::string::npos);
  run = test::run(cli + "convert " + kGen3Lite + " -o '" + out + "/gen3_lite.urdf'");
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(test::readFile(out + "/gen3_lite.urdf").find("<joint name=\"END_EFFECTOR\" type=\"fixed\""),
            std::string::npos);
}

TEST(UrdfNamespaces, SdformatOneTenIsAfterOneNineNotOneOne) {
  // Issue 30: "1.10" was read as 1.1, so 1.10-1.12 files got SDFormat 1.6's separate namespaces.
  // The plugin declares each version's rules (FormatRules), its version as numbers.
  for (const char* written : {"1.6", "1.7", "1.9", "1.10", "1.11", "1.12"}) {
    const std::string version = written;
    const LoadResult loaded = loader().loadString(
        "<sdf version=\"" + version + "\"><model name=\"m\"><link name=\"a\"/></model></sdf>", "v.sdf");
    ASSERT_TRUE(loaded.ok()) << version << test::dump(loaded.diagnostics);
    const FormatRules& rules = loaded.document.rules;
    EXPECT_EQ(rules.versionMajor, 1u) << version;
    EXPECT_EQ(std::to_string(rules.versionMinor), version.substr(2)) << version;
    EXPECT_EQ(rules.jointsShareLinkNamespace, version != "1.6") << version;
    EXPECT_EQ(rules.worldFramesShareModelNamespace, version != "1.6" && version != "1.7") << version;
    ASSERT_TRUE(loaded.document.model.has_value());
    EXPECT_EQ(loaded.document.model->source.rules.jointsShareLinkNamespace, rules.jointsShareLinkNamespace) << version;
  }
  // A 1.10 model whose joint shares a link's name: one namespace (DUPLICATE_NAME, as libsdformat
  // 12 says for >= 1.7); in 1.6 the joint's frame is renamed and the model loads.
  const auto model = [](const std::string& version) {
    return "<sdf version=\"" + version + R"("><model name="m">
  <link name="a"/><link name="b"/>
  <joint name="b" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>
</model></sdf>)";
  };
  const LoadResult old = loader().loadString(model("1.6"), "old.sdf");
  EXPECT_TRUE(old.ok()) << test::dump(old.diagnostics);
  const LoadResult ten = loader().loadString(model("1.10"), "ten.sdf");
  EXPECT_TRUE(ten.diagnostics.contains(ErrorCode::DUPLICATE_NAME)) << test::dump(ten.diagnostics);
}

// --- item 4 -------------------------------------------------------------------------------------

TEST(WorldFrame, WorldIsAlwaysAddressableAndUnknownNamesGetASuggestion) {
  test::Scratch scratch;
  const std::string file = scratch.write("leg_description/urdf/leg.urdf", kLegNamedLikeParents);
  const LoadResult result = loader().loadFile(file);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  ASSERT_TRUE(result.graph.find("world").has_value());
  Diagnostics diagnostics;
  const ModelQuery query(result);
  const auto inWorld = query.pose("thigh", {0.4}, "world", diagnostics);
  const auto inRoot = query.pose("thigh", {0.4}, "", diagnostics);
  ASSERT_TRUE(inWorld && inRoot) << test::dump(diagnostics);
  EXPECT_LE((inWorld->matrix() - inRoot->matrix()).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_FALSE(query.pose("thigh", {0.4}, "thihg", diagnostics).has_value());
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_NE(diagnostics.items().back().message.find("did you mean 'thigh'"), std::string::npos)
      << diagnostics.items().back().message;

  // The CLI, in the package as a user runs it.
  const std::string package = scratch.path("leg_description");
  test::CommandResult cli =
      test::run("cd '" + package + "' && '" + test::cliPath() + "' frames urdf/leg.urdf --relative-to world --positions 0.4");
  EXPECT_EQ(cli.exitCode, 0) << cli.output;
  cli = test::run("cd '" + package + "' && '" + test::cliPath() + "' frames urdf/leg.urdf --relative-to bse");
  EXPECT_EQ(cli.exitCode, 2) << cli.output;
  EXPECT_NE(cli.output.find("did you mean 'base'"), std::string::npos) << cli.output;
}

TEST(WorldFrame, UrdfWorldRootLinkIsTheWorld) {
  const LoadResult result = loader().loadString(R"(<robot name="r">
  <link name="world"/><link name="base"/>
  <joint name="fix" type="fixed"><parent link="world"/><child link="base"/><origin xyz="0 0 1"/></joint>
</robot>)", "r.urdf");
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const auto pose = result.graph.pose("base", "world");
  ASSERT_TRUE(pose.has_value());
  EXPECT_NEAR(pose->translation().z(), 1.0, 1e-15);
}

// --- item 5 -------------------------------------------------------------------------------------

struct Lenient {
  const char* rule;
  const char* link;  // the link's content
};

const Lenient kLenient[] = {
    {"urdf-inertia-attributes", R"(<inertial><mass value="2"/><inertia ixx="1" iyy="2" izz="3"/></inertial>)"},
    {"urdf-inertial-inertia", R"(<inertial><mass value="2"/></inertial>)"},
    {"urdf-known-geometry", R"(<visual><geometry><plane normal="0 0 1"/></geometry></visual>)"},
    {"urdf-shape-geometry", R"(<visual><origin xyz="0 0 1"/></visual>)"},
    {"urdf-geometry-one-shape", R"(<collision><geometry><box size="1 1 1"/><material name="red"/></geometry></collision>)"},
};

std::string robotWith(const std::string& linkContent, const std::string& robotName = "r") {
  return "<robot name=\"" + robotName + "\">\n  <link name=\"base\"/>\n  <link name=\"tool\">" + linkContent +
         "</link>\n  <joint name=\"j\" type=\"revolute\"><parent link=\"base\"/><child link=\"tool\"/>"
         "<axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n</robot>\n";
}

TEST(UrdfLeniency, WhatCheckUrdfLoadsLoadsWithAWarningNamingTheRuleAndStrictRefusesIt) {
  test::Scratch scratch;
  std::vector<std::pair<std::string, std::string>> files;  // rule, path
  for (const Lenient& c : kLenient) {
    files.emplace_back(c.rule, scratch.write(std::string("pkg/urdf/") + c.rule + ".urdf", robotWith(c.link)));
  }
  files.emplace_back("urdf-robot-name", scratch.write("pkg/urdf/empty-name.urdf", robotWith("", "")));
  LoadOptions strict;
  strict.strict = true;
  for (const auto& [rule, file] : files) {
    EXPECT_EQ(checkUrdf(file), 0) << rule << ": the reference refuses it";
    const LoadResult result = loader().loadFile(file);
    EXPECT_TRUE(result.ok()) << rule << "\n" << test::dump(result.diagnostics);
    EXPECT_EQ(result.kinematics.dofs().size(), 1u) << rule;
    const Diagnostic* warning = nullptr;
    for (const Diagnostic& d : result.diagnostics) {
      if (d.code == ErrorCode::DEVIATION_TOLERATED) warning = &d;
    }
    ASSERT_NE(warning, nullptr) << rule << "\n" << test::dump(result.diagnostics);
    EXPECT_EQ(warning->severity, Severity::Warning);
    EXPECT_NE(warning->message.find("rule " + rule), std::string::npos) << warning->message;
    EXPECT_GT(warning->where.line, 0) << rule;  // located
    const LoadResult refused = loader().loadFile(file, strict);
    EXPECT_FALSE(refused.ok()) << rule << " under --strict\n" << test::dump(refused.diagnostics);
  }
  // The CLI: exit 0 by default, 1 under --strict.
  EXPECT_EQ(test::run("'" + test::cliPath() + "' check '" + files.front().second + "'").exitCode, 0);
  EXPECT_EQ(test::run("'" + test::cliPath() + "' check --strict '" + files.front().second + "'").exitCode, 1);
}

TEST(UrdfLeniency, TakenAsUrdfdomTakesIt) {
  // urdfdom 3.0: an inertial it cannot read keeps its mass with zero moments, and the link's
  // later visuals and collisions are not read; a shape it cannot read is dropped, with those after it.
  const LoadResult result = loader().loadString(
      robotWith(R"(<inertial><mass value="2"/><inertia ixx="1" iyy="2" izz="3"/></inertial>
      <visual><geometry><sphere radius="1"/></geometry></visual>)"),
      "r.urdf");
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const Link& tool = result.document.model->links[1];
  EXPECT_DOUBLE_EQ(tool.inertial.mass, 2.0);
  EXPECT_TRUE(tool.inertial.inertia.isZero());
  EXPECT_TRUE(tool.visuals.empty());
  const LoadResult shapes = loader().loadString(
      robotWith(R"(<collision><geometry><box size="1 2 3"/><material name="red"/></geometry></collision>
      <collision><geometry><plane/></geometry></collision>
      <collision><geometry><sphere radius="1"/></geometry></collision>)"),
      "r.urdf");
  ASSERT_TRUE(shapes.ok()) << test::dump(shapes.diagnostics);
  const Link& boxed = shapes.document.model->links[1];
  ASSERT_EQ(boxed.collisions.size(), 1u);
  EXPECT_EQ(boxed.collisions[0].geometry.type, GeometryType::Box);
}

}  // namespace
}  // namespace interlink
