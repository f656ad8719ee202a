#pragma once
// Tells when any of a set of files changes: inotify on their directories (editors often replace
// a file by renaming a new one over it), checked against each file's size and modification time;
// polling those every quarter second where inotify is unavailable.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace interlink::cli::view {

class FileWatcher {
 public:
  enum class Method { Inotify, Polling };
  /// Watches `files` with inotify when it can (falling back to polling), or by polling alone. A
  /// file modified at or after `since` (e.g. while the model was being loaded from it) counts as
  /// changed already: the first wait returns at once.
  explicit FileWatcher(std::vector<std::string> files, Method method = Method::Inotify,
                       std::chrono::system_clock::time_point since = {});
  ~FileWatcher();
  FileWatcher(const FileWatcher&) = delete;
  FileWatcher& operator=(const FileWatcher&) = delete;

  /// Watches `files` from now on, e.g. those of a model just reloaded. A file watched already keeps
  /// the version last seen (seen before the reload read it, so an edit made during the reload
  /// still counts, whatever the file system's clock); a new file modified at or after `since`
  /// counts as changed already.
  void watch(std::vector<std::string> files, std::chrono::system_clock::time_point since);
  /// Waits up to `timeout` for a change of a watched file; true when one changed.
  bool waitForChange(std::chrono::milliseconds timeout);
  /// Whether inotify is used (false: polling).
  bool usesInotify() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace interlink::cli::view
