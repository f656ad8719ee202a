// Issue 26, items 1 and 2: files laid out as real projects lay them out load as their own tools
// load them. A ROS package keeps its URDF in pkg/urdf/ and its meshes in pkg/meshes/ (named
// `../meshes/x.stl` or `package://pkg/meshes/x.stl`); an HRDF file includes `../robot_parts/...`
// as the HRDF document's own example does. Paths are followed by default; confinement
// (LoadOptions::confineToRoots, --confine) is a host's choice, said once per load. A mesh that
// cannot be read never blocks kinematics.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "Scratch.hpp"
#include "SharedLoader.hpp"
#include "TestSupport.hpp"
#include "UrdfText.hpp"
#include "interlink/Loader.hpp"

namespace interlink {
namespace {

const Loader& loader() { return test::sharedLoader(); }

/// A one-triangle ASCII STL: enough for every mesh reader.
const char* const kStl =
    "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";

/// pkg/urdf/robot.urdf of a two-link arm whose meshes are in pkg/meshes/ (one by `..`, one by
/// package://, one broken, one missing), as ROS packages ship them.
std::string writeRosPackage(const test::Scratch& scratch) {
  scratch.write("ws/pkg/meshes/base.stl", kStl);
  scratch.write("ws/pkg/meshes/arm.stl", kStl);
  scratch.write("ws/pkg/meshes/broken.stl", "solid t\nfacet normal banana\n");
  scratch.write("ws/pkg/package.xml", "<package format=\"3\"><name>pkg</name></package>\n");
  return scratch.write("ws/pkg/urdf/robot.urdf", R"(<?xml version="1.0"?>
<robot name="arm">
  <link name="base">
    <visual><geometry><mesh filename="../meshes/base.stl"/></geometry></visual>
    <collision><geometry><mesh filename="../meshes/broken.stl"/></geometry></collision>
  </link>
  <link name="upper">
    <inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
    <visual><geometry><mesh filename="package://pkg/meshes/arm.stl"/></geometry></visual>
    <collision><geometry><mesh filename="../meshes/missing.stl"/></geometry></collision>
  </link>
)" + test::urdfRevoluteJoint("shoulder", "base", "upper", {"0 0 0.5", "0 0 0", "0 1 0"}) +
                                               "</robot>\n");
}

std::size_t countCode(const Diagnostics& diagnostics, ErrorCode code) {
  std::size_t n = 0;
  for (const Diagnostic& d : diagnostics) n += d.code == code ? 1 : 0;
  return n;
}

const Shape& visualOf(const LoadResult& result, const std::string& link) {
  for (const Link& l : result.document.model->links) {
    if (l.name == link) return l.visuals.front();
  }
  throw std::runtime_error("no link " + link);
}

TEST(RealLayout, RosPackageMeshesNextDoorAreFollowedByDefault) {
  test::Scratch scratch;
  const std::string urdf = writeRosPackage(scratch);
  LoadOptions options;
  options.packagePaths = {scratch.path("ws")};
  const LoadResult result = loader().loadFile(urdf, options);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  EXPECT_EQ(countCode(result.diagnostics, ErrorCode::PATH_OUTSIDE_ROOTS), 0u) << test::dump(result.diagnostics);
  EXPECT_EQ(visualOf(result, "base").geometry.meshResolvedPath, scratch.path("ws/pkg/meshes/base.stl"));
  EXPECT_EQ(visualOf(result, "upper").geometry.meshResolvedPath, scratch.path("ws/pkg/meshes/arm.stl"));
  // The missing mesh is a warning that says what was searched; kinematics is complete.
  EXPECT_EQ(countCode(result.diagnostics, ErrorCode::URI_LOOKUP), 1u) << test::dump(result.diagnostics);
  EXPECT_EQ(result.kinematics.dofs().size(), 1u);
}

TEST(RealLayout, ConfinedLoadRefusesMeshesOnceWithACountAndStillResolvesKinematics) {
  test::Scratch scratch;
  const std::string urdf = writeRosPackage(scratch);
  LoadOptions options;
  options.confineToRoots = true;  // roots: pkg/urdf (the file's directory) only
  const LoadResult result = loader().loadFile(urdf, options);
  // Meshes never block kinematics: the refusals are warnings, the model loads.
  EXPECT_TRUE(result.ok()) << test::dump(result.diagnostics);
  ASSERT_EQ(countCode(result.diagnostics, ErrorCode::PATH_OUTSIDE_ROOTS), 1u) << test::dump(result.diagnostics);
  const Diagnostic* refusal = nullptr;
  for (const Diagnostic& d : result.diagnostics) {
    if (d.code == ErrorCode::PATH_OUTSIDE_ROOTS) refusal = &d;
  }
  EXPECT_EQ(refusal->severity, Severity::Warning);
  // base.stl and broken.stl (`..`): both refused, said once with a count.
  EXPECT_NE(refusal->message.find("1 more like it"), std::string::npos) << refusal->message;
  EXPECT_NE(refusal->message.find("LoadOptions::confineToRoots"), std::string::npos) << refusal->message;
  // Short: the file, the roots, the option (the scratch directory's long name aside).
  std::string words = refusal->message;
  for (std::size_t at = words.find(scratch.dir().string()); at != std::string::npos; at = words.find(scratch.dir().string())) {
    words.erase(at, scratch.dir().string().size());
  }
  EXPECT_LT(words.size(), 260u) << refusal->message;
  EXPECT_TRUE(visualOf(result, "base").geometry.meshResolvedPath.empty());
  EXPECT_EQ(result.kinematics.dofs().size(), 1u);

  // The package's directory as a resource path makes the meshes readable again.
  options.resourcePaths = {scratch.path("ws/pkg")};
  const LoadResult widened = loader().loadFile(urdf, options);
  EXPECT_EQ(countCode(widened.diagnostics, ErrorCode::PATH_OUTSIDE_ROOTS), 0u) << test::dump(widened.diagnostics);
  EXPECT_EQ(visualOf(widened, "base").geometry.meshResolvedPath, scratch.path("ws/pkg/meshes/base.stl"));
}

TEST(RealLayout, ConfinedTextModelHasOnlyItsResourcePathsAsRoots) {
  test::Scratch scratch;
  scratch.write("project/meshes/part.stl", kStl);
  const std::string text = R"(<robot name="r"><link name="a">
    <visual><geometry><mesh filename="meshes/part.stl"/></geometry></visual></link></robot>)";
  const std::string fileName = scratch.path("project/robot.urdf");  // text, not a file
  // Unconfined: the relative mesh is read beside the name the text was given.
  const LoadResult open = loader().loadString(text, fileName);
  ASSERT_TRUE(open.ok()) << test::dump(open.diagnostics);
  EXPECT_EQ(visualOf(open, "a").geometry.meshResolvedPath, scratch.path("project/meshes/part.stl"));
  // Confined: a text has no directory of its own (never the working directory).
  LoadOptions confined;
  confined.confineToRoots = true;
  const LoadResult refused = loader().loadString(text, fileName, confined);
  EXPECT_EQ(countCode(refused.diagnostics, ErrorCode::PATH_OUTSIDE_ROOTS), 1u) << test::dump(refused.diagnostics);
  confined.resourcePaths = {scratch.path("project")};
  const LoadResult allowed = loader().loadString(text, fileName, confined);
  EXPECT_EQ(countCode(allowed.diagnostics, ErrorCode::PATH_OUTSIDE_ROOTS), 0u) << test::dump(allowed.diagnostics);
}

