#pragma once
// Step 1 of the SKEL plugin: the XML read into SkelFile records, with diagnostics. Kept apart
// from the plugin entry point so the reader has no global state.
#include "SkelRecords.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::skel::detail {

/// Reads a SKEL file as DART 6.12 does; every problem goes to `diagnostics`. False when there is
/// nothing to map (not XML, no <skel> root, no <world>).
bool readSkelFile(const plugin::LoadRequest& request, SkelFile& file, Diagnostics& diagnostics);

}  // namespace interlink::skel::detail
