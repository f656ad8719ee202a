// The plugin loader and registry against real shared libraries, good and broken.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <fstream>

#include <boost/filesystem.hpp>

#include "Scratch.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "plugins/GoodSummary.hpp"

namespace interlink {
namespace {

namespace fs = boost::filesystem;

const std::string kRoot = TEST_PLUGIN_ROOT;

class PluginSystem : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& content) { return scratch_.write(name, content); }

  test::Scratch scratch_;
  const fs::path dir_{scratch_.dir().string()};
};

const RefusedLibrary* refusedNamed(const PluginRegistry& registry, const std::string& fragment) {
  for (const auto& r : registry.refused()) {
    if (r.path.find(fragment) != std::string::npos) return &r;
  }
  return nullptr;
}

TEST_F(PluginSystem, BrokenLibrariesAreRefusedWithAReasonAndTheRestLoad) {
  Loader loader(false);
  loader.plugins().discoverDirectory(kRoot + "/broken");
  const auto& registry = loader.plugins();

  const auto* api = refusedNamed(registry, "bad_api");
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->reason.code, ErrorCode::PLUGIN_REFUSED);
  EXPECT_NE(api->reason.message.find("API version"), std::string::npos) << api->reason.message;

  const auto* size = refusedNamed(registry, "bad_size");
  ASSERT_NE(size, nullptr);
  EXPECT_NE(size->reason.message.find("size"), std::string::npos) << size->reason.message;

  const auto* abi = refusedNamed(registry, "bad_abi");
  ASSERT_NE(abi, nullptr);
  EXPECT_NE(abi->reason.message.find("fingerprint"), std::string::npos) << abi->reason.message;

  const auto* noExtension = refusedNamed(registry, "no_extension");
  ASSERT_NE(noExtension, nullptr);
  EXPECT_NE(noExtension->reason.message.find("no file extension"), std::string::npos) << noExtension->reason.message;

  const auto* noEntry = refusedNamed(registry, "no_entry");
  ASSERT_NE(noEntry, nullptr);
  EXPECT_NE(noEntry->reason.message.find("entry point"), std::string::npos) << noEntry->reason.message;

  EXPECT_TRUE(registry.findByName("thrower"));
  EXPECT_TRUE(registry.findByName("raw_thrower"));
  EXPECT_TRUE(registry.findByName("partial"));
  EXPECT_EQ(registry.plugins().size(), 3u);
  EXPECT_EQ(registry.refused().size(), 5u);
}

TEST_F(PluginSystem, NonLibraryFilesInAPluginDirectoryAreRefusedNotSkipped) {
  write("libnot_a_plugin.so", "this is text, not ELF");
  Loader loader(false);
  loader.plugins().discoverDirectory(dir_.string());
  ASSERT_EQ(loader.plugins().refused().size(), 1u);
  EXPECT_EQ(loader.plugins().refused()[0].reason.code, ErrorCode::PLUGIN_LOAD);
}

TEST_F(PluginSystem, ExceptionsNeverCrossThePluginBoundary) {
  Loader loader(false);
  loader.plugins().discoverDirectory(kRoot + "/broken");
  loader.plugins().discoverDirectory(kRoot + "/good");

  auto thrown = loader.loadFile(write("a.throw", "anything"));
  ASSERT_TRUE(thrown.diagnostics.contains(ErrorCode::PLUGIN_EXCEPTION)) << test::dump(thrown.diagnostics);
  EXPECT_NE(test::dump(thrown.diagnostics).find("thrower"), std::string::npos);
  EXPECT_NE(test::dump(thrown.diagnostics).find("boom from the plugin"), std::string::npos);

  auto raw = loader.loadFile(write("b.rawthrow", "anything"));
  ASSERT_TRUE(raw.diagnostics.contains(ErrorCode::PLUGIN_EXCEPTION)) << test::dump(raw.diagnostics);
  EXPECT_NE(test::dump(raw.diagnostics).find("raw_thrower"), std::string::npos);

  // The loader keeps working after both.
  auto good = loader.loadFile(write("c.good", "base 0 0 0\n"));
  EXPECT_TRUE(good.ok()) << test::dump(good.diagnostics);
}

