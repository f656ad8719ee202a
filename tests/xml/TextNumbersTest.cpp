// Numbers from text with diagnostics.
#include <gtest/gtest.h>

#include <charconv>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

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

/// What std::from_chars makes of the whole token, or nothing when it does not take all of it.
std::optional<double> stdFromChars(const std::string& token) {
  double value = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (error != std::errc() || end != token.data() + token.size()) return std::nullopt;
  return value;
}

std::uint64_t bitsOf(double value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

TEST(TextNumbers, AShortDecimalAndFromCharsReadBitForBitAsStdFromCharsReads) {
  // Edge cases of the form, then a million random decimals of every length it takes (and some it
  // does not: then it must decline, never answer differently).
  std::vector<std::string> tokens = {"0",   "-0",  "0.",    "-0.0",  ".5",  "-.5", "5.",   "00.50", "1",
                                     "9",   "10",  "0.1",   "0.2",   "0.3", "123456789012345",
                                     "1234567890123456",    "0.1234567890123456789012", "0.00000000000000000000001",
                                     "999999999999999.9",   "4503599627370497.5", "9007199254740993",
                                     "1e5", "inf", "nan",   "-",     ".",   "-.",  "1.2.3", "+1", "--1", "1-",
                                     "0x1", " 1", "1 ",     ""};
  std::mt19937_64 random(31);
  for (int i = 0; i < 1000000; ++i) {
    std::string token = random() % 4 == 0 ? "-" : "";
    const int before = static_cast<int>(random() % 18);
    const int after = static_cast<int>(random() % 25);
    for (int d = 0; d < before; ++d) token += static_cast<char>('0' + random() % 10);
    if (after > 0 || random() % 2) token += '.';
    for (int d = 0; d < after; ++d) token += static_cast<char>('0' + random() % (d % 3 == 0 ? 10 : 3));
    tokens.push_back(std::move(token));
  }
  std::size_t quick = 0;
  for (const std::string& token : tokens) {
    // fromChars, which the readers call, answers as std::from_chars on every token.
    double ours = 0, theirs = 0;
    const auto a = fromChars(token.data(), token.data() + token.size(), ours);
    const auto b = std::from_chars(token.data(), token.data() + token.size(), theirs);
    ASSERT_EQ(a.ptr - token.data(), b.ptr - token.data()) << "'" << token << "'";
    ASSERT_EQ(a.ec, b.ec) << "'" << token << "'";
    if (b.ec == std::errc()) {
      ASSERT_EQ(bitsOf(ours), bitsOf(theirs)) << "'" << token << "'";
    }
    const std::optional<double> fast = parseShortDecimal(token);
    if (!fast) continue;
    ++quick;
    const std::optional<double> reference = stdFromChars(token);
    ASSERT_TRUE(reference) << "'" << token << "' is not a number for from_chars";
    ASSERT_EQ(bitsOf(*fast), bitsOf(*reference)) << "'" << token << "'";
  }
  EXPECT_GT(quick, tokens.size() / 4);  // not a path that declines everything
  for (const char* taken : {"0.05", "-1.5707963", "100", "0.000125", "3.14159265358979"}) {
    EXPECT_TRUE(parseShortDecimal(taken)) << taken;
  }
  for (const char* declined : {"1e5", "inf", "nan", "-", ".", "-.", "1.2.3", "+1", "--1", "0x1", " 1", "",
                               "1234567890123456", "0.12345678901234567890123"}) {
    EXPECT_FALSE(parseShortDecimal(declined)) << declined;
  }
  EXPECT_EQ(bitsOf(*parseShortDecimal("-0")), bitsOf(-0.0));
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
