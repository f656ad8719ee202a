// ModelQuery: poses by name, configurations by name, Jacobians against finite differences of
// forward kinematics, mass properties against a hand computation, LoadOptions::format.
#include <gtest/gtest.h>

#include <cmath>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/ModelQuery.hpp"

namespace interlink {
namespace {

const std::string kArm = test::sourceDir() + "/samples/models/arm.sdf";

/// The sample arm, loaded, a query of it and where the query's findings go.
class ModelQueryOfArm : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics); }

  const LoadResult loaded = Loader().loadFile(kArm);
  const ModelQuery query{loaded};
  Diagnostics diagnostics;
};

// Ball, universal, screw and prismatic joints with axes expressed in rotated frames.
const char* kZoo = R"(<?xml version="1.0"?>
<sdf version="1.9"><model name="zoo">
  <link name="a"><pose>0.1 0.2 0.3 0.3 -0.2 0.5</pose></link>
  <link name="b"><pose>0.5 0 0.3 0 0.4 0</pose></link>
  <link name="c"><pose>0.9 0.1 0.2 0.2 0 -0.3</pose></link>
  <link name="d"><pose>1.2 0.3 0.1 0 0 0.7</pose></link>
  <link name="e"><pose>1.5 0.2 0.4 0.1 0.1 0.1</pose></link>
  <frame name="tilted" attached_to="a"><pose>0 0 0 0.7 0.2 -0.4</pose></frame>
  <joint name="ball" type="ball"><pose>0.05 0 0.1 0 0 0</pose><parent>a</parent><child>b</child></joint>
  <joint name="slide" type="prismatic"><parent>b</parent><child>c</child>
    <axis><xyz expressed_in="tilted">1 1 0</xyz></axis></joint>
  <joint name="cardan" type="universal"><pose>0 0.1 0 0.3 0 0</pose><parent>c</parent><child>d</child>
    <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 0.6 0.8</xyz></axis2></joint>
  <joint name="lead" type="screw"><parent>d</parent><child>e</child>
    <axis><xyz>0 0 1</xyz></axis><thread_pitch>0.05</thread_pitch></joint>
  <frame name="tip" attached_to="e"><pose>0.2 -0.1 0.3 0.1 0.2 0.3</pose></frame>
</model></sdf>)";

Jacobian finiteDifferences(const ModelQuery& query, const std::string& frame, const std::vector<double>& q) {
  const double h = 1e-6;
  Diagnostics diagnostics;
  Jacobian J = Jacobian::Zero(6, static_cast<Eigen::Index>(q.size()));
  const Matrix3 R = query.pose(frame, q, "", diagnostics)->linear();
  for (std::size_t k = 0; k < q.size(); ++k) {
    std::vector<double> plus = q, minus = q;
    plus[k] += h;
    minus[k] -= h;
    const Pose a = *query.pose(frame, plus, "", diagnostics);
    const Pose b = *query.pose(frame, minus, "", diagnostics);
    const auto column = static_cast<Eigen::Index>(k);
    J.block<3, 1>(0, column) = (a.translation() - b.translation()) / (2 * h);
    const Matrix3 W = (a.linear() - b.linear()) / (2 * h) * R.transpose();
    J.block<3, 1>(3, column) = Vector3(W(2, 1), W(0, 2), W(1, 0));
  }
  return J;
}

TEST(ModelQuery, JacobianMatchesFiniteDifferencesOfForwardKinematics) {
  Loader loader;
  LoadResult loaded = loader.loadString(kZoo, "zoo.sdf");
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  ModelQuery query(loaded);
  ASSERT_EQ(query.dofNames().size(), 3u + 1u + 2u + 1u);
  const std::vector<double> q = {0.4, -0.7, 0.9, 0.35, 0.8, -1.1, 2.5};
  for (const std::string frame : {"tip", "e", "cardan", "b"}) {
    Diagnostics diagnostics;
    auto J = query.jacobian(frame, q, diagnostics);
    ASSERT_TRUE(J) << test::dump(diagnostics);
    const Jacobian expected = finiteDifferences(query, frame, q);
    EXPECT_LT((*J - expected).cwiseAbs().maxCoeff(), 1e-6) << frame << "\n" << *J << "\n\n" << expected;
  }
}

