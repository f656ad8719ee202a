// Juice's rotation, axis, inertia and stop conventions against values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "JuiceConventions.hpp"
#include "JuiceTestSupport.hpp"
#include "interlink/juice/JuiceComponents.hpp"

namespace interlink::test::juice {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kTight = 1e-12;

const Link* link(const Model& m, const std::string& name) {
  for (const Link& l : m.links)
    if (l.name == name) return &l;
  return nullptr;
}

const Joint* jointNamed(const Model& m, const std::string& name) {
  for (const Joint& j : m.joints)
    if (j.name == name) return &j;
  return nullptr;
}

std::optional<FrameInfo> frame(const FrameGraph& graph, const std::string& modelName, const std::string& name) {
  for (const std::string& scoped : {name, modelName + "::" + name})
    if (auto index = graph.find(scoped)) return graph.frames()[*index];
  return std::nullopt;
}

void expectVector(const Vector3& actual, const Vector3& expected, const std::string& what) {
  EXPECT_TRUE(actual.isApprox(expected, 1e-12) || (actual - expected).norm() < kTight)
      << what << ": got " << actual.transpose() << ", expected " << expected.transpose();
}

/// One file exercising every convention; the expected values below are worked by hand.
std::string conventionFile() {
  const std::string twoThirdsPi = "2.0943951023931953";  // 2*pi/3: the unit-density capsule's own mass
  return modelFile(
      body("1", "Yaw90", "1 2 3", "90 0 0", "0",
           "<BoxDimensions><X>1</X><Y>2</Y><Z>3</Z></BoxDimensions><Shape>1</Shape><Mass>12</Mass>") +
          body("2", "Pitch90", "0 0 1", "0 90 0", "0", "<BallDiameter>2</BallDiameter><Shape>3</Shape><Mass>5</Mass>") +
          body("3", "Roll90", "0 0 2", "0 0 90", "0",
               "<TubeLength>2</TubeLength><TubeDiameter>1</TubeDiameter><Shape>2</Shape><Mass>" + twoThirdsPi + "</Mass>") +
          body("4", "YawPitch", "0 0 3", "90 90 0", "0",
               "<TubeLength>4</TubeLength><TubeDiameter>1</TubeDiameter><Shape>4</Shape><Mass>" + twoThirdsPi + "</Mass>") +
          body("5", "Sled", "3 0 1"),
      joint("RevoluteJoint", "11", "H1", "1", "2", "0.5 0.25 1.5", "0 -90 0",
            "<LoStopValue>-45</LoStopValue><HiStopValue>30</HiStopValue><LoStopFlag>1</LoStopFlag><HiStopFlag>0</HiStopFlag>") +
          joint("RevoluteJoint", "12", "H2", "2", "3", "0 0 1.5", "0 0 90") +
          joint("RevoluteJoint", "13", "H3", "3", "4", "0 0 2.5", "30 90 0",
                "<LoStopValue>-10</LoStopValue><HiStopValue>20</HiStopValue><LoStopFlag>1</LoStopFlag><HiStopFlag>1</HiStopFlag>"),
      joint("PrismaticJoint", "21", "S1", "1", "5", "2 1 1", "30 90 0",
            "<LoStopValue>-0.5</LoStopValue><HiStopValue>0.75</HiStopValue><LoStopFlag>1</LoStopFlag><HiStopFlag>1</HiStopFlag>") +
          joint("PrismaticJoint", "22", "S2", "4", "5", "1 0 2"),
      joint("SphericalJoint", "31", "Ball", "2", "5", "1 0 1", "10 20 30",
            "<LoStopValue>-5</LoStopValue><HiStopValue>5</HiStopValue><LoStopFlag>1</LoStopFlag><HiStopFlag>1</HiStopFlag>"));
}

class JuiceConvention : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    path_ = tempDir().write("conventions.jm", conventionFile());
    result_ = new LoadResult(load(path_));
  }
  static void TearDownTestSuite() {
    delete result_;
    result_ = nullptr;
  }
  static const Model& model() { return *result_->document.model; }

  static std::string path_;
  static LoadResult* result_;
};

std::string JuiceConvention::path_;
LoadResult* JuiceConvention::result_ = nullptr;