TEST_F(PluginSystem, ErrorsReportedWithAModelMakeTheLoadInvalid) {
  Loader loader(false);
  loader.plugins().discoverDirectory(kRoot + "/broken");
  auto result = loader.loadFile(write("p.partial", "x"));
  EXPECT_FALSE(result.ok());
  ASSERT_TRUE(result.diagnostics.contains(ErrorCode::ELEMENT_INVALID));
  const auto& d = result.diagnostics.items().front();
  EXPECT_EQ(d.where.line, 2);
  EXPECT_EQ(d.where.column, 5);
}

TEST_F(PluginSystem, ExtensionsAreCaseInsensitiveAndSeveralPerPlugin) {
  Loader loader(false);
  loader.plugins().discoverDirectory(kRoot + "/good");
  auto upper = loader.loadFile(write("robot.GOOD", "base 1 2 3\narm 0 0 1\n"));
  ASSERT_TRUE(upper.ok()) << test::dump(upper.diagnostics);
  EXPECT_EQ(upper.document.format, "good");
  EXPECT_TRUE(upper.graph.pose("arm", "__model__"));
  auto second = loader.loadFile(write("robot.good2", "base 1 2 3\n"));
  EXPECT_TRUE(second.ok()) << test::dump(second.diagnostics);
}

TEST_F(PluginSystem, SnifferDecidesBetweenClaimantsOtherwiseTheLaterWinsWithAWarning) {
  Loader loader(false);
  loader.plugins().discoverDirectory(kRoot + "/good");
  loader.plugins().discoverDirectory(kRoot + "/rival");
  ASSERT_TRUE(loader.plugins().notices().contains(ErrorCode::EXTENSION_CONFLICT));
  auto sniffed = loader.loadFile(write("s.good", "base 0 0 0\n"));
  EXPECT_EQ(sniffed.document.format, "good");
  auto other = loader.loadFile(write("t.good", "something else entirely\n"));
  EXPECT_EQ(other.document.format, "rival");
}

TEST_F(PluginSystem, AnExpansionReachesAReaderOfTextOnlyAsText) {
  // xacro hands its expansion over as a tree to a reader that says it takes trees (the URDF
  // plugin); a reader of the same format that does not (text_only_urdf, chosen here by its surer
  // sniffer) gets the expansion written, with the xacro file's findings reported once.
  Loader loader;  // the product's plugins, xacro and URDF among them
  loader.plugins().discoverDirectory(kRoot + "/text_only_urdf");
  const std::string path = write("r.urdf.xacro", R"xml(<?xml version="1.0"?>
<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="part" value="arm"/>
  <xacro:include filename="optional_*.xacro"/>
  <link name="${part}"/>
</robot>
)xml");
  const LoadResult result = loader.loadFile(path);
  EXPECT_EQ(result.document.format, "text_only_urdf") << test::dump(result.diagnostics);
  ASSERT_TRUE(result.document.model.has_value()) << test::dump(result.diagnostics);
  ASSERT_EQ(result.document.model->links.size(), 1u);
  EXPECT_EQ(result.document.model->links[0].name, "read_arm_from_text");
  EXPECT_TRUE(result.expandedText.empty());  // not asked for
  // The warning of the include that matched no file, once, not once per expansion.
  std::size_t matchedNothing = 0;
  for (const Diagnostic& d : result.diagnostics) matchedNothing += d.message.find("matched no files") != std::string::npos;
  EXPECT_EQ(matchedNothing, 1u) << test::dump(result.diagnostics);
}

