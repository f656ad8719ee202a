// The `interlink` command on Juice files: warnings from `check`, world positions from `frames`.
#include <gtest/gtest.h>

#include <string>

#include "JuiceTestSupport.hpp"

namespace interlink::test::juice {
namespace {

std::string model(const std::string& file) { return vendored("juice/models/" + file); }

TEST(JuiceCli, CheckReportsSymmetryAsWarnings) {
  CommandResult r = run("'" + cliPath() + "' check '" + model("DeathTollCritter.jm") + "'");
  EXPECT_EQ(r.exitCode, 0) << r.output;  // warnings only: the file is valid
  EXPECT_NE(r.output.find("warning[SYMMETRY]"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("'Left Outer Toe'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("'Right Outer Toe'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("DeathTollCritter.jm:236:"), std::string::npos) << r.output;
}

TEST(JuiceCli, CheckGivesTheXmlErrorLineOfSimpleAnt2Jp) {
  CommandResult r = run("'" + cliPath() + "' check '" + model("simpleant2.jp.jm") + "'");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("simpleant2.jp.jm:804:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("error[XML_SYNTAX]"), std::string::npos) << r.output;
}

TEST(JuiceCli, FramesShowBodiesAtTheirWorldPositions) {
  CommandResult r = run("'" + cliPath() + "' frames '" + model("Pogo.jm") + "'");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  // Pogo.jm: body 'Top' (ID 181537408) at (0, 0, 3.25); slider 'Pogo' anchored at (0, 0, 2.5).
  EXPECT_NE(r.output.find("Top_181537408  link  0 0 3.25"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Pogo_181538552  joint  0 0 2.5"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace interlink::test::juice
