// Loader thread safety (documented in Loader.hpp): several threads loading at once, with one
// shared Loader and with a Loader each, the same file and different files, give exactly what a
// single-threaded run gives (the composed model and its resolved frames written as JSON, and
// every diagnostic). Run under ThreadSanitizer by scripts/sanitize.sh.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "HostileSupport.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink::test {
namespace {

namespace fs = std::filesystem;

/// A few real files of several formats from the corpus (the first of each kind, sorted).
std::vector<std::string> corpusFiles() {
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {"sdformat", ".sdf"}, {"hrdf", ".hrdf"}, {"shift", ".json"}, {"juice", ".jm"}, {"gazebo", ".urdf"}};
  std::vector<std::string> files;
  for (const auto& [dir, ext] : kinds) {
    std::vector<std::string> found;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(corpus(dir), ec), end; !ec && it != end; it.increment(ec)) {
      if (it->is_regular_file() && it->path().extension() == ext) found.push_back(it->path().string());
    }
    std::sort(found.begin(), found.end());
    for (std::size_t i = 0; i < found.size() && i < 3; ++i) files.push_back(found[i]);
  }
  return files;
}

std::string digest(const LoadResult& result) { return convert::writeJson(result) + "\n" + dump(result.diagnostics); }

constexpr int kThreads = 4;
constexpr int kRounds = 3;

class Concurrency : public ::testing::Test {
 protected:
  void SetUp() override {
    files_ = corpusFiles();
    ASSERT_GE(files_.size(), 8u) << "too few corpus files found under " << corpus("");
    for (const auto& file : files_) expected_[file] = digest(hostileLoader().loadFile(file));
  }

  /// Every thread loads every file `kRounds` times, each from its own starting point (so threads
  /// load different files at the same moment), or only `onlyFile` when given.
  void runThreads(const std::function<const Loader&(int)>& loaderOf, const std::string& onlyFile = {}) {
    std::vector<std::vector<std::string>> mismatches(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        const Loader& loader = loaderOf(t);
        for (int round = 0; round < kRounds; ++round) {
          for (std::size_t i = 0; i < files_.size(); ++i) {
            const std::string& file = onlyFile.empty() ? files_[(i + static_cast<std::size_t>(t)) % files_.size()] : onlyFile;
            if (digest(loader.loadFile(file)) != expected_.at(file)) mismatches[static_cast<std::size_t>(t)].push_back(file);
          }
        }
      });
    }
    for (auto& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) {
      EXPECT_TRUE(mismatches[static_cast<std::size_t>(t)].empty())
          << "thread " << t << " got another result for " << mismatches[static_cast<std::size_t>(t)].front();
    }
  }

  std::vector<std::string> files_;
  std::map<std::string, std::string> expected_;
};

TEST_F(Concurrency, OneLoaderSharedByThreadsDifferentFiles) {
  runThreads([](int) -> const Loader& { return hostileLoader(); });
}

TEST_F(Concurrency, OneLoaderSharedByThreadsSameFile) {
  runThreads([](int) -> const Loader& { return hostileLoader(); }, files_.front());
}

TEST_F(Concurrency, OneLoaderPerThread) {
  std::vector<std::unique_ptr<Loader>> loaders;
  for (int t = 0; t < kThreads; ++t) loaders.push_back(std::make_unique<Loader>());
  runThreads([&](int t) -> const Loader& { return *loaders[static_cast<std::size_t>(t)]; });
}

}  // namespace
}  // namespace interlink::test
