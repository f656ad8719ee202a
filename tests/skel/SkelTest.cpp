// The SKEL plugin, loaded through the real loader, checked against DART 6.12 itself over Debian's
// dart-doc corpus, plus what we do where DART is silent or wrong.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "ShapeInertia.hpp"
#include "SharedLoader.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/PoseMath.hpp"

namespace fs = std::filesystem;
using namespace interlink;

namespace {

const std::string kCorpus = DART_SKEL_CORPUS;
const std::string kOracle = SKEL_DART_ORACLE;

/// The corpus files on which DART 6.12 crashes (found by running every file through the oracle in
/// a child process; CrashListIsExactlyWhereDartCrashes re-checks this list on every run).
const std::map<std::string, std::string> kDartCrashes = {
    {"kima/kima_human_left_leg.skel",
     "BoxShape asserts: <size> 0.09625 0.098 -0.21 has a negative z (lines 119 and 127)"},
    {"test/test_single_body.skel", "segfault: soft <box> without <frags> (getValueVector3i on a missing element)"},
    {"test/test_single_pendulum.skel", "segfault: soft <box> without <frags>"},
    {"test/test_double_pendulum.skel", "segfault: soft <box> without <frags>"},
};

std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(kCorpus, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".skel") {
      files.push_back(it->path().lexically_relative(kCorpus).string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

struct DartBody {
  std::string jointType;
  Pose pose = Pose::Identity();
  double mass = 0;
  Vector3 com = Vector3::Zero();
  Matrix3 moment = Matrix3::Zero();
};

struct DartWorld {
  bool crashed = false;
  std::map<std::string, std::vector<double>> positions;  // --perturb: child body -> DART-order q
  std::vector<std::pair<std::string, std::size_t>> skeletons;
  std::vector<std::string> bodyOrder;
  std::map<std::string, DartBody> bodies;
};

std::vector<std::string> splitTabs(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  std::string field;
  while (std::getline(stream, field, '\t')) fields.push_back(field);
  return fields;
}

/// Runs DART on one file in a child process and reads what it built.
DartWorld runDart(const std::string& file, bool perturb = false) {
  DartWorld world;
  const auto result = test::run("'" + kOracle + "' '" + file + "'" + (perturb ? " --perturb" : "") + " 2>/dev/null");
  if (result.exitCode != 0) {
    world.crashed = true;
    return world;
  }
  std::stringstream lines(result.output);
  std::string line;
  while (std::getline(lines, line)) {
    const auto fields = splitTabs(line);
    if (fields.size() == 3 && fields[0] == "skeleton") {
      world.skeletons.emplace_back(fields[1], std::stoul(fields[2]));
    } else if (fields.size() == 4 && fields[0] == "body") {
      DartBody& body = world.bodies[fields[1]];
      world.bodyOrder.push_back(fields[1]);
      body.jointType = fields[2];
      std::stringstream numbers(fields[3]);
      Matrix3 rotation;
      Vector3 translation;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) numbers >> rotation(r, c);
      for (int r = 0; r < 3; ++r) numbers >> translation(r);
      body.pose.linear() = rotation;
      body.pose.translation() = translation;
    } else if (fields.size() == 3 && fields[0] == "q") {
      std::stringstream numbers(fields[2]);
      double value;
      while (numbers >> value) world.positions[fields[1]].push_back(value);
    } else if (fields.size() == 3 && fields[0] == "inertia") {
      DartBody& body = world.bodies[fields[1]];
      std::stringstream numbers(fields[2]);
      double ixx, iyy, izz, ixy, ixz, iyz;
      numbers >> body.mass >> body.com.x() >> body.com.y() >> body.com.z() >> ixx >> iyy >> izz >> ixy >> ixz >> iyz;
      body.moment << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
    }
  }
  return world;
}

using test::sharedLoader;

/// A corpus file: DART's SKEL files name meshes in a sibling directory (../obj), so DART's whole
/// data tree is a resource path (the path policy refuses meshes outside the loaded trees).
LoadResult loadCorpusFile(const std::string& file) {
  LoadOptions options;
  options.resourcePaths = {fs::path(kCorpus).parent_path().string()};
  return sharedLoader().loadFile(file, options);
}

/// Our world pose of every frame at configuration q, by scoped name.
std::map<std::string, Pose> posesAt(const LoadResult& result, const std::vector<double>& q, Diagnostics& diagnostics) {
  std::map<std::string, Pose> poses;
  const auto moved = result.kinematics.framePoses(q, diagnostics);
  if (!moved) return poses;
  const auto& frames = result.graph.frames();
  for (std::size_t i = 0; i < frames.size() && i < moved->size(); ++i) poses[frames[i].name] = (*moved)[i];
  return poses;
}

/// Our world pose of every frame at the file's initial positions, by scoped name.
std::map<std::string, Pose> initialPoses(const LoadResult& result, Diagnostics& diagnostics) {
  return posesAt(result, result.kinematics.initialConfiguration(), diagnostics);
}

const Joint* parentJoint(const Model& model, const std::string& link) {
  for (const auto& joint : model.joints) {
    if (joint.child == link && !joint.loopClosure) return &joint;
  }
  return nullptr;
}

double poseDistance(const Pose& a, const Pose& b) {
  return std::max((a.linear() - b.linear()).cwiseAbs().maxCoeff(),
                  (a.translation() - b.translation()).cwiseAbs().maxCoeff());
}

/// A file written for one test, removed afterwards.
class TempSkel {
 public:
  explicit TempSkel(const std::string& body) {
    static int counter = 0;
    dir_ = fs::temp_directory_path() / ("interlink_skel_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(dir_);
    path_ = (dir_ / "model.skel").string();
    std::ofstream(path_) << body;
  }
  ~TempSkel() {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  fs::path dir_;
  std::string path_;
};

std::string world(const std::string& skeletons) {
  return "<?xml version=\"1.0\"?>\n<skel version=\"1.0\">\n<world name=\"w\">\n"
         "<physics><time_step>0.002</time_step><gravity>0 0 -9.81</gravity>"
         "<collision_detector>fcl</collision_detector></physics>\n" +
         skeletons + "</world>\n</skel>\n";
}

std::string body(const std::string& name, const std::string& transformation = "0 0 0 0 0 0") {
  return "<body name=\"" + name + "\"><transformation>" + transformation + "</transformation></body>\n";
}

std::string joint(const std::string& type, const std::string& name, const std::string& parent,
                  const std::string& child, const std::string& extra = "") {
  return "<joint type=\"" + type + "\" name=\"" + name + "\"><parent>" + parent + "</parent><child>" + child +
         "</child>" + extra + "</joint>\n";
}

const Diagnostic* find(const Diagnostics& diagnostics, ErrorCode code) {
  for (const auto& d : diagnostics) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Differential test: every corpus file, DART in a child process against our load.

class SkelCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(SkelCorpus, MatchesDart) {
  const std::string relative = GetParam();
  const std::string file = kCorpus + "/" + relative;
  const DartWorld dart = runDart(file);
  if (kDartCrashes.count(relative) != 0) {
    // Nothing to compare with: DART must still crash here, and ours must produce a world (what it
    // reports is checked in SkelCrashFiles).
    EXPECT_TRUE(dart.crashed) << relative << " no longer crashes DART: compare it instead";
    const LoadResult result = loadCorpusFile(file);
    EXPECT_TRUE(result.document.isWorld()) << test::dump(result.diagnostics);
    return;
  }
  ASSERT_FALSE(dart.crashed) << "DART crashed on " << relative << ": add it to kDartCrashes";

  const LoadResult result = loadCorpusFile(file);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  ASSERT_TRUE(result.document.isWorld());
  const World& ours = result.document.worlds.front();

  // Same skeletons, in order, with the same number of bodies.
  ASSERT_EQ(ours.models.size(), dart.skeletons.size());
  for (std::size_t s = 0; s < dart.skeletons.size(); ++s) {
    EXPECT_EQ(ours.models[s].name, dart.skeletons[s].first);
    EXPECT_EQ(ours.models[s].links.size(), dart.skeletons[s].second) << ours.models[s].name;
  }

  Diagnostics fk;
  const auto poses = initialPoses(result, fk);
  ASSERT_FALSE(fk.hasErrors()) << test::dump(fk);
  for (const auto& [name, expected] : dart.bodies) {
    SCOPED_TRACE(relative + ": " + name);
    const auto split = name.find("::");
    const std::string skeleton = name.substr(0, split);
    const std::string link = name.substr(split + 2);
    const auto model = std::find_if(ours.models.begin(), ours.models.end(),
                                    [&](const Model& m) { return m.name == skeleton; });
    ASSERT_NE(model, ours.models.end());
    const auto ourLink = std::find_if(model->links.begin(), model->links.end(),
                                      [&](const Link& l) { return l.name == link; });
    ASSERT_NE(ourLink, model->links.end());

    const Joint* ourJoint = parentJoint(*model, link);
    ASSERT_NE(ourJoint, nullptr);
    EXPECT_EQ(std::string(jointTypeName(ourJoint->type)), expected.jointType);

    const auto pose = poses.find(name);
    ASSERT_NE(pose, poses.end()) << "no frame " << name;
    EXPECT_LE(poseDistance(pose->second, expected.pose), 1e-9)
        << "ours\n" << pose->second.matrix() << "\nDART\n" << expected.pose.matrix();

    EXPECT_NEAR(ourLink->inertial.mass, expected.mass, 1e-9);
    EXPECT_LE((ourLink->inertial.centerOfMass.translation() - expected.com).cwiseAbs().maxCoeff(), 1e-9);
    EXPECT_LE((ourLink->inertial.inertia - expected.moment).cwiseAbs().maxCoeff(), 1e-9)
        << "ours\n" << ourLink->inertial.inertia << "\nDART\n" << expected.moment;
  }
}

TEST_P(SkelCorpus, MatchesDartAwayFromInitialPositions) {
  // Initial positions are mostly zero in the corpus; moving every joint checks the axes, the axis
  // orders and the coordinate conventions of every joint type against DART.
  const std::string relative = GetParam();
  const std::string file = kCorpus + "/" + relative;
  const DartWorld dart = runDart(file, true);
  if (kDartCrashes.count(relative) != 0) {
    EXPECT_TRUE(dart.crashed) << relative << " no longer crashes DART: compare it instead";
    return;
  }
  ASSERT_FALSE(dart.crashed);
  const LoadResult result = loadCorpusFile(file);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);

  std::vector<double> q = result.kinematics.zeroConfiguration();
  for (const TreeJoint& joint : result.kinematics.joints()) {
    if (joint.firstDof < 0 || joint.loopClosure) continue;
    const auto values = dart.positions.find(joint.childLink);
    ASSERT_NE(values, dart.positions.end()) << joint.childLink;
    ASSERT_EQ(values->second.size(), static_cast<std::size_t>(dofCount(joint.type))) << joint.name;
    for (std::size_t i = 0; i < values->second.size(); ++i) {
      // DART's free joint: rotation vector first; the core's: translation first.
      const std::size_t core = joint.type == JointType::Free ? (i + 3) % 6 : i;
      q[static_cast<std::size_t>(joint.firstDof) + core] = values->second[i];
    }
  }
  Diagnostics fk;
  const auto poses = posesAt(result, q, fk);
  ASSERT_FALSE(fk.hasErrors()) << test::dump(fk);
  ASSERT_FALSE(dart.bodies.empty() && !dart.skeletons.empty());
  for (const auto& [name, expected] : dart.bodies) {
    const auto pose = poses.find(name);
    ASSERT_NE(pose, poses.end()) << "no frame " << name;
    EXPECT_LE(poseDistance(pose->second, expected.pose), 1e-9)
        << relative << ": " << name << "\nours\n" << pose->second.matrix() << "\nDART\n" << expected.pose.matrix();
  }
}

INSTANTIATE_TEST_SUITE_P(Dart612, SkelCorpus, ::testing::ValuesIn(corpusFiles()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// Without Debian's dart-doc (scripts/install-deps.sh installs it) there is nothing to compare.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SkelCorpus);

TEST(SkelCorpusList, CorpusIsThere) {
  if (!fs::is_directory(kCorpus)) GTEST_SKIP() << "DART's SKEL files are absent: install Debian's dart-doc, " << kCorpus;
  // Debian's dart-doc ships the .skel files uncompressed; a gzipped install would show up here.
  const auto files = corpusFiles();
  EXPECT_GE(files.size(), 70u) << "expected DART's data/skel tree under " << kCorpus;
}

TEST(SkelCorpusList, CrashListIsExactlyWhereDartCrashes) {
  if (!fs::is_directory(kCorpus)) GTEST_SKIP() << "DART's SKEL files are absent: install Debian's dart-doc, " << kCorpus;
  std::set<std::string> crashed;
  for (const auto& relative : corpusFiles()) {
    if (runDart(kCorpus + "/" + relative).crashed) crashed.insert(relative);
  }
  std::set<std::string> recorded;
  for (const auto& [file, reason] : kDartCrashes) recorded.insert(file);
  EXPECT_EQ(crashed, recorded);
}

// ---------------------------------------------------------------------------------------------
// The four files DART crashes on: ours loads them with clear diagnostics.

TEST(SkelCrashFiles, NegativeBoxSizeIsReportedWithLine) {
  const LoadResult result = loadCorpusFile(kCorpus + "/kima/kima_human_left_leg.skel");
  std::set<int> lines;
  for (const auto& d : result.diagnostics) {
    if (d.code == ErrorCode::VALUE_INVALID && d.isError()) {
      lines.insert(d.where.line);
      EXPECT_NE(d.message.find("must be positive"), std::string::npos) << d.format();
    }
  }
  EXPECT_EQ(lines, (std::set<int>{119, 127})) << test::dump(result.diagnostics);
  // Everything else still loads: all bodies are there and the kinematics is built.
  ASSERT_TRUE(result.document.isWorld());
  std::size_t links = 0;
  for (const auto& model : result.document.worlds.front().models) links += model.links.size();
  EXPECT_GT(links, 5u);
  EXPECT_FALSE(result.kinematics.dofs().empty());
}

namespace {

void expectSoftBoxWithoutFragsLoads(const std::string& relative, std::size_t bodies) {
  const LoadResult result = loadCorpusFile(kCorpus + "/" + relative);
  EXPECT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const Diagnostic* missing = find(result.diagnostics, ErrorCode::ELEMENT_MISSING);
  ASSERT_NE(missing, nullptr) << test::dump(result.diagnostics);
  EXPECT_EQ(missing->severity, Severity::Warning);
  EXPECT_NE(missing->message.find("<frags>"), std::string::npos);
  EXPECT_GT(missing->where.line, 0);
  ASSERT_TRUE(result.document.isWorld());
  const Model& model = result.document.worlds.front().models.back();
  EXPECT_EQ(model.links.size(), bodies);
  // The soft shape is kept as written.
  EXPECT_TRUE(std::any_of(model.kept.begin(), model.kept.end(), [](const KeptElement& k) {
    return k.text.find("soft_shape") != std::string::npos;
  }));
  Diagnostics fk;
  EXPECT_TRUE(result.kinematics.framePoses(result.kinematics.initialConfiguration(), fk).has_value());
}

}  // namespace

TEST(SkelCrashFiles, SingleBodySoftBoxWithoutFrags) {
  expectSoftBoxWithoutFragsLoads("test/test_single_body.skel", 1);
  // Body at x = 0.1 under a free joint from the world.
  const LoadResult result = loadCorpusFile(kCorpus + "/test/test_single_body.skel");
  Diagnostics fk;
  const auto poses = initialPoses(result, fk);
  ASSERT_TRUE(poses.count("skeleton 1::link 1"));
  EXPECT_LE((poses.at("skeleton 1::link 1").translation() - Vector3(0.1, 0, 0)).norm(), 1e-12);
}

TEST(SkelCrashFiles, SinglePendulumSoftBoxWithoutFrags) {
  expectSoftBoxWithoutFragsLoads("test/test_single_pendulum.skel", 1);
}

TEST(SkelCrashFiles, DoublePendulumSoftBoxWithoutFrags) {
  expectSoftBoxWithoutFragsLoads("test/test_double_pendulum.skel", 2);
}

// ---------------------------------------------------------------------------------------------
// Where DART is silent or wrong, we are explicit.

TEST(SkelExplicit, ScrewAndTranslational2dAreBuilt) {
  // DART 6.12 drops both joint types and every joint after them.
  TempSkel file(world("<skeleton name=\"s\">" + body("a") + body("b", "0 0 1 0 0 0") + body("c", "0 0 2 0 0 0") +
                      joint("screw", "j_screw", "world", "a",
                            "<axis><xyz>0 0 1</xyz><pitch>0.5</pitch></axis><init_pos>3.14159265358979323846</init_pos>") +
                      joint("translational2d", "j_t2", "a", "b",
                            "<plane type=\"yz\"/><init_pos>0.25 -0.5</init_pos>") +
                      joint("revolute", "j_after", "b", "c", "<axis><xyz>1 0 0</xyz></axis>") + "</skeleton>"));
  const LoadResult result = sharedLoader().loadFile(file.path());
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const Model& model = result.document.worlds.front().models.front();
  ASSERT_EQ(model.joints.size(), 3u);
  EXPECT_EQ(model.joints[0].type, JointType::Screw);
  EXPECT_DOUBLE_EQ(model.joints[0].screwThreadPitch, 0.5);
  EXPECT_EQ(model.joints[1].type, JointType::Translational2D);
  EXPECT_EQ(model.joints[2].type, JointType::Revolute);

  Diagnostics fk;
  const auto poses = initialPoses(result, fk);
  // Half a turn of a 0.5 m/rev screw lifts by 0.25 m and turns a by pi about z.
  EXPECT_LE((poses.at("s::a").translation() - Vector3(0, 0, 0.25)).norm(), 1e-12);
  EXPECT_NEAR(poses.at("s::a").linear()(0, 0), -1.0, 1e-12);
  // In the yz plane of a (turned by pi about z): +0.25 along y is -0.25 in the world, -0.5 along z.
  EXPECT_LE((poses.at("s::b").translation() - Vector3(0, -0.25, 0.25 + 1 - 0.5)).norm(), 1e-12)
      << poses.at("s::b").translation().transpose();
}

TEST(SkelExplicit, UnmentionedBodyIsReported) {
  TempSkel file(world("<skeleton name=\"s\">" + body("a") + body("lonely", "1 0 0 0 0 0") +
                      joint("free", "j", "world", "a") + "</skeleton>"));
  const LoadResult result = sharedLoader().loadFile(file.path());
  const Diagnostic* d = find(result.diagnostics, ErrorCode::ELEMENT_INVALID);
  ASSERT_NE(d, nullptr) << test::dump(result.diagnostics);
  EXPECT_EQ(d->severity, Severity::Warning);
  EXPECT_NE(d->message.find("lonely"), std::string::npos);
  EXPECT_EQ(d->where.line, 6);
  EXPECT_EQ(result.document.worlds.front().models.front().links.size(), 2u);
}

/// The error of `code` the load of `file` reports (a default Diagnostic, and a failure, when there
/// is none).
Diagnostic errorOf(const TempSkel& file, ErrorCode code) {
  const LoadResult result = sharedLoader().loadFile(file.path());
  const Diagnostic* d = find(result.diagnostics, code);
  EXPECT_NE(d, nullptr) << test::dump(result.diagnostics);
  EXPECT_TRUE(d && d->isError());
  return d ? *d : Diagnostic{};
}

TEST(SkelExplicit, BodyWithTwoParentJointsIsAnError) {
  TempSkel file(world("<skeleton name=\"s\">" + body("a") + body("b") + joint("free", "j1", "world", "a") +
                      joint("free", "j2", "world", "b") + joint("weld", "j3", "a", "b") + "</skeleton>"));
  const Diagnostic d = errorOf(file, ErrorCode::KINEMATIC_LOOP);
  EXPECT_EQ(d.where.line, 9);
  EXPECT_NE(d.message.find("j2"), std::string::npos);
  EXPECT_NE(d.message.find("j3"), std::string::npos);
}

TEST(SkelExplicit, CycleIsAnErrorNotAHang) {
  TempSkel file(world("<skeleton name=\"s\">" + body("a") + body("b") + body("c") + joint("weld", "ab", "a", "b") +
                      joint("weld", "bc", "b", "c") + joint("weld", "ca", "c", "a") + "</skeleton>"));
  const Diagnostic d = errorOf(file, ErrorCode::KINEMATIC_LOOP);
  EXPECT_EQ(d.where.line, 10);
  for (const char* name : {"ab", "bc", "ca"}) EXPECT_NE(d.message.find(name), std::string::npos) << d.message;
}

TEST(SkelExplicit, UnknownJointTypeIsAnError) {
  TempSkel file(world("<skeleton name=\"s\">" + body("a") + joint("hinge", "j", "world", "a") + "</skeleton>"));
  const Diagnostic d = errorOf(file, ErrorCode::ATTRIBUTE_INVALID);
  EXPECT_EQ(d.where.line, 6);
  EXPECT_NE(d.message.find("hinge"), std::string::npos);
}

TEST(SkelExplicit, InitPosOfWrongLengthIsAnError) {
  TempSkel file(world("<skeleton name=\"s\">" + body("a") + body("b") + joint("free", "j", "world", "a") +
                      joint("ball", "k", "a", "b", "\n<init_pos>0.1 0.2</init_pos>") + "</skeleton>"));
  const LoadResult result = sharedLoader().loadFile(file.path());
  ASSERT_TRUE(result.diagnostics.hasErrors());
  const auto d = std::find_if(result.diagnostics.begin(), result.diagnostics.end(),
                              [](const Diagnostic& x) { return x.isError(); });
  EXPECT_EQ(d->where.line, 9) << d->format();
  EXPECT_NE(d->message.find("init_pos"), std::string::npos) << d->format();
  EXPECT_NE(d->message.find("3"), std::string::npos) << d->format();
}

TEST(SkelExplicit, FreeInitPosIsReorderedTranslationFirst) {
  TempSkel file(world("<skeleton name=\"s\">" + body("a", "0 0 1 0 0 0") +
                      joint("free", "j", "world", "a", "<init_pos>0 0 1.5 1 2 3</init_pos>") + "</skeleton>"));
  const LoadResult result = sharedLoader().loadFile(file.path());
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const Joint& j = result.document.worlds.front().models.front().joints.front();
  EXPECT_EQ(j.initialPositions, (std::vector<double>{1, 2, 3, 0, 0, 1.5}));
  Diagnostics fk;
  const auto poses = initialPoses(result, fk);
  EXPECT_LE((poses.at("s::a").translation() - Vector3(1, 2, 4)).norm(), 1e-12);
}

TEST(SkelExplicit, RootParentGetsAFreeJointAndMarkersAreFrames) {
  TempSkel file(world("<skeleton name=\"s\"><transformation>0 0 1 0 0 0</transformation>"
                      "<body name=\"a\"><transformation>1 0 0 0 0 0</transformation>"
                      "<marker name=\"tip\"><offset>0 0.5 0</offset></marker></body>" +
                      body("b", "2 0 0 0 0 0") + joint("weld", "ab", "a", "b") + "</skeleton>"));
  const LoadResult result = sharedLoader().loadFile(file.path());
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const Model& model = result.document.worlds.front().models.front();
  ASSERT_EQ(model.joints.size(), 2u);
  EXPECT_EQ(model.joints[0].type, JointType::Free);
  EXPECT_EQ(model.joints[0].parent, "world");
  EXPECT_EQ(model.joints[0].child, "a");
  ASSERT_EQ(model.frames.size(), 1u);
  EXPECT_EQ(model.frames[0].attachedTo, "a");
  const auto tip = result.graph.pose("s::tip", "world");
  ASSERT_TRUE(tip.has_value());
  EXPECT_LE((tip->translation() - Vector3(1, 0.5, 1)).norm(), 1e-12);
}

TEST(SkelExplicit, WorldPhysicsAndShapes) {
  const LoadResult result = loadCorpusFile(kCorpus + "/shapes.skel");
  ASSERT_TRUE(result.document.isWorld()) << test::dump(result.diagnostics);
  const World& w = result.document.worlds.front();
  EXPECT_DOUBLE_EQ(w.physics.maxStepSize, 0.001);
  EXPECT_EQ(w.physics.collisionDetector, "bullet");  // as written; DART falls back to fcl_mesh
  EXPECT_LE((w.gravity - Vector3(0, -9.81, 0)).norm(), 1e-12);

  // Every shape kind of the corpus (the plane is in bullet_collision.skel, with a <point>).
  const LoadResult planes = loadCorpusFile(kCorpus + "/bullet_collision.skel");
  ASSERT_TRUE(planes.ok()) << test::dump(planes.diagnostics);
  std::set<GeometryType> kinds;
  for (const LoadResult* r : {&result, &planes})
    for (const auto& model : r->document.worlds.front().models)
      for (const auto& link : model.links)
        for (const auto& shape : link.visuals) {
          kinds.insert(shape.geometry.type);
          if (shape.geometry.type == GeometryType::Plane) {
            EXPECT_LE((shape.geometry.normal - Vector3::UnitY()).norm(), 1e-12);
          }
        }
  for (GeometryType kind : {GeometryType::Box, GeometryType::Sphere, GeometryType::Ellipsoid, GeometryType::Cylinder,
                            GeometryType::Capsule, GeometryType::Cone, GeometryType::Pyramid, GeometryType::Plane,
                            GeometryType::MultiSphere}) {
    EXPECT_TRUE(kinds.count(kind)) << geometryTypeName(kind);
  }
  EXPECT_TRUE(planes.diagnostics.contains(ErrorCode::ELEMENT_DEPRECATED)) << test::dump(planes.diagnostics);
}

TEST(SkelExplicit, PlaneOffsetMovesTheShapeFrame) {
  TempSkel file(world("<skeleton name=\"s\"><body name=\"g\"><visualization_shape><geometry><plane>"
                      "<normal>0 0 2</normal><offset>0.5</offset></plane></geometry></visualization_shape></body>" +
                      joint("weld", "j", "world", "g") + "</skeleton>"));
  const LoadResult result = sharedLoader().loadFile(file.path());
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const Shape& plane = result.document.worlds.front().models.front().links.front().visuals.front();
  EXPECT_LE((plane.geometry.normal - Vector3::UnitZ()).norm(), 1e-12);
  EXPECT_LE((plane.pose.pose.translation() - Vector3(0, 0, 0.5)).norm(), 1e-12);
}

TEST(SkelExplicit, MeshesAreMeasuredWithAssimp) {
  const LoadResult result = loadCorpusFile(kCorpus + "/kima/kima_human_edited.skel");
  ASSERT_TRUE(result.document.isWorld()) << test::dump(result.diagnostics);
  std::size_t meshes = 0;
  for (const auto& model : result.document.worlds.front().models)
    for (const auto& link : model.links)
      for (const auto& shape : link.visuals) {
        if (shape.geometry.type != GeometryType::Mesh) continue;
        ++meshes;
        ASSERT_TRUE(shape.geometry.mesh.has_value()) << shape.geometry.meshUri;
        EXPECT_GT(shape.geometry.mesh->vertexCount, 0u);
        EXPECT_GT(shape.geometry.mesh->faceCount, 0u);
        EXPECT_TRUE((shape.geometry.mesh->boundsMax.array() > shape.geometry.mesh->boundsMin.array()).all());
        EXPECT_TRUE(fs::exists(shape.geometry.meshResolvedPath));
      }
  EXPECT_GT(meshes, 0u);
}

TEST(SkelInertia, CapsuleConePyramidAgreeWithClosedForms) {
  Geometry capsule;
  capsule.type = GeometryType::Capsule;
  capsule.radius = 0.5;
  capsule.length = 0.0;  // a capsule of zero height is a sphere
  const auto sphereLike = skel::detail::dartShapeInertia(capsule, 2.0);
  ASSERT_TRUE(sphereLike);
  EXPECT_NEAR((*sphereLike)(2, 2), 0.4 * 2.0 * 0.25, 1e-12);
  Geometry box;
  box.type = GeometryType::Box;
  box.size = Vector3(1, 2, 3);
  const auto boxMoment = skel::detail::dartShapeInertia(box, 12.0);
  ASSERT_TRUE(boxMoment);
  EXPECT_NEAR((*boxMoment)(0, 0), 13.0, 1e-12);
  EXPECT_NEAR((*boxMoment)(2, 2), 5.0, 1e-12);
}

TEST(SkelExplicit, BadValuesAreAllReportedWithLines) {
  TempSkel file(world("<skeleton name=\"s\">\n<body name=\"a\"><transformation>0 0 0 0 0</transformation>\n"
                      "<inertia><mass>heavy</mass></inertia></body>\n" +
                      joint("free", "j", "world", "a", "<init_vel>1 2 3</init_vel>") + "</skeleton>"));
  const LoadResult result = sharedLoader().loadFile(file.path());
  std::map<int, ErrorCode> errors;
  for (const auto& d : result.diagnostics) {
    if (d.isError()) errors[d.where.line] = d.code;
  }
  EXPECT_EQ(errors.size(), 3u) << test::dump(result.diagnostics);
  EXPECT_EQ(errors[6], ErrorCode::POSE_FORMAT_INVALID) << test::dump(result.diagnostics);
  EXPECT_EQ(errors[7], ErrorCode::VALUE_INVALID);
  EXPECT_EQ(errors[8], ErrorCode::VALUE_INVALID);
}

TEST(SkelDocument, ShapeAndAxisDefaultsAreApplied) {
  // Every default the format document states, written nowhere in the file.
  const std::string shapes =
      "<body name=\"a\"><transformation>0 0 0 0 0 0</transformation>"
      "<visualization_shape><geometry><box/></geometry></visualization_shape>"
      "<visualization_shape><geometry><ellipsoid/></geometry></visualization_shape>"
      "<visualization_shape><geometry><cylinder/></geometry></visualization_shape>"
      "<collision_shape><geometry><cylinder><radius>0.2</radius><length>0.7</length></cylinder></geometry>"
      "</collision_shape></body>\n";
  TempSkel file(world("<skeleton name=\"s\">" + shapes + body("b") + joint("free", "root", "world", "a") +
                      joint("revolute", "hinge", "a", "b", "<axis><limit><lower>-1</lower></limit></axis>") +
                      "</skeleton>"));
  const LoadResult result = sharedLoader().loadFile(file.path());
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const Model& model = result.document.worlds.front().models.front();
  const Link& a = model.links.front();
  ASSERT_EQ(a.visuals.size(), 3u);
  EXPECT_TRUE(a.visuals[0].geometry.size.isApprox(Vector3::Ones()));
  EXPECT_TRUE(a.visuals[1].geometry.size.isApprox(Vector3::Ones()));
  EXPECT_DOUBLE_EQ(a.visuals[2].geometry.radius, 0.5);
  EXPECT_DOUBLE_EQ(a.visuals[2].geometry.length, 1.0);
  ASSERT_EQ(a.collisions.size(), 1u);
  EXPECT_DOUBLE_EQ(a.collisions[0].geometry.length, 0.7);  // <length>, the collision spelling
  const Joint& hinge = model.joints[1];
  ASSERT_EQ(hinge.axes.size(), 1u);
  EXPECT_TRUE(hinge.axes[0].xyz.isApprox(Vector3::UnitX()));  // <axis> without <xyz>
  EXPECT_DOUBLE_EQ(hinge.axes[0].lower, -1.0);
  EXPECT_EQ(test::dump(result.diagnostics).find("z axis"), std::string::npos) << test::dump(result.diagnostics);
}

TEST(SkelDocument, TorqueActuatorLimitsAndDynamics) {
  TempSkel file(world(
      "<skeleton name=\"s\">" + body("a") + body("b") + body("c") + joint("free", "root", "world", "a") +
      "<joint type=\"revolute\" name=\"driven\" actuator=\"torque\"><parent>a</parent><child>b</child>"
      "<axis><xyz>0 0 1</xyz><limit><lower>-2</lower><upper>2</upper><effort>15</effort><velocity>3</velocity>"
      "<stiffness>9</stiffness></limit><dynamics><damping>0.5</damping><sprint_rest_position>0.25</sprint_rest_position>"
      "<sprint_stiffness>40</sprint_stiffness><viscosity>1</viscosity></dynamics></axis></joint>\n" +
      joint("revolute", "plain", "b", "c", "<axis><xyz>0 1 0</xyz></axis>") + "</skeleton>"));
  const LoadResult result = sharedLoader().loadFile(file.path());
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const std::string dump = test::dump(result.diagnostics);
  EXPECT_EQ(dump.find("actuator"), std::string::npos) << dump;  // torque is valid
  const Model& model = result.document.worlds.front().models.front();
  const Joint& driven = model.joints[1];
  EXPECT_EQ(driven.actuator, "torque");
  EXPECT_EQ(model.joints[2].actuator, "torque");  // the default
  const JointAxis& axis = driven.axes[0];
  EXPECT_DOUBLE_EQ(axis.effort, 15);
  EXPECT_DOUBLE_EQ(axis.velocity, 3);
  EXPECT_DOUBLE_EQ(axis.damping, 0.5);
  EXPECT_DOUBLE_EQ(axis.springReference, 0.25);
  EXPECT_DOUBLE_EQ(axis.springStiffness, 40);
  // Unknown children of <limit> and <dynamics> are warned about, with their line.
  EXPECT_NE(dump.find("<stiffness> in <limit>"), std::string::npos) << dump;
  EXPECT_NE(dump.find("<viscosity> in <dynamics>"), std::string::npos) << dump;
  EXPECT_NE(dump.find("<sprint_stiffness> is read as <spring_stiffness>"), std::string::npos) << dump;
  const Diagnostic* unknown = find(result.diagnostics, ErrorCode::ELEMENT_UNSUPPORTED);
  ASSERT_NE(unknown, nullptr);
  EXPECT_EQ(unknown->severity, Severity::Warning);
  EXPECT_EQ(unknown->where.line, 9);
}

TEST(SkelDocument, CollidableInertiaTransformationAndDefaultNames) {
  const std::string a =
      "<body name=\"a\"><transformation>0 0 0 0 0 0</transformation>"
      "<inertia><mass>2</mass><transformation>0.1 0.2 0.3 0 0 1.5707963267948966</transformation>"
      "<moment_of_inertia><ixx>1</ixx><iyy>2</iyy><izz>3</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz>"
      "</moment_of_inertia></inertia>"
      "<collision_shape><geometry><box><size>1 1 1</size></box></geometry><collidable>0</collidable></collision_shape>"
      "<collision_shape><geometry><box><size>1 1 1</size></box></geometry><collidable>1</collidable></collision_shape>"
      "</body>\n";
  TempSkel file("<?xml version=\"1.0\"?>\n<skel version=\"1.0\">\n<world>\n<skeleton>" + a +
                "<body><transformation>0 0 1 0 0 0</transformation></body>\n" + joint("free", "root", "world", "a") +
                joint("weld", "w", "a", "Unknown body") + "</skeleton></world>\n</skel>\n");
  const LoadResult result = sharedLoader().loadFile(file.path());
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  ASSERT_EQ(result.document.worlds.size(), 1u);
  const World& w = result.document.worlds.front();
  EXPECT_EQ(w.name, "Unknown world");
  ASSERT_EQ(w.models.size(), 1u);
  EXPECT_EQ(w.models.front().name, "Unknown skeleton");
  const Model& model = w.models.front();
  ASSERT_EQ(model.links.size(), 2u);
  EXPECT_EQ(model.links[1].name, "Unknown body");
  const Link& body = model.links[0];
  EXPECT_EQ(body.collisions.size(), 1u);  // <collidable>0 is no collision shape
  EXPECT_TRUE(body.inertial.centerOfMass.translation().isApprox(Vector3(0.1, 0.2, 0.3)));
  EXPECT_TRUE(body.inertial.centerOfMass.linear().isApprox(
      Eigen::AngleAxisd(M_PI / 2, Vector3::UnitZ()).toRotationMatrix()));
  EXPECT_DOUBLE_EQ(body.inertial.inertia(1, 1), 2);
}

TEST(SkelDocument, ImpossibleInertiaIsAWarningFromTheCore) {
  // DART loads it (and warns on stderr); the core's inertia check says so with the line.
  TempSkel file(world("<skeleton name=\"s\"><body name=\"a\"><inertia><mass>1</mass><moment_of_inertia><ixx>1</ixx>"
                      "<iyy>1</iyy><izz>5</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></moment_of_inertia></inertia>"
                      "</body>\n" + joint("free", "root", "world", "a") + "</skeleton>"));
  const LoadResult result = sharedLoader().loadFile(file.path());
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const Diagnostic* d = find(result.diagnostics, ErrorCode::LINK_INERTIA_INVALID);
  ASSERT_NE(d, nullptr) << test::dump(result.diagnostics);
  EXPECT_EQ(d->severity, Severity::Warning);
  EXPECT_EQ(d->where.line, 5);
  EXPECT_NE(d->message.find("triangle inequality"), std::string::npos) << d->message;
}

TEST(SkelExplicit, NotASkelDocument) {
  TempSkel file("<?xml version=\"1.0\"?>\n<sdf version=\"1.9\"/>\n");
  const LoadResult result = sharedLoader().loadFile(file.path());
  const Diagnostic* d = find(result.diagnostics, ErrorCode::ELEMENT_MISSING);
  ASSERT_NE(d, nullptr) << test::dump(result.diagnostics);
  EXPECT_EQ(d->where.line, 2);
  EXPECT_NE(d->message.find("<skel>"), std::string::npos);
}

TEST(SkelCli, PositionsInitialAppliesInitPos) {
  // planar_joint.skel: link1 hangs from the world by a planar joint with init_pos 1.1 2 3.
  const auto zero = test::run("'" + test::cliPath() + "' frames '" + kCorpus + "/test/planar_joint.skel'");
  const auto initial =
      test::run("'" + test::cliPath() + "' frames '" + kCorpus + "/test/planar_joint.skel' --positions initial");
  ASSERT_EQ(initial.exitCode, 0) << initial.output;
  EXPECT_NE(initial.output.find("skeleton1::link1  link  1.1 2 0"), std::string::npos) << initial.output;
  EXPECT_EQ(zero.output.find("skeleton1::link1  link  1.1 2 0"), std::string::npos) << zero.output;
}
