#pragma once
// The hardware registry as a format plugin sees it: a table of C functions the host fills
// (HostServices::hardware). A third-party format plugin that compiles against interface_api alone
// can look up and evaluate the components the host's hardware plugins offer; it never sees the
// host's registry class.
#include <cstddef>
#include <cstdint>
#include <string>

#include "interlink/Diagnostics.hpp"
#include "interlink/hardware/Catalog.hpp"

namespace interlink::plugin {

/// Fields are only ever appended; check `size` before using a newer one.
struct HardwareServices {
  std::uint32_t size = sizeof(HardwareServices);
  const void* context = nullptr;
  /// The catalog entry of that kind whose type is `type` compared without case; null when no
  /// hardware plugin offers one. `exactCase` (when given) tells whether the case matched too.
  /// Entries live as long as the load call.
  const hardware::CatalogEntry* (*find)(const void* context, hardware::ComponentKind kind, const char* type,
                                        std::size_t typeSize, bool* exactCase) = nullptr;
  /// Mass properties and outputs of `entry` (one `find` returned) with `parameters`; false with
  /// an error in `diagnostics` when the parameters do not fit the entry.
  bool (*evaluate)(const void* context, const hardware::CatalogEntry* entry, const hardware::ComponentParameters& parameters,
                   hardware::ComponentModel& model, Diagnostics& diagnostics) = nullptr;
  /// "hebi_r (HEBI R-series: R8, R25), ..." for messages.
  std::string (*describeFamilies)(const void* context) = nullptr;
};

}  // namespace interlink::plugin
