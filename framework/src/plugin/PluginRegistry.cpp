// Plugin discovery, the ABI handshake, and the registry by extension.
#include "interlink/PluginRegistry.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>
#include <boost/filesystem.hpp>

#include "util/PathList.hpp"

#include "interlink/plugin/HardwareApi.hpp"

#include "interlink/TextNumbers.hpp"

namespace interlink {

namespace detail {

struct LoadedPlugin {
  std::shared_ptr<boost::dll::shared_library> library;
  const plugin::PluginDescriptor* descriptor = nullptr;
  PluginInfo info;
};

}  // namespace detail

namespace {

namespace fs = boost::filesystem;
using detail::splitPathList;

/// The plugin directory beside the core library: <libdir>/interlink/plugins. The same relation
/// holds in the build tree and in an install, so nothing needs an environment variable.
std::string defaultPluginDirectory() {
  boost::system::error_code ec;
  fs::path self = boost::dll::this_line_location(ec);
  if (ec) return {};
  return (self.parent_path() / INTERLINK_PLUGIN_RELATIVE_DIR).lexically_normal().string();
}

std::string extensionOf(const std::string& path) {
  return toLower(fs::path(path).extension().string());
}

bool looksLikeSharedLibrary(const fs::path& p) {
  const std::string name = p.filename().string();
  return p.extension() == ".so" || name.find(".so.") != std::string::npos || p.extension() == ".dylib" ||
         p.extension() == ".dll";
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
  try {
    format->load(request, document, diagnostics);
  } catch (const std::exception& e) {
    diagnostics.error(ErrorCode::PLUGIN_EXCEPTION,
                      "plugin '" + plugin_->info.name + "' threw while reading the file: " + e.what(),
                      SourceLocation{request.path, 0, 0});
  } catch (...) {
    diagnostics.error(ErrorCode::PLUGIN_EXCEPTION,
                      "plugin '" + plugin_->info.name + "' threw an unknown exception while reading the file",
                      SourceLocation{request.path, 0, 0});
  }
}

// ---------------------------------------------------------------------------------------------
struct PluginRegistry::Impl {
  std::vector<std::string> extraDirectories;
  std::vector<PluginHandle> plugins;
  std::vector<RefusedLibrary> refused;
  Diagnostics notices;
  std::set<std::string> seenPaths;                    // canonical paths already tried
  std::map<std::string, std::vector<std::size_t>> byExtension;  // extension -> plugin indices, load order

  void refuse(const std::string& path, ErrorCode code, const std::string& why) {
    refused.push_back({path, makeError(code, why, SourceLocation{path, 0, 0})});
  }

  /// Checks a descriptor; returns the reason it is not acceptable, or empty when it is.
  static std::string validate(const plugin::PluginDescriptor* d) {
    using namespace plugin;
    if (!d) return "its entry point returned no descriptor";
    if (d->apiVersion != kApiVersion)
      return "built for plugin API version " + std::to_string(d->apiVersion) + ", this host speaks version " +
             std::to_string(kApiVersion);
    if (d->descriptorSize != sizeof(PluginDescriptor) || d->descriptorAlign != alignof(PluginDescriptor))
      return "descriptor size/alignment " + std::to_string(d->descriptorSize) + "/" +
             std::to_string(d->descriptorAlign) + " does not match the host's " +
             std::to_string(sizeof(PluginDescriptor)) + "/" + std::to_string(alignof(PluginDescriptor)) +
             " (built against other headers)";
    if (d->modelAbi != modelAbiFingerprint())
      return "built against model headers with another layout (fingerprint mismatch); rebuild the plugin";
    if (!d->name || !*d->name) return "its descriptor has no name";
    if (!d->version) return "its descriptor has no version";
    if (d->kind == PluginKind::Format) {
      if (!d->format) return "a format plugin without a format table";
      if (d->format->size != sizeof(FormatApi)) return "its format table has the wrong size";
      if (!d->format->load) return "its format table has no load function";
      if (!d->format->extensions || !d->format->extensions[0]) return "a format plugin that claims no file extension";
      for (const char* const* e = d->format->extensions; *e; ++e) {
        if ((*e)[0] != '.' || (*e)[1] == '\0') return std::string("invalid extension '") + *e + "' (expected '.ext')";
      }
    } else if (d->kind == PluginKind::Hardware) {
      if (!d->hardware) return "a hardware plugin without a hardware table";
      // Checked at discovery so that `interlink plugins` lists such a plugin as refused.
      if (d->hardware->size != sizeof(HardwareApi)) return "its hardware table has the wrong size (built against other headers)";
      if (d->hardware->catalogAbi != hardware::catalogAbiFingerprint())
        return "built against other catalog headers (catalog fingerprint mismatch); rebuild the plugin";
      if (!d->hardware->entryCount || !d->hardware->entryAt || !d->hardware->evaluate)
        return "its hardware table lacks a required function (entryCount, entryAt, evaluate)";
    } else {
      return "unknown plugin kind " + std::to_string(static_cast<std::uint32_t>(d->kind));
    }
    return {};
  }

