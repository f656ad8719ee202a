#include "check/InertiaCheck.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <string>

#include "interlink/PoseMath.hpp"

namespace interlink::detail {
namespace {

bool checkedHere(const std::string& format) {
  return format == "urdf" || format == "skel" || format == "hrdf" || format == "juice";
}

void checkLink(const Link& link, const std::string& format, Diagnostics& diagnostics) {
  if (!link.hasInertial) return;
  const Inertial& inertial = link.inertial;
  const SourceLocation& where = inertial.where.line > 0 ? inertial.where : link.where;
  const std::string what = "link '" + link.name + "' (" + format + ")";
  // DART requires a positive mass; URDF, HRDF and Juice use massless links for frames (a URDF
  // virtual link, an HRDF output), which their tools accept: there only a negative mass is wrong.
  const bool massRequired = format == "skel";
  if (inertial.mass < 0 || (massRequired && !(inertial.mass > 0)) || !std::isfinite(inertial.mass)) {
    diagnostics.warning(ErrorCode::LINK_INERTIA_INVALID,
                        "the mass of " + what + " is " + formatNumber(inertial.mass) + "; expected a positive mass",
                        where);
    return;  // the tensor of a body without a valid mass says nothing more
  }
  if (inertial.mass == 0) return;
  const Matrix3& I = inertial.inertia;
  if (!I.isApprox(I.transpose(), 1e-12) || !I.allFinite()) {
    diagnostics.warning(ErrorCode::LINK_INERTIA_INVALID, "the inertia tensor of " + what + " is not symmetric", where);
    return;
  }
  const Eigen::Vector3d moments = Eigen::SelfAdjointEigenSolver<Matrix3>(I, Eigen::EigenvaluesOnly).eigenvalues();
  // Relative tolerance: files round their moments to a few digits.
  const double tolerance = 1e-9 * std::max(1.0, moments.cwiseAbs().maxCoeff());
  if (moments.minCoeff() <= 0) {
    diagnostics.warning(ErrorCode::LINK_INERTIA_INVALID,
                        "the inertia tensor of " + what + " is not positive definite (principal moments " +
                            formatNumber(moments[0]) + ", " + formatNumber(moments[1]) + ", " +
                            formatNumber(moments[2]) + ")",
                        where);
  } else if (moments[0] + moments[1] < moments[2] - tolerance) {
    diagnostics.warning(ErrorCode::LINK_INERTIA_INVALID,
                        "the principal moments of inertia of " + what + " (" + formatNumber(moments[0]) + ", " +
                            formatNumber(moments[1]) + ", " + formatNumber(moments[2]) +
                            ") break the triangle inequality: no rigid body has them",
                        where);
  }
}

void checkModel(const Model& model, const std::string& documentFormat, Diagnostics& diagnostics) {
  const std::string& format = model.source.format.empty() ? documentFormat : model.source.format;
  if (checkedHere(format)) {
    for (const Link& link : model.links) checkLink(link, format, diagnostics);
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
