#pragma once
// The hardware side of the plugin ABI: a hardware plugin (PluginKind::Hardware) publishes a
// catalog of component types and, optionally, actuator drivers. The host builds its hardware
// registry from every hardware plugin it loaded (interlink/hardware/HardwareRegistry.hpp).
//
// As for formats, no exception may cross these function pointers; RegisterHardware.hpp wraps
// author code so that it cannot.
#include <cstddef>
#include <cstdint>
#include <string>

#include "interlink/Diagnostics.hpp"
#include "interlink/hardware/Catalog.hpp"
#include "interlink/hardware/Driver.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::plugin {

struct HardwareApi {
  std::uint32_t size = sizeof(HardwareApi);
  /// hardware::catalogAbiFingerprint() of the headers the plugin was built with.
  std::uint32_t catalogAbi = hardware::catalogAbiFingerprint();
  /// Family name shown in listings and messages, e.g. "HEBI X-series".
  const char* family = nullptr;
  /// Number of catalog entries and the entry at an index; entries live as long as the library.
  std::size_t (*entryCount)() = nullptr;
  const hardware::CatalogEntry* (*entryAt)(std::size_t index) = nullptr;
  /// Mass properties and output transforms of `entry` (one of this plugin's) with `parameters`.
  /// Returns false and appends an error when the parameters are not valid for the entry.
  bool (*evaluate)(const hardware::CatalogEntry& entry, const hardware::ComponentParameters& parameters,
                   hardware::ComponentModel& model, Diagnostics& diagnostics) = nullptr;
  /// Optional. Opens a driver for an actuator of this plugin; null (with an error) on failure.
  /// The driver is released with closeDriver by the same plugin.
  hardware::ActuatorDriver* (*openDriver)(const hardware::DriverRequest& request, Diagnostics& diagnostics) = nullptr;
  void (*closeDriver)(hardware::ActuatorDriver* driver) = nullptr;
};

}  // namespace interlink::plugin
