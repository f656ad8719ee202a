// Drop-in hardware: a fictional ACME plugin (built separately, never linked) copied into a
// temporary plugin directory makes <actuator type="ACME-7"/> load, with no rebuild of anything.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/hardware/DofBindings.hpp"
#include "interlink/hardware/DriverGroup.hpp"
#include "interlink/hardware/HardwareRegistry.hpp"

namespace {

using namespace interlink;
namespace fs = std::filesystem;

class DropIn : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("interlink_dropin_" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "plugins");
    model_ = (dir_ / "acme.hrdf").string();
    std::ofstream(model_) << "<robot version=\"1.6.0\">\n  <actuator type=\"ACME-7\" tag=\"wrist\"/>\n"
                             "  <end-effector type=\"ACMEGripper\"/>\n</robot>\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  void installAcme() {
    fs::copy_file(ACME_PLUGIN_FILE, dir_ / "plugins" / fs::path(ACME_PLUGIN_FILE).filename(),
                  fs::copy_options::overwrite_existing);
  }
  fs::path dir_;
  std::string model_;
};

TEST_F(DropIn, UnknownWithoutThePlugin) {
  Loader loader;
  const auto result = loader.loadFile(model_);
  EXPECT_FALSE(result.ok());
  ASSERT_TRUE(result.diagnostics.contains(ErrorCode::HARDWARE_UNKNOWN)) << test::dump(result.diagnostics);
  const auto& d = *std::find_if(result.diagnostics.begin(), result.diagnostics.end(),
                                [](const Diagnostic& x) { return x.code == ErrorCode::HARDWARE_UNKNOWN; });
  EXPECT_NE(d.message.find("ACME-7"), std::string::npos);
  EXPECT_NE(d.message.find("hebi_x"), std::string::npos) << d.message;  // names the known families
  EXPECT_EQ(d.where.line, 2);
  EXPECT_EQ(d.where.column, 19);
}

TEST_F(DropIn, LoadsOnceThePluginIsInThePluginPath) {
  installAcme();
  Loader loader;
  loader.plugins().addDirectory((dir_ / "plugins").string());
  loader.plugins().discover();
  const auto result = loader.loadFile(model_);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const Model& model = *result.document.model;
  const auto wrist = std::find_if(model.links.begin(), model.links.end(), [](const Link& l) { return l.name == "wrist"; });
  ASSERT_NE(wrist, model.links.end());
  EXPECT_DOUBLE_EQ(wrist->inertial.mass, 0.7);
  ASSERT_EQ(result.kinematics.dofs().size(), 1u);
  const auto joint = std::find_if(model.joints.begin(), model.joints.end(), [](const Joint& j) { return j.name == "wrist/joint"; });
  ASSERT_NE(joint, model.joints.end());
  EXPECT_EQ(joint->actuator, "ACME-7");
  EXPECT_DOUBLE_EQ(joint->axes.at(0).upper, 1.5);  // limits from the plugin's catalog
  EXPECT_DOUBLE_EQ(joint->axes.at(0).velocity, 2.0);
  const auto ee = result.graph.pose("end_effector_1/output", result.graph.rootName());
  ASSERT_TRUE(ee);
  EXPECT_TRUE(ee->translation().isApprox(Vector3(0, 0, 0.19)));

  // Its own interface type: an X-series link does not mate with it.
  std::ofstream(dir_ / "mismatch.hrdf") << R"X(<robot version="1.6.0"><actuator type="ACME-7"/><link type="X5" extension="0.3" twist="0"/></robot>)X";
  const auto mismatch = loader.loadFile((dir_ / "mismatch.hrdf").string());
  EXPECT_TRUE(mismatch.diagnostics.contains(ErrorCode::INTERFACE_MISMATCH)) << test::dump(mismatch.diagnostics);

  // Its driver backend, with the catalog's limits: velocity 2 rad/s, position within ±1.5.
  const auto registry = hardware::HardwareRegistry::fromPlugins(loader.plugins());
  Diagnostics d;
  auto group = hardware::DriverGroup::open(registry, hardware::bindDofs(result.document, result.graph, result.kinematics, d), d);
  ASSERT_TRUE(group) << test::dump(d);
  ASSERT_TRUE(group->commandPositions({3.0}, d));
  group->advance(0.1);
  EXPECT_NEAR(group->feedback()[0].velocity, 2.0, 1e-9);  // clamped to the limit
  EXPECT_NEAR(group->positions()[0], 0.2, 1e-9);
  for (int i = 0; i < 100; ++i) group->advance(0.05);
  EXPECT_NEAR(group->positions()[0], 1.5, 1e-9);  // held at the upper limit
  EXPECT_NE(hardware::formatHardwareListing(registry).find("acme: ACME robotics"), std::string::npos);
}

TEST_F(DropIn, LoadsThroughTheEnvironmentPluginPath) {
  installAcme();
  ::setenv("INTERLINK_PLUGIN_PATH", (dir_ / "plugins").string().c_str(), 1);
  Loader loader;
  const auto result = loader.loadFile(model_);
  ::unsetenv("INTERLINK_PLUGIN_PATH");
  EXPECT_TRUE(result.ok()) << test::dump(result.diagnostics);
}

// A hardware plugin built against other catalog headers is refused when plugins are discovered,
// and `interlink plugins` lists it with the reason; format plugins never see its catalog.
TEST_F(DropIn, StaleCatalogPluginIsRefusedAtDiscovery) {
  fs::copy_file(STALE_CATALOG_PLUGIN_FILE, dir_ / "plugins" / fs::path(STALE_CATALOG_PLUGIN_FILE).filename(),
                fs::copy_options::overwrite_existing);
  Loader loader;
  loader.plugins().addDirectory((dir_ / "plugins").string());
  loader.plugins().discover();
  const auto& refused = loader.plugins().refused();
  const auto stale = std::find_if(refused.begin(), refused.end(),
                                  [](const RefusedLibrary& r) { return r.path.find("stale") != std::string::npos; });
  ASSERT_NE(stale, refused.end());
  EXPECT_EQ(stale->reason.code, ErrorCode::PLUGIN_REFUSED);
  EXPECT_NE(stale->reason.message.find("catalog"), std::string::npos) << stale->reason.message;
  EXPECT_FALSE(loader.plugins().findByName("stale_catalog"));
  for (const auto& item : loader.hardware().items()) EXPECT_NE(item.plugin, "stale_catalog");

  const auto listing = test::run("INTERLINK_PLUGIN_PATH='" + (dir_ / "plugins").string() + "' '" + test::cliPath() +
                                 "' plugins 2>&1");
  EXPECT_NE(listing.output.find("stale"), std::string::npos) << listing.output;
  EXPECT_NE(listing.output.find("catalog fingerprint mismatch"), std::string::npos) << listing.output;
}

}  // namespace
