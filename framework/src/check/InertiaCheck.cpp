#include "check/InertiaCheck.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <string>

#include "interlink/PoseMath.hpp"

namespace interlink::detail {

const InertiaRules* inertiaRulesFor(const std::string& format) {
  // What each format's reference tool does with such a link. libsdformat 12 refuses it
  // (LINK_INERTIA_INVALID, gz-math MassMatrix3::IsValid, zero mass and moments allowed); urdfdom,
  // DART, HEBI's and Juice's loaders and Shift load it. DART requires a positive mass, Shift's
  // document gives every body one; URDF, HRDF and Juice use massless links for frames.
  static const InertiaRules sdformat{Severity::Error, false, true, true, "libsdformat refuses it"};
  static const InertiaRules urdf{Severity::Warning, false, false, false, "urdfdom loads it"};
  static const InertiaRules skel{Severity::Warning, true, false, false, "DART loads it"};
  static const InertiaRules shift{Severity::Warning, true, true, false, "Shift loads it"};
  static const InertiaRules hrdf{Severity::Warning, false, false, false, "HEBI's loader takes it"};
  static const InertiaRules juice{Severity::Warning, false, false, false, "Juice loads it"};
  if (format == "sdformat") return &sdformat;
  if (format == "urdf") return &urdf;
  if (format == "skel") return &skel;
  if (format == "shift") return &shift;
  if (format == "hrdf") return &hrdf;
  if (format == "juice") return &juice;
  // MJCF: MuJoCo's <compiler> (boundmass, boundinertia, balanceinertia, inertiafromgeom) turns the
  // tensor first, so the MJCF mapping checks the compiled inertia with MuJoCo's errors.
  return nullptr;
}

namespace {

/// gz-math's tolerance for MassMatrix3::IsValid (tolerance 10): relative to the sum of the moments.
double gzEpsilon(const Vector3& moments) {
  return 10 * std::numeric_limits<double>::epsilon() * 0.5 * std::abs(moments.sum());
}

void checkLink(const Link& link, const std::string& format, const InertiaRules& rules, Diagnostics& diagnostics) {
  if (!link.hasInertial) return;
  const Inertial& inertial = link.inertial;
  const SourceLocation& where = inertial.where.line > 0 ? inertial.where : link.where;
  const std::string what = "link '" + link.name + "' (" + format + ")";
  const auto report = [&](const std::string& message) {
    diagnostics.add(Diagnostic{rules.severity, ErrorCode::LINK_INERTIA_INVALID, message + "; " + rules.tool, where});
  };
  if (inertial.mass < 0 || (rules.massRequired && !(inertial.mass > 0)) || !std::isfinite(inertial.mass)) {
    report("the mass of " + what + " is " + formatNumber(inertial.mass) + "; expected a positive mass");
    return;  // the tensor of a body without a valid mass says nothing more
  }
  if (inertial.mass == 0 && !rules.zeroMomentsAllowed) return;  // a massless frame link
  const Matrix3& I = inertial.inertia;
  if (!I.allFinite() || !I.isApprox(I.transpose(), 1e-12)) {
    report("the inertia tensor of " + what + " is not symmetric");
    return;
  }
  const Vector3 moments = Eigen::SelfAdjointEigenSolver<Matrix3>(I, Eigen::EigenvaluesOnly).eigenvalues();
  // Files round their moments to a few digits; where libsdformat rules, exactly gz-math's tolerance.
  const double tolerance =
      rules.gzMathTolerance ? gzEpsilon(moments) : 1e-9 * std::max(1.0, moments.cwiseAbs().maxCoeff());
  const std::string listed = formatNumber(moments[0]) + ", " + formatNumber(moments[1]) + ", " + formatNumber(moments[2]);
  const bool definite = rules.zeroMomentsAllowed ? moments.minCoeff() + tolerance >= 0 : moments.minCoeff() > 0;
  if (!definite) {
    report("the inertia tensor of " + what + " is not positive " +
           std::string(rules.zeroMomentsAllowed ? "semi-definite" : "definite") + " (principal moments " + listed + ")");
  } else if (moments[0] + moments[1] < moments[2] - tolerance) {
    report("the principal moments of inertia of " + what + " (" + listed +
           ") break the triangle inequality: no rigid body has them");
  }
}

void checkModel(const Model& model, const std::string& documentFormat, Diagnostics& diagnostics) {
  const std::string& format = model.source.format.empty() ? documentFormat : model.source.format;
  if (const InertiaRules* rules = inertiaRulesFor(format)) {
    for (const Link& link : model.links) checkLink(link, format, *rules, diagnostics);
  }
  for (const Model& nested : model.models) checkModel(nested, documentFormat, diagnostics);
}

}  // namespace

void checkInertias(const Document& document, Diagnostics& diagnostics) {
  if (document.model) checkModel(*document.model, document.format, diagnostics);
  for (const World& world : document.worlds) {
    for (const Model& model : world.models) checkModel(model, document.format, diagnostics);
  }
}

}  // namespace interlink::detail
