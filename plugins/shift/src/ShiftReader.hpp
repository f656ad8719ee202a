#pragma once
// Step 1 of the Shift plugin: the JSON read into ShiftFile records, with diagnostics.
#include <cstddef>

#include "ShiftRecords.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::shift::detail {

/// Reads one Shift JSON file (both schema generations, see docs/shift.md) into `file`; every
/// problem goes to `diagnostics`. False when there is no usable document at all.
bool readShiftFile(const plugin::LoadRequest& request, ShiftFile& file, Diagnostics& diagnostics);

/// 0 unless the head of a .json file has Shift's shape (model_parameters, assemblies, bodies).
int sniffShift(const char* path, const char* head, std::size_t size);

}  // namespace interlink::shift::detail
