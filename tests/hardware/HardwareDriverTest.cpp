// Simulated driver backends of the HEBI plugins, and binding the DOFs of a loaded HRDF model to
// drivers as one group.
#include <cmath>

#include <gtest/gtest.h>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/hardware/DofBindings.hpp"
#include "interlink/hardware/DriverGroup.hpp"
#include "interlink/hardware/HardwareRegistry.hpp"

namespace {

using namespace interlink;
using namespace interlink::hardware;

TEST(Drivers, SimulatedActuatorFollowsAFirstOrderResponse) {
  Loader loader;
  const auto registry = HardwareRegistry::fromPlugins(loader.plugins());
  Diagnostics d;
  auto driver = registry.openDriver("X5-4", "sim://shoulder", d);
  ASSERT_TRUE(driver) << test::dump(d);
  EXPECT_EQ(driver->type(), "X5-4");
  EXPECT_EQ(driver->address(), "sim://shoulder");
  ActuatorCommand command;
  command.position = 1.0;
  ASSERT_TRUE(driver->command(command));
  driver->advance(0.05);  // one time constant: 1 - e^-1 of the way
  EXPECT_NEAR(driver->feedback().position, 1 - std::exp(-1.0), 1e-9);
  for (int i = 0; i < 100; ++i) driver->advance(0.01);
  EXPECT_NEAR(driver->feedback().position, 1.0, 1e-6);
  EXPECT_NEAR(driver->feedback().time, 1.05, 1e-9);
  // A command with nothing set or a non-finite value is refused.
  EXPECT_FALSE(driver->command(ActuatorCommand{}));
  EXPECT_FALSE(driver->lastError().empty());
  command.position = INFINITY;
  EXPECT_FALSE(driver->command(command));
}

TEST(Drivers, OpenFailuresAreReported) {
  Loader loader;
  const auto registry = HardwareRegistry::fromPlugins(loader.plugins());
  Diagnostics d;
  EXPECT_FALSE(registry.openDriver("X5-4", "hebi://arm/shoulder", d));  // no network backend here
  EXPECT_TRUE(d.contains(ErrorCode::URI_INVALID)) << test::dump(d);
  Diagnostics unknown;
  EXPECT_FALSE(registry.openDriver("Q9-1", "sim://x", unknown));
  EXPECT_TRUE(unknown.contains(ErrorCode::HARDWARE_UNKNOWN));
  EXPECT_NE(unknown.items().at(0).message.find("hebi_x"), std::string::npos);
}

TEST(Drivers, DofsOfALoadedModelAsOneGroup) {
  Loader loader;
  const auto result = loader.loadFile(test::vendored("hrdf/hebi-hrdf/A-2085-06G.hrdf"));
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const auto registry = HardwareRegistry::fromPlugins(loader.plugins());
  Diagnostics d;
  const auto bindings = bindDofs(result.document, result.graph, result.kinematics, d);
  ASSERT_EQ(bindings.size(), 6u) << test::dump(d);
  EXPECT_EQ(bindings[0].actuatorType, "X8-9");
  EXPECT_EQ(bindings[1].actuatorType, "X8-16");
  EXPECT_EQ(bindings[5].actuatorType, "X5-1");
  EXPECT_EQ(bindings[0].address, "sim://" + bindings[0].dof);
  auto group = DriverGroup::open(registry, bindings, d);
  ASSERT_TRUE(group) << test::dump(d);
  ASSERT_EQ(group->size(), 6u);
  const std::vector<double> target = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  ASSERT_TRUE(group->commandPositions(target, d));
  for (int i = 0; i < 200; ++i) group->advance(0.01);
  const auto q = group->positions();
  for (std::size_t i = 0; i < q.size(); ++i) EXPECT_NEAR(q[i], target[i], 1e-6);
  // The group's feedback drives forward kinematics of the same model.
  Diagnostics fk;
  EXPECT_TRUE(result.kinematics.framePoses(q, fk)) << test::dump(fk);
  EXPECT_FALSE(group->commandPositions({0.1}, d));  // wrong size
  EXPECT_TRUE(d.contains(ErrorCode::KINEMATICS_INVALID));
}

TEST(Drivers, ADofWithoutAnActuatorIsReported) {
  Loader loader;
  const std::string path = test::binaryDir() + "/hardware_joint_only.hrdf";
  {
    FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_TRUE(f);
    std::fputs("<robot version=\"1.2.0\"><rigid-body mass=\"1\"/><joint axis=\"rz\"/></robot>", f);
    std::fclose(f);
  }
  const auto result = loader.loadFile(path);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  Diagnostics d;
  EXPECT_TRUE(bindDofs(result.document, result.graph, result.kinematics, d).empty());
  EXPECT_TRUE(d.contains(ErrorCode::HARDWARE_UNKNOWN));
}

}  // namespace
