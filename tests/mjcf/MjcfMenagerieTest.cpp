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

#include "MeshFiles.hpp"
#include "MujocoOracle.hpp"
#include "TestSupport.hpp"

namespace interlink {
namespace {

namespace fs = std::filesystem;

const std::string kMenagerie = test::sourceDir() + "/tests/data/menagerie";

/// The smallest valid PNG (one transparent RGBA pixel): MuJoCo decodes every texture it names.
void writePng(const std::string& path) {
  static const unsigned char png[] = {
      0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00,
      0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00,
      0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01,
      0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82};
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(png), sizeof png);
}

/// A placeholder mesh of a few centimetres whose proportions and skew follow its file name, so
/// that different parts weigh differently and have distinct principal axes.
test::TriangleMesh placeholderMesh(const std::string& name) {
  unsigned h = 2166136261u;
  for (unsigned char c : name) h = (h ^ c) * 16777619u;
  const Vector3 half(0.01 + 0.002 * (h % 7), 0.012 + 0.002 * ((h / 7) % 5), 0.015 + 0.003 * ((h / 35) % 4));
  return test::skewedBox(half, 0.002 + 0.001 * ((h / 140) % 3));
}

std::string readText(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Copies the model into `dir` and writes a placeholder for every mesh and texture file it names
/// (resolved against <compiler meshdir/texturedir> as MuJoCo does). Returns the copied model's path.
std::string stage(const fs::path& model, const fs::path& dir, int& placeholders) {
  const std::string text = readText(model.string());
  std::smatch match;
  std::string meshDir, textureDir;
  if (std::regex_search(text, match, std::regex("meshdir=\"([^\"]*)\""))) meshDir = match[1];
  if (std::regex_search(text, match, std::regex("texturedir=\"([^\"]*)\""))) textureDir = match[1];
  fs::create_directories(dir);
  const std::regex asset("<(mesh|texture|hfield)\\b[^>]*\\bfile=\"([^\"]+)\"");
  std::set<fs::path> written;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), asset); it != std::sregex_iterator(); ++it) {
    const std::string kind = (*it)[1], file = (*it)[2];
    const fs::path path = dir / (kind == "texture" ? textureDir : meshDir) / file;
    if (!written.insert(path).second) continue;
    fs::create_directories(path.parent_path());
    const std::string ext = path.extension().string();
    if (ext == ".png") {
      writePng(path.string());
    } else if (ext == ".obj") {
      test::writeObj(path.string(), placeholderMesh(file));
    } else {
      test::writeBinaryStl(path.string(), placeholderMesh(file));
    }
    ++placeholders;
  }
  const fs::path copy = dir / model.filename();
  fs::copy_file(model, copy, fs::copy_options::overwrite_existing);
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
