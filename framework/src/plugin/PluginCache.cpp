// The plugin metadata cache (see PluginCache.hpp). One line per library, tab-separated fields
// with \t, \n and \\ escaped; the first line names the host the entries were made by, so a
// rebuilt core or another plugin ABI starts from an empty cache.
#include "plugin/PluginCache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include <boost/dll/runtime_symbol_info.hpp>

namespace interlink::detail {

namespace {

namespace fs = std::filesystem;

constexpr const char* kMagic = "interlink-plugin-cache 1";

std::string signatureText(const FileSignature& s) {
  return std::to_string(s.device) + " " + std::to_string(s.inode) + " " + std::to_string(s.size) + " " +
         std::to_string(s.modifiedNs);
}

std::optional<FileSignature> parseSignature(const std::string& text) {
  FileSignature s;
  const char* at = text.data();
  const char* const end = text.data() + text.size();
  auto next = [&](auto& value) {
    while (at != end && *at == ' ') ++at;
    const auto [stop, error] = std::from_chars(at, end, value);
    at = stop;
    return error == std::errc();
  };
  if (!next(s.device) || !next(s.inode) || !next(s.size) || !next(s.modifiedNs)) return std::nullopt;
  return s;
}

/// The host the entries are valid for: plugin ABI, model layout, version and the core library
/// file itself (a rebuilt core may judge plugins differently).
std::string hostIdentity() {
  std::string identity = std::string(kMagic) + " api=" + std::to_string(plugin::kApiVersion) +
                         " model=" + std::to_string(plugin::modelAbiFingerprint()) + " version=" INTERLINK_VERSION_STRING;
  std::error_code ec;
  const fs::path self = boost::dll::this_line_location(ec);
  if (!ec) {
    if (auto signature = signatureOf(self.string())) identity += " core=" + signatureText(*signature);
  }
  return identity;
}

/// The bytes of a cache file, read with plain system calls: a file stream's buffer and locale
/// set-up cost more at start-up than the read (a missing or unreadable file reads as empty).
std::string readSmallFile(const std::string& path) {
  std::string text;
  // Non-blocking: a FIFO put where the cache belongs must not hang the start-up.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return text;
  constexpr off_t kLimit = 16 << 20;  // a cache is a few kilobytes; anything larger is not ours
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= kLimit) {
    text.resize(static_cast<std::size_t>(st.st_size));
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t bytes = ::read(fd, text.data() + done, text.size() - done);
      if (bytes < 0 && errno == EINTR) continue;
      if (bytes <= 0) break;
      done += static_cast<std::size_t>(bytes);
    }
    text.resize(done);  // a file that shrank meanwhile reads as what was there
  }
  ::close(fd);
  return text;
}

}  // namespace

std::optional<FileSignature> signatureOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  FileSignature s;
  s.device = static_cast<std::uint64_t>(st.st_dev);
  s.inode = static_cast<std::uint64_t>(st.st_ino);
  s.size = static_cast<std::uint64_t>(st.st_size);
  s.modifiedNs = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return s;
}

std::string PluginCache::defaultLocation() {
  const char* setting = std::getenv("INTERLINK_PLUGIN_CACHE");
  if (setting && *setting) {
    const std::string value = setting;
    if (value == "off" || value == "0" || value == "no") return {};
    return value;
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') {
    return std::string(xdg) + "/interlink/plugins.cache";
  }
  if (const char* home = std::getenv("HOME"); home && *home == '/') {
    return std::string(home) + "/.cache/interlink/plugins.cache";
  }
  return {};
}

PluginCache::PluginCache(std::string file) : file_(std::move(file)) {
  if (file_.empty()) return;
  const std::string text = readSmallFile(file_);
  std::size_t at = 0;
  std::string line;
  auto nextLine = [&] {
    if (at >= text.size()) return false;
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    line.assign(text, at, end - at);
    at = end + 1;
    return true;
  };
  if (!nextLine() || line != hostIdentity()) return;
  while (nextLine()) {
    // path, signature, then the verdict (PluginRecord.hpp)
    const auto fields = splitFields(line, '\t');
    if (fields.size() < 4) continue;
    auto signature = parseSignature(fields[1]);
    if (!signature) continue;
    CachedLibrary entry;
    entry.signature = *signature;
    if (!parseVerdictFields(fields, 2, entry)) continue;
    if (entry.accepted) entry.info.path = unescapeField(fields[0]);
    entries_[unescapeField(fields[0])] = std::move(entry);
  }
}

const CachedLibrary* PluginCache::find(const std::string& path, const FileSignature& signature) const {
  auto found = entries_.find(path);
  if (found == entries_.end() || !(found->second.signature == signature)) return nullptr;
  return &found->second;
}

void PluginCache::store(const std::string& path, CachedLibrary entry) {
  auto& slot = entries_[path];
  slot = std::move(entry);
  changed_ = true;
}

void PluginCache::saveIfChanged() {
  if (file_.empty() || !changed_) return;
  changed_ = false;
  std::error_code ec;
  const fs::path target(file_);
  fs::create_directories(target.parent_path(), ec);
  // Another process may write at the same time: each writes its own file and renames it in place.
  const fs::path temporary = target.string() + "." + std::to_string(::getpid()) + ".tmp";
  {
    std::ofstream out(temporary.string(), std::ios::trunc);
    if (!out) return;
    out << hostIdentity() << "\n";
    for (const auto& [path, entry] : entries_) {
      if (!signatureOf(path)) continue;  // the library is gone: forget it, so the cache stays small
      out << escapeField(path) << "\t" << signatureText(entry.signature) << "\t" << verdictFields(entry) << "\n";
    }
    out.close();
    if (!out) {
      fs::remove(temporary, ec);
      return;
    }
  }
  fs::rename(temporary, target, ec);
  if (ec) fs::remove(temporary, ec);
}

}  // namespace interlink::detail
