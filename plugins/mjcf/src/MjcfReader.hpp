#pragma once
// Step one of the MJCF plugin: the XML (with <include> files spliced in) into MJCF records.
#include <string>
#include <string_view>

#include "MjcfRecords.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::mjcf {

/// Reads `content` (the file `path`) into `model`; every problem goes to `diagnostics`.
/// Returns false when nothing usable was read (not XML, not a <mujoco> root). <include> files are
/// read through the host's include service (`host` may be null: then includes are refused).
bool readMjcf(std::string_view content, const std::string& path, const plugin::HostServices* host, MjcfModel& model,
              Diagnostics& diagnostics);

}  // namespace interlink::mjcf
