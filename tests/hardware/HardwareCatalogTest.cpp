// The HEBI catalogs (hebi_x, hebi_r, hebi_t loaded as real plugins) against HEBI's own library:
// every element of tests/data/hebi_reference/hrdf_libhebi_elements.txt (mass, CoM, output transform).
#include <fstream>
#include <regex>
#include <sstream>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/hardware/HardwareRegistry.hpp"

namespace {

using namespace interlink;
using namespace interlink::hardware;

struct ElementCase {
  std::string header;  // "actuator X5-1", "link X5 in=Inline out=RightAngle ext=0.325 twist=1.5708", ...
  double mass = 0;
  Vector3 com = Vector3::Zero();
  Vector3 outT = Vector3::Zero();
  Matrix3 outR = Matrix3::Identity();
};

Vector3 vec(const std::string& text) {
  std::istringstream in(text);
  Vector3 v;
  in >> v.x() >> v.y() >> v.z();
  return v;
}

Matrix3 mat(std::string text) {
  for (auto& c : text)
    if (c == ';') c = ' ';
  std::istringstream in(text);
  Matrix3 m;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) in >> m(r, c);
  return m;
}

std::vector<ElementCase> readElements() {
  std::ifstream in(test::vendored("hebi_reference/hrdf_libhebi_elements.txt"));
  std::vector<ElementCase> cases;
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, std::regex("^## (.*) dofs="))) {
      cases.push_back(ElementCase{m[1].str()});
    } else if (!cases.empty() && std::regex_search(line, m, std::regex("mass \\['([^']*)'"))) {
      cases.back().mass = std::stod(m[1]);
    } else if (!cases.empty() && std::regex_search(line, m, std::regex("com t=\\(([^)]*)\\)"))) {
      cases.back().com = vec(m[1]);
    } else if (!cases.empty() && std::regex_search(line, m, std::regex("out t=\\(([^)]*)\\) R=\\[([^\\]]*)\\]"))) {
      cases.back().outT = vec(m[1]);
      cases.back().outR = mat(m[2]);
    }
  }
  return cases;
}

class Catalog : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    loader_ = new Loader();
    registry_ = new HardwareRegistry(HardwareRegistry::fromPlugins(loader_->plugins()));
  }
  static void TearDownTestSuite() {
    delete registry_;
    delete loader_;
  }
  static Loader* loader_;
  static HardwareRegistry* registry_;
};
Loader* Catalog::loader_ = nullptr;
HardwareRegistry* Catalog::registry_ = nullptr;

TEST_F(Catalog, EveryElementMatchesHebisLibrary) {
  const auto cases = readElements();
  ASSERT_GE(cases.size(), 50u);
  int compared = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.header);
    std::istringstream words(c.header);
    std::string kind, type;
    words >> kind >> type;
    if (kind == "joint") continue;  // <joint> is format semantics, tested with the HRDF plugin
    if (kind == "end-effector" && type == "Custom") continue;
    if (c.header.find("q=") != std::string::npos) continue;  // actuator at q = pi/2: the joint moves it
    const ComponentKind k = kind == "actuator" ? ComponentKind::Actuator
                            : kind == "link"   ? ComponentKind::Link
                            : kind == "bracket" ? ComponentKind::Bracket
                                                : ComponentKind::EndEffector;
    const Lookup found = registry_->find(k, type);
    ASSERT_TRUE(found) << type;
    EXPECT_TRUE(found.exactCase);
    ComponentParameters parameters;
    std::smatch m;
    if (std::regex_search(c.header, m, std::regex("in=(\\w+) out=(\\w+) ext=([0-9.]+) twist=([0-9.]+)"))) {
      parameters.inputStyle = m[1];
      parameters.outputStyle = m[2];
      parameters.extension = std::stod(m[3]);
      // The library printed the twist rounded; it was pi/2 or pi.
      const double printed = std::stod(m[4]);
      parameters.twist = printed > 3 ? M_PI : printed > 1 ? M_PI / 2 : 0.0;
    }
    ComponentModel model;
    Diagnostics d;
    ASSERT_TRUE(registry_->evaluate(*found.item, parameters, model, d)) << test::dump(d);
    EXPECT_NEAR(model.mass, c.mass, 1e-5);
    EXPECT_TRUE(model.centerOfMass.translation().isApprox(c.com, 1e-5) ||
                (model.centerOfMass.translation() - c.com).norm() < 1e-6)
        << model.centerOfMass.translation().transpose();
    ASSERT_EQ(model.outputs.size(), 1u);
    EXPECT_LT((model.outputs[0].translation() - c.outT).cwiseAbs().maxCoeff(), 1e-5)
        << model.outputs[0].translation().transpose();
    EXPECT_LT((model.outputs[0].linear() - c.outR).cwiseAbs().maxCoeff(), 1e-5) << "\n" << model.outputs[0].linear();
    ++compared;
  }
  EXPECT_EQ(compared, 9 + 12 + 24 + 2);  // actuators, brackets, links, grippers
}

