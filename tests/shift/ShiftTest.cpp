// Conformance of the Shift JSON plugin, loaded as the real shared library through interlink::Loader.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/shift/ShiftAssembly.hpp"

namespace {

using interlink::ErrorCode;
using interlink::FrameKind;
using interlink::LoadResult;
using interlink::Pose;
using interlink::Severity;
using interlink::Vector3;
namespace fs = std::filesystem;

constexpr double kPi = 3.14159265358979323846;

const interlink::Loader& loader() {
  static const interlink::Loader instance;
  return instance;
}

LoadResult load(const std::string& path) { return loader().loadFile(path); }

/// The Shift record of a joint of `model` (a default record, which fails the checks, if absent).
interlink::shift::ShiftJoint shiftJoint(const interlink::Model& model, const std::string& name) {
  const auto* record = model.extensions.find<interlink::shift::ShiftAssembly>();
  EXPECT_NE(record, nullptr) << model.name;
  if (record == nullptr) return {};
  for (const auto& joint : record->joints)
    if (joint.name == name) return joint;
  ADD_FAILURE() << "no Shift record of joint " << name << " in " << model.name;
  return {};
}

/// The restraint `name` of `model` (nullptr if absent).
const interlink::shift::Restraint* restraint(const interlink::Model& model, const std::string& name) {
  const auto* record = model.extensions.find<interlink::shift::ShiftAssembly>();
  if (record == nullptr) return nullptr;
  for (const auto& r : record->restraints)
    if (r.name == name) return &r;
  return nullptr;
}

/// A file of shift-dynamics/shift-models: the copy in tests/data/shift when the repository carries
/// one, else the external corpus's (a test of such a file is skipped without the corpus).
std::string shiftCorpus(const std::string& relative) {
  const std::string vendored = interlink::test::vendored("shift/" + relative);
  return fs::exists(vendored) ? vendored : interlink::test::corpus("shift/" + relative);
}
std::string testData(const std::string& name) { return interlink::test::sourceDir() + "/tests/shift/data/" + name; }

struct Counts {
  std::size_t bodies = 0;
  std::size_t joints = 0;
  std::size_t loops = 0;
};

Counts countsOf(const LoadResult& result) {
  Counts c;
  for (const auto& frame : result.graph.frames())
    if (frame.kind == FrameKind::Link) ++c.bodies;
  c.joints = result.kinematics.joints().size();
  for (const auto& joint : result.kinematics.joints())
    if (joint.loopClosure) ++c.loops;
  return c;
}

/// Pose of a frame (scoped name) at a configuration; fails the test when it is unknown.
Pose poseAt(const LoadResult& result, const std::string& frame, const std::vector<double>& q) {
  interlink::Diagnostics diagnostics;
  auto poses = result.kinematics.framePoses(q, diagnostics);
  auto index = result.graph.find(frame);
  EXPECT_TRUE(poses.has_value()) << interlink::test::dump(diagnostics);
  EXPECT_TRUE(index.has_value()) << "no frame '" << frame << "'";
  if (!poses || !index) return Pose::Identity();
  return (*poses)[*index];
}

Pose makePose(const Vector3& translation, const interlink::Matrix3& rotation) {
  Pose pose = Pose::Identity();
  pose.translation() = translation;
  pose.linear() = rotation;
  return pose;
}

interlink::Matrix3 rotX(double a) { return Eigen::AngleAxisd(a, Vector3::UnitX()).toRotationMatrix(); }
interlink::Matrix3 rotY(double a) { return Eigen::AngleAxisd(a, Vector3::UnitY()).toRotationMatrix(); }
interlink::Matrix3 rotZ(double a) { return Eigen::AngleAxisd(a, Vector3::UnitZ()).toRotationMatrix(); }

void expectPoseNear(const Pose& actual, const Pose& expected, double tolerance, const std::string& what) {
  EXPECT_TRUE(actual.translation().isApprox(expected.translation(), tolerance) ||
              (actual.translation() - expected.translation()).norm() < tolerance)
      << what << ": position " << actual.translation().transpose() << ", expected "
      << expected.translation().transpose();
  EXPECT_LT((actual.linear() - expected.linear()).cwiseAbs().maxCoeff(), tolerance)
      << what << ": rotation\n"
      << actual.linear() << "\nexpected\n"
      << expected.linear();
}

const interlink::Model* findModel(const std::vector<interlink::Model>& models, const std::string& path) {
  const auto split = path.find("::");
  const std::string head = path.substr(0, split);
  for (const auto& model : models) {
    if (model.name != head) continue;
    if (split == std::string::npos) return &model;
    return findModel(model.models, path.substr(split + 2));
  }
  return nullptr;
}

const interlink::Diagnostic* findDiagnostic(const interlink::Diagnostics& diagnostics, ErrorCode code,
                                            Severity severity = Severity::Error) {
  for (const auto& d : diagnostics)
    if (d.code == code && d.severity == severity) return &d;
  return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Corpus

// Corpus files that break a rule of the Shift document: refused with the reason, never loaded by
// guessing what was meant. All three give two joints of one assembly one name (joint names are
// unique, the document says); the second joint joins other bodies, a copy-and-paste slip.
struct InvalidByDesign {
  std::string file;
  int line;  // of the second name
  std::string reason;
};

std::vector<InvalidByDesign> invalidByDesign() {
  return {{"pendulum/double_pendulum.json", 180, "joint 'A_fixed_link1' is defined twice"},
          {"slider_crank/slider_crank_3substructures_2.json", 463, "joint 'K_connecting_rod3_piston3' is defined twice"},
          {"slider_crank/slider_crank_3substructures_3.json", 463, "joint 'K_connecting_rod3_piston3' is defined twice"}};
}

TEST(ShiftCorpus, EveryFileButThoseInvalidByDesignLoadsWithoutErrors) {
  INTERLINK_SKIP_WITHOUT_CORPUS("shift");
  const std::vector<InvalidByDesign> invalid = invalidByDesign();
  std::size_t files = 0;
  std::size_t refused = 0;
  const std::string root = interlink::test::corpus("shift/");  // the whole collection
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    const auto listed = std::find_if(invalid.begin(), invalid.end(), [&](const InvalidByDesign& c) {
      return entry.path() == fs::path(root + c.file);
    });
    if (listed != invalid.end()) {  // ShiftInvalidByDesign checks why
      ++refused;
      continue;
    }
    const LoadResult result = load(entry.path().string());
    EXPECT_TRUE(result.ok()) << entry.path() << "\n" << interlink::test::dump(result.diagnostics);
    EXPECT_EQ(result.document.format, "shift") << entry.path();
    ASSERT_TRUE(result.document.isWorld()) << entry.path();
    EXPECT_EQ(result.document.worlds.front().models.size(), 1u) << entry.path();
    EXPECT_GT(countsOf(result).bodies, 0u) << entry.path();
  }
  EXPECT_EQ(files, 80u);
  EXPECT_EQ(refused, invalid.size());
}

struct FamilyCase {
  const char* file;
  Counts expected;
};

class ShiftFamily : public ::testing::TestWithParam<FamilyCase> {};

// Numbers from reading the files: active bodies, active joints whose bodies are active, and
// joints - (bodies - roots) loops, roots being the components hanging from the fixed frame.
TEST_P(ShiftFamily, BodyJointAndLoopCounts) {
  const FamilyCase& c = GetParam();
  // The files over 30 KB are not vendored: without the corpus their case is skipped.
  if (!fs::exists(shiftCorpus(c.file))) {
    INTERLINK_SKIP_WITHOUT_CORPUS("shift");
  }
  const LoadResult result = load(shiftCorpus(c.file));
  ASSERT_TRUE(result.ok()) << interlink::test::dump(result.diagnostics);
  const Counts counts = countsOf(result);
  EXPECT_EQ(counts.bodies, c.expected.bodies) << c.file;
  EXPECT_EQ(counts.joints, c.expected.joints) << c.file;
  EXPECT_EQ(counts.loops, c.expected.loops) << c.file;
  // The tree has one parent joint per body: every non-loop joint is a tree edge.
  std::size_t floating = 0;
  for (const auto& d : result.diagnostics)
    if (d.code == ErrorCode::KINEMATICS_INVALID) ++floating;
  EXPECT_EQ(counts.joints - counts.loops + floating, counts.bodies) << c.file;
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, ShiftFamily,
    ::testing::Values(FamilyCase{"pendulum/pendulum.json", {1, 1, 0}},
                      FamilyCase{"scripting/cube.json", {1, 1, 0}},
                      FamilyCase{"slider_crank/slider_crank.json", {3, 4, 1}},
                      FamilyCase{"slider_crank/slider_crank_3substructures.json", {9, 12, 3}},
                      FamilyCase{"slider_crank/slider_crank_extra_dof.json", {4, 5, 1}},
                      FamilyCase{"bricard/bricard_asphalt.json", {5, 6, 1}},
                      FamilyCase{"bricard/bricard.json", {6, 6, 1}},
                      FamilyCase{"terrain/bricard.json", {5, 6, 1}},
                      FamilyCase{"klann_linkage/klann_linkage.json", {5, 7, 2}},
                      FamilyCase{"sarrus/sarrus.json", {8, 10, 2}},
                      FamilyCase{"brake/brake.json", {8, 11, 3}},
                      FamilyCase{"excavator/excavator.json", {15, 20, 5}},
                      FamilyCase{"excavator/excavator_no_base.json", {14, 19, 5}},
                      FamilyCase{"kuka_lbr_iiwa_14_r820/kuka_iiwa.json", {8, 8, 0}},
                      FamilyCase{"abiflexx_d4_1300/abiflexx_d4_1300.json", {11, 16, 5}},
                      FamilyCase{"collision/collision_test_50.json", {50, 50, 0}},
                      FamilyCase{"collision/collision_test_500.json", {500, 500, 0}},
                      FamilyCase{"vehicle/vehicle.json", {45, 51, 6}},
                      FamilyCase{"vehicle/vehicle_backup2.json", {40, 42, 2}},
                      FamilyCase{"vehicle/tire_fiala.json", {6, 6, 0}},
                      FamilyCase{"vehicle/fiala/tire_fiala_control_0_yaw_3000.json", {3, 3, 0}}),
    [](const ::testing::TestParamInfo<FamilyCase>& param) {
      std::string name = fs::path(param.param.file).parent_path().string() + "_" + fs::path(param.param.file).stem().string();
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

class ShiftInvalidByDesign : public ::testing::TestWithParam<InvalidByDesign> {};

TEST_P(ShiftInvalidByDesign, IsRefusedWithItsReason) {
  const InvalidByDesign& c = GetParam();
  const LoadResult result = load(shiftCorpus(c.file));
  EXPECT_FALSE(result.ok()) << c.file;
  const auto* error = findDiagnostic(result.diagnostics, ErrorCode::DUPLICATE_NAME, Severity::Error);
  ASSERT_NE(error, nullptr) << interlink::test::dump(result.diagnostics);
  EXPECT_EQ(error->where.line, c.line) << error->format();
  EXPECT_NE(error->message.find(c.reason), std::string::npos) << error->format();
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, ShiftInvalidByDesign,
    ::testing::ValuesIn(invalidByDesign()),
    [](const ::testing::TestParamInfo<InvalidByDesign>& param) {
      std::string name = fs::path(param.param.file).stem().string();
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

/// double_pendulum.json with its second joint (link1 -> link2) renamed, loaded under the file's own
/// path so that its meshes resolve: the file is refused as written (ShiftInvalidByDesign), its
/// numbers are checked on the corrected text.
LoadResult loadDoublePendulum() {
  const std::string path = shiftCorpus("pendulum/double_pendulum.json");
  std::string text = interlink::test::readFile(path);
  const std::string name = "\"A_fixed_link1\"";
  const std::size_t second = text.find(name, text.find(name) + 1);
  EXPECT_NE(second, std::string::npos);
  if (second != std::string::npos) text.replace(second, name.size(), "\"B_link1_link2\"");
  return loader().loadString(text, path);
}

TEST(ShiftDoublePendulum, CorrectedFileCounts) {
  const LoadResult result = loadDoublePendulum();
  ASSERT_TRUE(result.ok()) << interlink::test::dump(result.diagnostics);
  const Counts counts = countsOf(result);
  EXPECT_EQ(counts.bodies, 2u);
  EXPECT_EQ(counts.joints, 2u);
  EXPECT_EQ(counts.loops, 0u);
}

TEST(ShiftDoublePendulum, FramesAtTheInitialDisplacementMatchHandValues) {
  const LoadResult result = loadDoublePendulum();
  ASSERT_TRUE(result.ok()) << interlink::test::dump(result.diagnostics);
  const auto q = result.kinematics.initialConfiguration();
  ASSERT_EQ(q.size(), 2u);
  EXPECT_DOUBLE_EQ(q[0], 1.5707963267948966);
  EXPECT_DOUBLE_EQ(q[1], 0.0);

  // By hand: link1 = attachment(0,0,-3) * Rx(pi/2). Its frame distal (0.1, 0, -1) turns into
  // (0.1, 1, 0): Rx(pi/2) maps y -> z and z -> -y, so (0.1, 0, -1) -> (0.1, 1, 0).
  // link2 hangs from distal with Rx(0): same pose as distal.
  const Pose link1 = makePose({0, 0, -3}, rotX(kPi / 2));
  const Pose distal = makePose({0.1, 1, -3}, rotX(kPi / 2));
  expectPoseNear(poseAt(result, "pendulum::link1", q), link1, 1e-12, "link1");
  expectPoseNear(poseAt(result, "pendulum::link1:distal", q), distal, 1e-12, "distal");
  expectPoseNear(poseAt(result, "pendulum::link2", q), distal, 1e-12, "link2");
  expectPoseNear(poseAt(result, "fixed:attachment", q), makePose({0, 0, -3}, rotX(0)), 1e-12, "attachment");

  // At zero the pendulum hangs straight: link2 at distal = (0.1, 0, -4).
  const auto zero = result.kinematics.zeroConfiguration();
  expectPoseNear(poseAt(result, "pendulum::link2", zero), makePose({0.1, 0, -4}, rotX(0)), 1e-12, "link2 at zero");

  // The frame graph's zero poses agree.
  auto index = result.graph.find("pendulum::link2");
  ASSERT_TRUE(index.has_value());
  expectPoseNear(result.graph.frames()[*index].pose, makePose({0.1, 0, -4}, rotX(0)), 1e-12, "graph link2");
}

TEST(ShiftDoublePendulum, ModelParametersLightsAndMassAreKept) {
  const LoadResult result = loadDoublePendulum();
  ASSERT_TRUE(result.ok()) << interlink::test::dump(result.diagnostics);
  const auto& world = result.document.worlds.front();
  EXPECT_EQ(result.document.formatVersion, "0.2");
  EXPECT_TRUE(world.gravity.isApprox(Vector3(0, 0, 9.81)));
  EXPECT_EQ(world.physics.type, "ode113b");
  EXPECT_DOUBLE_EQ(world.physics.maxStepSize, 0.03);
  EXPECT_DOUBLE_EQ(world.physics.values.at("relative_error"), 1e-9);
  const auto& model = world.models.front();
  EXPECT_EQ(model.parameters.at("units.angle"), "radians");
  const auto* shift = model.extensions.find<interlink::shift::ShiftAssembly>();
  ASSERT_NE(shift, nullptr);
  EXPECT_EQ(shift->includeDirectories, (std::vector<std::string>{"models/pendulum/", "examples/"}));
  EXPECT_EQ(model.parameters.at("simulation.time_span"), "100");
  EXPECT_EQ(world.parameters.at("units.length"), "meters");
  ASSERT_EQ(world.lights.size(), 2u);
  EXPECT_EQ(world.lights[0].name, "overhead_1");
  EXPECT_EQ(world.lights[0].attachedTo, "fixed:overhead_1");
  EXPECT_TRUE(world.lights[0].diffuse.isApprox(Eigen::Vector4d(0.6, 0.6, 0.6, 1)));
  ASSERT_EQ(model.links.size(), 2u);
  const auto& link1 = model.links.front();
  EXPECT_DOUBLE_EQ(link1.inertial.mass, 1.0);
  EXPECT_TRUE(link1.inertial.centerOfMass.translation().isApprox(Vector3(0, 0, -0.5)));
  EXPECT_TRUE(link1.inertial.inertia.isApprox(interlink::Matrix3::Identity()));
}

TEST(ShiftLights, DefaultOverheadLightOppositeGravity) {
  const LoadResult result = load(shiftCorpus("pendulum/pendulum.json"));  // no "fixed", no lights
  ASSERT_TRUE(result.ok()) << interlink::test::dump(result.diagnostics);
  const auto& world = result.document.worlds.front();
  ASSERT_EQ(world.lights.size(), 1u);
  const auto& light = world.lights.front();
  EXPECT_EQ(light.type, interlink::LightType::Directional);
  // gravity (0, 0, 9.81): +z is down, so the light sits at -z and shines along +z.
  EXPECT_TRUE(light.direction.isApprox(Vector3(0, 0, 1)));
  EXPECT_LT(light.pose.pose.translation().z(), 0);
}

TEST(ShiftMeshes, MeasuredThroughAssimp) {
  const LoadResult result = loadDoublePendulum();
  ASSERT_TRUE(result.ok()) << interlink::test::dump(result.diagnostics);
  const auto& link = result.document.worlds.front().models.front().links.front();
  ASSERT_EQ(link.visuals.size(), 1u);
  const auto& geometry = link.visuals.front().geometry;
  EXPECT_EQ(geometry.type, interlink::GeometryType::Mesh);
  EXPECT_EQ(geometry.meshUri, "link.obj");
  EXPECT_EQ(link.visuals.front().material, "link.mtl");
  ASSERT_TRUE(geometry.mesh.has_value());
  // link.obj: 444 "f" lines; its "v" lines span x 0..0.1, y -0.1..0.1, z -1.1..0.1.
  EXPECT_EQ(geometry.mesh->faceCount, 444u);
  EXPECT_GT(geometry.mesh->vertexCount, 0u);
  EXPECT_TRUE(geometry.mesh->boundsMin.isApprox(Vector3(0, -0.1, -1.1), 1e-6)) << geometry.mesh->boundsMin.transpose();
  EXPECT_TRUE(geometry.mesh->boundsMax.isApprox(Vector3(0.1, 0.1, 0.1), 1e-6)) << geometry.mesh->boundsMax.transpose();
}

TEST(ShiftMeshes, Schema20GeometryListIsRead) {
  const LoadResult result = load(shiftCorpus("slider_crank/slider_crank.json"));  // "geometry": [{type, filename}]
  ASSERT_TRUE(result.ok()) << interlink::test::dump(result.diagnostics);
  const auto& crank = result.document.worlds.front().models.front().links.front();
  EXPECT_EQ(crank.name, "crank");
  ASSERT_EQ(crank.visuals.size(), 1u);
  EXPECT_EQ(crank.visuals.front().geometry.meshUri, "crank.obj");
  ASSERT_TRUE(crank.visuals.front().geometry.mesh.has_value());
  EXPECT_GT(crank.visuals.front().geometry.mesh->faceCount, 0u);
  // 2.0 "inertia" holds the mass.
  EXPECT_DOUBLE_EQ(crank.inertial.mass, 1.0);
  EXPECT_DOUBLE_EQ(crank.inertial.inertia(1, 1), 0.1);
}

TEST(ShiftMeshes, MissingMeshIsAWarning) {
  const LoadResult result = load(shiftCorpus("collision/collision_test_2.json"));
  EXPECT_TRUE(result.ok()) << interlink::test::dump(result.diagnostics);
  const auto* warning = findDiagnostic(result.diagnostics, ErrorCode::URI_LOOKUP, Severity::Warning);
  ASSERT_NE(warning, nullptr) << interlink::test::dump(result.diagnostics);
  EXPECT_GT(warning->where.line, 0);
  const auto& link = result.document.worlds.front().models.front().links.front();
  ASSERT_FALSE(link.visuals.empty());
  EXPECT_FALSE(link.visuals.front().geometry.mesh.has_value());
}

TEST(ShiftComments, CommentsAndTrailingCommasKeepPositions) {
  // excavator.json (2.0.0) has // comments, one of which leaves a trailing comma behind.
  const std::string path = shiftCorpus("excavator/excavator.json");
  const LoadResult result = load(path);
  ASSERT_TRUE(result.ok()) << interlink::test::dump(result.diagnostics);
  EXPECT_EQ(result.document.formatVersion, "2.0.0");
  const auto* comma = findDiagnostic(result.diagnostics, ErrorCode::JSON_SYNTAX, Severity::Warning);
  ASSERT_NE(comma, nullptr);
  // Line 31 is `        "omega_n": 50.0,` followed by two commented-out lines and `}`.
  EXPECT_EQ(comma->where.line, 31);
  EXPECT_EQ(comma->where.column, 24);
}

TEST(ShiftLoops, SliderCrankClosesAtItsInitialDisplacement) {
  const LoadResult result = load(shiftCorpus("slider_crank/slider_crank.json"));
  ASSERT_TRUE(result.ok()) << interlink::test::dump(result.diagnostics);
  // Breadth first from the fixed frame: crank (A) and piston (B) first, then the connecting rod
  // through D from the crank; C (connecting rod -> piston) closes the loop.
  std::vector<std::string> loops;
  for (const auto& joint : result.kinematics.joints())
    if (joint.loopClosure) loops.push_back(joint.name);
  ASSERT_EQ(loops, std::vector<std::string>{"slider_crank::C_connecting_rod_to_piston"});
  const auto& model = result.document.worlds.front().models.front();
  const auto c = shiftJoint(model, "C_connecting_rod_to_piston");
  EXPECT_EQ(c.sense, interlink::shift::JointSense::LoopClosure);
  EXPECT_EQ(c.parentFrame, "connecting_rod:2h_plus");
  EXPECT_EQ(c.type, "revolute");  // as written
  // The file's initial displacements assemble the mechanism: both frames of C meet.
  const auto q = result.kinematics.initialConfiguration();
  const Pose rodEnd = poseAt(result, "slider_crank::connecting_rod:2h_plus", q);
  const Pose piston = poseAt(result, "slider_crank::piston", q);
  EXPECT_LT((rodEnd.translation() - piston.translation()).norm(), 1e-4);
  // The rotation between them is C's own coordinate: Rx(2.80968).
  const Eigen::AngleAxisd relative(rodEnd.linear().transpose() * piston.linear());
  EXPECT_NEAR(relative.angle(), 2.80968, 1e-4);
  EXPECT_TRUE(relative.axis().isApprox(Vector3::UnitX(), 1e-6)) << relative.axis().transpose();
}

/// Largest distance, at the file's initial displacement, between the two frames of any loop-closing
/// joint (the pair as written is kept in the model's Shift record).
double largestLoopGap(const LoadResult& result, std::size_t& loops) {
  interlink::Diagnostics diagnostics;
  auto poses = result.kinematics.framePoses(result.kinematics.initialConfiguration(), diagnostics);
  EXPECT_TRUE(poses.has_value()) << interlink::test::dump(diagnostics);
  if (!poses) return 1e9;
  double gap = 0;
  std::function<void(const interlink::Model&, const std::string&)> walk = [&](const interlink::Model& model,
                                                                              const std::string& scope) {
    for (const auto& joint : model.joints) {
      if (!joint.loopClosure) continue;
      ++loops;
      auto scoped = [&](const std::string& frame) {
        return frame == "world" || frame.rfind("fixed:", 0) == 0 ? frame : scope + frame;
      };
      const auto written = shiftJoint(model, joint.name);
      auto a = result.graph.find(scoped(written.parentFrame));
      auto b = result.graph.find(scoped(written.childFrame));
      EXPECT_TRUE(a && b) << joint.name;
      if (a && b) gap = std::max(gap, ((*poses)[*a].translation() - (*poses)[*b].translation()).norm());
    }
    for (const auto& nested : model.models) walk(nested, scope + nested.name + "::");
  };
  for (const auto& model : result.document.worlds.front().models) walk(model, model.name + "::");
  return gap;
}

TEST(ShiftLoops, AssembledMechanismsCloseTheirLoops) {
  // These files give initial displacements that assemble every loop (to the digits they print);
  // bricard reaches its loop through two joints whose sense opposes the tree.
  const std::vector<std::pair<const char*, double>> files = {{"sarrus/sarrus.json", 1e-9},
                                                             {"slider_crank/slider_crank.json", 1e-4},
                                                             {"klann_linkage/klann_linkage.json", 1e-3},
                                                             {"abiflexx_d4_1300/abiflexx_d4_1300.json", 1e-3},
                                                             {"bricard/bricard_asphalt.json", 2e-3}};
  for (const auto& [file, tolerance] : files) {
    const LoadResult result = load(shiftCorpus(file));
    ASSERT_TRUE(result.ok()) << interlink::test::dump(result.diagnostics);
    std::size_t loops = 0;
    EXPECT_LT(largestLoopGap(result, loops), tolerance) << file;
    EXPECT_GT(loops, 0u) << file;
  }
  const LoadResult bricard = load(shiftCorpus("bricard/bricard_asphalt.json"));
  const auto& model = bricard.document.worlds.front().models.front();
  EXPECT_EQ(shiftJoint(model, "A").sense, interlink::shift::JointSense::Reversed);
  EXPECT_EQ(shiftJoint(model, "E").sense, interlink::shift::JointSense::Reversed);
}

TEST(ShiftLoops, TreeCliListsLoopClosures) {
  const auto out = interlink::test::run(interlink::test::cliPath() + " tree " +
                                        shiftCorpus("slider_crank/slider_crank_3substructures.json"));
  EXPECT_EQ(out.exitCode, 0) << out.output;
  EXPECT_NE(out.output.find("loop closures:"), std::string::npos) << out.output;
  EXPECT_NE(out.output.find("slider_crank::K_connecting_rod3_piston3"), std::string::npos) << out.output;
}

// ---------------------------------------------------------------------------------------------
// Our own file: deep assemblies, ':' paths, restraints, a reversed joint, an assembly off.

class ShiftDeepAssemblies : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { result_ = new LoadResult(load(testData("deep_assemblies.json"))); }
  static void TearDownTestSuite() {
    delete result_;
    result_ = nullptr;
  }
  static LoadResult* result_;
};
LoadResult* ShiftDeepAssemblies::result_ = nullptr;

TEST_F(ShiftDeepAssemblies, LoadsIntoNestedModels) {
  const LoadResult& r = *result_;
  ASSERT_TRUE(r.ok()) << interlink::test::dump(r.diagnostics);
  const auto& models = r.document.worlds.front().models;
  // Two top-level assemblies: a root model named after the file holds them.
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models.front().name, "deep_assemblies");
  EXPECT_NE(findModel(models, "deep_assemblies::factory::workcell1::robot2"), nullptr);
  EXPECT_NE(findModel(models, "deep_assemblies::yard"), nullptr);
  const Counts counts = countsOf(r);
  EXPECT_EQ(counts.bodies, 6u);  // floor, base, body1, body2, cart, flag
  EXPECT_EQ(counts.joints, 7u);
  EXPECT_EQ(counts.loops, 1u);
}

TEST_F(ShiftDeepAssemblies, SwitchedOffAssemblyIsLeftOutButKept) {
  const LoadResult& r = *result_;
  const auto& models = r.document.worlds.front().models;
  EXPECT_EQ(findModel(models, "deep_assemblies::factory::workcell2"), nullptr);
  EXPECT_FALSE(r.graph.find("deep_assemblies::factory::workcell2::ghost").has_value());
  const auto* factory = findModel(models, "deep_assemblies::factory");
  ASSERT_NE(factory, nullptr);
  EXPECT_TRUE(std::any_of(factory->kept.begin(), factory->kept.end(),
                          [](const interlink::KeptElement& k) { return k.path == "assembly/workcell2"; }));
  const auto* note = findDiagnostic(r.diagnostics, ErrorCode::NONE, Severity::Note);
  ASSERT_NE(note, nullptr);
  EXPECT_NE(note->message.find("workcell2"), std::string::npos);
  // A joint of an active assembly that reaches into it is left out, with a warning, and kept.
  const auto* leash = findDiagnostic(r.diagnostics, ErrorCode::ELEMENT_INVALID, Severity::Warning);
  ASSERT_NE(leash, nullptr) << interlink::test::dump(r.diagnostics);
  EXPECT_NE(leash->message.find("ghost_leash"), std::string::npos);
  EXPECT_FALSE(r.graph.find("deep_assemblies::factory::ghost_leash").has_value());
  EXPECT_TRUE(std::any_of(factory->kept.begin(), factory->kept.end(),
                          [](const interlink::KeptElement& k) { return k.path == "joint/ghost_leash"; }));
}

TEST_F(ShiftDeepAssemblies, CrossAssemblyJointLivesInTheCommonModel) {
  const LoadResult& r = *result_;
  const auto& root = r.document.worlds.front().models.front();
  // Declared in "yard", it connects factory:floor to yard's cart: only the root model holds both.
  auto joint = std::find_if(root.joints.begin(), root.joints.end(),
                            [](const interlink::Joint& j) { return j.name == "yard:cart_link"; });
  ASSERT_NE(joint, root.joints.end());
  EXPECT_EQ(joint->parent, "factory::floor");
  EXPECT_EQ(joint->child, "yard::cart");
  // Breadth first from the fixed frame, the cart is reached by its float joint at the same depth
  // as the floor: the link between them closes the loop.
  EXPECT_TRUE(joint->loopClosure);
  EXPECT_EQ(shiftJoint(root, "yard:cart_link").parentFrame, "factory::floor:cell_mount");
  EXPECT_EQ(shiftJoint(root, "yard:cart_link").sense, interlink::shift::JointSense::LoopClosure);
}

TEST_F(ShiftDeepAssemblies, ReversedJointAndPathsGiveHandComputedPoses) {
  const LoadResult& r = *result_;
  ASSERT_TRUE(r.ok());
  const auto* robot = findModel(r.document.worlds.front().models, "deep_assemblies::factory::workcell1::robot2");
  ASSERT_NE(robot, nullptr);
  EXPECT_EQ(shiftJoint(*robot, "elbow").sense, interlink::shift::JointSense::Reversed);
  auto elbow = std::find_if(robot->joints.begin(), robot->joints.end(),
                            [](const interlink::Joint& j) { return j.name == "elbow"; });
  ASSERT_NE(elbow, robot->joints.end());
  EXPECT_EQ(elbow->parent, "body1");  // the tree reaches body1 first
  EXPECT_EQ(elbow->child, "body2");
  ASSERT_EQ(elbow->axes.size(), 1u);
  EXPECT_TRUE(elbow->axes.front().xyz.isApprox(Vector3(-1, 0, 0)));

  const auto q = r.kinematics.initialConfiguration();
  const std::string robot2 = "deep_assemblies::factory::workcell1::robot2::";
  // dock (1,0,0); floor = dock + rigid T(0,0,0.5); cell_mount = floor + (0,2,0);
  // base = cell_mount * Rz(0.5); top = base * T(0,0,-1); body1 = top * Ry(0.25).
  const Pose floor = makePose({1, 0, 0.5}, rotZ(0));
  const Pose base = makePose({1, 2, 0.5}, rotZ(0.5));
  const Pose body1 = makePose({1, 2, -0.5}, rotZ(0.5) * rotY(0.25));
  expectPoseNear(poseAt(r, "deep_assemblies::factory::floor", q), floor, 1e-12, "floor");
  expectPoseNear(poseAt(r, "deep_assemblies::factory::workcell1::base", q), base, 1e-12, "base");
  expectPoseNear(poseAt(r, robot2 + "body1", q), body1, 1e-12, "body1");
  // elbow: X_body2,frame1(q) = Tx(0.1), so body2 = body1 * T(0.3,0,0) * T(-0.1,0,0) = body1 * T(0.2,0,0).
  const Pose body2 = body1 * Eigen::Translation3d(0.2, 0, 0);
  expectPoseNear(poseAt(r, robot2 + "body2", q), body2, 1e-12, "body2");
  // cart: float joint with R = Rz(90 deg), T = (4, 5, 6) from the fixed origin.
  expectPoseNear(poseAt(r, "deep_assemblies::yard::cart", q), makePose({4, 5, 6}, rotZ(kPi / 2)), 1e-12, "cart");
  // flag: spherical joint on the cart with R = Rx(90 deg).
  expectPoseNear(poseAt(r, "deep_assemblies::yard::flag", q), makePose({4, 5, 6}, rotZ(kPi / 2) * rotX(kPi / 2)), 1e-12,
                 "flag");
}

TEST_F(ShiftDeepAssemblies, LightRidesOnAMovingBody) {
  const auto& world = result_->document.worlds.front();
  ASSERT_EQ(world.lights.size(), 1u);  // a light is given: no default light
  const auto& light = world.lights.front();
  EXPECT_EQ(light.name, "arm_lamp");
  EXPECT_EQ(light.type, interlink::LightType::Spot);
  EXPECT_EQ(light.attachedTo, "deep_assemblies::factory::workcell1::robot2::body1:frame1");
  EXPECT_TRUE(result_->graph.find(light.attachedTo).has_value());
  EXPECT_TRUE(light.diffuse.isApprox(Eigen::Vector4d(0.5, 0.6, 0.7, 1)));
  EXPECT_EQ(world.parameters.at("light.arm_lamp.Ka"), "0.1 0.1 0.1");
}

TEST_F(ShiftDeepAssemblies, RestraintsAreTypedAndEvaluable) {
  using interlink::shift::Distance;
  using interlink::shift::RestraintType;
  using interlink::shift::RestraintVariable;
  const LoadResult& r = *result_;
  const auto& models = r.document.worlds.front().models;
  const auto* robot = findModel(models, "deep_assemblies::factory::workcell1::robot2");
  ASSERT_NE(robot, nullptr);
  const auto* spring = restraint(*robot, "elbow_spring");
  ASSERT_NE(spring, nullptr);
  EXPECT_EQ(spring->type, RestraintType::Spring);
  EXPECT_EQ(spring->variable, RestraintVariable::Displacement);
  EXPECT_EQ(spring->joint, "deep_assemblies::factory::workcell1::robot2::elbow");
  EXPECT_TRUE(r.graph.find(spring->joint).has_value());
  EXPECT_TRUE(spring->firstFrame.empty());
  // knot_points [0], coefficients [[2, 0.5, 0], [0]]: 2x^2 + 0.5x below 0, then 0.
  EXPECT_EQ(spring->function.knots, std::vector<double>{0.0});
  ASSERT_EQ(spring->function.coefficients.size(), 2u);
  EXPECT_EQ(spring->function.coefficients[0], (std::vector<double>{2, 0.5, 0}));
  ASSERT_TRUE(spring->function.valid());
  EXPECT_DOUBLE_EQ(spring->function(-1.0), 2.0 - 0.5);
  EXPECT_DOUBLE_EQ(spring->function(-0.5), 0.5 - 0.25);
  EXPECT_DOUBLE_EQ(spring->function(0.0), 0.0);
  EXPECT_DOUBLE_EQ(spring->function(3.0), 0.0);
  EXPECT_DOUBLE_EQ(spring->function.derivative(-1.0), -4.0 + 0.5);
  // A restraint lives in the model of the assembly that declares it, nowhere else.
  const auto* factory = findModel(models, "deep_assemblies::factory");
  ASSERT_NE(factory, nullptr);
  EXPECT_EQ(restraint(*factory, "elbow_spring"), nullptr);

  const auto* tether = restraint(*factory, "tether");
  ASSERT_NE(tether, nullptr);
  EXPECT_EQ(tether->type, RestraintType::Damper);
  EXPECT_EQ(tether->variable, RestraintVariable::Velocity);
  EXPECT_EQ(tether->distance, Distance::Tz);
  EXPECT_TRUE(tether->joint.empty());
  EXPECT_EQ(tether->firstFrame, "deep_assemblies::factory::workcell1::robot2::body1:frame1");
  EXPECT_EQ(tether->secondFrame, "deep_assemblies::factory::floor:cell_mount");
  EXPECT_TRUE(r.graph.find(tether->firstFrame).has_value());
  EXPECT_TRUE(r.graph.find(tether->secondFrame).has_value());
  EXPECT_DOUBLE_EQ(tether->function(-2.0), 0.0);
  EXPECT_DOUBLE_EQ(tether->function(0.5), 1.5);
  EXPECT_DOUBLE_EQ(tether->function(1.0), 6.0);
  // Nothing of the restraints is left in the string parameters.
  for (const auto* model : {robot, factory})
    for (const auto& [key, value] : model->parameters) EXPECT_EQ(key.rfind("restraint.", 0), std::string::npos) << key;
}

TEST(ShiftUnits, ConvertedToSi) {
  // degrees, millimetres, grams: the model is SI, the units as written stay in the parameters.
  const LoadResult r = load(testData("units.json"));
  ASSERT_TRUE(r.ok()) << interlink::test::dump(r.diagnostics);
  const auto& world = r.document.worlds.front();
  EXPECT_TRUE(world.gravity.isApprox(Vector3(0, 0, 9.81)));
  EXPECT_EQ(world.parameters.at("units.length"), "millimeters");
  const auto& rod = world.models.front().links.front();
  EXPECT_DOUBLE_EQ(rod.inertial.mass, 0.5);
  EXPECT_TRUE(rod.inertial.centerOfMass.translation().isApprox(Vector3(0, 0, -0.25)));
  EXPECT_NEAR(rod.inertial.inertia(0, 0), 1e-3, 1e-15);  // 1e6 g mm^2
  const auto q = r.kinematics.initialConfiguration();
  ASSERT_EQ(q.size(), 1u);
  EXPECT_DOUBLE_EQ(q[0], kPi / 2);
  EXPECT_DOUBLE_EQ(world.models.front().joints.front().initialVelocities.at(0), kPi);
  // tip = pivot (0,0,-1) + Ry(90 deg) (0,0,-0.5) = (-0.5, 0, -1).
  expectPoseNear(poseAt(r, "arm::rod:tip", q), makePose({-0.5, 0, -1}, rotY(kPi / 2)), 1e-12, "tip");
}

TEST(ShiftPiecewise, SeedExample) {
  // knot_points [0], coefficients [[2, 0.5, 0], [0]]: 2 phi^2 + 0.5 phi for phi < 0, else 0.
  interlink::shift::PiecewisePolynomial f{{0.0}, {{2, 0.5, 0}, {0}}};
  ASSERT_TRUE(f.valid());
  for (double phi : {-3.0, -1.0, -0.25, -1e-3}) EXPECT_DOUBLE_EQ(f(phi), 2 * phi * phi + 0.5 * phi) << phi;
  for (double phi : {0.0, 1e-3, 0.5, 10.0}) EXPECT_DOUBLE_EQ(f(phi), 0.0) << phi;
  EXPECT_DOUBLE_EQ(f.derivative(-1.0), 4 * -1.0 + 0.5);
  interlink::shift::PiecewisePolynomial wrong{{0.0, 1.0}, {{1}, {2}}};
  EXPECT_FALSE(wrong.valid());
  EXPECT_FALSE((interlink::shift::PiecewisePolynomial{{1.0, 0.0}, {{1}, {2}, {3}}}.valid()));  // knots must increase
  EXPECT_FALSE((interlink::shift::PiecewisePolynomial{{0.0}, {{1}, {}}}.valid()));              // empty array
  const interlink::shift::PiecewisePolynomial constant{{}, {{4}}};
  ASSERT_TRUE(constant.valid());
  EXPECT_DOUBLE_EQ(constant(-7.0), 4.0);
}

// ---------------------------------------------------------------------------------------------
// Bad input: code and position.

void expectError(const LoadResult& result, ErrorCode code, int line, int column, const std::string& fragment) {
  EXPECT_FALSE(result.ok());
  bool found = false;
  for (const auto& d : result.diagnostics) {
    if (d.code != code || !d.isError()) continue;
    if (d.where.line != line || d.where.column != column) continue;
    found = true;
    EXPECT_NE(d.message.find(fragment), std::string::npos) << d.format();
    EXPECT_NE(d.where.file.str().find(".json"), std::string::npos);
  }
  EXPECT_TRUE(found) << "expected " << interlink::codeName(code) << " at " << line << ":" << column << "\n"
                     << interlink::test::dump(result.diagnostics);
}

TEST(ShiftBadInput, DuplicateBodyNamesInOneAssembly) {
  expectError(load(testData("duplicate_body.json")), ErrorCode::DUPLICATE_NAME, 8, 18, "body 'link' is defined twice");
}

TEST(ShiftBadInput, DuplicateJointNamesInOneAssembly) {
  // Joint names are unique (the document): renaming the second "hinge" left the restraint on
  // "hinge" to hit either joint.
  const LoadResult result = load(testData("duplicate_joint.json"));
  expectError(result, ErrorCode::DUPLICATE_NAME, 9, 18, "joint 'hinge' is defined twice in assembly 'arm' (first at line 8)");
  std::size_t duplicates = 0;
  for (const auto& d : result.diagnostics) duplicates += d.code == ErrorCode::DUPLICATE_NAME ? 1 : 0;
  EXPECT_EQ(duplicates, 1u) << interlink::test::dump(result.diagnostics);
}

TEST(ShiftPaths, APathEndingInAFrameNamesThatFrame) {
  // "factory:workcell1:robot2:body1:frame1" names frame1 on body1 (the document's example): as a
  // pair's body entry (then with "origin"), as a whole endpoint, in 2.0's list form and for a light.
  const LoadResult result = load(testData("frame_paths.json"));
  ASSERT_TRUE(result.ok()) << interlink::test::dump(result.diagnostics);
  const auto& world = result.document.worlds.front();
  ASSERT_EQ(world.lights.size(), 1u);
  const std::string& lamp = world.lights.front().attachedTo;
  EXPECT_NE(lamp.find("robot::tip:lens"), std::string::npos) << lamp;
  EXPECT_TRUE(result.graph.find(lamp).has_value()) << lamp;

  const auto q = result.kinematics.initialConfiguration();
  ASSERT_EQ(q.size(), 1u);
  EXPECT_DOUBLE_EQ(q[0], 0.5);
  // base = dock (0, 0, 1); flange = base + (0, 0, 0.5); tip = flange * Rz(0.5); lens = tip * T(0.1, 0, 0).
  const Pose tip = makePose({0, 0, 1.5}, rotZ(0.5));
  const std::string robot = lamp.substr(0, lamp.find("tip:lens"));
  expectPoseNear(poseAt(result, robot + "tip", q), tip, 1e-12, "tip");
  expectPoseNear(poseAt(result, lamp, q), tip * Eigen::Translation3d(0.1, 0, 0), 1e-12, "lens");

  const interlink::Model* factory = nullptr;
  std::function<void(const interlink::Model&)> search = [&](const interlink::Model& model) {
    if (restraint(model, "tether")) factory = &model;
    for (const auto& nested : model.models) search(nested);
  };
  for (const auto& model : world.models) search(model);
  ASSERT_NE(factory, nullptr);
  const auto* tether = restraint(*factory, "tether");
  EXPECT_EQ(tether->firstFrame, lamp);
  EXPECT_EQ(tether->secondFrame, robot + "base:flange");
  EXPECT_TRUE(result.graph.find(tether->secondFrame).has_value()) << tether->secondFrame;
}

TEST(ShiftPaths, APathEndingInAFrameTakesNoOtherFrame) {
  const std::string text = R"({"model_parameters": {"version": "0.2"},
  "assemblies": [{"name": "arm", "bodies": [{"name": "b", "mass": 1.0, "frames": [{"name": "f", "T": [1, 0, 0]}]}],
    "joints": [{"name": "j", "type": "Rx", "body_frame_pairs": [["fixed", "origin"], ["arm:b:f", "g"]]}]}]})";
  const LoadResult result = loader().loadString(text, "paths.json");
  expectError(result, ErrorCode::JOINT_CHILD_LINK_INVALID, 3, 98, "'arm:b:f' already names frame 'f'");
}

TEST(ShiftBadInput, BodiesAndJointsInsideFixedAreErrors) {
  // The fixed frame holds frames, lights and terrain: bodies there used to vanish with a warning.
  const LoadResult result = load(testData("bodies_in_fixed.json"));
  expectError(result, ErrorCode::ELEMENT_INVALID, 5, 15, "'bodies' inside 'fixed'");
  expectError(result, ErrorCode::ELEMENT_INVALID, 6, 15, "'joints' inside 'fixed'");
}

TEST(ShiftBadInput, UnknownFrameAndUnknownBodyInPairsAreBothReported) {
  const LoadResult result = load(testData("unknown_reference.json"));
  expectError(result, ErrorCode::JOINT_PARENT_LINK_INVALID, 12, 72, "has no frame 'wrist'");
  expectError(result, ErrorCode::JOINT_CHILD_LINK_INVALID, 13, 84, "no body 'hand'");
}

TEST(ShiftBadInput, WrongCoefficientCount) {
  expectError(load(testData("bad_coefficients.json")), ErrorCode::ELEMENT_INVALID, 12, 26,
              "2 knot point(s) need 3 coefficient arrays");
}

TEST(ShiftBadInput, UnknownJointType) {
  expectError(load(testData("unknown_joint_type.json")), ErrorCode::ELEMENT_INVALID, 12, 19,
              "unknown joint type 'helical'");
}

TEST(ShiftBadInput, InvalidJsonReportsLineAndColumnOfTheFileAsWritten) {
  // Line 6 is `    {"name": "arm" "bodies": []}`: the comma is missing before "bodies" (column
  // 20..27); the comments above it must not shift the position. Jansson points at the end of
  // the offending token.
  const LoadResult result = load(testData("invalid_json.json"));
  EXPECT_FALSE(result.ok());
  const auto* error = findDiagnostic(result.diagnostics, ErrorCode::JSON_SYNTAX);
  ASSERT_NE(error, nullptr) << interlink::test::dump(result.diagnostics);
  EXPECT_EQ(error->where.line, 6);
  EXPECT_EQ(error->where.column, 27);
}

TEST(ShiftBadInput, UnterminatedCommentIsReportedWhereItStarts) {
  expectError(load(testData("unterminated_comment.json")), ErrorCode::JSON_SYNTAX, 3, 3, "never closed");
}

TEST(ShiftBadInput, ReservedAndInvalidNames) {
  const LoadResult result = load(testData("bad_names.json"));
  expectError(result, ErrorCode::RESERVED_NAME, 3, 33, "'origin' is reserved");
  expectError(result, ErrorCode::NAME_INVALID, 8, 18, "':' separates assembly paths");
  expectError(result, ErrorCode::RESERVED_NAME, 9, 60, "'origin' is reserved");
}

// ---------------------------------------------------------------------------------------------
// The sniffer claims .json files with Shift's shape only.

TEST(ShiftSniffer, ClaimsShiftShapeOnly) {
  const auto plugin = loader().plugins().findByName("shift");
  ASSERT_TRUE(static_cast<bool>(plugin));
  const auto* format = plugin.descriptor().format;
  ASSERT_NE(format, nullptr);
  ASSERT_NE(format->sniff, nullptr);
  const std::string shift = R"({"model_parameters": {"version": "0.2"}, "assemblies": [])";
  const std::string fiala = R"({"fixed": {"frames": [], "lights": []}, "assemblies": [{"bodies": []}]})";
  const std::string other = R"({"name": "robot", "links": [{"name": "base"}], "version": 3})";
  EXPECT_GE(format->sniff("a.json", shift.data(), shift.size()), 90);
  EXPECT_GE(format->sniff("a.json", fiala.data(), fiala.size()), 60);
  EXPECT_EQ(format->sniff("a.json", other.data(), other.size()), 0);
  EXPECT_EQ(format->sniff("a.json", "", 0), 0);
}

}  // namespace
