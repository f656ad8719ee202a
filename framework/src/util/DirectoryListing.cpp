#include "util/DirectoryListing.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <filesystem>

namespace interlink::detail {

#if defined(__linux__) && defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 30))

namespace {

/// A regular file by the listing's type, or by stat when the listing does not say (DT_UNKNOWN on
/// some file systems) or names a link.
bool classify(int directoryFd, const char* name, unsigned char type, ListedFile& file) {
  if (type == DT_REG) return true;
  if (type != DT_LNK && type != DT_UNKNOWN) return false;
  struct stat target {};
  if (::fstatat(directoryFd, name, &target, 0) != 0 || !S_ISREG(target.st_mode)) return false;
  if (type == DT_LNK) {
    file.symbolicLink = true;
  } else {
    struct stat itself {};
    file.symbolicLink = ::fstatat(directoryFd, name, &itself, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(itself.st_mode);
  }
  return true;
}

}  // namespace

std::vector<ListedFile> listRegularFiles(const std::string& directory, std::error_code& error) {
  error.clear();
  std::vector<ListedFile> files;
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    error.assign(errno, std::generic_category());
    return files;
  }
  // Big enough for a plugin directory in one or two calls, small enough for the stack.
  alignas(struct dirent64) char buffer[2048];
  for (;;) {
    const ssize_t bytes = ::getdents64(fd, buffer, sizeof buffer);
    if (bytes < 0) {
      if (errno == EINTR) continue;
      error.assign(errno, std::generic_category());
      break;
    }
    if (bytes == 0) break;
    for (ssize_t at = 0; at < bytes;) {
      const auto* entry = reinterpret_cast<const struct dirent64*>(buffer + at);
      at += entry->d_reclen;
      const char* name = entry->d_name;
      if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
      ListedFile file;
      if (!classify(fd, name, entry->d_type, file)) continue;
      file.name = name;
      files.push_back(std::move(file));
    }
  }
  ::close(fd);
  return files;
}

#else

std::vector<ListedFile> listRegularFiles(const std::string& directory, std::error_code& error) {
  namespace fs = std::filesystem;
  std::vector<ListedFile> files;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    std::error_code statusError;
    if (!it->is_regular_file(statusError)) continue;
    files.push_back({it->path().filename().string(), it->is_symlink(statusError)});
  }
  return files;
}

#endif

}  // namespace interlink::detail
