// The plugin metadata cache: a cold registry learns every plugin from the plugin scanner, a warm
// one from the cache, neither opening one; the registry opens a
// plugin when a file of its format is read, notices a replaced library, and works on without a
// writable cache.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <future>

#include <boost/filesystem.hpp>

#include "Scratch.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink {
namespace {

namespace fs = boost::filesystem;

const std::string kRoot = TEST_PLUGIN_ROOT;

class PluginCacheTest : public ::testing::Test {
 protected:
  void SetUp() override { fs::create_directories(dir_ + "/plugins"); }

  /// Copies a test plugin into the private plugin directory under `name`.
  std::string install(const std::string& from, const std::string& name) {
    const std::string to = dir_ + "/plugins/" + name;
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    return to;
  }

  test::Scratch scratch_;
  const std::string dir_ = scratch_.dir().string();
  const std::string cache_ = dir_ + "/cache/plugins.cache";
};

std::string goodLibrary() { return kRoot + "/good/libtest_plugin_good.so"; }
std::string rivalLibrary() { return kRoot + "/rival/libtest_plugin_rival.so"; }

TEST_F(PluginCacheTest, WarmRegistryKnowsPluginsWithoutOpeningThem) {
  install(goodLibrary(), "libgood.so");
  install(kRoot + "/broken/libtest_plugin_bad_api.so", "libbad.so");
  {
    Loader cold(false);
    cold.plugins().setCacheFile(cache_);
    cold.plugins().discoverDirectory(dir_ + "/plugins");
    // A cache miss is examined by the plugin scanner, in its own process: not opened here.
    EXPECT_FALSE(cold.plugins().isLoaded("good"));
  }
  ASSERT_TRUE(fs::exists(cache_));
  const std::string text = test::readFile(cache_);
  EXPECT_NE(text.find("accepted\tgood\t1.2.3\tformat\tsniffer\t.good,.good2"), std::string::npos) << text;
  EXPECT_NE(text.find("refused\tPLUGIN_REFUSED\t"), std::string::npos) << text;

  Loader warm(false);
  warm.plugins().setCacheFile(cache_);
  warm.plugins().discoverDirectory(dir_ + "/plugins");
  EXPECT_FALSE(warm.plugins().isLoaded("good"));
  ASSERT_EQ(warm.plugins().available().size(), 1u);
  EXPECT_EQ(warm.plugins().available()[0].extensions, (std::vector<std::string>{".good", ".good2"}));
  EXPECT_TRUE(warm.plugins().claimsExtension("x.GOOD2"));
  EXPECT_EQ(warm.plugins().claimantsOf("x.GOOD2"), (std::vector<std::string>{"good"}));
  EXPECT_TRUE(warm.plugins().claimantsOf("x.other").empty());
  // The refusal is remembered with its reason, without reopening the library.
  ASSERT_EQ(warm.plugins().refused().size(), 1u);
  EXPECT_EQ(warm.plugins().refused()[0].reason.code, ErrorCode::PLUGIN_REFUSED);
  EXPECT_NE(warm.plugins().refused()[0].reason.message.find("API version"), std::string::npos);

  // Reading a file of its format opens it.
  const std::string model = dir_ + "/m.good";
  std::ofstream(model) << "base\n";
  auto result = warm.loadFile(model);
  EXPECT_TRUE(warm.plugins().isLoaded("good"));
  EXPECT_EQ(result.document.format, "good") << test::dump(result.diagnostics);
}

// Discovery resolves a plugin directory once and a linked library by itself: a library reached
// through a linked directory, or under a second (linked) name, is one plugin with its real path,
// cold and warm.
TEST_F(PluginCacheTest, LinkedDirectoriesAndLibrariesAreKnownByTheirRealPath) {
  fs::create_directories(dir_ + "/real");
  fs::copy_file(goodLibrary(), dir_ + "/real/libgood.so");
  fs::create_symlink("libgood.so", dir_ + "/real/libalias.so");
  fs::create_directory_symlink(dir_ + "/real", dir_ + "/linked");
  const std::string real = fs::canonical(dir_ + "/real/libgood.so").string();
  for (const char* run : {"cold", "warm"}) {
    SCOPED_TRACE(run);
    Loader loader(false);
    loader.plugins().setCacheFile(cache_);
    loader.plugins().discoverDirectory(dir_ + "/linked");
    ASSERT_EQ(loader.plugins().available().size(), 1u);
    EXPECT_EQ(loader.plugins().available()[0].path, real);
    EXPECT_TRUE(loader.plugins().refused().empty());
    EXPECT_FALSE(loader.plugins().isLoaded("good"));  // examined by the scanner when cold
  }
}

// The directory listing (getdents64, a small buffer read many times here) keeps regular files
// and links to them with a library's name, and nothing else: directories named like libraries,
// a dangling link and a link to a directory are not libraries, a library reached only through a
// link is found by its real path, and no name is lost among many other files.
TEST_F(PluginCacheTest, DiscoveryConsidersOnlyRegularLibraryFiles) {
  const std::string plugins = dir_ + "/plugins";
  for (int i = 0; i < 300; ++i) {
    std::ofstream(plugins + "/a_file_with_a_long_name_that_fills_the_listing_buffer_" + std::to_string(i) + ".txt")
        << "not a library\n";
  }
  install(goodLibrary(), "libgood.so");
  // A library known only through a link, under a versioned name (a library name too).
  fs::create_directories(dir_ + "/elsewhere");
  fs::copy_file(rivalLibrary(), dir_ + "/elsewhere/librival.so");
  fs::create_symlink(dir_ + "/elsewhere/librival.so", plugins + "/librival.so.1");
  install(goodLibrary(), "zz_second_copy.so");  // the same plugin again: refused, so it was considered
  fs::create_directories(plugins + "/libdirectory.so");
  fs::create_symlink(plugins + "/no-such-library.so", plugins + "/libdangling.so");
  fs::create_directory_symlink(plugins + "/libdirectory.so", plugins + "/liblinked-directory.so");
  fs::create_symlink("libgood.so", plugins + "/libalias.so");  // a link to a library already seen
  for (const char* run : {"cold", "warm"}) {
    SCOPED_TRACE(run);
    Loader loader(false);
    loader.plugins().setCacheFile(cache_);
    loader.plugins().discoverDirectory(plugins);
    std::vector<std::string> names;
    for (const auto& info : loader.plugins().available()) names.push_back(info.name);
    EXPECT_EQ(names, (std::vector<std::string>{"good", "rival"}));
    ASSERT_EQ(loader.plugins().available().size(), 2u);
    EXPECT_EQ(loader.plugins().available()[1].path, fs::canonical(dir_ + "/elsewhere/librival.so").string());
    ASSERT_EQ(loader.plugins().refused().size(), 1u) << loader.plugins().describeFormats();
    EXPECT_EQ(fs::path(loader.plugins().refused()[0].path).filename(), "zz_second_copy.so");
    EXPECT_NE(loader.plugins().refused()[0].reason.message.find("already loaded"), std::string::npos);
  }
}

// The cache is read at every start: a FIFO where the file belongs (hostile or mistaken) must not
// block it. Discovery runs aside (a few milliseconds; 60 s leaves room for a loaded sanitizer run);
// if it blocks, a writer is opened so that the test still ends.
TEST_F(PluginCacheTest, AFifoInPlaceOfTheCacheDoesNotBlockDiscovery) {
  install(goodLibrary(), "libgood.so");
  fs::create_directories(dir_ + "/cache");
  ASSERT_EQ(::mkfifo(cache_.c_str(), 0600), 0);
  auto discovery = std::async(std::launch::async, [&] {
    Loader loader(false);
    loader.plugins().setCacheFile(cache_);
    loader.plugins().discoverDirectory(dir_ + "/plugins");
    return loader.plugins().available().size();
  });
  const bool finished = discovery.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  if (!finished) {
    const int writer = ::open(cache_.c_str(), O_WRONLY | O_NONBLOCK);
    if (writer >= 0) ::close(writer);
  }
  EXPECT_TRUE(finished) << "discovery blocked opening a FIFO at the cache path";
  EXPECT_EQ(discovery.get(), 1u);
}

TEST_F(PluginCacheTest, AReplacedLibraryIsReadAgain) {
  const std::string path = install(goodLibrary(), "libformat.so");
  {
    Loader first(false);
    first.plugins().setCacheFile(cache_);
    first.plugins().discoverDirectory(dir_ + "/plugins");
    ASSERT_EQ(first.plugins().available().at(0).name, "good");
  }
  // Same path, another library (another size and inode): the cached entry must not be used.
  fs::remove(path);
  install(rivalLibrary(), "libformat.so");
  Loader second(false);
  second.plugins().setCacheFile(cache_);
  second.plugins().discoverDirectory(dir_ + "/plugins");
  ASSERT_EQ(second.plugins().available().size(), 1u);
  EXPECT_EQ(second.plugins().available()[0].name, "rival");
  EXPECT_NE(test::readFile(cache_).find("accepted\trival\t"), std::string::npos);
}

TEST_F(PluginCacheTest, UnwritableOrDisabledCacheStillLoadsEverything) {
  install(goodLibrary(), "libgood.so");
  for (const std::string& cacheFile : {std::string("/proc/interlink-no-such-dir/plugins.cache"), std::string()}) {
    Loader loader(false);
    loader.plugins().setCacheFile(cacheFile);
    loader.plugins().discoverDirectory(dir_ + "/plugins");
    ASSERT_TRUE(loader.plugins().findByName("good")) << cacheFile;
    EXPECT_TRUE(loader.plugins().isLoaded("good"));
  }
}

TEST_F(PluginCacheTest, CorruptOrForeignCacheIsIgnored) {
  install(goodLibrary(), "libgood.so");
  fs::create_directories(dir_ + "/cache");
  std::ofstream(cache_) << "interlink-plugin-cache 1 api=999\n" << dir_ << "/plugins/libgood.so\t1 2 3 4\taccepted\tevil\n";
  Loader loader(false);
  loader.plugins().setCacheFile(cache_);
  loader.plugins().discoverDirectory(dir_ + "/plugins");
  ASSERT_EQ(loader.plugins().available().size(), 1u);
  EXPECT_EQ(loader.plugins().available()[0].name, "good");
  EXPECT_EQ(test::readFile(cache_).find("evil"), std::string::npos);  // rewritten for this host
}

/// The whole process: `interlink check` of a URDF opens the URDF plugin and no other.
TEST_F(PluginCacheTest, CliOpensOnlyThePluginOfTheFileItReads) {
  const std::string env = "XDG_CACHE_HOME=" + dir_ + "/xdg INTERLINK_PLUGIN_CACHE= ";
  const std::string urdf = test::vendored("sdformat/test/integration/model/test_include_urdf/model.urdf");
  auto warmUp = test::run("env " + env + test::cliPath() + " plugins");
  ASSERT_EQ(warmUp.exitCode, 0) << warmUp.output;
  ASSERT_TRUE(fs::exists(dir_ + "/xdg/interlink/plugins.cache"));
  auto traced = test::run("env " + env + "LD_DEBUG=files " + test::cliPath() + " check " + urdf);
  ASSERT_EQ(traced.exitCode, 0) << traced.output;
  EXPECT_NE(traced.output.find("file=" + test::pluginDir() + "/libinterlink_plugin_urdf.so"), std::string::npos)
      << traced.output;
  for (const char* other : {"sdformat", "hrdf", "skel", "shift", "juice", "mjcf", "core_model"}) {
    EXPECT_EQ(traced.output.find(std::string("libinterlink_plugin_") + other + ".so"), std::string::npos) << other;
  }
  EXPECT_EQ(traced.output.find("libinterlink_hardware_"), std::string::npos);
  // `plugins` still lists every plugin, warm as cold.
  auto listing = test::run("env " + env + test::cliPath() + " plugins");
  for (const char* name : {"urdf 1.0.0  format", "sdformat ", "interlink_model ", "hebi_x "}) {
    EXPECT_NE(listing.output.find(name), std::string::npos) << listing.output;
  }
}

TEST_F(PluginCacheTest, CliListsRefusedLibrariesWarmAsCold) {
  install(kRoot + "/broken/libtest_plugin_bad_api.so", "libtest_plugin_bad_api.so");
  install(goodLibrary(), "libtest_plugin_good.so");
  const std::string env = "env XDG_CACHE_HOME=" + dir_ + "/xdg INTERLINK_PLUGIN_CACHE= INTERLINK_PLUGIN_PATH=" + dir_ +
                          "/plugins ";
  auto cold = test::run(env + test::cliPath() + " plugins");
  ASSERT_TRUE(fs::exists(dir_ + "/xdg/interlink/plugins.cache")) << cold.output;
  auto warm = test::run(env + test::cliPath() + " plugins");
  for (const auto* listing : {&cold, &warm}) {
    EXPECT_NE(listing->output.find("refused (1):"), std::string::npos) << listing->output;
    EXPECT_NE(listing->output.find("libtest_plugin_bad_api.so: PLUGIN_REFUSED: "), std::string::npos) << listing->output;
    EXPECT_NE(listing->output.find("API version"), std::string::npos) << listing->output;
    EXPECT_NE(listing->output.find("libtest_plugin_good.so"), std::string::npos) << listing->output;
  }
  EXPECT_EQ(warm.output, cold.output);
}

}  // namespace
}  // namespace interlink
