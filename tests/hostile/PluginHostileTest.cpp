// Plugins as an attacker would use them (issue 29): a plugin directory or library every user may
// write to is refused with the reason, and a plugin that ends the process (exit(0), a crash) never
// lets the CLI report success without a verdict.
#include <sys/stat.h>

#include "HostileSupport.hpp"

namespace interlink::test {
namespace {

namespace fs = std::filesystem;

/// The CLI with INTERLINK_PLUGIN_PATH set to `dir`.
CommandResult cliWithPlugins(const std::string& dir, const std::string& arguments) {
  return runBounded("INTERLINK_PLUGIN_CACHE=off INTERLINK_PLUGIN_PATH='" + dir + "' " + cliPath() + " " + arguments, 20);
}

TEST(PluginTrust, WorldWritableDirectoryIsRefusedWithTheReason) {
  Scratch scratch;
  const fs::path dir = scratch.dir() / "plugins";
  fs::create_directories(dir);
  fs::copy_file(fs::path(TEST_HOSTILE_PLUGIN_DIR) / "exit" / "libtest_plugin_exiting.so", dir / "libtest_plugin_exiting.so");
  ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
  const CommandResult listed = cliWithPlugins(dir.string(), "plugins");
  EXPECT_NE(listed.output.find("writable by every user"), std::string::npos) << listed.output;
  EXPECT_NE(listed.output.find("PLUGIN_REFUSED"), std::string::npos) << listed.output;
  // Nothing of it is loaded: the file it claims is not read by it.
  const std::string model = scratch.write("model.exit", "anything\n");
  const CommandResult checked = cliWithPlugins(dir.string(), "check '" + model + "'");
  EXPECT_NE(checked.exitCode, 0) << checked.output;
  EXPECT_NE(checked.output.find("NO_PARSER"), std::string::npos) << checked.output;
}

TEST(PluginTrust, WorldWritableLibraryIsRefused) {
  Scratch scratch;
  const fs::path dir = scratch.dir() / "plugins";
  fs::create_directories(dir);
  const fs::path library = dir / "libtest_plugin_exiting.so";
  fs::copy_file(fs::path(TEST_HOSTILE_PLUGIN_DIR) / "exit" / "libtest_plugin_exiting.so", library);
  ASSERT_EQ(::chmod(library.c_str(), 0666), 0);
  const CommandResult listed = cliWithPlugins(dir.string(), "plugins");
  EXPECT_NE(listed.output.find("writable by every user"), std::string::npos) << listed.output;
}

TEST(PluginCrash, ExitFromAPluginIsNeverASuccess) {
  Scratch scratch;
  const std::string model = scratch.write("model.exit", "anything\n");
  const CommandResult result = cliWithPlugins(std::string(TEST_HOSTILE_PLUGIN_DIR) + "/exit", "check '" + model + "'");
  EXPECT_EQ(result.exitCode, 2) << result.output;
  EXPECT_NE(result.output.find("before a verdict"), std::string::npos) << result.output;
}

TEST(PluginCrash, CrashInAPluginSaysSoAndIsNeverASuccess) {
  Scratch scratch;
  const std::string model = scratch.write("model.crash", "anything\n");
  const CommandResult result = cliWithPlugins(std::string(TEST_HOSTILE_PLUGIN_DIR) + "/crash", "check '" + model + "'");
  EXPECT_NE(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("before a verdict"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace interlink::test
