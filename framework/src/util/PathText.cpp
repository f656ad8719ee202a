#include "util/PathText.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

namespace interlink::detail {

namespace {

/// True when `path` is its own normal form: one separator between names (a leading "//" is not),
/// and no name "." or "..". Most paths a load makes are (a package directory joined with a mesh's
/// relative path): they are copied as they are, without splitting them into names.
bool isAlreadyNormal(std::string_view path, bool rooted) {
  std::size_t at = rooted ? 1 : 0;
  if (rooted && path.size() > 1 && path[1] == '/') return false;
  while (at < path.size()) {
    std::size_t end = path.find('/', at);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view name = path.substr(at, end - at);
    if (name.empty() || name == "." || name == "..") return false;
    at = end + 1;  // past the end after the last name, with or without a separator after it
  }
  return true;
}

}  // namespace

std::string lexicallyNormal(std::string_view path) {
  if (path.empty()) return {};
  // Only separators: the root, which libstdc++ gives back as written ("//" stays "//").
  if (path.find_first_not_of('/') == std::string_view::npos) return std::string(path);
  const bool rooted = path.front() == '/';
  if (isAlreadyNormal(path, rooted)) return std::string(path);
  // The names between separators, "." and "name/.." already taken out (the standard's steps 3 to 6).
  std::vector<std::string_view> names;
  names.reserve(static_cast<std::size_t>(std::count(path.begin(), path.end(), '/')) + 1);
  // Whether the result ends with a separator: a written one after the last name, or the one left
  // where a last "." or "name/.." was taken out ("a/b/.." is "a/").
  bool trailing = false;
  std::size_t at = 0;
  while (at < path.size()) {
    while (at < path.size() && path[at] == '/') ++at;
    if (at == path.size()) {
      trailing = true;  // a separator after the last name
      break;
    }
    std::size_t end = path.find('/', at);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view name = path.substr(at, end - at);
    at = end;
    trailing = false;
    if (name == ".") {
      trailing = true;
    } else if (name == "..") {
      if (!names.empty() && names.back() != "..") {
        names.pop_back();
        trailing = true;
      } else if (!rooted) {
        names.push_back(name);
      }  // above the root: dropped
    } else {
      names.push_back(name);
    }
  }
  std::string out;
  out.reserve(path.size());
  if (rooted) out += '/';
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += '/';
    out.append(names[i].data(), names[i].size());
  }
  // No separator after a last ".." (step 7), nor after the root alone.
  if (trailing && !names.empty() && names.back() != "..") out += '/';
  if (out.empty()) out = ".";
  return out;
}

std::string joinPath(std::string_view directory, std::string_view name) {
  if (directory.empty() || (!name.empty() && name.front() == '/')) return std::string(name);
  std::string out;
  out.reserve(directory.size() + 1 + name.size());
  out.append(directory.data(), directory.size());
  if (out.back() != '/') out += '/';
  out.append(name.data(), name.size());
  return out;
}

std::string_view parentPath(std::string_view path) {
  // The parent of a path with one name (or the root alone) is the root or nothing; else the
  // text before the last name, without the separators between them ("a//b" has parent "a").
  std::size_t end = path.size();
  if (end > 0 && path[end - 1] != '/') {
    while (end > 0 && path[end - 1] != '/') --end;  // the last name
  } else {
    // A trailing separator: the last "name" is empty, and its parent is the path without it.
    std::size_t kept = end;
    while (kept > 0 && path[kept - 1] == '/') --kept;
    if (kept == 0) return path;  // the root (or nothing) is its own parent, as written
    return path.substr(0, kept);
  }
  if (end == 0) return {};  // one relative name
  std::size_t kept = end;
  while (kept > 0 && path[kept - 1] == '/') --kept;
  if (kept == 0) return path.substr(0, 1);  // "/name": the root
  return path.substr(0, kept);
}

std::string_view fileNameOf(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string absolutePath(std::string_view path) {
  if (!path.empty() && path.front() == '/') return std::string(path);
  std::string directory(256, '\0');
  while (getcwd(directory.data(), directory.size()) == nullptr) {
    if (directory.size() > (1u << 16)) return std::string(path);
    directory.resize(directory.size() * 2);
  }
  directory.resize(directory.find('\0'));
  if (path.empty()) return directory;
  return joinPath(directory, path);
}

PathStatus pathStatus(const std::string& path) {
  struct stat status {};
  if (path.empty() || ::stat(path.c_str(), &status) != 0) return {};
  return PathStatus{true, S_ISDIR(status.st_mode)};
}

bool pathExists(const std::string& path) { return pathStatus(path).exists; }

bool isDirectoryPath(const std::string& path) { return pathStatus(path).directory; }

bool isLinkFree(const std::string& path) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) == 0) return !S_ISLNK(status.st_mode);
  return errno == ENOENT || errno == ENOTDIR;
}

}  // namespace interlink::detail
