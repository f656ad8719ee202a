#pragma once
// Host side of hardware plugins: the catalog of every component type the loaded hardware plugins
// offer, lookups by type (case-insensitive, as HRDF wants), evaluation and drivers. The Loader owns
// one (Loader::hardware()) and offers it to format plugins as plugin::HardwareServices.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/PluginRegistry.hpp"
#include "interlink/hardware/Catalog.hpp"
#include "interlink/hardware/Driver.hpp"
#include "interlink/plugin/HardwareApi.hpp"
#include "interlink/plugin/HardwareServices.hpp"

namespace interlink::hardware {

/// One catalog entry as the host sees it, with the plugin that offers it.
struct CatalogItem {
  const CatalogEntry* entry = nullptr;
  std::string plugin;  // plugin name, e.g. "hebi_x"
  std::string family;  // the plugin's family, e.g. "HEBI X-series"
  const plugin::HardwareApi* api = nullptr;
  std::shared_ptr<const void> keepAlive;  // keeps the plugin library loaded
};

struct Lookup {
  const CatalogItem* item = nullptr;
  bool exactCase = false;  // false: found, but written in another case than the entry's
  explicit operator bool() const { return item != nullptr; }
};

class INTERLINK_API HardwareRegistry {
 public:
  HardwareRegistry();
  ~HardwareRegistry();
  HardwareRegistry(const HardwareRegistry&);
  HardwareRegistry& operator=(const HardwareRegistry&);
  HardwareRegistry(HardwareRegistry&&) noexcept;
  HardwareRegistry& operator=(HardwareRegistry&&) noexcept;

  /// The catalogs of every hardware plugin `plugins` loaded. Plugins whose hardware API fails the
  /// handshake are left out with a PLUGIN_REFUSED note in `diagnostics` (when given).
  static HardwareRegistry fromPlugins(const PluginRegistry& plugins, Diagnostics* diagnostics = nullptr);

  /// Adds one plugin's catalog; false (with a diagnostic) when it is not a usable hardware plugin.
  bool addPlugin(const PluginHandle& handle, Diagnostics& diagnostics);

  const std::vector<CatalogItem>& items() const;
  bool empty() const;
  /// The entry of that kind and type; case-insensitive (exactCase tells whether the case matched).
  Lookup find(ComponentKind kind, std::string_view type) const;
  /// "hebi_r (HEBI R-series: R8, R25), ..." for messages.
  std::string describeFamilies() const;

  /// The item whose entry is `entry` (as find() returned it), or null.
  const CatalogItem* itemOf(const CatalogEntry* entry) const;
  /// Evaluates an entry; PLUGIN_ERROR when the plugin fails without saying why.
  bool evaluate(const CatalogItem& item, const ComponentParameters& parameters, ComponentModel& model,
                Diagnostics& diagnostics) const;

  /// Opens a driver for an actuator type at an address (`sim://name` for the simulated backend).
  /// The driver keeps its plugin library loaded; null (with an error) on failure.
  std::shared_ptr<ActuatorDriver> openDriver(std::string_view type, const std::string& address,
                                             Diagnostics& diagnostics) const;

  /// This registry as the table of functions format plugins use; valid while this object lives.
  plugin::HardwareServices services() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

/// The text of `interlink hardware`: every family with its types, interfaces and notes.
INTERLINK_API std::string formatHardwareListing(const HardwareRegistry& registry);

}  // namespace interlink::hardware
