// MuJoCo Menagerie robots (tests/data/menagerie, see its README) against MuJoCo 2.2.2. Only the
// model XML is kept; every mesh and texture it names is generated here as a small placeholder of
// the same file name (a skewed box per mesh, sized from its name; a 1x1 PNG per texture). Body and
// site frames do not depend on mesh shapes; where a body's mass comes from its meshes (the
// Allegro hand), MuJoCo and Interlink both weigh the same placeholder, which tests mesh inertia.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <string>

#include "ModelStaging.hpp"
#include "MujocoOracle.hpp"
#include "TestSupport.hpp"

namespace interlink {
namespace {

namespace fs = std::filesystem;

const std::string kMenagerie = test::sourceDir() + "/tests/data/menagerie";

/// Copies the model into `dir` and writes a placeholder for every mesh and texture file it names
/// (resolved against <compiler meshdir/texturedir> as MuJoCo does). Returns the copied model's path.
std::string stage(const fs::path& model, const fs::path& dir, int& placeholders) {
  fs::create_directories(dir);
  const fs::path copy = dir / model.filename();
  fs::copy_file(model, copy, fs::copy_options::overwrite_existing);
  placeholders += test::writePlaceholders(copy, {copy});
  return copy.string();
}

TEST(MjcfMenagerie, EveryRobotAgreesWithMujoco) {
  std::vector<fs::path> models;
  for (const auto& entry : fs::recursive_directory_iterator(kMenagerie)) {
    if (entry.is_regular_file() && entry.path().extension() == ".xml") models.push_back(entry.path());
  }
  std::sort(models.begin(), models.end());
  ASSERT_GE(models.size(), 4u) << "the Menagerie models are missing from " << kMenagerie;
  const std::string dir = test::makeTempDir("interlink-menagerie");
  ASSERT_FALSE(dir.empty());
  Loader loader;
  int robots = 0, placeholders = 0, frames = 0, configurations = 0, bodies = 0, meshBodies = 0;
  for (const fs::path& model : models) {
    const std::string robot = model.parent_path().filename().string();
    SCOPED_TRACE(robot);
    const std::string path = stage(model, fs::path(dir) / robot, placeholders);
    std::string error;
    test::MujocoModel reference = test::loadMujoco(path, error);
    ASSERT_TRUE(reference) << "MuJoCo 2.2.2 refuses " << robot << ": " << error;
    LoadResult loaded = loader.loadFile(path);
    if (!loaded.ok()) {
      ADD_FAILURE() << "MuJoCo loads it, Interlink refuses it:\n" << test::dump(loaded.diagnostics);
      continue;
    }
    test::MujocoDifferential differential(reference.get(), loaded);
    const test::Comparison result = differential.compare(8, 1e-9);
    for (const std::string& failure : result.failures) ADD_FAILURE() << failure;
    EXPECT_EQ(result.bodiesWeighed, reference->nbody - 1);
    ++robots;
    frames += result.framesCompared;
    configurations += result.configurations;
    bodies += result.bodiesWeighed;
    meshBodies += result.meshBodiesWeighed;
  }
  std::cout << "[menagerie] " << robots << " robots agree with MuJoCo 2.2.2: " << frames << " body/site poses over "
            << configurations << " configurations, " << bodies << " bodies weighed (" << meshBodies
            << " with mesh geoms); " << placeholders << " placeholder assets\n";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace interlink
