#pragma once
// The bytes of small files a Loader has read, kept for its later loads: a host that loads a
// description again (the live viewer after an edit, Python with other xacro arguments, `check DIR`
// over files that include the same ones) reads again only the files that changed. A file is kept
// at its second read in the same version (a command that reads each file once pays nothing). It is
// served from here only when a stat(2) made for this load says it is the very version that was
// read (device, inode, size, modification and status-change times), and only files that had not
// changed for a while when they were read are kept: an edit made in the same tick of the file
// system's clock as the read could otherwise keep every one of those times (git's "racy clean"
// files). Thread-safe: one Loader serves concurrent loads. Internal.
#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "interlink/Diagnostics.hpp"

namespace interlink::io {

/// One version of a file as stat(2) describes it: the same description later is the same bytes
/// (any write changes the status-change time, which no program can set back).
struct FileVersion {
  dev_t device = 0;
  ino_t inode = 0;
  off_t size = 0;
  timespec modified{};
  timespec changed{};

  static FileVersion of(const struct stat& status);
  friend bool operator==(const FileVersion& a, const FileVersion& b);
  friend bool operator!=(const FileVersion& a, const FileVersion& b) { return !(a == b); }
};

/// The bytes of a file as one load uses them: a view, and what keeps it alive (the load's own
/// buffer, or a copy the cache keeps).
struct FileText {
  std::string_view text;
  std::shared_ptr<const void> owner;
};

/// Whether `path` is on a file system whose stat(2) is the file's own state: false for those that
/// answer from a client's attribute cache (NFS, SMB, 9p, FUSE, ...), where a file edited elsewhere
/// can look unchanged for seconds.
bool onLocalFileSystem(const std::string& path);

class FileContentCache {
 public:
  using LocalCheck = bool (*)(const std::string& path);
  /// `isLocal`: which files may be kept, asked once per device (tests replace it).
  explicit FileContentCache(LocalCheck isLocal = &onLocalFileSystem) : isLocal_(isLocal) {}

  /// Files larger than this are not kept: big generated models are rarely read twice, and the
  /// loader releases their text before resolving frames to keep its peak memory low.
  static constexpr std::size_t kMaxFileBytes = std::size_t{256} << 10;
  /// All kept bytes together, counted in whole pages; the oldest entries go first.
  static constexpr std::size_t kMaxTotalBytes = std::size_t{16} << 20;
  /// A file whose times are within this of the moment it was read is not kept (see above).
  static constexpr std::time_t kSettledSeconds = 2;
  /// Files noted or kept, the oldest dropped first (a command that reads a whole tree once).
  static constexpr std::size_t kMaxFiles = 4096;

  /// The bytes kept for `path` if `now` is the version they were read from; nothing otherwise
  /// (an entry of another version is dropped).
  std::optional<FileText> find(const std::string& path, const FileVersion& now);
  /// Keeps a copy of `content`, read at `readAt` (CLOCK_REALTIME) from `path` in `version`, when it
  /// is small, not empty, was settled then, is on a local file system and was read before in the
  /// same version (the first read only notes the version). True when kept. The copy
  /// is a read-only mapping of its own, apart from the heap: kept bytes neither pin nor fragment
  /// the heap that every load allocates from and gives back (with glibc's malloc, small buffers
  /// kept between loads made the heap's top be given back to the system and faulted in again at
  /// every later load: 4 page faults a load more, +35 % on a repeated URDF load).
  bool keep(const std::string& path, const FileVersion& version, std::string_view content, const timespec& readAt);

  std::size_t keptBytes() const;
  std::size_t keptFiles() const;

 private:
  struct Entry {
    FileVersion version;
    std::shared_ptr<const void> mapping;  // the read-only copy; null: read once, only noted
    std::string_view text;                // its bytes
    std::size_t mappedBytes = 0;          // whole pages
    std::uint64_t serial = 0;             // when it was kept: its place in order_
  };
  void dropLocked(std::unordered_map<std::string, Entry>::iterator entry);
  /// Drops the oldest entries until `mappedBytes` more fit and one more entry does.
  void makeRoomLocked(std::size_t mappedBytes);

  LocalCheck isLocal_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  std::unordered_map<dev_t, bool> localDevices_;
  /// (path, serial) in the order entries were kept; an item whose entry was dropped or kept again
  /// since is skipped.
  std::deque<std::pair<std::string, std::uint64_t>> order_;
  std::uint64_t nextSerial_ = 0;
  std::size_t bytes_ = 0;
};

/// readRegularFile (interlink/io/ModelFile.hpp) through `cache`: the same checks and errors. The
/// bytes are the cache's kept copy, or a buffer of this read's own (in large blocks, io/LargeText.hpp)
/// that the FileText owns; a file served from the cache costs one stat(2) instead of stat, open,
/// fstat, read and close. Nothing when the file was refused. Defined in ModelFile.cpp.
std::optional<FileText> readLargeRegularFile(const std::string& path, std::uint64_t maxFileBytes,
                                             const SourceLocation& requestedAt, Diagnostics& diagnostics,
                                             FileContentCache& cache);

}  // namespace interlink::io
