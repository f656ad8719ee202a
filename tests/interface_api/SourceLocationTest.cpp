// SourceLocation and its shared FileName (interlink/SourceLocation.hpp): one pointer wide, copies
// share one name, and the last copy frees it, from any thread.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "interlink/SourceLocation.hpp"

namespace interlink {
namespace {

TEST(SourceLocation, IsAPointerAndTwoNumbers) {
  // Every XML element and attribute and every model record holds one: a std::shared_ptr here
  // made each 8 bytes larger.
  EXPECT_EQ(sizeof(FileName), sizeof(void*));
  EXPECT_EQ(sizeof(SourceLocation), sizeof(void*) + 2 * sizeof(int));
}

TEST(SourceLocation, CopiesShareTheNameAndReadLikeAString) {
  const FileName a("robot.urdf");
  FileName b = a;
  EXPECT_EQ(a.c_str(), b.c_str()) << "a copy shares the name, it does not copy it";
  EXPECT_EQ(b, "robot.urdf");
  EXPECT_EQ(std::string(b), "robot.urdf");
  EXPECT_EQ(b.size(), 10u);
  EXPECT_EQ(b + ":3", "robot.urdf:3");
  FileName moved = std::move(b);
  EXPECT_EQ(moved, a);
  EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move): a moved-from name is empty
  EXPECT_EQ(b.str(), "");  // NOLINT(bugprone-use-after-move)
  b = moved;
  EXPECT_EQ(b, "robot.urdf");
  const FileName& same = b;
  b = same;  // assigning a name to itself keeps it
  EXPECT_EQ(b, "robot.urdf");
  EXPECT_TRUE(FileName().empty());
  EXPECT_TRUE(FileName("").empty());
  EXPECT_TRUE(FileName(static_cast<const char*>(nullptr)).empty());
  EXPECT_EQ(FileName("x.sdf"), FileName("x.sdf")) << "names are equal by text, not only by identity";
  EXPECT_NE(FileName("x.sdf"), FileName("y.sdf"));
}

TEST(SourceLocation, CopiesMadeAndDroppedByManyThreadsFreeTheNameOnce) {
  // CI runs this under AddressSanitizer: a lost count is a leak, a double free or a use after free.
  std::vector<SourceLocation> locations(4, SourceLocation{FileName("shared.sdf"), 1, 1});
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&locations, t] {
      SourceLocation mine = std::move(locations[static_cast<std::size_t>(t)]);
      std::vector<SourceLocation> copies(2000, mine);
      for (SourceLocation& copy : copies) EXPECT_EQ(copy.file, "shared.sdf");
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const SourceLocation& location : locations) EXPECT_TRUE(location.file.empty());
}

}  // namespace
}  // namespace interlink
