#pragma once
// Inertia validity, checked once in the core for every format, with the policy each format's plugin
// declares for its reference tool (FormatRules::inertia).
#include <string>

#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"

namespace interlink::detail {

/// Every link with an inertial: mass not negative (positive where required), tensor symmetric and
/// positive (semi-)definite, principal moments satisfying the triangle inequality, and where the
/// format's policy asks it, enough mass on every moving link.
///
/// Values are checked as the format defines the link's mass properties: the MJCF mapping applies
/// MuJoCo's <compiler> options (inertiafromgeom, boundmass, boundinertia, balanceinertia) that
/// change them, the same way MuJoCo applies them before its own checks.
void checkInertias(const Document& document, Diagnostics& diagnostics);

}  // namespace interlink::detail
