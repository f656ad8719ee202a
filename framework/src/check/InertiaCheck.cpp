#include "check/InertiaCheck.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>

#include "interlink/PoseMath.hpp"
#include "interlink/model/FormatRules.hpp"

namespace interlink::detail {

namespace {

// What each format's reference tool does with a link whose inertial is wrong is the format's own
// fact: its plugin declares it (FormatRules::inertia), and this check only applies it.

/// gz-math's tolerance for MassMatrix3::IsValid (tolerance 10): relative to the sum of the moments.
double gzEpsilon(const Vector3& moments) {
  return 10 * std::numeric_limits<double>::epsilon() * 0.5 * std::abs(moments.sum());
}

Vector3 principalMoments(const Matrix3& inertia) {
  return Eigen::SelfAdjointEigenSolver<Matrix3>(inertia, Eigen::EigenvaluesOnly).eigenvalues();
}

double toleranceOf(InertiaTolerance kind, const Vector3& moments) {
  switch (kind) {
    case InertiaTolerance::GzMath:
      return gzEpsilon(moments);
    case InertiaTolerance::Rounded:
      return 1e-9 * std::max(1.0, moments.cwiseAbs().maxCoeff());
    case InertiaTolerance::RoundOff:
      break;
  }
  // The moments are eigenvalues of the stored tensor: a few ulps of their sum.
  return 64 * std::numeric_limits<double>::epsilon() * moments.cwiseAbs().sum();
}

void checkLink(const Link& link, const std::string& format, const InertiaPolicy& rules, Diagnostics& diagnostics) {
  if (!link.hasInertial) return;
  const Inertial& inertial = link.inertial;
  const SourceLocation& where = inertial.where.line > 0 ? inertial.where : link.where;
  // The words are put together only for a report: building them for every link was most of the
  // check's cost on a large model without errors.
  const auto what = [&] { return "link '" + link.name + "' (" + format + ")"; };
  const auto report = [&](const std::string& message) {
    diagnostics.add(Diagnostic{rules.severity, ErrorCode::LINK_INERTIA_INVALID, message + "; " + rules.verdict, where});
  };
  if (inertial.mass < 0 || (rules.massRequired && !(inertial.mass > 0)) || !std::isfinite(inertial.mass)) {
    report("the mass of " + what() + " is " + formatNumber(inertial.mass) + "; expected a positive mass");
    return;  // the tensor of a body without a valid mass says nothing more
  }
  if (inertial.mass == 0 && !rules.zeroMomentsAllowed) return;  // a massless frame link
  const Matrix3& I = inertial.inertia;
  if (!I.allFinite() || !I.isApprox(I.transpose(), 1e-12)) {
    report("the inertia tensor of " + what() + " is not symmetric");
    return;
  }
  const Vector3 moments = principalMoments(I);
  const double tolerance = toleranceOf(rules.tolerance, moments);
  const auto listed = [&] {
    return formatNumber(moments[0]) + ", " + formatNumber(moments[1]) + ", " + formatNumber(moments[2]);
  };
  const bool definite = rules.zeroMomentsAllowed ? moments.minCoeff() + tolerance >= 0 : moments.minCoeff() > 0;
  if (!definite) {
    report("the inertia tensor of " + what() + " is not positive " +
           std::string(rules.zeroMomentsAllowed ? "semi-definite" : "definite") + " (principal moments " + listed() + ")");
  } else if (moments[0] + moments[1] < moments[2] - tolerance) {
    report("the principal moments of inertia of " + what() + " (" + listed() +
           ") break the triangle inequality: no rigid body has them");
  }
}

bool isTreeEdge(const Joint& joint) { return !joint.loopClosure; }
bool moves(const Joint& joint) { return isTreeEdge(joint) && joint.type != JointType::Fixed; }

/// Whether a link carries at least `minimum` of mass and of every principal moment.
bool carries(const Link& link, double minimum) {
  return link.hasInertial && link.inertial.mass >= minimum && link.inertial.inertia.allFinite() &&
         principalMoments(link.inertial.inertia).minCoeff() >= minimum;
}

/// Whether `link` is a link a reader made to carry `joint`, one of several joints of one body (MJCF:
/// a body with two joints becomes a chain of links): massless, shapeless and declared by the very
/// element that declares the joint. The body is the last link of the chain; the rule applies there.
bool isCarrierOf(const Link& link, const Joint& joint) {
  return link.visuals.empty() && link.collisions.empty() && link.inertial.mass == 0 && link.inertial.inertia.isZero() &&
         joint.where.line > 0 && joint.where.line == link.where.line && joint.where.column == link.where.column &&
         joint.where.file == link.where.file;
}

/// MuJoCo's rule for moving bodies: a link moved by a joint needs mass and inertia, its own or a
/// welded child's.
void checkMovingLinks(const Model& model, const std::string& format, const InertiaPolicy& rules,
                      Diagnostics& diagnostics) {
  std::unordered_map<std::string, const Link*> links;
  for (const Link& link : model.links) links.emplace(link.name, &link);
  for (const Joint& joint : model.joints) {
    if (!moves(joint)) continue;
    const auto it = links.find(joint.child);
    if (it == links.end()) continue;
    const Link& link = *it->second;
    if (!link.hasInertial || link.inertial.mass < 0 || principalMoments(link.inertial.inertia).minCoeff() < 0) {
      continue;  // no inertial: the format's defaults; negative values: reported by checkLink
    }
    if (carries(link, rules.movingBodyMinimum) || isCarrierOf(link, joint)) continue;
    const bool weldedChildCarries = std::any_of(model.joints.begin(), model.joints.end(), [&](const Joint& weld) {
      if (!isTreeEdge(weld) || weld.type != JointType::Fixed || weld.parent != link.name) return false;
      const auto child = links.find(weld.child);
      return child != links.end() && carries(*child->second, rules.movingBodyMinimum);
    });
    if (weldedChildCarries) continue;
    const SourceLocation& where = link.inertial.where.line > 0 ? link.inertial.where : link.where;
    diagnostics.add(Diagnostic{rules.severity, ErrorCode::LINK_INERTIA_INVALID,
                               "link '" + link.name + "' (" + format + ") is moved by joint '" + joint.name +
                                   "' but has a mass or a principal moment of inertia below " +
                                   formatNumber(rules.movingBodyMinimum) +
                                   ", and no welded child that has them; " + rules.verdict,
                               where});
  }
}

void checkModel(const Model& model, const Document& document, Diagnostics& diagnostics) {
  // A model the framework did not stamp follows the document's rules.
  const bool stamped = !model.source.format.empty();
  const std::string& format = stamped ? model.source.format : document.format;
  const InertiaPolicy& rules = (stamped ? model.source.rules : document.rules).inertia;
  if (rules.checked) {
    for (const Link& link : model.links) checkLink(link, format, rules, diagnostics);
    if (rules.movingBodyMinimum > 0) checkMovingLinks(model, format, rules, diagnostics);
  }
  for (const Model& nested : model.models) checkModel(nested, document, diagnostics);
}

}  // namespace

void checkInertias(const Document& document, Diagnostics& diagnostics) {
  if (document.model) checkModel(*document.model, document, diagnostics);
  for (const World& world : document.worlds) {
    for (const Model& model : world.models) checkModel(model, document, diagnostics);
  }
}

}  // namespace interlink::detail
