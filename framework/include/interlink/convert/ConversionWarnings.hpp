#pragma once
// What a conversion cannot carry over, reported once per kind: a writer warns for every element
// the target format cannot hold; a user wants one line per kind with a count.
#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"

namespace interlink::convert {

/// Replaces the warnings of each kind (same code, same message but for the quoted names) by one
/// warning, where the first stood, that names a few and counts the rest. Errors are untouched.
/// Keep the writer's diagnostics as they are to list every one (`interlink convert -v`).
INTERLINK_API void groupWarningsByKind(Diagnostics& diagnostics);

}  // namespace interlink::convert
