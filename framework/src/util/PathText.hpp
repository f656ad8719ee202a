#pragma once
// POSIX paths as text: the few std::filesystem operations URI lookup needs, with the results
// std::filesystem gives, without building a path object. A path object splits its text into
// components, each its own allocation; looking up one mesh or include URI made a dozen of them
// (~30 K instructions a URI, a quarter of loading Franka's URDF). tests/util checks each function
// against std::filesystem on generated paths.
#include <string>
#include <string_view>

namespace interlink::detail {

/// std::filesystem::path(path).lexically_normal().string() on POSIX: "." and "name/.." removed,
/// separators collapsed, ".." after the root dropped, "." for a path that becomes empty.
std::string lexicallyNormal(std::string_view path);

/// std::filesystem::path(directory) / name, as text: `name` when it is absolute or `directory` is
/// empty, else the two with one '/' between them.
std::string joinPath(std::string_view directory, std::string_view name);

/// std::filesystem::path(path).parent_path().string() on POSIX.
std::string_view parentPath(std::string_view path);

/// std::filesystem::path(path).filename().string() on POSIX ("" after a trailing '/').
std::string_view fileNameOf(std::string_view path);

/// std::filesystem::absolute(path) as text: `path` when absolute, else the working directory
/// joined with it; `path` unchanged when the working directory cannot be had.
std::string absolutePath(std::string_view path);

/// std::filesystem::exists(path, ec) and is_directory(path, ec): stat(2) succeeds (links
/// followed), and names a directory.
bool pathExists(const std::string& path);
bool isDirectoryPath(const std::string& path);
/// Both answers from one stat(2), for a caller that needs both (a URI found, then read).
struct PathStatus {
  bool exists = false;
  bool directory = false;
};
PathStatus pathStatus(const std::string& path);

/// What std::filesystem::symlink_status(path) says is not a symbolic link: a file that is not
/// one, or nothing there (ENOENT, ENOTDIR). False for a link, or when lstat(2) fails otherwise.
bool isLinkFree(const std::string& path);

}  // namespace interlink::detail
