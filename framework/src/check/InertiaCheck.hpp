#pragma once
// Inertia validity, checked once in the core for every format, with the severity of each format's
// reference tool.
#include <string>

#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"

namespace interlink::detail {

/// How a format's reference tool treats an inertial.
struct InertiaRules {
  Severity severity;        // Error where the tool refuses the file, Warning where it loads it
  bool massRequired;        // a zero mass is wrong too (else only a negative one)
  bool zeroMomentsAllowed;  // a positive semi-definite tensor is enough (else positive definite, when there is mass)
  bool gzMathTolerance;     // gz-math MassMatrix3::IsValid's tolerance, as libsdformat (else 1e-9 of the largest moment)
  const char* tool;         // "libsdformat refuses it": what the message adds
};

/// The rules of `format`, or null when its own reader checks (MJCF: MuJoCo's compiler changes the
/// tensor first).
const InertiaRules* inertiaRulesFor(const std::string& format);

/// Every link with an inertial: mass not negative (positive where required), tensor symmetric and
/// positive (semi-)definite, principal moments satisfying the triangle inequality.
void checkInertias(const Document& document, Diagnostics& diagnostics);

}  // namespace interlink::detail