TEST_F(JuiceConvention, Loads) {
  ASSERT_TRUE(result_->ok()) << dump(result_->diagnostics);
  ASSERT_TRUE(result_->document.model.has_value());
  EXPECT_EQ(model().name, "conventions");
  EXPECT_EQ(model().links.size(), 5u);
  EXPECT_EQ(model().joints.size(), 6u);
}

TEST_F(JuiceConvention, BodyRotationIsYawAboutZThenPitchAboutXThenRollAboutY) {
  ASSERT_TRUE(result_->document.model.has_value()) << dump(result_->diagnostics);
  const Link* yaw = link(model(), "Yaw90_1");
  const Link* pitch = link(model(), "Pitch90_2");
  const Link* roll = link(model(), "Roll90_3");
  const Link* both = link(model(), "YawPitch_4");
  ASSERT_TRUE(yaw && pitch && roll && both);
  // yaw 90 about Z: body x -> +Y, body y -> -X.
  expectVector(yaw->pose.pose.linear().col(0), Vector3(0, 1, 0), "yaw 90, body x");
  expectVector(yaw->pose.pose.linear().col(1), Vector3(-1, 0, 0), "yaw 90, body y");
  expectVector(yaw->pose.pose.translation(), Vector3(1, 2, 3), "position");
  // pitch 90 about X: body z -> -Y.
  expectVector(pitch->pose.pose.linear().col(2), Vector3(0, -1, 0), "pitch 90, body z");
  // roll 90 about Y: body z -> +X, body x -> -Z.
  expectVector(roll->pose.pose.linear().col(2), Vector3(1, 0, 0), "roll 90, body z");
  expectVector(roll->pose.pose.linear().col(0), Vector3(0, 0, -1), "roll 90, body x");
  // yaw 90 then pitch 90 (q = qz * qx): body z -> Rz(90) * (0,-1,0) = +X; body y -> +Z.
  // (The other order would send body z to -Y.)
  expectVector(both->pose.pose.linear().col(2), Vector3(1, 0, 0), "yaw 90 pitch 90, body z");
  expectVector(both->pose.pose.linear().col(1), Vector3(0, 0, 1), "yaw 90 pitch 90, body y");
}

TEST_F(JuiceConvention, HingeAndSliderAxesDiffer) {
  ASSERT_TRUE(result_->document.model.has_value()) << dump(result_->diagnostics);
  const Joint* h1 = jointNamed(model(), "H1_11");
  const Joint* h2 = jointNamed(model(), "H2_12");
  const Joint* h3 = jointNamed(model(), "H3_13");
  const Joint* s1 = jointNamed(model(), "S1_21");
  const Joint* s2 = jointNamed(model(), "S2_22");
  ASSERT_TRUE(h1 && h2 && h3 && s1 && s2);
  for (const Joint* j : {h1, h2, h3, s1, s2}) ASSERT_EQ(j->axes.size(), 1u) << j->name;
  // Hinge: R(qz(y) qx(p) qy(-r)) * (0,0,1).
  expectVector(h1->axes[0].xyz, Vector3(0, 1, 0), "hinge pitch -90: Rx(-90) z");
  expectVector(h2->axes[0].xyz, Vector3(-1, 0, 0), "hinge roll 90: Ry(-90) z");
  expectVector(h3->axes[0].xyz, Vector3(0.5, -std::sqrt(3.0) / 2, 0), "hinge yaw 30 pitch 90: Rz(30) (0,-1,0)");
  // Slider: R(qz(-y) qx(p) qy(r)) * (0,0,-1): same rotation, different axis.
  expectVector(s1->axes[0].xyz, Vector3(0.5, std::sqrt(3.0) / 2, 0), "slider yaw 30 pitch 90: Rz(-30) (0,1,0)");
  expectVector(s2->axes[0].xyz, Vector3(0, 0, -1), "slider at rest points down");
  EXPECT_EQ(h1->type, JointType::Revolute);
  EXPECT_EQ(s1->type, JointType::Prismatic);
  // Body1 is the parent, Body2 the child.
  EXPECT_EQ(h1->parent, "Yaw90_1");
  EXPECT_EQ(h1->child, "Pitch90_2");
}