TEST_F(ModelQueryOfArm, PosesByNameAndRelativePoses) {
  auto q = query.configuration({{"shoulder", 0.5}, {"elbow", -0.25}}, diagnostics);
  ASSERT_TRUE(q) << test::dump(diagnostics);
  EXPECT_EQ(*q, (std::vector<double>{0.5, -0.25}));
  auto tool = query.pose("tool", *q, "", diagnostics);
  ASSERT_TRUE(tool);
  const double a = 0.5, b = 0.25;  // elbow -0.25: a + (-b)
  EXPECT_NEAR(tool->translation().x(), 0.5 * std::sin(a) + 0.4 * std::sin(a - b), 1e-12);
  EXPECT_NEAR(tool->translation().z(), 0.1 + 0.5 * std::cos(a) + 0.4 * std::cos(a - b), 1e-12);
  auto relative = query.pose("tool", *q, "upper", diagnostics);
  auto upper = query.pose("upper", *q, "", diagnostics);
  ASSERT_TRUE(relative && upper);
  EXPECT_TRUE(relative->isApprox(upper->inverse() * *tool, 1e-12));

  Diagnostics errors;
  EXPECT_FALSE(query.pose("nope", *q, "", errors));
  EXPECT_FALSE(query.configuration({{"wrist", 1.0}, {"knee", 2.0}}, errors));
  EXPECT_EQ(errors.errorCount(), 3u) << test::dump(errors);  // every unknown name, not the first
  EXPECT_TRUE(errors.contains(ErrorCode::KINEMATICS_INVALID));

  ASSERT_EQ(query.joints().size(), 2u);
  EXPECT_EQ(query.joints()[1].name, "elbow");
  EXPECT_DOUBLE_EQ(query.joints()[1].lower[0], -2.0);
  EXPECT_TRUE(query.joints()[1].axes[0].isApprox(Vector3::UnitY()));
}

TEST_F(ModelQueryOfArm, MassPropertiesOfTheModelAndOfASubtree) {
  const double a = 0.6, b = -0.4;
  auto all = query.massProperties({a, b}, "", diagnostics);
  auto fore = query.massProperties({a, b}, "fore", diagnostics);
  auto upperDown = query.massProperties({a, b}, "upper", diagnostics);
  ASSERT_TRUE(all && fore && upperDown) << test::dump(diagnostics);
  EXPECT_DOUBLE_EQ(all->mass, 7.0);
  EXPECT_DOUBLE_EQ(fore->mass, 1.0);
  EXPECT_DOUBLE_EQ(upperDown->mass, 3.0);
  const Vector3 upperCom(0.25 * std::sin(a), 0, 0.1 + 0.25 * std::cos(a));
  const Vector3 foreCom(0.5 * std::sin(a) + 0.2 * std::sin(a + b), 0, 0.1 + 0.5 * std::cos(a) + 0.2 * std::cos(a + b));
  EXPECT_TRUE(fore->centerOfMass.isApprox(foreCom, 1e-12));
  EXPECT_TRUE(all->centerOfMass.isApprox((2 * upperCom + foreCom) / 7.0, 1e-12));
  // Two unit-inertia bodies plus the parallel-axis terms about their common centre of mass.
  const Vector3 c = (2 * upperCom + foreCom) / 3.0;
  Matrix3 expected = 2 * Matrix3::Identity();
  for (const auto& [m, p] : {std::pair<double, Vector3>{2.0, upperCom}, {1.0, foreCom}}) {
    const Vector3 d = p - c;
    expected += m * (d.squaredNorm() * Matrix3::Identity() - d * d.transpose());
  }
  EXPECT_TRUE(upperDown->inertia.isApprox(expected, 1e-12)) << upperDown->inertia;
  EXPECT_FALSE(query.massProperties({a, b}, "shoulder", diagnostics));
}

TEST(ModelQuery, LoadOptionsFormatPicksThePluginByName) {
  const std::string urdf = R"(<robot name="r"><link name="a"/><link name="b"/>
    <joint name="j" type="continuous"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/></joint></robot>)";
  Loader loader;
  LoadOptions options;
  options.format = "urdf";
  LoadResult named = loader.loadString(urdf, "robot.txt", options);
  ASSERT_TRUE(named.ok()) << test::dump(named.diagnostics);
  EXPECT_EQ(named.document.format, "urdf");
  EXPECT_EQ(named.kinematics.dofs().size(), 1u);
  // Named, the plugin is used even when it declines: SDFormat refuses a <robot> root.
  options.format = "sdformat";
  LoadResult forced = loader.loadString(urdf, "robot.txt", options);
  EXPECT_FALSE(forced.ok());
  EXPECT_EQ(forced.document.format, "sdformat");
  options.format = "nonesuch";
  LoadResult unknown = loader.loadString(urdf, "robot.urdf", options);
  ASSERT_TRUE(unknown.diagnostics.contains(ErrorCode::NO_PARSER));
  EXPECT_NE(unknown.diagnostics.items().front().message.find("nonesuch"), std::string::npos);
}

