// Plugins as an attacker would use them: a plugin directory or library every user may write to is
// refused with the reason; discovery runs no library's code in the host's process (the plugin
// scanner examines unknown libraries in its own), so a library whose constructor marks, aborts,
// crashes or exits is harmless to `check` of a file it does not read, and refused with the reason
// when it ended the scanner; a plugin that ends the process while reading (exit(0), a crash) never
// lets the CLI report success without a verdict.
#include <sys/stat.h>

#include <initializer_list>

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

const std::string kValidSdf =
    "<sdf version='1.9'><model name='m'><link name='l'/></model></sdf>\n";

/// A private plugin directory holding only the named constructor plugins (0755: trusted).
fs::path constructorPlugins(const Scratch& scratch, std::initializer_list<const char*> variants) {
  const fs::path dir = scratch.dir() / "plugins";
  fs::create_directories(dir);
  ::chmod(dir.c_str(), 0755);
  for (const char* variant : variants) {
    const std::string name = std::string("libtest_plugin_constructor_") + variant + ".so";
    fs::copy_file(fs::path(TEST_HOSTILE_PLUGIN_DIR) / "constructor" / name, dir / name);
  }
  return dir;
}

/// The CLI with the plugin directory, a marker directory for constructors and a plugin cache
/// file ("off" for none).
CommandResult cliWith(const fs::path& plugins, const fs::path& markers, const std::string& cache,
                      const std::string& arguments) {
  return runBounded("INTERLINK_TEST_MARKER_DIR='" + markers.string() + "' INTERLINK_PLUGIN_CACHE='" + cache +
                        "' INTERLINK_PLUGIN_PATH='" + plugins.string() + "' " + cliPath() + " " + arguments,
                    30);
}

/// One scanner scenario: a scratch directory with the named constructor plugins, an empty marker
/// directory, a valid SDFormat file of another format and the path of a plugin cache file.
struct ConstructorScenario {
  explicit ConstructorScenario(std::initializer_list<const char*> variants)
      : plugins(constructorPlugins(scratch, variants)),
        markers(scratch.dir() / "markers"),
        model((fs::create_directories(markers), scratch.write("ok.sdf", kValidSdf))),
        cache((scratch.dir() / "plugins.cache").string()) {}

  CommandResult cli(const std::string& cacheFile, const std::string& arguments) const {
    return cliWith(plugins, markers, cacheFile, arguments);
  }

  Scratch scratch;
  const fs::path plugins;
  const fs::path markers;
  const std::string model;
  const std::string cache;
};

// Discovery of a library nobody knows runs its constructor in the plugin scanner, never in
// `interlink`: checking a file of another format leaves no mark of the host, cold and warm (the
// warm run examines nothing). Reading a file of its format is what opens it in the host.
TEST(PluginDiscovery, AnUnknownLibraryRunsNoCodeInTheHost) {
  const ConstructorScenario scenario({"marks"});
  const fs::path& markers = scenario.markers;
  const std::string& cache = scenario.cache;
  for (const std::string& cacheFile : {std::string("off"), cache, cache}) {
    SCOPED_TRACE(cacheFile);
    const bool warm = fs::exists(cache);
    const CommandResult checked = scenario.cli(cacheFile, "check '" + scenario.model + "'");
    EXPECT_EQ(checked.exitCode, 0) << checked.output;
    EXPECT_FALSE(fs::exists(markers / "ran-in-interlink")) << "a plugin's constructor ran in the host";
    // The scanner did examine it (the test would prove nothing otherwise), only when not known.
    EXPECT_EQ(fs::exists(markers / "ran-in-interlink-plugin-scanner"), !warm);
    fs::remove(markers / "ran-in-interlink-plugin-scanner");
  }
  const CommandResult listed = scenario.cli(cache, "plugins");
  EXPECT_NE(listed.output.find("constructor_marks"), std::string::npos) << listed.output;
  EXPECT_FALSE(fs::exists(markers / "ran-in-interlink")) << listed.output;
  // A file of its format needs it: then, and only then, the host opens it.
  const std::string own = scenario.scratch.write("model.marks", "anything\n");
  scenario.cli(cache, "check '" + own + "'");
  EXPECT_TRUE(fs::exists(markers / "ran-in-interlink"));
}

// A library whose constructor aborts, crashes or calls exit(0) ends the plugin scanner, not the
// host: `check` of another file succeeds, the library is refused with the reason (also when the
// cache remembers it), and a file of its format finds no plugin.
TEST(PluginDiscovery, ALibraryEndingTheScannerIsRefusedWithTheReason) {
  for (const char* variant : {"aborts", "crashes", "exits"}) {
    SCOPED_TRACE(variant);
    const ConstructorScenario scenario({variant, "marks"});
    for (const std::string& cacheFile : {std::string("off"), scenario.cache, scenario.cache}) {
      SCOPED_TRACE(cacheFile);
      const CommandResult checked = scenario.cli(cacheFile, "check '" + scenario.model + "'");
      EXPECT_EQ(checked.exitCode, 0) << checked.output;
      const CommandResult listed = scenario.cli(cacheFile, "plugins");
      EXPECT_EQ(listed.exitCode, 0) << listed.output;
      const std::string refusal = std::string("libtest_plugin_constructor_") + variant + ".so: PLUGIN_LOAD: the plugin scanner ";
      EXPECT_NE(listed.output.find(refusal), std::string::npos) << listed.output;
      // "killed by signal 6 (Aborted)", "ended (exit status 0)" (a sanitizer turns a crash into a status).
      EXPECT_NE(listed.output.find("while opening the library"), std::string::npos) << listed.output;
      // The library examined after it in the same scanner run is still known.
      EXPECT_NE(listed.output.find("constructor_marks"), std::string::npos) << listed.output;
      const std::string own = scenario.scratch.write(std::string("model.") + variant, "anything\n");
      const CommandResult refused = scenario.cli(cacheFile, "check '" + own + "'");
      EXPECT_NE(refused.exitCode, 0) << refused.output;
      EXPECT_NE(refused.output.find("NO_PARSER"), std::string::npos) << refused.output;
    }
    EXPECT_FALSE(fs::exists(scenario.markers / "ran-in-interlink"));
  }
}

/// `check` of a file of the format of the test plugin `kind` ("exit", "crash"), which ends the
/// process while reading it.
CommandResult checkThroughEndingPlugin(const std::string& kind) {
  Scratch scratch;
  const std::string model = scratch.write("model." + kind, "anything\n");
  return cliWithPlugins(std::string(TEST_HOSTILE_PLUGIN_DIR) + "/" + kind, "check '" + model + "'");
}

TEST(PluginCrash, ExitFromAPluginIsNeverASuccess) {
  const CommandResult result = checkThroughEndingPlugin("exit");
  EXPECT_EQ(result.exitCode, 2) << result.output;
  EXPECT_NE(result.output.find("before a verdict"), std::string::npos) << result.output;
}

TEST(PluginCrash, CrashInAPluginSaysSoAndIsNeverASuccess) {
  const CommandResult result = checkThroughEndingPlugin("crash");
  EXPECT_NE(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("before a verdict"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace interlink::test
