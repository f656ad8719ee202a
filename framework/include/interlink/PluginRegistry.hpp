#pragma once
// Host side of the plugin system: finds plugin libraries, checks their descriptors, keeps them
// loaded while anything they made is alive, and picks the plugin for a file. Discovery reads
// what it can from the plugin metadata cache (PluginCache); a library the cache does not know is
// examined by the plugin scanner (`interlink-plugin-scanner` beside the core library) in a process
// of its own. This process opens a library only when a file of its format is read, so start-up
// costs a stat per library, and no library's code runs here before a file needs it.
#include <memory>
#include <string>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink {

/// A plugin that passed the handshake.
struct PluginInfo {
  std::string name;
  std::string version;
  plugin::PluginKind kind = plugin::PluginKind::Format;
  std::vector<std::string> extensions;  // lower case, with the dot
  bool hasSniffer = false;
  std::string path;                     // the shared library
};

/// A library that was found but not accepted, with the reason.
struct RefusedLibrary {
  std::string path;
  Diagnostic reason;
};

namespace detail {
struct LoadedPlugin;
}

/// A loaded plugin library. Copies share the library; it is unloaded when the last copy and the
/// last object it made are gone.
class INTERLINK_API PluginHandle {
 public:
  PluginHandle() = default;
  explicit PluginHandle(std::shared_ptr<const detail::LoadedPlugin> plugin);
  const PluginInfo& info() const;
  const plugin::PluginDescriptor& descriptor() const;
  /// A token that keeps the library loaded; store it beside anything the plugin created.
  std::shared_ptr<const void> keepAlive() const;
  explicit operator bool() const { return plugin_ != nullptr; }

  /// Calls the plugin's load function, turning any exception into a PLUGIN_EXCEPTION error.
  void load(const plugin::LoadRequest& request, Document& document, Diagnostics& diagnostics) const;
  /// True for a macro language over another format (FormatApi::expand).
  bool expands() const;
  /// True for an XML format that takes a document as a tree (FormatApi::readsXmlTree).
  bool readsXmlTree() const;
  /// Expands the file into a document of another format (exceptions contained as in `load`).
  void expand(const plugin::LoadRequest& request, plugin::ExpandedDocument& expanded, Diagnostics& diagnostics) const;

 private:
  std::shared_ptr<const detail::LoadedPlugin> plugin_;
};

class INTERLINK_API PluginRegistry {
 public:
  PluginRegistry();
  ~PluginRegistry();
  PluginRegistry(const PluginRegistry&) = delete;
  PluginRegistry& operator=(const PluginRegistry&) = delete;

  /// The plugin directory next to the core library (build tree or install), then every entry of
  /// INTERLINK_PLUGIN_PATH (colon-separated), then the directories added with addDirectory.
  std::vector<std::string> searchDirectories() const;
  void addDirectory(const std::string& directory);

  /// Registers every library in the search directories not seen yet. Safe to call again.
  /// Libraries the cache knows (same path and file signature) are registered as it says; the
  /// others are opened and checked by the plugin scanner in a separate process, and recorded in
  /// the cache. A library during which the scanner crashes, ends or hangs (10 s) is refused with
  /// the reason. Nothing is opened in this process.
  void discover();
  /// Registers every library in one directory (and nothing from the default locations).
  void discoverDirectory(const std::string& directory);
  /// Opens and checks one library now, in this process (its constructors run here: for a library
  /// the host chose itself). Returns false (and records the refusal) when it is not accepted.
  bool loadLibrary(const std::string& path);

  /// The plugin metadata cache file ("" disables it). Defaults to
  /// $XDG_CACHE_HOME/interlink/plugins.cache (INTERLINK_PLUGIN_CACHE=off|FILE overrides); set
  /// before discover().
  void setCacheFile(const std::string& file);

  /// Every accepted plugin, loaded first when it is not yet (hardware lookups need them all).
  const std::vector<PluginHandle>& plugins() const;
  /// Every accepted plugin's metadata, without loading anything.
  std::vector<PluginInfo> available() const;
  /// True when the plugin library named `name` has been opened in this process.
  bool isLoaded(const std::string& name) const;
  const std::vector<RefusedLibrary>& refused() const;
  /// Warnings raised while registering (e.g. two plugins claiming one extension).
  const Diagnostics& notices() const;

  /// The format plugin for a file: by extension (case-insensitive); when several claim it, the
  /// sniffers decide on `head`, else the plugin registered last wins. When no plugin claims the
  /// extension or all that do decline `head`, every other format plugin's sniffer is asked
  /// (given a non-empty `head`) and must score at least 50 ("recognised"). Empty handle if none.
  PluginHandle formatFor(const std::string& path, std::string_view head = {}) const;
  /// True when some format plugin claims the file's extension (before any content is read).
  bool claimsExtension(const std::string& path) const;
  /// True when some format plugin has a sniffer (so content may decide for any extension).
  bool hasSniffers() const;
  /// Names of the format plugins claiming the file's extension, in registration order.
  std::vector<std::string> claimantsOf(const std::string& path) const;
  PluginHandle findByName(const std::string& name) const;
  /// "name (.ext, .ext), ..." for messages.
  std::string describeFormats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace interlink
