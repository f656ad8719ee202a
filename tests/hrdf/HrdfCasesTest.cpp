// Accept/reject of tests/data/hebi_reference/hrdf_libhebi_cases.txt (HEBI's library on small documents),
// with its DOF counts, masses and end-effector positions. Where that library is loose
// (hebi_components.md) we are stricter; those cases are listed and tested as refusals.
#include <fstream>
#include <regex>

#include <gtest/gtest.h>

#include "HrdfSupport.hpp"
#include "TestSupport.hpp"

namespace {

using namespace interlink;

struct Case {
  bool ok = false;
  std::string xml;
  std::string message;
  int dofs = -1;
  std::vector<double> masses;
  std::optional<Vector3> endEffector;
};

std::vector<Case> readCases() {
  std::ifstream in(test::vendored("hebi_reference/hrdf_libhebi_cases.txt"));
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = "\n" + buffer.str();
  std::vector<Case> cases;
  std::size_t at = 0;
  while (true) {
    const std::size_t ok = text.find("\nOK    ", at), err = text.find("\nERR   ", at);
    std::size_t start = std::min(ok, err);
    if (start == std::string::npos) break;
    ++start;
    Case c;
    c.ok = text.compare(start, 2, "OK") == 0;
    const std::size_t xmlStart = start + 6;
    const std::size_t xmlEnd = text.find("</robot>", xmlStart);
    if (xmlEnd == std::string::npos) break;
    c.xml = text.substr(xmlStart, xmlEnd + 8 - xmlStart);
    const std::size_t lineEnd = text.find('\n', xmlEnd);
    c.message = text.substr(xmlEnd + 8, lineEnd - xmlEnd - 8);
    // Details until the next case.
    std::size_t next = std::min(text.find("\nOK    ", lineEnd), text.find("\nERR   ", lineEnd));
    const std::string details = text.substr(lineEnd, next == std::string::npos ? std::string::npos : next - lineEnd);
    std::smatch m;
    if (std::regex_search(details, m, std::regex("dofs=(\\d+)"))) c.dofs = std::stoi(m[1]);
    if (std::regex_search(details, m, std::regex("mass \\[([^\\]]*)\\]"))) {
      const std::string list = m[1];
      std::regex number("'([^']*)'");
      for (auto it = std::sregex_iterator(list.begin(), list.end(), number); it != std::sregex_iterator(); ++it)
        c.masses.push_back(std::stod((*it)[1]));
    }
    if (std::regex_search(details, m, std::regex("ee  t=\\(([^ ]+) ([^ ]+) ([^ )]+)\\)")))
      c.endEffector = Vector3(std::stod(m[1]), std::stod(m[2]), std::stod(m[3]));
    cases.push_back(c);
    at = lineEnd;
  }
  return cases;
}

/// Cases where HEBI's library accepts what the spec forbids (hebi_components.md, "loose").
bool isLooseInHebi(const std::string& xml) {
  return xml.find("output_rot=\"1 0 0 0 2 0 0 0 1\"") != std::string::npos ||  // not orthonormal
         xml.find("output_trans=\"pi 0 0\"") != std::string::npos ||            // read as (0,0,0)
         xml.find("<actuator type=\"X5-1\"><actuator") != std::string::npos ||  // child ignored
         // HRDF 1.0.0 has no formulas (they came in 1.1.0); HEBI reads "0.1+0.2" as 0.1.
         (xml.find("version=\"1.0.0\"") != std::string::npos && xml.find("0.1+0.2") != std::string::npos);
}

TEST(HrdfCases, AcceptAndRejectLikeHebisLibrary) {
  const auto cases = readCases();
  ASSERT_EQ(cases.size(), 34u);
  Loader loader;
  test::TempDir dir;
  int index = 0, stricter = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.xml);
    const auto path = dir.write("case" + std::to_string(index++) + ".hrdf", c.xml);
    const auto result = loader.loadFile(path);
    if (isLooseInHebi(c.xml)) {
      ASSERT_TRUE(c.ok);
      EXPECT_FALSE(result.ok()) << "HEBI accepts this; we refuse it";
      EXPECT_TRUE(result.diagnostics.hasErrors());
      ++stricter;
      continue;
    }
    const bool version13 = c.xml.find("version=\"1.3.0\"") != std::string::npos;
    if (version13) {
      // HEBI's 2.0 library predates HRDF 1.3.0 and refuses the version; the 1.6.0 spec allows it.
      EXPECT_TRUE(result.ok()) << test::dump(result.diagnostics);
      continue;
    }
    ASSERT_EQ(result.ok(), c.ok) << test::dump(result.diagnostics) << " HEBI: " << c.message;
    if (!c.ok) {
      EXPECT_GE(result.diagnostics.errorCount(), 1u);
      for (const auto& d : result.diagnostics) {
        if (d.isError()) {
          EXPECT_GT(d.where.line, 0) << d.format();
        }
      }
      continue;
    }
    EXPECT_EQ(static_cast<int>(result.kinematics.dofs().size()), c.dofs);
    const auto comLinks = test::frameLists(*result.document.model).comLinks;
    ASSERT_EQ(comLinks.size(), c.masses.size());
    for (std::size_t i = 0; i < comLinks.size(); ++i) {
      for (const auto& link : result.document.model->links) {
        if (link.name == comLinks[i]) {
          EXPECT_NEAR(link.inertial.mass, c.masses[i], 1e-5) << comLinks[i];
        }
      }
    }
    if (c.endEffector) {
      const auto effectors = test::frameLists(*result.document.model).endEffectorFrames;
      ASSERT_EQ(effectors.size(), 1u);
      const auto pose = result.graph.pose(effectors[0], result.graph.rootName());
      ASSERT_TRUE(pose);
      EXPECT_TRUE(pose->translation().isApprox(*c.endEffector, 1e-5)) << pose->translation().transpose();
    }
  }
  EXPECT_EQ(stricter, 4);
}

TEST(HrdfCases, NonMatchingCaseOfAnEnumWarns) {
  Loader loader;
  test::TempDir dir;
  const auto result =
      loader.loadFile(dir.write("a.hrdf", "<robot version=\"1.2.0\"><actuator type=\"x5-1\"/></robot>"));
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  ASSERT_EQ(result.diagnostics.size(), 1u);
  const auto& d = result.diagnostics.items()[0];
  EXPECT_EQ(d.severity, Severity::Warning);
  EXPECT_NE(d.message.find("non-matching case"), std::string::npos);
  EXPECT_EQ(d.where.line, 1);
  EXPECT_EQ(d.where.column, 40);  // the value of type="x5-1"
  EXPECT_EQ(result.document.model->joints.front().actuator, "X5-1");
}

}  // namespace
