#include "compose/ResourceLookup.hpp"

#include <cstdlib>
#include <filesystem>

#include "util/PathList.hpp"
#include "util/PathText.hpp"

namespace interlink::detail {
namespace {

namespace fs = std::filesystem;

/// The variables Gazebo and libsdformat users set for model:// and relative URIs, in the order
/// they are searched after INTERLINK_RESOURCE_PATH.
constexpr const char* kResourceVariables[] = {"INTERLINK_RESOURCE_PATH", "SDF_PATH", "GZ_SIM_RESOURCE_PATH",
                                              "IGN_GAZEBO_RESOURCE_PATH"};

bool startsWith(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

/// Records each candidate and stops at the first that exists. Paths are handled as text
/// (util/PathText.hpp): this runs for every mesh and include a file names.
class Search {
 public:
  explicit Search(UriLookup& lookup) : lookup_(lookup) {}

  bool tryPath(const std::string& candidate) {
    lookup_.searched.push_back(lexicallyNormal(candidate));
    const PathStatus status = pathStatus(candidate);
    if (!status.exists) return false;
    lookup_.isDirectory = status.directory;
    lookup_.path = candidate.front() == '/' ? lookup_.searched.back() : lexicallyNormal(absolutePath(candidate));
    return true;
  }

  bool tryEach(const std::vector<std::string>& directories, const std::string& relative) {
    for (const auto& directory : directories) {
      if (tryPath(joinPath(directory, relative))) return true;
    }
    return false;
  }

  /// package://PKG/REST: DIR/PKG/REST, or DIR/REST when DIR is the package itself.
  bool tryPackages(const std::vector<std::string>& directories, const std::string& package, const std::string& rest) {
    for (const auto& directory : directories) {
      if (tryPath(joinPath(joinPath(directory, package), rest))) return true;
      if (fileNameOf(directory) == package && tryPath(joinPath(directory, rest))) return true;
    }
    return false;
  }

 private:
  UriLookup& lookup_;
};

}  // namespace

ResourceSearchPath ResourceSearchPath::fromEnvironment(const std::vector<std::string>& hostResourceDirectories,
                                                       const std::vector<std::string>& hostPackageDirectories) {
  ResourceSearchPath path;
  path.resourceDirectories = hostResourceDirectories;
  for (const char* variable : kResourceVariables) {
    for (auto& dir : splitPathList(std::getenv(variable))) path.resourceDirectories.push_back(std::move(dir));
  }
  path.packageDirectories = hostPackageDirectories;
  for (auto& dir : splitPathList(std::getenv("ROS_PACKAGE_PATH"))) path.packageDirectories.push_back(std::move(dir));
  for (const auto& prefix : splitPathList(std::getenv("AMENT_PREFIX_PATH"))) {
    path.packageDirectories.push_back((fs::path(prefix) / "share").string());
  }
  return path;
}

std::vector<std::string> ResourceSearchPath::allDirectories() const {
  std::vector<std::string> all = resourceDirectories;
  all.insert(all.end(), packageDirectories.begin(), packageDirectories.end());
  return all;
}

std::string findPackageDirectory(const std::string& package, const ResourceSearchPath& searchPath) {
  for (const auto& directory : searchPath.packageDirectories) {
    const std::string inside = joinPath(directory, package);
    if (isDirectoryPath(inside)) return lexicallyNormal(inside);
    if (fileNameOf(directory) == package && isDirectoryPath(directory)) return lexicallyNormal(directory);
  }
  for (const auto& directory : searchPath.resourceDirectories) {
    const std::string inside = joinPath(directory, package);
    if (isDirectoryPath(inside)) return lexicallyNormal(inside);
  }
  return {};
}

UriLookup lookUpUri(const std::string& uri, const std::string& fromFile, const ResourceSearchPath& searchPath,
                    const std::function<std::string(const std::string&)>& findFile) {
  UriLookup lookup;
  Search search(lookup);
  const std::string_view base = parentPath(fromFile);
  // Beside the including file, then in the resource directories (libsdformat's order for
  // relative includes; Gazebo's find callback does the same for file://).
  const auto relativeName = [&](const std::string& name) {
    if (!name.empty() && name.front() == '/') return search.tryPath(name);
    return search.tryPath(joinPath(base, name)) || search.tryEach(searchPath.resourceDirectories, name);
  };
  if (startsWith(uri, "file://")) {
    relativeName(uri.substr(7));
  } else if (startsWith(uri, "model://")) {
    search.tryEach(searchPath.resourceDirectories, uri.substr(8));
  } else if (startsWith(uri, "package://")) {
    const std::string rest = uri.substr(10);
    const std::size_t slash = rest.find('/');
    const std::string package = rest.substr(0, slash);
    const std::string inside = slash == std::string::npos ? std::string() : rest.substr(slash + 1);
    if (!package.empty() && !search.tryPackages(searchPath.packageDirectories, package, inside) &&
        !search.tryEach(searchPath.resourceDirectories, rest)) {
      lookup.packageDirectory = findPackageDirectory(package, searchPath);
    }
  } else if (uri.find("://") == std::string::npos) {
    relativeName(uri);
  }  // network and unknown schemes are never fetched
  if (lookup.path.empty() && findFile) {
    // The host's callback may name a file that exists only for its own parser (libsdformat's
    // find callback works the same way), so its answer is taken as given.
    lookup.searched.push_back("the host's find callback (LoadOptions::findFile)");
    lookup.path = findFile(uri);
    lookup.fromHost = !lookup.path.empty();
    if (lookup.fromHost) lookup.packageDirectory.clear();
  }
  return lookup;
}

std::string describeMissingFromPackage(const std::string& uri, const std::string& packageDirectory) {
  const std::string rest = uri.substr(10);  // after package://
  const std::size_t slash = rest.find('/');
  return "package '" + rest.substr(0, slash) + "' is at " + packageDirectory + ", which has no '" +
         (slash == std::string::npos ? std::string() : rest.substr(slash + 1)) + "'";
}

std::string describeFailedLookup(const std::string& uri, const UriLookup& lookup) {
  std::string message = "unable to find uri[" + uri + "]";
  if (!lookup.packageDirectory.empty()) {
    return message + ": " + describeMissingFromPackage(uri, lookup.packageDirectory) +
           " (a misspelt file name, or a file not installed with the package?)";
  }
  const std::size_t scheme = uri.find("://");
  if (lookup.searched.empty()) {
    if (startsWith(uri, "package://")) {
      if (uri.size() == 10 || uri[10] == '/') return message + ": it names no package (package://PKG/...)";
      return message + ": no package path is set; set ROS_PACKAGE_PATH to the directory holding the package, "
                       "or add it with -I DIR";
    }
    if (startsWith(uri, "model://")) {
      return message + ": model:// is read from the resource paths and none is set (interlink -I DIR, "
                       "LoadOptions::resourcePaths, GZ_SIM_RESOURCE_PATH or SDF_PATH)";
    }
    if (startsWith(uri, "http://") || startsWith(uri, "https://")) {
      return message + ": a load never downloads; fetch the model (e.g. `gz fuel download`) and name it by path or "
                       "model:// with its directory as a resource path (interlink -I DIR)";
    }
    return message + ": unknown scheme '" + uri.substr(0, scheme) +
           "://' (read: paths, file://, model:// from the resource paths, package:// from ROS_PACKAGE_PATH or -I)";
  }
  constexpr std::size_t kShown = 12;
  message += "; searched: ";
  for (std::size_t i = 0; i < lookup.searched.size() && i < kShown; ++i) {
    message += (i ? ", " : "") + lookup.searched[i];
  }
  if (lookup.searched.size() > kShown) {
    message += " and " + std::to_string(lookup.searched.size() - kShown) + " more";
  }
  if (startsWith(uri, "package://")) {
    return message + " (set ROS_PACKAGE_PATH to the directory holding the package, or add it with -I DIR)";
  }
  if (startsWith(uri, "model://")) {
    return message + " (model:// is read from the resource paths: -I DIR, INTERLINK_RESOURCE_PATH, SDF_PATH, "
                     "GZ_SIM_RESOURCE_PATH, IGN_GAZEBO_RESOURCE_PATH)";
  }
  return message + " (a relative name is read beside the including file, then in the resource paths: -I DIR, "
                   "INTERLINK_RESOURCE_PATH, SDF_PATH, GZ_SIM_RESOURCE_PATH, IGN_GAZEBO_RESOURCE_PATH)";
}

}  // namespace interlink::detail
