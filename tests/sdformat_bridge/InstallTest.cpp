// A libsdformat host builds against the install alone with
// find_package(Interlink COMPONENTS sdformat_bridge) and reads a world that includes HRDF,
// SKEL, Shift and Juice files.
#include <gtest/gtest.h>

#include <fstream>

#include <boost/filesystem.hpp>

#include "InstallSupport.hpp"

namespace interlink {
namespace {

namespace fs = boost::filesystem;

TEST(SdformatBridgeInstall, SampleHostBuildsFromTheInstallAndPrintsTheWorld) {
  const test::TemporaryInstall install("interlink-bridge-install");
  ASSERT_EQ(install.installation.exitCode, 0) << install.installation.output;
  const std::string& prefix = install.prefix;
  const fs::path work = install.work;
  EXPECT_TRUE(fs::exists(prefix + "/include/interlink/sdformat/Bridge.hpp"));
  EXPECT_TRUE(fs::exists(prefix + "/lib/cmake/Interlink/InterlinkSdformatBridgeTargets.cmake"));

  const std::string build = (work / "host-build").string();
  auto compile = install.build(test::sourceDir() + "/samples/sdformat_host", build);
  ASSERT_EQ(compile.exitCode, 0) << compile.output;
  ASSERT_TRUE(fs::exists(build + "/sdformat_host"));

  // The host finds the installed plugins beside the installed Interlink library.
  const std::string world = test::sourceDir() + "/tests/data/sdformat_bridge/workcell.sdf";
  auto run = test::run(build + "/sdformat_host " + world + " -I " + DART_DATA_DIR + " -I " + test::sourceDir() +
                       "/tests/data");
  EXPECT_EQ(run.exitCode, 0) << run.output;
  for (const char* expected : {"# Interlink formats:", " hrdf", "cell::arm::end_effector_1  link", "chain::link 2  link",
                               "pendulum::link1  link", "bug::Left Foot_86218232  link", "cell::gripper::palm  link",
                               "table  frame  1 2 0.75"}) {
    EXPECT_NE(run.output.find(expected), std::string::npos) << expected << "\n" << run.output;
  }

  // A world including a file of no Interlink format still fails, with the reason.
  const std::string odd = (work / "thing.xyz").string();
  std::ofstream(odd) << "<model/>\n";
  const std::string badWorld = (work / "bad.sdf").string();
  std::ofstream(badWorld) << "<sdf version=\"1.9\"><world name=\"w\"><include><uri>" << odd << "</uri></include></world></sdf>\n";
  auto bad = test::run(build + "/sdformat_host " + badWorld);
  EXPECT_EQ(bad.exitCode, 1) << bad.output;
  EXPECT_NE(bad.output.find("no custom model parser claims '.xyz'"), std::string::npos) << bad.output;
  fs::remove_all(work);
}

}  // namespace
}  // namespace interlink
