// interlink::io: only regular files are read, never more than the limit, and text is checked
// (empty, NUL bytes, UTF-16/32, invalid UTF-8) at its line and column before a parser sees it.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "Scratch.hpp"
#include "TestSupport.hpp"
#include "interlink/io/ModelFile.hpp"

namespace interlink::io {
namespace {

const Diagnostic& only(const Diagnostics& diagnostics) {
  EXPECT_EQ(diagnostics.size(), 1u) << test::dump(diagnostics);
  return *diagnostics.begin();
}

TEST(ReadRegularFile, ReadsTheBytesOfARegularFileAndOfALinkToOne) {
  test::Scratch scratch;
  const std::string bytes = std::string("<robot name=\"r\"/>\n") + '\0' + "tail";
  const std::string file = scratch.write("robot.urdf", bytes);
  std::filesystem::create_symlink(file, scratch.path("link.urdf"));
  for (const std::string& path : {file, scratch.path("link.urdf")}) {
    Diagnostics diagnostics;
    const std::optional<std::string> read = readRegularFile(path, kDefaultMaxFileBytes, {}, diagnostics);
    ASSERT_TRUE(read) << test::dump(diagnostics);
    EXPECT_EQ(*read, bytes);  // every byte, the NUL too
    EXPECT_TRUE(diagnostics.empty()) << test::dump(diagnostics);
  }
}

TEST(ReadRegularFile, AFileThatSaysItHasNoBytesIsReadToItsEnd) {
  // /proc reports a size of 0 for files that have text: read until read(2) says the end, as for
  // any file whose size fstat cannot tell (a regular file is read in the size fstat gave).
  Diagnostics diagnostics;
  struct stat status {};
  ASSERT_EQ(::stat("/proc/self/status", &status), 0);
  ASSERT_EQ(status.st_size, 0);
  const std::optional<std::string> read = readRegularFile("/proc/self/status", kDefaultMaxFileBytes, {}, diagnostics);
  ASSERT_TRUE(read) << test::dump(diagnostics);
  EXPECT_EQ(read->rfind("Name:", 0), 0u) << *read;
  EXPECT_NE(read->find("\nPid:"), std::string::npos) << *read;
  Diagnostics bounded;
  EXPECT_FALSE(readRegularFile("/proc/self/status", 16, {}, bounded));  // still never past the limit
  EXPECT_NE(only(bounded).message.find("grew past"), std::string::npos) << test::dump(bounded);
}

TEST(ReadRegularFile, RefusesWhatIsNotARegularFileSayingWhatItIs) {
  test::Scratch scratch;
  ASSERT_EQ(::mkfifo(scratch.path("pipe").c_str(), 0600), 0);
  std::filesystem::create_directories(scratch.path("directory"));
  std::filesystem::create_symlink(scratch.path("loop_b"), scratch.path("loop_a"));
  std::filesystem::create_symlink(scratch.path("loop_a"), scratch.path("loop_b"));
  const struct {
    std::string path, says;
  } cases[] = {{scratch.path("missing.urdf"), "no such file"},
               {scratch.path("pipe"), "FIFO"},
               {scratch.path("directory"), "directory"},
               {"/dev/zero", "device"},
               {scratch.path("loop_a"), "loop"}};
  for (const auto& c : cases) {
    Diagnostics diagnostics;
    EXPECT_FALSE(readRegularFile(c.path, kDefaultMaxFileBytes, {}, diagnostics)) << c.path;  // a FIFO never blocks
    const Diagnostic& d = only(diagnostics);
    EXPECT_EQ(d.code, ErrorCode::FILE_READ) << c.path;
    EXPECT_TRUE(d.isError());
    EXPECT_NE(d.message.find(c.says), std::string::npos) << c.path << ": " << d.message;
  }
}

TEST(ReadRegularFile, TheLimitIsEnforcedAndTheErrorSitsWhereTheFileWasNamed) {
  test::Scratch scratch;
  const std::string file = scratch.write("big.sdf", std::string(1000, 'x'));
  Diagnostics within;
  EXPECT_TRUE(readRegularFile(file, 1000, {}, within)) << test::dump(within);
  Diagnostics over;
  const SourceLocation include{"world.sdf", 7, 3};
  EXPECT_FALSE(readRegularFile(file, 999, include, over));
  const Diagnostic& d = only(over);
  EXPECT_EQ(d.code, ErrorCode::FILE_READ);
  EXPECT_EQ(d.where.file.str(), "world.sdf");
  EXPECT_EQ(d.where.line, 7);
  EXPECT_NE(d.message.find("999"), std::string::npos) << d.message;
}

TEST(CheckModelText, FindsEveryProblemAtItsLineAndColumn) {
  Diagnostics empty;
  EXPECT_FALSE(checkModelText("", "a.urdf", empty));
  EXPECT_EQ(only(empty).code, ErrorCode::FILE_EMPTY);

  Diagnostics nul;
  EXPECT_FALSE(checkModelText(std::string("<robot>\n  <li") + '\0' + "nk/>\n</robot>", "a.urdf", nul));
  EXPECT_EQ(only(nul).code, ErrorCode::FILE_BINARY);
  EXPECT_EQ(only(nul).where.line, 2);
  EXPECT_EQ(only(nul).where.column, 6);

  Diagnostics utf16;
  EXPECT_FALSE(checkModelText(std::string("\xFF\xFE<\0r\0", 6), "a.urdf", utf16));
  EXPECT_EQ(only(utf16).code, ErrorCode::FILE_ENCODING);
  EXPECT_NE(only(utf16).message.find("UTF-16"), std::string::npos) << only(utf16).message;

  Diagnostics invalid;
  EXPECT_FALSE(checkModelText("<robot name=\"ok\">\n<link name=\"\xC3\x28\"/>\n<link name=\"\xFF\"/></robot>", "a.urdf",
                              invalid));
  ASSERT_EQ(invalid.size(), 2u) << test::dump(invalid);  // both, not the first only
  for (const Diagnostic& d : invalid) {
    EXPECT_EQ(d.code, ErrorCode::FILE_ENCODING);
    EXPECT_NE(d.message.find("\\x"), std::string::npos) << d.message;  // shown escaped, never raw
    EXPECT_EQ(d.message.find('\xFF'), std::string::npos);
  }
  EXPECT_EQ(invalid.begin()->where.line, 2);

  Diagnostics fine;
  EXPECT_TRUE(checkModelText("<robot name=\"r\xC3\xA9sum\xC3\xA9\"/>\n", "a.urdf", fine)) << test::dump(fine);
  EXPECT_TRUE(fine.empty());
}

}  // namespace
}  // namespace interlink::io