TEST(RealLayout, HrdfDocumentIncludeExampleUpADirectory) {
  // The HRDF document's own example: "../robot_parts/left_arm.hrdf" (".." moves up a directory).
  test::Scratch scratch;
  scratch.write("robots/robot_parts/left_arm.hrdf", R"(<robot version="1.6.0"><rigid-body mass="1"/><joint axis="rz"/><rigid-body mass="1"/></robot>)");
  const std::string top = scratch.write("robots/my_robot/robot.hrdf",
                                        "<robot version=\"1.6.0\">\n  <include path=\"../robot_parts/left_arm.hrdf\"/>\n</robot>\n");
  const LoadResult result = loader().loadFile(top);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  EXPECT_EQ(result.kinematics.dofs().size(), 1u);
  LoadOptions confined;
  confined.confineToRoots = true;
  const LoadResult refused = loader().loadFile(top, confined);
  EXPECT_FALSE(refused.ok());  // an include is needed: its refusal is an error
  EXPECT_EQ(countCode(refused.diagnostics, ErrorCode::PATH_OUTSIDE_ROOTS), 1u) << test::dump(refused.diagnostics);
}

/// `interlink ARGS` in `directory`.
test::CommandResult cli(const std::string& directory, const std::string& arguments) {
  return test::run("cd '" + directory + "' && '" + test::cliPath() + "' " + arguments);
}

