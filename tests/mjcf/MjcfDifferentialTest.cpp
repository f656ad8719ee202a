// MJCF differential against MuJoCo 2.2.2: every model file MuJoCo loads, Interlink loads with the
// same body and site poses (qpos0 and random configurations within the joint ranges, 1e-9) and the
// same masses, centres of mass and inertias; every file MuJoCo refuses, Interlink refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "HostileRoundTwoInputs.hpp"
#include "MujocoOracle.hpp"
#include "Scratch.hpp"
#include "TestSupport.hpp"

namespace interlink {
namespace {

namespace fs = std::filesystem;

const std::string kTestData = test::sourceDir() + "/tests/data";
const std::string kMujocoData = kTestData + "/mujoco";
constexpr int kRandomConfigurations = 8;
constexpr double kTolerance = 1e-9;

const char* const kComposite =
    "<composite> (cloth, grid, particle, box here): MuJoCo 2.2.2's mjCComposite generates the bodies, joints, "
    "tendons, skins and their names by its own rules per type; Interlink does not reimplement that generator and "
    "refuses the element with ELEMENT_UNSUPPORTED rather than load a model without those bodies";

/// Files MuJoCo loads that Interlink refuses, each with the reason (docs/mjcf.md, "Not supported").
const std::map<std::string, std::string> kInterlinkRefuses = {
    {"model/flag/flag.xml", kComposite},
    {"model/hammock/hammock.xml", kComposite},
    {"model/adhesion/active_adhesion.xml", kComposite},
    {"test/engine/testdata/skingroup.xml", kComposite},
};

/// Files MuJoCo 2.2.2 refuses that Interlink loads, as the current MuJoCo XML reference reads them
/// (docs/mjcf.md, "MuJoCo 3 semantics"), each with the reason.
const std::map<std::string, std::string> kCurrentMujocoReads = {
};

/// MuJoCo's own model files, then dm_control's suite models (mesh-less; not the asset files of
/// suite/common/ that they include, which have no body), relative to the MuJoCo folder.
std::vector<std::string> modelFiles() {
  std::vector<std::string> files;
  for (const std::string& root : {kMujocoData, kTestData + "/dm_control/suite"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (entry.is_regular_file() && entry.path().extension() == ".xml" && entry.path().parent_path().filename() != "common") {
        files.push_back(fs::relative(entry.path(), kMujocoData).string());
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(MjcfDifferential, EveryMujocoModelAgreesWithMujoco) {
  const std::vector<std::string> files = modelFiles();
  ASSERT_GE(files.size(), 40u) << "the MuJoCo model files are missing from " << kMujocoData;
  Loader loader;
  int models = 0, refusedByBoth = 0, configurations = 0, frames = 0, bodies = 0, meshBodies = 0;
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const std::string path = kMujocoData + "/" + file;
    std::string error;
    test::MujocoModel reference = test::loadMujoco(path, error);
    LoadResult loaded = loader.loadFile(path);
    if (!reference && kCurrentMujocoReads.count(file)) {
      EXPECT_TRUE(loaded.ok()) << "listed as read by current MuJoCo (" << kCurrentMujocoReads.at(file) << "):\n"
                               << test::dump(loaded.diagnostics);
      continue;
    }
    if (!reference) {
      EXPECT_FALSE(loaded.ok()) << "MuJoCo refuses it (" << error << ") but Interlink loads it";
      ++refusedByBoth;
      continue;
    }
    if (kInterlinkRefuses.count(file)) {
      EXPECT_FALSE(loaded.ok()) << "listed as refused by Interlink (" << kInterlinkRefuses.at(file) << ") but it loads";
      continue;
    }
    if (!loaded.ok()) {
      ADD_FAILURE() << "MuJoCo loads it, Interlink refuses it:\n" << test::dump(loaded.diagnostics);
      continue;
    }
    test::MujocoDifferential differential(reference.get(), loaded);
    const test::Comparison result = differential.compare(kRandomConfigurations, kTolerance);
    for (const std::string& failure : result.failures) ADD_FAILURE() << failure;
    EXPECT_GT(result.framesCompared, 0);
    ++models;
    configurations += result.configurations;
    frames += result.framesCompared;
    bodies += result.bodiesWeighed;
    meshBodies += result.meshBodiesWeighed;
  }
  std::cout << "[differential] " << models << " models agree with MuJoCo 2.2.2: " << frames
            << " body/site poses over " << configurations << " configurations, " << bodies
            << " bodies weighed (" << meshBodies << " with mesh geoms); " << refusedByBoth << " refused by both; " << kInterlinkRefuses.size()
            << " + " << kCurrentMujocoReads.size() << " listed exceptions\n";
  EXPECT_GE(models, 30);
}

}  // namespace
}  // namespace interlink

namespace interlink {
namespace {

/// <compiler coordinate="global"> (deprecated, still read by 2.2.2): bodies with and without pos,
/// orientations, an explicit inertial giving a body its frame, joints, sites, cameras, fromto.
TEST(MjcfDifferential, GlobalCoordinatesAgreeWithMujoco) {
  const std::string dir = test::makeTempDir("interlink-mjcf-global");
  ASSERT_FALSE(dir.empty());
  const std::string path = dir + "/global.xml";
  std::ofstream(path) << R"(<mujoco><compiler coordinate="global" angle="radian"/>
    <worldbody>
      <site name="origin" pos="0.1 0 0"/>
      <body name="placed" pos="0 0 1" euler="0.3 0.2 0.1">
        <joint name="hinge" type="hinge" pos="0 0.1 1" axis="1 1 0"/>
        <geom type="box" size="0.1 0.2 0.3" pos="0.1 0 1" quat="0.9 0.1 0.2 0.3"/>
        <geom type="sphere" size="0.1" pos="0 0 1.2"/>
        <site name="tip" pos="0.3 0.2 1.1" euler="0.1 0 0"/>
        <camera name="eye" pos="0 0.5 1" xyaxes="1 0 0 0 0 1"/>
        <body name="inertial_frame">
          <inertial pos="0.5 0.5 1" quat="0.8 0.2 0.4 0.1" mass="2" diaginertia="0.1 0.2 0.25"/>
          <joint name="slide" type="slide" pos="0.5 0.5 1" axis="0 0 1"/>
          <site name="inner" pos="0.6 0.5 1"/>
        </body>
        <body name="geom_frame">
          <joint name="ball" type="ball" pos="0 0 0.5"/>
          <geom type="capsule" size="0.05" fromto="0 0 0.5 0.3 0.1 0.2"/>
          <geom type="cylinder" size="0.05" fromto="0.3 0.1 0.2 0.3 0.4 0.2"/>
        </body>
      </body>
    </worldbody></mujoco>)";
  std::string error;
  test::MujocoModel reference = test::loadMujoco(path, error);
  ASSERT_TRUE(reference) << error;
  Loader loader;
  LoadResult loaded = loader.loadFile(path);
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  test::MujocoDifferential differential(reference.get(), loaded);
  const test::Comparison result = differential.compare(kRandomConfigurations, kTolerance);
  for (const std::string& failure : result.failures) ADD_FAILURE() << failure;
  EXPECT_EQ(result.bodiesWeighed, 3);
  EXPECT_EQ(result.framesCompared, (kRandomConfigurations + 1) * (3 + 3));
  fs::remove_all(dir);
}

/// Broken models generated here (never committed): MuJoCo refuses each, so must Interlink, with a
/// located diagnostic.
TEST(MjcfDifferential, EveryModelMujocoRefusesInterlinkRefuses) {
  const std::map<std::string, std::string> broken = {
      {"unknown_element", "<mujoco><worldbody><body><wheel/></body></worldbody></mujoco>"},
      {"quat_count", "<mujoco><worldbody><body quat='1 0 0'><geom size='1'/></body></worldbody></mujoco>"},
      {"two_orientations",
       "<mujoco><worldbody><body quat='1 0 0 0' euler='0 0 1'><geom size='1'/></body></worldbody></mujoco>"},
      {"auto_limited_range",
       "<mujoco><compiler autolimits='false'/><worldbody><body><joint range='0 1'/><geom size='1'/></body>"
       "</worldbody></mujoco>"},
      {"fromto_sphere",
       "<mujoco><worldbody><body><geom type='sphere' size='1' fromto='0 0 0 1 0 0'/></body></worldbody></mujoco>"},
      {"unknown_class", "<mujoco><worldbody><body><geom class='nope' size='1'/></body></worldbody></mujoco>"},
      {"duplicate_body",
       "<mujoco><worldbody><body name='a'><geom size='1'/></body><body name='a'><geom size='1'/></body></worldbody>"
       "</mujoco>"},
      {"missing_include", "<mujoco><include file='nowhere.xml'/></mujoco>"},
      {"missing_mesh",
       "<mujoco><asset><mesh file='nowhere.stl'/></asset><worldbody><geom type='mesh' mesh='nowhere'/></worldbody>"
       "</mujoco>"},
      {"zero_size_box", "<mujoco><worldbody><body><geom type='box' size='1 0 1'/></body></worldbody></mujoco>"},
      {"bad_joint_type", "<mujoco><worldbody><body><joint type='twist'/><geom size='1'/></body></worldbody></mujoco>"},
      {"not_a_number", "<mujoco><worldbody><body pos='0 x 0'><geom size='1'/></body></worldbody></mujoco>"},
      {"unbalanced_inertia",
       "<mujoco><worldbody><body><inertial pos='0 0 0' mass='1' diaginertia='1 1 5'/></body></worldbody></mujoco>"},
      {"not_xml", "<mujoco><worldbody></mujoco>"},
  };
  const std::string dir = test::makeTempDir("interlink-mjcf-refused");
  ASSERT_FALSE(dir.empty());
  Loader loader;
  for (const auto& [name, text] : broken) {
    SCOPED_TRACE(name);
    const std::string path = dir + "/" + name + ".xml";
    std::ofstream(path) << text;
    test::expectBothRefuse(loader, path);
  }
  fs::remove_all(dir);
}

/// MuJoCo's inertia rules are applied by the core's inertia check (check/InertiaCheck.cpp), after
/// the MJCF mapping has applied <compiler boundmass boundinertia balanceinertia> as MuJoCo does.
/// Each model's verdict is MuJoCo 2.2.2's own; where it refuses, the core gives one located
/// LINK_INERTIA_INVALID error that names MuJoCo.
TEST(MjcfInertia, TheCoreCheckGivesMujocosVerdicts) {
  struct Case {
    const char* name;
    const char* compiler;  // attributes of <compiler>
    const char* body;      // the content of <worldbody>
    bool mujocoLoads;
  };
  const Case cases[] = {
      {"triangle", "", "<body><joint/><inertial pos='0 0 0' mass='1' diaginertia='1 1 2.5'/></body>", false},
      {"triangle_balanced", "balanceinertia='true'",
       "<body><joint/><inertial pos='0 0 0' mass='1' diaginertia='1 1 2.5'/></body>", true},
      {"triangle_edge", "", "<body><joint/><inertial pos='0 0 0' mass='1' diaginertia='1 1 2'/></body>", true},
      {"triangle_full", "",
       "<body><joint/><inertial pos='0 0 0' mass='1' fullinertia='1 1 2.5 0.1 0 0'/></body>", false},
      // MuJoCo raises negative values to boundmass and boundinertia (0 by default) before it checks
      // them: a moving body is then too light, a static one is massless.
      {"negative_mass", "", "<body><joint/><inertial pos='0 0 0' mass='-1' diaginertia='1 1 1'/></body>", false},
      {"negative_mass_static", "", "<body><inertial pos='0 0 0' mass='-1' diaginertia='1 1 1'/></body>", true},
      {"negative_moment", "", "<body><joint/><inertial pos='0 0 0' mass='1' diaginertia='-0.1 1 1'/></body>", false},
      {"negative_moment_bounded", "boundinertia='0.1'",
       "<body><joint/><inertial pos='0 0 0' mass='1' diaginertia='-0.1 1 1'/></body>", true},
      {"negative_moment_balanced", "balanceinertia='true'",
       "<body><joint/><inertial pos='0 0 0' mass='1' diaginertia='-0.5 1 2'/></body>", true},
      {"negative_bound_mass", "boundmass='-2'", "<body><inertial pos='0 0 0' mass='-1' diaginertia='1 1 1'/></body>",
       false},
      {"negative_bound_moment", "boundinertia='-2' balanceinertia='true'",
       "<body><inertial pos='0 0 0' mass='1' diaginertia='-1 1 3'/></body>", false},
      {"moving_massless", "", "<body><joint/><site/></body>", false},
      {"moving_massless_bounded", "boundmass='0.01' boundinertia='0.001'", "<body><joint/><site/></body>", true},
      {"moving_without_inertia", "", "<body><joint/><inertial pos='0 0 0' mass='1' diaginertia='0 0 0'/></body>", false},
      {"moving_massless_welded_child_has_mass", "", "<body><joint/><body><geom size='0.1'/></body></body>", true},
      {"moving_massless_welded_child_massless", "", "<body><joint/><body><site/></body></body>", false},
      {"moving_massless_moving_child_has_mass", "",
       "<body><joint/><body><joint/><geom size='0.1'/></body></body>", false},
      {"static_massless", "", "<body><site/></body>", true},
      {"two_joints_with_mass", "", "<body><joint axis='1 0 0'/><joint axis='0 1 0'/><geom size='0.1'/></body>", true},
      {"two_joints_massless", "", "<body><joint axis='1 0 0'/><joint axis='0 1 0'/><site/></body>", false},
      {"free_massless", "", "<body><freejoint/><site/></body>", false},
  };
  const std::string dir = test::makeTempDir("interlink-mjcf-inertia");
  ASSERT_FALSE(dir.empty());
  Loader loader;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = dir + "/" + c.name + ".xml";
    std::ofstream(path) << "<mujoco>\n<compiler " << c.compiler << "/>\n<worldbody>\n" << c.body
                        << "\n</worldbody>\n</mujoco>\n";
    std::string error;
    const bool mujocoLoads = static_cast<bool>(test::loadMujoco(path, error));
    ASSERT_EQ(mujocoLoads, c.mujocoLoads) << "MuJoCo 2.2.2: " << error;  // the table states MuJoCo's verdict
    const LoadResult loaded = loader.loadFile(path);
    const std::string dump = test::dump(loaded.diagnostics);
    EXPECT_EQ(loaded.ok(), mujocoLoads) << "MuJoCo: " << error << "\nInterlink:\n" << dump;
    std::size_t inertiaErrors = 0;
    for (const Diagnostic& d : loaded.diagnostics) {
      if (d.code != ErrorCode::LINK_INERTIA_INVALID) continue;
      EXPECT_EQ(d.severity, Severity::Error) << d.format();
      EXPECT_NE(d.message.find("MuJoCo 2.2.2 refuses it"), std::string::npos) << d.format();
      EXPECT_EQ(d.where.line, 4) << d.format();
      ++inertiaErrors;
    }
    EXPECT_EQ(inertiaErrors, mujocoLoads ? 0u : 1u) << dump;
  }
  fs::remove_all(dir);
}

// <equality><joint>: MuJoCo refuses a joint coupled to itself, and loads a cycle of couplings
// (soft constraints), which Interlink warns about (DEVIATION_TOLERATED, refused under --strict).
TEST(MjcfDifferential, EqualityJointCouplingsAsMujocoJudgesThem) {
  test::Scratch scratch;
  Loader loader;
  test::expectBothRefuse(loader, scratch.write("self.xml", test::hostile::mjcfEqualityCycle(1)));
  const std::string cycle = scratch.write("cycle.xml", test::hostile::mjcfEqualityCycle(3));
  std::string error;
  EXPECT_FALSE(test::mujocoRefuses(cycle, error)) << error;
  const LoadResult loaded = loader.loadFile(cycle);
  EXPECT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  bool warned = false;
  for (const Diagnostic& d : loaded.diagnostics) warned = warned || d.code == ErrorCode::DEVIATION_TOLERATED;
  EXPECT_TRUE(warned) << test::dump(loaded.diagnostics);
}

}  // namespace
}  // namespace interlink
