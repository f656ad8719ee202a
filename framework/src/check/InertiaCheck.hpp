#pragma once
// Inertia validity, checked once in the core for the formats whose readers do not check it
// themselves, with the severity of each format's reference tool.
#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"

namespace interlink::detail {

/// Every link with an inertial: mass positive (SKEL) or not negative (a massless frame link elsewhere), tensor symmetric positive definite, principal
/// moments satisfying the triangle inequality. URDF, SKEL, HRDF and Juice get warnings (urdfdom,
/// DART and HEBI load such files); SDFormat (errors) and Shift (warnings) check in their readers.
void checkInertias(const Document& document, Diagnostics& diagnostics);

}  // namespace interlink::detail