TEST(RealLayout, EveryCommandLoadsARosPackageAndConfineIsOnEveryCommand) {
  test::Scratch scratch;
  writeRosPackage(scratch);
  const std::string pkg = scratch.path("ws/pkg");
  for (const std::string& command : {std::string("check urdf/robot.urdf"), std::string("tree urdf/robot.urdf"),
                                     std::string("frames urdf/robot.urdf --positions 0.3"),
                                     std::string("graph urdf/robot.urdf -o robot.dot"),
                                     std::string("convert urdf/robot.urdf -o robot.sdf")}) {
    const test::CommandResult open = cli(pkg, command);
    EXPECT_EQ(open.exitCode, 0) << command << "\n" << open.output;
    EXPECT_EQ(open.output.find("PATH_OUTSIDE_ROOTS"), std::string::npos) << command << "\n" << open.output;
    // Confined, meshes are refused (one warning) and the command still does its work.
    const test::CommandResult confined = cli(pkg, command + " --confine");
    EXPECT_EQ(confined.exitCode, 0) << command << " --confine\n" << confined.output;
    const std::size_t first = confined.output.find("PATH_OUTSIDE_ROOTS");
    EXPECT_NE(first, std::string::npos) << command << " --confine\n" << confined.output;
    EXPECT_EQ(confined.output.find("PATH_OUTSIDE_ROOTS", first + 1), std::string::npos) << confined.output;
  }
}

/// A SKEL world of one skeleton whose body's visual is DART's usual `../obj/NAME` mesh; `moment`
/// gives its moment of inertia (else DART takes it from the shape, the mesh).
std::string skelWorld(bool moment) {
  const std::string inertia = moment ? "<moment_of_inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz><ixy>0</ixy><ixz>0</ixz>"
                                       "<iyz>0</iyz></moment_of_inertia>"
                                     : "";
  return "<?xml version=\"1.0\"?>\n<skel version=\"1.0\">\n<world name=\"w\">\n"
         "<skeleton name=\"s\">\n<body name=\"b\">\n<inertia><mass>1</mass>" + inertia + "</inertia>\n"
         "<visualization_shape><geometry><mesh><file_name>../obj/missing.obj</file_name></mesh></geometry>"
         "</visualization_shape>\n</body>\n"
         "<joint type=\"revolute\" name=\"j\"><parent>world</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>\n"
         "</skeleton>\n</world>\n</skel>\n";
}

