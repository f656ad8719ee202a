// MJCF as current MuJoCo reads it (docs/mjcf.md, issue 27): included files with any root
// (<mujocoinclude>), skins kept, several top-level <default> blocks merged, MuJoCo 3 semantics with
// notes naming the release that introduced a feature, and MuJoCo's qpos layout. Each model of our
// own and each public model (tests/data/metaworld, dm_control, unitree) is compared with MuJoCo
// 2.2.2: where 2.2.2 reads the file, poses (at qpos0 and random configurations) and masses must
// agree; where only current MuJoCo reads it, 2.2.2 must refuse it and a copy without the newer
// features must agree with Interlink's reading of the original.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "ModelStaging.hpp"
#include "MujocoOracle.hpp"
#include "TestSupport.hpp"

namespace interlink {
namespace {

namespace fs = std::filesystem;

const std::string kData = test::sourceDir() + "/tests/data";
constexpr int kConfigurations = 8;
constexpr double kTolerance = 1e-9;

/// Every diagnostic of `result` whose severity is `severity` and whose message holds `text`.
std::vector<Diagnostic> findAll(const LoadResult& result, Severity severity, const std::string& text) {
  std::vector<Diagnostic> found;
  for (const Diagnostic& d : result.diagnostics) {
    if (d.severity == severity && d.message.find(text) != std::string::npos) found.push_back(d);
  }
  return found;
}

/// MuJoCo 2.2.2 and Interlink load `path` and agree on every pose and mass.
void expectAgreement(Loader& loader, const std::string& path, bool qposByCore = false, const LoadOptions& options = {}) {
  std::string error;
  test::MujocoModel reference = test::loadMujoco(path, error);
  ASSERT_TRUE(reference) << "MuJoCo 2.2.2 refuses it: " << error;
  LoadResult loaded = loader.loadFile(path, options);
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  test::MujocoDifferential differential(reference.get(), loaded);
  differential.mapQposByCore(qposByCore);
  const test::Comparison result = differential.compare(kConfigurations, kTolerance);
  for (const std::string& failure : result.failures) ADD_FAILURE() << failure;
  EXPECT_GT(result.framesCompared, 0);
}

const Joint* jointNamed(const LoadResult& result, const std::string& name) {
  for (const Joint& j : result.document.model->joints) {
    if (j.name == name) return &j;
  }
  return nullptr;
}

// --- 1 and 3: includes with any root, several top-level <default> blocks --------------------------

TEST(MjcfIncludes, MujocoincludeRootsAndTopLevelDefaultsMergeAsInMujoco) {
  const std::string dir = test::makeTempDir("interlink-mjcf-include");
  ASSERT_FALSE(dir.empty());
  // common.xml sets geom defaults in one top-level <default>, the main file in another: MuJoCo
  // merges both into the class "main", a later attribute over an earlier one.
  std::ofstream(dir + "/common.xml") << R"(<mujocoinclude>
  <default>
    <geom density="2000" type="box"/>
    <joint damping="1"/>
    <default class="heavy"><geom density="8000"/></default>
  </default>
</mujocoinclude>)";
  std::ofstream(dir + "/arm.xml") << R"(<mujocoinclude>
  <body name="upper" pos="0 0 1">
    <joint name="shoulder" axis="0 1 0"/>
    <geom size="0.05 0.05 0.2" pos="0 0 -0.2"/>
    <body name="lower" pos="0 0 -0.4">
      <joint name="elbow" axis="0 1 0"/>
      <geom class="heavy" size="0.04 0.04 0.15" pos="0 0 -0.15"/>
      <geom class="light" type="sphere" size="0.05" pos="0 0 -0.3"/>
    </body>
  </body>
</mujocoinclude>)";
  std::ofstream(dir + "/main.xml") << R"(<mujoco model="merged">
  <include file="common.xml"/>
  <default>
    <geom density="500"/>
    <default class="light"><geom density="100"/></default>
  </default>
  <worldbody>
    <include file="arm.xml"/>
  </worldbody>
</mujoco>)";
  Loader loader;
  expectAgreement(loader, dir + "/main.xml");
  // The box type comes from common.xml, the density from the main file: 0.1 * 0.1 * 0.4 * 500.
  LoadResult loaded = loader.loadFile(dir + "/main.xml");
  ASSERT_TRUE(loaded.ok());
  for (const Link& link : loaded.document.model->links) {
    if (link.name == "upper") {
      EXPECT_NEAR(link.inertial.mass, 0.1 * 0.1 * 0.4 * 500, 1e-12);
    }
  }

  // An included file without any element is refused, as MuJoCo refuses it.
  std::ofstream(dir + "/empty.xml") << "<mujocoinclude/>";
  std::ofstream(dir + "/empty_main.xml") << "<mujoco><include file='empty.xml'/><worldbody/></mujoco>";
  test::expectBothRefuse(loader, dir + "/empty_main.xml");
  fs::remove_all(dir);
}

