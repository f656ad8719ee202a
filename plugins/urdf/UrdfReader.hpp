#pragma once
// Reads a URDF document into the core model: one top-level Model named after the robot.
#include <string>
#include <string_view>

#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::urdf {

/// Fills `document` from the URDF text of `request`; every problem goes to `diagnostics`.
void readUrdf(const plugin::LoadRequest& request, Document& document, Diagnostics& diagnostics);

}  // namespace interlink::urdf
