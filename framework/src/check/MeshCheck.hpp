#pragma once
// Mesh URIs of formats whose readers do not look meshes up (SDFormat): resolved once in the core,
// each missing one a URI_LOOKUP warning in the words the other readers use, so that the warning
// groups (WarningGroups.hpp) fold them into one.
#include <functional>
#include <string>

#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"

namespace interlink::detail {

/// `resolve(uri, fromFile)` returns a path, or "" when not found. Remote URIs (http, https) are
/// left alone: a load never goes to the network.
void resolveMeshes(Document& document, const std::function<std::string(const std::string&, const std::string&)>& resolve,
                   Diagnostics& diagnostics);

}  // namespace interlink::detail
