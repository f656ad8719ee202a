// FileWatcher (interlink view's live mode): an edit, a replacement by rename and a deletion of a
// watched file are seen, with inotify and by polling; a change of another file in the same
// directory is not.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "view/FileWatcher.hpp"

namespace {

namespace fs = std::filesystem;
using interlink::cli::view::FileWatcher;
using namespace std::chrono_literals;

void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

class FileWatcherTest : public ::testing::TestWithParam<FileWatcher::Method> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("interlink-watch-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(static_cast<int>(GetParam())));
    fs::create_directories(dir_);
    write(dir_ / "model.urdf", "<robot name='a'/>");
    write(dir_ / "mesh.stl", "solid a\nendsolid a\n");
    write(dir_ / "other.txt", "not the model's");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_P(FileWatcherTest, SeesEditsRenamesAndDeletionsOfItsFilesOnly) {
  FileWatcher watcher({(dir_ / "model.urdf").string(), (dir_ / "mesh.stl").string()}, GetParam());
  EXPECT_EQ(watcher.usesInotify(), GetParam() == FileWatcher::Method::Inotify);
  EXPECT_FALSE(watcher.waitForChange(300ms));

  write(dir_ / "other.txt", "changed, but not a file of the model");
  EXPECT_FALSE(watcher.waitForChange(300ms));

  // Waits that must see a change allow 10 s (they return as soon as it is seen): how soon is
  // bench/view/live_latency.py's measure, not a test's.
  write(dir_ / "model.urdf", "<robot name='b'/>");
  EXPECT_TRUE(watcher.waitForChange(10000ms));

  // An editor's save: a new file renamed over the old one.
  write(dir_ / "mesh.stl.tmp", "solid b\nendsolid b\n");
  fs::rename(dir_ / "mesh.stl.tmp", dir_ / "mesh.stl");
  EXPECT_TRUE(watcher.waitForChange(10000ms));

  fs::remove(dir_ / "model.urdf");
  EXPECT_TRUE(watcher.waitForChange(10000ms));
  EXPECT_FALSE(watcher.waitForChange(300ms));  // each change is reported once
}

// interlink view's reload: the watcher saw an edit, the model is reloaded, and the file is edited
// again while it loads. That edit counts, whatever the file system's clock says: the file keeps the
// version seen before the reload. A file the reload found new counts when modified since it began.
TEST_P(FileWatcherTest, AnEditDuringAReloadCountsAndNewFilesAreWatchedToo) {
  FileWatcher watcher({(dir_ / "model.urdf").string()}, GetParam());
  write(dir_ / "model.urdf", "<robot name='b'/>");
  ASSERT_TRUE(watcher.waitForChange(10000ms));

  write(dir_ / "model.urdf", "<robot name='edited while loading'/>");  // as the reload reads it
  const auto farFuture = std::chrono::system_clock::now() + std::chrono::hours(24);
  watcher.watch({(dir_ / "model.urdf").string(), (dir_ / "mesh.stl").string()}, farFuture);
  EXPECT_TRUE(watcher.waitForChange(10000ms));
  EXPECT_FALSE(watcher.waitForChange(300ms));

  // A new file changes after the watch: seen. One written since the reload began: seen at once.
  write(dir_ / "mesh.stl", "solid c\nendsolid c\n");
  EXPECT_TRUE(watcher.waitForChange(10000ms));
  const auto longAgo = std::chrono::system_clock::now() - std::chrono::hours(24);
  write(dir_ / "other.txt", "now a file of the model");
  watcher.watch({(dir_ / "model.urdf").string(), (dir_ / "other.txt").string()}, longAgo);
  EXPECT_TRUE(watcher.waitForChange(0ms));
  EXPECT_FALSE(watcher.waitForChange(300ms));

  // Files no longer watched: their edits are not the model's.
  write(dir_ / "mesh.stl", "solid d\nendsolid d\n");
  EXPECT_FALSE(watcher.waitForChange(300ms));
}

std::string methodName(const ::testing::TestParamInfo<FileWatcher::Method>& method) {
  return method.param == FileWatcher::Method::Inotify ? "Inotify" : "Polling";
}

INSTANTIATE_TEST_SUITE_P(Methods, FileWatcherTest, ::testing::Values(FileWatcher::Method::Inotify, FileWatcher::Method::Polling),
                         methodName);

}  // namespace
