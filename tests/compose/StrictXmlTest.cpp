// Issue 12 class 5 through the real Loader, plugins and CLI: gz-sim's own default world (a "--"
// inside a comment) and a URDF with white space before <?xml load with a located XML_SYNTAX
// warning; LoadOptions::strict and `interlink check --strict` refuse them.
#include <gtest/gtest.h>

#include <string>

#include "SharedLoader.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink {
namespace {

const Loader& loader() { return test::sharedLoader(); }

std::string gazeboDefaultWorld() { return test::vendored("gazebo/gz-sim/examples/worlds/default.sdf"); }

std::size_t xmlWarnings(const LoadResult& result) {
  std::size_t count = 0;
  for (const auto& d : result.diagnostics) count += d.code == ErrorCode::XML_SYNTAX && !d.isError();
  return count;
}

TEST(StrictXml, GazeboDefaultWorldLoadsWithALocatedWarningAndIsRefusedWhenStrict) {
  const LoadResult tolerant = loader().loadFile(gazeboDefaultWorld());
  EXPECT_TRUE(tolerant.ok()) << test::dump(tolerant.diagnostics);
  EXPECT_EQ(xmlWarnings(tolerant), 1u) << test::dump(tolerant.diagnostics);
  EXPECT_GT(tolerant.graph.frames().size(), 1u);

  LoadOptions strict;
  strict.strict = true;
  const LoadResult refused = loader().loadFile(gazeboDefaultWorld(), strict);
  EXPECT_FALSE(refused.ok());
  bool located = false;
  for (const auto& d : refused.diagnostics) {
    located = located || (d.isError() && d.code == ErrorCode::XML_SYNTAX && d.where.line > 1 && d.where.column > 0 &&
                          d.where.file == gazeboDefaultWorld());
  }
  EXPECT_TRUE(located) << test::dump(refused.diagnostics);
}

TEST(StrictXml, UrdfWithWhiteSpaceBeforeTheDeclarationLoadsLikeUrdfdom) {
  const std::string text = "\n  <?xml version=\"1.0\"?>\n<robot name=\"r\"><link name=\"a\"/></robot>\n";
  const LoadResult tolerant = loader().loadString(text, "spaced.urdf");
  EXPECT_TRUE(tolerant.ok()) << test::dump(tolerant.diagnostics);
  ASSERT_EQ(xmlWarnings(tolerant), 1u) << test::dump(tolerant.diagnostics);
  LoadOptions strict;
  strict.strict = true;
  EXPECT_FALSE(loader().loadString(text, "spaced.urdf", strict).ok());
}

TEST(StrictXml, TheCliSaysWhereAndRefusesWithStrict) {
  const auto tolerant = test::run(test::cliPath() + " check " + gazeboDefaultWorld());
  EXPECT_EQ(tolerant.exitCode, 0) << tolerant.output;
  EXPECT_NE(tolerant.output.find("warning[XML_SYNTAX]: '--' inside a comment"), std::string::npos) << tolerant.output;
  const auto strict = test::run(test::cliPath() + " check --strict " + gazeboDefaultWorld());
  EXPECT_EQ(strict.exitCode, 1) << strict.output;
  EXPECT_NE(strict.output.find("error[XML_SYNTAX]"), std::string::npos) << strict.output;
}

}  // namespace
}  // namespace interlink
