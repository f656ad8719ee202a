// The path policy of a load: every path is followed by default; a confined load refuses what lies
// outside its roots, however the path reaches there (.., a symbolic link), and names the roots.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "Scratch.hpp"
#include "io/PathPolicy.hpp"

namespace interlink::detail {
namespace {

namespace fs = std::filesystem;

TEST(PathPolicy, FollowsEveryPathUnlessConfined) {
  const PathPolicy open;
  EXPECT_FALSE(open.confined());
  EXPECT_EQ(open.refusal("/etc/passwd"), "");
  EXPECT_EQ(open.refusal("../../anything"), "");
}

TEST(PathPolicy, AConfinedLoadRefusesWhatLeavesItsRootsHoweverThePathGoesThere) {
  test::Scratch scratch;
  const std::string root = scratch.path("models");
  scratch.write("models/arm/arm.urdf", "<robot/>");
  scratch.write("secret/key.txt", "k");
  scratch.write("models2/other.urdf", "<robot/>");
  fs::create_symlink(scratch.path("secret"), scratch.path("models/escape"));
  const PathPolicy policy = PathPolicy::confinedTo({root});
  ASSERT_TRUE(policy.confined());
  ASSERT_EQ(policy.roots().size(), 1u);

  EXPECT_EQ(policy.refusal(root + "/arm/arm.urdf"), "");
  EXPECT_EQ(policy.refusal(root + "/arm/../arm/arm.urdf"), "");
  EXPECT_EQ(policy.refusal(root + "/arm/not_yet_written.urdf"), "");  // inside, even if absent
  for (const std::string& outside : {root + "/../secret/key.txt", root + "/escape/key.txt",
                                     scratch.path("models2/other.urdf"), std::string("/etc/passwd")}) {
    const std::string refusal = policy.refusal(outside);
    EXPECT_NE(refusal.find("is outside the directories this load is confined to"), std::string::npos) << outside;
    EXPECT_NE(refusal.find(fs::weakly_canonical(root).string()), std::string::npos) << refusal;  // names its root
    EXPECT_EQ(policy.refusal(outside), refusal);  // asked again: the same verdict
  }
}

TEST(PathPolicy, NoRootsRefusesEverythingAndSaysSo) {
  const PathPolicy policy = PathPolicy::confinedTo({});
  EXPECT_TRUE(policy.confined());
  EXPECT_NE(policy.refusal("/usr/share/robot.urdf").find("(none;"), std::string::npos) << policy.refusal("/usr/share/robot.urdf");
}

}  // namespace
}  // namespace interlink::detail
