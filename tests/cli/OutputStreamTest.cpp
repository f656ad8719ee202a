// cli/OutputStream: the listing commands' numbers are the shortest text that reads back to the
// same double (std::to_chars), whatever path writes them.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "OutputStream.hpp"

namespace interlink::cli {
namespace {

/// What number() must print: 0 for zero and for noise below 1e-15, else to_chars' shortest text.
std::string expectedText(double value) {
  if (std::abs(value) < 1e-15) return "0";
  char buffer[64];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
}

TEST(OutputStream, NumbersAreTheShortestRoundTripTextOnEveryPath) {
  std::vector<double> values;
  for (int n = -120000; n <= 120000; ++n) values.push_back(n);  // whole numbers on both sides of 1e5
  for (double v : {0.5, -0.5, 99999.5, 1e5, -1e5, 1e6, 123456.0, 1e15, 1e-16, -0.0, 0.1, 2.5e-7, 1e21, 4503599627370497.0}) {
    values.push_back(v);
  }
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> anywhere(-2e5, 2e5);
  for (int i = 0; i < 20000; ++i) values.push_back(anywhere(random));
  for (int i = 0; i < 20000; ++i) values.push_back(std::round(anywhere(random)) / 8);  // halves, quarters, eighths

  testing::internal::CaptureStdout();
  {
    OutputStream out;
    for (double v : values) out.number(v) << '\n';
  }
  std::fflush(stdout);
  std::istringstream printed(testing::internal::GetCapturedStdout());
  std::string line;
  for (double v : values) {
    ASSERT_TRUE(std::getline(printed, line));
    ASSERT_EQ(line, expectedText(v)) << "for " << v;
  }
  EXPECT_FALSE(std::getline(printed, line)) << "more lines than numbers";
}

}  // namespace
}  // namespace interlink::cli
