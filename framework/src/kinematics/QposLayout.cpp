// MuJoCo's qpos layout (QposLayout.hpp). A free joint's 7 values give its child link's pose X_PC
// relative to the parent link; the joint's coordinates are the motion M with
// X_PC = X_PJ * M * X_JC, X_PJ and X_JC taken from the zero configuration's frame poses.
#include "interlink/QposLayout.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace interlink {

std::optional<std::vector<double>> configurationFromQpos(const Kinematics& kinematics, const FrameGraph& graph,
                                                         const std::vector<double>& qpos, Diagnostics& diagnostics) {
  std::vector<const TreeJoint*> moving;  // joints with coordinates that are not loop closures, in DOF order
  for (const TreeJoint& j : kinematics.joints()) {
    if (j.firstDof >= 0 && !j.loopClosure) moving.push_back(&j);
  }
  std::sort(moving.begin(), moving.end(), [](const TreeJoint* a, const TreeJoint* b) { return a->firstDof < b->firstDof; });
  auto width = [](JointType type) { return type == JointType::Free ? 7 : type == JointType::Ball ? 4 : dofCount(type); };
  std::size_t expected = 0;
  for (const TreeJoint* j : moving) expected += static_cast<std::size_t>(width(j->type));
  if (qpos.size() != expected) {
    diagnostics.error(ErrorCode::KINEMATICS_INVALID,
                      "qpos has " + std::to_string(qpos.size()) + " values; expected " + std::to_string(expected) +
                          " (MuJoCo's layout: 7 per free joint, 4 per ball joint, one per other coordinate)");
    return std::nullopt;
  }
  if (!std::all_of(qpos.begin(), qpos.end(), [](double v) { return std::isfinite(v); })) {
    diagnostics.error(ErrorCode::KINEMATICS_INVALID, "qpos contains a non-finite value");
    return std::nullopt;
  }
  auto quaternion = [&](const double* wxyz, const std::string& joint) -> std::optional<Quaternion> {
    const Quaternion r(wxyz[0], wxyz[1], wxyz[2], wxyz[3]);
    if (r.norm() < 1e-15) {
      diagnostics.error(ErrorCode::KINEMATICS_INVALID, "qpos gives joint '" + joint + "' a zero quaternion");
      return std::nullopt;
    }
    return r.normalized();
  };
  auto rotationVector = [](const Matrix3& rotation) -> Vector3 {
    const Eigen::AngleAxisd angleAxis(rotation);
    return angleAxis.angle() * angleAxis.axis();
  };
  const auto& frames = graph.frames();
  std::vector<double> q(kinematics.dofs().size(), 0.0);  // loop closures: their coordinates move nothing
  const double* value = qpos.data();
  for (const TreeJoint* j : moving) {
    double* out = &q[static_cast<std::size_t>(j->firstDof)];
    if (j->type == JointType::Free) {
      auto r = quaternion(value + 3, j->name);
      if (!r) return std::nullopt;
      Pose X_PC = Pose::Identity();
      X_PC.translation() = Vector3(value[0], value[1], value[2]);
      X_PC.linear() = r->toRotationMatrix();
      const Pose X_RP = j->parentLinkFrame < 0 ? Pose::Identity() : frames[static_cast<std::size_t>(j->parentLinkFrame)].pose;
      const Pose& X_RJ = frames[j->frame].pose;
      const Pose& X_RC = frames[j->childLinkFrame].pose;
      const Pose motion = (X_RP.inverse() * X_RJ).inverse() * X_PC * (X_RJ.inverse() * X_RC).inverse();
      const Vector3 rotation = rotationVector(motion.linear());
      for (int i = 0; i < 3; ++i) {
        out[i] = motion.translation()[i];
        out[3 + i] = rotation[i];
      }
    } else if (j->type == JointType::Ball) {
      auto r = quaternion(value, j->name);
      if (!r) return std::nullopt;
      const Vector3 rotation = rotationVector(r->toRotationMatrix());
      for (int i = 0; i < 3; ++i) out[i] = rotation[i];
    } else {
      std::copy(value, value + dofCount(j->type), out);
    }
    value += width(j->type);
  }
  return q;
}

}  // namespace interlink
