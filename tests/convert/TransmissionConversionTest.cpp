// The issue's second bug: converting an HRDF model to SDFormat dropped its gear ratios. The
// transmission (HRDF gear_ratio: the output moves q / ratio) is its own field now; the SDFormat
// writer keeps it as <interlink:transmission_ratio>, libsdformat accepts the output, and
// Interlink reads it back to the same motion at non-zero positions (derived by hand below).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "LibsdformatFrames.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink {
namespace {

// A geared revolute joint (ratio 3) then a linear stage (ratio 2 pi: one turn per metre).
const char* kGearedRobot = R"~(<robot version="1.5.0">
  <rigid-body mass="1"/>
  <joint axis="rz" gear_ratio="3"/>
  <rigid-body mass="1" output_trans="0.5 0 0"/>
  <joint axis="tz" gear_ratio="2*pi"/>
  <rigid-body mass="0.5"/>
</robot>)~";

/// Writes `text` beside the test's other files and returns the path.
std::string save(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

const Joint* jointNamed(const Model& model, const std::string& name) {
  for (const Joint& joint : model.joints) {
    if (joint.name == name) return &joint;
  }
  return nullptr;
}

TEST(TransmissionConversion, HrdfGearRatiosSurviveSdformatOutput) {
  const std::string dir = test::makeTempDir("interlink-transmission");
  Loader loader;
  const LoadResult original = loader.loadString(kGearedRobot, dir + "/geared.hrdf");
  ASSERT_TRUE(original.ok()) << test::dump(original.diagnostics);
  ASSERT_EQ(original.kinematics.dofs().size(), 2u);

  Diagnostics diagnostics;
  const auto sdf = convert::writeSdformat(original, diagnostics);
  ASSERT_TRUE(sdf) << test::dump(diagnostics);
  EXPECT_NE(sdf->find("<interlink:transmission_ratio>3</interlink:transmission_ratio>"), std::string::npos) << *sdf;
  const std::string path = save(dir, "geared.sdf", *sdf);

  // libsdformat 12.3 accepts the namespaced element.
  const roundtrip::LibsdformatFrames reference = roundtrip::loadWithLibsdformat(path);
  std::string errors;
  for (const auto& e : reference.errors) errors += e + "\n";
  EXPECT_TRUE(reference.valid && reference.errors.empty()) << errors << *sdf;

  // Interlink reads the ratios back onto the same joints.
  const LoadResult reloaded = loader.loadFile(path);
  ASSERT_TRUE(reloaded.ok()) << test::dump(reloaded.diagnostics);
  for (const std::string name : {"joint_1/joint", "joint_2/joint"}) {
    const Joint* before = jointNamed(*original.document.model, name);
    const Joint* after = jointNamed(*reloaded.document.model, name);
    ASSERT_TRUE(before && after) << name;
    EXPECT_NEAR(after->transmissionRatio, before->transmissionRatio, 1e-12) << name;
    EXPECT_EQ(after->gearboxRatio, 1.0) << name;  // not a gearbox joint
  }
  EXPECT_NEAR(jointNamed(*reloaded.document.model, "joint_1/joint")->transmissionRatio, 3.0, 1e-12);
  EXPECT_NEAR(jointNamed(*reloaded.document.model, "joint_2/joint")->transmissionRatio, 2 * M_PI, 1e-12);

  // Same motion at non-zero positions: the stage's output turns q1 / 3 about z and rises q2 / (2 pi).
  const std::vector<double> q = {1.2, 0.7};
  Diagnostics d;
  const auto posesBefore = original.kinematics.framePoses(q, d);
  const auto posesAfter = reloaded.kinematics.framePoses(q, d);
  ASSERT_TRUE(posesBefore && posesAfter) << test::dump(d);
  const auto outBefore = original.graph.find("joint_2/output");
  const auto outAfter = reloaded.graph.find("joint_2/output");
  ASSERT_TRUE(outBefore && outAfter);
  const Pose& before = (*posesBefore)[*outBefore];
  const Pose& after = (*posesAfter)[*outAfter];
  EXPECT_LT((before.matrix() - after.matrix()).cwiseAbs().maxCoeff(), 1e-9);
  const double angle = q[0] / 3;
  EXPECT_NEAR(after.translation().x(), 0.5 * std::cos(angle), 1e-9);
  EXPECT_NEAR(after.translation().y(), 0.5 * std::sin(angle), 1e-9);
  EXPECT_NEAR(after.translation().z(), q[1] / (2 * M_PI), 1e-9);
  EXPECT_LT((after.linear() - Matrix3(Eigen::AngleAxisd(angle, Vector3::UnitZ()))).cwiseAbs().maxCoeff(), 1e-9);

  // URDF's joint coordinate is the output's: the writer divides by the ratio and keeps the ratio
  // in a <transmission>; at q_urdf = q / ratio the output is where it was.
  Diagnostics urdfDiagnostics;
  const auto urdf = convert::writeUrdf(original, urdfDiagnostics);
  ASSERT_TRUE(urdf) << test::dump(urdfDiagnostics);
  EXPECT_NE(urdf->find("<mechanicalReduction>3</mechanicalReduction>"), std::string::npos) << *urdf;
  const std::string urdfPath = save(dir, "geared.urdf", *urdf);
  const auto check = test::run("check_urdf '" + urdfPath + "'");
  EXPECT_EQ(check.exitCode, 0) << check.output;
  const LoadResult fromUrdf = loader.loadFile(urdfPath);
  ASSERT_TRUE(fromUrdf.ok()) << test::dump(fromUrdf.diagnostics);
  ASSERT_EQ(fromUrdf.kinematics.dofs().size(), 2u);
  const auto posesUrdf = fromUrdf.kinematics.framePoses({q[0] / 3, q[1] / (2 * M_PI)}, d);
  ASSERT_TRUE(posesUrdf) << test::dump(d);
  const auto outUrdf = fromUrdf.graph.find(convert::urdfName("joint_2/output"));
  ASSERT_TRUE(outUrdf);
  EXPECT_LT(((*posesUrdf)[*outUrdf].matrix() - before.matrix()).cwiseAbs().maxCoeff(), 1e-9);
  std::system(("rm -rf '" + dir + "'").c_str());
}

}  // namespace
}  // namespace interlink
