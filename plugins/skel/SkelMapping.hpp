#pragma once
// Step 2 of the SKEL plugin: the records of a read file mapped onto the core model.
#include "SkelRecords.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::skel::detail {

/// One world with a model per skeleton (docs/skel.md).
void mapSkelFile(const SkelFile& file, const plugin::LoadRequest& request, Document& document,
                 Diagnostics& diagnostics);

}  // namespace interlink::skel::detail
