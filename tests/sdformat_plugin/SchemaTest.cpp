// SDFormat 1.0-1.12 with each version's semantics (issue 12 class 4) and the whole schema checked
// from the generated description data (class 9), on files of our own.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "SdfTestSupport.hpp"

namespace interlink::test {
namespace {

std::string document(const std::string& version, const std::string& body) {
  return "<?xml version='1.0'?>\n<sdf version='" + version + "'>\n" + body + "\n</sdf>\n";
}

LoadResult loadText(const std::string& name, const std::string& text) {
  return loadSdf(writeFile(scratchDirectory() / name, text));
}

const Link* findLink(const Model& model, const std::string& name) {
  for (const Link& link : model.links) {
    if (link.name == name) return &link;
  }
  return nullptr;
}

// --- class 4: versions --------------------------------------------------------------------------

TEST(SdformatVersions, Version1_0AttributesAreReadAsThe1_2Elements) {
  // SDFormat 1.0 wrote values as attributes; libsdformat's 1_0.convert rules rename them.
  const LoadResult result = loadText("old.sdf", document("1.0", R"(<model name='m' static='true'>
  <link name='base'>
    <origin pose='1 2 3 0 0 0'/>
    <inertial mass='2'>
      <inertia ixx='0.1' ixy='0' ixz='0' iyy='0.2' iyz='0' izz='0.25'/>
    </inertial>
  </link>
  <link name='arm'><origin pose='0 0 1 0 0 0'/></link>
  <joint name='j' type='revolute'>
    <parent link='base'/>
    <child link='arm'/>
    <axis xyz='0 1 0'><limit lower='-1' upper='1'/></axis>
  </joint>
</model>)"));
  ASSERT_TRUE(result.ok()) << dump(result.diagnostics);
  const Model& model = *result.document.model;
  EXPECT_TRUE(model.isStatic);
  const Link* base = findLink(model, "base");
  ASSERT_NE(base, nullptr);
  EXPECT_TRUE(base->pose.pose.translation().isApprox(Vector3(1, 2, 3)));
  EXPECT_DOUBLE_EQ(base->inertial.mass, 2);
  EXPECT_DOUBLE_EQ(base->inertial.inertia(2, 2), 0.25);
  ASSERT_EQ(model.joints.size(), 1u);
  EXPECT_EQ(model.joints[0].parent, "base");
  EXPECT_EQ(model.joints[0].child, "arm");
  ASSERT_FALSE(model.joints[0].axes.empty());
  EXPECT_TRUE(model.joints[0].axes[0].xyz.isApprox(Vector3(0, 1, 0)));
  EXPECT_DOUBLE_EQ(model.joints[0].axes[0].upper, 1);
  // Written as 1.0 wants it: no schema warning either.
  EXPECT_EQ(countCode(result.diagnostics, ErrorCode::ELEMENT_INCORRECT_TYPE), 0u) << dump(result.diagnostics);
  const auto arm = result.graph.pose("arm", "base");
  ASSERT_TRUE(arm.has_value());
  EXPECT_TRUE(arm->translation().isApprox(Vector3(-1, -2, -2))) << arm->translation().transpose();
}

TEST(SdformatVersions, WorldJointsExistFrom1_10) {
  const std::string world = R"(<world name='w'>
  <model name='a'><link name='l'/></model>
  <model name='b'><pose>1 0 0 0 0 0</pose><link name='l'/></model>
  <joint name='weld' type='fixed'><parent>a::l</parent><child>b::l</child></joint>
</world>)";
  const LoadResult newer = loadText("w110.sdf", document("1.10", world));
  ASSERT_TRUE(newer.ok()) << dump(newer.diagnostics);
  ASSERT_EQ(newer.document.worlds.at(0).joints.size(), 1u);
  EXPECT_EQ(newer.document.worlds[0].joints[0].name, "weld");

  // SDFormat 1.9 has no world-level joint: libsdformat 12.3 copies the element and ignores it.
  const LoadResult older = loadText("w19.sdf", document("1.9", world));
  ASSERT_TRUE(older.ok()) << dump(older.diagnostics);
  EXPECT_TRUE(older.document.worlds.at(0).joints.empty());
  const Diagnostic* unknown = findCode(older.diagnostics, ErrorCode::ELEMENT_INCORRECT_TYPE);
  ASSERT_NE(unknown, nullptr) << dump(older.diagnostics);
  EXPECT_FALSE(unknown->isError());
  EXPECT_NE(unknown->message.find("SDFormat 1.9"), std::string::npos) << unknown->message;
  EXPECT_EQ(unknown->where.line, 6);
}

TEST(SdformatVersions, MimicFrom1_11AndScrewThreadPitchFrom1_10) {
  const std::string model = R"(<model name='m'>
  <link name='a'/><link name='b'/><link name='c'/>
  <joint name='leader' type='revolute'><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>
  <joint name='follower' type='revolute'><parent>b</parent><child>c</child>
    <axis><xyz>0 0 1</xyz>
      <mimic joint='leader' axis='axis'><multiplier>2</multiplier><offset>0.5</offset><reference>0.1</reference></mimic>
    </axis>
  </joint>
  <joint name='screw' type='screw'><parent>a</parent><child>c</child><screw_thread_pitch>0.02</screw_thread_pitch>
    <axis><xyz>1 0 0</xyz></axis></joint>
</model>)";
  const LoadResult result = loadSdf(writeFile(scratchDirectory() / "m.sdf", document("1.11", model)), false);
  ASSERT_FALSE(result.diagnostics.hasErrors()) << dump(result.diagnostics);
  const Model& m = *result.document.model;
  ASSERT_EQ(m.joints.size(), 3u);
  ASSERT_TRUE(m.joints[1].mimic.has_value());
  EXPECT_EQ(m.joints[1].mimic->joint, "leader");
  EXPECT_DOUBLE_EQ(m.joints[1].mimic->multiplier, 2);
  EXPECT_DOUBLE_EQ(m.joints[1].mimic->offset, 0.5 - 2 * 0.1);  // follower = 2 (q - 0.1) + 0.5
  EXPECT_DOUBLE_EQ(m.joints[2].screwThreadPitch, 0.02);

