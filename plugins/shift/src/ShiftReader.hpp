#pragma once
#include <cstddef>

#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::shift::detail {

/// Reads one Shift JSON file into a world holding one root model (see docs/shift.md).
void readShift(const plugin::LoadRequest& request, Document& document, Diagnostics& diagnostics);

/// 0 unless the head of a .json file has Shift's shape (model_parameters, assemblies, bodies).
int sniffShift(const char* head, std::size_t size);

}  // namespace interlink::shift::detail
