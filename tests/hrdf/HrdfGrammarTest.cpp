// The HRDF value grammars against the HRDF repository's own test cases and the spec's examples.
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include "HrdfGrammar.hpp"
#include "TestSupport.hpp"

namespace {

using namespace interlink::hrdf::grammar;

struct FormulaCase {
  bool good = false;
  std::string text;
  std::string expected;  // as written in the file (its rounding sets the tolerance)
  int line = 0;
};

std::vector<FormulaCase> readTestCases() {
  std::ifstream in(interlink::test::vendored("hrdf/hebi-hrdf/grammar/test/tests.testcases"));
  std::vector<FormulaCase> cases;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line == "# Good" || line == "# Bad") {
      FormulaCase c;
      c.good = line == "# Good";
      std::getline(in, c.text);
      c.line = ++number;
      if (c.good) {
        std::getline(in, c.expected);
        ++number;
      }
      cases.push_back(c);
    }
  }
  return cases;
}

/// Half a unit of the last written decimal: "0.785" -> 5e-4; integers are exact.
double toleranceOf(const std::string& written) {
  const auto dot = written.find('.');
  if (dot == std::string::npos) return 1e-9;
  const auto decimals = static_cast<int>(written.size() - dot - 1);
  return 0.5 * std::pow(10.0, -decimals) + 1e-12;
}

TEST(HrdfGrammar, EveryCaseOfTheRepositoryTestFile) {
  const auto cases = readTestCases();
  ASSERT_GE(cases.size(), 40u) << "tests.testcases not found or not parsed";
  int good = 0, bad = 0;
  for (const auto& c : cases) {
    const auto result = parseFormula(c.text);
    if (c.good) {
      ++good;
      ASSERT_TRUE(result.ok()) << "line " << c.line << ": '" << c.text << "': " << result.error.message;
      EXPECT_NEAR(*result.value, std::stod(c.expected), toleranceOf(c.expected)) << "'" << c.text << "'";
    } else {
      ++bad;
      EXPECT_FALSE(result.ok()) << "line " << c.line << ": '" << c.text << "' should be refused, got "
                                << (result.ok() ? *result.value : 0.0);
      EXPECT_FALSE(result.error.message.empty());
    }
  }
  EXPECT_EQ(good, 29);
  EXPECT_EQ(bad, 14);
}

TEST(HrdfGrammar, SpecValidFloatingPointValues) {
  const std::vector<std::pair<std::string, double>> valid = {
      {"3.24", 3.24},      {"0.324", 0.324},      {".324", 0.324},       {"324", 324},   {"3.24e2", 324},
      {"-3.24E-2", -0.0324}, {"-3.24e+2", -324}, {"-32E4", -320000}, {"1.", 1},      {"+2.5", 2.5},
      {"  7  ", 7}};
  for (const auto& [text, value] : valid) {
    const auto result = parseFloat(text);
    ASSERT_TRUE(result.ok()) << text << ": " << result.error.message;
    EXPECT_DOUBLE_EQ(*result.value, value) << text;
  }
}

TEST(HrdfGrammar, SpecInvalidFloatingPointValues) {
  for (const std::string text : {"2.4.3", "2,000", "32,45", "3e2.4", ".", "- 1.3", "1. 02", "", "inf", "nan",
                                 "1e", "pi", "1/2", "0x10", "1e999"}) {
    const auto result = parseFloat(text);
    EXPECT_FALSE(result.ok()) << "'" << text << "' accepted as " << (result.ok() ? *result.value : 0.0);
  }
}

