#pragma once
#include "CoreModelRecords.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::core_model {

/// The recorded document becomes the loaded one, its recorded sources kept (the framework stamps
/// only models without one), so the same format rules resolve it to the same frames.
void mapCoreModel(const CoreModelFile& file, const plugin::LoadRequest& request, Document& document,
                  Diagnostics& diagnostics);

}  // namespace interlink::core_model
