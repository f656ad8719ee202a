#include "io/FileContentCache.hpp"

#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace interlink::io {

namespace {

bool sameTime(const timespec& a, const timespec& b) { return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec; }

/// a - b in whole seconds, rounded down.
std::time_t secondsBetween(const timespec& a, const timespec& b) {
  std::time_t seconds = a.tv_sec - b.tv_sec;
  if (a.tv_nsec < b.tv_nsec) --seconds;
  return seconds;
}

/// A read-only private mapping holding a copy of `text`, unmapped with the last reference; null
/// when the system gives none.
std::shared_ptr<const void> mappedCopy(std::string_view text, std::size_t mappedBytes) {
  void* memory = ::mmap(nullptr, mappedBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return nullptr;
  std::memcpy(memory, text.data(), text.size());
  ::mprotect(memory, mappedBytes, PROT_READ);  // kept bytes are never written again
  return std::shared_ptr<const void>(memory, [mappedBytes](const void* p) { ::munmap(const_cast<void*>(p), mappedBytes); });
}

}  // namespace

/// By the file system's magic number (statfs(2)); one it cannot tell is not local.
bool onLocalFileSystem(const std::string& path) {
  struct statfs system {};
  if (::statfs(path.c_str(), &system) != 0) return false;
  switch (static_cast<unsigned long>(system.f_type)) {
    case 0x6969UL:      // NFS
    case 0x517BUL:      // SMB
    case 0xFF534D42UL:  // CIFS
    case 0xFE534D42UL:  // SMB2
    case 0x65735546UL:  // FUSE
    case 0x01021997UL:  // 9p (virtual machines' shared folders)
    case 0x00C36400UL:  // Ceph
    case 0x5346414FUL:  // AFS
    case 0x73757245UL:  // Coda
    case 0x564CUL:      // NCP
    case 0x47504653UL:  // GPFS
    case 0x0BD00BD0UL:  // Lustre
      return false;
    default:
      return true;
  }
}

FileVersion FileVersion::of(const struct stat& status) {
  return FileVersion{status.st_dev, status.st_ino, status.st_size, status.st_mtim, status.st_ctim};
}

bool operator==(const FileVersion& a, const FileVersion& b) {
  return a.device == b.device && a.inode == b.inode && a.size == b.size && sameTime(a.modified, b.modified) &&
         sameTime(a.changed, b.changed);
}

std::optional<FileText> FileContentCache::find(const std::string& path, const FileVersion& now) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto entry = entries_.find(path);
  if (entry == entries_.end()) return std::nullopt;
  if (entry->second.version != now) {
    dropLocked(entry);
    return std::nullopt;
  }
  if (!entry->second.mapping) return std::nullopt;  // read once so far: the caller reads it again
  return FileText{entry->second.text, entry->second.mapping};
}

bool FileContentCache::keep(const std::string& path, const FileVersion& version, std::string_view content,
                            const timespec& readAt) {
  if (content.empty() || content.size() > kMaxFileBytes) return false;
  // Settled: neither time within kSettledSeconds of the read (nor in the future).
  if (secondsBetween(readAt, version.modified) < kSettledSeconds ||
      secondsBetween(readAt, version.changed) < kSettledSeconds) {
    return false;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  // The first read of a version is only noted: a process that reads each file once (a command
  // checking one model) pays for no copy, no mapping and no statfs. A second read of the same
  // version is kept.
  auto existing = entries_.find(path);
  const bool readBefore = existing != entries_.end() && existing->second.version == version;
  if (!readBefore) {
    if (existing != entries_.end()) dropLocked(existing);
    makeRoomLocked(0);
    const std::uint64_t serial = nextSerial_++;
    entries_.emplace(path, Entry{version, nullptr, {}, 0, serial});
    order_.emplace_back(path, serial);
    return false;
  }
  // A file system's kind is asked once per device (statfs), not for every file kept.
  auto device = localDevices_.find(version.device);
  if (device == localDevices_.end()) device = localDevices_.emplace(version.device, isLocal_(path)).first;
  if (!device->second) return false;
  static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t mappedBytes = (content.size() + page - 1) / page * page;
  std::shared_ptr<const void> mapping = mappedCopy(content, mappedBytes);
  if (!mapping) return false;
  dropLocked(existing);
  makeRoomLocked(mappedBytes);
  const std::uint64_t serial = nextSerial_++;
  bytes_ += mappedBytes;
  const std::string_view text(static_cast<const char*>(mapping.get()), content.size());
  entries_.emplace(path, Entry{version, std::move(mapping), text, mappedBytes, serial});
  order_.emplace_back(path, serial);
  return true;
}

void FileContentCache::makeRoomLocked(std::size_t mappedBytes) {
  while ((bytes_ + mappedBytes > kMaxTotalBytes || entries_.size() >= kMaxFiles) && !order_.empty()) {
    auto oldest = entries_.find(order_.front().first);
    if (oldest != entries_.end() && oldest->second.serial == order_.front().second) dropLocked(oldest);
    order_.pop_front();
  }
  // Items of dropped entries stay in the order list until they reach its front: compacted when
  // they outnumber the entries, so that it stays proportional to what is kept.
  if (order_.size() > 2 * entries_.size() + 64) {
    std::deque<std::pair<std::string, std::uint64_t>> live;
    for (auto& item : order_) {
      auto kept = entries_.find(item.first);
      if (kept != entries_.end() && kept->second.serial == item.second) live.push_back(std::move(item));
    }
    order_.swap(live);
  }
}

void FileContentCache::dropLocked(std::unordered_map<std::string, Entry>::iterator entry) {
  bytes_ -= entry->second.mappedBytes;
  entries_.erase(entry);
}

std::size_t FileContentCache::keptBytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

std::size_t FileContentCache::keptFiles() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<std::size_t>(
      std::count_if(entries_.begin(), entries_.end(), [](const auto& entry) { return entry.second.mapping != nullptr; }));
}

}  // namespace interlink::io
