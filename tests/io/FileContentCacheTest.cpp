// io::FileContentCache: the bytes of a file are served again only for the very version they were
// read from, only when the file had settled when read, and within bounds per file and in all.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "io/FileContentCache.hpp"

namespace interlink::io {
namespace {

FileVersion version(long seconds, long size = 100) {
  FileVersion v;
  v.device = 1;
  v.inode = 42;
  v.size = size;
  v.modified = timespec{seconds, 500};
  v.changed = timespec{seconds, 700};
  return v;
}

std::shared_ptr<const LargeText> text(std::size_t size, char fill = 'x') {
  return std::make_shared<const LargeText>(size, fill);
}

timespec at(long seconds) { return timespec{seconds, 0}; }

/// Every file system local (the paths here are made up).
bool everywhere(const std::string&) { return true; }

int asked = 0;
/// Device 1 is a network file system; counts the questions.
bool notOnNetwork(const std::string& path) {
  ++asked;
  return path.rfind("/net/", 0) != 0;
}

TEST(FileContentCache, ServesOnlyTheVersionItWasReadFrom) {
  FileContentCache cache(&everywhere);
  const FileVersion read = version(1000);
  const auto bytes = text(100);
  ASSERT_TRUE(cache.keep("/m/robot.urdf", read, bytes, at(1100)));
  EXPECT_EQ(cache.find("/m/robot.urdf", read), bytes);
  EXPECT_EQ(cache.find("/m/other.urdf", read), nullptr);
  // Each field of the version on its own: another file, another size, a write (even one whose
  // modification time was set back: the status-change time moves).
  FileVersion changed = read;
  changed.changed.tv_nsec += 1;
  EXPECT_EQ(cache.find("/m/robot.urdf", changed), nullptr);
  EXPECT_EQ(cache.find("/m/robot.urdf", read), nullptr) << "an entry of another version is dropped";
  EXPECT_EQ(cache.keptFiles(), 0u);
  EXPECT_EQ(cache.keptBytes(), 0u);
  for (int field = 0; field < 4; ++field) {
    ASSERT_TRUE(cache.keep("/m/robot.urdf", read, bytes, at(1100)));
    FileVersion other = read;
    if (field == 0) other.inode = 43;
    if (field == 1) other.device = 2;
    if (field == 2) other.size = 101;
    if (field == 3) other.modified.tv_sec += 1;
    EXPECT_EQ(cache.find("/m/robot.urdf", other), nullptr) << field;
  }
}

TEST(FileContentCache, KeepsOnlyFilesThatHadSettledWhenRead) {
  FileContentCache cache(&everywhere);
  const auto bytes = text(10);
  EXPECT_FALSE(cache.keep("/a", version(1000), bytes, at(1001)));  // written a second before
  FileVersion justChanged = version(900);
  justChanged.changed = timespec{1000, 0};  // its status changed just before (chmod, a write)
  EXPECT_FALSE(cache.keep("/b", justChanged, bytes, at(1001)));
  EXPECT_FALSE(cache.keep("/c", version(2000), bytes, at(1001)));  // times in the future
  EXPECT_TRUE(cache.keep("/d", version(1000), bytes, at(1000 + FileContentCache::kSettledSeconds + 1)));
  EXPECT_EQ(cache.keptFiles(), 1u);
  EXPECT_EQ(cache.find("/a", version(1000)), nullptr);
}

TEST(FileContentCache, BoundedPerFileAndInAll) {
  FileContentCache cache(&everywhere);
  EXPECT_FALSE(cache.keep("/big", version(1), text(FileContentCache::kMaxFileBytes + 1), at(100)));
  const std::size_t each = FileContentCache::kMaxFileBytes;
  const std::size_t files = FileContentCache::kMaxTotalBytes / each + 3;
  for (std::size_t i = 0; i < files; ++i) {
    ASSERT_TRUE(cache.keep("/f" + std::to_string(i), version(1), text(each), at(100)));
    EXPECT_LE(cache.keptBytes(), FileContentCache::kMaxTotalBytes);
  }
  EXPECT_EQ(cache.find("/f0", version(1)), nullptr) << "the oldest went first";
  EXPECT_NE(cache.find("/f" + std::to_string(files - 1), version(1)), nullptr);
  // Kept again and again: one entry, the newest bytes, and the older ones are not evicted for it.
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(cache.keep("/again", version(1, 10), text(10, char('a' + i % 26)), at(100)));
  EXPECT_EQ(cache.find("/again", version(1, 10))->front(), char('a' + 999 % 26));
  EXPECT_NE(cache.find("/f" + std::to_string(files - 1), version(1)), nullptr);
  EXPECT_LE(cache.keptBytes(), FileContentCache::kMaxTotalBytes);
}

TEST(FileContentCache, KeepsNothingFromANetworkFileSystemAndAsksOncePerDevice) {
  FileContentCache cache(&notOnNetwork);
  asked = 0;
  FileVersion remote = version(1);
  remote.device = 7;
  EXPECT_FALSE(cache.keep("/net/robot.urdf", remote, text(10), at(100)));
  EXPECT_FALSE(cache.keep("/net/other.urdf", remote, text(10), at(100)));
  EXPECT_EQ(cache.find("/net/robot.urdf", remote), nullptr);
  EXPECT_TRUE(cache.keep("/home/robot.urdf", version(1), text(10), at(100)));
  EXPECT_TRUE(cache.keep("/home/other.urdf", version(1), text(10), at(100)));
  EXPECT_EQ(asked, 2) << "one statfs per device";
  EXPECT_FALSE(onLocalFileSystem("/no/such/directory/file.urdf"));  // cannot tell: not kept
}

}  // namespace
}  // namespace interlink::io
