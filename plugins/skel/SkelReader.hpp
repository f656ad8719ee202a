#pragma once
// Reads DART's SKEL format into the core model. Kept apart from the plugin entry point so the
// reader has no global state and every problem lands in `diagnostics`.
#include <string>
#include <string_view>

#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::skel::detail {

void readSkel(std::string_view content, const std::string& path, const plugin::HostServices* host,
              Document& document, Diagnostics& diagnostics);

}  // namespace interlink::skel::detail