TEST(HrdfGrammar, SpecFormulaExamples) {
  const std::vector<std::pair<std::string, double>> valid = {
      {"pi / 4", M_PI / 4},
      {"1 + 4", 5},
      {"32*45", 1440},
      {"1 + 2 / 3 - 4 * 5", 1.0 + 2.0 / 3.0 - 20.0},
      {"1 + 2 / (3 - 4) * 5", -9},
      {"(100 + 45) / (3*pi)", 145 / (3 * M_PI)},
      {"32e-2*pi", 0.32 * M_PI},
      {"- 1.3", -1.3},
      {"\t1\n+\r2 ", 3},
      {"pi/2", M_PI / 2},
      {"8/2/2", 2},
      {"10-2-3", 5}};
  for (const auto& [text, value] : valid) {
    const auto result = parseFormula(text);
    ASSERT_TRUE(result.ok()) << text << ": " << result.error.message;
    EXPECT_NEAR(*result.value, value, 1e-12) << text;
  }
  for (const std::string text : {"2 pi", "PI", "", "()", "1 +", "(1", "1)", "1 / 0", "pi_2", "Pi", "1 ** 2"}) {
    EXPECT_FALSE(parseFormula(text).ok()) << "'" << text << "'";
  }
}

// Found by fuzz_hrdf_grammar: a byte >= 0x80 reached Spirit's ASCII character classes (an
// assertion with assertions on, undefined behaviour without).
TEST(HrdfGrammar, BytesOutsideAsciiAreRefusedWhereTheyAre) {
  const std::string rotation = "1 0 0 0 \xff\xff\xff\xff\xff\xff\xff" "1 0 0 0 1";
  const auto matrix = parseRotation(rotation);
  ASSERT_FALSE(matrix.ok());
  EXPECT_EQ(matrix.error.offset, 8u) << matrix.error.message;
  EXPECT_NE(matrix.error.message.find("outside ASCII"), std::string::npos) << matrix.error.message;

  const auto formula = parseFormula("pi/2 + 1\xc3\xa9");
  ASSERT_FALSE(formula.ok());
  EXPECT_EQ(formula.error.offset, 8u) << formula.error.message;

  const auto product = parseRotation("Rx(pi\xe2\x80\x8a)");
  ASSERT_FALSE(product.ok());
  EXPECT_EQ(product.error.offset, 5u) << product.error.message;

  const auto translation = parseTranslation("0 0 \xd9\xa3");  // ARABIC-INDIC DIGIT THREE
  ASSERT_FALSE(translation.ok());
  EXPECT_EQ(translation.error.offset, 4u) << translation.error.message;
}

TEST(HrdfGrammar, DiagnosticsPointAtTheOffendingCharacter) {
  auto r = parseFormula("2 pi");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.offset, 2u) << r.error.message;
  EXPECT_NE(r.error.message.find("'pi'"), std::string::npos) << r.error.message;

  r = parseFormula("(1 + 2");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.offset, 6u) << r.error.message;
  EXPECT_NE(r.error.message.find("')'"), std::string::npos) << r.error.message;

  r = parseFormula("1 + * 3");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.offset, 4u) << r.error.message;

  r = parseFormula("  PI");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.offset, 2u) << r.error.message;

  auto t = parseTranslation("1 2,3");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error.offset, 3u) << t.error.message;

  auto rot = parseRotation("Rx(pi) * Ry(pi/) ");
  ASSERT_FALSE(rot.ok());
  EXPECT_EQ(rot.error.offset, 15u) << rot.error.message;
}

TEST(HrdfGrammar, RotationMatrixOfNineNumbers) {
  for (const std::string text : {"1 0 0 0 1 0 0 0 1", "1 0 0\n0 1 0\n0 0 1", "\t1 0 0\t0 1 0 0 0 1 \n"}) {
    const auto r = parseRotation(text);
    ASSERT_TRUE(r.ok()) << r.error.message;
    EXPECT_TRUE(r.value->isApprox(Eigen::Matrix3d::Identity()));
  }
  const auto rz = parseRotation("0 -1 0\n1 0 0\n0 0 1");
  ASSERT_TRUE(rz.ok()) << rz.error.message;
  EXPECT_TRUE(rz.value->isApprox(Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix()));
  // Not orthonormal (HEBI's library takes it; we refuse), a reflection, wrong counts, formulas.
  for (const std::string text : {"1 0 0 0 2 0 0 0 1", "-1 0 0 0 1 0 0 0 1", "1 0 0 0 1 0 0 0", "1 0 0 0 1 0 0 0 1 0",
                                 "1 0 0 0 1 0 0 0 pi/pi", "1,0,0,0,1,0,0,0,1", ""}) {
    EXPECT_FALSE(parseRotation(text).ok()) << "'" << text << "'";
  }
}

