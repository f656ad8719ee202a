// The `interlink` command as a user runs it: exit codes, output formats, options.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>

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
  for (const char* command : {"check", "frames", "tree", "plugins", "view"}) {
    auto help = cli(std::string(command) + " --help");
    EXPECT_EQ(help.exitCode, 0) << command;
    EXPECT_NE(help.output.find(std::string("usage: interlink ") + command), std::string::npos) << help.output;
  }
  auto top = cli("--help");
  EXPECT_EQ(top.exitCode, 0);
  EXPECT_NE(top.output.find("commands:"), std::string::npos);
}

#if defined(INTERLINK_CLI_HEAP_MIMALLOC)
// The command's heap (cli/ProcessHeap.cpp): mimalloc, asked for large pages before its first
// allocation when the command line names a file of 32 KiB or more, or reads a pipe; in small
// pages otherwise. The environment decides over both. mimalloc lists its options when started
// verbose; otherwise it says nothing.
TEST(Cli, HeapIsMimallocInLargePagesForBigFilesUnlessTheEnvironmentSays) {
  const std::string big = test::sourceDir() + "/tests/data/anymal_c_simple_description/urdf/anymal.urdf";  // 62 KiB
  ASSERT_GE(boost::filesystem::file_size(big), 32u * 1024);
  ASSERT_LT(boost::filesystem::file_size(kArm), 32u * 1024);
  const auto option = [](const std::string& command) {
    const auto result = test::run("export MIMALLOC_VERBOSE=1; " + command);
    EXPECT_LE(result.exitCode, 1) << command << "\n" << result.output;  // 1: warnings under --werror only
    if (result.output.find("mimalloc: option 'large_os_pages': 1") != std::string::npos) return 1;
    if (result.output.find("mimalloc: option 'large_os_pages': 0") != std::string::npos) return 0;
    ADD_FAILURE() << command << ": mimalloc listed no large_os_pages option\n" << result.output;
    return -1;
  };
  const std::string cli = test::cliPath();
  EXPECT_EQ(option(cli + " check " + big), 1);
  EXPECT_EQ(option(cli + " check " + kArm + " " + big), 1) << "any file named counts";
  EXPECT_EQ(option(cli + " check " + kArm), 0);
  EXPECT_EQ(option(cli + " --version"), 0);
  EXPECT_EQ(option(cli + " check " + test::sourceDir() + "/samples/models"), 0) << "a directory is read a file at a time";
  EXPECT_EQ(option("cat " + kArm + " | " + cli + " check -"), 1) << "a pipe's size is unknown";
  EXPECT_EQ(option(cli + " check - < " + kArm), 0) << "standard input that is a small file";
  EXPECT_EQ(option(cli + " check - < " + big), 1);
  EXPECT_EQ(option("MIMALLOC_LARGE_OS_PAGES=0 " + cli + " check " + big), 0);
  EXPECT_EQ(option("MIMALLOC_LARGE_OS_PAGES=1 " + cli + " check " + kArm), 1);
  const auto quiet = test::run(cli + " check " + big);
  EXPECT_EQ(quiet.exitCode, 0) << quiet.output;
  EXPECT_EQ(quiet.output.find("mimalloc"), std::string::npos) << quiet.output;
}
#endif

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