/// Metaworld's reach scene (tests/data/metaworld): every included file has a <mujocoinclude>
/// root, two of them add top-level <default> blocks and <compiler> elements.
TEST(MjcfIncludes, MetaworldSceneAgreesWithMujoco) {
  const std::string dir = test::makeTempDir("interlink-mjcf-metaworld");
  ASSERT_FALSE(dir.empty());
  fs::copy(kData + "/metaworld", dir, fs::copy_options::recursive);
  const fs::path main = fs::path(dir) / "sawyer_xyz/sawyer_reach_v3.xml";
  std::vector<fs::path> xml;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.path().extension() == ".xml") xml.push_back(entry.path());
  }
  EXPECT_GT(test::writePlaceholders(main, xml), 10);
  Loader loader;
  LoadOptions options;  // the scene includes files beside its own directory, as Metaworld lays them out
  options.resourcePaths = {dir};
  expectAgreement(loader, main.string(), false, options);
  fs::remove_all(dir);
}

// --- 2: skins ---------------------------------------------------------------------------------------

/// A SKN file (MuJoCo's binary skin): a tetrahedron, one bone per body of `bones`, all vertices
/// bound to each with equal weight.
void writeSkn(const std::string& path, const std::vector<std::string>& bones) {
  std::ofstream out(path, std::ios::binary);
  auto put = [&](const auto& value) { out.write(reinterpret_cast<const char*>(&value), sizeof value); };
  const float vertices[] = {0, 0, 0, 0.01f, 0, 0, 0, 0.01f, 0, 0, 0, 0.01f};
  const std::int32_t faces[] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
  for (std::int32_t n : {4, 0, 4, static_cast<std::int32_t>(bones.size())}) put(n);
  for (float v : vertices) put(v);
  for (std::int32_t f : faces) put(f);
  for (const std::string& bone : bones) {
    char name[40] = {};
    bone.copy(name, sizeof name - 1);
    out.write(name, sizeof name);
    for (float v : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f}) put(v);  // bindpos, bindquat
    put(std::int32_t{4});
    for (std::int32_t id : {0, 1, 2, 3}) put(id);
    for (int k = 0; k < 4; ++k) put(1.0f / static_cast<float>(bones.size()));
  }
}

