// A third party builds and uses a format plugin from the install alone.
#include <gtest/gtest.h>

#include <boost/filesystem.hpp>

#include "TestSupport.hpp"

namespace interlink {
namespace {

namespace fs = boost::filesystem;

TEST(Install, ThirdPartyPluginBuildsAgainstTheInstallAndLoads) {
  const fs::path work = fs::temp_directory_path() / fs::unique_path("interlink-install-%%%%%%");
  const std::string prefix = (work / "prefix").string();
  const std::string cmake = CMAKE_COMMAND;

  auto install = test::run(cmake + " --install " + std::string(INTERLINK_BINARY_DIR) + " --prefix " + prefix);
  ASSERT_EQ(install.exitCode, 0) << install.output;
  EXPECT_TRUE(fs::exists(prefix + "/lib/cmake/Interlink/InterlinkConfig.cmake"));
  EXPECT_TRUE(fs::exists(prefix + "/lib/cmake/Interlink/InterlinkTargets.cmake"));
  EXPECT_TRUE(fs::exists(prefix + "/lib/pkgconfig/interlink.pc"));
  EXPECT_TRUE(fs::exists(prefix + "/include/interlink/plugin/Register.hpp"));

  auto pkg = test::run("PKG_CONFIG_PATH=" + prefix + "/lib/pkgconfig pkg-config --cflags --libs interlink");
  EXPECT_EQ(pkg.exitCode, 0) << pkg.output;
  EXPECT_NE(pkg.output.find("-linterlink"), std::string::npos) << pkg.output;

  const std::string sampleBuild = (work / "sample-build").string();
  auto configure = test::run(cmake + " -S " + test::sourceDir() + "/samples/toml_plugin -B " + sampleBuild +
                             " -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=" + prefix);
  ASSERT_EQ(configure.exitCode, 0) << configure.output;
  auto build = test::run(cmake + " --build " + sampleBuild);
  ASSERT_EQ(build.exitCode, 0) << build.output;
  ASSERT_TRUE(fs::exists(sampleBuild + "/libinterlink_plugin_toml.so"));

  // The installed CLI finds its own plugins beside its library, and the new one through the path.
  const std::string cli = prefix + "/bin/interlink";
  auto plugins = test::run("INTERLINK_PLUGIN_PATH=" + sampleBuild + " " + cli + " plugins");
  EXPECT_EQ(plugins.exitCode, 0) << plugins.output;
  EXPECT_NE(plugins.output.find("toml_sample 1.0.0  format  .toml"), std::string::npos) << plugins.output;
  EXPECT_NE(plugins.output.find("sdformat"), std::string::npos) << plugins.output;
  EXPECT_EQ(plugins.output.find("refused"), std::string::npos) << plugins.output;

  const std::string model = test::corpus("sdformat/test/integration/model/double_pendulum.toml");
  auto frames = test::run("INTERLINK_PLUGIN_PATH=" + sampleBuild + " " + cli + " frames " + model + " --json");
  EXPECT_EQ(frames.exitCode, 0) << frames.output;
  EXPECT_NE(frames.output.find("\"name\":\"child_dp::model_1::lower_link\""), std::string::npos) << frames.output;

  const std::string world = test::corpus("sdformat/test/sdf/world_include_with_interface_api.sdf");
  auto check = test::run("INTERLINK_PLUGIN_PATH=" + sampleBuild + " INTERLINK_RESOURCE_PATH=" +
                         test::corpus("sdformat/test/integration/model") + " " + cli + " check " + world);
  EXPECT_EQ(check.exitCode, 0) << check.output;
  fs::remove_all(work);
}

}  // namespace
}  // namespace interlink