TEST(Cli, FramesByNameOneFrameAndFormats) {
  // Positions by name equal positions in DOF order (shoulder, elbow); --frame prints that frame only.
  auto byName = cli("frames " + kArm + " --json --positions shoulder=1.5707963267948966 --frame tool");
  auto byOrder = cli("frames " + kArm + " --json --positions 1.5707963267948966,0 --frame tool");
  ASSERT_EQ(byName.exitCode, 0) << byName.output;
  EXPECT_EQ(byName.output, byOrder.output);
  // --qpos (MuJoCo's layout; here one value per hinge) moves the frames too (it was ignored once).
  auto byQpos = cli("frames " + kArm + " --json --qpos 1.5707963267948966,0 --frame tool");
  ASSERT_EQ(byQpos.exitCode, 0) << byQpos.output;
  EXPECT_EQ(byQpos.output, byOrder.output);
  EXPECT_NE(byQpos.output, cli("frames " + kArm + " --json --frame tool").output);
  EXPECT_EQ(cli("frames " + kArm + " --qpos 1,0 --positions elbow=1").exitCode, 2);  // not both
  EXPECT_EQ(byName.output.find("\"name\":\"base\""), std::string::npos) << byName.output;
  EXPECT_NE(byName.output.find("\"name\":\"tool\""), std::string::npos) << byName.output;
  auto matrix = cli("frames " + kArm + " --positions elbow=-1 --frame upper --format matrix");
  ASSERT_EQ(matrix.exitCode, 0) << matrix.output;
  EXPECT_NE(matrix.output.find("upper  link  1 0 0 0  0 1 0 0  0 0 1 0.1  0 0 0 1"), std::string::npos) << matrix.output;
  auto rpy = cli("frames " + kArm + " --positions shoulder=0.25 --frame upper --format rpy");
  EXPECT_NE(rpy.output.find("upper  link  0 0 0.1  0 0.25"), std::string::npos) << rpy.output;
  auto json = cli("frames " + kArm + " --json --frame upper --format rpy");
  EXPECT_NE(json.output.find("\"rpy\":[0,0,0]"), std::string::npos) << json.output;
  // Every unknown name is reported; exit status 2.
  auto bad = cli("frames " + kArm + " --positions wrist=1,elbow=x,knee=2");
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.output.find("no DOF named 'wrist'"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("no DOF named 'knee'"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("'elbow'"), std::string::npos) << bad.output;
  EXPECT_EQ(cli("frames " + kArm + " --frame nowhere").exitCode, 2);
  EXPECT_EQ(cli("frames " + kArm + " --format euler").exitCode, 2);
}

const std::string kBrokenSdf = R"(<sdf version="1.9">
  <model name="m">
    <link name="a"/>
    <link name="a"/>
    <joint name="j" type="revolute"><parent>a</parent><child>nowhere</child></joint>
  </model>
</sdf>
)";

/// A URDF whose name says nothing of its format (ROS robot_description dumps are saved so).
const std::string kUrdf = R"(<?xml version="1.0"?>
<robot name="r">
  <link name="base"/>
  <link name="arm"/>
  <joint name="lift" type="prismatic">
    <parent link="base"/><child link="arm"/><origin xyz="0 0 0.5"/><axis xyz="0 0 1"/>
    <limit lower="0" upper="1" effort="1" velocity="1"/>
  </joint>
</robot>
)";

/// Standard output alone (test::run merges standard error into its output).
test::CommandResult stdoutOf(const std::string& command) { return test::run("{ " + command + " 2>/dev/null; }"); }

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Cli, CheckJsonReportHasTheVersionedSchema) {
  const std::string broken = writeTemp("broken.sdf", kBrokenSdf);
  auto result = stdoutOf(test::cliPath() + " check --format json " + kArm + " " + broken);
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_EQ(result.output.rfind("{\"schema\":\"interlink-check\",\"version\":1,", 0), 0u) << result.output;
  EXPECT_NE(result.output.find("{\"file\":\"" + kArm + "\",\"status\":\"valid\",\"diagnostics\":[]}"), std::string::npos)
      << result.output;
  EXPECT_TRUE(std::regex_search(result.output, std::regex("\\{\"severity\":\"error\",\"code\":\"DUPLICATE_NAME\",\"message\":\"[^\"]+\",\"file\":\"" +
                                                          broken + "\",\"line\":4,\"column\":[1-9][0-9]*\\}")))
      << result.output;
  EXPECT_TRUE(std::regex_search(result.output, std::regex("\"summary\":\\{\"files\":2,\"valid\":1,\"invalid\":1,\"errors\":[2-9],\"warnings\":[0-9]+,\"skipped\":0\\}\\}\n$")))
      << result.output;
}

TEST(Cli, CheckSarifLocatesEveryResult) {
  // An absolute path is an absolute file URI; a relative one is relative to the base SRCROOT.
  const std::string broken = writeTemp("broken.sdf", kBrokenSdf);
  auto result = stdoutOf(test::cliPath() + " check --format=sarif " + broken);
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_NE(result.output.find("\"version\":\"2.1.0\""), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\""), std::string::npos);
  EXPECT_NE(result.output.find("{\"id\":\"DUPLICATE_NAME\"}"), std::string::npos) << result.output;
  EXPECT_TRUE(std::regex_search(result.output, std::regex("\\{\"ruleId\":\"DUPLICATE_NAME\",\"level\":\"error\",\"message\":\\{\"text\":\"[^\"]+\"\\},"
                                                          "\"locations\":\\[\\{\"physicalLocation\":\\{\"artifactLocation\":\\{\"uri\":\"file://" +
                                                          broken + "\"\\},\"region\":\\{\"startLine\":4,\"startColumn\":[1-9]")))
      << result.output;
  EXPECT_EQ(occurrences(result.output, "\"ruleId\""), occurrences(test::run(test::cliPath() + " check " + broken).output, "error["));
}