  // In 1.10 <mimic> is not yet part of //axis: warned about and not read.
  const LoadResult older = loadSdf(writeFile(scratchDirectory() / "m110.sdf", document("1.10", model)), false);
  EXPECT_FALSE(older.document.model->joints.at(1).mimic.has_value());
  EXPECT_NE(findCode(older.diagnostics, ErrorCode::ELEMENT_INCORRECT_TYPE), nullptr) << dump(older.diagnostics);
}

TEST(SdformatVersions, EveryPublishedVersionReadsAModelWithASensorAndAVisual) {
  // (1.0 wrote these values as attributes: its own test is above.)
  for (const std::string version :
       {"1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11", "1.12"}) {
    const LoadResult result = loadText("v.sdf", document(version, R"(<model name='m'>
  <link name='l'>
    <visual name='v'><geometry><box><size>1 2 3</size></box></geometry></visual>
    <sensor name='s' type='camera'><update_rate>30</update_rate></sensor>
  </link>
</model>)"));
    EXPECT_TRUE(result.ok()) << version << "\n" << dump(result.diagnostics);
    EXPECT_EQ(countCode(result.diagnostics, ErrorCode::ELEMENT_INCORRECT_TYPE), 0u)
        << version << "\n" << dump(result.diagnostics);
  }
}

// --- class 9: the whole schema --------------------------------------------------------------

struct Violation {
  const char* what;
  const char* version;
  const char* body;  // a <model> document
  ErrorCode code;    // the precise finding
  int line;          // where it is reported
};

constexpr const char* kHead = "<model name='m'><link name='l'>\n";  // line 3 of the document

TEST(SdformatSchema, ViolationsAreReportedWithCodeAndLocation) {
  const std::vector<Violation> violations = {
      {"negative friction", "1.9",
       "<collision name='c'><geometry><sphere><radius>1</radius></sphere></geometry>\n"
       "<surface><friction><ode><mu>-0.5</mu></ode></friction></surface></collision>",
       ErrorCode::VALUE_INVALID, 5},
      {"material script without uri", "1.9",
       "<visual name='v'><geometry><sphere><radius>1</radius></sphere></geometry>\n"
       "<material><script><name>Gazebo/Grey</name></script></material></visual>",
       ErrorCode::ELEMENT_MISSING, 5},
      {"unknown sensor type", "1.9", "\n<sensor name='s' type='laser_pointer'/>", ErrorCode::ATTRIBUTE_INVALID, 5},
      {"sensor without name", "1.12", "\n<sensor type='imu'/>", ErrorCode::ATTRIBUTE_MISSING, 5},
      {"not a bool", "1.6", "\n<sensor name='s' type='imu'><always_on>yes</always_on></sensor>",
       ErrorCode::VALUE_INVALID, 5},
      {"not a number", "1.12", "\n<sensor name='s' type='imu'><update_rate>fast</update_rate></sensor>",
       ErrorCode::VALUE_INVALID, 5},
      {"colour of two numbers", "1.7",
       "<visual name='v'><geometry><sphere><radius>1</radius></sphere></geometry>\n"
       "<material><ambient>1 0</ambient></material></visual>",
       ErrorCode::VALUE_INVALID, 5},
      {"plugin without filename", "1.9", "\n<sensor name='s' type='imu'><plugin name='p'/></sensor>",
       ErrorCode::ATTRIBUTE_MISSING, 5},
  };
  for (const Violation& v : violations) {
    const std::string text = document(v.version, std::string(kHead) + v.body + "\n</link></model>");
    const LoadResult result = loadText("bad.sdf", text);
    EXPECT_FALSE(result.ok()) << v.what << "\n" << text;
    const Diagnostic* found = findCode(result.diagnostics, v.code);
    ASSERT_NE(found, nullptr) << v.what << ": no " << codeName(v.code) << "\n" << dump(result.diagnostics);
    EXPECT_EQ(found->where.line, v.line) << v.what << ": " << found->message;
    EXPECT_GT(found->where.column, 0) << v.what;
    EXPECT_EQ(found->where.file, result.document.sourceFile) << v.what;
  }
}

TEST(SdformatSchema, EveryErrorOfAFileIsReportedNotOnlyTheFirst) {
  const LoadResult result = loadText("many.sdf", document("1.9", std::string(kHead) + R"(
<sensor name='a' type='imu'><update_rate>-</update_rate></sensor>
<sensor name='b' type='warp_drive'/>
<collision name='c'><geometry><sphere><radius>1</radius></sphere></geometry>
  <surface><friction><ode><mu>-1</mu><mu2>-2</mu2></ode></friction></surface></collision>
</link></model>)"));
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(countCode(result.diagnostics, ErrorCode::VALUE_INVALID), 3u) << dump(result.diagnostics);
  EXPECT_EQ(countCode(result.diagnostics, ErrorCode::ATTRIBUTE_INVALID), 1u) << dump(result.diagnostics);
  // libsdformat ends a schema failure with ELEMENT_INVALID and FILE_READ for the document.
  EXPECT_NE(findCode(result.diagnostics, ErrorCode::FILE_READ), nullptr);
}

TEST(SdformatSchema, UnknownElementsAndAttributesWarnAndCustomElementsPassAsLibsdformatDoes) {
  const LoadResult result = loadText("custom.sdf", document("1.9", std::string(kHead) + R"(
<sensr name='typo'/>
<gz:custom xmlns:gz='http://gazebosim.org/schema'><anything/></gz:custom>
<sensor name='s' type='imu' colour='red'><plugin name='p' filename='libp.so'><free_form>1</free_form></plugin></sensor>
</link></model>)"));
  ASSERT_TRUE(result.ok()) << dump(result.diagnostics);
  const Diagnostic* unknownElement = findCode(result.diagnostics, ErrorCode::ELEMENT_INCORRECT_TYPE);
  ASSERT_NE(unknownElement, nullptr) << dump(result.diagnostics);
  EXPECT_NE(unknownElement->message.find("<sensr>"), std::string::npos);
  EXPECT_EQ(unknownElement->where.line, 5);
  EXPECT_EQ(countCode(result.diagnostics, ErrorCode::ELEMENT_INCORRECT_TYPE), 1u) << dump(result.diagnostics);
  const Diagnostic* unknownAttribute = findCode(result.diagnostics, ErrorCode::ATTRIBUTE_INCORRECT_TYPE);
  ASSERT_NE(unknownAttribute, nullptr) << dump(result.diagnostics);
  EXPECT_NE(unknownAttribute->message.find("colour"), std::string::npos);
}

TEST(SdformatSchema, RangesFollowEachVersionsDescription) {
  // //surface/friction/ode/mu got its minimum 0 in the description files; a value in range passes.
  for (const std::string version : {"1.9", "1.12"}) {
    const LoadResult ok = loadText("ok.sdf", document(version, std::string(kHead) +
        "<collision name='c'><geometry><sphere><radius>1</radius></sphere></geometry>"
        "<surface><friction><ode><mu>0</mu></ode></friction></surface></collision></link></model>"));
    EXPECT_TRUE(ok.ok()) << version << "\n" << dump(ok.diagnostics);
  }
}

}  // namespace
}  // namespace interlink::test

namespace interlink::test {
namespace {

// --- the gz-sim corpus: versions newer than libsdformat 12.3 --------------------------------

std::vector<std::string> gzSimFilesFrom1_10() {
  std::vector<std::string> files;
  const std::filesystem::path root = corpus("gazebo/gz-sim");  // the whole collection
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".sdf") continue;
    std::ifstream in(entry.path());
    std::string head(400, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    for (const char* version : {"1.10", "1.11", "1.12"}) {
      if (head.find(std::string("version=\"") + version + "\"") != std::string::npos ||
          head.find(std::string("version='") + version + "'") != std::string::npos) {
        files.push_back(entry.path().string());
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(SdformatVersionsCorpus, GzSimFilesOf1_10To1_12PassTheirOwnSchema) {
  INTERLINK_SKIP_WITHOUT_CORPUS("gazebo");
  const std::vector<std::string> files = gzSimFilesFrom1_10();
  ASSERT_GE(files.size(), 15u) << "the gz-sim corpus lost its newer files";
  for (const std::string& file : files) {
    const LoadResult result = loadSdf(file, false);
    // Problems of the file itself; finding included files (Fuel URLs, model://) is class 6's.
    for (const Diagnostic& d : result.diagnostics) {
      if (!d.isError() || d.where.file != file || d.code == ErrorCode::URI_LOOKUP) continue;
      ADD_FAILURE() << file << ":\n" << dump(result.diagnostics);
      break;
    }
  }
}

TEST(SdformatVersionsCorpus, GzSimWorldJointsAndMimicAreRead) {
  const LoadResult joints = loadSdf(vendored("gazebo/gz-sim/test/worlds/joints_in_world.sdf"));
  ASSERT_TRUE(joints.ok()) << dump(joints.diagnostics);
  const World& world = joints.document.worlds.at(0);
  ASSERT_EQ(world.joints.size(), 2u);
  EXPECT_EQ(world.joints[0].parent, "world");
  EXPECT_EQ(world.joints[1].type, JointType::Revolute);
  // m2 hangs on the revolute joint j1 of the world: at q = 0 it sits where it is written.
  const auto m2 = joints.graph.pose("m2", "m1");
  ASSERT_TRUE(m2.has_value());
  EXPECT_TRUE(m2->translation().isApprox(Vector3(2, 0, 0))) << m2->translation().transpose();

  const LoadResult mimic =
      loadSdf(vendored("gazebo/gz-sim/examples/worlds/mimic_fast_slow_pendulums_world.sdf"), false);
  std::size_t mimics = 0;
  for (const World& w : mimic.document.worlds) {
    for (const Model& model : w.models) {
      for (const Joint& joint : model.joints) mimics += joint.mimic.has_value();
    }
  }
  EXPECT_EQ(mimics, 2u) << dump(mimic.diagnostics);
}

}  // namespace
}  // namespace interlink::test