TEST_F(JuiceConvention, ConventionFunctions) {
  using namespace interlink::juice;
  expectVector(hingeAxis(0, 0, 0), Vector3(0, 0, 1), "hinge at rest");
  expectVector(sliderAxis(0, 0, 90), Vector3(-1, 0, 0), "slider roll 90: Ry(90) (0,0,-1)");
  expectVector(sliderAxis(0, 90, 0), Vector3(0, 1, 0), "slider pitch 90: Rx(90) (0,0,-1)");
  expectVector(hingeAxis(0, 90, 0), Vector3(0, -1, 0), "hinge pitch 90: Rx(90) z");
  expectVector(hingeAxis(90, 90, 0), Vector3(1, 0, 0), "hinge yaw 90 pitch 90");
  // Roll flips sign between the two: a hinge with roll r turns like a slider with roll -r.
  expectVector(hingeAxis(0, 0, 30), -sliderAxis(0, 0, -30), "roll sign");
  expectVector(bodyOrientation(0, 0, 90) * Vector3::UnitZ(), Vector3(1, 0, 0), "body roll 90");
}

TEST_F(JuiceConvention, StopsOnlyWhenFlaggedHingesInRadians) {
  ASSERT_TRUE(result_->document.model.has_value()) << dump(result_->diagnostics);
  const double inf = std::numeric_limits<double>::infinity();
  const Joint* h1 = jointNamed(model(), "H1_11");
  const Joint* h2 = jointNamed(model(), "H2_12");
  const Joint* h3 = jointNamed(model(), "H3_13");
  const Joint* s1 = jointNamed(model(), "S1_21");
  ASSERT_TRUE(h1 && h2 && h3 && s1);
  EXPECT_NEAR(h1->axes[0].lower, -kPi / 4, kTight);  // -45 degrees, flag set
  EXPECT_EQ(h1->axes[0].upper, inf);                 // 30 written, flag clear
  EXPECT_EQ(h2->axes[0].lower, -inf);
  EXPECT_EQ(h2->axes[0].upper, inf);
  EXPECT_NEAR(h3->axes[0].lower, -10 * kPi / 180, kTight);
  EXPECT_NEAR(h3->axes[0].upper, 20 * kPi / 180, kTight);
  EXPECT_DOUBLE_EQ(s1->axes[0].lower, -0.5);  // sliders: linear units, no conversion
  EXPECT_DOUBLE_EQ(s1->axes[0].upper, 0.75);
  // MaxForce is the effort; Gain and the display sizes stay in the model's Juice record.
  EXPECT_DOUBLE_EQ(h1->axes[0].effort, 700);
  const auto* juice = model().extensions.find<interlink::juice::JuiceComponents>();
  ASSERT_NE(juice, nullptr);
  auto record = [&](const std::string& name) {
    for (const auto& joint : juice->joints)
      if (joint.joint == name) return joint;
    ADD_FAILURE() << "no Juice record of joint " << name;
    return interlink::juice::JuiceJoint{};
  };
  const auto h1Record = record("H1_11");
  EXPECT_EQ(h1Record.kind, interlink::juice::JointKind::Revolute);
  EXPECT_EQ(h1Record.id, "11");
  EXPECT_DOUBLE_EQ(h1Record.gain, 10);
  EXPECT_DOUBLE_EQ(h1Record.maxForce, 700);
  EXPECT_DOUBLE_EQ(h1Record.length, 1);
  EXPECT_DOUBLE_EQ(h1Record.diameter, 0.25);
  EXPECT_TRUE(h1Record.loStopFlag);  // stops as written: degrees, flags kept
  EXPECT_FALSE(h1Record.hiStopFlag);
  EXPECT_DOUBLE_EQ(h1Record.loStop, -45);
  EXPECT_DOUBLE_EQ(h1Record.hiStop, 30);
  const auto ballRecord = record("Ball_31");
  EXPECT_EQ(ballRecord.kind, interlink::juice::JointKind::Spherical);
  EXPECT_DOUBLE_EQ(ballRecord.diameter, 0.25);
  EXPECT_DOUBLE_EQ(ballRecord.loStop, -5);
  for (const auto& [key, value] : model().parameters) EXPECT_NE(key.rfind("joint.", 0), 0u) << key;
  const Joint* ball = jointNamed(model(), "Ball_31");
  ASSERT_TRUE(ball);
  EXPECT_EQ(ball->type, JointType::Ball);
  EXPECT_TRUE(ball->axes.empty());
}