TEST(Cli, FramesJsonPrintsAnErrorObjectWhenTheLoadFails) {
  const std::string broken = writeTemp("broken.sdf", kBrokenSdf);
  auto result = stdoutOf(test::cliPath() + " frames --json " + broken);
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_EQ(result.output.rfind("{\"error\":{\"message\":", 0), 0u) << result.output;
  EXPECT_NE(result.output.find("\"code\":\"DUPLICATE_NAME\""), std::string::npos) << result.output;
  auto missing = stdoutOf(test::cliPath() + " frames --json /nonexistent.sdf");
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_NE(missing.output.find("\"code\":\"FILE_READ\""), std::string::npos) << missing.output;
}

TEST(Cli, StandardInputSniffingAndFrom) {
  auto piped = test::run("cat " + kArm + " | " + test::cliPath() + " check -");
  EXPECT_EQ(piped.exitCode, 0) << piped.output;
  EXPECT_NE(piped.output.find("<stdin>: valid"), std::string::npos) << piped.output;
  // A URDF saved as .xml: no plugin claims it for URDF, the sniffers recognise it.
  const std::string xml = writeTemp("robot_description.xml", kUrdf);
  auto sniffed = cli("frames " + xml);
  ASSERT_EQ(sniffed.exitCode, 0) << sniffed.output;
  EXPECT_NE(sniffed.output.find("arm  link  0 0 0.5  1 0 0 0"), std::string::npos) << sniffed.output;
  // Without extension at all, and through standard input.
  const std::string bare = writeTemp("robot", kUrdf);
  EXPECT_EQ(cli("check " + bare).exitCode, 0);
  auto fromStdin = test::run("cat " + xml + " | " + test::cliPath() + " tree -");
  EXPECT_EQ(fromStdin.exitCode, 0) << fromStdin.output;
  EXPECT_NE(fromStdin.output.find("└─ arm  (prismatic joint 'lift', dof 0)"), std::string::npos) << fromStdin.output;
  // --from names the plugin: the SDFormat plugin reading a URDF fails (it is not SDFormat).
  EXPECT_EQ(cli("check --from urdf " + bare).exitCode, 0);
  auto wrong = cli("check --from sdformat " + bare);
  EXPECT_EQ(wrong.exitCode, 1) << wrong.output;
  auto unknown = cli("check --from nosuchformat " + bare);
  EXPECT_EQ(unknown.exitCode, 1);
  EXPECT_NE(unknown.output.find("no format plugin named 'nosuchformat'"), std::string::npos) << unknown.output;
}