TEST_F(PluginSystem, UnclaimedExtensionNamesTheLoadedPlugins) {
  Loader loader(false);
  loader.plugins().discoverDirectory(kRoot + "/good");
  auto result = loader.loadFile(write("thing.xyz", "data"));
  ASSERT_TRUE(result.diagnostics.contains(ErrorCode::NO_PARSER)) << test::dump(result.diagnostics);
  const std::string text = test::dump(result.diagnostics);
  EXPECT_NE(text.find("no parser for '.xyz'; loaded plugins: good (.good, .good2)"), std::string::npos) << text;
}

TEST_F(PluginSystem, LibraryStaysLoadedWhileSomethingItMadeIsAlive) {
  PluginHandle handle;
  {
    Loader loader(false);
    loader.plugins().discoverDirectory(kRoot + "/good");
    handle = loader.plugins().findByName("good");
  }
  // The registry is gone; the handle still holds the library, so its code runs.
  ASSERT_TRUE(handle);
  Document document;
  Diagnostics diagnostics;
  plugin::LoadRequest request;
  request.path = "inline.good";
  request.content = "base 4 5 6\n";
  handle.load(request, document, diagnostics);
  ASSERT_TRUE(document.model);
  EXPECT_FALSE(diagnostics.hasErrors()) << test::dump(diagnostics);
}

// A model outlives the Loader that made it: its typed extension record (whose destructor is the
// plugin's code) keeps the plugin library loaded until the model is gone, and no longer.
TEST_F(PluginSystem, ModelOutlivesTheLoaderAndKeepsItsPluginLoaded) {
  std::string libraryPath;
  auto result = std::make_unique<LoadResult>();
  {
    Loader loader(false);
    loader.plugins().discoverDirectory(kRoot + "/good");
    libraryPath = loader.plugins().findByName("good").info().path;
    *result = loader.loadFile(write("k.good", "base 0 0 0\ntip 1 0 0\n"));
  }
  ASSERT_FALSE(libraryPath.empty());
  ASSERT_TRUE(result->ok()) << test::dump(result->diagnostics);
  // The Loader is destroyed; the model, its frames and its kinematics still work.
  const Model& model = *result->document.model;
  ASSERT_EQ(model.links.size(), 2u);
  const auto* summary = model.extensions.find<good::GoodSummary>();
  ASSERT_NE(summary, nullptr);
  EXPECT_EQ(summary->linkNames, (std::vector<std::string>{"base", "tip"}));
  EXPECT_EQ(summary->note, "made by the good plugin");
  EXPECT_EQ(model.source.format, "good");
  auto tip = result->graph.find("tip");
  ASSERT_TRUE(tip);
  EXPECT_NEAR(result->graph.frames()[*tip].pose.translation().x(), 1.0, 1e-12);
  Diagnostics d;
  EXPECT_TRUE(result->kinematics.framePoses(result->kinematics.zeroConfiguration(), d));
  // Only the record holds the library now; it is unloaded with the model.
  void* loaded = dlopen(libraryPath.c_str(), RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(loaded, nullptr) << "the plugin was unloaded while its record was alive";
  dlclose(loaded);
  result.reset();
  loaded = dlopen(libraryPath.c_str(), RTLD_NOW | RTLD_NOLOAD);
  EXPECT_EQ(loaded, nullptr) << "the plugin stayed loaded after the last thing it made was gone";
  if (loaded) dlclose(loaded);
}

// Records read back under the same kind id, version and layout as good::GoodSummary, or not.
struct SameAsGoodSummary {
  static constexpr ExtensionKind kExtensionKind{"good.summary", 1};
  std::vector<std::string> linkNames;
  std::string note;
};
struct NewerGoodSummary {
  static constexpr ExtensionKind kExtensionKind{"good.summary", 2};
  std::vector<std::string> linkNames;
  std::string note;
};
struct OtherLayoutGoodSummary {
  static constexpr ExtensionKind kExtensionKind{"good.summary", 1};
  int count = 0;
};

// A record read back under another kind id, version or layout is not handed out.
TEST(Extensions, FoundOnlyUnderTheSameKindVersionAndSize) {
  Extensions extensions;
  extensions.set(good::GoodSummary{{"a"}, "first"});
  extensions.set(good::GoodSummary{{"b"}, "second"});  // replaces the first
  ASSERT_EQ(extensions.size(), 1u);
  ASSERT_NE(extensions.find<good::GoodSummary>(), nullptr);
  EXPECT_EQ(extensions.find<good::GoodSummary>()->note, "second");
  EXPECT_NE(extensions.find<SameAsGoodSummary>(), nullptr);  // the same kind, version and layout
  EXPECT_EQ(extensions.find<NewerGoodSummary>(), nullptr);
  EXPECT_EQ(extensions.find<OtherLayoutGoodSummary>(), nullptr);
  ASSERT_NE(extensions.findKind("good.summary"), nullptr);
  EXPECT_EQ(extensions.findKind("good.summary")->version(), 1u);
}

}  // namespace
}  // namespace interlink

