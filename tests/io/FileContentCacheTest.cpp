// io::FileContentCache: the bytes of a file are served again only for the very version they were
// read from, only when the file had settled when read, from a read-only copy of their own, and
// within bounds per file and in all.
#include <gtest/gtest.h>

#include <csetjmp>
#include <csignal>
#include <optional>
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

timespec at(long seconds) { return timespec{seconds, 0}; }

/// Every file system local (the paths here are made up).
bool everywhere(const std::string&) { return true; }

int asked = 0;
/// Paths under /net/ are on a network file system; counts the questions.
bool notOnNetwork(const std::string& path) {
  ++asked;
  return path.rfind("/net/", 0) != 0;
}

/// A file read twice in the same version: the first read is only noted, the second kept.
bool keepTwice(FileContentCache& cache, const std::string& path, const FileVersion& v, std::string_view bytes,
               const timespec& readAt) {
  EXPECT_FALSE(cache.keep(path, v, bytes, readAt)) << path << ": a first read is only noted";
  return cache.keep(path, v, bytes, readAt);
}

std::string served(FileContentCache& cache, const std::string& path, const FileVersion& v) {
  const std::optional<FileText> kept = cache.find(path, v);
  return kept ? std::string(kept->text) : std::string("(none)");
}

TEST(FileContentCache, ServesOnlyTheVersionItWasReadFrom) {
  FileContentCache cache(&everywhere);
  const FileVersion read = version(1000);
  std::string bytes(100, 'x');
  ASSERT_TRUE(keepTwice(cache, "/m/robot.urdf", read, bytes, at(1100)));
  bytes.assign(100, 'y');  // the load's own buffer changes or goes: the kept copy does not
  EXPECT_EQ(served(cache, "/m/robot.urdf", read), std::string(100, 'x'));
  const std::optional<FileText> kept = cache.find("/m/robot.urdf", read);
  ASSERT_TRUE(kept);
  EXPECT_NE(kept->text.data(), bytes.data());
  EXPECT_FALSE(cache.find("/m/other.urdf", read));
  // Each field of the version on its own: another file, another size, a write (even one whose
  // modification time was set back: the status-change time moves).
  FileVersion changed = read;
  changed.changed.tv_nsec += 1;
  EXPECT_FALSE(cache.find("/m/robot.urdf", changed));
  EXPECT_FALSE(cache.find("/m/robot.urdf", read)) << "an entry of another version is dropped";
  EXPECT_EQ(cache.keptFiles(), 0u);
  EXPECT_EQ(cache.keptBytes(), 0u);
  EXPECT_EQ(kept->text, std::string(100, 'x')) << "a load still holding the bytes keeps them";
  for (int field = 0; field < 4; ++field) {
    ASSERT_TRUE(keepTwice(cache, "/m/robot.urdf", read, std::string(100, 'x'), at(1100)));
    FileVersion other = read;
    if (field == 0) other.inode = 43;
    if (field == 1) other.device = 2;
    if (field == 2) other.size = 101;
    if (field == 3) other.modified.tv_sec += 1;
    EXPECT_FALSE(cache.find("/m/robot.urdf", other)) << field;
  }
}

TEST(FileContentCache, AFirstReadIsOnlyNotedAndASecondOfTheSameVersionKept) {
  // A command that reads each file once pays for no copy; a host that loads again keeps them.
  FileContentCache cache(&everywhere);
  EXPECT_FALSE(cache.keep("/m/robot.urdf", version(1), "<robot/>", at(100)));
  EXPECT_FALSE(cache.find("/m/robot.urdf", version(1)));
  EXPECT_EQ(cache.keptFiles(), 0u);
  EXPECT_EQ(cache.keptBytes(), 0u);
  EXPECT_FALSE(cache.keep("/m/robot.urdf", version(2), "<robot/>", at(100))) << "another version: noted again";
  EXPECT_TRUE(cache.keep("/m/robot.urdf", version(2), "<robot/>", at(100)));
  EXPECT_EQ(served(cache, "/m/robot.urdf", version(2)), "<robot/>");
  EXPECT_EQ(cache.keptFiles(), 1u);
}

TEST(FileContentCache, KeepsOnlyFilesThatHadSettledWhenRead) {
  FileContentCache cache(&everywhere);
  const std::string bytes(10, 'x');
  EXPECT_FALSE(cache.keep("/a", version(1000), bytes, at(1001)));  // written a second before
  FileVersion justChanged = version(900);
  justChanged.changed = timespec{1000, 0};  // its status changed just before (chmod, a write)
  EXPECT_FALSE(cache.keep("/b", justChanged, bytes, at(1001)));
  EXPECT_FALSE(cache.keep("/c", version(2000), bytes, at(1001)));  // times in the future
  EXPECT_FALSE(cache.keep("/e", version(1000), "", at(5000)));     // nothing to keep
  EXPECT_TRUE(keepTwice(cache, "/d", version(1000), bytes, at(1000 + FileContentCache::kSettledSeconds + 1)));
  EXPECT_EQ(cache.keptFiles(), 1u);
  EXPECT_FALSE(cache.find("/a", version(1000)));
}

