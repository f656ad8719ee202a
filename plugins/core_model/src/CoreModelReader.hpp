#pragma once
// Reading a core-model JSON file into its records, every problem located (line:column).
#include <cstddef>

#include "CoreModelRecords.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::core_model {

/// How sure we are that `head` starts a core-model JSON file: its `"interlink_model"` key.
int sniffCoreModel(const char* path, const char* head, std::size_t size);

/// Reads the file; false when there is nothing to map (syntax errors, unsupported version).
bool readCoreModel(const plugin::LoadRequest& request, CoreModelFile& file, Diagnostics& diagnostics);

}  // namespace interlink::core_model
