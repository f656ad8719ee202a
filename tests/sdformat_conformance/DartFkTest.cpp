// Forward kinematics at non-zero configurations against an independent reference (issue 12,
// class 10): DART 6.12's dart::utils::SdfParser reads un-nested SDFormat models itself. For several
// random configurations the oracle (SdfDartOracle.cpp, its own process) sets every joint and prints
// the body poses; Interlink gets the same joint values by joint name through the real Loader and
// SDFormat plugin, and every link pose relative to its model's root link must agree to 1e-9.
// Relative poses keep DART's floating root (Interlink has no coordinates for it) out of the
// comparison while every joint between the links is exercised.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink::conformance {
namespace {

constexpr double kTolerance = 1e-9;
constexpr int kConfigurations = 5;

struct DartJoint {
  std::string type;
  std::vector<double> q;
};

struct DartState {
  std::vector<std::string> skeletons;
  std::map<std::string, DartJoint> joints;           // "skeleton::joint"
  std::map<std::string, Pose> bodies;                // "skeleton::body" in DART's world
  std::map<std::string, std::string> rootBody;       // skeleton -> its first body
  std::string output;                                // for failure messages
};

DartState runDart(const std::string& file, int seed) {
  DartState state;
  const auto result = test::run(std::string(SDF_DART_ORACLE) + " '" + file + "' " + std::to_string(seed));
  state.output = result.output;
  std::istringstream lines(result.output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string kind, name;
    std::getline(fields, kind, '\t');
    std::getline(fields, name, '\t');
    if (kind == "skeleton") {
      state.skeletons.push_back(name);
    } else if (kind == "q") {
      DartJoint joint;
      std::getline(fields, joint.type, '\t');
      for (double value; fields >> value;) joint.q.push_back(value);
      state.joints[name] = joint;
    } else if (kind == "body") {
      double v[12];
      for (double& x : v) fields >> x;
      Pose pose = Pose::Identity();
      pose.linear() << v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8];
      pose.translation() = Vector3(v[9], v[10], v[11]);
      state.bodies[name] = pose;
      state.rootBody.emplace(name.substr(0, name.find("::")), name);
    }
  }
  return state;
}

struct FkCase {
  const char* label;
  std::string file;
};

std::vector<FkCase> cases() {
  const std::string dart = DART_SDF_DATA_DIR;
  return {
      {"joint_zoo", test::sourceDir() + "/tests/data/sdformat_fk/joint_zoo.sdf"},
      {"dart_atlas_v3_no_head", dart + "/atlas/atlas_v3_no_head.sdf"},
      {"dart_quad", dart + "/quad.sdf"},
      {"dart_double_pendulum", dart + "/double_pendulum.world"},
      {"dart_double_pendulum_with_base", dart + "/double_pendulum_with_base.world"},
  };
}

void PrintTo(const FkCase& entry, std::ostream* out) { *out << entry.file; }

class DartForwardKinematics : public testing::TestWithParam<FkCase> {};

