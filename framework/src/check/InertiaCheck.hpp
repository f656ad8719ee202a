#pragma once
// Inertia validity, checked once in the core for every format, with the severity of each format's
// reference tool.
#include <string>

#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"

namespace interlink::detail {

/// How far principal moments may stray past zero or past the triangle inequality, as each
/// reference tool compares them.
enum class InertiaTolerance {
  GzMath,     // gz-math MassMatrix3::IsValid (tolerance 10), as libsdformat
  Rounded,    // 1e-9 of the largest moment: files round their moments to a few digits
  RoundOff,   // exact comparisons (MuJoCo 2.2.2), up to the round-off of computing the moments
};

/// How a format's reference tool treats an inertial.
struct InertiaRules {
  Severity severity;        // Error where the tool refuses the file, Warning where it loads it
  bool massRequired;        // a zero mass is wrong too (else only a negative one)
  bool zeroMomentsAllowed;  // a positive semi-definite tensor is enough (else positive definite, when there is mass)
  InertiaTolerance tolerance;
  /// A link moved by a joint needs mass and every principal moment at least this large, or a child
  /// welded to it that has them (MuJoCo: "mass and inertia of moving bodies must be larger than
  /// mjMINVAL"); 0: no such rule.
  double movingBodyMinimum;
  const char* tool;         // "libsdformat refuses it": what the message adds
};

/// The rules of `format`; null for a format without a rule of its own (nothing is checked).
const InertiaRules* inertiaRulesFor(const std::string& format);

/// Every link with an inertial: mass not negative (positive where required), tensor symmetric and
/// positive (semi-)definite, principal moments satisfying the triangle inequality, and where the
/// format's tool asks it, enough mass on every moving link.
///
/// Values are checked as the format defines the link's mass properties: the MJCF mapping applies
/// MuJoCo's <compiler> options (inertiafromgeom, boundmass, boundinertia, balanceinertia) that
/// change them, the same way MuJoCo applies them before its own checks.
void checkInertias(const Document& document, Diagnostics& diagnostics);

}  // namespace interlink::detail
