#pragma once
// The plugin metadata cache: what discovery learnt about each library (accepted with its name,
// version, kind and extensions, or refused with the reason), keyed by the library's path and a
// signature of the file, so a later process can register every plugin without opening one
// (GStreamer's registry works the same way). Stored in $XDG_CACHE_HOME/interlink (else
// ~/.cache/interlink); INTERLINK_PLUGIN_CACHE=off disables it, INTERLINK_PLUGIN_CACHE=FILE moves it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "interlink/Diagnostic.hpp"
#include "interlink/PluginRegistry.hpp"
#include "plugin/PluginRecord.hpp"

namespace interlink::detail {

/// What identifies one version of a library file: a rebuilt or replaced file differs in one field.
struct FileSignature {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t size = 0;
  std::int64_t modifiedNs = 0;
  bool operator==(const FileSignature& o) const {
    return device == o.device && inode == o.inode && size == o.size && modifiedNs == o.modifiedNs;
  }
};

/// The signature of a file, or nothing when it cannot be read.
std::optional<FileSignature> signatureOf(const std::string& path);

/// What discovery concluded about one version of a library.
struct CachedLibrary : LibraryVerdict {
  FileSignature signature;
};

class PluginCache {
 public:
  /// The cache file for this user, or "" when disabled.
  static std::string defaultLocation();

  /// Reads `file` (a missing, unreadable, foreign or corrupt cache is an empty one).
  explicit PluginCache(std::string file);

  /// The entry for `path` when its signature still matches the file.
  const CachedLibrary* find(const std::string& path, const FileSignature& signature) const;
  void store(const std::string& path, CachedLibrary entry);
  /// Writes the cache when something changed (atomically; failures are ignored: the cache only
  /// saves time).
  void saveIfChanged();

 private:
  std::string file_;
  std::map<std::string, CachedLibrary> entries_;
  bool changed_ = false;
};

}  // namespace interlink::detail
