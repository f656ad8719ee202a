#pragma once
// Step one of the MJCF plugin: the XML (with <include> files spliced in) into MJCF records.
#include <string>
#include <string_view>

#include "MjcfRecords.hpp"
#include "interlink/Diagnostics.hpp"

namespace interlink::mjcf {

/// Reads `content` (the file `path`) into `model`; every problem goes to `diagnostics`.
/// Returns false when nothing usable was read (not XML, not a <mujoco> root).
bool readMjcf(std::string_view content, const std::string& path, MjcfModel& model, Diagnostics& diagnostics);

}  // namespace interlink::mjcf
