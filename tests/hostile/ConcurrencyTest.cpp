// Loader thread safety (documented in Loader.hpp): several threads loading at once, with one
// shared Loader and with a Loader each, the same file and different files, give exactly what a
// single-threaded run gives (the composed model and its resolved frames written as JSON, and
// every diagnostic); and queries of one model from many threads (what the Python module does
// without the GIL: issue 35) give what one thread gives. Run under ThreadSanitizer by
// scripts/sanitize.sh.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "HostileSupport.hpp"
#include "interlink/ModelQuery.hpp"
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

// One LoadResult and one ModelQuery shared by eight threads, as the Python module shares a Model
// between threads that released the GIL: poses of one frame (its tree path), of every frame,
// Jacobians, mass properties and positions by name, each equal to the single-threaded answer.
TEST(ConcurrentQueries, OneModelQueriedFromEightThreads) {
  const LoadResult loaded = hostileLoader().loadFile(sourceDir() + "/tests/data/example-robot-data/panda.urdf");
  ASSERT_TRUE(loaded.ok()) << dump(loaded.diagnostics);
  const ModelQuery query(loaded);
  Diagnostics diagnostics;
  const std::size_t tip = *query.frameIndex("panda_hand_tcp", diagnostics);
  const std::size_t link3 = *query.frameIndex("panda_link3", diagnostics);
  constexpr int kConfigurations = 64;
  std::vector<std::vector<double>> qs;
  std::vector<std::string> texts;
  for (int c = 0; c < kConfigurations; ++c) {
    texts.push_back("panda_joint2=" + std::to_string(0.05 * c) + ",panda_joint4=-" + std::to_string(0.02 * c));
    qs.push_back(*query.parseConfiguration(texts.back(), diagnostics));
  }
  auto answer = [&](int c, Diagnostics& d) {
    const std::vector<double>& q = qs[static_cast<std::size_t>(c)];
    const Pose tipPose = *query.pose(tip, q, link3, d);
    const Pose all = (*query.framePoses(q, "", d))[tip];
    const Jacobian J = *query.jacobian("panda_hand_tcp", q, d);
    const MassProperties mass = *query.massProperties(q, "", d);
    const std::vector<double> parsed = *query.parseConfiguration(texts[static_cast<std::size_t>(c)], d);
    return std::make_tuple(tipPose.matrix(), all.matrix(), Eigen::MatrixXd(J), mass.centerOfMass, parsed);
  };
  using Answer = decltype(answer(0, diagnostics));
  std::vector<Answer> expected;
  for (int c = 0; c < kConfigurations; ++c) expected.push_back(answer(c, diagnostics));
  ASSERT_TRUE(diagnostics.empty()) << dump(diagnostics);
  constexpr int kQueryThreads = 8;
  std::vector<int> mismatches(kQueryThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kQueryThreads; ++t) {
    threads.emplace_back([&, t] {
      Diagnostics own;
      for (int round = 0; round < 4; ++round) {
        for (int c = 0; c < kConfigurations; ++c) {
          const int k = (c + t * 7) % kConfigurations;
          if (answer(k, own) != expected[static_cast<std::size_t>(k)]) ++mismatches[static_cast<std::size_t>(t)];
        }
      }
      if (!own.empty()) ++mismatches[static_cast<std::size_t>(t)];
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kQueryThreads; ++t) EXPECT_EQ(mismatches[static_cast<std::size_t>(t)], 0) << "thread " << t;
}

}  // namespace
}  // namespace interlink::test
