// Issue 12 class 6: URIs are looked up as Gazebo and libsdformat do. file://NAME and plain
// relative names beside the including file, then in the search path; model://NAME in the search
// path; package://PKG in ROS package paths. The search path comes from LoadOptions (-I),
// INTERLINK_RESOURCE_PATH, SDF_PATH, GZ_SIM_RESOURCE_PATH and IGN_GAZEBO_RESOURCE_PATH; packages
// from LoadOptions::packagePaths, ROS_PACKAGE_PATH and AMENT_PREFIX_PATH (share/<pkg>). A failed
// lookup lists every place tried; every search directory is a root of the path policy.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "SharedLoader.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kEnvironment = {"INTERLINK_RESOURCE_PATH", "SDF_PATH", "GZ_SIM_RESOURCE_PATH",
                                               "IGN_GAZEBO_RESOURCE_PATH", "ROS_PACKAGE_PATH", "AMENT_PREFIX_PATH"};

/// Clears the lookup variables for the test and restores them afterwards; `set` sets one.
class ScopedEnvironment {
 public:
  ScopedEnvironment() {
    for (const auto& name : kEnvironment) {
      if (const char* value = std::getenv(name.c_str())) saved_[name] = value;
      unsetenv(name.c_str());
    }
  }
  ~ScopedEnvironment() {
    for (const auto& name : kEnvironment) {
      const auto it = saved_.find(name);
      if (it == saved_.end()) {
        unsetenv(name.c_str());
      } else {
        setenv(name.c_str(), it->second.c_str(), 1);
      }
    }
  }
  void set(const std::string& name, const std::string& value) { setenv(name.c_str(), value.c_str(), 1); }

 private:
  std::map<std::string, std::string> saved_;
};

const Loader& loader() { return test::sharedLoader(); }

/// A scratch tree; every file is written with its directories.
class Tree {
 public:
  Tree() : root_(test::makeTempDir("interlink-resources")) {}
  ~Tree() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  std::string path(const std::string& relative) const { return root_ + "/" + relative; }
  std::string write(const std::string& relative, const std::string& content) const {
    const fs::path file = path(relative);
    fs::create_directories(file.parent_path());
    std::ofstream(file) << content;
    return file.string();
  }
  /// A Gazebo model directory DIR/NAME with model.config and model.sdf: one link at x = `x`.
  void model(const std::string& dir, const std::string& name, double x) const {
    write(dir + "/" + name + "/model.config",
          "<?xml version=\"1.0\"?>\n<model><name>" + name + "</name><sdf version=\"1.9\">model.sdf</sdf></model>\n");
    write(dir + "/" + name + "/model.sdf", modelFile(name, x));
  }
  static std::string modelFile(const std::string& name, double x) {
    return "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n  <model name=\"" + name + "\">\n    <link name=\"link\"><pose>" +
           std::to_string(x) + " 0 0 0 0 0</pose></link>\n  </model>\n</sdf>\n";
  }

 private:
  std::string root_;
};

std::string worldIncluding(const std::string& uri) {
  return "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n  <world name=\"w\">\n    <include>\n      <uri>" + uri +
         "</uri>\n      <name>included</name>\n    </include>\n  </world>\n</sdf>\n";
}

/// The x of the included model's link, or nothing when the load failed.
std::optional<double> includedLinkX(const LoadResult& result) {
  if (!result.ok()) return std::nullopt;
  const auto pose = result.graph.pose("included::link", "world");
  if (!pose) return std::nullopt;
  return pose->translation().x();
}

const Diagnostic* lookupError(const LoadResult& result) {
  for (const auto& d : result.diagnostics) {
    if (d.code == ErrorCode::URI_LOOKUP && d.isError()) return &d;
  }
  return nullptr;
}

class SearchPathVariable : public testing::TestWithParam<std::string> {};

