// framework/src/util: the helpers every component shares. Suggestions for a name that names nothing,
// colon-separated search paths, and the listing plugin discovery reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "Scratch.hpp"
#include "interlink/SimilarNames.hpp"
#include "util/DirectoryListing.hpp"
#include "util/PathList.hpp"

namespace interlink {
namespace {

namespace fs = std::filesystem;

TEST(SimilarNames, ClosestFirstWithinAThirdOfTheNameIgnoringCase) {
  const std::vector<std::string> frames = {"base_link", "shoulder_link", "elbow_link", "wrist_1_link", "wrist_2_link",
                                           "tool0"};
  // A transposition, a wrong digit, another case; a scoped frame whose last part is the name
  // written is offered too.
  EXPECT_EQ(similarNames("shoudler_link", frames), (std::vector<std::string>{"shoulder_link"}));
  EXPECT_EQ(similarNames("wrist_3_link", frames), (std::vector<std::string>{"wrist_1_link", "wrist_2_link"}));
  EXPECT_EQ(similarNames("Base_Link", frames), (std::vector<std::string>{"base_link"}));
  EXPECT_EQ(similarNames("shoulder_link", {"arm::shoulder_link", "elbow_link"}),
            (std::vector<std::string>{"arm::shoulder_link"}));
  EXPECT_TRUE(similarNames("gripper", frames).empty());  // nothing close: no guess
  EXPECT_EQ(similarNames("link", {"link1", "link2", "link3", "link4"}, 2).size(), 2u);
  EXPECT_EQ(didYouMean("wrist_3_link", frames), "; did you mean 'wrist_1_link' or 'wrist_2_link'?");
  EXPECT_EQ(didYouMean("gripper", frames), "");
}

TEST(PathList, NonEmptyEntriesInOrderAndNoneForAnUnsetVariable) {
  EXPECT_TRUE(detail::splitPathList(nullptr).empty());
  EXPECT_TRUE(detail::splitPathList("").empty());
  EXPECT_EQ(detail::splitPathList("/a::/b:"), (std::vector<std::string>{"/a", "/b"}));
  EXPECT_EQ(detail::splitPathList("/opt/ros/share"), (std::vector<std::string>{"/opt/ros/share"}));
}

TEST(DirectoryListing, RegularFilesAndLinksToThemNothingElse) {
  test::Scratch scratch;
  scratch.write("libinterlink_plugin_a.so", "x");
  scratch.write("README", "y");
  fs::create_directories(scratch.path("subdirectory"));
  fs::create_symlink(scratch.path("libinterlink_plugin_a.so"), scratch.path("libinterlink_plugin_b.so"));
  fs::create_symlink(scratch.path("subdirectory"), scratch.path("link_to_directory"));
  fs::create_symlink(scratch.path("missing"), scratch.path("dangling"));
  std::error_code error;
  std::vector<detail::ListedFile> files = detail::listRegularFiles(scratch.dir().string(), error);
  ASSERT_FALSE(error) << error.message();
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].name, "README");
  EXPECT_FALSE(files[0].symbolicLink);
  EXPECT_EQ(files[1].name, "libinterlink_plugin_a.so");
  EXPECT_FALSE(files[1].symbolicLink);
  EXPECT_EQ(files[2].name, "libinterlink_plugin_b.so");
  EXPECT_TRUE(files[2].symbolicLink);

  // Enough entries to take several reads of the listing.
  for (int i = 0; i < 600; ++i) scratch.write("many/plugin_with_a_long_name_" + std::to_string(i) + ".so", "");
  EXPECT_EQ(detail::listRegularFiles(scratch.path("many"), error).size(), 600u);
  EXPECT_FALSE(error);

  const auto none = detail::listRegularFiles(scratch.path("no_such_directory"), error);
  EXPECT_TRUE(none.empty());
  EXPECT_TRUE(error);
}

}  // namespace
}  // namespace interlink
