// The Shift plugin on the public corpus and on files of its document: counts, poses at the
// initial displacement, lights, meshes, comments and closed loops. Loaded as the real shared
// library through interlink::Loader.
#include "ShiftTestSupport.hpp"

namespace {

using namespace shift_test;

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
  EXPECT_EQ(model.readingNotes.at("shift.units.angle"), "radians");
  const auto* shift = model.extensions.find<interlink::shift::ShiftAssembly>();
  ASSERT_NE(shift, nullptr);
  EXPECT_EQ(shift->includeDirectories, (std::vector<std::string>{"models/pendulum/", "examples/"}));
  EXPECT_EQ(model.readingNotes.at("shift.simulation.time_span"), "100");  // a number the physics took
  EXPECT_EQ(world.readingNotes.at("shift.units.length"), "meters");
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

}  // namespace