TEST(MjcfSkins, SkinAssetsAreKeptAndTheModelAgreesWithMujoco) {
  const std::string dir = test::makeTempDir("interlink-mjcf-skin");
  ASSERT_FALSE(dir.empty());
  // Ours: an inline skin bound to two bodies.
  std::ofstream(dir + "/inline.xml") << R"(<mujoco>
  <asset>
    <skin name="cover" vertex="0 0 0  0.1 0 0  0 0.1 0  0 0 0.1" face="0 2 1  0 1 3  0 3 2  1 2 3">
      <bone body="a" bindpos="0 0 0" bindquat="1 0 0 0" vertid="0 1 2 3" vertweight="0.5 0.5 0.5 0.5"/>
      <bone body="b" bindpos="0 0 0" bindquat="1 0 0 0" vertid="0 1 2 3" vertweight="0.5 0.5 0.5 0.5"/>
    </skin>
  </asset>
  <worldbody>
    <body name="a" pos="0 0 1"><joint axis="1 0 0"/><geom size="0.1"/>
      <body name="b" pos="0 0 0.3"><joint axis="0 1 0"/><geom size="0.05"/></body>
    </body>
  </worldbody>
</mujoco>)";
  // dm_control's rodent, reduced (tests/data/dm_control): a skin file bound to its bodies.
  fs::copy_file(kData + "/dm_control/rodent_reduced.xml", dir + "/rodent_reduced.xml");
  writeSkn(dir + "/rodent_walker_skin.skn", {"torso", "vertebra_1"});
  Loader loader;
  for (const char* model : {"inline.xml", "rodent_reduced.xml"}) {
    SCOPED_TRACE(model);
    expectAgreement(loader, dir + "/" + model);
    LoadResult loaded = loader.loadFile(dir + "/" + model);
    ASSERT_TRUE(loaded.ok());
    int skins = 0;
    for (const KeptElement& k : loaded.document.model->kept) skins += k.path == "mujoco/asset/skin";
    EXPECT_EQ(skins, 1);
    EXPECT_EQ(findAll(loaded, Severity::Warning, "<skin> is kept as data").size(), 1u) << test::dump(loaded.diagnostics);
  }
  // A missing skin file refuses the model, as in MuJoCo.
  fs::remove(dir + "/rodent_walker_skin.skn");
  test::expectBothRefuse(loader, dir + "/rodent_reduced.xml");
  fs::remove_all(dir);
}

// --- 5: current MuJoCo ------------------------------------------------------------------------------