TEST(RealLayout, SkelMissingMeshIsAnErrorOnlyWhereTheInertiaNeedsIt) {
  // DART's own SKEL files name meshes in a sibling directory (`../obj/*.obj`); this one is missing.
  test::Scratch scratch;
  scratch.write("data/obj/present.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  const LoadResult visualOnly = loader().loadFile(scratch.write("data/skel/given.skel", skelWorld(true)));
  EXPECT_TRUE(visualOnly.ok()) << test::dump(visualOnly.diagnostics);
  EXPECT_EQ(visualOnly.kinematics.dofs().size(), 1u);
  const LoadResult needed = loader().loadFile(scratch.write("data/skel/from_mesh.skel", skelWorld(false)));
  EXPECT_FALSE(needed.ok()) << test::dump(needed.diagnostics);
  bool named = false;
  for (const Diagnostic& d : needed.diagnostics) {
    named = named || (d.isError() && d.message.find("moment of inertia from mesh") != std::string::npos);
  }
  EXPECT_TRUE(named) << test::dump(needed.diagnostics);
}

// --- item 6: warnings mean something -----------------------------------------------------------

TEST(RealLayout, ValidElementsAreNotWarningsAndMisspeltOnesSuggestTheWord) {
  test::Scratch scratch;
  // Gazebo-style SDFormat: <material> and <sensor> are valid, kept, not interpreted: no warning.
  const std::string sdf = scratch.write("models/cart/model.sdf", R"(<?xml version="1.0"?>
<sdf version="1.9">
  <model name="cart">
    <link name="body">
      <visual name="v"><geometry><box><size>1 1 1</size></box></geometry>
        <material><ambient>1 0 0 1</ambient></material></visual>
      <sensor name="imu" type="imu"/>
    </link>
  </model>
</sdf>
)");
  const LoadResult valid = loader().loadFile(sdf);
  ASSERT_TRUE(valid.ok()) << test::dump(valid.diagnostics);
  for (const Diagnostic& d : valid.diagnostics) EXPECT_NE(d.severity, Severity::Warning) << d.format();
  // The CLI is silent with --werror; --explain lists what is kept.
  const std::string dir = scratch.path("models/cart");
  test::CommandResult cli = test::run("cd '" + dir + "' && '" + test::cliPath() + "' check --werror model.sdf");
  EXPECT_EQ(cli.exitCode, 0) << cli.output;
  EXPECT_EQ(cli.output.find("ELEMENT_UNSUPPORTED"), std::string::npos) << cli.output;
  cli = test::run("cd '" + dir + "' && '" + test::cliPath() + "' check --explain model.sdf");
  EXPECT_EQ(cli.exitCode, 0) << cli.output;
  EXPECT_NE(cli.output.find("note[ELEMENT_UNSUPPORTED]"), std::string::npos) << cli.output;

  // Misspelt URDF words: one warning each, with the word meant.
  const std::string urdf = scratch.write("pkg/urdf/typo.urdf", R"(<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    <orign xyz="0 0 1"/><orign xyz="0 0 2"/>
    <limit lower="-1" uper="1" effort="1" velocity="1"/>
  </joint>
</robot>)");
  const LoadResult typo = loader().loadFile(urdf);
  EXPECT_TRUE(typo.ok()) << test::dump(typo.diagnostics);
  std::size_t origin = 0, upper = 0;
  for (const Diagnostic& d : typo.diagnostics) {
    origin += d.message.find("did you mean 'origin'") != std::string::npos;
    upper += d.message.find("did you mean 'upper'") != std::string::npos;
  }
  EXPECT_EQ(origin, 1u) << test::dump(typo.diagnostics);
  EXPECT_EQ(upper, 1u) << test::dump(typo.diagnostics);
  // SDFormat: the schema's warning says it too.
  const LoadResult sdfTypo = loader().loadString(R"(<sdf version="1.9"><model name="m"><link name="l"><pose>0 0 0 0 0 0</pose>
    <inertail/></link></model></sdf>)", scratch.path("t.sdf"));
  bool suggested = false;
  for (const Diagnostic& d : sdfTypo.diagnostics) suggested |= d.message.find("did you mean 'inertial'") != std::string::npos;
  EXPECT_TRUE(suggested) << test::dump(sdfTypo.diagnostics);
}

// --- item 7: directories of a workspace ---------------------------------------------------------

TEST(RealLayout, WorkspaceDirectorySkipsFilesNoFormatReadsAndHonoursExclude) {
  test::Scratch scratch;
  writeRosPackage(scratch);  // ws/pkg: package.xml, urdf/robot.urdf, meshes
  scratch.write("ws/pkg/launch/display.launch.xml", "<launch><node pkg=\"rviz2\" exec=\"rviz2\"/></launch>\n");
  scratch.write("ws/pkg/build/copy.urdf", "<robot name=\"broken\"><link/></robot>\n");
  const std::string ws = scratch.path("ws");
  test::CommandResult cli = test::run("'" + test::cliPath() + "' check --exclude 'build' -I '" + ws + "' '" + ws + "'");
  EXPECT_EQ(cli.exitCode, 0) << cli.output;
  EXPECT_EQ(cli.output.find("NO_PARSER"), std::string::npos) << cli.output;
  EXPECT_NE(cli.output.find("2 files skipped: no format"), std::string::npos) << cli.output;
  EXPECT_EQ(cli.output.find("copy.urdf"), std::string::npos) << cli.output;
  // A directory with no model file does not pass as "0 files".
  scratch.write("only_docs/package.xml", "<package format=\"3\"><name>x</name></package>\n");
  cli = test::run("'" + test::cliPath() + "' check '" + scratch.path("only_docs") + "'");
  EXPECT_EQ(cli.exitCode, 2) << cli.output;
  EXPECT_NE(cli.output.find("no model file under"), std::string::npos) << cli.output;
}

/// A colcon workspace: src/kortex_description is Kinova's package as it ships (tests/data/ros_kortex:
/// package.xml, a ROS 1 launch file, xacro robots and macro libraries, a plain URDF; meshes left
/// out), src/leg_description ours, laid out as ROS 2 packages are (launch/*.launch.xml, urdf/ with
/// a robot xacro, its macro library and its <gazebo> fragment, meshes/), and colcon's build/.
std::string writeWorkspace(const test::Scratch& scratch) {
  const std::string ws = scratch.path("ws");
  std::filesystem::create_directories(ws + "/src");
  std::filesystem::copy(test::sourceDir() + "/tests/data/ros_kortex/kortex_description", ws + "/src/kortex_description",
                        std::filesystem::copy_options::recursive);
  scratch.write("ws/src/leg_description/package.xml",
                "<?xml version=\"1.0\"?>\n<package format=\"3\"><name>leg_description</name><version>0.1.0</version>"
                "<buildtool_depend>ament_cmake</buildtool_depend><exec_depend>xacro</exec_depend></package>\n");
  scratch.write("ws/src/leg_description/launch/display.launch.xml",
                "<launch>\n  <let name=\"model\" value=\"$(find-pkg-share leg_description)/urdf/leg.urdf.xacro\"/>\n"
                "  <node pkg=\"robot_state_publisher\" exec=\"robot_state_publisher\"/>\n</launch>\n");
  scratch.write("ws/src/leg_description/meshes/hip.stl", kStl);
  scratch.write("ws/src/leg_description/urdf/leg_macro.xacro", R"(<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="hip_offset" value="0.2"/>
  <xacro:macro name="leg" params="prefix parent">
    <link name="${prefix}_hip">
      <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
      <visual><geometry><mesh filename="package://leg_description/meshes/hip.stl"/></geometry></visual>
    </link>
    <joint name="${prefix}_hip" type="revolute">
      <parent link="${parent}"/><child link="${prefix}_hip"/>
      <origin xyz="${hip_offset} 0 0"/><axis xyz="1 0 0"/>
      <limit lower="-1" upper="1" effort="10" velocity="1"/>
    </joint>
  </xacro:macro>
</robot>
)");
  scratch.write("ws/src/leg_description/urdf/leg.gazebo.xacro", R"(<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <gazebo reference="base"><material>Gazebo/Grey</material></gazebo>
  <gazebo><plugin name="joint_state" filename="libgazebo_ros_joint_state_publisher.so"/></gazebo>
</robot>
)");
  scratch.write("ws/src/leg_description/urdf/leg.urdf.xacro", R"(<?xml version="1.0"?>
<robot name="leg" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="$(find leg_description)/urdf/leg_macro.xacro"/>
  <xacro:include filename="leg.gazebo.xacro"/>
  <link name="base"/>
  <xacro:leg prefix="front" parent="base"/>
</robot>
)");
  scratch.write("ws/build/leg_description/leg.urdf", "<robot name=\"broken\"><link/></robot>\n");
  return ws;
}

TEST(RealLayout, RosWorkspaceWithARealPackageChecksEveryModelFileAndNamesXacroAsXacro) {
  test::Scratch scratch;
  const std::string ws = writeWorkspace(scratch);
  const std::string cli = "env -u ROS_PACKAGE_PATH -u AMENT_PREFIX_PATH '" + test::cliPath() + "' ";
  test::CommandResult run = test::run(cli + "check -v --exclude build -I '" + ws + "/src' '" + ws + "'");
  EXPECT_EQ(run.exitCode, 0) << run.output;
  EXPECT_EQ(run.output.find("NO_PARSER"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("MODEL_WITHOUT_LINK"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("/build/"), std::string::npos) << run.output;
  // Two package.xml and one ROS 2 launch file claimed by their extension, read by nobody: counted.
  // (visualize.launch and CMakeLists.txt have extensions no plugin claims: not model candidates.)
  EXPECT_NE(run.output.find("10 files: 10 valid, 0 invalid"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("3 files skipped: no format"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("leg_description/package.xml: skipped, no format plugin reads it"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("display.launch.xml: skipped, no format plugin reads it"), std::string::npos) << run.output;
  // The robots expand (through $(find ...) and -I) and load; libraries and fragments are named as
  // xacro, with a note (not a warning), rather than "a model without a link".
  EXPECT_NE(run.output.find("leg.urdf.xacro: valid"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("gen3_lite_gen3_lite_2f.xacro: valid"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("leg.gazebo.xacro:2:1: note[EXPANSION_ERROR]: xacro file: it expands to a fragment without a "
                            "<link> (<gazebo>, ...)"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("gen3_lite_macro.xacro:3:1: note[EXPANSION_ERROR]: xacro file: it expands to a library of "
                            "macros"),
            std::string::npos)
      << run.output;
  // The expanded Gen3 lite with its gripper: 6 arm and 4 finger DOFs.
  run = test::run(cli + "tree -I '" + ws + "/src' '" + ws + "/src/kortex_description/robots/gen3_lite_gen3_lite_2f.xacro'");
  EXPECT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("DOF order (10):"), std::string::npos) << run.output;

  // A directory of xacro files only (the gripper's macro libraries) is checked file by file, not
  // passed as "0 files".
  run = test::run(cli + "check '" + ws + "/src/kortex_description/grippers'");
  EXPECT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("2 files: 2 valid, 0 invalid"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("gen3_lite_2f_macro.xacro: valid"), std::string::npos) << run.output;

  // Without the package path the failed include is the one error: the macros it would have
  // defined are not reported again as unknown, and the emptied robot is not a second finding.
  run = test::run(cli + "check '" + ws + "/src/kortex_description/robots/gen3_lite_gen3_lite_2f.xacro'");
  EXPECT_EQ(run.exitCode, 1) << run.output;
  EXPECT_NE(run.output.find("package 'kortex_description' not found"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("unknown macro"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("expands to"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("invalid (1 error)"), std::string::npos) << run.output;
}

// --- item 8: one cause, one error ---------------------------------------------------------------

TEST(RealLayout, FailedIncludeIsOneErrorAndUriMessagesSayWhatToSet) {
  test::Scratch scratch;
  const std::string world = scratch.write("worlds/shapes.sdf", R"(<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <model name="wrapper">
      <include><uri>https://fuel.gazebosim.org/1.0/OpenRobotics/models/Table</uri></include>
    </model>
    <include><uri>model://ground_plane</uri></include>
  </world>
</sdf>
)");
  const LoadResult result = loader().loadFile(world);
  EXPECT_FALSE(result.ok());
  EXPECT_FALSE(result.diagnostics.contains(ErrorCode::MODEL_WITHOUT_LINK)) << test::dump(result.diagnostics);
  std::size_t lookups = 0;
  for (const Diagnostic& d : result.diagnostics) {
    if (d.code != ErrorCode::URI_LOOKUP) continue;
    ++lookups;
    EXPECT_EQ(d.message.find("never fetched"), std::string::npos) << d.message;
    EXPECT_TRUE(d.message.find("never downloads") != std::string::npos ||
                d.message.find("resource paths") != std::string::npos)
        << d.message;
  }
  EXPECT_EQ(lookups, 2u) << test::dump(result.diagnostics);
  // package:// with no package path says what to set.
  const LoadResult mesh = loader().loadString(R"(<robot name="r"><link name="a">
    <visual><geometry><mesh filename="package://nowhere_description/meshes/a.stl"/></geometry></visual></link></robot>)",
                                              scratch.path("r.urdf"));
  bool named = false;
  for (const Diagnostic& d : mesh.diagnostics) named |= d.message.find("set ROS_PACKAGE_PATH") != std::string::npos;
  EXPECT_TRUE(named) << test::dump(mesh.diagnostics);
}

// --- item 9: paths as given ---------------------------------------------------------------------

TEST(RealLayout, DiagnosticsNameFilesAsTheUserDid) {
  test::Scratch scratch;
  writeRosPackage(scratch);
  const std::string pkg = scratch.path("ws/pkg");
  // Relative in, relative out: text, JSON and SARIF (with its base URI).
  test::CommandResult text = cli(pkg, "check urdf/robot.urdf");
  EXPECT_NE(text.output.find("urdf/robot.urdf:"), std::string::npos) << text.output;
  EXPECT_EQ(text.output.find(pkg + "/urdf/robot.urdf:"), std::string::npos) << text.output;
  test::CommandResult json = cli(pkg, "check --format json urdf/robot.urdf");
  EXPECT_NE(json.output.find("\"file\":\"urdf/robot.urdf\""), std::string::npos) << json.output;
  EXPECT_EQ(json.output.find("\"file\":\"" + pkg), std::string::npos) << json.output;
  test::CommandResult sarif = cli(pkg, "check --format sarif urdf/robot.urdf");
  EXPECT_NE(sarif.output.find("{\"uri\":\"urdf/robot.urdf\",\"uriBaseId\":\"SRCROOT\"}"), std::string::npos)
      << sarif.output;
  EXPECT_NE(sarif.output.find("\"originalUriBaseIds\":{\"SRCROOT\":{\"uri\":\"file://"), std::string::npos)
      << sarif.output;
  // Absolute in, absolute out.
  test::CommandResult absolute = cli(pkg, "check '" + pkg + "/urdf/robot.urdf'");
  EXPECT_NE(absolute.output.find(pkg + "/urdf/robot.urdf:"), std::string::npos) << absolute.output;
}

}  // namespace
}  // namespace interlink