namespace interlink {
namespace {

class PluginFiles : public ::testing::Test {
 protected:
  test::Scratch scratch_;
  const boost::filesystem::path dir_{scratch_.dir().string()};
};

// A plugin file cut short (an interrupted copy) once crashed every command with SIGBUS inside
// dlopen; its ELF headers are now checked against the file size first.
TEST_F(PluginFiles, TruncatedLibraryIsRefusedBeforeDlopen) {
  const std::string good = test::readFile(kRoot + "/good/libtest_plugin_good.so");
  ASSERT_GT(good.size(), 8192u);
  for (const std::size_t keep : {std::size_t{100}, good.size() / 2, good.size() - 4096}) {
    const std::string name = "libcut" + std::to_string(keep) + ".so";
    std::ofstream((dir_ / name).string(), std::ios::binary).write(good.data(), static_cast<std::streamsize>(keep));
  }
  Loader loader(false);
  loader.plugins().discoverDirectory(dir_.string());
  EXPECT_TRUE(loader.plugins().plugins().empty());
  ASSERT_EQ(loader.plugins().refused().size(), 3u);
  for (const auto& refused : loader.plugins().refused()) {
    EXPECT_EQ(refused.reason.code, ErrorCode::PLUGIN_LOAD) << refused.path;
    EXPECT_NE(refused.reason.message.find("truncated"), std::string::npos) << refused.path << ": " << refused.reason.message;
  }
}

TEST_F(PluginFiles, NonElfFileIsNotASharedLibrary) {
  std::ofstream((dir_ / "libnotes.so").string()) << "these are notes, not a library\n";
  Loader loader(false);
  loader.plugins().discoverDirectory(dir_.string());
  ASSERT_EQ(loader.plugins().refused().size(), 1u);
  const auto& reason = loader.plugins().refused().front().reason;
  EXPECT_EQ(reason.code, ErrorCode::PLUGIN_LOAD);
  EXPECT_NE(reason.message.find("not a shared library"), std::string::npos) << reason.message;
  EXPECT_EQ(reason.message.find("Bad file descriptor"), std::string::npos) << reason.message;
}

TEST_F(PluginFiles, ConflictWarningNamesTheRealWinner) {
  Loader loader(false);
  loader.plugins().discoverDirectory(kRoot + "/good");
  loader.plugins().discoverDirectory(kRoot + "/rival");
  std::string warning;
  for (const auto& d : loader.plugins().notices()) {
    if (d.code == ErrorCode::EXTENSION_CONFLICT) warning = d.message;
  }
  // good has a sniffer, rival (loaded later) has none: good wins on what it recognises.
  EXPECT_NE(warning.find("'good' wins when its sniffer recognises the file, otherwise 'rival'"), std::string::npos)
      << warning;
}

}  // namespace
}  // namespace interlink
