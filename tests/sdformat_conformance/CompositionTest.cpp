// SDFormat composition as Gazebo's files use it (issue 12, classes 1, 2, 3, 7 and 8), on files of
// tests/data/sdformat_composition and of Gazebo's own (tests/data/gazebo). Where libsdformat 12.3
// reads a file, Interlink must give its verdict and the same pose for every frame (1e-9); rules libsdformat 12.3
// does not implement (the composition proposal's //include/frame, //include/joint and
// //include/static) are checked against poses derived by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include "ReferenceSdformat.hpp"
#include "SharedLoader.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/PoseMath.hpp"

namespace interlink::conformance {
namespace {

constexpr double kTolerance = 1e-9;

std::string dataFile(const std::string& name) { return test::sourceDir() + "/tests/data/sdformat_composition/" + name; }

const Loader& loader() { return test::sharedLoader(); }

LoadResult load(const std::string& path, const std::string& world = {}) {
  LoadOptions options;
  options.world = world;
  // Where the reference side's find callback looks too (models/NAME from any file).
  options.resourcePaths = {std::filesystem::path(dataFile("")).parent_path().string()};
  return loader().loadFile(path, options);
}

bool near(const Pose& a, const Pose& b, double tolerance = kTolerance) {
  return (a.translation() - b.translation()).cwiseAbs().maxCoeff() <= tolerance &&
         (a.linear() - b.linear()).cwiseAbs().maxCoeff() <= tolerance;
}

std::string describe(const Pose& pose) {
  std::ostringstream out;
  out << "t=(" << pose.translation().transpose() << ") R=[" << pose.linear().row(0) << "; " << pose.linear().row(1)
      << "; " << pose.linear().row(2) << "]";
  return out.str();
}

/// Loads `path` with both implementations: same verdict; for a valid file the same frames (name,
/// kind) at the same poses (within `tolerance`); for an invalid one, libsdformat's first error code
/// among ours.
void expectSameAsLibsdformat(const std::string& path, double tolerance = kTolerance) {
  const ReferenceResult theirs = loadWithLibsdformat(path, std::filesystem::path(path).parent_path().string());
  const LoadResult ours = load(path);
  ASSERT_EQ(ours.ok(), theirs.valid) << path << "\nInterlink:\n"
                                     << test::dump(ours.diagnostics) << "libsdformat:\n"
                                     << ::testing::PrintToString(theirs.messages);
  if (!theirs.valid) {
    bool found = false;
    for (const auto& d : ours.diagnostics) found |= d.isError() && codeName(d.code) == theirs.firstCode;
    EXPECT_TRUE(found) << path << ": libsdformat's " << theirs.firstCode << " is not among Interlink's errors:\n"
                       << test::dump(ours.diagnostics);
    return;
  }
  ASSERT_TRUE(theirs.resolveErrors.empty()) << ::testing::PrintToString(theirs.resolveErrors);
  std::map<std::pair<std::string, std::string>, Pose> mine;
  const auto& frames = ours.graph.frames();
  for (std::size_t i = 1; i < frames.size(); ++i) mine[{frames[i].name, frameKindName(frames[i].kind)}] = frames[i].pose;
  ASSERT_FALSE(theirs.frames.empty());
  for (const NamedPose& frame : theirs.frames) {
    const auto it = mine.find({frame.name, frame.kind});
    if (it == mine.end()) {
      ADD_FAILURE() << path << ": " << frame.kind << " '" << frame.name << "' is missing in Interlink";
      continue;
    }
    EXPECT_TRUE(near(it->second, frame.pose, tolerance)) << path << ": " << frame.kind << " '" << frame.name
                                              << "'\n  Interlink:   " << describe(it->second)
                                              << "\n  libsdformat: " << describe(frame.pose);
    mine.erase(it);
  }
  for (const auto& [key, pose] : mine) ADD_FAILURE() << path << ": " << key.second << " '" << key.first << "' only in Interlink";
}

const Diagnostic* findError(const Diagnostics& diagnostics, ErrorCode code) {
  for (const auto& d : diagnostics) {
    if (d.isError() && d.code == code) return &d;
  }
  return nullptr;
}

Pose poseOf(const LoadResult& loaded, const std::string& frame) {
  const auto index = loaded.graph.find(frame);
  EXPECT_TRUE(index) << "no frame '" << frame << "'";
  return index ? loaded.graph.frames()[*index].pose : Pose::Identity();
}

/// Listed exception to 1e-9: libsdformat writes a merged model's pose out as text with six
/// significant digits and reads it back (a yaw of 0.123456789 comes back as 0.123457; in Gazebo's
/// buoyant_lrauv.sdf -180 degrees becomes -3.14159), so its poses of such files are off by up to
/// 4e-6. The same rules at poses that survive six digits agree to 1e-9 (merge_include*.sdf below).
constexpr double kLibsdformatMergedPoseText = 1e-5;

// --- files both implementations read alike ----------------------------------------------------

struct SameAsLibsdformat {
  const char* label;
  const char* file;  // under tests/data/sdformat_composition, or "vendored:" + a path under tests/data
  const char* shows;
  double tolerance = kTolerance;
};

const SameAsLibsdformat kSameAsLibsdformat[] = {
    {"merge_posed_relative_to_sibling", "merge_include.sdf",
     "class 1: the proxy frame is posed relative to the include's relative_to, the merged elements re-parented"},
    {"merge_default_pose", "merge_include_default_pose.sdf",
     "class 1: without an include pose the proxy keeps the model's pose, relative to the enclosing model frame"},
    {"merge_placement_frame", "merge_include_placement_frame.sdf",
     "class 1: <placement_frame> on a merge-include: the include's pose places that frame of the included model"},
    {"merge_placement_frame_nested", "merge_include_placement_nested.sdf",
     "class 1: a merge-include placed by a link of a model nested in the included model (a rotated pose: "
     "libsdformat's six-digit text of the merged pose)",
     kLibsdformatMergedPoseText},
    {"merge_placement_frame_unknown", "merge_include_placement_unknown.sdf",
     "class 1: a merge-include whose placement frame the included model does not have"},
    {"merge_name_clash", "merge_include_clash.sdf", "class 1: a merged link named like an enclosing link (DUPLICATE_NAME)"},
    {"relative_to_in_1_6", "relative_to_1_6.sdf", "class 3: relative_to honoured in 1.6; @frame wins over it"},
    {"included_1_6_in_1_9", "mixed_versions.sdf", "class 3: a 1.6 model keeps 1.6 rules inside a 1.9 world"},
    {"included_1_9_in_1_6", "mixed_versions_strict.sdf", "class 3: a 1.9 model keeps 1.9 rules inside a 1.6 world"},
    {"gazebo_joint_trajectory_controller", "vendored:gazebo/gz-sim/examples/worlds/joint_trajectory_controller.sdf",
     "class 3: Gazebo's 1.6 world that relies on relative_to"},
    {"duplicate_sensor_names", "duplicate_sensors.sdf", "class 8: two sensors of one name (DUPLICATE_NAME)"},
    {"static_model_canonical_link", "static_canonical_link.sdf",
     "class 8: no canonical-link check for a static model"},
};

void PrintTo(const SameAsLibsdformat& entry, std::ostream* out) { *out << entry.file; }

class SameAsLibsdformatTest : public testing::TestWithParam<SameAsLibsdformat> {};

TEST_P(SameAsLibsdformatTest, VerdictAndFramesEqualLibsdformats) {
  const std::string file = GetParam().file;
  const std::string path = file.rfind("vendored:", 0) == 0 ? test::vendored(file.substr(9)) : dataFile(file);
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  SCOPED_TRACE(GetParam().shows);
  expectSameAsLibsdformat(path, GetParam().tolerance);
}

INSTANTIATE_TEST_SUITE_P(Composition, SameAsLibsdformatTest, testing::ValuesIn(kSameAsLibsdformat),
                         [](const testing::TestParamInfo<SameAsLibsdformat>& param) { return std::string(param.param.label); });

// --- class 1: <include merge="true"> ---------------------------------------------------------

TEST(MergeInclude, GazeboBuoyantLrauvHasLibsdformatsFrames) {
  expectSameAsLibsdformat(test::vendored("gazebo/gz-sim/tutorials/files/underwater_vehicles/buoyant_lrauv.sdf"),
                          kLibsdformatMergedPoseText);
  const LoadResult loaded = load(test::vendored("gazebo/gz-sim/tutorials/files/underwater_vehicles/buoyant_lrauv.sdf"));
  // Interlink keeps the exact pose: the proxy frame is turned by -180 degrees about z.
  const Pose proxy = poseOf(loaded, "my_lrauv::_merged__my_lrauv__model__");
  EXPECT_TRUE(near(proxy, poseFromXyzRpy(0, 0, 0, 0, 0, -M_PI))) << describe(proxy);
}

// --- class 2: every world ---------------------------------------------------------------------

TEST(EveryWorld, AnErrorInTheSecondWorldIsReportedWhileTheFirstIsShown) {
  const LoadResult loaded = load(dataFile("two_worlds.sdf"));
  EXPECT_EQ(loaded.graph.worldIndex(), 0u);
  const Diagnostic* error = findError(loaded.diagnostics, ErrorCode::JOINT_CHILD_LINK_INVALID);
  ASSERT_TRUE(error) << test::dump(loaded.diagnostics);
  EXPECT_EQ(error->where.line, 11) << error->format();
  EXPECT_TRUE(loaded.graph.find("box::link"));
  // libsdformat refuses the file for the same reason.
  expectSameAsLibsdformat(dataFile("two_worlds.sdf"));
}

TEST(EveryWorld, GazeboMultipleWorldsEachWorldResolvesAndCanBeChosen) {
  const std::string path = test::vendored("gazebo/gz-sim/test/worlds/multiple_worlds.sdf");
  const LoadResult first = load(path);
  ASSERT_TRUE(first.ok()) << test::dump(first.diagnostics);
  ASSERT_EQ(first.document.worlds.size(), 3u);
  EXPECT_EQ(first.graph.worldIndex(), 0u);
  const std::string secondName = first.document.worlds[1].name;
  const LoadResult second = load(path, secondName);
  ASSERT_TRUE(second.ok()) << test::dump(second.diagnostics);
  EXPECT_EQ(second.graph.worldIndex(), 1u);
  // The shown world's models, and only those, are in the graph (box is in world_one only).
  EXPECT_TRUE(first.graph.find("box"));
  for (const Model& model : first.document.worlds[1].models) EXPECT_TRUE(second.graph.find(model.name)) << model.name;
  EXPECT_NE(first.graph.frames().size(), 0u);
  const LoadResult unknown = load(path, "no_such_world");
  const Diagnostic* usage = findError(unknown.diagnostics, ErrorCode::USAGE);
  ASSERT_TRUE(usage) << test::dump(unknown.diagnostics);
  EXPECT_NE(usage->message.find("world_one"), std::string::npos) << usage->message;
}

TEST(EveryWorld, CliFramesAndTreeTakeWorldAndSayWhichTheyShow) {
  const std::string path = test::vendored("gazebo/gz-sim/test/worlds/multiple_worlds.sdf");
  const auto frames = test::run(test::cliPath() + " frames '" + path + "' --world world_two");
  EXPECT_EQ(frames.exitCode, 0) << frames.output;
  EXPECT_NE(frames.output.find("world 'world_two' (2 of 3)"), std::string::npos) << frames.output;
  const auto tree = test::run(test::cliPath() + " tree '" + path + "'");
  EXPECT_EQ(tree.exitCode, 0) << tree.output;
  EXPECT_NE(tree.output.find("world 'world_one' (1 of 3)"), std::string::npos) << tree.output;
  const auto json = test::run(test::cliPath() + " frames '" + path + "' --world world_two --json");
  EXPECT_NE(json.output.find("\"world\":\"world_two\""), std::string::npos) << json.output;
  const auto unknown = test::run(test::cliPath() + " frames '" + path + "' --world nowhere");
  EXPECT_EQ(unknown.exitCode, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("no world named 'nowhere'"), std::string::npos) << unknown.output;
}

// --- class 7: //include/frame, //include/joint, //include/static ------------------------------

TEST(IncludeRules, FramesAndJointsOfAnIncludeJoinTheIncludedModel) {
  const LoadResult loaded = load(dataFile("include_frame_joint.sdf"));
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  // arm at (0 0 1); elbow = shoulder (0 0 0.2) * (0.5 0 0, pitch 0.4); camera_mount 0.1 above it.
  const Pose elbow = poseFromXyzRpy(0.5, 0, 1.2, 0, 0.4, 0);
  EXPECT_TRUE(near(poseOf(loaded, "arm::elbow"), elbow));
  EXPECT_TRUE(near(poseOf(loaded, "arm::camera_mount"), elbow * poseFromXyzRpy(0, 0, 0.1, 0, 0, 0)))
      << describe(poseOf(loaded, "arm::camera_mount"));
  // The added joint sits at the hand's model frame (0.95 0 1.3) and turns it about z.
  const Pose hand = poseFromXyzRpy(0.95, 0, 1.3, 0, 0, 0);
  EXPECT_TRUE(near(poseOf(loaded, "arm::wrist"), hand)) << describe(poseOf(loaded, "arm::wrist"));
  const auto& dofs = loaded.kinematics.dofs();
  ASSERT_EQ(dofs.size(), 2u);
  EXPECT_EQ(dofs[0].joint, "arm::bend");
  EXPECT_EQ(dofs[1].joint, "arm::wrist");
  Diagnostics fk;
  const auto poses = loaded.kinematics.framePoses({0.0, 0.5}, fk);
  ASSERT_TRUE(poses) << test::dump(fk);
  const Pose palm = (*poses)[*loaded.graph.find("arm::hand::palm")];
  EXPECT_TRUE(near(palm, hand * poseFromXyzRpy(0, 0, 0, 0, 0, 0.5))) << describe(palm);
  const Pose mount = (*poses)[*loaded.graph.find("arm::camera_mount")];
  EXPECT_TRUE(near(mount, elbow * poseFromXyzRpy(0, 0, 0.1, 0, 0, 0))) << describe(mount);
}

TEST(IncludeRules, StaticTrueMakesEveryIncludedModelStatic) {
  const LoadResult loaded = load(dataFile("include_static.sdf"));
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  const Model& rig = loaded.document.worlds.at(0).models.at(0);
  ASSERT_EQ(rig.models.size(), 1u);
  const Model& cell = rig.models[0];
  EXPECT_FALSE(rig.isStatic);
  EXPECT_TRUE(cell.isStatic);
  ASSERT_EQ(cell.models.size(), 1u);
  const Model& arm = cell.models[0];
  EXPECT_TRUE(arm.isStatic) << "arm, included by cell";
  ASSERT_EQ(arm.models.size(), 1u);
  EXPECT_TRUE(arm.models[0].isStatic) << "hand, nested in the transitively included arm";
  // The poses stay those of the files: arm is included 0.5 along x in cell, its shoulder 0.2 up.
  EXPECT_TRUE(near(poseOf(loaded, "rig::cell::arm::shoulder"), poseFromXyzRpy(0.5, 0, 0.2, 0, 0, 0)));
}

TEST(IncludeRules, StaticFalseOnAStaticModelIsAnError) {
  const LoadResult loaded = load(dataFile("include_static_false.sdf"));
  const Diagnostic* error = findError(loaded.diagnostics, ErrorCode::ELEMENT_INVALID);
  ASSERT_TRUE(error) << test::dump(loaded.diagnostics);
  EXPECT_EQ(error->where.line, 5) << error->format();
  EXPECT_NE(error->message.find("false to true"), std::string::npos) << error->message;
}

// --- class 8: phase rules ---------------------------------------------------------------------

TEST(PhaseRules, AVisualAndACollisionOfOneLinkMayNotShareAName) {
  const LoadResult loaded = load(dataFile("sibling_names.sdf"));
  const Diagnostic* error = findError(loaded.diagnostics, ErrorCode::DUPLICATE_NAME);
  ASSERT_TRUE(error) << test::dump(loaded.diagnostics);
  EXPECT_EQ(error->where.line, 7) << error->format();
}

TEST(PhaseRules, BeforeSdformat17ASharedNameIsAWarning) {
  const LoadResult loaded = load(dataFile("sibling_names_1_5.sdf"));
  EXPECT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  bool warned = false;
  for (const auto& d : loaded.diagnostics) warned |= !d.isError() && d.code == ErrorCode::DUPLICATE_NAME;
  EXPECT_TRUE(warned) << test::dump(loaded.diagnostics);
}

}  // namespace
}  // namespace interlink::conformance