TEST(Cli, NoParserMessageNeverOffersThePluginThatDeclined) {
  // Juice and MJCF claim .xml but decline this content; nothing else recognises it.
  const std::string other = writeTemp("other.xml", "<?xml version=\"1.0\"?><catalog><book/></catalog>\n");
  auto result = cli("check " + other);
  EXPECT_EQ(result.exitCode, 1) << result.output;
  ASSERT_NE(result.output.find("error[NO_PARSER]"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("juice, mjcf (claiming '.xml') declined its content"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("juice (.jm, .xml)"), std::string::npos) << result.output;
}

TEST(Cli, BatchWalksDirectoriesAndSummarises) {
  const std::string dir = test::makeTempDir("interlink-batch");
  fs::create_directories(dir + "/sub");
  fs::copy_file(kArm, dir + "/arm.sdf");
  fs::copy_file(kSample, dir + "/workcell.sdf");  // beside the arm.sdf it includes
  std::ofstream(dir + "/sub/broken.sdf") << kBrokenSdf;
  std::ofstream(dir + "/notes.txt") << "not a model\n";
  auto result = cli("check -j 2 " + dir + " /nonexistent/missing.sdf");
  EXPECT_EQ(result.exitCode, 2) << result.output;  // the worst: an unreadable file
  EXPECT_NE(result.output.find(dir + "/arm.sdf: valid"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find(dir + "/workcell.sdf: valid"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find(dir + "/sub/broken.sdf: invalid ("), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("/nonexistent/missing.sdf: unreadable"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("notes.txt"), std::string::npos) << result.output;
  EXPECT_TRUE(std::regex_search(result.output, std::regex("\n4 files: 2 valid, 2 invalid; [3-9] errors, [0-9]+ warnings?\n$"))) << result.output;
  // The same verdicts in the same order whatever -j is.
  auto serial = cli("check " + dir + " /nonexistent/missing.sdf");
  EXPECT_EQ(serial.output, result.output);

  auto quiet = cli("check -q " + dir);
  EXPECT_EQ(quiet.exitCode, 1);
  EXPECT_EQ(quiet.output.find(": valid"), std::string::npos) << quiet.output;
  EXPECT_NE(quiet.output.find("broken.sdf: invalid"), std::string::npos);

  const std::string broken = dir + "/sub/broken.sdf";
  auto only = cli("check --only DUPLICATE_NAME " + broken);
  EXPECT_EQ(only.exitCode, 1);
  EXPECT_NE(only.output.find("error[DUPLICATE_NAME]"), std::string::npos) << only.output;
  EXPECT_EQ(occurrences(only.output, "error["), occurrences(only.output, "error[DUPLICATE_NAME]")) << only.output;
  auto ignored = cli("check --ignore DUPLICATE_NAME --ignore JOINT_CHILD_LINK_INVALID " + broken);
  EXPECT_EQ(ignored.output.find("error[DUPLICATE_NAME]"), std::string::npos) << ignored.output;
  EXPECT_EQ(cli("check --ignore NOT_A_CODE " + broken).exitCode, 2);
  // A file that cannot be read stays unreadable whatever is filtered.
  auto missing = cli("check --ignore FILE_READ /nonexistent/missing.sdf");
  EXPECT_EQ(missing.exitCode, 2) << missing.output;
  EXPECT_NE(missing.output.find("/nonexistent/missing.sdf: unreadable"), std::string::npos) << missing.output;
  EXPECT_NE(missing.output.find("error[FILE_READ]"), std::string::npos) << missing.output;
  EXPECT_EQ(cli("check --only DUPLICATE_NAME /nonexistent/missing.sdf").exitCode, 2);
  fs::remove_all(dir);
}

TEST(Cli, WerrorTurnsWarningsIntoFailure) {
  // An unknown element is a warning in SDFormat.
  const std::string warned = writeTemp("warned.sdf", R"(<sdf version="1.9"><model name="m"><link name="a"/><bogus_element/></model></sdf>
)");
  auto plain = cli("check " + warned);
  ASSERT_EQ(plain.exitCode, 0) << plain.output;
  ASSERT_NE(plain.output.find("warning["), std::string::npos) << plain.output;
  auto strict = cli("check --werror " + warned);
  EXPECT_EQ(strict.exitCode, 1) << strict.output;
  EXPECT_NE(strict.output.find("with --werror"), std::string::npos) << strict.output;
}

TEST(Cli, OptionSpellingsOfEveryOtherTool) {
  // --opt=value, -Ivalue, and -- before an argument that looks like an option.
  auto equals = cli("frames --json --positions=1.5707963267948966,0 --relative-to=base " + kArm);
  EXPECT_EQ(equals.exitCode, 0) << equals.output;
  const std::string packages = test::sourceDir() + "/samples";
  EXPECT_EQ(cli("check -I" + packages + " " + kArm).exitCode, 0);
  const std::string dir = test::makeTempDir("interlink-dash");
  fs::copy_file(kArm, dir + "/-arm.sdf");
  auto dashed = test::run("cd " + dir + " && " + test::cliPath() + " check -- -arm.sdf");
  EXPECT_EQ(dashed.exitCode, 0) << dashed.output;
  EXPECT_EQ(test::run("cd " + dir + " && " + test::cliPath() + " check -arm.sdf").exitCode, 2);
  fs::remove_all(dir);
}

TEST(Cli, TextFramesQuoteNamesWithSpaces) {
  auto result = stdoutOf(test::cliPath() + " frames " + test::vendored("juice/models/DeathTollCritter.jm"));
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_TRUE(std::regex_search(result.output, std::regex("\n\"Right Front Upper Leg_[0-9]+\"  link  "))) << result.output;
  // Every frame line has the same 9 fields once quoted names count as one.
  std::istringstream lines(result.output);
  std::string line;
  std::size_t checked = 0;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::string rest = line;
    if (rest[0] == '"') rest = rest.substr(rest.find('"', 1) + 1);
    else rest = rest.substr(rest.find(' '));
    std::istringstream fields(rest);
    std::vector<std::string> parts{std::istream_iterator<std::string>(fields), std::istream_iterator<std::string>()};
    EXPECT_EQ(parts.size(), 8u) << line;
    ++checked;
  }
  EXPECT_GT(checked, 5u);
}

TEST(Cli, ColourOnlyOnATerminalAndNeverWithNoColor) {
  const std::string broken = writeTemp("broken.sdf", kBrokenSdf);
  auto piped = cli("check " + broken);
  EXPECT_EQ(piped.output.find("\033["), std::string::npos);
  if (test::run("command -v script").exitCode != 0) GTEST_SKIP() << "util-linux `script` is needed for a terminal";
  auto onTerminal = test::run("script -qec '" + test::cliPath() + " check " + broken + "' /dev/null");
  EXPECT_NE(onTerminal.output.find("\033[1;31merror[DUPLICATE_NAME]\033[0m"), std::string::npos) << onTerminal.output;
  auto noColor = test::run("NO_COLOR=1 script -qec '" + test::cliPath() + " check " + broken + "' /dev/null");
  EXPECT_NE(noColor.output.find("error[DUPLICATE_NAME]"), std::string::npos) << noColor.output;
  EXPECT_EQ(noColor.output.find("\033[1;31m"), std::string::npos) << noColor.output;
}

TEST(Cli, ConvertNeverOverwritesItsInputAndWritesToStandardOutput) {
  const std::string dir = test::makeTempDir("interlink-convert");
  const std::string copy = dir + "/arm.sdf";
  fs::copy_file(kArm, copy);
  const std::string before = test::readFile(copy);
  auto same = cli("convert " + copy + " -o " + copy);
  EXPECT_EQ(same.exitCode, 2);
  EXPECT_NE(same.output.find("refusing to overwrite the input"), std::string::npos) << same.output;
  fs::create_symlink(copy, dir + "/alias.sdf");
  EXPECT_EQ(cli("convert " + copy + " -o " + dir + "/alias.sdf").exitCode, 2);
  EXPECT_EQ(test::readFile(copy), before);

  auto toStdout = stdoutOf(test::cliPath() + " convert " + kArm + " -o - --to urdf");
  ASSERT_EQ(toStdout.exitCode, 0) << toStdout.output;
  EXPECT_EQ(toStdout.output.rfind("<?xml", 0), 0u) << toStdout.output;
  EXPECT_NE(toStdout.output.find("<robot name=\"arm\""), std::string::npos) << toStdout.output;
  EXPECT_EQ(cli("convert " + kArm + " -o -").exitCode, 2);  // which format?
  EXPECT_EQ(cli("convert " + kArm + " -o - --to nonsense").exitCode, 2);
  // --to wins over the extension; the pipe reads back.
  auto piped = test::run(test::cliPath() + " convert " + kArm + " -o - --to sdformat | " + test::cliPath() + " frames --json -");
  EXPECT_EQ(piped.exitCode, 0) << piped.output;
  EXPECT_NE(piped.output.find("\"dofs\":[\"shoulder\",\"elbow\"]"), std::string::npos) << piped.output;
  fs::remove_all(dir);
}

TEST(Cli, TreeShowsJointsAndDofOrder) {
  auto tree = cli("tree " + kSample);
  ASSERT_EQ(tree.exitCode, 0) << tree.output;
  EXPECT_NE(tree.output.find("└─ left_arm::upper  (revolute joint 'left_arm::shoulder', dof 0)"), std::string::npos) << tree.output;
  EXPECT_NE(tree.output.find("DOF order (4):"), std::string::npos) << tree.output;
  EXPECT_NE(tree.output.find("  3  right_arm::elbow"), std::string::npos) << tree.output;
}

TEST(Cli, TreeDrawsBranchesWithBoxCharacters) {
  // A root with two children: the first hangs from "├─", the second from "└─", and the first
  // child's own subtree is continued by "│" on the lines below it.
  const std::string forked = writeTemp("forked.urdf", R"(<robot name="fork">
  <link name="base"/><link name="left"/><link name="left_tip"/><link name="right"/>
  <joint name="l" type="revolute"><parent link="base"/><child link="left"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="lt" type="fixed"><parent link="left"/><child link="left_tip"/></joint>
  <joint name="r" type="continuous"><parent link="base"/><child link="right"/></joint>
</robot>
)");
  auto tree = cli("tree " + forked);
  ASSERT_EQ(tree.exitCode, 0) << tree.output;
  EXPECT_TRUE(std::regex_search(tree.output, std::regex("\n├─ left  \\(revolute joint 'l', dof 0\\)\n│  └─ left_tip  \\(fixed joint 'lt'\\)\n└─ right  \\(continuous joint 'r', dof 1\\)\n")))
      << tree.output;
}

TEST(Cli, ProgressOnlyOnATerminal) {
  const std::string dir = test::makeTempDir("interlink-progress");
  for (int i = 0; i < 30; ++i) fs::copy_file(kArm, dir + "/arm" + std::to_string(i) + ".sdf");
  auto piped = cli("check " + dir);
  EXPECT_EQ(piped.exitCode, 0) << piped.output;
  EXPECT_EQ(piped.output.find("checking "), std::string::npos) << piped.output;
  EXPECT_EQ(piped.output.find("\033["), std::string::npos) << piped.output;
  if (test::run("command -v script").exitCode != 0) GTEST_SKIP() << "util-linux `script` is needed for a terminal";
  auto onTerminal = test::run("script -qec '" + test::cliPath() + " check " + dir + "' /dev/null");
  EXPECT_EQ(onTerminal.exitCode, 0) << onTerminal.output;
  EXPECT_NE(onTerminal.output.find("\rchecking "), std::string::npos) << onTerminal.output;
  EXPECT_NE(onTerminal.output.find("/30"), std::string::npos) << onTerminal.output;
  EXPECT_NE(onTerminal.output.find("\r\033[K"), std::string::npos) << onTerminal.output;  // erased before the verdicts
  EXPECT_NE(onTerminal.output.find("30 files: 30 valid"), std::string::npos) << onTerminal.output;
  fs::remove_all(dir);
}

// The listing is written through a 64 KB buffer as it is made (issue 31): a listing several times
// that size comes out whole, in order, and escaped as before.
TEST(Cli, FramesListingLargerThanTheOutputBufferIsWhole) {
  std::string sdf = "<sdf version=\"1.9\"><model name=\"m\">\n<link name=\"q&quot;uo\\te\"/>\n";
  const int links = 3000;
  for (int i = 1; i < links; ++i) {
    sdf += "<link name=\"l" + std::to_string(i) + "\"><pose>0 0 " + std::to_string(i) + " 0 0 0</pose></link>\n";
  }
  sdf += "</model></sdf>\n";
  const std::string file = writeTemp("long.sdf", sdf);
  auto json = stdoutOf(test::cliPath() + " frames --json " + file);
  ASSERT_EQ(json.exitCode, 0) << json.output.substr(0, 500);
  EXPECT_GT(json.output.size(), std::size_t{3} * 65536);
  EXPECT_EQ(json.output.rfind("{\"frames\":[{\"name\":\"q\\\"uo\\\\te\",", 0), 0u) << json.output.substr(0, 200);
  EXPECT_EQ(json.output.substr(json.output.size() - 2), "}\n");
  std::size_t names = 0;
  for (std::size_t at = json.output.find("{\"name\":"); at != std::string::npos; at = json.output.find("{\"name\":", at + 1)) ++names;
  EXPECT_EQ(names, static_cast<std::size_t>(links));
  EXPECT_NE(json.output.find("{\"name\":\"l2999\",\"kind\":\"link\",\"position\":[0,0,2999],\"quaternion_wxyz\":[1,0,0,0]"),
            std::string::npos);
  auto text = stdoutOf(test::cliPath() + " frames " + file);
  ASSERT_EQ(text.exitCode, 0);
  EXPECT_NE(text.output.find("\n\"q\\\"uo\\\\te\"  link  0 0 0  1 0 0 0\n"), std::string::npos) << text.output.substr(0, 300);
  EXPECT_NE(text.output.find("\nl2999  link  0 0 2999  1 0 0 0\n# dofs:\n"), std::string::npos);
}

}  // namespace
}  // namespace interlink
