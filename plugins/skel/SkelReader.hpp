#pragma once
// Step 1 of the SKEL plugin: the XML read into SkelFile records, with diagnostics. Kept apart
// from the plugin entry point so the reader has no global state.
#include <cstddef>

#include "SkelRecords.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::skel::detail {

/// Reads a SKEL file as DART 6.12 does; every problem goes to `diagnostics`. False when there is
/// nothing to map (not XML, no <skel> root, no <world>).
bool readSkelFile(const plugin::LoadRequest& request, SkelFile& file, Diagnostics& diagnostics);

/// 90 when the head of the file holds <skel>, else a weak 10 (the extension alone speaks for it).
int sniffSkel(const char* path, const char* head, std::size_t headSize);

}  // namespace interlink::skel::detail