TEST_F(JuiceConvention, InertiaAsJuiceComputesIt) {
  ASSERT_TRUE(result_->document.model.has_value()) << dump(result_->diagnostics);
  // Box 1 x 2 x 3, mass 12: m/12 (y^2+z^2, x^2+z^2, x^2+y^2) = (13, 10, 5).
  expectVector(link(model(), "Yaw90_1")->inertial.inertia.diagonal(), Vector3(13, 10, 5), "box");
  // Sphere of diameter 2, mass 5: 0.4 m r^2 = 2.
  expectVector(link(model(), "Pitch90_2")->inertial.inertia.diagonal(), Vector3(2, 2, 2), "sphere");
  // Capsule r = 0.5, l = 2 at its own unit-density mass 2 pi / 3 (ODE's capped cylinder):
  // across = pi/2 (r^2/4 + l^2/12) + pi/6 (0.4 r^2 + 0.375 r l + l^2/4) = 71 pi / 160,
  // along  = (pi/2 * 0.5 + pi/6 * 0.4) r^2 = 19 pi / 240.
  const Vector3 capsule(71 * kPi / 160, 71 * kPi / 160, 19 * kPi / 240);
  expectVector(link(model(), "Roll90_3")->inertial.inertia.diagonal(), capsule, "capsule");
  // Cylinder of length 4: Juice uses the capsule tensor with half the tube length, so the same.
  expectVector(link(model(), "YawPitch_4")->inertial.inertia.diagonal(), capsule, "cylinder");
  const Link* cylinder = link(model(), "YawPitch_4");
  ASSERT_EQ(cylinder->visuals.size(), 1u);
  EXPECT_EQ(cylinder->visuals[0].geometry.type, GeometryType::Cylinder);
  EXPECT_DOUBLE_EQ(cylinder->visuals[0].geometry.length, 4);
  EXPECT_DOUBLE_EQ(cylinder->visuals[0].geometry.radius, 0.5);
  EXPECT_TRUE(cylinder->hasInertial);
  EXPECT_DOUBLE_EQ(cylinder->inertial.mass, 2 * kPi / 3);
}

TEST_F(JuiceConvention, AnchorsAtPositionAndLoopsClosed) {
  ASSERT_TRUE(result_->ok()) << dump(result_->diagnostics);
  // S2 gives Sled a second parent and Ball a third: they close loops.
  EXPECT_FALSE(jointNamed(model(), "S1_21")->loopClosure);
  EXPECT_TRUE(jointNamed(model(), "S2_22")->loopClosure);
  EXPECT_TRUE(jointNamed(model(), "Ball_31")->loopClosure);
  // The frame graph puts every joint at its Position and every body at its design pose.
  const FrameGraph& graph = result_->graph;
  const std::string& root = model().name;
  struct Anchor {
    const char* joint;
    Vector3 at;
  };
  for (const Anchor& a : {Anchor{"H1_11", {0.5, 0.25, 1.5}}, Anchor{"H2_12", {0, 0, 1.5}}, Anchor{"H3_13", {0, 0, 2.5}},
                          Anchor{"S1_21", {2, 1, 1}}, Anchor{"S2_22", {1, 0, 2}}, Anchor{"Ball_31", {1, 0, 1}}}) {
    auto f = frame(graph, root, a.joint);
    ASSERT_TRUE(f.has_value()) << a.joint << " not in the frame graph\n" << dump(result_->diagnostics);
    expectVector(f->pose.translation(), a.at, a.joint);
    EXPECT_TRUE(f->pose.linear().isApprox(Matrix3::Identity(), 1e-12)) << a.joint;
  }
  auto yaw = frame(graph, root, "Yaw90_1");
  ASSERT_TRUE(yaw.has_value());
  expectVector(yaw->pose.translation(), Vector3(1, 2, 3), "Yaw90 in the model frame");
  expectVector(yaw->pose.linear().col(0), Vector3(0, 1, 0), "Yaw90 x axis in the model frame");
}

}  // namespace
}  // namespace interlink::test::juice