/// Ours: every MuJoCo 3 feature the reader follows, each with its note. MuJoCo 2.2.2 refuses the
/// file; without the newer features (and with autolimits="true") it loads it, and the poses agree.
TEST(MjcfCurrentMujoco, NewerFeaturesLoadWithNotesNamingTheirRelease) {
  const std::string dir = test::makeTempDir("interlink-mjcf-current");
  ASSERT_FALSE(dir.empty());
  const std::string current = R"(<mujoco model="current">
  <compiler angle="radian"/>
  <option integrator="implicitfast"><flag nativeccd="enable"/></option>
  <worldbody>
    <camera name="eye" pos="0 -2 1" resolution="640 480"/>
    <body name="base" pos="0 0 0.5">
      <joint name="hip" axis="0 1 0" range="-1 1" actuatorfrcrange="-50 50"/>
      <geom name="thigh" type="capsule" size="0.05" fromto="0 0 0 0 0 -0.4"/>
      <body name="shin" pos="0 0 -0.4">
        <joint name="knee" axis="0 1 0" range="-2 0"/>
        <geom name="foot" size="0.06"/>
      </body>
    </body>
  </worldbody>
  <actuator><position name="knee" joint="knee" kp="100" kv="5" ctrlrange="-2 0"/></actuator>
  <sensor><distance geom1="thigh" geom2="foot"/></sensor>
</mujoco>)";
  std::ofstream(dir + "/current.xml") << current;
  std::string error;
  EXPECT_FALSE(test::loadMujoco(dir + "/current.xml", error)) << "MuJoCo 2.2.2 was expected to refuse it";
  Loader loader;
  LoadResult loaded = loader.loadFile(dir + "/current.xml");
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  const std::pair<const char*, const char*> notes[] = {
      {"autolimits", "3.0.0"}, {"implicitfast", "2.3.3"}, {"nativeccd", "3.2.3"}, {"resolution", "3.0.0"},
      {"actuatorfrcrange", "3.0.0"}, {"kv", "3.1.0"}, {"<distance>", "3.1.6"}};
  for (const auto& [feature, release] : notes) {
    const auto found = findAll(loaded, Severity::Note, feature);
    ASSERT_EQ(found.size(), 1u) << feature << "\n" << test::dump(loaded.diagnostics);
    EXPECT_NE(found[0].message.find("MuJoCo " + std::string(release)), std::string::npos) << found[0].format();
    EXPECT_GT(found[0].where.line, 0) << found[0].format();
  }
  // autolimits is true by default: the ranges limit the joints; actuatorfrcrange is the effort limit.
  const Joint* hip = jointNamed(loaded, "hip");
  ASSERT_NE(hip, nullptr);
  EXPECT_EQ(hip->type, JointType::Revolute);
  EXPECT_EQ(hip->axes[0].lower, -1);
  EXPECT_EQ(hip->axes[0].effort, 50);
  EXPECT_EQ(jointNamed(loaded, "knee")->axes[0].upper, 0);

  std::string older = std::regex_replace(current, std::regex(R"( (resolution|actuatorfrcrange|kv)="[^"]*")"), "");
  older = std::regex_replace(older, std::regex(R"(<option.*</option>|<sensor>.*</sensor>)"), "");
  older = std::regex_replace(older, std::regex("<mujoco model=\"current\">"),
                             "<mujoco model=\"current\"><compiler autolimits=\"true\"/>");
  std::ofstream(dir + "/older.xml") << older;
  std::string olderError;
  test::MujocoModel reference = test::loadMujoco(dir + "/older.xml", olderError);
  ASSERT_TRUE(reference) << olderError;
  test::MujocoDifferential differential(reference.get(), loaded);
  const test::Comparison result = differential.compare(kConfigurations, kTolerance);
  for (const std::string& failure : result.failures) ADD_FAILURE() << failure;
  EXPECT_EQ(result.framesCompared, (kConfigurations + 1) * 2);

  // Where the file sets autolimits="false", a range under limited="auto" is an error, as in MuJoCo.
  std::ofstream(dir + "/off.xml") << "<mujoco><compiler autolimits='false'/><worldbody><body><joint range='0 1'/>"
                                     "<geom size='1'/></body></worldbody></mujoco>";
  test::expectBothRefuse(loader, dir + "/off.xml");
  fs::remove_all(dir);
}

/// <frame> (MuJoCo 3.1.0): its pose and childclass apply to what it holds. MuJoCo 2.2.2 has no
/// <frame>; the same model with the frame folded into its children agrees with Interlink.
TEST(MjcfCurrentMujoco, FramesPlaceWhatTheyHold) {
  const std::string dir = test::makeTempDir("interlink-mjcf-frame");
  ASSERT_FALSE(dir.empty());
  const std::string defaults = R"(<compiler angle="degree"/>
  <default><default class="thin"><geom size="0.02 0.2"/></default></default>)";
  std::ofstream(dir + "/frame.xml") << "<mujoco>" << defaults << R"(<worldbody>
    <frame pos="1 0 0" euler="0 0 90" childclass="thin">
      <body name="b" pos="1 0 0"><joint axis="1 0 0"/><geom type="capsule"/><site name="s" pos="0 0 0.1"/></body>
      <geom type="cylinder" pos="0 0 1"/>
    </frame>
  </worldbody></mujoco>)";
  std::ofstream(dir + "/folded.xml") << "<mujoco>" << defaults << R"(<worldbody>
      <body name="b" pos="1 1 0" euler="0 0 90" childclass="thin"><joint axis="1 0 0"/><geom type="capsule"/>
        <site name="s" pos="0 0 0.1"/></body>
      <geom class="thin" type="cylinder" pos="1 0 1" euler="0 0 90"/>
  </worldbody></mujoco>)";
  Loader loader;
  LoadResult loaded = loader.loadFile(dir + "/frame.xml");
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  std::string error;
  test::MujocoModel reference = test::loadMujoco(dir + "/folded.xml", error);
  ASSERT_TRUE(reference) << error;
  test::MujocoDifferential differential(reference.get(), loaded);
  const test::Comparison result = differential.compare(kConfigurations, kTolerance);
  for (const std::string& failure : result.failures) ADD_FAILURE() << failure;
  EXPECT_EQ(result.framesCompared, (kConfigurations + 1) * 2);
  EXPECT_EQ(result.bodiesWeighed, 1);  // the capsule's size comes from the frame's childclass
  fs::remove_all(dir);
}