TEST(HrdfGrammar, RotationProducts) {
  const auto rx = [](double a) { return Eigen::AngleAxisd(a, Eigen::Vector3d::UnitX()).toRotationMatrix(); };
  const auto ry = [](double a) { return Eigen::AngleAxisd(a, Eigen::Vector3d::UnitY()).toRotationMatrix(); };
  const auto rz = [](double a) { return Eigen::AngleAxisd(a, Eigen::Vector3d::UnitZ()).toRotationMatrix(); };
  struct Case {
    std::string text;
    Eigen::Matrix3d expected;
  };
  const std::vector<Case> cases = {
      {"Rz(pi/2)", rz(M_PI / 2)},
      {"Rz(3 * pi/4 + 0.1)", rz(3 * M_PI / 4 + 0.1)},
      {"Rx(pi/2)*Rz(-pi/4)*Ry(pi/2)", rx(M_PI / 2) * rz(-M_PI / 4) * ry(M_PI / 2)},
      {"Rx(pi/2) * Rz(-pi/4)", rx(M_PI / 2) * rz(-M_PI / 4)},
      {"Rx ( pi / 4 )", rx(M_PI / 4)},  // HEBI's library refuses the blanks; the spec allows them
      {"  Ry(-(pi))  ", ry(-M_PI)},
      {"Rx(pi/4)", rx(M_PI / 4)},
      {"Ry(pi/2)*Rz(pi)", ry(M_PI / 2) * rz(M_PI)}};
  for (const auto& c : cases) {
    const auto r = parseRotation(c.text);
    ASSERT_TRUE(r.ok()) << c.text << ": " << r.error.message;
    EXPECT_TRUE(r.value->isApprox(c.expected, 1e-12)) << c.text << "\n" << *r.value;
  }
  for (const std::string text : {"rx(pi/2)", "Rx(pi/2)*", "Rx pi", "Rw(1)", "Rx(1) Ry(2)", "Rx(1)*2", "RX(1)",
                                 "Rx()", "Rx(1/0)"}) {
    EXPECT_FALSE(parseRotation(text).ok()) << "'" << text << "'";
  }
}

TEST(HrdfGrammar, TranslationVectors) {
  const auto t = parseTranslation(" 0.25 -1e-2\t.5 ");
  ASSERT_TRUE(t.ok()) << t.error.message;
  EXPECT_TRUE(t.value->isApprox(Eigen::Vector3d(0.25, -0.01, 0.5)));
  // HEBI's library reads "1/2 0 0" as (1,0,0) and "pi 0 0" as (0,0,0); both are refused here.
  for (const std::string text : {"1/2 0 0", "pi 0 0", "1,2,3", "1 2", "1 2 3 4", "1-2 3", "", "0.5 0 0 # x"}) {
    EXPECT_FALSE(parseTranslation(text).ok()) << "'" << text << "'";
  }
}

TEST(HrdfGrammar, HostileInputIsRefusedWithoutCrashing) {
  const std::string deepSigns(100000, '-');
  EXPECT_FALSE(parseFormula(deepSigns + "1").ok());
  const std::string deepParens(100000, '(');
  const auto r = parseFormula(deepParens + "1");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.message.find("nested"), std::string::npos);
  EXPECT_TRUE(parseFormula(std::string(150, '-') + "1").ok());
  EXPECT_FALSE(parseFormula("1e400").ok());
}

}  // namespace
