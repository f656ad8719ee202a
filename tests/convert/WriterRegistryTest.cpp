// The one writer registry (CLI, Python, C++): lookup by name and extension, and checked writes
// that leave nothing behind when the output does not read back.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "SharedLoader.hpp"
#include "TestSupport.hpp"
#include "interlink/convert/WriterRegistry.hpp"

namespace interlink::convert {
namespace {

namespace fs = std::filesystem;

using test::sharedLoader;

std::string tempDir() {
  static const std::string dir = test::makeTempDir("interlink-writer-registry");
  return dir;
}

const std::string kDemoArm = test::sourceDir() + "/tests/urdf/data/demo_arm.urdf";
const std::string kPackages = test::sourceDir() + "/tests/urdf/data/packages";

LoadOptions withPackages() {
  LoadOptions options;
  options.resourcePaths = {kPackages};
  return options;
}

/// Files in `dir` whose name starts with `prefix` (the temporary files a write may leave).
std::vector<std::string> filesStartingWith(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0) found.push_back(name);
  }
  return found;
}

TEST(WriterRegistry, FindsWritersByNameAndExtensionInAnyCase) {
  const WriterRegistry& writers = WriterRegistry::builtIn();
  for (const char* name : {"sdformat", "urdf", "mjcf", "json", "dot"}) {
    const auto* writer = writers.find(name);
    ASSERT_NE(writer, nullptr) << name;
    EXPECT_EQ(writer->name, name);
  }
  EXPECT_EQ(writers.find("SDF")->name, "sdformat");
  EXPECT_EQ(writers.find(".urdf")->name, "urdf");
  EXPECT_EQ(writers.find("xml")->name, "mjcf");
  EXPECT_EQ(writers.find("obj"), nullptr);
  EXPECT_EQ(writers.find(""), nullptr);
  EXPECT_EQ(writers.forPath("/a/b/robot.MJCF")->name, "mjcf");
  EXPECT_EQ(writers.forPath("out.sdf")->name, "sdformat");
  EXPECT_EQ(writers.forPath("dir.sdf/out"), nullptr);
  EXPECT_EQ(writers.forPath("sdf"), nullptr);
  EXPECT_NE(writers.describe().find("mjcf (.mjcf, .xml)"), std::string::npos) << writers.describe();
  const std::vector<std::string> names = writers.names();
  EXPECT_NE(std::find(names.begin(), names.end(), "mjcf"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "urdf"), names.end());
  EXPECT_EQ(writers.find("dot")->readerPlugin, "");
  EXPECT_EQ(meshUriStyleNamed("as-written"), MeshUriStyle::AsWritten);
  EXPECT_EQ(meshUriStyleNamed("Absolute"), std::nullopt);
}

TEST(WriterRegistry, WritesEveryReadableFormatCheckedAndLeavesNoTemporaryFile) {
  const LoadResult loaded = sharedLoader().loadFile(kDemoArm, withPackages());
  ASSERT_TRUE(loaded.ok());
  const WriterRegistry& writers = WriterRegistry::builtIn();
  for (const auto& writer : writers.writers()) {
    if (writer.name == "mjcf") continue;  // demo_arm's planar joint and DAE meshes: tests/mjcf
    const std::string path = tempDir() + "/demo_arm" + writer.extensions.front();
    Diagnostics diagnostics;
    EXPECT_TRUE(writers.writeFile(writer, loaded, path, {}, sharedLoader(), withPackages(), diagnostics))
        << writer.name << ": " << (diagnostics.empty() ? "" : diagnostics.items().front().message);
    EXPECT_TRUE(fs::exists(path)) << path;
  }
  EXPECT_TRUE(filesStartingWith(tempDir(), ".demo_arm").empty());
}

TEST(WriterRegistry, OutputThatDoesNotReadBackLeavesNothingAndKeepsAnOlderFile) {
  const LoadResult loaded = sharedLoader().loadFile(kDemoArm, withPackages());
  ASSERT_TRUE(loaded.ok());
  WriterRegistry writers;
  // A writer whose output libsdformat and Interlink refuse: two links of one name.
  writers.add({"sdformat", {".sdf"}, "broken", "sdformat",
               [](const LoadResult&, const WriteOptions&, Diagnostics&) -> std::optional<std::string> {
                 return std::string("<sdf version=\"1.9\"><model name=\"m\"><link name=\"a\"/><link name=\"a\"/>"
                                    "</model></sdf>\n");
               }});
  const std::string fresh = tempDir() + "/fresh.sdf";
  Diagnostics diagnostics;
  EXPECT_FALSE(writers.writeFile(*writers.find("sdformat"), loaded, fresh, {}, sharedLoader(), {}, diagnostics));
  EXPECT_TRUE(diagnostics.contains(ErrorCode::DUPLICATE_NAME));
  EXPECT_NE(diagnostics.items().front().message.find("does not read back"), std::string::npos);
  EXPECT_FALSE(fs::exists(fresh));

  const std::string older = tempDir() + "/older.sdf";
  std::ofstream(older) << "kept";
  Diagnostics again;
  EXPECT_FALSE(writers.writeFile(*writers.find("sdformat"), loaded, older, {}, sharedLoader(), {}, again));
  EXPECT_EQ(test::readFile(older), "kept");
  EXPECT_TRUE(filesStartingWith(tempDir(), ".fresh").empty());
  EXPECT_TRUE(filesStartingWith(tempDir(), ".older").empty());
}

TEST(WriterRegistry, AnUnwritableDirectoryIsAnErrorNotACrash) {
  const LoadResult loaded = sharedLoader().loadFile(kDemoArm, withPackages());
  ASSERT_TRUE(loaded.ok());
  const WriterRegistry& writers = WriterRegistry::builtIn();
  Diagnostics diagnostics;
  EXPECT_FALSE(writers.writeFile(*writers.find("urdf"), loaded, "/nonexistent-dir/x.urdf", {}, sharedLoader(),
                                 withPackages(), diagnostics));
  EXPECT_TRUE(diagnostics.hasErrors());
}

}  // namespace
}  // namespace interlink::convert
