// Numbers from text with diagnostics.
#include <gtest/gtest.h>

#include "TestSupport.hpp"
#include "interlink/TextNumbers.hpp"

namespace interlink {
namespace {

const SourceLocation here{"n.txt", 4, 7};

TEST(TextNumbers, ParsesFiniteNumbers) {
  Diagnostics diagnostics;
  EXPECT_EQ(parseDouble(" 1.5 ", here, "mass", diagnostics), 1.5);
  EXPECT_EQ(parseDouble("+2e3", here, "mass", diagnostics), 2000.0);
  EXPECT_EQ(parseDouble("-0.25\n", here, "mass", diagnostics), -0.25);
  EXPECT_EQ(parseDouble("1e-400", here, "mass", diagnostics), 0.0);
  EXPECT_TRUE(diagnostics.empty()) << test::dump(diagnostics);
}

TEST(TextNumbers, RefusesNonNumbersWithLocation) {
  for (const char* text : {"", "abc", "1.0.0", "1,5", "2m", "++1", "+-1", "0x10"}) {
    Diagnostics diagnostics;
    EXPECT_FALSE(parseDouble(text, here, "mass", diagnostics)) << text;
    ASSERT_EQ(diagnostics.size(), 1u) << text;
    const Diagnostic& d = diagnostics.items()[0];
    EXPECT_EQ(d.code, ErrorCode::VALUE_INVALID);
    EXPECT_EQ(d.where.line, 4);
    EXPECT_EQ(d.where.column, 7);
    EXPECT_NE(d.message.find("mass"), std::string::npos) << d.message;
  }
}

TEST(TextNumbers, RefusesNanAndInfinity) {
  for (const char* text : {"nan", "NaN", "inf", "-inf", "infinity", "1e999"}) {
    Diagnostics diagnostics;
    EXPECT_FALSE(parseDouble(text, here, "x", diagnostics)) << text;
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics.items()[0].code, ErrorCode::VALUE_INVALID);
    EXPECT_NE(diagnostics.items()[0].message.find("finite"), std::string::npos);
  }
}

TEST(TextNumbers, ParsesListsAndChecksCounts) {
  Diagnostics diagnostics;
  const auto six = parseDoubles(" 1 2\t3\n4 5 6 ", here, "pose", diagnostics, {6, 7}, ErrorCode::POSE_FORMAT_INVALID);
  ASSERT_TRUE(six) << test::dump(diagnostics);
  EXPECT_EQ(*six, (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(parseDoubles("", here, "list", diagnostics)->empty());

  Diagnostics wrongCount;
  EXPECT_FALSE(parseDoubles("1 2 3 4 5", here, "pose", wrongCount, {6, 7}, ErrorCode::POSE_FORMAT_INVALID));
  ASSERT_EQ(wrongCount.size(), 1u);
  EXPECT_EQ(wrongCount.items()[0].code, ErrorCode::POSE_FORMAT_INVALID);
  EXPECT_NE(wrongCount.items()[0].message.find("6 or 7"), std::string::npos) << wrongCount.items()[0].message;

  Diagnostics defaultCode;
  EXPECT_FALSE(parseDoubles("1 2", here, "xyz", defaultCode, {3}));
  EXPECT_EQ(defaultCode.items().at(0).code, ErrorCode::VALUE_INVALID);

  // Every bad entry is reported.
  Diagnostics bad;
  EXPECT_FALSE(parseDoubles("1 nan 3 x", here, "xyz", bad, {4}));
  EXPECT_EQ(bad.size(), 2u) << test::dump(bad);
}

TEST(TextNumbers, FixedCountsReadIntoTheCallersArrayWithTheSameDiagnosticsAsLists) {
  Diagnostics diagnostics;
  double pose[6] = {};
  ASSERT_TRUE(parseFixedDoubles(" 1 2\t3\n4 5 +6e0 ", here, "pose", diagnostics, pose, 6)) << test::dump(diagnostics);
  EXPECT_EQ(std::vector<double>(pose, pose + 6), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(diagnostics.empty());

  // Too many numbers: nothing is written past the count, and the message is parseDoubles' own.
  for (const char* text : {"1 2", "1 2 3 4", "", "1 2 3 4 5 6 7 8 9 10 11 12"}) {
    double xyz[4] = {0, 0, 0, -7};
    Diagnostics fixed;
    Diagnostics list;
    EXPECT_FALSE(parseFixedDoubles(text, here, "xyz", fixed, xyz, 3, ErrorCode::POSE_FORMAT_INVALID)) << text;
    EXPECT_FALSE(parseDoubles(text, here, "xyz", list, {3}, ErrorCode::POSE_FORMAT_INVALID)) << text;
    EXPECT_EQ(xyz[3], -7) << text;
    EXPECT_EQ(test::dump(fixed), test::dump(list)) << text;
    ASSERT_EQ(fixed.size(), 1u) << text;
    EXPECT_EQ(fixed.items()[0].code, ErrorCode::POSE_FORMAT_INVALID);
  }
  // Every bad entry is reported, past the count too.
  double three[3];
  Diagnostics bad;
  EXPECT_FALSE(parseFixedDoubles("1 nan 3 x", here, "xyz", bad, three, 3));
  EXPECT_EQ(bad.size(), 3u) << test::dump(bad);  // nan, x, and the count
}

TEST(TextNumbers, BoolsAndText) {
  Diagnostics diagnostics;
  EXPECT_EQ(parseBool(" TRUE ", here, "static", diagnostics), true);
  EXPECT_EQ(parseBool("0", here, "static", diagnostics), false);
  EXPECT_EQ(parseBool("False", here, "static", diagnostics), false);
  EXPECT_TRUE(diagnostics.empty());
  EXPECT_FALSE(parseBool("yes", here, "static", diagnostics));
  EXPECT_EQ(diagnostics.items().at(0).code, ErrorCode::VALUE_INVALID);
  EXPECT_EQ(toLower("AbC1"), "abc1");
  EXPECT_EQ(trim("\t a b \n"), "a b");
}

}  // namespace
}  // namespace interlink
