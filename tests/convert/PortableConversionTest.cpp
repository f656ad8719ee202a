// Conversions a user can ship (issue 28): the output loads in the target's own tool (libsdformat
// 12, MuJoCo 2.2.2, check_urdf) and in Interlink with the same frames at non-zero configurations,
// names no absolute path unless asked, carries what the target can hold (URDF <gazebo> as
// libsdformat places it, an MJCF source's actuators, keyframes and defaults), and converting the
// output again changes nothing.
#include <gtest/gtest.h>

#include <sdf/sdf.hh>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "LibsdformatFrames.hpp"
#include "SharedLoader.hpp"
#include "ConversionText.hpp"
#include "MujocoModel.hpp"
#include "TestSupport.hpp"
#include "interlink/ModelQuery.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/QposLayout.hpp"
#include "interlink/convert/WriterRegistry.hpp"

namespace interlink {
namespace {

namespace fs = std::filesystem;

const std::string kData = test::sourceDir() + "/tests/data";
const std::string kUr5 = kData + "/example-robot-data/ur5_robot.urdf";
const std::string kAnymal = kData + "/example-robot-data/anymal_kinova.urdf";
const std::string kHumanoid = kData + "/mujoco/model/humanoid/humanoid.xml";
const std::string kSensors = kData + "/gz-sim/joint_test.sdf";
const std::string kHrdf = kData + "/hebi_description/A-2240-06.hrdf";
const std::string kSkel = std::string(DART_SKEL_DATA_DIR) + "/fullbody1.skel";

using test::sharedLoader;

std::string tempDir() {
  static const std::string dir = test::makeTempDir("interlink-portable");
  return dir;
}

test::CommandResult cli(const std::string& args) { return test::run(test::cliPath() + " " + args); }

LoadResult load(const std::string& path) {
  LoadOptions options;
  // Paths are followed by default (DART's SKEL files name meshes in a sibling directory).
  return sharedLoader().loadFile(path, options);
}

/// Converts `input` with the CLI to `output`; asserts exit status 0.
std::string convert(const std::string& input, const std::string& output, const std::string& extra = {}) {
  auto result = cli("convert " + input + " -o " + output + " " + extra);
  EXPECT_EQ(result.exitCode, 0) << input << " -> " << output << "\n" << result.output;
  return test::readFile(output);
}

using test::expectSameUpToRounding;

double poseDifference(const Pose& a, const Pose& b) {
  return std::max((a.translation() - b.translation()).norm(), (a.linear() - b.linear()).norm());
}

/// Link frames of `b` match those of `a` by name at a configuration where every DOF they share
/// is non-zero. Returns how many frames were compared.
std::size_t expectSameLinkFrames(const LoadResult& a, const LoadResult& b, const std::string& what,
                                 bool moved = true, const std::string& relativeTo = {}) {
  const ModelQuery qa(a), qb(b);
  const std::vector<std::string> namesA = qa.dofNames(), namesB = qb.dofNames();
  const std::set<std::string> inB(namesB.begin(), namesB.end());
  std::map<std::string, double> values;
  // Every single-DOF joint both have moves (a multi-DOF joint's coordinates differ by format:
  // a ball's rotation vector is not DART's Euler angles), and a free joint's translation.
  for (std::size_t i = 0; i < namesA.size(); ++i) {
    const bool single = namesA[i].find('[') == std::string::npos;
    const bool translation = namesA[i].size() > 3 && namesA[i].find("root[") != std::string::npos &&
                             namesA[i][namesA[i].size() - 2] < '3';
    if (moved && inB.count(namesA[i]) && (single || translation)) values[namesA[i]] = 0.1 + 0.07 * static_cast<double>(i % 9);
  }
  Diagnostics diagnostics;
  const auto q_a = qa.configuration(values, diagnostics);
  const auto q_b = qb.configuration(values, diagnostics);
  EXPECT_TRUE(q_a && q_b) << what << test::dump(diagnostics);
  if (!q_a || !q_b) return 0;
  // `relativeTo`: a link both have, when the roots differ (a floating base's child as URDF root).
  auto nameIn = [&relativeTo](const LoadResult& loaded) {
    if (relativeTo.empty() || loaded.graph.find(relativeTo)) return relativeTo;
    for (const FrameInfo& f : loaded.graph.frames()) {
      if (f.kind == FrameKind::Link && f.name.size() > relativeTo.size() + 2 &&
          f.name.compare(f.name.size() - relativeTo.size() - 2, std::string::npos, "::" + relativeTo) == 0)
        return f.name;
    }
    return relativeTo;
  };
  const auto posesA = qa.framePoses(*q_a, nameIn(a), diagnostics);
  const auto posesB = qb.framePoses(*q_b, nameIn(b), diagnostics);
  EXPECT_TRUE(posesA && posesB) << what << test::dump(diagnostics);
  if (!posesA || !posesB) return 0;
  std::size_t compared = 0;
  for (std::size_t i = 0; i < a.graph.frames().size(); ++i) {
    const FrameInfo& frame = a.graph.frames()[i];
    if (frame.kind != FrameKind::Link) continue;
    // The same name, flattened ("::" as "__", URDF), or without the model's scope.
    std::optional<std::size_t> other = b.graph.find(frame.name);
    std::string flat = frame.name;
    for (std::size_t at; (at = flat.find("::")) != std::string::npos;) flat.replace(at, 2, "__");
    if (!other) other = b.graph.find(flat);
    const std::size_t scope = frame.name.find("::");
    if (!other && scope != std::string::npos) other = b.graph.find(frame.name.substr(scope + 2));
    if (!other) continue;
    ++compared;
    EXPECT_LT(poseDifference((*posesA)[i], (*posesB)[*other]), 1e-9) << what << ": link " << frame.name;
  }
  return compared;
}

std::size_t linkCount(const LoadResult& loaded) {
  std::size_t n = 0;
  for (const FrameInfo& f : loaded.graph.frames()) n += f.kind == FrameKind::Link ? 1 : 0;
  return n;
}

// --- mesh URIs ----------------------------------------------------------------------------------

/// A robot whose mesh is named relative to the URDF, in a directory tree of its own.
std::string robotWithRelativeMesh() {
  const fs::path root = fs::path(tempDir()) / "ws" / "robot";
  fs::create_directories(root / "meshes");
  std::ofstream stl(root / "meshes" / "box.stl", std::ios::binary);
  char header[84] = {};  // a binary STL with no triangles
  stl.write(header, sizeof header);
  stl.close();
  std::ofstream(root / "robot.urdf")
      << "<robot name=\"r\">\n  <link name=\"base\">\n    <visual><geometry><mesh filename=\"meshes/box.stl\"/>"
         "</geometry></visual>\n  </link>\n  <link name=\"arm\"/>\n  <joint name=\"j\" type=\"revolute\">\n"
         "    <parent link=\"base\"/><child link=\"arm\"/><origin xyz=\"0 0 0.5\"/><axis xyz=\"0 1 0\"/>\n"
         "    <limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"1\"/>\n  </joint>\n</robot>\n";
  return (root / "robot.urdf").string();
}

TEST(PortableConversion, MeshUrisAreRelativeToTheOutputUnlessAskedAndTheOutputLoads) {
  const std::string source = robotWithRelativeMesh();
  const std::string outDir = tempDir() + "/ws/out";
  fs::create_directories(outDir);
  for (const char* extension : {".sdf", ".urdf"}) {
    const std::string output = outDir + "/robot" + extension;
    const std::string text = convert(source, output);
    EXPECT_EQ(text.find(tempDir()), std::string::npos) << "an absolute path in\n" << text;
    EXPECT_NE(text.find("../robot/meshes/box.stl"), std::string::npos) << text;
    // The idiom `convert(out); load(out)`: the output's directory tree and the source's together.
    LoadOptions options;
    options.resourcePaths = {tempDir() + "/ws"};
    const LoadResult again = sharedLoader().loadFile(output, options);
    ASSERT_TRUE(again.ok()) << test::dump(again.diagnostics);
    const Link& base = again.document.model->links.front();
    ASSERT_EQ(base.visuals.size(), 1u);
    EXPECT_EQ(fs::canonical(base.visuals.front().geometry.meshResolvedPath),
              fs::canonical(fs::path(source).parent_path() / "meshes/box.stl"));
  }
  const std::string absolute = convert(source, outDir + "/absolute.sdf", "--mesh-uris absolute");
  EXPECT_NE(absolute.find(tempDir() + "/ws/robot/meshes/box.stl"), std::string::npos) << absolute;
  const std::string asWritten = convert(source, outDir + "/as_written.urdf", "--mesh-uris as-written");
  EXPECT_NE(asWritten.find("filename=\"meshes/box.stl\""), std::string::npos) << asWritten;
  EXPECT_EQ(cli("convert " + source + " -o " + outDir + "/x.sdf --mesh-uris nowhere").exitCode, 2);
  // A package:// URI is kept as written for SDFormat and URDF: both resolve it through package paths.
  const std::string ur5 = convert(kUr5, tempDir() + "/ur5_uris.sdf");
  EXPECT_NE(ur5.find("<uri>package://example-robot-data/robots/ur_description/meshes/ur5/visual/base.dae</uri>"),
            std::string::npos);
}

// --- checked output ---------------------------------------------------------------------------

TEST(PortableConversion, MjcfGeomsBecomeUniquelyNamedSdformatVisualsAndCollisions) {
  const std::string output = tempDir() + "/humanoid.sdf";
  convert(kHumanoid, output);
  const roundtrip::LibsdformatFrames reference = roundtrip::loadWithLibsdformat(output);
  std::string errors;
  for (const auto& e : reference.errors) errors += e + "\n";
  EXPECT_TRUE(reference.valid && reference.errors.empty()) << errors;
  const LoadResult original = load(kHumanoid);
  const LoadResult again = load(output);
  ASSERT_TRUE(again.ok()) << test::dump(again.diagnostics);
  EXPECT_EQ(expectSameLinkFrames(original, again, "humanoid.sdf"), linkCount(original));
  // Actuator force ranges (ctrlrange -1..1 of the main default, times the gear) bound the joints.
  sdf::Root root;
  ASSERT_TRUE(root.Load(output).empty());
  const sdf::Joint* abdomen = root.Model()->JointByName("abdomen_y");
  ASSERT_NE(abdomen, nullptr);
  EXPECT_DOUBLE_EQ(abdomen->Axis(0)->Effort(), 40);
}

TEST(PortableConversion, OutputThatDoesNotReadBackExitsOneAndLeavesNothing) {
  // A URDF joint whose child is its parent cannot be written as a tree: refused, nothing written.
  const std::string broken = tempDir() + "/loop.urdf";
  std::ofstream(broken) << "<robot name=\"r\"><link name=\"a\"/><joint name=\"j\" type=\"fixed\"><parent link=\"a\"/>"
                           "<child link=\"a\"/></joint></robot>\n";
  const std::string output = tempDir() + "/loop.sdf";
  EXPECT_EQ(cli("convert " + broken + " -o " + output).exitCode, 1);
  EXPECT_FALSE(fs::exists(output));
}

// --- URDF <gazebo> ----------------------------------------------------------------------------

/// Counts the elements named `name` below `element` (libsdformat's DOM).
std::size_t countElements(const sdf::ElementPtr& element, const std::string& name) {
  std::size_t n = element->GetName() == name ? 1 : 0;
  for (sdf::ElementPtr child = element->GetFirstElement(); child; child = child->GetNextElement()) {
    n += countElements(child, name);
  }
  return n;
}

std::size_t countMu(const sdf::ElementPtr& element, const std::string& value) {
  std::size_t n = element->GetName() == "mu" && element->GetValue() && element->GetValue()->GetAsString() == value ? 1 : 0;
  for (sdf::ElementPtr child = element->GetFirstElement(); child; child = child->GetNextElement()) n += countMu(child, value);
  return n;
}

TEST(PortableConversion, GazeboBlocksGoWhereLibsdformatPutsThem) {
  for (const std::string& urdf : {kUr5, kAnymal}) {
    const std::string output = tempDir() + "/" + fs::path(urdf).stem().string() + ".sdf";
    const std::string text = convert(urdf, output);
    sdf::Root ours, theirs;
    const sdf::Errors oursErrors = ours.Load(output);
    EXPECT_TRUE(oursErrors.empty()) << (oursErrors.empty() ? "" : oursErrors.front().Message());
    theirs.Load(urdf);  // libsdformat 12's own URDF conversion (mesh lookups may warn)
    ASSERT_NE(ours.Model(), nullptr);
    ASSERT_NE(theirs.Model(), nullptr);
    const sdf::ElementPtr a = ours.Model()->Element(), b = theirs.Model()->Element();
    EXPECT_EQ(countElements(a, "plugin"), countElements(b, "plugin")) << urdf;
    EXPECT_EQ(countMu(a, "0.8"), countMu(b, "0.8")) << urdf;
    // libsdformat lumps fixed-joint links into their parents; every link it keeps has the
    // self_collide it has in ours.
    for (uint64_t i = 0; i < theirs.Model()->LinkCount(); ++i) {
      const sdf::Link* theirLink = theirs.Model()->LinkByIndex(i);
      const sdf::Link* ourLink = ours.Model()->LinkByName(theirLink->Name());
      if (!ourLink) continue;
      EXPECT_EQ(ourLink->Element()->Get<bool>("self_collide"), theirLink->Element()->Get<bool>("self_collide"))
          << urdf << " link " << theirLink->Name();
    }
    EXPECT_EQ(text.find("no place for <gazebo>"), std::string::npos);
    // URDF output keeps the blocks as they were.
    const std::string back = convert(urdf, tempDir() + "/" + fs::path(urdf).stem().string() + "_again.urdf");
    EXPECT_NE(back.find("<gazebo reference="), std::string::npos);
    EXPECT_EQ(test::run("check_urdf " + tempDir() + "/" + fs::path(urdf).stem().string() + "_again.urdf").exitCode, 0);
    // Frames at a non-zero configuration; a second conversion changes nothing.
    const LoadResult original = load(urdf), again = load(output);
    ASSERT_TRUE(again.ok()) << test::dump(again.diagnostics);
    EXPECT_GE(expectSameLinkFrames(original, again, output), linkCount(original) - 1);  // "world" is the model frame
    const std::string second = convert(output, tempDir() + "/" + fs::path(urdf).stem().string() + "_2.sdf");
    expectSameUpToRounding(text, second, urdf);
  }
}

// --- MJCF --------------------------------------------------------------------------------------

using test::Mujoco;

TEST(PortableConversion, UrdfWithGazeboRoundTripsThroughUrdfAndMjcf) {
  for (const std::string& urdf : {kUr5, kAnymal}) {
    const LoadResult original = load(urdf);
    ASSERT_TRUE(original.ok()) << test::dump(original.diagnostics);
    const std::string stem = tempDir() + "/" + fs::path(urdf).stem().string() + "_rt";
    // URDF -> URDF: the same frames at a non-zero configuration; a second conversion changes nothing.
    const std::string text = convert(urdf, stem + ".urdf");
    EXPECT_EQ(text.find(test::sourceDir()), std::string::npos) << "an absolute path in " << stem << ".urdf";
    const LoadResult again = load(stem + ".urdf");
    ASSERT_TRUE(again.ok()) << test::dump(again.diagnostics);
    EXPECT_EQ(expectSameLinkFrames(original, again, stem + ".urdf"), linkCount(original));
    expectSameUpToRounding(text, convert(stem + ".urdf", stem + "_2.urdf"), stem + ".urdf");
    // URDF -> MJCF: MuJoCo loads it; Interlink reads the same frames. Not ANYmal: its base's
    // inertia breaks the triangle inequality, which MuJoCo refuses (the conversion says so).
    if (urdf == kAnymal) continue;
    const std::string mjcf = stem + ".mjcf";
    const std::string mjcfText = convert(urdf, mjcf);
    Mujoco mujoco(mjcf);
    EXPECT_NE(mujoco.model, nullptr) << mjcf << ": " << mujoco.error;
    const LoadResult fromMjcf = load(mjcf);
    ASSERT_TRUE(fromMjcf.ok()) << test::dump(fromMjcf.diagnostics);
    EXPECT_GE(expectSameLinkFrames(original, fromMjcf, mjcf), linkCount(original) - 1);  // "world" is <worldbody>
    expectSameUpToRounding(mjcfText, convert(mjcf, stem + "_2.mjcf"), mjcf);
  }
}

TEST(PortableConversion, MjcfToMjcfKeepsActuatorsKeyframesAndTheFreeJoint) {
  const std::string output = tempDir() + "/humanoid.mjcf";
  const std::string text = convert(kHumanoid, output);
  EXPECT_NE(text.find("<freejoint name=\"root\"/>"), std::string::npos);
  Mujoco source(kHumanoid), converted(output);
  ASSERT_NE(source.model, nullptr) << source.error;
  ASSERT_NE(converted.model, nullptr) << converted.error;
  const mjModel* a = source.model;
  const mjModel* b = converted.model;
  EXPECT_EQ(b->nu, a->nu);
  EXPECT_EQ(b->nkey, a->nkey);
  EXPECT_EQ(b->njnt, a->njnt);
  EXPECT_EQ(b->nq, a->nq);
  for (int i = 0; i < a->nu; ++i) {
    EXPECT_EQ(b->actuator_gear[6 * i], a->actuator_gear[6 * i]);
    EXPECT_EQ(b->actuator_ctrlrange[2 * i + 1], a->actuator_ctrlrange[2 * i + 1]);
  }
  // Body poses in MuJoCo at the same non-zero hinge angles (the free joint at its initial pose).
  mjData* da = mj_makeData(a);
  mjData* db = mj_makeData(b);
  for (int j = 0; j < a->njnt; ++j) {
    if (a->jnt_type[j] != mjJNT_HINGE) continue;
    const int jb = mj_name2id(b, mjOBJ_JOINT, mj_id2name(a, mjOBJ_JOINT, j));
    ASSERT_GE(jb, 0) << mj_id2name(a, mjOBJ_JOINT, j);
    da->qpos[a->jnt_qposadr[j]] = db->qpos[b->jnt_qposadr[jb]] = 0.2 + 0.01 * j;
  }
  mj_kinematics(a, da);
  mj_kinematics(b, db);
  int compared = 0;
  for (int i = 1; i < a->nbody; ++i) {
    const int ib = mj_name2id(b, mjOBJ_BODY, mj_id2name(a, mjOBJ_BODY, i));
    ASSERT_GE(ib, 0) << mj_id2name(a, mjOBJ_BODY, i);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(db->xpos[3 * ib + k], da->xpos[3 * i + k], 1e-9) << mj_id2name(a, mjOBJ_BODY, i);
    ++compared;
  }
  EXPECT_GT(compared, 10);
  mj_deleteData(da);
  mj_deleteData(db);
  // Interlink reads the output to the same frames, and a second conversion changes nothing.
  EXPECT_EQ(expectSameLinkFrames(load(kHumanoid), load(output), output), linkCount(load(kHumanoid)));
  const std::string second = convert(output, tempDir() + "/humanoid_2.mjcf");
  expectSameUpToRounding(text, second, output);
}

TEST(PortableConversion, MjcfKeyframesAndActuatorsSurviveMjcfToMjcf) {
  // MuJoCo's own keyframe test model: keys of time, qpos, qvel, act, ctrl (and mocap poses, which
  // the writer drops with the mocap body's flag).
  const std::string source = kData + "/mujoco/test/user/testdata/keyframe.xml";
  const std::string output = tempDir() + "/keyframe.mjcf";
  convert(source, output);
  Mujoco a(source), b(output);
  ASSERT_NE(a.model, nullptr) << a.error;
  ASSERT_NE(b.model, nullptr) << b.error;
  ASSERT_EQ(b.model->nkey, a.model->nkey);
  EXPECT_GT(b.model->nkey, 0);
  EXPECT_EQ(b.model->nu, a.model->nu);
  for (int k = 0; k < a.model->nkey; ++k) {
    EXPECT_EQ(b.model->key_time[k], a.model->key_time[k]) << "key " << k;
    for (int i = 0; i < a.model->nq; ++i) EXPECT_EQ(b.model->key_qpos[k * a.model->nq + i], a.model->key_qpos[k * a.model->nq + i]);
    for (int i = 0; i < a.model->nu; ++i) EXPECT_EQ(b.model->key_ctrl[k * a.model->nu + i], a.model->key_ctrl[k * a.model->nu + i]);
  }
}

TEST(PortableConversion, MjcfToUrdfBoundsEffortAndNamesWhatHasNoPlace) {
  const std::string output = tempDir() + "/humanoid.urdf";
  auto result = cli("convert " + kHumanoid + " -o " + output);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_EQ(test::run("check_urdf " + output).exitCode, 0);
  const std::string text = test::readFile(output);
  EXPECT_NE(text.find("effort=\"120\""), std::string::npos);  // right_hip_y: gear 120
  EXPECT_NE(result.output.find("URDF has no place for <actuator> elements"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("force limits are written as joint effort limits"), std::string::npos);
  EXPECT_EQ(result.output.find("cannot hold <"), std::string::npos) << result.output;
  const LoadResult original = load(kHumanoid), again = load(output);
  ASSERT_TRUE(again.ok()) << test::dump(again.diagnostics);
  // The floating base's child is the URDF root (free in Gazebo): the frames relative to it.
  EXPECT_GT(expectSameLinkFrames(original, again, output, true, "torso"), linkCount(original) / 2);
}

// --- SDFormat with sensors, HRDF, SKEL ----------------------------------------------------------

TEST(PortableConversion, EverySourceFormatRoundTripsThroughEveryTarget) {
  for (const std::string& source : {kSensors, kHrdf, kSkel}) {
    const LoadResult original = load(source);
    ASSERT_TRUE(original.ok()) << source << test::dump(original.diagnostics);
    const std::string stem = tempDir() + "/" + fs::path(source).stem().string();
    for (const char* extension : {".sdf", ".urdf", ".mjcf"}) {
      const std::string output = stem + extension;
      // A floating base (SKEL's free root joint) as a URDF floating joint, so that the frames
      // compare in the world (the default, its child as the root, is tested on the humanoid).
      const std::string options = std::string(extension) == ".urdf" ? "--urdf-floating-joint" : "";
      auto result = cli("convert " + source + " -o " + output + " " + options);
      if (result.exitCode != 0) {
        // Only a target that cannot hold the graph (URDF and loops) may refuse; nothing is left.
        EXPECT_EQ(result.exitCode, 1) << result.output;
        EXPECT_FALSE(fs::exists(output));
        continue;
      }
      const std::string text = test::readFile(output);
      EXPECT_EQ(text.find(test::sourceDir()), std::string::npos) << "an absolute path in " << output;
      const LoadResult again = load(output);
      ASSERT_TRUE(again.ok()) << output << test::dump(again.diagnostics);
      // Known gap: SDFormat 1.9 output writes a joint type it lacks (DART's euler) as a frame, so
      // the links below it do not follow the joints above it; compared at the zero configuration.
      const bool sdformatOfSkel = source == kSkel && std::string(extension) == ".sdf";
      EXPECT_GT(expectSameLinkFrames(original, again, output, !sdformatOfSkel), 0u) << output;
      if (std::string(extension) == ".sdf") {
        const roundtrip::LibsdformatFrames reference = roundtrip::loadWithLibsdformat(output);
        EXPECT_TRUE(reference.valid && reference.errors.empty()) << output;
      } else if (std::string(extension) == ".urdf") {
        EXPECT_EQ(test::run("check_urdf " + output).exitCode, 0) << output;
      } else {
        Mujoco mujoco(output);
        EXPECT_NE(mujoco.model, nullptr) << output << ": " << mujoco.error;
      }
      // A second conversion changes nothing: the same frames at the same configuration.
      convert(output, stem + "_2" + extension, options);
      const LoadResult secondTime = load(stem + "_2" + extension);
      ASSERT_TRUE(secondTime.ok()) << test::dump(secondTime.diagnostics);
      EXPECT_EQ(ModelQuery(secondTime).dofNames(), ModelQuery(again).dofNames()) << output;
      EXPECT_EQ(expectSameLinkFrames(again, secondTime, output + " again"), linkCount(again)) << output;
    }
  }
}

// --- floating bases -----------------------------------------------------------------------------

/// The frame of MJCF body `name` in `loaded` (model files scope it: "Humanoid::torso").
std::optional<std::size_t> bodyFrame(const LoadResult& loaded, const std::string& name) {
  if (auto found = loaded.graph.find(name)) return found;
  if (loaded.document.model) return loaded.graph.find(loaded.document.model->name + "::" + name);
  return std::nullopt;
}

TEST(PortableConversion, AFreeJointIsOneFloatingJointThatMovesAsInMujoco) {
  Mujoco source(kHumanoid);
  ASSERT_NE(source.model, nullptr) << source.error;
  const mjModel* m = source.model;
  ASSERT_EQ(m->jnt_type[0], mjJNT_FREE);
  // A qpos with every coordinate non-zero: the free joint's position and quaternion w x y z, then
  // the hinges.
  std::vector<double> qpos(static_cast<std::size_t>(m->nq));
  for (std::size_t i = 7; i < qpos.size(); ++i) qpos[i] = 0.15 + 0.03 * static_cast<double>(i);
  const Quaternion turn = Quaternion(0.8, 0.3, -0.4, 0.2).normalized();
  const double base[7] = {0.4, -0.3, 1.1, turn.w(), turn.x(), turn.y(), turn.z()};
  std::copy(base, base + 7, qpos.begin());
  mjData* data = mj_makeData(m);
  std::copy(qpos.begin(), qpos.end(), data->qpos);
  mj_kinematics(m, data);

  const LoadResult loaded = load(kHumanoid);
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  int floating = 0;
  for (const TreeJoint& joint : loaded.kinematics.joints()) floating += joint.type == JointType::Free ? 1 : 0;
  EXPECT_EQ(floating, 1);  // not three slides and a ball
  const ModelQuery query(loaded);
  EXPECT_EQ(query.dofNames().size(), static_cast<std::size_t>(m->nv));  // 6 + one per hinge
  Diagnostics diagnostics;
  const auto q = configurationFromQpos(loaded.kinematics, loaded.graph, qpos, diagnostics);
  ASSERT_TRUE(q) << test::dump(diagnostics);
  const auto poses = query.framePoses(*q, "", diagnostics);
  ASSERT_TRUE(poses) << test::dump(diagnostics);
  int compared = 0;
  for (int b = 1; b < m->nbody; ++b) {
    const auto frame = bodyFrame(loaded, mj_id2name(m, mjOBJ_BODY, b));
    ASSERT_TRUE(frame) << mj_id2name(m, mjOBJ_BODY, b);
    const Pose& pose = (*poses)[*frame];
    Matrix3 rotation;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) rotation(r, c) = data->xmat[9 * b + 3 * r + c];
    EXPECT_LT((pose.translation() - Vector3(data->xpos[3 * b], data->xpos[3 * b + 1], data->xpos[3 * b + 2])).norm(), 1e-9)
        << mj_id2name(m, mjOBJ_BODY, b);
    EXPECT_LT((pose.linear() - rotation).norm(), 1e-9) << mj_id2name(m, mjOBJ_BODY, b);
    ++compared;
  }
  EXPECT_EQ(compared, m->nbody - 1);
  mj_deleteData(data);

  // The Jacobian of a foot, free joint's columns included, against finite differences of the pose.
  const std::string foot = loaded.graph.frames()[*bodyFrame(loaded, "left_foot")].name;
  const auto jacobian = query.jacobian(foot, *q, diagnostics);
  ASSERT_TRUE(jacobian) << test::dump(diagnostics);
  constexpr double h = 1e-6;
  for (std::size_t k = 0; k < q->size(); ++k) {
    std::vector<double> plus = *q, minus = *q;
    plus[k] += h;
    minus[k] -= h;
    const auto a = query.pose(foot, plus, "", diagnostics), b = query.pose(foot, minus, "", diagnostics);
    const auto at = query.pose(foot, *q, "", diagnostics);
    ASSERT_TRUE(a && b && at);
    const Vector3 v = (a->translation() - b->translation()) / (2 * h);
    const Matrix3 W = (a->linear() - b->linear()) / (2 * h) * at->linear().transpose();
    const Vector3 w(W(2, 1) - W(1, 2), W(0, 2) - W(2, 0), W(1, 0) - W(0, 1));
    EXPECT_LT((jacobian->col(static_cast<Eigen::Index>(k)).head<3>() - v).norm(), 1e-6) << "DOF " << k;
    EXPECT_LT((jacobian->col(static_cast<Eigen::Index>(k)).tail<3>() - w / 2).norm(), 1e-6) << "DOF " << k;
  }

  // The MJCF output moves as the source does in MuJoCo at the same qpos.
  const std::string output = tempDir() + "/humanoid_floating.mjcf";
  const std::string text = convert(kHumanoid, output);
  EXPECT_NE(text.find("<freejoint name=\"root\"/>"), std::string::npos);
  Mujoco converted(output);
  ASSERT_NE(converted.model, nullptr) << converted.error;
  ASSERT_EQ(converted.model->nq, m->nq);
  mjData* a = mj_makeData(m);
  mjData* b = mj_makeData(converted.model);
  for (int j = 0; j < m->njnt; ++j) {
    const int other = mj_name2id(converted.model, mjOBJ_JOINT, mj_id2name(m, mjOBJ_JOINT, j));
    ASSERT_GE(other, 0) << mj_id2name(m, mjOBJ_JOINT, j);
    const int width = m->jnt_type[j] == mjJNT_FREE ? 7 : 1;
    for (int i = 0; i < width; ++i) {
      a->qpos[m->jnt_qposadr[j] + i] = b->qpos[converted.model->jnt_qposadr[other] + i] = qpos[static_cast<std::size_t>(m->jnt_qposadr[j] + i)];
    }
  }
  mj_fwdPosition(m, a);  // kinematics, then the cameras (mj_camlight)
  mj_fwdPosition(converted.model, b);
  for (int body = 1; body < m->nbody; ++body) {
    const int other = mj_name2id(converted.model, mjOBJ_BODY, mj_id2name(m, mjOBJ_BODY, body));
    ASSERT_GE(other, 0);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(b->xpos[3 * other + k], a->xpos[3 * body + k], 1e-9) << mj_id2name(m, mjOBJ_BODY, body);
    for (int k = 0; k < 9; ++k) EXPECT_NEAR(b->xmat[9 * other + k], a->xmat[9 * body + k], 1e-9) << mj_id2name(m, mjOBJ_BODY, body);
  }
  // Body lights come back in their bodies.
  EXPECT_EQ(converted.model->nlight, m->nlight);
  for (int i = 0; i < m->nlight; ++i) {
    const int other = mj_name2id(converted.model, mjOBJ_LIGHT, mj_id2name(m, mjOBJ_LIGHT, i));
    ASSERT_GE(other, 0) << mj_id2name(m, mjOBJ_LIGHT, i);
    EXPECT_STREQ(mj_id2name(converted.model, mjOBJ_BODY, converted.model->light_bodyid[other]),
                 mj_id2name(m, mjOBJ_BODY, m->light_bodyid[i]));
  }
  // Cameras come back as cameras, with their optics and modes.
  ASSERT_EQ(converted.model->ncam, m->ncam);
  for (int i = 0; i < m->ncam; ++i) {
    const int other = mj_name2id(converted.model, mjOBJ_CAMERA, mj_id2name(m, mjOBJ_CAMERA, i));
    ASSERT_GE(other, 0) << mj_id2name(m, mjOBJ_CAMERA, i);
    EXPECT_EQ(converted.model->cam_fovy[other], m->cam_fovy[i]) << mj_id2name(m, mjOBJ_CAMERA, i);
    EXPECT_EQ(converted.model->cam_mode[other], m->cam_mode[i]) << mj_id2name(m, mjOBJ_CAMERA, i);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(b->cam_xpos[3 * other + k], a->cam_xpos[3 * i + k], 1e-9);
    for (int k = 0; k < 9; ++k) EXPECT_NEAR(b->cam_xmat[9 * other + k], a->cam_xmat[9 * i + k], 1e-9);
  }
  mj_deleteData(a);
  mj_deleteData(b);
}

TEST(PortableConversion, EachTargetWritesTheFloatingBaseItsWay) {
  // URDF: by default the floating base's child is the root (free in Gazebo), and a warning says so.
  const std::string plain = tempDir() + "/humanoid_root.urdf";
  auto result = cli("convert " + kHumanoid + " -o " + plain);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  std::string text = test::readFile(plain);
  EXPECT_EQ(text.find("floating"), std::string::npos) << text;
  EXPECT_EQ(text.find("<link name=\"worldbody\""), std::string::npos) << text;
  EXPECT_NE(result.output.find("--urdf-floating-joint"), std::string::npos) << result.output;
  EXPECT_EQ(test::run("check_urdf " + plain).exitCode, 0);
  // Asked: a floating joint from the link standing for the world.
  const std::string asked = tempDir() + "/humanoid_floating.urdf";
  result = cli("convert " + kHumanoid + " -o " + asked + " --urdf-floating-joint");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  text = test::readFile(asked);
  EXPECT_NE(text.find("<joint name=\"root\" type=\"floating\">"), std::string::npos) << text;
  EXPECT_EQ(test::run("check_urdf " + asked).exitCode, 0);
  const LoadResult original = load(kHumanoid), again = load(asked);
  ASSERT_TRUE(again.ok()) << test::dump(again.diagnostics);
  EXPECT_GT(expectSameLinkFrames(original, again, asked), linkCount(original) / 2);
  // A second conversion changes nothing, either way: the same DOFs and frames (the massless
  // joint-frame links the first wrote among the joints come back in link order).
  for (const auto& [first, options] : {std::pair<std::string, std::string>{plain, ""}, {asked, "--urdf-floating-joint"}}) {
    const std::string second = first + ".2.urdf";
    convert(first, second, options);
    const LoadResult once = load(first), twice = load(second);
    ASSERT_TRUE(twice.ok()) << test::dump(twice.diagnostics);
    EXPECT_EQ(ModelQuery(twice).dofNames(), ModelQuery(once).dofNames()) << first;
    EXPECT_EQ(expectSameLinkFrames(once, twice, second), linkCount(once)) << first;
    EXPECT_EQ(test::run("check_urdf " + second).exitCode, 0);
  }

  // SDFormat: a free model (no joint to the world), without a warning about lost DOFs.
  const std::string sdf = tempDir() + "/humanoid_free.sdf";
  result = cli("convert " + kHumanoid + " -o " + sdf);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_EQ(result.output.find("no free joint"), std::string::npos) << result.output;
  text = test::readFile(sdf);
  EXPECT_EQ(text.find("<parent>world</parent>"), std::string::npos) << text;
  EXPECT_EQ(text.find("<static>true"), std::string::npos) << text;
  const roundtrip::LibsdformatFrames reference = roundtrip::loadWithLibsdformat(sdf);
  EXPECT_TRUE(reference.valid && reference.errors.empty()) << sdf;
}

// --- URDF link and joint content ----------------------------------------------------------------

TEST(PortableConversion, UrdfToUrdfKeepsCalibrationSafetyControllersTexturesAndMimics) {
  const std::string source = tempDir() + "/full.urdf";
  std::ofstream(source) << R"(<?xml version="1.0"?>
<robot name="r">
  <material name="tex"><texture filename="package://r/t.png"/></material>
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
    <visual name="skin"><geometry><box size="1 1 1"/></geometry><material name="tex"/></visual>
    <collision name="hull"><geometry><box size="1 1 1"/></geometry></collision>
  </link>
  <link name="arm"><inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="finger"><inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="arm"/><origin xyz="0 0 1" rpy="0.1 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="2"/>
    <dynamics damping="0.5" friction="0.2"/>
    <calibration rising="0.1"/>
    <safety_controller soft_lower_limit="-0.9" soft_upper_limit="0.9" k_position="15" k_velocity="10"/>
  </joint>
  <joint name="finger_joint" type="revolute">
    <parent link="arm"/><child link="finger"/><origin xyz="0 0 1"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="2"/>
    <mimic joint="shoulder" multiplier="2" offset="0.1"/>
  </joint>
</robot>
)";
  const std::string output = tempDir() + "/full_out.urdf";
  auto result = cli("convert " + source + " -o " + output);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_EQ(result.output.find("no place"), std::string::npos) << result.output;  // URDF holds all of it
  const std::string text = test::readFile(output);
  for (const char* kept : {"<calibration rising=\"0.1\"/>", "k_position=\"15\"", "<texture filename=\"package://r/t.png\"/>",
                           "<dynamics damping=\"0.5\" friction=\"0.2\"/>", "<mimic joint=\"shoulder\" multiplier=\"2\"",
                           "<collision name=\"hull\">", "<visual name=\"skin\">"}) {
    EXPECT_NE(text.find(kept), std::string::npos) << kept << "\n" << text;
  }
  EXPECT_EQ(test::run("check_urdf " + output).exitCode, 0);
  expectSameUpToRounding(text, convert(output, tempDir() + "/full_out_2.urdf"), output);
  // SDFormat has no place for a calibration, a safety controller or a URDF texture: each named.
  result = cli("convert " + source + " -o " + tempDir() + "/full.sdf");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  for (const char* warned : {"no place for <calibration>", "no place for <safety_controller>", "no place for <texture>"}) {
    EXPECT_NE(result.output.find(warned), std::string::npos) << warned << "\n" << result.output;
  }
  // MJCF: the mimic is MuJoCo's joint equality (finger = 0.1 + 2 shoulder).
  const std::string mjcf = tempDir() + "/full.mjcf";
  result = cli("convert " + source + " -o " + mjcf);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  Mujoco mujoco(mjcf);
  ASSERT_NE(mujoco.model, nullptr) << mujoco.error;
  ASSERT_EQ(mujoco.model->neq, 1);
  EXPECT_EQ(mujoco.model->eq_type[0], mjEQ_JOINT);
  EXPECT_EQ(mujoco.model->eq_obj1id[0], mj_name2id(mujoco.model, mjOBJ_JOINT, "finger_joint"));
  EXPECT_EQ(mujoco.model->eq_obj2id[0], mj_name2id(mujoco.model, mjOBJ_JOINT, "shoulder"));
  EXPECT_EQ(mujoco.model->eq_data[0], 0.1);
  EXPECT_EQ(mujoco.model->eq_data[1], 2.0);
}

}  // namespace
}  // namespace interlink
