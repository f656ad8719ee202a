#pragma once
// Finding the file a URI names, as Gazebo and libsdformat do: beside the including file first,
// then in the search path; package:// in ROS package paths. Every place tried is remembered so
// that a URI_LOOKUP error can list them.
#include <functional>
#include <string>
#include <vector>

namespace interlink::detail {

/// Where URIs are searched, gathered once per load.
struct ResourceSearchPath {
  /// Directories holding models (model://NAME is DIR/NAME), in order: the host's (-I,
  /// LoadOptions::resourcePaths), then INTERLINK_RESOURCE_PATH, SDF_PATH, GZ_SIM_RESOURCE_PATH,
  /// IGN_GAZEBO_RESOURCE_PATH.
  std::vector<std::string> resourceDirectories;
  /// Directories holding ROS packages (package://PKG is DIR/PKG): LoadOptions::packagePaths,
  /// ROS_PACKAGE_PATH, then <prefix>/share of every AMENT_PREFIX_PATH entry.
  std::vector<std::string> packageDirectories;

  /// The host's directories followed by those of the environment variables above.
  static ResourceSearchPath fromEnvironment(const std::vector<std::string>& hostResourceDirectories,
                                            const std::vector<std::string>& hostPackageDirectories);
  /// Every directory, resources then packages: the roots of the path policy.
  std::vector<std::string> allDirectories() const;
};

struct UriLookup {
  std::string path;                   // the file or directory found; empty when none
  bool isDirectory = false;           // what the stat(2) that found `path` said (not for fromHost)
  std::vector<std::string> searched;  // the candidates tried, in order
  bool fromHost = false;              // the host's find callback answered
  /// package:// only, when nothing was found: the package's directory if the package itself is on
  /// the path. A file missing from a package that was found is a different mistake (a misspelt
  /// name, files not installed) from a package that is not on the path, and gets other advice.
  std::string packageDirectory;
};

/// Resolves `uri` as written in `fromFile`. file://NAME and plain relative names are searched
/// beside `fromFile`, then in the resource directories; model://NAME in the resource directories;
/// package://PKG/REST in the package directories (and, like libsdformat's users expect, in the
/// resource directories). Other schemes are never fetched. `findFile` (may be empty) is asked last.
UriLookup lookUpUri(const std::string& uri, const std::string& fromFile, const ResourceSearchPath& searchPath,
                    const std::function<std::string(const std::string&)>& findFile);

/// The directory of ROS package `package` where package:// looks for it (DIR/PKG of a package
/// directory, a package directory named PKG, or DIR/PKG of a resource directory), or "".
std::string findPackageDirectory(const std::string& package, const ResourceSearchPath& searchPath);

/// For a package:// URI whose package is at `packageDirectory`: "package 'PKG' is at DIR, which has
/// no 'REST'" (the include and mesh messages share these words).
std::string describeMissingFromPackage(const std::string& uri, const std::string& packageDirectory);

/// "unable to find uri[URI]; searched: a, b, c" (the list shortened past a dozen places), or, for a
/// package:// URI whose package was found, where the package is and what it lacks.
std::string describeFailedLookup(const std::string& uri, const UriLookup& lookup);

}  // namespace interlink::detail
