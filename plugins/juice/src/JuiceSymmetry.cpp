#include "JuiceSymmetry.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace interlink::juice::detail {

namespace {

const Matrix3& mirror() {
  static const Matrix3 m = Vector3(-1, 1, 1).asDiagonal();
  return m;
}

bool near(double a, double b, double scale) { return std::abs(a - b) <= kSymmetryTolerance * std::max(1.0, scale); }

bool nearMatrix(const Matrix3& a, const Matrix3& b) {
  const double scale = std::max(a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff());
  return (a - b).cwiseAbs().maxCoeff() <= kSymmetryTolerance * std::max(1.0, scale);
}

/// The shape's extent as a symmetric matrix in the model frame: R diag(h^2) R^T with h the half
/// extents along the body axes. Invariant under the shape's own symmetries (a capsule turned
/// about its axis, a box turned by 180 degrees), so only visible differences count.
Matrix3 extentTensor(const Body& b) {
  Vector3 half = Vector3::Zero();
  switch (b.shape) {
    case 1: half = b.box / 2; break;
    case 2: half = Vector3(b.tubeDiameter / 2, b.tubeDiameter / 2, b.tubeLength / 2 + b.tubeDiameter / 2); break;
    case 3: half = Vector3::Constant(b.ballDiameter / 2); break;
    case 4: half = Vector3(b.tubeDiameter / 2, b.tubeDiameter / 2, b.tubeLength / 2); break;
    default: break;
  }
  const Matrix3 r = bodyOrientation(b.yaw, b.pitch, b.roll).toRotationMatrix();
  return r * half.cwiseProduct(half).asDiagonal() * r.transpose();
}

/// The dimensions that matter for the body's shape.
Eigen::VectorXd sizeOf(const Body& b) {
  switch (b.shape) {
    case 1: return b.box;
    case 2:
    case 4: return Eigen::Vector2d(b.tubeLength, b.tubeDiameter);
    case 3: return Eigen::VectorXd::Constant(1, b.ballDiameter);
    default: return Eigen::VectorXd();
  }
}

bool sameSize(const Body& a, const Body& b) {
  const Eigen::VectorXd sa = sizeOf(a), sb = sizeOf(b);
  if (sa.size() != sb.size()) return false;
  for (Eigen::Index i = 0; i < sa.size(); ++i)
    if (!near(sa[i], sb[i], std::max(std::abs(sa[i]), std::abs(sb[i])))) return false;
  return true;
}

std::string sizeText(const Body& b) {
  const Eigen::VectorXd size = sizeOf(b);
  std::string text;
  for (Eigen::Index i = 0; i < size.size(); ++i) text += (i ? " " : "") + formatNumber(size[i]);
  return text;
}

std::string rotationText(const Component& c) {
  return formatNumber(c.yaw) + "/" + formatNumber(c.pitch) + "/" + formatNumber(c.roll);
}

void positionDifference(const Component& a, const Component& b, std::vector<std::string>& differences) {
  const Vector3 mirrored = mirror() * a.position;
  const double scale = std::max(mirrored.cwiseAbs().maxCoeff(), b.position.cwiseAbs().maxCoeff());
  if ((mirrored - b.position).cwiseAbs().maxCoeff() > kSymmetryTolerance * std::max(1.0, scale))
    differences.push_back("position " + formatVector(a.position) + " mirrors to " + formatVector(mirrored) +
                          " but the twin is at " + formatVector(b.position));
}

void bodyDifferences(const Body& a, const Body& b, std::vector<std::string>& differences) {
  positionDifference(a, b, differences);
  if (a.shapeValid && b.shapeValid) {
    if (a.shape != b.shape) {
      differences.push_back(std::string("shapes differ (") + shapeName(a.shape) + " vs " + shapeName(b.shape) + ")");
    } else if (!nearMatrix(mirror() * extentTensor(a) * mirror(), extentTensor(b))) {
      // Compared as extent tensors, so a box turned to swap two equal sides still matches.
      if (!sameSize(a, b))
        differences.push_back("sizes differ (" + sizeText(a) + " vs " + sizeText(b) + ")");
      else
        differences.push_back("orientation is not the mirror image (rotation Y/P/R " + rotationText(a) + " vs " +
                              rotationText(b) + ")");
    }
  }
  if (!near(a.mass, b.mass, std::max(std::abs(a.mass), std::abs(b.mass))))
    differences.push_back("masses differ (" + formatNumber(a.mass) + " vs " + formatNumber(b.mass) + ")");
}

void jointDifferences(const JointRecord& a, const JointRecord& b, std::vector<std::string>& differences) {
  positionDifference(a, b, differences);
  if (a.kind == JointKind::Spherical) return;  // a ball joint has only its anchor
  const Vector3 mirroredAxis = mirror() * jointAxis(a);
  const Vector3 twinAxis = jointAxis(b);
  // An axis is a line: the mirrored line may point either way.
  if (mirroredAxis.cross(twinAxis).norm() > kSymmetryTolerance)
    differences.push_back("axis " + formatVector(jointAxis(a)) + " mirrors to " + formatVector(mirroredAxis) +
                          " but the twin's axis is " + formatVector(twinAxis));
}

void report(const std::string& what, const Component& a, const Component& b,
            const std::vector<std::string>& differences, Diagnostics& diagnostics) {
  if (differences.empty()) return;
  std::string message = what + " " + inQuotes(a.name) + " (ID " + a.id + ", " + a.scopedName + ") and " +
                        inQuotes(b.name) + " (ID " + b.id + ", " + b.scopedName +
                        ") are twins but not mirrored about the Y-Z plane (x -> -x): ";
  for (std::size_t i = 0; i < differences.size(); ++i) message += (i ? "; " : "") + differences[i];
  message += " (tolerance " + formatNumber(kSymmetryTolerance) + ", relative)";
  diagnostics.warning(ErrorCode::SYMMETRY, message, a.where);
}

}  // namespace

void checkSymmetry(const std::vector<BodyTwins>& bodies, const std::vector<JointTwins>& joints,
                   Diagnostics& diagnostics) {
  for (const BodyTwins& pair : bodies) {
    std::vector<std::string> differences;
    bodyDifferences(*pair.a, *pair.b, differences);
    report("bodies", *pair.a, *pair.b, differences, diagnostics);
  }
  for (const JointTwins& pair : joints) {
    std::vector<std::string> differences;
    jointDifferences(*pair.a, *pair.b, differences);
    report(std::string(jointKindWord(pair.a->kind)) + "s", *pair.a, *pair.b, differences, diagnostics);
  }
}

}  // namespace interlink::juice::detail
