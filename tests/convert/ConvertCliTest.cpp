// `interlink convert` as a user runs it: exit codes, the three output formats, refusals.
#include <gtest/gtest.h>

#include <jansson.h>

#include <fstream>
#include <sstream>
#include <vector>

#include <boost/filesystem.hpp>

#include "TestSupport.hpp"

namespace interlink {
namespace {

namespace fs = boost::filesystem;

const std::string kDemoArm = test::sourceDir() + "/tests/urdf/data/demo_arm.urdf";
const std::string kPackages = test::sourceDir() + "/tests/urdf/data/packages";
const std::string kWorkcell = test::sourceDir() + "/samples/models/workcell.sdf";

test::CommandResult cli(const std::string& args) { return test::run(test::cliPath() + " " + args); }

std::string tempDir() {
  static const std::string dir = test::makeTempDir("interlink-convert");
  return dir;
}

using test::readFile;

TEST(ConvertCli, HelpAndUsageErrors) {
  auto help = cli("convert --help");
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_NE(help.output.find("usage: interlink convert"), std::string::npos) << help.output;
  EXPECT_NE(cli("--help").output.find("convert IN -o OUT"), std::string::npos);

  EXPECT_EQ(cli("convert").exitCode, 2);
  EXPECT_EQ(cli("convert " + kDemoArm).exitCode, 2);  // no -o
  EXPECT_EQ(cli("convert " + kDemoArm + " -o").exitCode, 2);
  EXPECT_EQ(cli("convert " + kDemoArm + " -o " + tempDir() + "/x.obj").exitCode, 2);
  EXPECT_EQ(cli("convert " + kDemoArm + " --bogus -o " + tempDir() + "/x.sdf").exitCode, 2);
  EXPECT_EQ(cli("convert " + kDemoArm + " " + kWorkcell + " -o " + tempDir() + "/x.sdf").exitCode, 2);
  EXPECT_EQ(cli("convert " + tempDir() + "/missing.urdf -o " + tempDir() + "/x.sdf").exitCode, 2);
  EXPECT_EQ(cli("convert " + kDemoArm + " -o /nonexistent-dir/x.sdf -I " + kPackages).exitCode, 2);
}

TEST(ConvertCli, InvalidInputExitsOneAndWritesNothing) {
  const std::string broken = tempDir() + "/broken.urdf";
  std::ofstream(broken) << "<robot name=\"r\">\n  <link name=\"a\"/>\n  <joint name=\"j\" type=\"hinge\"/>\n</robot>\n";
  const std::string output = tempDir() + "/broken.sdf";
  auto result = cli("convert " + broken + " -o " + output);
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_NE(result.output.find("broken.urdf:3:"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("ATTRIBUTE_INVALID"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(output));
}

TEST(ConvertCli, UrdfToSdformatAndBack) {
  const std::string sdf = tempDir() + "/demo_arm.sdf";
  auto toSdf = cli("convert " + kDemoArm + " -o " + sdf + " -I " + kPackages);
  ASSERT_EQ(toSdf.exitCode, 0) << toSdf.output;
  const std::string text = readFile(sdf);
  EXPECT_NE(text.find("<sdf version=\"1.9\""), std::string::npos);
  EXPECT_NE(text.find("<joint name=\"shoulder\" type=\"revolute\">"), std::string::npos) << text;
  EXPECT_NE(text.find("interlink:mimic joint=\"finger_left_joint\""), std::string::npos) << text;
  // The floating and planar joints have no SDFormat 1.9 type: a warning says what became of them.
  EXPECT_NE(toSdf.output.find("no free joint"), std::string::npos) << toSdf.output;
  // The output names the meshes where the package keeps them: that tree is a root of the path policy.
  auto check = cli("check " + sdf + " -I " + kPackages);
  EXPECT_EQ(check.exitCode, 0) << check.output;

  const std::string urdf = tempDir() + "/demo_arm_again.urdf";
  auto toUrdf = cli("convert " + kDemoArm + " -o " + urdf + " -I " + kPackages);
  ASSERT_EQ(toUrdf.exitCode, 0) << toUrdf.output;
  auto checkUrdf = test::run("check_urdf " + urdf);
  EXPECT_EQ(checkUrdf.exitCode, 0) << checkUrdf.output;
  const std::string written = readFile(urdf);
  EXPECT_NE(written.find("<mimic joint=\"finger_left_joint\""), std::string::npos) << written;
  EXPECT_NE(written.find("type=\"floating\""), std::string::npos) << written;
  EXPECT_NE(written.find("type=\"planar\""), std::string::npos) << written;
  EXPECT_NE(written.find("rgba=\"1 0.5 0 1\""), std::string::npos) << written;
}

TEST(ConvertCli, NestedModelsFlattenIntoUrdfWithScopedNames) {
  const std::string urdf = tempDir() + "/workcell.urdf";
  auto result = cli("convert " + kWorkcell + " -o " + urdf);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  const std::string text = readFile(urdf);
  EXPECT_NE(text.find("<link name=\"left_arm__base\""), std::string::npos) << text;
  EXPECT_NE(text.find("<joint name=\"left_arm__shoulder\" type=\"revolute\""), std::string::npos) << text;
  // An explicit frame is a massless link on a fixed joint.
  EXPECT_NE(text.find("<link name=\"left_arm__tool\"/>"), std::string::npos) << text;
  EXPECT_NE(text.find("<joint name=\"left_arm__tool__frame_joint\" type=\"fixed\""), std::string::npos) << text;
  auto check = test::run("check_urdf " + urdf);
  EXPECT_EQ(check.exitCode, 0) << check.output;
}

TEST(ConvertCli, LoopsAreRefusedForUrdfNamingTheLoopJoints) {
  const std::string input = test::vendored("shift/klann_linkage/klann_linkage.json");
  const std::string output = tempDir() + "/klann.urdf";
  auto result = cli("convert " + input + " -o " + output);
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_NE(result.output.find("KINEMATIC_LOOP"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("closed by the joints '"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(output));
  // The same mechanism converts to SDFormat, which can hold loops.
  auto sdf = cli("convert " + input + " -o " + tempDir() + "/klann.sdf");
  EXPECT_EQ(sdf.exitCode, 0) << sdf.output;
}

TEST(ConvertCli, JsonHoldsTheCoreModelAndTheResolvedFrames) {
  const std::string output = tempDir() + "/demo_arm.json";
  auto result = cli("convert " + kDemoArm + " -o " + output + " -I " + kPackages);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  json_error_t error;
  json_t* root = json_load_file(output.c_str(), 0, &error);
  ASSERT_NE(root, nullptr) << error.text << " line " << error.line;
  EXPECT_EQ(json_integer_value(json_object_get(root, "interlink_model")), 1);
  json_t* document = json_object_get(root, "document");
  EXPECT_STREQ(json_string_value(json_object_get(document, "format")), "urdf");
  json_t* model = json_object_get(document, "model");
  EXPECT_STREQ(json_string_value(json_object_get(model, "name")), "demo_arm");
  EXPECT_EQ(json_array_size(json_object_get(model, "links")), 9u);
  json_t* joints = json_object_get(model, "joints");
  ASSERT_EQ(json_array_size(joints), 8u);
  bool sawMimic = false;
  for (std::size_t i = 0; i < json_array_size(joints); ++i) {
    json_t* joint = json_array_get(joints, i);
    json_t* mimic = json_object_get(joint, "mimic");
    if (json_is_object(mimic)) {
      sawMimic = true;
      EXPECT_STREQ(json_string_value(json_object_get(mimic, "joint")), "finger_left_joint");
      EXPECT_DOUBLE_EQ(json_real_value(json_object_get(mimic, "offset")), 0.001);
    }
    if (std::string(json_string_value(json_object_get(joint, "name"))) == "elbow") {
      // A continuous joint has no position limits: infinite is written as null.
      json_t* axis = json_array_get(json_object_get(joint, "axes"), 0);
      EXPECT_TRUE(json_is_null(json_object_get(axis, "upper")));
      EXPECT_DOUBLE_EQ(json_number_value(json_object_get(axis, "effort")), 20);
    }
  }
  EXPECT_TRUE(sawMimic);
  json_t* resolved = json_object_get(root, "resolved");
  EXPECT_EQ(json_array_size(json_object_get(resolved, "frames")), 18u);  // root + 9 links + 8 joints
  EXPECT_EQ(json_array_size(json_object_get(resolved, "dofs")), 14u);
  json_decref(root);
}

TEST(ConvertCli, WhatTheTargetCannotHoldIsOneWarningPerKind) {
  // Four Juice dolls: 36 capsule visuals and 36 capsule collisions (URDF has no capsules) and 20
  // ball joints (written as three continuous joints each) when written as URDF: three kinds.
  const std::string dolls = test::vendored("juice/models/fourdolls.jm");
  const std::string output = tempDir() + "/fourdolls.urdf";
  auto count = [](const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
  };
  auto grouped = cli("convert " + dolls + " -o " + output);
  ASSERT_EQ(grouped.exitCode, 0) << grouped.output;
  EXPECT_EQ(count(grouped.output, "URDF has no capsule geometry; visual"), 1u) << grouped.output;
  EXPECT_EQ(count(grouped.output, "URDF has no capsule geometry; collision"), 1u) << grouped.output;
  EXPECT_EQ(count(grouped.output, "URDF has no ball joint"), 1u) << grouped.output;
  EXPECT_EQ(count(grouped.output, "[and 35 more like it: "), 2u) << grouped.output;
  EXPECT_NE(grouped.output.find("[and 19 more like it: "), std::string::npos) << grouped.output;
  EXPECT_NE(grouped.output.find("] (--verbose lists every one)"), std::string::npos) << grouped.output;

  auto every = cli("convert -v " + dolls + " -o " + output);
  ASSERT_EQ(every.exitCode, 0) << every.output;
  EXPECT_EQ(count(every.output, "URDF has no capsule geometry; visual"), 36u) << every.output;
  EXPECT_EQ(count(every.output, "URDF has no capsule geometry; collision"), 36u) << every.output;
  EXPECT_EQ(count(every.output, "URDF has no ball joint"), 20u) << every.output;
  EXPECT_EQ(every.output.find("more like it"), std::string::npos) << every.output;
}

// Every element the target cannot hold is reported at convert time, one warning per kind, for
// every writer: sensors, plugins and lights kept from SDFormat, world settings, nested model frames.
TEST(ConvertCli, DroppedNonKinematicElementsAreReportedForEveryWriter) {
  const std::string input = tempDir() + "/kept_world.sdf";
  std::ofstream(input) << R"(<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <gravity>0 0 -9.8</gravity>
    <light name="sun" type="directional"><direction>0 0 -1</direction></light>
    <plugin name="physics_system" filename="libphysics.so"/>
    <plugin name="sensors_system" filename="libsensors.so"/>
    <model name="robot">
      <link name="base">
        <sensor name="imu_a" type="imu"/>
        <sensor name="imu_b" type="imu"/>
        <light name="lamp" type="point"/>
      </link>
      <plugin name="controller" filename="libcontroller.so"/>
      <model name="tool"><link name="tip"><pose>0 0 1 0 0 0</pose></link></model>
      <joint name="mount" type="fixed"><parent>base</parent><child>tool::tip</child></joint>
    </model>
  </world>
</sdf>
)";
  auto count = [](const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
  };
  struct Expectation {
    std::string extension;
    std::vector<std::string> once;     // each reported exactly once (grouped)
    std::vector<std::string> never;
  };
  const std::vector<Expectation> writers = {
      {"urdf",
       {"URDF has no place for <sensor> elements", "URDF has no place for <plugin> elements",
        "URDF has no place for lights in models: light 'lamp'", "URDF has no place for lights in worlds: light 'sun'",
        "URDF has no place for world gravity and physics: those of world 'w'",
        "URDF has no place for model frames: nested model 'tool'"},
       {}},
      {"mjcf",
       {"MJCF has no place for <sensor> elements", "MJCF has no place for <plugin> elements",
        "MJCF has no place for lights in models: light 'lamp'", "MJCF has no place for lights in worlds: light 'sun'",
        "MJCF has no place for world physics: the physics of world 'w'"},
       {"model frames", "world gravity"}},
      {"sdf", {"SDFormat 1.9 has no place for lights in models: light 'lamp'"}, {"has no place for <sensor>", "has no place for <plugin>", "lights in worlds", "world gravity"}},
      {"json", {}, {"cannot hold"}},
  };
  // Converts `file` with every writer of `expected` and checks the warnings each prints.
  auto expectWarnings = [&count](const std::string& file, const std::vector<Expectation>& expected) {
    for (const Expectation& writer : expected) {
      auto result = cli("convert " + file + " -o " + file + ".out." + writer.extension);
      ASSERT_EQ(result.exitCode, 0) << writer.extension << "\n" << result.output;
      for (const std::string& message : writer.once) {
        EXPECT_EQ(count(result.output, message), 1u) << writer.extension << ": " << message << "\n" << result.output;
      }
      for (const std::string& message : writer.never) {
        EXPECT_EQ(count(result.output, message), 0u) << writer.extension << ": " << message << "\n" << result.output;
      }
    }
  };
  expectWarnings(input, writers);
  // MJCF holds the world's gravity in <option>.
  EXPECT_NE(readFile(input + ".out.mjcf").find("<option gravity=\"0 0 -9.8\"/>"), std::string::npos)
      << readFile(input + ".out.mjcf");
  // Link flags, joint springs and initial positions away from zero, where the target has no place.
  const std::string flags = tempDir() + "/flags.sdf";
  std::ofstream(flags) << R"(<?xml version="1.0"?>
<sdf version="1.9"><model name="m">
  <link name="a"><gravity>false</gravity><self_collide>true</self_collide></link><link name="b"/>
  <joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz>
    <initial_position>0.3</initial_position><dynamics><spring_stiffness>5</spring_stiffness></dynamics></axis></joint>
</model></sdf>
)";
  const std::vector<Expectation> flagWriters = {
      {"urdf",
       {"URDF has no place for links without gravity: link 'm::a'", "URDF has no place for self-colliding links: link 'm::a'",
        "URDF has no place for joint springs: joint 'm::j'", "URDF has no place for joint initial positions: joint 'm::j'"},
       {}},
      {"mjcf",
       {"MJCF has no place for links without gravity", "MJCF has no place for joint initial positions"},
       {"joint springs"}},
      {"sdf", {"SDFormat 1.9 has no place for joint initial positions"}, {"without gravity", "self-colliding", "joint springs"}},
  };
  expectWarnings(flags, flagWriters);
  // The two sensors and the three plugins are one line each, naming them.
  auto urdf = cli("convert " + input + " -o " + tempDir() + "/kept_world_out.urdf");
  EXPECT_NE(urdf.output.find("imu_b"), std::string::npos) << urdf.output;
  auto every = cli("convert -v " + input + " -o " + tempDir() + "/kept_world_out.urdf");
  EXPECT_EQ(count(every.output, "URDF has no place for <sensor> elements"), 2u) << every.output;
  EXPECT_EQ(count(every.output, "URDF has no place for <plugin> elements"), 3u) << every.output;
}

// Model and world parameters: each writer writes those its target has a place for (MJCF's one
// gravity) and reports the others, one warning per kind; notes of the reading (source versions,
// units, angle conventions) are not content and are never reported. Real files of each format
// that keeps parameters: Juice, HRDF, Shift, MJCF, and the JSON core model written from Juice.
TEST(ConvertCli, ModelAndWorldParametersAreWrittenOrReported) {
  auto count = [](const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
  };
  struct Case {
    std::string input, extension;
    std::vector<std::string> once;   // each printed exactly once (grouped)
    std::vector<std::string> never;
    std::vector<std::string> written;  // in the output file
    std::size_t parameters;            // "parameter '" lines with -v
  };
  const std::string bug = test::vendored("juice/models/Bug.jm");  // Gravity 50, Friction 100, ERP, CFM, ...
  const std::string juiceNotes[] = {"juice.file_version", "juice.gravity_source", "juice.Gravity"};
  const std::string bugJson = tempDir() + "/Bug.json";
  const std::string daisy = test::vendored("hrdf/hebi_description/config/daisy/hrdf/Daisy.hrdf");
  const std::string pendulum = test::vendored("shift/pendulum/pendulum.json");
  const std::string hello = test::sourceDir() + "/tests/data/mujoco/doc/_static/hello.xml";
  std::vector<Case> cases;
  for (const std::string extension : {"urdf", "sdf", "mjcf"}) {
    const std::string format = extension == "urdf" ? "URDF" : extension == "sdf" ? "SDFormat 1.9" : "MJCF";
    Case juice{bug, extension, {format + " has no place for model parameters: parameter 'juice.CFM' of model 'Bug'"}, {}, {}, 7};
    if (extension == "mjcf") {
      juice.never.push_back("model gravity");
      juice.written.push_back("<option gravity=\"0 0 -50\"/>");
    } else {
      juice.once.push_back(format + " has no place for model gravity: the gravity of model 'Bug'");
    }
    for (const std::string& note : juiceNotes) juice.never.push_back("'" + note + "'");
    cases.push_back(juice);
    // The JSON core model keeps the parameters, and reading it back gives the same verdicts.
    Case json = juice;
    json.input = bugJson;
    cases.push_back(json);
    cases.push_back({daisy, extension,
                     {format + " has no place for model parameters: parameter 'hrdf.description' of model 'Daisy'"},
                     {"'hrdf.version'"}, {}, 1});
    // Read into the world's gravity and physics, so not parameters: gravity, the integrator, the
    // solver's numbers. The solver's type and the logger are content.
    Case shift{pendulum, extension,
               {format + " has no place for world parameters: parameter 'shift.loggers[0].csv_logfile' of world 'pendulum'"},
               {"model parameters", "'shift.version'", "'shift.units.", "'shift.gravity[", "'shift.integrators[",
                "'shift.solvers[0].infinity_norm_multiplier'", "'shift.include_directories["},
               {},
               4};
    if (extension == "mjcf") shift.written.push_back("<option gravity=\"0 0 9.81\"/>");
    if (extension == "sdf") shift.written.push_back("<gravity>0 0 9.81</gravity>");
    cases.push_back(shift);
    cases.push_back({hello, extension, {}, {"'mjcf.angle'", "'mjcf.eulerseq'", "parameters"}, {}, 0});
  }
  auto toJson = cli("convert " + bug + " -o " + bugJson);
  ASSERT_EQ(toJson.exitCode, 0) << toJson.output;
  EXPECT_EQ(toJson.output.find("cannot hold"), std::string::npos) << toJson.output;
  EXPECT_NE(readFile(bugJson).find("\"juice.Friction\": \"100\""), std::string::npos) << readFile(bugJson);
  // Juice's gravity is the model's typed gravity; how it was read is a note, not a parameter.
  EXPECT_NE(readFile(bugJson).find("\"gravity\": [0, 0, -50]"), std::string::npos) << readFile(bugJson);
  EXPECT_NE(readFile(bugJson).find("\"juice.gravity_source\": \"file\""), std::string::npos) << readFile(bugJson);
  EXPECT_EQ(readFile(bugJson).find("\"juice.Gravity\""), std::string::npos) << readFile(bugJson);
  for (const Case& c : cases) {
    const std::string output = tempDir() + "/parameters." + fs::path(c.input).filename().string() + "." + c.extension;
    const std::string what = c.input + " -> " + c.extension;
    auto grouped = cli("convert " + c.input + " -o " + output);
    if (grouped.exitCode != 0) {
      // URDF cannot hold the loops of some mechanisms; the warnings are still printed first.
      EXPECT_NE(grouped.output.find("KINEMATIC_LOOP"), std::string::npos) << what << "\n" << grouped.output;
    }
    for (const std::string& message : c.once)
      EXPECT_EQ(count(grouped.output, message), 1u) << what << ": " << message << "\n" << grouped.output;
    for (const std::string& message : c.never)
      EXPECT_EQ(count(grouped.output, message), 0u) << what << ": " << message << "\n" << grouped.output;
    for (const std::string& text : c.written)
      EXPECT_NE(readFile(output).find(text), std::string::npos) << what << ": " << text << "\n" << readFile(output);
    auto every = cli("convert -v " + c.input + " -o " + output);
    EXPECT_EQ(count(every.output, "parameter '"), c.parameters) << what << "\n" << every.output;
    if (c.input == pendulum) {
      EXPECT_EQ(count(every.output, "parameter 'shift.solvers[0].type'"), 1u) << every.output;
    }
  }
}

}  // namespace
}  // namespace interlink
