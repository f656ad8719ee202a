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

  const auto start = std::chrono::steady_clock::now();
  write(dir_ / "model.urdf", "<robot name='b'/>");
  EXPECT_TRUE(watcher.waitForChange(2000ms));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1000ms);

  // An editor's save: a new file renamed over the old one.
  write(dir_ / "mesh.stl.tmp", "solid b\nendsolid b\n");
  fs::rename(dir_ / "mesh.stl.tmp", dir_ / "mesh.stl");
  EXPECT_TRUE(watcher.waitForChange(2000ms));

  fs::remove(dir_ / "model.urdf");
  EXPECT_TRUE(watcher.waitForChange(2000ms));
  EXPECT_FALSE(watcher.waitForChange(300ms));  // each change is reported once
}

std::string methodName(const ::testing::TestParamInfo<FileWatcher::Method>& method) {
  return method.param == FileWatcher::Method::Inotify ? "Inotify" : "Polling";
}

INSTANTIATE_TEST_SUITE_P(Methods, FileWatcherTest, ::testing::Values(FileWatcher::Method::Inotify, FileWatcher::Method::Polling),
                         methodName);

}  // namespace
