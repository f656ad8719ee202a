#include "interlink/hardware/HardwareRegistry.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <exception>
#include <map>
#include <sstream>


namespace interlink::hardware {
namespace {

std::string lowerCase(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// The plugin library stays loaded as long as the driver lives; the plugin deletes its driver.
std::shared_ptr<ActuatorDriver> ownDriver(ActuatorDriver* driver, const plugin::HardwareApi* api,
                                          std::shared_ptr<const void> keepAlive) {
  return std::shared_ptr<ActuatorDriver>(driver, [api, keepAlive](ActuatorDriver* d) {
    if (api->closeDriver) api->closeDriver(d);
  });
}

}  // namespace

struct HardwareRegistry::Impl {
  std::vector<CatalogItem> items;
  std::vector<std::string> lowerTypes;  // parallel to items
};

HardwareRegistry::HardwareRegistry() : impl_(std::make_shared<Impl>()) {}
HardwareRegistry::~HardwareRegistry() = default;
HardwareRegistry::HardwareRegistry(const HardwareRegistry&) = default;
HardwareRegistry& HardwareRegistry::operator=(const HardwareRegistry&) = default;
HardwareRegistry::HardwareRegistry(HardwareRegistry&&) noexcept = default;
HardwareRegistry& HardwareRegistry::operator=(HardwareRegistry&&) noexcept = default;

HardwareRegistry HardwareRegistry::fromPlugins(const PluginRegistry& plugins, Diagnostics* diagnostics) {
  HardwareRegistry registry;
  Diagnostics local;
  for (const auto& handle : plugins.plugins()) {
    if (handle.descriptor().kind != plugin::PluginKind::Hardware) continue;
    registry.addPlugin(handle, diagnostics ? *diagnostics : local);
  }
  return registry;
}

bool HardwareRegistry::addPlugin(const PluginHandle& handle, Diagnostics& diagnostics) {
  const auto& descriptor = handle.descriptor();
  const std::string name = descriptor.name ? descriptor.name : "?";
  const SourceLocation where{handle.info().path, 0, 0};
  const plugin::HardwareApi* api = descriptor.hardware;
  if (descriptor.kind != plugin::PluginKind::Hardware || !api) {
    diagnostics.add(makeError(ErrorCode::PLUGIN_REFUSED, "plugin '" + name + "' offers no hardware API", where));
    return false;
  }
  if (api->size < sizeof(plugin::HardwareApi) || api->catalogAbi != catalogAbiFingerprint() || !api->entryCount ||
      !api->entryAt || !api->evaluate) {
    diagnostics.add(makeError(ErrorCode::PLUGIN_REFUSED,
                              "hardware plugin '" + name +
                                  "' was built against other catalog headers or lacks a function; rebuild it",
                              where));
    return false;
  }
  const std::string family = api->family ? api->family : name;
  const std::size_t count = api->entryCount();
  for (std::size_t i = 0; i < count; ++i) {
    const CatalogEntry* entry = api->entryAt(i);
    if (!entry || entry->type.empty()) continue;
    const std::string lower = lowerCase(entry->type);
    bool duplicate = false;
    for (std::size_t k = 0; k < impl_->items.size(); ++k) {
      if (impl_->lowerTypes[k] == lower && impl_->items[k].entry->kind == entry->kind) {
        diagnostics.add(makeWarning(ErrorCode::EXTENSION_CONFLICT,
                                    std::string(componentKindName(entry->kind)) + " type '" + entry->type +
                                        "' is offered by '" + impl_->items[k].plugin + "' and '" + name +
                                        "'; the first one is used",
                                    where));
        duplicate = true;
      }
    }
    if (duplicate) continue;
    impl_->items.push_back(CatalogItem{entry, name, family, api, handle.keepAlive()});
    impl_->lowerTypes.push_back(lower);
  }
  return true;
}

const std::vector<CatalogItem>& HardwareRegistry::items() const { return impl_->items; }
bool HardwareRegistry::empty() const { return impl_->items.empty(); }

Lookup HardwareRegistry::find(ComponentKind kind, std::string_view type) const {
  Lookup found;
  const std::string lower = lowerCase(type);
  for (std::size_t i = 0; i < impl_->items.size(); ++i) {
    const auto& item = impl_->items[i];
    if (item.entry->kind != kind || impl_->lowerTypes[i] != lower) continue;
    found.item = &item;
    found.exactCase = item.entry->type == type;
    if (found.exactCase) break;
  }
  return found;
}

std::string HardwareRegistry::describeFamilies() const {
  if (impl_->items.empty()) return "none (no hardware plugin is loaded)";
  std::vector<std::pair<std::string, std::vector<std::string>>> families;
  for (const auto& item : impl_->items) {
    auto it = std::find_if(families.begin(), families.end(), [&](const auto& f) { return f.first == item.plugin; });
    if (it == families.end()) {
      families.push_back({item.plugin, {}});
      it = families.end() - 1;
    }
    const std::string label = item.entry->series.empty() ? item.entry->type : item.entry->series;
    if (std::find(it->second.begin(), it->second.end(), label) == it->second.end()) it->second.push_back(label);
  }
  std::string out;
  for (const auto& [plugin, series] : families) {
    if (!out.empty()) out += ", ";
    const std::string& pluginName = plugin;  // clang 14 cannot capture a structured binding
    const auto* item = &*std::find_if(impl_->items.begin(), impl_->items.end(),
                                      [&](const CatalogItem& i) { return i.plugin == pluginName; });
    out += plugin + " (" + item->family + ": ";
    for (std::size_t i = 0; i < series.size(); ++i) out += (i ? ", " : "") + series[i];
    out += ")";
  }
  return out;
}

bool HardwareRegistry::evaluate(const CatalogItem& item, const ComponentParameters& parameters,
                                ComponentModel& model, Diagnostics& diagnostics) const {
  const std::size_t before = diagnostics.errorCount();
  bool ok = false;
  try {
    ok = item.api->evaluate(*item.entry, parameters, model, diagnostics);
  } catch (...) {
    ok = false;  // the plugin's own guard should have caught it; never let it through
  }
  if (ok && model.outputs.size() != std::max<std::size_t>(item.entry->outputs.size(), 1)) {
    diagnostics.error(ErrorCode::PLUGIN_ERROR, "hardware plugin '" + item.plugin + "' gave " +
                                                   std::to_string(model.outputs.size()) + " output transforms for '" +
                                                   item.entry->type + "'");
    return false;
  }
  if (ok && (!std::isfinite(model.mass) || !model.inertia.allFinite())) {
    diagnostics.error(ErrorCode::PLUGIN_ERROR,
                      "hardware plugin '" + item.plugin + "' gave non-finite figures for '" + item.entry->type + "'");
    return false;
  }
  if (!ok && diagnostics.errorCount() == before)
    diagnostics.error(ErrorCode::PLUGIN_ERROR,
                      "hardware plugin '" + item.plugin + "' could not evaluate '" + item.entry->type + "'");
  return ok;
}

std::shared_ptr<ActuatorDriver> HardwareRegistry::openDriver(std::string_view type, const std::string& address,
                                                             Diagnostics& diagnostics) const {
  const Lookup found = find(ComponentKind::Actuator, type);
  if (!found) {
    diagnostics.error(ErrorCode::HARDWARE_UNKNOWN, "no driver for unknown actuator type '" + std::string(type) +
                                                       "'; known families: " + describeFamilies());
    return nullptr;
  }
  const CatalogItem& item = *found.item;
  if (!item.api->openDriver || !item.api->closeDriver) {
    diagnostics.error(ErrorCode::HARDWARE_UNKNOWN,
                      "hardware plugin '" + item.plugin + "' offers no driver for '" + item.entry->type + "'");
    return nullptr;
  }
  DriverRequest request{item.entry->type, address};
  ActuatorDriver* driver = nullptr;
  try {
    driver = item.api->openDriver(request, diagnostics);
  } catch (...) {
    driver = nullptr;
  }
  if (!driver) {
    if (!diagnostics.hasErrors())
      diagnostics.error(ErrorCode::PLUGIN_ERROR, "hardware plugin '" + item.plugin + "' could not open '" +
                                                     item.entry->type + "' at '" + address + "'");
    return nullptr;
  }
  return ownDriver(driver, item.api, item.keepAlive);
}

std::string formatHardwareListing(const HardwareRegistry& registry) {
  std::ostringstream out;
  if (registry.empty()) {
    out << "no hardware plugins loaded\n";
    return out.str();
  }
  std::string currentPlugin;
  for (const auto& item : registry.items()) {
    const CatalogEntry& e = *item.entry;
    if (item.plugin != currentPlugin) {
      currentPlugin = item.plugin;
      out << item.plugin << ": " << item.family << "\n";
    }
    std::string interfaces = e.input.toString() + " -> ";
    if (e.outputs.empty()) interfaces += "none";
    for (std::size_t i = 0; i < e.outputs.size(); ++i) interfaces += (i ? ", " : "") + e.outputs[i].toString();
    out << "  " << componentKindName(e.kind) << std::string(14 - std::string(componentKindName(e.kind)).size(), ' ')
        << e.type << std::string(e.type.size() < 22 ? 22 - e.type.size() : 1, ' ') << interfaces;
    if (e.motion == Motion::RevoluteZ) out << "  revolute";
    if (e.motion == Motion::PrismaticZ) out << "  prismatic";
    if (e.parameterised) {
      out << "  input style";
      for (std::size_t i = 0; i < e.inputStyles.size(); ++i) out << (i ? "|" : " ") << e.inputStyles[i];
      out << ", output style";
      for (std::size_t i = 0; i < e.outputStyles.size(); ++i) out << (i ? "|" : " ") << e.outputStyles[i];
    }
    if (std::isfinite(e.limits.velocity)) out << "  max velocity " << e.limits.velocity;
    if (std::isfinite(e.limits.effort)) out << "  max effort " << e.limits.effort;
    if (e.approximate) out << "  [approximate: " << e.approximateNote << "]";
    out << "\n";
  }
  return out.str();
}

const CatalogItem* HardwareRegistry::itemOf(const CatalogEntry* entry) const {
  for (const CatalogItem& item : impl_->items) {
    if (item.entry == entry) return &item;
  }
  return nullptr;
}

plugin::HardwareServices HardwareRegistry::services() const {
  plugin::HardwareServices table;
  table.context = this;
  table.find = [](const void* context, ComponentKind kind, const char* type, std::size_t typeSize,
                  bool* exactCase) -> const CatalogEntry* {
    const Lookup found = static_cast<const HardwareRegistry*>(context)->find(kind, std::string_view(type, typeSize));
    if (exactCase) *exactCase = found.exactCase;
    return found ? found.item->entry : nullptr;
  };
  table.evaluate = [](const void* context, const CatalogEntry* entry, const ComponentParameters& parameters,
                      ComponentModel& model, Diagnostics& diagnostics) {
    const auto* registry = static_cast<const HardwareRegistry*>(context);
    const CatalogItem* item = registry->itemOf(entry);
    if (!item) {
      diagnostics.error(ErrorCode::HARDWARE_UNKNOWN, "catalog entry is not one of this host's hardware plugins");
      return false;
    }
    return registry->evaluate(*item, parameters, model, diagnostics);
  };
  table.describeFamilies = [](const void* context) {
    return static_cast<const HardwareRegistry*>(context)->describeFamilies();
  };
  return table;
}

}  // namespace interlink::hardware
