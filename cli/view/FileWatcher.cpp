#include "view/FileWatcher.hpp"

#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <thread>
#include <unordered_map>

namespace interlink::cli::view {

namespace {

/// What identifies a version of a file (a missing file is a version too).
struct Signature {
  bool exists = false;
  long long size = 0;
  long long modifiedNs = 0;
  unsigned long long inode = 0;
  bool operator!=(const Signature& o) const {
    return exists != o.exists || size != o.size || modifiedNs != o.modifiedNs || inode != o.inode;
  }
};

Signature signatureOf(const std::string& path) {
  struct stat s {};
  if (::stat(path.c_str(), &s) != 0) return {};
  return {true, static_cast<long long>(s.st_size), static_cast<long long>(s.st_mtim.tv_sec) * 1000000000LL + s.st_mtim.tv_nsec,
          static_cast<unsigned long long>(s.st_ino)};
}

}  // namespace

struct FileWatcher::Impl {
  std::vector<std::string> files;
  std::vector<Signature> signatures;
  int inotify = -1;
  std::set<std::string> watchedDirectories;
  bool changedAlready = false;

  bool changed() {
    bool any = false;
    for (std::size_t i = 0; i < files.size(); ++i) {
      const Signature now = signatureOf(files[i]);
      if (now != signatures[i]) {
        signatures[i] = now;
        any = true;
      }
    }
    return any;
  }

  void setFiles(std::vector<std::string> newFiles, std::chrono::system_clock::time_point since) {
    const long long sinceNs = std::chrono::duration_cast<std::chrono::nanoseconds>(since.time_since_epoch()).count();
    std::unordered_map<std::string, Signature> known;  // a model may have thousands of meshes
    for (std::size_t i = 0; i < files.size(); ++i) known.emplace(files[i], signatures[i]);
    std::vector<Signature> newSignatures;
    for (const std::string& file : newFiles) {
      if (auto seen = known.find(file); seen != known.end()) {
        newSignatures.push_back(seen->second);
        continue;
      }
      newSignatures.push_back(signatureOf(file));
      if (since != std::chrono::system_clock::time_point{} && newSignatures.back().modifiedNs >= sinceNs) changedAlready = true;
    }
    files = std::move(newFiles);
    signatures = std::move(newSignatures);
    if (inotify >= 0) watchDirectories();
  }

  void watchDirectories() {
    for (const std::string& file : files) {
      const std::string directory = std::filesystem::path(file).parent_path().string();
      if (!watchedDirectories.insert(directory).second) continue;
      if (::inotify_add_watch(inotify, directory.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MODIFY) < 0) {
        ::close(inotify);  // a directory we cannot watch: poll everything instead
        inotify = -1;
        return;
      }
    }
  }
};

FileWatcher::FileWatcher(std::vector<std::string> files, Method method, std::chrono::system_clock::time_point since)
    : impl_(std::make_unique<Impl>()) {
  if (method == Method::Inotify) impl_->inotify = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  impl_->setFiles(std::move(files), since);
}

void FileWatcher::watch(std::vector<std::string> files, std::chrono::system_clock::time_point since) {
  impl_->setFiles(std::move(files), since);
}

FileWatcher::~FileWatcher() {
  if (impl_->inotify >= 0) ::close(impl_->inotify);
}

bool FileWatcher::usesInotify() const { return impl_->inotify >= 0; }

bool FileWatcher::waitForChange(std::chrono::milliseconds timeout) {
  if (impl_->changedAlready) {
    impl_->changedAlready = false;
    return true;
  }
  if (impl_->inotify < 0) {
    // Polling: a quarter second between looks keeps a live page under a second behind an edit.
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
      if (impl_->changed()) return true;
      std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(std::chrono::milliseconds(250), timeout));
    }
    return impl_->changed();
  }
  pollfd descriptor{impl_->inotify, POLLIN, 0};
  if (::poll(&descriptor, 1, static_cast<int>(timeout.count())) > 0) {
    alignas(inotify_event) char buffer[16384];
    while (::read(impl_->inotify, buffer, sizeof buffer) > 0) {
    }
    // An editor writes in steps (truncate, write, rename): let it finish before reading.
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    while (::read(impl_->inotify, buffer, sizeof buffer) > 0) {
    }
  }
  // Events name directories' entries, some of them not the model's: the signatures decide.
  return impl_->changed();
}

}  // namespace interlink::cli::view
