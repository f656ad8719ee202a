#include "interlink/convert/ConversionWarnings.hpp"

#include "check/WarningGroups.hpp"

namespace interlink::convert {

// One warning per kind: a second one of a kind is already grouped (the load groups from four on).
void groupWarningsByKind(Diagnostics& diagnostics) { detail::groupRepeatedWarnings(diagnostics, 1, 3); }

}  // namespace interlink::convert
