// A hardware plugin as if built against other catalog headers: its table carries another catalog
// fingerprint. The loader must refuse it when plugins are discovered, with the reason.
#include <cstddef>

#include "interlink/plugin/HardwareApi.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

using interlink::hardware::CatalogEntry;

const interlink::plugin::HardwareApi kApi = [] {
  interlink::plugin::HardwareApi api;
  api.catalogAbi = interlink::hardware::catalogAbiFingerprint() ^ 0x5a5a5a5au;  // "other headers"
  api.family = "stale";
  api.entryCount = []() -> std::size_t { return 0; };
  api.entryAt = [](std::size_t) -> const CatalogEntry* { return nullptr; };
  api.evaluate = [](const CatalogEntry&, const interlink::hardware::ComponentParameters&,
                    interlink::hardware::ComponentModel&, interlink::Diagnostics&) { return false; };
  return api;
}();

const interlink::plugin::PluginDescriptor kDescriptor = [] {
  interlink::plugin::PluginDescriptor d;
  d.name = "stale_catalog";
  d.version = "0.0.1";
  d.kind = interlink::plugin::PluginKind::Hardware;
  d.hardware = &kApi;
  return d;
}();

}  // namespace

extern "C" INTERLINK_PLUGIN_EXPORT const interlink::plugin::PluginDescriptor* interlink_plugin_descriptor() {
  return &kDescriptor;
}
