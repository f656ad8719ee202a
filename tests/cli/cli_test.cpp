// The `interlink` command as a user runs it: exit codes, output formats, options.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include <boost/filesystem.hpp>

#include "TestSupport.hpp"

namespace interlink {
namespace {

namespace fs = boost::filesystem;

const std::string kSample = test::sourceDir() + "/samples/models/workcell.sdf";
const std::string kArm = test::sourceDir() + "/samples/models/arm.sdf";

test::CommandResult cli(const std::string& args) { return test::run(test::cliPath() + " " + args); }

std::string writeTemp(const std::string& name, const std::string& content) {
  const fs::path dir = fs::temp_directory_path() / fs::unique_path("interlink-cli-%%%%%%");
  fs::create_directories(dir);
  std::ofstream((dir / name).string()) << content;
  return (dir / name).string();
}

TEST(Cli, VersionAndHelp) {
  auto version = cli("--version");
  EXPECT_EQ(version.exitCode, 0);
  EXPECT_TRUE(std::regex_search(version.output, std::regex("^interlink [0-9]+\\.[0-9]+\\.[0-9]+")));
  for (const char* command : {"check", "frames", "tree", "plugins"}) {
    auto help = cli(std::string(command) + " --help");
    EXPECT_EQ(help.exitCode, 0) << command;
    EXPECT_NE(help.output.find(std::string("usage: interlink ") + command), std::string::npos) << help.output;
  }
  auto top = cli("--help");
  EXPECT_EQ(top.exitCode, 0);
  EXPECT_NE(top.output.find("commands:"), std::string::npos);
}

TEST(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(cli("").exitCode, 2);
  EXPECT_EQ(cli("bogus").exitCode, 2);
  EXPECT_EQ(cli("check").exitCode, 2);
  EXPECT_EQ(cli("frames").exitCode, 2);
  EXPECT_EQ(cli("frames " + kSample + " --no-such-option").exitCode, 2);
  EXPECT_EQ(cli("frames " + kSample + " --positions").exitCode, 2);
}

TEST(Cli, CheckExitCodes) {
  auto valid = cli("check " + kSample);
  EXPECT_EQ(valid.exitCode, 0) << valid.output;
  EXPECT_NE(valid.output.find("valid"), std::string::npos);

  const std::string broken = writeTemp("broken.sdf", R"(<sdf version="1.9">
  <model name="m">
    <link name="a"/>
    <link name="a"/>
    <frame name="f" attached_to="nowhere"/>
  </model>
</sdf>
)");
  auto invalid = cli("check " + broken);
  EXPECT_EQ(invalid.exitCode, 1) << invalid.output;
  // Every error, each as file:line:col: error[CODE]: message.
  EXPECT_TRUE(std::regex_search(invalid.output, std::regex(broken + ":4:[0-9]+: error\\[DUPLICATE_NAME\\]: "))) << invalid.output;
  EXPECT_TRUE(std::regex_search(invalid.output, std::regex(broken + ":5:[0-9]+: error\\[FRAME_ATTACHED_TO_INVALID\\]: "))) << invalid.output;

  auto missing = cli("check /nonexistent/file.sdf");
  EXPECT_EQ(missing.exitCode, 2) << missing.output;
  EXPECT_NE(missing.output.find("error[FILE_READ]"), std::string::npos);

  // Several files: the worst status wins, every file is reported.
  auto both = cli("check " + kSample + " " + broken);
  EXPECT_EQ(both.exitCode, 1);
  EXPECT_NE(both.output.find(kSample + ": valid"), std::string::npos) << both.output;
}

TEST(Cli, FramesJsonHasTheDocumentedShape) {
  auto result = cli("frames " + kArm + " --json");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  const std::regex frame(
      "\\{\"name\":\"[^\"]+\",\"kind\":\"(link|joint|frame|model)\",\"position\":\\[[^,\\]]+,[^,\\]]+,[^,\\]]+\\],"
      "\"quaternion_wxyz\":\\[[^,\\]]+,[^,\\]]+,[^,\\]]+,[^,\\]]+\\]");
  const auto count = std::distance(std::sregex_iterator(result.output.begin(), result.output.end(), frame), std::sregex_iterator());
  EXPECT_EQ(count, 6) << result.output;  // base, upper, fore, shoulder, elbow, tool
  EXPECT_EQ(result.output.rfind("{\"frames\":[", 0), 0u);
  EXPECT_NE(result.output.find("\"dofs\":[\"shoulder\",\"elbow\"]"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("{\"name\":\"tool\",\"kind\":\"frame\",\"position\":[0,0,1],\"quaternion_wxyz\":[1,0,0,0]"),
            std::string::npos)
      << result.output;
}

TEST(Cli, FramesAtPositionsAndRelativeTo) {
  // Shoulder at +90 deg about y: the tool (1 m above the base at zero) swings to +x.
  auto moved = cli("frames " + kArm + " --json --positions 1.5707963267948966,0");
  ASSERT_EQ(moved.exitCode, 0) << moved.output;
  EXPECT_TRUE(std::regex_search(moved.output, std::regex("\"name\":\"tool\",\"kind\":\"frame\",\"position\":\\[0\\.9(0*|9999[0-9]*),0,0\\.1(0000[0-9]*)?\\]")))
      << moved.output;
  auto relative = cli("frames " + kArm + " --json --relative-to upper");
  ASSERT_EQ(relative.exitCode, 0) << relative.output;
  EXPECT_NE(relative.output.find("{\"name\":\"base\",\"kind\":\"link\",\"position\":[0,0,-0.1]"), std::string::npos)
      << relative.output;
  EXPECT_EQ(cli("frames " + kArm + " --positions 1,2,3").exitCode, 2);          // wrong count
  EXPECT_EQ(cli("frames " + kArm + " --positions 1,abc").exitCode, 2);          // not a number
  EXPECT_EQ(cli("frames " + kArm + " --relative-to nowhere").exitCode, 2);      // unknown frame
  EXPECT_EQ(cli("frames " + kArm + " --positions initial").exitCode, 0);
}

TEST(Cli, TreeShowsJointsAndDofOrder) {
  auto tree = cli("tree " + kSample);
  ASSERT_EQ(tree.exitCode, 0) << tree.output;
  EXPECT_NE(tree.output.find("└─ left_arm::upper  (revolute joint 'left_arm::shoulder', dof 0)"), std::string::npos) << tree.output;
  EXPECT_NE(tree.output.find("DOF order (4):"), std::string::npos) << tree.output;
  EXPECT_NE(tree.output.find("  3  right_arm::elbow"), std::string::npos) << tree.output;
}

}  // namespace
}  // namespace interlink