// framePose walks one frame's tree path; it must equal the pose framePoses computes for every
// frame, for every frame of real robots (fixed joints, mimic fingers, free joints) and the zoo.
// framePosesAt, which keeps one pose per link and makes the others when read, relative to any
// frame, must equal the path walk of pose() too, and framePoses is made of its values.
TEST(ModelQuery, PathPoseOfEveryFrameEqualsAllFramePosesAndThePosesMadeWhenRead) {
  Loader loader;
  for (const std::string& file : {test::sourceDir() + "/tests/data/example-robot-data/panda.urdf",
                                  test::sourceDir() + "/tests/data/example-robot-data/anymal_kinova.urdf",
                                  test::sourceDir() + "/samples/models/workcell.sdf", std::string()}) {
    LoadResult loaded = file.empty() ? loader.loadString(kZoo, "zoo.sdf") : loader.loadFile(file);
    ASSERT_TRUE(loaded.ok()) << file << test::dump(loaded.diagnostics);
    ModelQuery query(loaded);
    std::vector<double> q(loaded.kinematics.dofs().size());
    for (std::size_t i = 0; i < q.size(); ++i) q[i] = 0.3 * std::sin(1.7 * static_cast<double>(i) + 0.4);
    Diagnostics diagnostics;
    const std::vector<Pose> all = *loaded.kinematics.framePoses(q, diagnostics);
    for (std::size_t f = 0; f < all.size(); ++f) {
      const Pose one = *loaded.kinematics.framePose(f, q, diagnostics);
      EXPECT_TRUE(one.isApprox(all[f], 1e-12) || (one.matrix() - all[f].matrix()).norm() < 1e-12)
          << file << ": " << loaded.graph.frames()[f].name;
    }
    EXPECT_TRUE(diagnostics.empty()) << test::dump(diagnostics);
    EXPECT_FALSE(loaded.kinematics.framePose(all.size(), q, diagnostics));  // no such frame: an error, not a crash
    EXPECT_FALSE(loaded.kinematics.framePose(0, std::vector<double>(q.size() + 1), diagnostics));

    const auto& frames = loaded.graph.frames();
    const std::size_t reference = frames.size() / 2;
    Diagnostics relative;
    const std::optional<FramePoses> poses = query.framePosesAt(q, frames[reference].name, relative);
    ASSERT_TRUE(poses) << file << test::dump(relative);
    const std::vector<Pose> listed = *query.framePoses(q, frames[reference].name, relative);
    ASSERT_EQ(poses->size(), frames.size());
    std::size_t links = 0;
    for (const FrameInfo& frame : frames) links += frame.kind == FrameKind::Link ? 1 : 0;
    EXPECT_EQ(poses->keptPoses(), links) << file;
    EXPECT_GT(poses->keptPoses(), 0u) << file;
    for (std::size_t f = 0; f < frames.size(); ++f) {
      const Pose walked = *query.pose(f, q, reference, relative);
      EXPECT_TRUE((*poses)[f].isApprox(walked, 1e-12) || ((*poses)[f].matrix() - walked.matrix()).norm() < 1e-12)
          << file << ": " << frames[f].name;
      EXPECT_EQ((*poses)[f].matrix(), listed[f].matrix()) << file << ": " << frames[f].name;
    }
    EXPECT_TRUE((*poses)[reference].isApprox(Pose::Identity(), 1e-12)) << file;
    EXPECT_TRUE(relative.empty()) << test::dump(relative);
    EXPECT_FALSE(query.framePosesAt(q, "no_such_frame", relative));
  }
}

TEST_F(ModelQueryOfArm, ConfigurationFromText) {
  EXPECT_EQ(*query.parseConfiguration("zero", diagnostics), std::vector<double>({0, 0}));
  EXPECT_EQ(*query.parseConfiguration(" 0.5, -1 ", diagnostics), std::vector<double>({0.5, -1}));
  EXPECT_EQ(*query.parseConfiguration("elbow=-1", diagnostics), std::vector<double>({0, -1}));
  EXPECT_EQ(*query.parseConfiguration("elbow = -1 , shoulder=0.25", diagnostics), std::vector<double>({0.25, -1}));
  EXPECT_EQ(*query.parseConfiguration("initial,elbow=2", diagnostics),
            std::vector<double>({loaded.kinematics.initialConfiguration()[0], 2}));
  EXPECT_TRUE(diagnostics.empty()) << test::dump(diagnostics);
  // Every error is reported, not the first.
  EXPECT_FALSE(query.parseConfiguration("elbow=x,wrist=1,shoulder", diagnostics));
  const std::string text = test::dump(diagnostics);
  EXPECT_NE(text.find("elbow"), std::string::npos) << text;
  EXPECT_NE(text.find("no DOF named 'wrist'"), std::string::npos) << text;
  EXPECT_NE(text.find("expected NAME=VALUE"), std::string::npos) << text;
  Diagnostics twice;
  EXPECT_FALSE(query.parseConfiguration("elbow=1,elbow=2", twice));
  EXPECT_NE(test::dump(twice).find("given twice"), std::string::npos);
}

}  // namespace
}  // namespace interlink
