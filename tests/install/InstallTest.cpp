// A third party builds and uses a format plugin from the install alone.
#include <gtest/gtest.h>

#include <boost/filesystem.hpp>

#include "InstallSupport.hpp"

namespace interlink {
namespace {

namespace fs = boost::filesystem;

TEST(Install, ThirdPartyPluginBuildsAgainstTheInstallAndLoads) {
  const test::TemporaryInstall install("interlink-install");
  ASSERT_EQ(install.installation.exitCode, 0) << install.installation.output;
  const std::string& prefix = install.prefix;
  EXPECT_TRUE(fs::exists(prefix + "/lib/cmake/Interlink/InterlinkConfig.cmake"));
  EXPECT_TRUE(fs::exists(prefix + "/lib/cmake/Interlink/InterlinkTargets.cmake"));
  EXPECT_TRUE(fs::exists(prefix + "/lib/pkgconfig/interlink.pc"));
  EXPECT_TRUE(fs::exists(prefix + "/include/interlink/plugin/Register.hpp"));

  auto pkg = test::run("PKG_CONFIG_PATH=" + prefix + "/lib/pkgconfig pkg-config --cflags --libs interlink");
  EXPECT_EQ(pkg.exitCode, 0) << pkg.output;
  EXPECT_NE(pkg.output.find("-linterlink"), std::string::npos) << pkg.output;

  const std::string sampleBuild = install.work + "/sample-build";
  auto build = install.build(test::sourceDir() + "/samples/toml_plugin", sampleBuild);
  ASSERT_EQ(build.exitCode, 0) << build.output;
  ASSERT_TRUE(fs::exists(sampleBuild + "/libinterlink_plugin_toml.so"));

  // The installed CLI finds its own plugins beside its library, and the new one through the path.
  const std::string cli = prefix + "/bin/interlink";
  auto plugins = test::run("INTERLINK_PLUGIN_PATH=" + sampleBuild + " " + cli + " plugins");
  EXPECT_EQ(plugins.exitCode, 0) << plugins.output;
  EXPECT_NE(plugins.output.find("toml_sample 1.0.0  format  .toml"), std::string::npos) << plugins.output;
  EXPECT_NE(plugins.output.find("sdformat"), std::string::npos) << plugins.output;
  EXPECT_EQ(plugins.output.find("refused"), std::string::npos) << plugins.output;

  const std::string model = test::vendored("sdformat/test/integration/model/double_pendulum.toml");
  auto frames = test::run("INTERLINK_PLUGIN_PATH=" + sampleBuild + " " + cli + " frames " + model + " --json");
  EXPECT_EQ(frames.exitCode, 0) << frames.output;
  EXPECT_NE(frames.output.find("\"name\":\"child_dp::model_1::lower_link\""), std::string::npos) << frames.output;

  const std::string world = test::vendored("sdformat/test/sdf/world_include_with_interface_api.sdf");
  auto check = test::run("INTERLINK_PLUGIN_PATH=" + sampleBuild + " INTERLINK_RESOURCE_PATH=" +
                         test::vendored("sdformat/test/integration/model") + " " + cli + " check " + world);
  EXPECT_EQ(check.exitCode, 0) << check.output;
  fs::remove_all(install.work);
}

/// The whole path of a plugin author and a vendor: install Interlink, build both samples with
/// interlink_add_plugin() / interlink_add_hardware_plugin(), install them into Interlink's plugin
/// directory (INTERLINK_PLUGIN_INSTALL_DIR), then move the whole prefix: everything still works.
TEST(Install, SamplesInstallIntoTheInterlinkPrefixWhichIsRelocatable) {
  const test::TemporaryInstall install("interlink-install-samples");
  ASSERT_EQ(install.installation.exitCode, 0) << install.installation.output;
  const std::string& work = install.work;
  const std::string& prefix = install.prefix;
  const std::string cmake = CMAKE_COMMAND;
  const std::string env = "env -u INTERLINK_PLUGIN_PATH XDG_CACHE_HOME=" + work + "/cache ";

  // The package names the plugin directory; the helpers come with it.
  const std::string config = test::readFile(prefix + "/lib/cmake/Interlink/InterlinkConfig.cmake");
  EXPECT_NE(config.find("set(INTERLINK_PLUGIN_INSTALL_DIR \"${PACKAGE_PREFIX_DIR}/lib/interlink/plugins\")"), std::string::npos)
      << config;
  // Licence, change log, docs and the man page are installed.
  for (const char* file : {"/share/doc/Interlink/LICENSE", "/share/doc/Interlink/CHANGELOG.md",
                           "/share/doc/Interlink/docs/getting-started.md", "/share/doc/Interlink/samples/hardware_plugin/CMakeLists.txt",
                           "/share/man/man1/interlink.1"}) {
    EXPECT_TRUE(fs::exists(prefix + file)) << file;
  }
  EXPECT_NE(test::readFile(prefix + "/share/doc/Interlink/LICENSE").find("Apache License"), std::string::npos);
  if (test::run("command -v man").exitCode == 0) {
    auto man = test::run("MANWIDTH=100 man -l " + prefix + "/share/man/man1/interlink.1 | cat");
    EXPECT_EQ(man.exitCode, 0) << man.output;
    EXPECT_NE(man.output.find("--format"), std::string::npos) << man.output;
  }

  for (const char* sample : {"toml_plugin", "hardware_plugin"}) {
    const std::string build = work + "/build-" + sample;
    auto built = install.build(test::sourceDir() + "/samples/" + sample, build);
    ASSERT_EQ(built.exitCode, 0) << built.output;
    auto installed = test::run(cmake + " --install " + build);
    ASSERT_EQ(installed.exitCode, 0) << installed.output;
  }
  EXPECT_TRUE(fs::exists(prefix + "/lib/interlink/plugins/libinterlink_plugin_toml.so"));
  EXPECT_TRUE(fs::exists(prefix + "/lib/interlink/plugins/libinterlink_hardware_lumen.so"));
  // Discovery examines libraries it does not know with the scanner beside the core library.
  EXPECT_TRUE(fs::exists(prefix + "/lib/interlink/interlink-plugin-scanner"));

  // Move the prefix: the CLI, its plugins and pkg-config follow.
  const std::string moved = work + "/moved";
  fs::rename(prefix, moved);
  const std::string cli = env + moved + "/bin/interlink";
  auto hardware = test::run(cli + " hardware");
  EXPECT_EQ(hardware.exitCode, 0) << hardware.output;
  EXPECT_NE(hardware.output.find("lumen: Lumen Robotics (sample)"), std::string::npos) << hardware.output;
  EXPECT_NE(hardware.output.find("L-20"), std::string::npos) << hardware.output;
  auto plugins = test::run(cli + " plugins");
  EXPECT_NE(plugins.output.find("toml_sample 1.0.0  format  .toml"), std::string::npos) << plugins.output;
  EXPECT_EQ(plugins.output.find("refused"), std::string::npos) << plugins.output;
  const std::string model = test::vendored("sdformat/test/integration/model/double_pendulum.toml");
  auto frames = test::run(cli + " frames --json " + model);
  EXPECT_EQ(frames.exitCode, 0) << frames.output;

  auto pkg = test::run("PKG_CONFIG_PATH=" + moved + "/lib/pkgconfig pkg-config --cflags --libs --variable=plugindir interlink");
  EXPECT_EQ(pkg.exitCode, 0) << pkg.output;
  auto cflags = test::run("PKG_CONFIG_PATH=" + moved + "/lib/pkgconfig pkg-config --cflags interlink");
  EXPECT_NE(cflags.output.find("-I" + moved + "/lib/pkgconfig/../../include"), std::string::npos) << cflags.output;
  auto plugindir = test::run("PKG_CONFIG_PATH=" + moved + "/lib/pkgconfig pkg-config --variable=plugindir interlink");
  EXPECT_TRUE(fs::equivalent(fs::path(plugindir.output.substr(0, plugindir.output.find('\n'))), moved + "/lib/interlink/plugins"))
      << plugindir.output;
  fs::remove_all(work);
}

}  // namespace
}  // namespace interlink
