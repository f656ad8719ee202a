#pragma once
// Step 2 of the Shift plugin: the records of a read file mapped onto the core model.
#include <string>

#include "ShiftRecords.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::shift::detail {

/// Writes one world holding the file's root model, its assemblies as nested models, its fixed
/// frames and lights (see docs/shift.md, "Mapping").
void mapShiftFile(const ShiftFile& file, const plugin::LoadRequest& request, Document& document,
                  Diagnostics& diagnostics);

}  // namespace interlink::shift::detail