/// Unitree's A2 (tests/data/unitree), written for MuJoCo 3: 2.2.2 refuses it, Interlink reads it
/// with limited joints and effort limits, and agrees with MuJoCo 2.2.2 on a copy without the
/// MuJoCo 3 attributes.
TEST(MjcfCurrentMujoco, UnitreeA2LoadsAsCurrentMujocoReadsIt) {
  const std::string dir = test::makeTempDir("interlink-mjcf-a2");
  ASSERT_FALSE(dir.empty());
  const fs::path model = fs::path(dir) / "a2.xml";
  fs::copy_file(kData + "/unitree/a2.xml", model);
  EXPECT_EQ(test::writePlaceholders(model, {model}), 17);
  std::string error;
  EXPECT_FALSE(test::loadMujoco(model.string(), error)) << "MuJoCo 2.2.2 was expected to refuse it";
  Loader loader;
  LoadResult loaded = loader.loadFile(model.string());
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  EXPECT_TRUE(findAll(loaded, Severity::Error, "").empty());
  int limited = 0;
  for (const Joint& j : loaded.document.model->joints) {
    if (j.type != JointType::Revolute) continue;
    ++limited;
    const bool calf = j.name.find("calf") != std::string::npos;
    EXPECT_EQ(j.axes[0].effort, calf ? 180 : 120) << j.name;
  }
  EXPECT_EQ(limited, 12);
  EXPECT_EQ(findAll(loaded, Severity::Note, "autolimits").size(), 1u) << test::dump(loaded.diagnostics);

  std::string text = test::readText(model.string());
  text = std::regex_replace(text, std::regex(R"( (actuatorfrcrange|actuatorfrclimited)="[^"]*")"), "");
  text = std::regex_replace(text, std::regex(R"(<jointactuatorfrc [^>]*/>)"), "");
  text = std::regex_replace(text, std::regex(R"(<compiler )"), "<compiler autolimits=\"true\" ");
  std::ofstream(dir + "/a2_older.xml") << text;
  std::string olderError;
  test::MujocoModel reference = test::loadMujoco(dir + "/a2_older.xml", olderError);
  ASSERT_TRUE(reference) << olderError;
  test::MujocoDifferential differential(reference.get(), loaded);
  const test::Comparison result = differential.compare(kConfigurations, kTolerance);
  for (const std::string& failure : result.failures) ADD_FAILURE() << failure;
  EXPECT_EQ(result.bodiesWeighed, reference->nbody - 1);
  fs::remove_all(dir);
}

// --- 7: MuJoCo's qpos --------------------------------------------------------------------------------

/// Ours: free, ball, hinge (with ref) and slide joints; MuJoCo's qpos at random configurations,
/// mapped by configurationFromQpos (interlink/QposLayout.hpp), gives MuJoCo's body and site poses.
TEST(MjcfQpos, MujocoQposMapsThroughTheCore) {
  const std::string dir = test::makeTempDir("interlink-mjcf-qpos");
  ASSERT_FALSE(dir.empty());
  std::ofstream(dir + "/qpos.xml") << R"(<mujoco>
  <worldbody>
    <body name="floating" pos="0.3 -0.2 1" euler="10 20 30">
      <freejoint name="root"/>
      <geom size="0.1 0.2 0.05" type="box"/>
      <body name="arm" pos="0.2 0 0">
        <joint name="shoulder" type="ball" pos="-0.05 0 0"/>
        <geom size="0.03 0.1" type="capsule" pos="0.1 0 0" euler="0 90 0"/>
        <body name="fore" pos="0.2 0 0">
          <joint name="elbow" axis="0 0 1" ref="30"/>
          <joint name="extend" type="slide" axis="1 0 0"/>
          <geom size="0.04"/>
          <site name="tip" pos="0.1 0.02 0"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>)";
  Loader loader;
  expectAgreement(loader, dir + "/qpos.xml", true);

  LoadResult loaded = loader.loadFile(dir + "/qpos.xml");
  ASSERT_TRUE(loaded.ok());
  Diagnostics diagnostics;
  EXPECT_FALSE(configurationFromQpos(loaded.kinematics, loaded.graph, std::vector<double>(13, 0.0), diagnostics));
  EXPECT_TRUE(diagnostics.contains(ErrorCode::KINEMATICS_INVALID));
  std::vector<double> zeroQuaternion(13, 0.0);  // the free joint's quaternion is zero
  zeroQuaternion[7] = 1;
  Diagnostics zero;
  EXPECT_FALSE(configurationFromQpos(loaded.kinematics, loaded.graph, zeroQuaternion, zero));
  EXPECT_TRUE(zero.contains(ErrorCode::KINEMATICS_INVALID));

  // The CLI takes the same vector: the file's pose at MuJoCo's qpos0.
  const std::string qpos0 = "0.3,-0.2,1,0.943714364147489,0.12767944069578063,0.14487812541736914,0.2685358227515692,"
                            "1,0,0,0,0.5235987755982988,0";
  const test::CommandResult cli = test::run(test::cliPath() + " frames " + dir + "/qpos.xml --qpos " + qpos0);
  EXPECT_EQ(cli.exitCode, 0) << cli.output;
  const std::size_t line = cli.output.find("\nfloating  link  ");
  ASSERT_NE(line, std::string::npos) << cli.output;
  std::istringstream fields(cli.output.substr(line + 17));
  double x = 0, y = 0, z = 0, w = 0;
  fields >> x >> y >> z >> w;
  EXPECT_NEAR(x, 0.3, 1e-9);
  EXPECT_NEAR(y, -0.2, 1e-9);
  EXPECT_NEAR(z, 1, 1e-9);
  EXPECT_NEAR(w, 0.943714364147489, 1e-9);
  fs::remove_all(dir);
}

/// Every model of MuJoCo 2.2.2's own files that both load (tests/data/mujoco): MuJoCo's qpos mapped
/// by the core gives MuJoCo's poses; free and ball joints and loop closures (connect) included.
TEST(MjcfQpos, MujocoModelsAgreeThroughTheCoreQposMapping) {
  Loader loader;
  int models = 0, withQuaternions = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kData + "/mujoco")) {
    if (!entry.is_regular_file() || entry.path().extension() != ".xml") continue;
    const std::string path = entry.path().string();
    std::string error;
    test::MujocoModel reference = test::loadMujoco(path, error);
    if (!reference) continue;
    LoadResult loaded = loader.loadFile(path);
    if (!loaded.ok()) continue;  // the differential's listed exceptions
    SCOPED_TRACE(path);
    test::MujocoDifferential differential(reference.get(), loaded);
    differential.mapQposByCore(true);
    const test::Comparison result = differential.compare(2, kTolerance);
    for (const std::string& failure : result.failures) ADD_FAILURE() << failure;
    ++models;
    withQuaternions += reference->nq != reference->nv;
  }
  EXPECT_GE(models, 30);
  EXPECT_GE(withQuaternions, 5);
}

}  // namespace
}  // namespace interlink