TEST_F(Catalog, FamiliesAndTypes) {
  const std::string families = registry_->describeFamilies();
  for (const char* f : {"hebi_x", "hebi_r", "hebi_t"}) EXPECT_NE(families.find(f), std::string::npos) << families;
  for (const char* type : {"X5-1", "X5-4", "X5-9", "X8-3", "X8-9", "X8-16", "R8-3", "R8-9", "R8-16", "T5-1", "T5-4",
                           "T5-9", "T8-3", "T8-9", "T8-16", "R25-8", "R25-20", "R25-40", "T25-8", "T25-20", "T25-40"})
    EXPECT_TRUE(registry_->find(ComponentKind::Actuator, type)) << type;
  for (const char* type : {"X5", "R8", "R25", "R25-R8"}) EXPECT_TRUE(registry_->find(ComponentKind::Link, type)) << type;
  for (const char* series : {"X5", "R8", "R25"})
    for (const char* style : {"LightLeft", "LightRight", "HeavyLeftInside", "HeavyLeftOutside", "HeavyRightInside",
                              "HeavyRightOutside"})
      EXPECT_TRUE(registry_->find(ComponentKind::Bracket, std::string(series) + style)) << series << style;
  for (const char* type : {"X5Parallel", "R8Parallel"}) EXPECT_TRUE(registry_->find(ComponentKind::EndEffector, type));
  // Case-insensitive lookup that says the case did not match.
  const auto lower = registry_->find(ComponentKind::Actuator, "x5-4");
  ASSERT_TRUE(lower);
  EXPECT_FALSE(lower.exactCase);
  EXPECT_FALSE(registry_->find(ComponentKind::Bracket, "X5-4"));  // kinds are separate
  // Interfaces of the seed's table.
  EXPECT_EQ(registry_->find(ComponentKind::Actuator, "T5-4").item->entry->input.toString(), "R8-AH-A");
  EXPECT_EQ(registry_->find(ComponentKind::Link, "R25-R8").item->entry->outputs.at(0).toString(), "R8-AH-B");
  EXPECT_EQ(registry_->find(ComponentKind::EndEffector, "X5Parallel").item->entry->input.toString(), "X-AO-B");
  // Entries without published figures are marked approximate.
  EXPECT_TRUE(registry_->find(ComponentKind::Actuator, "R25-8").item->entry->approximate);
  EXPECT_TRUE(registry_->find(ComponentKind::Actuator, "T8-9").item->entry->approximate);
  EXPECT_FALSE(registry_->find(ComponentKind::Actuator, "X8-9").item->entry->approximate);
}

TEST_F(Catalog, LinkStylesAreChecked) {
  const auto found = registry_->find(ComponentKind::Link, "R25-R8");
  ASSERT_TRUE(found);
  ComponentParameters p;
  p.extension = 0.3;
  p.outputStyle = "Inline";  // R25-R8 links have a right-angle output only
  ComponentModel model;
  Diagnostics d;
  EXPECT_FALSE(registry_->evaluate(*found.item, p, model, d));
  EXPECT_TRUE(d.contains(ErrorCode::ATTRIBUTE_INVALID)) << test::dump(d);
}

TEST_F(Catalog, ListingForTheCli) {
  const std::string listing = formatHardwareListing(*registry_);
  for (const char* text : {"hebi_x: HEBI X-series", "hebi_r: HEBI R-series", "hebi_t: HEBI T-series", "X5-4",
                           "X-AH-A -> X-AO-A", "R25-R8", "approximate", "X5Parallel"})
    EXPECT_NE(listing.find(text), std::string::npos) << text << "\n" << listing;
}

}  // namespace
