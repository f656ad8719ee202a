#pragma once
// The hardware plugin author's side: a catalog, an evaluate function and, optionally, a driver
// factory, registered with one macro.
//
//   static const std::vector<interlink::hardware::CatalogEntry>& catalog();
//   static bool evaluate(const CatalogEntry&, const ComponentParameters&, ComponentModel&, Diagnostics&);
//   static interlink::hardware::ActuatorDriver* openDriver(const DriverRequest&, Diagnostics&);  // or nullptr
//   INTERLINK_REGISTER_HARDWARE_PLUGIN("acme", "1.0.0", "ACME robotics", catalog, evaluate, openDriver)
//
// The macro defines the exported entry point and wraps every function so that an exception thrown
// by author code becomes a PLUGIN_EXCEPTION diagnostic (or an empty result) instead of crossing
// into the host. Drivers are deleted by the plugin that made them.
#include <cstddef>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

#include "interlink/plugin/HardwareApi.hpp"
#include "interlink/plugin/Register.hpp"

namespace interlink::plugin::detail {

using CatalogFunction = const std::vector<hardware::CatalogEntry>& (*)();
using EvaluateFunction = bool (*)(const hardware::CatalogEntry&, const hardware::ComponentParameters&,
                                  hardware::ComponentModel&, Diagnostics&);
using OpenDriverFunction = hardware::ActuatorDriver* (*)(const hardware::DriverRequest&, Diagnostics&);

template <CatalogFunction Catalog>
std::size_t guardedEntryCount() {
  try {
    return Catalog().size();
  } catch (...) {
    return 0;  // a catalog that cannot be built offers nothing
  }
}

template <CatalogFunction Catalog>
const hardware::CatalogEntry* guardedEntryAt(std::size_t index) {
  try {
    const auto& entries = Catalog();
    return index < entries.size() ? &entries[index] : nullptr;
  } catch (...) {
    return nullptr;
  }
}

inline void reportException(Diagnostics& diagnostics, const char* pluginName, const char* what, const char* doing) {
  diagnostics.error(ErrorCode::PLUGIN_EXCEPTION,
                    std::string("hardware plugin '") + pluginName + "' threw while " + doing + (what ? ": " : "") +
                        (what ? what : ""));
}

template <EvaluateFunction Evaluate>
bool guardedEvaluate(const hardware::CatalogEntry& entry, const hardware::ComponentParameters& parameters,
                     hardware::ComponentModel& model, Diagnostics& diagnostics, const char* pluginName) {
  try {
    return Evaluate(entry, parameters, model, diagnostics);
  } catch (const std::exception& e) {
    reportException(diagnostics, pluginName, e.what(), ("evaluating '" + entry.type + "'").c_str());
  } catch (...) {
    reportException(diagnostics, pluginName, nullptr, ("evaluating '" + entry.type + "'").c_str());
  }
  return false;
}

template <OpenDriverFunction Open>
hardware::ActuatorDriver* guardedOpenDriver(const hardware::DriverRequest& request, Diagnostics& diagnostics,
                                            const char* pluginName) {
  try {
    return Open(request, diagnostics);
  } catch (const std::exception& e) {
    reportException(diagnostics, pluginName, e.what(), "opening a driver");
  } catch (...) {
    reportException(diagnostics, pluginName, nullptr, "opening a driver");
  }
  return nullptr;
}

using NameFunction = const char* (*)();
using ApiOpenDriver = hardware::ActuatorDriver* (*)(const hardware::DriverRequest&, Diagnostics&);

/// The wrapped driver factory, or null when the plugin offers no drivers (`nullptr`).
template <auto Open, NameFunction Name>
ApiOpenDriver wrapOpenDriver() {
  if constexpr (std::is_same_v<decltype(Open), std::nullptr_t>) {
    return nullptr;
  } else {
    return [](const hardware::DriverRequest& request, Diagnostics& diagnostics) -> hardware::ActuatorDriver* {
      return guardedOpenDriver<Open>(request, diagnostics, Name());
    };
  }
}

inline void closeDriverInPlugin(hardware::ActuatorDriver* driver) {
  try {
    delete driver;
  } catch (...) {
    // a destructor that throws has nowhere to report to
  }
}

}  // namespace interlink::plugin::detail

#define INTERLINK_REGISTER_HARDWARE_PLUGIN(NAME, VERSION, FAMILY, CATALOG_FN, EVALUATE_FN, OPEN_DRIVER_FN)         \
  namespace {                                                                                                       \
  bool interlinkGuardedEvaluate(const ::interlink::hardware::CatalogEntry& e,                                      \
                                const ::interlink::hardware::ComponentParameters& p,                               \
                                ::interlink::hardware::ComponentModel& m, ::interlink::Diagnostics& g) {            \
    return ::interlink::plugin::detail::guardedEvaluate<EVALUATE_FN>(e, p, m, g, NAME);                             \
  }                                                                                                                 \
  const char* interlinkPluginName() { return NAME; }                                                                \
  ::interlink::plugin::HardwareApi makeInterlinkHardwareApi() {                                                     \
    ::interlink::plugin::HardwareApi api;                                                                           \
    api.family = FAMILY;                                                                                            \
    api.entryCount = &::interlink::plugin::detail::guardedEntryCount<CATALOG_FN>;                                   \
    api.entryAt = &::interlink::plugin::detail::guardedEntryAt<CATALOG_FN>;                                         \
    api.evaluate = &interlinkGuardedEvaluate;                                                                       \
    api.openDriver = ::interlink::plugin::detail::wrapOpenDriver<OPEN_DRIVER_FN, &interlinkPluginName>();          \
    api.closeDriver = &::interlink::plugin::detail::closeDriverInPlugin;                                            \
    return api;                                                                                                     \
  }                                                                                                                 \
  const ::interlink::plugin::HardwareApi interlinkHardwareApi = makeInterlinkHardwareApi();                         \
  INTERLINK_DETAIL_EXPORT_PLUGIN_DESCRIPTOR(NAME, VERSION, interlinkHardwareApi)