TEST_P(SearchPathVariable, FindsModelUrisInEachDirectoryOfTheVariable) {
  ScopedEnvironment environment;
  Tree tree;
  tree.model("first", "other", 1.0);
  tree.model("second", "robot", 2.0);
  environment.set(GetParam(), tree.path("first") + ":" + tree.path("second"));
  const LoadResult result = loader().loadFile(tree.write("project/world.sdf", worldIncluding("model://robot")));
  ASSERT_EQ(includedLinkX(result), 2.0) << test::dump(result.diagnostics);
}

INSTANTIATE_TEST_SUITE_P(Gazebo, SearchPathVariable,
                         testing::Values("INTERLINK_RESOURCE_PATH", "SDF_PATH", "GZ_SIM_RESOURCE_PATH",
                                         "IGN_GAZEBO_RESOURCE_PATH"),
                         [](const testing::TestParamInfo<std::string>& variable) { return variable.param; });

/// A Loader keeps the bytes of small files that had settled when read and serves them to later
/// loads while a stat(2) says the file is the same (io/FileContentCache.hpp). An edit must be seen
/// however it was made: in place with the same size and the modification time set back (only
/// the status-change time tells), or by renaming another file over it.
TEST(ResourceLookup, ALoaderReadsAgainAFileChangedSinceItsLastLoad) {
  ScopedEnvironment environment;
  Tree tree;
  tree.model("models", "robot", 1.0);
  const std::string world = tree.write("project/world.sdf", worldIncluding("file://" + tree.path("models/robot")));
  const std::string part = tree.path("models/robot/model.sdf");
  // Settled: the cache keeps only files whose times are seconds old when read.
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  const Loader own;  // its own cache
  for (int i = 0; i < 2; ++i) {
    const LoadResult first = own.loadFile(world);
    EXPECT_EQ(includedLinkX(first), 1.0) << test::dump(first.diagnostics);
  }
  struct stat before {};
  ASSERT_EQ(::stat(part.c_str(), &before), 0);
  const auto setTimesBack = [&](const std::string& file) {
    const timespec times[2] = {before.st_atim, before.st_mtim};
    ASSERT_EQ(::utimensat(AT_FDCWD, file.c_str(), times, 0), 0);
  };
  // In place, the same size, the modification time as it was.
  const std::string edited = Tree::modelFile("robot", 2.0);
  ASSERT_EQ(edited.size(), Tree::modelFile("robot", 1.0).size());
  tree.write("models/robot/model.sdf", edited);
  setTimesBack(part);
  struct stat after {};
  ASSERT_EQ(::stat(part.c_str(), &after), 0);
  ASSERT_EQ(after.st_size, before.st_size);
  ASSERT_EQ(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
  ASSERT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
  const LoadResult inPlace = own.loadFile(world);
  EXPECT_EQ(includedLinkX(inPlace), 2.0) << test::dump(inPlace.diagnostics);
  // Another file renamed over it (as editors save), with the same size and times.
  const std::string replacement = tree.write("models/robot/model.sdf.new", Tree::modelFile("robot", 3.0));
  setTimesBack(replacement);
  fs::rename(replacement, part);
  const LoadResult renamed = own.loadFile(world);
  EXPECT_EQ(includedLinkX(renamed), 3.0) << test::dump(renamed.diagnostics);
}

TEST(ResourceLookup, TheHostsDirectoriesComeBeforeTheEnvironments) {
  ScopedEnvironment environment;
  Tree tree;
  tree.model("fromEnvironment", "robot", 1.0);
  tree.model("fromHost", "robot", 2.0);
  environment.set("SDF_PATH", tree.path("fromEnvironment"));
  LoadOptions options;
  options.resourcePaths = {tree.path("fromHost")};
  const LoadResult result = loader().loadFile(tree.write("project/world.sdf", worldIncluding("model://robot")), options);
  EXPECT_EQ(includedLinkX(result), 2.0) << test::dump(result.diagnostics);
}

TEST(ResourceLookup, FileAndRelativeUrisAreSearchedBesideTheFileThenInTheSearchPath) {
  ScopedEnvironment environment;
  Tree tree;
  tree.model("project", "robot", 1.0);  // beside the world
  tree.model("models", "robot", 2.0);
  tree.model("models", "elsewhere", 3.0);
  environment.set("GZ_SIM_RESOURCE_PATH", tree.path("models"));
  for (const std::string uri : {"file://robot", "robot"}) {
    const LoadResult beside = loader().loadFile(tree.write("project/beside.sdf", worldIncluding(uri)));
    EXPECT_EQ(includedLinkX(beside), 1.0) << uri << "\n" << test::dump(beside.diagnostics);
  }
  for (const std::string uri : {"file://elsewhere", "elsewhere", "file://elsewhere/model.sdf"}) {
    const LoadResult searched = loader().loadFile(tree.write("project/searched.sdf", worldIncluding(uri)));
    EXPECT_EQ(includedLinkX(searched), 3.0) << uri << "\n" << test::dump(searched.diagnostics);
  }
  // An absolute file:// URI is taken as written.
  const LoadResult absolute =
      loader().loadFile(tree.write("project/absolute.sdf", worldIncluding("file://" + tree.path("models/robot"))));
  EXPECT_EQ(includedLinkX(absolute), 2.0) << test::dump(absolute.diagnostics);
}

TEST(ResourceLookup, PackageUrisComeFromRosAndAmentPathsAndTheHostsPackagePaths) {
  ScopedEnvironment environment;
  Tree tree;
  tree.write("ros/robot_description/models/arm.sdf", Tree::modelFile("arm", 4.0));
  tree.write("ament/install/share/robot_description/models/arm.sdf", Tree::modelFile("arm", 5.0));
  tree.write("host/robot_description/models/arm.sdf", Tree::modelFile("arm", 6.0));
  tree.write("self/robot_description/models/arm.sdf", Tree::modelFile("arm", 7.0));
  const std::string world = tree.write("project/world.sdf", worldIncluding("package://robot_description/models/arm.sdf"));

  environment.set("AMENT_PREFIX_PATH", tree.path("nothing") + ":" + tree.path("ament/install"));
  EXPECT_EQ(includedLinkX(loader().loadFile(world)), 5.0);
  environment.set("ROS_PACKAGE_PATH", tree.path("ros"));
  EXPECT_EQ(includedLinkX(loader().loadFile(world)), 4.0);  // ROS_PACKAGE_PATH before AMENT_PREFIX_PATH
  LoadOptions options;
  options.packagePaths = {tree.path("host")};
  EXPECT_EQ(includedLinkX(loader().loadFile(world, options)), 6.0);
  // A ROS_PACKAGE_PATH entry may be the package directory itself.
  environment.set("ROS_PACKAGE_PATH", tree.path("self/robot_description"));
  environment.set("AMENT_PREFIX_PATH", "");
  EXPECT_EQ(includedLinkX(loader().loadFile(world)), 7.0);
}

TEST(ResourceLookup, AFailedLookupListsEveryPlaceTried) {
  ScopedEnvironment environment;
  Tree tree;
  environment.set("SDF_PATH", tree.path("sdfPath"));
  environment.set("IGN_GAZEBO_RESOURCE_PATH", tree.path("ignPath"));
  environment.set("ROS_PACKAGE_PATH", tree.path("rosPath"));
  environment.set("AMENT_PREFIX_PATH", tree.path("amentPrefix"));
  LoadOptions options;
  options.resourcePaths = {tree.path("hostPath")};

  const LoadResult relative = loader().loadFile(tree.write("project/world.sdf", worldIncluding("file://missing")), options);
  const Diagnostic* d = lookupError(relative);
  ASSERT_NE(d, nullptr) << test::dump(relative.diagnostics);
  EXPECT_EQ(d->where.line, 4);  // the <include>
  for (const std::string place : {"project/missing", "hostPath/missing", "sdfPath/missing", "ignPath/missing"}) {
    EXPECT_NE(d->message.find(tree.path(place)), std::string::npos) << place << " not in: " << d->message;
  }
  EXPECT_EQ(d->message.find("rosPath"), std::string::npos) << "package paths are not searched for file://";

  const LoadResult package = loader().loadFile(tree.write("project/pkg.sdf", worldIncluding("package://pkg/m.sdf")), options);
  d = lookupError(package);
  ASSERT_NE(d, nullptr) << test::dump(package.diagnostics);
  for (const std::string place : {"rosPath/pkg/m.sdf", "amentPrefix/share/pkg/m.sdf", "hostPath/pkg/m.sdf"}) {
    EXPECT_NE(d->message.find(tree.path(place)), std::string::npos) << place << " not in: " << d->message;
  }

  const LoadResult remote =
      loader().loadFile(tree.write("project/remote.sdf", worldIncluding("https://fuel.gazebosim.org/1.0/x/models/y")), options);
  d = lookupError(remote);
  ASSERT_NE(d, nullptr) << test::dump(remote.diagnostics);
  EXPECT_NE(d->message.find("never downloads"), std::string::npos) << d->message;
}

TEST(ResourceLookup, AnIncludeMissingFromAPackageThatWasFoundSaysWhereThePackageIs) {
  // The package is on the path but the file is not in it (a misspelt name, a file not
  // installed): advice to set ROS_PACKAGE_PATH would send the user the wrong way.
  ScopedEnvironment environment;
  Tree tree;
  tree.write("ros/robot_description/models/arm.sdf", Tree::modelFile("arm", 4.0));
  environment.set("ROS_PACKAGE_PATH", tree.path("ros"));
  const LoadResult misspelt =
      loader().loadFile(tree.write("project/world.sdf", worldIncluding("package://robot_description/models/Arm.sdf")));
  const Diagnostic* d = lookupError(misspelt);
  ASSERT_NE(d, nullptr) << test::dump(misspelt.diagnostics);
  EXPECT_EQ(d->where.line, 4);  // the <include>
  EXPECT_NE(d->message.find("unable to find uri[package://robot_description/models/Arm.sdf]: package "
                            "'robot_description' is at " +
                            tree.path("ros/robot_description") + ", which has no 'models/Arm.sdf'"),
            std::string::npos)
      << d->message;
  EXPECT_EQ(d->message.find("set ROS_PACKAGE_PATH"), std::string::npos) << d->message;

  // A package that is nowhere keeps the advice to put it on the path.
  const LoadResult absent =
      loader().loadFile(tree.write("project/absent.sdf", worldIncluding("package://gripper_description/g.sdf")));
  d = lookupError(absent);
  ASSERT_NE(d, nullptr) << test::dump(absent.diagnostics);
  EXPECT_NE(d->message.find("set ROS_PACKAGE_PATH"), std::string::npos) << d->message;
  EXPECT_EQ(d->message.find(" is at "), std::string::npos) << d->message;
}

TEST(ResourceLookup, SearchDirectoriesAreRootsOfThePathPolicy) {
  ScopedEnvironment environment;
  Tree tree;
  tree.model("models", "robot", 2.0);
  tree.write("ros/pkg/arm.sdf", Tree::modelFile("arm", 4.0));
  tree.model("outside", "stray", 1.0);
  environment.set("GZ_SIM_RESOURCE_PATH", tree.path("models"));
  environment.set("ROS_PACKAGE_PATH", tree.path("ros"));
  LoadOptions confined;
  confined.confineToRoots = true;
  EXPECT_EQ(includedLinkX(loader().loadFile(tree.write("project/a.sdf", worldIncluding("model://robot")), confined)), 2.0);
  EXPECT_EQ(includedLinkX(loader().loadFile(tree.write("project/b.sdf", worldIncluding("package://pkg/arm.sdf")), confined)),
            4.0);
  const LoadResult refused = loader().loadFile(tree.write("project/c.sdf", worldIncluding("../outside/stray")), confined);
  EXPECT_TRUE(refused.diagnostics.contains(ErrorCode::PATH_OUTSIDE_ROOTS)) << test::dump(refused.diagnostics);
}

}  // namespace
}  // namespace interlink