TEST(FileContentCache, BoundedPerFileAndInAll) {
  FileContentCache cache(&everywhere);
  EXPECT_FALSE(cache.keep("/big", version(1), std::string(FileContentCache::kMaxFileBytes + 1, 'x'), at(100)));
  const std::string each(FileContentCache::kMaxFileBytes, 'x');
  const std::size_t files = FileContentCache::kMaxTotalBytes / each.size() + 3;
  for (std::size_t i = 0; i < files; ++i) {
    ASSERT_TRUE(keepTwice(cache, "/f" + std::to_string(i), version(1), each, at(100)));
    EXPECT_LE(cache.keptBytes(), FileContentCache::kMaxTotalBytes);
  }
  EXPECT_FALSE(cache.find("/f0", version(1))) << "the oldest went first";
  EXPECT_TRUE(cache.find("/f" + std::to_string(files - 1), version(1)));
  // Kept again and again: one entry, the newest bytes, and the older ones are not evicted for it.
  ASSERT_TRUE(keepTwice(cache, "/again", version(1, 10), std::string(10, 'a'), at(100)));
  for (int i = 1; i < 1000; ++i) {
    ASSERT_TRUE(cache.keep("/again", version(1, 10), std::string(10, char('a' + i % 26)), at(100)));
  }
  EXPECT_EQ(served(cache, "/again", version(1, 10)), std::string(10, char('a' + 999 % 26)));
  EXPECT_TRUE(cache.find("/f" + std::to_string(files - 1), version(1)));
  EXPECT_LE(cache.keptBytes(), FileContentCache::kMaxTotalBytes);
  // Files read once are noted up to a number: the oldest notes go first.
  for (std::size_t i = 0; i < FileContentCache::kMaxFiles + 10; ++i) {
    cache.keep("/once" + std::to_string(i), version(1), "x", at(100));
  }
  EXPECT_TRUE(cache.keep("/once" + std::to_string(FileContentCache::kMaxFiles + 9), version(1), "x", at(100)));
  EXPECT_FALSE(cache.keep("/once0", version(1), "x", at(100))) << "its note was dropped: noted again";
}

TEST(FileContentCache, KeepsNothingFromANetworkFileSystemAndAsksOncePerDevice) {
  FileContentCache cache(&notOnNetwork);
  asked = 0;
  FileVersion remote = version(1);
  remote.device = 7;
  EXPECT_FALSE(keepTwice(cache, "/net/robot.urdf", remote, "<robot/>", at(100)));
  EXPECT_FALSE(keepTwice(cache, "/net/other.urdf", remote, "<robot/>", at(100)));
  EXPECT_FALSE(cache.find("/net/robot.urdf", remote));
  EXPECT_TRUE(keepTwice(cache, "/home/robot.urdf", version(1), "<robot/>", at(100)));
  EXPECT_TRUE(keepTwice(cache, "/home/other.urdf", version(1), "<robot/>", at(100)));
  EXPECT_EQ(asked, 2) << "one statfs per device";
  EXPECT_FALSE(onLocalFileSystem("/no/such/directory/file.urdf"));  // cannot tell: not kept
}

sigjmp_buf written;
void onFault(int) { siglongjmp(written, 1); }

TEST(FileContentCache, KeptBytesCannotBeWritten) {
  FileContentCache cache(&everywhere);
  ASSERT_TRUE(keepTwice(cache, "/m/robot.urdf", version(1), "<robot name=\"r\"/>", at(100)));
  const std::optional<FileText> kept = cache.find("/m/robot.urdf", version(1));
  ASSERT_TRUE(kept);
  struct sigaction fault {}, before {};
  fault.sa_handler = &onFault;
  sigemptyset(&fault.sa_mask);
  ASSERT_EQ(::sigaction(SIGSEGV, &fault, &before), 0);
  volatile bool refused = false;
  if (sigsetjmp(written, 1) == 0) {
    *const_cast<volatile char*>(kept->text.data()) = 'X';
  } else {
    refused = true;
  }
  ::sigaction(SIGSEGV, &before, nullptr);
  EXPECT_TRUE(refused) << "the copy is a read-only mapping";
  EXPECT_EQ(kept->text, "<robot name=\"r\"/>");
}

}  // namespace
}  // namespace interlink::io
