// Every HRDF file of HEBI's repositories (tests/data/hrdf) against HEBI's own C library 2.0, as
// measured into tests/data/hebi_reference/hrdf_libhebi_reference.json:
// DOF count, masses, end-effector, output and CoM frames at q_k = 0.1·k, tolerance 1e-5 (the
// library computes in float32). Files of HRDF 1.4.0 (which that library does not know) load.
#include <jansson.h>

#include <gtest/gtest.h>

#include "HrdfSupport.hpp"
#include "TestSupport.hpp"

namespace {

using namespace interlink;
using interlink::test::frameLists;

constexpr double kTolerance = 1e-5;

struct JsonDeleter {
  void operator()(json_t* j) const { json_decref(j); }
};

std::unique_ptr<json_t, JsonDeleter> reference() {
  json_error_t error;
  return std::unique_ptr<json_t, JsonDeleter>(
      json_load_file((test::vendored("hebi_reference/hrdf_libhebi_reference.json")).c_str(), 0, &error));
}

Eigen::Matrix<double, 3, 4> matrixOf(json_t* rows) {
  Eigen::Matrix<double, 3, 4> m;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) m(r, c) = json_real_value(json_array_get(json_array_get(rows, r), c));
  return m;
}

std::string compare(const Eigen::Matrix<double, 3, 4>& expected, const Pose& actual) {
  const Eigen::Matrix<double, 3, 4> got = actual.matrix().topRows<3>();
  const double error = (got - expected).cwiseAbs().maxCoeff();
  if (error <= kTolerance) return {};
  std::ostringstream out;
  out << "max error " << error << "\nexpected\n" << expected << "\ngot\n" << got;
  return out.str();
}

class Conformance : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { loader_ = new Loader(); }
  static void TearDownTestSuite() {
    delete loader_;
    loader_ = nullptr;
  }
  static Loader* loader_;
};
Loader* Conformance::loader_ = nullptr;

TEST_F(Conformance, EveryReferenceFileMatchesHebisLibrary) {
  auto ref = reference();
  ASSERT_TRUE(ref) << "reference JSON not readable";
  int compared = 0, newer = 0;
  const char* key;
  json_t* value;
  json_object_foreach(ref.get(), key, value) {
    SCOPED_TRACE(key);
    const auto result = loader_->loadFile(test::vendored(std::string("hrdf/") + key));
    if (json_object_get(value, "error")) {
      // HRDF 1.4.0: HEBI's old library refuses the version; we read it.
      EXPECT_TRUE(result.ok()) << test::dump(result.diagnostics);
      EXPECT_GT(result.kinematics.dofs().size(), 0u);
      ++newer;
      continue;
    }
    ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
    ASSERT_TRUE(result.document.model);
    const Model& model = *result.document.model;
    const auto dofs = static_cast<std::size_t>(json_integer_value(json_object_get(value, "dofs")));
    ASSERT_EQ(result.kinematics.dofs().size(), dofs);

    std::vector<double> q;
    json_t* qj = json_object_get(value, "q");
    for (std::size_t i = 0; i < json_array_size(qj); ++i) q.push_back(json_real_value(json_array_get(qj, i)));
    Diagnostics fk;
    auto poses = result.kinematics.framePoses(q, fk);
    ASSERT_TRUE(poses) << test::dump(fk);
    const test::Posed posed{result, *poses};

    // Masses and CoM frames: one per element with a body, in HEBI's order.
    const auto comLinks = frameLists(model).comLinks;
    json_t* masses = json_object_get(value, "masses");
    json_t* coms = json_object_get(value, "coms");
    ASSERT_EQ(comLinks.size(), json_array_size(masses));
    ASSERT_EQ(comLinks.size(), json_array_size(coms));
    for (std::size_t i = 0; i < comLinks.size(); ++i) {
      const auto link = std::find_if(model.links.begin(), model.links.end(),
                                     [&](const Link& l) { return l.name == comLinks[i]; });
      ASSERT_NE(link, model.links.end()) << comLinks[i];
      EXPECT_NEAR(link->inertial.mass, json_real_value(json_array_get(masses, i)), kTolerance) << comLinks[i];
      const Pose com = posed.of(comLinks[i]) * link->inertial.centerOfMass;
      EXPECT_EQ(compare(matrixOf(json_array_get(coms, i)), com), "") << "CoM of " << comLinks[i];
    }
    const auto outputs = frameLists(model).outputFrames;
    json_t* outs = json_object_get(value, "outputs");
    ASSERT_EQ(outputs.size(), json_array_size(outs));
    for (std::size_t i = 0; i < outputs.size(); ++i)
      EXPECT_EQ(compare(matrixOf(json_array_get(outs, i)), posed.of(outputs[i])), "") << outputs[i];
    const auto effectors = frameLists(model).endEffectorFrames;
    json_t* ees = json_object_get(value, "end_effectors");
    ASSERT_EQ(effectors.size(), json_array_size(ees));
    for (std::size_t i = 0; i < effectors.size(); ++i)
      EXPECT_EQ(compare(matrixOf(json_array_get(ees, i)), posed.of(effectors[i])), "") << effectors[i];
    ++compared;
  }
  EXPECT_EQ(compared, 35);
  EXPECT_EQ(newer, 12);
}

TEST_F(Conformance, DaisyHexapodWithIncludesLoads) {
  const auto result = loader_->loadFile(test::vendored("hrdf/hebi_description/config/daisy/hrdf/Daisy.hrdf"));
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  EXPECT_EQ(result.kinematics.dofs().size(), 18u);  // six legs of three actuators, included six times
  const Model& model = *result.document.model;
  EXPECT_EQ(model.readingNotes.at("hrdf.version"), "1.4.0");
  EXPECT_EQ(model.parameters.at("hrdf.description"), "Daisy");
  // The body has seven outputs: frames rigid_body_1/output_1 .. output_7.
  EXPECT_TRUE(result.graph.find("rigid_body_1/output_7"));
  EXPECT_FALSE(result.graph.find("rigid_body_1/output"));
  // Included content is counted where it is included: 6 legs x 3 actuators.
  EXPECT_TRUE(result.graph.find("actuator_18/joint"));
  EXPECT_FALSE(result.graph.find("actuator_19"));
  EXPECT_EQ(frameLists(model).endEffectorFrames.size(), 7u);
}

}  // namespace
