// The Shift plugin on our own file of deep assemblies: nested models, ':' paths, restraints, a
// reversed joint, an assembly switched off; units and piecewise functions.
#include "ShiftTestSupport.hpp"

namespace {

using namespace shift_test;

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
  EXPECT_EQ(world.parameters.at("shift.light.arm_lamp.Ka"), "0.1 0.1 0.1");
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
  // degrees, millimetres, grams: the model is SI, the units as written are reading notes.
  const LoadResult r = load(testData("units.json"));
  ASSERT_TRUE(r.ok()) << interlink::test::dump(r.diagnostics);
  const auto& world = r.document.worlds.front();
  EXPECT_TRUE(world.gravity.isApprox(Vector3(0, 0, 9.81)));
  EXPECT_EQ(world.readingNotes.at("shift.units.length"), "millimeters");
  EXPECT_EQ(world.parameters.count("shift.units.length"), 0u);
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

}  // namespace
