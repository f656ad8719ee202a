// Joints are paired with their frames by identity, and every file keeps its own SDFormat rules.
// The first bug: in SDFormat < 1.7 a joint may share a link's name; the frame graph then
// names the joint's frame "<name>_joint" (as libsdformat does), and forward kinematics must still
// turn the child about the joint, not about the link of the same name. Expected poses are
// derived by hand; q = 0 cannot show the bug, so non-zero positions are checked.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink {
namespace {

// Model m: links a and b (b at 1 0 0), revolute joint b (parent a, child b, axis z) whose frame
// is 0 1 0 from b's, so it turns b about the point (1, 1, 0) of the model frame.
std::string jointNamedLikeALink(const std::string& version) {
  return "<?xml version=\"1.0\"?>\n<sdf version=\"" + version + "\">\n"
         "  <model name=\"m\">\n"
         "    <link name=\"a\"/>\n"
         "    <link name=\"b\"><pose>1 0 0 0 0 0</pose></link>\n"
         "    <joint name=\"b\" type=\"revolute\">\n"
         "      <pose>0 1 0 0 0 0</pose>\n"
         "      <parent>a</parent><child>b</child>\n"
         "      <axis><xyz>0 0 1</xyz></axis>\n"
         "    </joint>\n"
         "  </model>\n"
         "</sdf>\n";
}

/// Where link b must be at joint position q: the pivot (1, 1, 0) plus Rz(q) (0, -1, 0).
Pose expectedB(double q) {
  Pose pose = Pose::Identity();
  pose.linear() = Matrix3(Eigen::AngleAxisd(q, Vector3::UnitZ()));
  pose.translation() = Vector3(1 + std::sin(q), 1 - std::cos(q), 0);
  return pose;
}

double difference(const Pose& a, const Pose& b) { return (a.matrix() - b.matrix()).cwiseAbs().maxCoeff(); }

class JointFrameIdentity : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::makeTempDir("interlink-joint-identity"); }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  /// Checks link `link` against expectedB at several positions of the single DOF.
  void expectTurnsAboutTheJoint(const LoadResult& result, const std::string& link) {
    ASSERT_EQ(result.kinematics.dofs().size(), 1u);
    auto index = result.graph.find(link);
    ASSERT_TRUE(index);
    ASSERT_EQ(result.graph.frames()[*index].kind, FrameKind::Link);
    for (double q : {0.0, M_PI / 2, -M_PI / 4, 2.5}) {
      Diagnostics diagnostics;
      auto poses = result.kinematics.framePoses({q}, diagnostics);
      ASSERT_TRUE(poses) << test::dump(diagnostics);
      const Pose& X_RB = (*poses)[*index];
      // In a world the root is the world; m sits at its origin in every case below.
      EXPECT_LT(difference(X_RB, expectedB(q)), 1e-12)
          << "q = " << q << ": b at " << X_RB.translation().transpose() << ", expected "
          << expectedB(q).translation().transpose();
    }
  }

  Loader loader_;
  std::string dir_;
};

TEST_F(JointFrameIdentity, Sdformat16JointNamedLikeALinkTurnsAboutTheJoint) {
  const LoadResult result = loader_.loadFile(write("m.sdf", jointNamedLikeALink("1.6")));
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  auto jointFrame = result.graph.find("b_joint");
  ASSERT_TRUE(jointFrame);
  EXPECT_EQ(result.graph.frames()[*jointFrame].kind, FrameKind::Joint);
  EXPECT_EQ(result.graph.frameOf(result.document.model->joints.front()), jointFrame);
  // The DOF keeps the joint's own name.
  EXPECT_EQ(result.kinematics.dofs().front().name, "b");
  EXPECT_EQ(result.kinematics.joints().front().frame, *jointFrame);
  expectTurnsAboutTheJoint(result, "b");
  // Written back (SDFormat 1.9 has one namespace), the joint keeps its frame's name and its motion.
  Diagnostics diagnostics;
  const auto sdf = convert::writeSdformat(result, diagnostics);
  ASSERT_TRUE(sdf) << test::dump(diagnostics);
  const LoadResult reloaded = loader_.loadFile(write("m_19.sdf", *sdf));
  ASSERT_TRUE(reloaded.ok()) << test::dump(reloaded.diagnostics) << *sdf;
  expectTurnsAboutTheJoint(reloaded, "b");
}

// Each included file keeps its own rules: a 1.6 model inside a 1.9 world may still name a joint
// like a link, and a 1.9 model inside a 1.6 world may not.
TEST_F(JointFrameIdentity, IncludedFilesKeepTheirOwnVersionRules) {
  std::system(("mkdir -p '" + dir_ + "/old' '" + dir_ + "/new'").c_str());
  write("old/m.sdf", jointNamedLikeALink("1.6"));
  write("new/m.sdf", jointNamedLikeALink("1.9"));
  const LoadResult world = loader_.loadFile(write(
      "world19.sdf", "<sdf version=\"1.9\"><world name=\"w\"><include><uri>old/m.sdf</uri></include></world></sdf>"));
  ASSERT_TRUE(world.ok()) << test::dump(world.diagnostics);
  EXPECT_EQ(world.document.worlds.front().models.front().source.formatVersion, "1.6");
  ASSERT_TRUE(world.graph.find("m::b_joint"));
  EXPECT_EQ(world.kinematics.dofs().front().name, "m::b");
  expectTurnsAboutTheJoint(world, "m::b");

  const LoadResult strict = loader_.loadFile(write(
      "world16.sdf", "<sdf version=\"1.6\"><world name=\"w\"><include><uri>new/m.sdf</uri></include></world></sdf>"));
  EXPECT_TRUE(strict.diagnostics.contains(ErrorCode::DUPLICATE_NAME)) << test::dump(strict.diagnostics);
}

}  // namespace
}  // namespace interlink
