// docs/getting-started.md followed as a new user would, from its own text: the code blocks of each
// step are taken from the page and run against a temporary install, so the page cannot drift
// from what works.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <boost/filesystem.hpp>

#include "InstallSupport.hpp"

namespace interlink {
namespace {

namespace fs = boost::filesystem;

struct CodeBlock {
  std::string step;      // the "## N. ..." heading it is under
  std::string language;  // after the opening fence: sh, cmake, cpp
  std::string text;
};

std::vector<CodeBlock> codeBlocksOf(const std::string& markdown) {
  std::vector<CodeBlock> blocks;
  std::istringstream in(markdown);
  std::string line;
  std::string step;
  CodeBlock* open = nullptr;
  while (std::getline(in, line)) {
    if (open) {
      if (line.rfind("```", 0) == 0) {
        open = nullptr;
      } else {
        open->text += line + "\n";
      }
    } else if (line.rfind("## ", 0) == 0) {
      step = line.substr(3);
    } else if (line.rfind("```", 0) == 0) {
      blocks.push_back({step, line.substr(3), ""});
      open = &blocks.back();
    }
  }
  return blocks;
}

/// The commands of a shell block, one a line, without the comments that follow them.
std::vector<std::string> commandsOf(const std::string& block) {
  std::vector<std::string> commands;
  std::istringstream in(block);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t comment = line.find(" #");
    if (comment != std::string::npos) line.erase(comment);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (!line.empty()) commands.push_back(line);
  }
  return commands;
}

const CodeBlock& blockOf(const std::vector<CodeBlock>& blocks, const std::string& stepPrefix, const std::string& language) {
  for (const CodeBlock& block : blocks) {
    if (block.step.rfind(stepPrefix, 0) == 0 && block.language == language) return block;
  }
  static const CodeBlock none{};
  ADD_FAILURE() << "docs/getting-started.md has no " << language << " block in step '" << stepPrefix << "'";
  return none;
}

void copyFile(const std::string& from, const std::string& to) {
  fs::create_directories(fs::path(to).parent_path());
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

TEST(GettingStarted, EveryStepOfThePageWorksAsWritten) {
  const auto blocks = codeBlocksOf(test::readFile(test::sourceDir() + "/docs/getting-started.md"));
  const std::string home = test::makeTempDir("interlink-getting-started");
  test::useThisBuildsToolchainForProjects();
  // The page installs into $HOME/interlink and uses commands by name through PATH; nothing of the
  // developer's environment (plugin path, cache) may help.
  const std::string shell = "cd " + home + " && env -u INTERLINK_PLUGIN_PATH -u INTERLINK_RESOURCE_PATH HOME=" + home +
                            " XDG_CACHE_HOME=" + home + "/.cache PATH=" + home + "/interlink/bin:$PATH bash -c ";
  auto quoted = [](const std::string& command) {
    std::string out = "'";
    for (char c : command) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
  };

  // 1. Build and install. The tree is already configured and built by this test's own build, so
  // the configure and build lines are the ones CI ran; the install line runs as written, into the
  // prefix the page configures ($HOME/interlink).
  const auto install = commandsOf(blockOf(blocks, "1.", "sh").text);
  bool installed = false;
  for (const std::string& command : install) {
    if (command.rfind("cmake -S", 0) == 0) {
      EXPECT_NE(command.find("-DCMAKE_INSTALL_PREFIX=$HOME/interlink"), std::string::npos) << command;
    }
    if (command.rfind("cmake --install build", 0) == 0) {
      fs::create_symlink(test::binaryDir(), home + "/build");
      auto run = test::run(shell + quoted(std::string(CMAKE_COMMAND) + command.substr(5) + " --prefix $HOME/interlink"));
      ASSERT_EQ(run.exitCode, 0) << command << "\n" << run.output;
      installed = true;
    }
  }
  ASSERT_TRUE(installed) << "step 1 has no `cmake --install build`";
  ASSERT_TRUE(fs::exists(home + "/interlink/bin/interlink"));

  // 2. Check a model: the files the commands name, taken from real models.
  copyFile(test::vendored("sdformat/test/integration/model/test_include_urdf/model.urdf"), home + "/robot.urdf");
  copyFile(test::sourceDir() + "/samples/models/arm.sdf", home + "/robot.sdf");
  copyFile(test::sourceDir() + "/samples/models/arm.sdf", home + "/arm.sdf");
  copyFile(test::sourceDir() + "/samples/models/workcell.sdf", home + "/world.sdf");
  copyFile(test::sourceDir() + "/samples/models/arm.sdf", home + "/models/arm.sdf");
  copyFile(test::sourceDir() + "/samples/models/workcell.sdf", home + "/models/workcell.sdf");
  copyFile(test::vendored("hrdf/hebi-hrdf/A-2240-06.hrdf"), home + "/robot.hrdf");
  const bool haveXacro = test::run("command -v xacro").exitCode == 0;
  std::size_t ran = 0;
  for (const std::string& command : commandsOf(blockOf(blocks, "2.", "sh").text)) {
    if (command.rfind("xacro ", 0) == 0 && !haveXacro) {
      // No xacro here: the same pipe with the plain file shows that standard input works.
      auto run = test::run(shell + quoted("cat robot.urdf | interlink check -"));
      EXPECT_EQ(run.exitCode, 0) << run.output;
      continue;
    }
    auto run = test::run(shell + quoted(command));
    EXPECT_EQ(run.exitCode, 0) << command << "\n" << run.output;
    ++ran;
  }
  EXPECT_GE(ran, 6u);
  EXPECT_TRUE(fs::exists(home + "/robot.pdf"));
  EXPECT_TRUE(fs::exists(home + "/interlink.sarif"));
  EXPECT_GT(fs::file_size(home + "/robot.urdf"), 0u);

  // 3. A host application, from the page's CMakeLists.txt and main.cpp.
  fs::create_directories(home + "/myhost");
  std::ofstream(home + "/myhost/CMakeLists.txt") << blockOf(blocks, "3.", "cmake").text;
  std::ofstream(home + "/myhost/main.cpp") << blockOf(blocks, "3.", "cpp").text;
  auto configure = test::run(shell + quoted(std::string(CMAKE_COMMAND) +
                                            " -S myhost -B myhost-build -DCMAKE_BUILD_TYPE=Release "
                                            "-DCMAKE_PREFIX_PATH=$HOME/interlink"));
  ASSERT_EQ(configure.exitCode, 0) << configure.output;
  auto build = test::run(shell + quoted(std::string(CMAKE_COMMAND) + " --build myhost-build"));
  ASSERT_EQ(build.exitCode, 0) << build.output;
  auto host = test::run(shell + quoted("myhost-build/myhost world.sdf"));
  EXPECT_EQ(host.exitCode, 0) << host.output;
  EXPECT_NE(host.output.find("left_arm::"), std::string::npos) << host.output;  // a frame of the included arm
  auto broken = test::run(shell + quoted("myhost-build/myhost robot.hrdf.missing"));
  EXPECT_EQ(broken.exitCode, 1) << broken.output;
  EXPECT_NE(broken.output.find("error"), std::string::npos) << broken.output;

  // 4. A plugin of your own: the page's commands, run where the installed samples are.
  const std::string docs = home + "/interlink/share/doc/Interlink";
  ASSERT_TRUE(fs::exists(docs + "/samples/toml_plugin/CMakeLists.txt"));
  const std::string inDocs = "cd " + docs + " && env -u INTERLINK_PLUGIN_PATH -u INTERLINK_RESOURCE_PATH HOME=" + home +
                             " XDG_CACHE_HOME=" + home + "/.cache PATH=" + home + "/interlink/bin:$PATH bash -c ";
  std::string lastOutput;
  for (const std::string& command : commandsOf(blockOf(blocks, "4.", "sh").text)) {
    auto run = test::run(inDocs + quoted(command));
    ASSERT_EQ(run.exitCode, 0) << command << "\n" << run.output;
    lastOutput = run.output;
  }
  EXPECT_TRUE(fs::exists(home + "/interlink/lib/interlink/plugins/libinterlink_plugin_toml.so"));
  auto plugins = test::run(shell + quoted("interlink plugins"));
  EXPECT_NE(plugins.output.find("toml_sample"), std::string::npos) << plugins.output;
  auto toml = test::run(shell + quoted("interlink check " +
                                       test::vendored("sdformat/test/integration/model/double_pendulum.toml")));
  EXPECT_EQ(toml.exitCode, 0) << toml.output;
  fs::remove_all(home);
}

}  // namespace
}  // namespace interlink
