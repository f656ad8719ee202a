#pragma once
// Mesh URIs of every format, checked in one place: a mesh the reader did not find is looked up once
// more with this load's resource paths; a missing one is a URI_LOOKUP warning in one wording for
// every format (so that the warning groups of WarningGroups.hpp fold them into one), a file outside
// a confined load's roots a PATH_OUTSIDE_ROOTS warning (meshes never block kinematics). Readers that measure meshes (SKEL, Shift) look them
// up themselves but report nothing: they leave a refused path for this check to report.
#include <functional>
#include <string>

#include "compose/ResourceLookup.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"

namespace interlink::detail {

struct MeshLookup {
  /// `resolve(uri, fromFile)`: the load's lookup of the URI (its path is empty when not found).
  std::function<const UriLookup&(const std::string&, const std::string&)> resolve;
  /// `refusal(path)`: why the path policy refuses the file, or "" when it may be read.
  std::function<std::string(const std::string&)> refusal;
};

/// Remote URIs (http, https) are left alone: a load never goes to the network.
void resolveMeshes(Document& document, const MeshLookup& lookup, Diagnostics& diagnostics);

}  // namespace interlink::detail
