// util/PathText: paths as text give what std::filesystem gives, on every shape of path the
// generator below makes (separators doubled, leading and trailing, ".", "..", empty names), and
// the file system questions answer as std::filesystem answers them.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include "Scratch.hpp"
#include "util/PathText.hpp"

namespace interlink::detail {
namespace {

namespace fs = std::filesystem;

TEST(PathText, NormalFormAsTheStandardWritesIt) {
  EXPECT_EQ(lexicallyNormal("a/./b/../c"), "a/c");
  EXPECT_EQ(lexicallyNormal("a/b/.."), "a/");      // the separator before ".." stays
  EXPECT_EQ(lexicallyNormal("../a/.."), "..");     // no separator after a last ".."
  EXPECT_EQ(lexicallyNormal("/../a//b/"), "/a/b/");  // ".." above the root is dropped
  EXPECT_EQ(lexicallyNormal("a/.."), ".");
  EXPECT_EQ(lexicallyNormal(""), "");
  // Already normal: given back as written (names that only start or end with dots are names).
  EXPECT_EQ(lexicallyNormal("/pkg/meshes/link0.dae"), "/pkg/meshes/link0.dae");
  EXPECT_EQ(lexicallyNormal("pkg/meshes/"), "pkg/meshes/");
  EXPECT_EQ(lexicallyNormal("/a/.hidden/b../...c"), "/a/.hidden/b../...c");
  // Not normal although every name is: a doubled separator, at the root or inside.
  EXPECT_EQ(lexicallyNormal("//a/b"), "/a/b");
  EXPECT_EQ(lexicallyNormal("a//b"), "a/b");
  EXPECT_EQ(lexicallyNormal("a/b//"), "a/b/");
  EXPECT_EQ(joinPath("/pkg/", "meshes/a.stl"), "/pkg/meshes/a.stl");
  EXPECT_EQ(joinPath("/pkg", "/abs"), "/abs");
  EXPECT_EQ(joinPath("", "rel"), "rel");
  EXPECT_EQ(parentPath("/a/b.urdf"), "/a");
  EXPECT_EQ(parentPath("b.urdf"), "");
  EXPECT_EQ(parentPath("/b.urdf"), "/");
  EXPECT_EQ(fileNameOf("/share/pkg"), "pkg");
  EXPECT_EQ(fileNameOf("/share/pkg/"), "");
}

TEST(PathText, AgreesWithStdFilesystemOnGeneratedPaths) {
  std::mt19937 random(20261128);
  const char* const names[] = {"a", "bb", ".", "..", "", "c.d", "...", ".x"};
  int compared = 0;
  for (int i = 0; i < 50000; ++i) {
    std::string path;
    if (random() % 3 == 0) path += '/';
    if (random() % 8 == 0) path += '/';
    const int parts = static_cast<int>(random() % 7);
    for (int k = 0; k < parts; ++k) {
      path += names[random() % 8];
      if (k + 1 < parts || random() % 3 == 0) path.append(random() % 4 == 0 ? 2 : 1, '/');
    }
    std::string other = names[random() % 8];
    if (random() % 4 == 0) other = "/" + other;
    if (random() % 4 == 0) other += "/x";
    ASSERT_EQ(lexicallyNormal(path), fs::path(path).lexically_normal().string()) << "'" << path << "'";
    ASSERT_EQ(parentPath(path), fs::path(path).parent_path().string()) << "'" << path << "'";
    ASSERT_EQ(fileNameOf(path), fs::path(path).filename().string()) << "'" << path << "'";
    ASSERT_EQ(joinPath(path, other), (fs::path(path) / other).string()) << "'" << path << "' / '" << other << "'";
    if (!path.empty()) {
      ASSERT_EQ(absolutePath(path), fs::absolute(path).string()) << "'" << path << "'";
    }
    ++compared;
  }
  EXPECT_EQ(compared, 50000);
}

TEST(PathText, FileSystemQuestionsAnswerAsStdFilesystem) {
  test::Scratch scratch;
  const fs::path& dir = scratch.dir();
  scratch.write("file.stl", "solid x\nendsolid x\n");
  fs::create_directories(dir / "pkg");
  fs::create_symlink(dir / "file.stl", dir / "link.stl");
  fs::create_symlink(dir / "gone.stl", dir / "dangling.stl");
  fs::create_directory_symlink(dir / "pkg", dir / "pkglink");
  for (const std::string name : {"file.stl", "pkg", "pkglink", "link.stl", "dangling.stl", "missing", "file.stl/inside"}) {
    const std::string path = (dir / name).string();
    std::error_code ec;
    EXPECT_EQ(pathExists(path), fs::exists(path, ec)) << name;
    EXPECT_EQ(isDirectoryPath(path), fs::is_directory(path, ec)) << name;
    const PathStatus both = pathStatus(path);  // one stat(2) for the two answers
    EXPECT_EQ(both.exists, fs::exists(path, ec)) << name;
    EXPECT_EQ(both.directory, fs::is_directory(path, ec)) << name;
    const fs::file_status status = fs::symlink_status(path, ec);
    const bool linkFree = status.type() == fs::file_type::not_found || (fs::exists(status) && !fs::is_symlink(status));
    EXPECT_EQ(isLinkFree(path), linkFree) << name;
  }
  EXPECT_FALSE(pathExists(""));
  EXPECT_TRUE(isLinkFree((dir / "file.stl").string()));
  EXPECT_FALSE(isLinkFree((dir / "link.stl").string()));
}

}  // namespace
}  // namespace interlink::detail