  void registerExtensions(std::size_t index) {
    const PluginInfo& info = plugins[index].info();
    for (const std::string& ext : info.extensions) {
      auto& claimants = byExtension[ext];
      for (std::size_t other : claimants) {
        const PluginInfo& prior = plugins[other].info();
        if (!(info.hasSniffer && prior.hasSniffer)) {
          notices.warning(ErrorCode::EXTENSION_CONFLICT,
                          "plugins '" + prior.name + "' (" + prior.path + ") and '" + info.name + "' (" + info.path +
                              ") both claim '" + ext + "'; without sniffers on both, '" + info.name +
                              "' (loaded later) wins");
        }
      }
      claimants.push_back(index);
    }
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

void PluginRegistry::discover() {
  for (const std::string& dir : searchDirectories()) discoverDirectory(dir);
}

void PluginRegistry::discoverDirectory(const std::string& dir) {
  boost::system::error_code ec;
  if (!fs::is_directory(dir, ec)) return;  // an absent directory in a search path is normal
  std::vector<fs::path> candidates;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (fs::is_regular_file(it->path(), ec) && looksLikeSharedLibrary(it->path())) candidates.push_back(it->path());
  }
  std::sort(candidates.begin(), candidates.end());  // deterministic order: "later wins" is reproducible
  for (const auto& path : candidates) loadLibrary(path.string());
}

bool PluginRegistry::loadLibrary(const std::string& path) {
  boost::system::error_code ec;
  const fs::path canonical = fs::canonical(path, ec);
  const std::string key = ec ? path : canonical.string();
  if (!impl_->seenPaths.insert(key).second) {
    // Already tried: accepted ones are in plugins(), refused ones in refused().
    return std::any_of(impl_->plugins.begin(), impl_->plugins.end(),
                       [&](const PluginHandle& h) { return h.info().path == key; });
  }

  auto library = std::make_shared<boost::dll::shared_library>();
  library->load(key, boost::dll::load_mode::rtld_lazy | boost::dll::load_mode::rtld_local, ec);
  if (ec) {
    impl_->refuse(key, ErrorCode::PLUGIN_LOAD, "cannot open library: " + ec.message());
    return false;
  }
  if (!library->has(plugin::kEntryPointName)) {
    impl_->refuse(key, ErrorCode::PLUGIN_REFUSED,
                  std::string("not an Interlink plugin: no exported entry point '") + plugin::kEntryPointName + "'");
    return false;
  }

  const plugin::PluginDescriptor* descriptor = nullptr;
  try {
    auto& entry = library->get<interlink_plugin_descriptor_fn>(plugin::kEntryPointName);
    descriptor = entry();
  } catch (const std::exception& e) {
    impl_->refuse(key, ErrorCode::PLUGIN_EXCEPTION, std::string("its entry point threw: ") + e.what());
    return false;
  } catch (...) {
    impl_->refuse(key, ErrorCode::PLUGIN_EXCEPTION, "its entry point threw an unknown exception");
    return false;
  }
  if (std::string why = Impl::validate(descriptor); !why.empty()) {
    impl_->refuse(key, ErrorCode::PLUGIN_REFUSED, why);
    return false;
  }
  for (const auto& existing : impl_->plugins) {
    if (existing.info().name == descriptor->name) {
      impl_->refuse(key, ErrorCode::PLUGIN_REFUSED,
                    std::string("a plugin named '") + descriptor->name + "' is already loaded from " +
                        existing.info().path);
      return false;
    }
  }

  auto loaded = std::make_shared<detail::LoadedPlugin>();
  loaded->library = std::move(library);
  loaded->descriptor = descriptor;
  loaded->info.name = descriptor->name;
  loaded->info.version = descriptor->version;
  loaded->info.kind = descriptor->kind;
  loaded->info.path = key;
  if (descriptor->kind == plugin::PluginKind::Format) {
    for (const char* const* e = descriptor->format->extensions; *e; ++e) loaded->info.extensions.push_back(toLower(*e));
    loaded->info.hasSniffer = descriptor->format->sniff != nullptr;
  }
  impl_->plugins.emplace_back(std::move(loaded));
  impl_->registerExtensions(impl_->plugins.size() - 1);
  return true;
}

const std::vector<PluginHandle>& PluginRegistry::plugins() const { return impl_->plugins; }
const std::vector<RefusedLibrary>& PluginRegistry::refused() const { return impl_->refused; }
const Diagnostics& PluginRegistry::notices() const { return impl_->notices; }

PluginHandle PluginRegistry::formatFor(const std::string& path, std::string_view head) const {
  auto found = impl_->byExtension.find(extensionOf(path));
  if (found == impl_->byExtension.end()) return {};
  const auto& claimants = found->second;

  // Sniffers decide: the highest positive score wins; a sniffer answering 0 disqualifies its plugin.
  int bestScore = 0;
  PluginHandle best;
  PluginHandle lastWithoutSniffer;
  for (std::size_t index : claimants) {
    const PluginHandle& handle = impl_->plugins[index];
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
  if (best) return best;
  return lastWithoutSniffer;
}

bool PluginRegistry::claimsExtension(const std::string& path) const {
  return impl_->byExtension.count(extensionOf(path)) > 0;
}

PluginHandle PluginRegistry::findByName(const std::string& name) const {
  for (const auto& handle : impl_->plugins) {
    if (handle.info().name == name) return handle;
  }
  return {};
}

std::string PluginRegistry::describeFormats() const {
  std::string out;
  for (const auto& handle : impl_->plugins) {
    if (handle.info().kind != plugin::PluginKind::Format) continue;
    if (!out.empty()) out += ", ";
    out += handle.info().name + " (";
    for (std::size_t i = 0; i < handle.info().extensions.size(); ++i) {
      out += (i ? ", " : "") + handle.info().extensions[i];
    }
    out += ")";
  }
  return out.empty() ? "none" : out;
}

}  // namespace interlink