TEST_P(DartForwardKinematics, LinkPosesAtRandomConfigurationsMatchDart) {
  const FkCase& c = GetParam();
  static const Loader loader;
  LoadOptions options;
  // DART's worlds include Gazebo's model://sun and model://ground_plane, which DART itself skips.
  options.resourcePaths = {test::vendored("gazebo/gazebo_models")};
  const LoadResult loaded = loader.loadFile(c.file, options);
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  const bool world = loaded.graph.isWorld();
  // Frames are named from the root: "model::link" in a world, "link" in a model file.
  auto ourName = [&](const std::string& dartName) {
    return world ? dartName : dartName.substr(dartName.find("::") + 2);
  };

  int compared = 0;
  for (int seed = 1; seed <= kConfigurations; ++seed) {
    const DartState dart = runDart(c.file, seed);
    ASSERT_FALSE(dart.bodies.empty()) << "DART read nothing:\n" << dart.output;
    const std::string prefix = world ? std::string() : dart.skeletons.front() + "::";

    std::vector<double> q = loaded.kinematics.zeroConfiguration();
    int moved = 0;
    for (std::size_t i = 0; i < loaded.kinematics.dofs().size(); ++i) {
      const Dof& dof = loaded.kinematics.dofs()[i];
      const auto joint = dart.joints.find(prefix + dof.joint);
      ASSERT_NE(joint, dart.joints.end()) << "DART has no joint '" << prefix + dof.joint << "'\n" << dart.output;
      ASSERT_LT(static_cast<std::size_t>(dof.index), joint->second.q.size()) << dof.name << " (" << joint->second.type << ")";
      q[i] = joint->second.q[static_cast<std::size_t>(dof.index)];
      moved += q[i] != 0.0;
    }
    EXPECT_GT(moved, 0) << "the configuration must not be zero";
    Diagnostics fkDiagnostics;
    const auto poses = loaded.kinematics.framePoses(q, fkDiagnostics);
    ASSERT_TRUE(poses) << test::dump(fkDiagnostics);

    for (const auto& [body, X_W_B] : dart.bodies) {
      const std::string& rootBody = dart.rootBody.at(body.substr(0, body.find("::")));
      const auto ours = loaded.graph.find(ourName(body));
      const auto ourRoot = loaded.graph.find(ourName(rootBody));
      ASSERT_TRUE(ours && ourRoot) << "Interlink has no link '" << ourName(body) << "' or '" << ourName(rootBody) << "'";
      const Pose theirs = dart.bodies.at(rootBody).inverse() * X_W_B;
      const Pose mine = (*poses)[*ourRoot].inverse() * (*poses)[*ours];
      const double translation = (theirs.translation() - mine.translation()).cwiseAbs().maxCoeff();
      const double rotation = (theirs.linear() - mine.linear()).cwiseAbs().maxCoeff();
      EXPECT_LE(std::max(translation, rotation), kTolerance)
          << c.label << " seed " << seed << ": " << body << " relative to " << rootBody << "\n  DART:\n"
          << theirs.matrix() << "\n  Interlink:\n" << mine.matrix();
      ++compared;
    }
  }
  EXPECT_GT(compared, kConfigurations) << "too few bodies compared";
}

INSTANTIATE_TEST_SUITE_P(DartSdfParser, DartForwardKinematics, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<FkCase>& param) { return std::string(param.param.label); });

/// Nested models are outside what DART's SdfParser reads: derived by hand instead. outer's frame
/// O = T(1,0,0) Rz(90 deg); inner's links a and b sit at O T(0,0,1) and O T(1,0,1). "mount" turns
/// a (and b with it) by alpha about x at a; "hinge" turns b by beta about z at b.
TEST(NestedForwardKinematics, JointsOfAModelAndOfItsNestedModelAtNonZeroPositions) {
  static const Loader loader;
  const LoadResult loaded = loader.loadFile(test::sourceDir() + "/tests/data/sdformat_fk/nested_pendulum.sdf");
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  const auto& dofs = loaded.kinematics.dofs();
  ASSERT_EQ(dofs.size(), 2u);
  const Pose O = Eigen::Translation3d(1, 0, 0) * Eigen::AngleAxisd(M_PI / 2, Vector3::UnitZ());
  for (const auto& [alpha, beta] : std::vector<std::pair<double, double>>{{0.7, -0.4}, {-1.1, 2.3}, {0.25, 0.0}}) {
    std::vector<double> q(2);
    for (std::size_t i = 0; i < 2; ++i) q[i] = dofs[i].joint == "outer::mount" ? alpha : beta;
    ASSERT_TRUE((dofs[0].joint == "outer::mount") != (dofs[1].joint == "outer::mount")) << dofs[0].joint;
    Diagnostics fk;
    const auto poses = loaded.kinematics.framePoses(q, fk);
    ASSERT_TRUE(poses) << test::dump(fk);
    const Pose a = O * Eigen::Translation3d(0, 0, 1) * Eigen::AngleAxisd(alpha, Vector3::UnitX());
    const Pose b = a * Eigen::Translation3d(1, 0, 0) * Eigen::AngleAxisd(beta, Vector3::UnitZ());
    for (const auto& [name, expected] : std::vector<std::pair<std::string, Pose>>{
             {"outer::base", O}, {"outer::inner::a", a}, {"outer::inner::b", b}, {"outer::inner::hinge", b}}) {
      const auto index = loaded.graph.find(name);
      ASSERT_TRUE(index) << name;
      const Pose& ours = (*poses)[*index];
      const double error = std::max((ours.translation() - expected.translation()).cwiseAbs().maxCoeff(),
                                    (ours.linear() - expected.linear()).cwiseAbs().maxCoeff());
      EXPECT_LE(error, kTolerance) << name << " at alpha " << alpha << ", beta " << beta << "\n  expected:\n"
                                   << expected.matrix() << "\n  Interlink:\n" << ours.matrix();
    }
  }
}

}  // namespace
}  // namespace interlink::conformance
