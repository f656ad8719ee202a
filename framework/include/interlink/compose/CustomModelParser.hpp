#pragma once
// A host's parser for included files of its own formats (libsdformat's CustomModelParser).
// Return null with no errors for "not mine"; reporting an error stops the search.
#include <functional>

#include "interlink/Diagnostics.hpp"
#include "interlink/compose/InterfaceModel.hpp"
#include "interlink/compose/NestedInclude.hpp"

namespace interlink {

using CustomModelParser = std::function<InterfaceModelPtr(const NestedInclude&, Diagnostics&)>;

}  // namespace interlink
