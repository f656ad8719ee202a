// Plugin discovery, the ABI handshake, and the registry by extension.
#include "interlink/PluginRegistry.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include <sys/stat.h>

#include <boost/dll/runtime_symbol_info.hpp>

#include "plugin/PluginCache.hpp"
#include "plugin/PluginLibrary.hpp"
#include "plugin/PluginScanner.hpp"
#include "util/DirectoryListing.hpp"
#include "util/PathList.hpp"

#include "interlink/plugin/HardwareApi.hpp"

#include "interlink/TextNumbers.hpp"

namespace interlink {

namespace {

namespace fs = std::filesystem;
using detail::splitPathList;
using detail::writableByOthers;

/// The plugin directory beside the core library: <libdir>/interlink/plugins. The same relation
/// holds in the build tree and in an install, so nothing needs an environment variable.
std::string defaultPluginDirectory() {
  std::error_code ec;
  fs::path self = boost::dll::this_line_location(ec);
  if (ec) return {};
  return (self.parent_path() / INTERLINK_PLUGIN_RELATIVE_DIR).lexically_normal().string();
}

std::string extensionOf(const std::string& path) {
  return toLower(fs::path(path).extension().string());
}

bool endsWith(const std::string& text, const char* suffix) {
  const std::size_t length = std::char_traits<char>::length(suffix);
  return text.size() > length && text.compare(text.size() - length, length, suffix) == 0;
}

/// A file name that a shared library may have: NAME.so, NAME.so.1.2, NAME.dylib, NAME.dll.
bool looksLikeSharedLibrary(const std::string& name) {
  return endsWith(name, ".so") || name.find(".so.") != std::string::npos || endsWith(name, ".dylib") ||
         endsWith(name, ".dll");
}

/// Runs `call` into a plugin; an exception it lets escape (a plugin written without Register.hpp's
/// guard) becomes PLUGIN_EXCEPTION, "while `doing` the file".
template <typename Call>
void runGuarded(const std::string& plugin, const char* doing, const std::string& path, Diagnostics& diagnostics,
                Call call) {
  try {
    call();
  } catch (const std::exception& e) {
    diagnostics.error(ErrorCode::PLUGIN_EXCEPTION,
                      "plugin '" + plugin + "' threw while " + doing + " the file: " + e.what(), SourceLocation{path, 0, 0});
  } catch (...) {
    diagnostics.error(ErrorCode::PLUGIN_EXCEPTION,
                      "plugin '" + plugin + "' threw an unknown exception while " + doing + " the file",
                      SourceLocation{path, 0, 0});
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
PluginHandle::PluginHandle(std::shared_ptr<const detail::LoadedPlugin> plugin) : plugin_(std::move(plugin)) {}

const PluginInfo& PluginHandle::info() const { return plugin_->info; }

const plugin::PluginDescriptor& PluginHandle::descriptor() const { return *plugin_->descriptor; }

std::shared_ptr<const void> PluginHandle::keepAlive() const { return plugin_; }

void PluginHandle::load(const plugin::LoadRequest& request, Document& document, Diagnostics& diagnostics) const {
  const auto* format = plugin_->descriptor->format;
  if (!format || !format->load) {
    diagnostics.error(ErrorCode::PLUGIN_ERROR, "plugin '" + plugin_->info.name + "' cannot read files",
                      SourceLocation{request.path, 0, 0});
    return;
  }
  // Register.hpp already guards author code; this catches plugins written without it.
  runGuarded(plugin_->info.name, "reading", request.path, diagnostics, [&] { format->load(request, document, diagnostics); });
}

bool PluginHandle::readsXmlTree() const {
  return plugin_ && plugin::formatReadsXmlTree(plugin_->descriptor->format);
}

bool PluginHandle::expands() const { return plugin_ && plugin::formatHasExpand(plugin_->descriptor->format); }

void PluginHandle::expand(const plugin::LoadRequest& request, plugin::ExpandedDocument& expanded,
                          Diagnostics& diagnostics) const {
  if (!expands()) {
    diagnostics.error(ErrorCode::PLUGIN_ERROR, "plugin '" + plugin_->info.name + "' cannot expand files",
                      SourceLocation{request.path, 0, 0});
    return;
  }
  runGuarded(plugin_->info.name, "expanding", request.path, diagnostics, [&] { plugin_->descriptor->format->expand(request, expanded, diagnostics); });
}

// ---------------------------------------------------------------------------------------------
struct PluginRegistry::Impl {
  /// An accepted library: registered from the cache (not opened yet) or opened.
  struct Entry {
    PluginInfo info;
    PluginHandle handle;  // empty until opened
    bool failed = false;  // opened later and refused after all
  };

  std::vector<std::string> extraDirectories;
  std::deque<Entry> entries;                 // registration order
  mutable std::vector<PluginHandle> plugins;  // the opened ones, registration order
  mutable bool pluginsStale = false;
  std::vector<RefusedLibrary> refused;
  Diagnostics notices;
  std::set<std::string> seenPaths;                              // canonical paths already tried
  std::map<std::string, std::vector<std::size_t>> byExtension;  // extension -> entry indices, registration order
  std::optional<std::string> cacheFile;                         // unset: the default location
  std::unique_ptr<detail::PluginCache> cache;
  // Lazy opening happens in const lookups, possibly from concurrent loads.
  mutable std::recursive_mutex mutex;

  void refuse(const std::string& path, ErrorCode code, const std::string& why) {
    refused.push_back({path, makeError(code, why, SourceLocation{path, 0, 0})});
  }

  detail::PluginCache& theCache() {
    if (!cache) cache = std::make_unique<detail::PluginCache>(cacheFile ? *cacheFile : detail::PluginCache::defaultLocation());
    return *cache;
  }

  /// Adds an accepted library (opened or not) unless its name is taken; registers its extensions.
  bool accept(PluginInfo info, PluginHandle handle) {
    for (const auto& existing : entries) {
      if (!existing.failed && existing.info.name == info.name) {
        refuse(info.path, ErrorCode::PLUGIN_REFUSED,
               "a plugin named '" + info.name + "' is already loaded from " + existing.info.path);
        return false;
      }
    }
    entries.push_back({std::move(info), std::move(handle), false});
    pluginsStale = true;
    registerExtensions(entries.size() - 1);
    return true;
  }

  void registerExtensions(std::size_t index) {
    const PluginInfo& info = entries[index].info;
    for (const std::string& ext : info.extensions) {
      auto& claimants = byExtension[ext];
      for (std::size_t other : claimants) {
        const PluginInfo& prior = entries[other].info;
        if (info.hasSniffer && prior.hasSniffer) continue;
        // Who really wins, as formatFor decides: a sniffer that recognises the file, else the
        // plugin without a sniffer loaded last.
        std::string outcome;
        if (!info.hasSniffer && !prior.hasSniffer) {
          outcome = "'" + info.name + "' (loaded later) wins";
        } else {
          const PluginInfo& sniffing = info.hasSniffer ? info : prior;
          const PluginInfo& plain = info.hasSniffer ? prior : info;
          outcome = "'" + sniffing.name + "' wins when its sniffer recognises the file, otherwise '" + plain.name + "'";
        }
        notices.warning(ErrorCode::EXTENSION_CONFLICT,
                        "plugins '" + prior.name + "' (" + prior.path + ") and '" + info.name + "' (" + info.path +
                            ") both claim '" + ext + "' and not both have a sniffer: " + outcome);
      }
      claimants.push_back(index);
    }
  }

  /// The entry's handle, opening the library first when needed; empty when it fails now.
  PluginHandle ensureOpen(std::size_t index) {
    Entry& entry = entries[index];
    if (entry.handle || entry.failed) return entry.handle;
    detail::OpenedLibrary opened = detail::openPluginLibrary(entry.info.path);
    if (!opened.plugin) {
      // The cache said yes, the library says no (e.g. a dependency went away): remember that.
      entry.failed = true;
      refuse(entry.info.path, opened.code, opened.reason);
      if (auto signature = detail::signatureOf(entry.info.path)) {
        detail::CachedLibrary refusal;
        refusal.signature = *signature;
        refusal.refusal = opened.code;
        refusal.reason = opened.reason;
        theCache().store(entry.info.path, std::move(refusal));
        theCache().saveIfChanged();
      }
      return {};
    }
    entry.handle = PluginHandle(std::move(opened.plugin));
    pluginsStale = true;
    return entry.handle;
  }

  /// Asks the sniffers of `candidates` about `head`; the highest positive score wins, a sniffer
  /// answering 0 disqualifies its plugin, and the last candidate without a sniffer is the fallback.
  PluginHandle choose(const std::vector<std::size_t>& candidates, const std::string& path, std::string_view head,
                      int minimumScore = 1) {
    int bestScore = minimumScore - 1;
    PluginHandle best;
    PluginHandle lastWithoutSniffer;
    for (std::size_t index : candidates) {
      const PluginHandle handle = ensureOpen(index);
      if (!handle) continue;
      const auto sniff = handle.descriptor().format->sniff;
      if (!sniff) {
        lastWithoutSniffer = handle;
        continue;
      }
      int score = 0;
      try {
        score = sniff(path.c_str(), head.data(), head.size());
      } catch (...) {
        score = 0;
      }
      if (score > bestScore) {
        bestScore = score;
        best = handle;
      }
    }
    return best ? best : minimumScore > 1 ? PluginHandle() : lastWithoutSniffer;
  }
};

PluginRegistry::PluginRegistry() : impl_(std::make_unique<Impl>()) {}
PluginRegistry::~PluginRegistry() = default;

std::vector<std::string> PluginRegistry::searchDirectories() const {
  std::vector<std::string> dirs;
  const std::string own = defaultPluginDirectory();
  if (!own.empty()) dirs.push_back(own);
  for (auto& d : splitPathList(std::getenv("INTERLINK_PLUGIN_PATH"))) dirs.push_back(d);
  for (auto& d : impl_->extraDirectories) dirs.push_back(d);
  return dirs;
}

void PluginRegistry::addDirectory(const std::string& directory) { impl_->extraDirectories.push_back(directory); }

void PluginRegistry::setCacheFile(const std::string& file) {
  std::lock_guard<std::recursive_mutex> lock(impl_->mutex);
  impl_->cacheFile = file;
  impl_->cache.reset();
}

void PluginRegistry::discover() {
  for (const std::string& dir : searchDirectories()) discoverDirectory(dir);
}

void PluginRegistry::discoverDirectory(const std::string& dir) {
  std::lock_guard<std::recursive_mutex> lock(impl_->mutex);
  std::error_code ec;
  // A library's key is its canonical path. The directory is resolved once: a file in it that is
  // not a symbolic link is then the canonical directory plus its name (resolving each library
  // took a lstat per path element, a twentieth of a start-up); links are resolved one by one.
  // An absent directory in a search path is normal: nothing to discover, nothing to report.
  const fs::path canonicalDir = fs::canonical(dir, ec);
  if (ec) return;
  if (std::string why = writableByOthers(canonicalDir.string(), "plugin directory"); !why.empty()) {
    if (impl_->seenPaths.insert(canonicalDir.string()).second) impl_->refuse(canonicalDir.string(), ErrorCode::PLUGIN_REFUSED, why);
    return;
  }
  std::vector<std::pair<std::string, bool>> candidates;  // file name, is a symbolic link
  for (detail::ListedFile& file : detail::listRegularFiles(canonicalDir.string(), ec)) {
    if (looksLikeSharedLibrary(file.name)) candidates.emplace_back(std::move(file.name), file.symbolicLink);
  }
  // Deterministic order ("later wins" is reproducible), by the file name: one directory, so the
  // same order as path comparison, which walks path elements and cost a tenth of a start-up.
  std::sort(candidates.begin(), candidates.end());
  detail::PluginCache& cache = impl_->theCache();
  // What the cache knows is registered as it is; the rest is examined by the plugin scanner, in
  // a process of its own, all in one run: discovery never runs a library's code in this process.
  struct Candidate {
    std::string key;
    std::optional<detail::FileSignature> signature;
    std::optional<detail::LibraryVerdict> verdict;  // unset until known
  };
  std::vector<Candidate> found;
  std::vector<std::string> unknown;
  for (const auto& [name, link] : candidates) {
    std::string key = (canonicalDir / name).string();
    if (link) {
      const fs::path canonical = fs::canonical(fs::path(dir) / name, ec);
      key = ec ? (fs::path(dir) / name).string() : canonical.string();
    }
    if (!impl_->seenPaths.insert(key).second) continue;
    Candidate candidate{key, std::nullopt, std::nullopt};
    // Checked before the cache, which a chmod does not invalidate.
    if (std::string why = writableByOthers(key, "library"); !why.empty()) {
      detail::LibraryVerdict refused;
      refused.refusal = ErrorCode::PLUGIN_REFUSED;
      refused.reason = why;
      candidate.verdict = std::move(refused);
    } else {
      candidate.signature = detail::signatureOf(key);
      if (const detail::CachedLibrary* known = candidate.signature ? cache.find(key, *candidate.signature) : nullptr) {
        candidate.verdict = *known;
      } else {
        unknown.push_back(key);
      }
    }
    found.push_back(std::move(candidate));
  }
  const std::vector<detail::ScannedLibrary> scanned = detail::scanLibraries(unknown);
  std::size_t nextScanned = 0;
  for (Candidate& candidate : found) {
    if (!candidate.verdict) {
      const detail::ScannedLibrary& result = scanned[nextScanned++];
      candidate.verdict = result.verdict;
      // Remember the verdict (a refusal too: a library that is no plugin, or that crashed the
      // scanner, is not examined again every run); not one that may not hold next time.
      if (result.lasting && candidate.signature) {
        detail::CachedLibrary entry;
        static_cast<detail::LibraryVerdict&>(entry) = result.verdict;
        entry.signature = *candidate.signature;
        cache.store(candidate.key, std::move(entry));
      }
    }
    if (candidate.verdict->accepted) {
      PluginInfo info = candidate.verdict->info;
      info.path = candidate.key;
      impl_->accept(std::move(info), {});
    } else {
      impl_->refuse(candidate.key, candidate.verdict->refusal, candidate.verdict->reason);
    }
  }
  cache.saveIfChanged();
}

bool PluginRegistry::loadLibrary(const std::string& path) {
  std::lock_guard<std::recursive_mutex> lock(impl_->mutex);
  std::error_code ec;
  const fs::path canonical = fs::canonical(path, ec);
  const std::string key = ec ? path : canonical.string();
  if (!impl_->seenPaths.insert(key).second) {
    // Already tried: accepted ones are entries, refused ones in refused().
    return std::any_of(impl_->entries.begin(), impl_->entries.end(),
                       [&](const Impl::Entry& e) { return e.info.path == key && !e.failed; });
  }
  const auto signature = detail::signatureOf(key);
  detail::OpenedLibrary opened = detail::openPluginLibrary(key);
  if (signature) {
    // Remember the verdict (a refusal too: a non-plugin library is not reopened every run).
    detail::CachedLibrary entry;
    entry.signature = *signature;
    entry.accepted = opened.plugin != nullptr;
    if (opened.plugin) entry.info = opened.plugin->info;
    entry.refusal = opened.code;
    entry.reason = opened.reason;
    impl_->theCache().store(key, std::move(entry));
  }
  if (!opened.plugin) {
    impl_->refuse(key, opened.code, opened.reason);
    return false;
  }
  PluginInfo info = opened.plugin->info;
  return impl_->accept(std::move(info), PluginHandle(std::move(opened.plugin)));
}

const std::vector<PluginHandle>& PluginRegistry::plugins() const {
  std::lock_guard<std::recursive_mutex> lock(impl_->mutex);
  for (std::size_t i = 0; i < impl_->entries.size(); ++i) impl_->ensureOpen(i);
  if (impl_->pluginsStale) {
    impl_->plugins.clear();
    for (const auto& entry : impl_->entries) {
      if (entry.handle) impl_->plugins.push_back(entry.handle);
    }
    impl_->pluginsStale = false;
  }
  return impl_->plugins;
}

std::vector<PluginInfo> PluginRegistry::available() const {
  std::lock_guard<std::recursive_mutex> lock(impl_->mutex);
  std::vector<PluginInfo> out;
  for (const auto& entry : impl_->entries) {
    if (!entry.failed) out.push_back(entry.info);
  }
  return out;
}

bool PluginRegistry::isLoaded(const std::string& name) const {
  std::lock_guard<std::recursive_mutex> lock(impl_->mutex);
  return std::any_of(impl_->entries.begin(), impl_->entries.end(),
                     [&](const Impl::Entry& e) { return e.info.name == name && e.handle; });
}

const std::vector<RefusedLibrary>& PluginRegistry::refused() const { return impl_->refused; }
const Diagnostics& PluginRegistry::notices() const { return impl_->notices; }

PluginHandle PluginRegistry::formatFor(const std::string& path, std::string_view head) const {
  std::lock_guard<std::recursive_mutex> lock(impl_->mutex);
  std::vector<std::size_t> claimants;
  if (auto found = impl_->byExtension.find(extensionOf(path)); found != impl_->byExtension.end()) {
    claimants = found->second;
  }
  if (PluginHandle chosen = impl_->choose(claimants, path, head)) return chosen;
  if (head.empty()) return {};
  // Nobody claims the extension, or all claimants declined: content decides (a URDF saved as .xml).
  std::vector<std::size_t> sniffers;
  for (std::size_t i = 0; i < impl_->entries.size(); ++i) {
    const PluginInfo& info = impl_->entries[i].info;
    if (info.kind == plugin::PluginKind::Format && info.hasSniffer &&
        std::find(claimants.begin(), claimants.end(), i) == claimants.end()) {
      sniffers.push_back(i);
    }
  }
  // A sniffer's low "possible" score is for files with its own extension; content alone must
  // be recognised.
  constexpr int kRecognisedScore = 50;
  return impl_->choose(sniffers, path, head, kRecognisedScore);
}

bool PluginRegistry::claimsExtension(const std::string& path) const {
  std::lock_guard<std::recursive_mutex> lock(impl_->mutex);
  auto found = impl_->byExtension.find(extensionOf(path));
  if (found == impl_->byExtension.end()) return false;
  return std::any_of(found->second.begin(), found->second.end(), [&](std::size_t i) { return !impl_->entries[i].failed; });
}

bool PluginRegistry::hasSniffers() const {
  std::lock_guard<std::recursive_mutex> lock(impl_->mutex);
  return std::any_of(impl_->entries.begin(), impl_->entries.end(), [](const Impl::Entry& e) {
    return !e.failed && e.info.kind == plugin::PluginKind::Format && e.info.hasSniffer;
  });
}

std::vector<std::string> PluginRegistry::claimantsOf(const std::string& path) const {
  std::lock_guard<std::recursive_mutex> lock(impl_->mutex);
  std::vector<std::string> out;
  auto found = impl_->byExtension.find(extensionOf(path));
  if (found == impl_->byExtension.end()) return out;
  for (std::size_t i : found->second) {
    if (!impl_->entries[i].failed) out.push_back(impl_->entries[i].info.name);
  }
  return out;
}

PluginHandle PluginRegistry::findByName(const std::string& name) const {
  std::lock_guard<std::recursive_mutex> lock(impl_->mutex);
  for (std::size_t i = 0; i < impl_->entries.size(); ++i) {
    if (impl_->entries[i].info.name == name && !impl_->entries[i].failed) return impl_->ensureOpen(i);
  }
  return {};
}

std::string PluginRegistry::describeFormats() const {
  std::string out;
  for (const PluginInfo& info : available()) {
    if (info.kind != plugin::PluginKind::Format) continue;
    if (!out.empty()) out += ", ";
    out += info.name + " (";
    for (std::size_t i = 0; i < info.extensions.size(); ++i) out += (i ? ", " : "") + info.extensions[i];
    out += ")";
  }
  return out.empty() ? "none" : out;
}

}  // namespace interlink
