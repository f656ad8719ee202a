#pragma once
// Every joint type in one table: its name, how many coordinates it has and what they mean, how
// many SDFormat axis elements it uses, and how its child moves (jointMotion). Readers, the
// kinematics and every writer ask here instead of switching on the type themselves.
#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "interlink/Pose.hpp"

namespace interlink {

enum class JointType {
  Fixed,
  Revolute,
  Continuous,
  Prismatic,
  Ball,
  Universal,
  Screw,
  Planar,
  Free,
  Gearbox,      // SDFormat gearbox: kept, moves like a revolute joint about its axis
  Revolute2,
  Translational,    // 3 translations (DART)
  Translational2D,  // 2 translations in a plane (DART)
  Euler,            // 3 rotations about fixed axes (DART)
};

/// What one joint type is.
struct JointTypeInfo {
  JointType type;
  std::string_view name;  // as SDFormat (or DART, for its own types) spells it
  int dofCount;           // coordinates it adds to the configuration vector
  int sdformatAxisCount;  // <axis>, <axis2> elements SDFormat reads and writes (0: none)
  bool inSdformat;        // SDFormat 1.9 has this joint type (under `name`)
  std::string_view urdfName;  // URDF's name for it; empty when URDF has no such joint
  /// What the coordinates are, in order (shown to users and written in the JSON model).
  std::string_view coordinates;
};

inline constexpr std::array<JointTypeInfo, 14> kJointTypes{{
    {JointType::Fixed, "fixed", 0, 0, true, "fixed", ""},
    {JointType::Revolute, "revolute", 1, 1, true, "revolute", "angle about axis (rad)"},
    {JointType::Continuous, "continuous", 1, 1, true, "continuous", "angle about axis (rad)"},
    {JointType::Prismatic, "prismatic", 1, 1, true, "prismatic", "translation along axis (m)"},
    {JointType::Ball, "ball", 3, 0, true, "", "rotation vector (axis * angle, rad)"},
    {JointType::Universal, "universal", 2, 2, true, "", "angle about axis, then about axis2 (rad)"},
    {JointType::Screw, "screw", 1, 1, true, "", "angle about axis (rad); translation = angle / (2 pi) * thread_pitch"},
    {JointType::Planar, "planar", 3, 0, false, "planar",
     "translation along the first and second plane axes (m), then rotation about the normal (rad); "
     "one axis given = the plane normal"},
    {JointType::Free, "free", 6, 0, false, "floating", "translation x, y, z (m), then rotation vector (axis * angle, rad)"},
    {JointType::Gearbox, "gearbox", 1, 1, true, "", "angle about axis (rad)"},
    {JointType::Revolute2, "revolute2", 2, 2, true, "", "angle about axis, then about axis2 (rad)"},
    {JointType::Translational, "translational", 3, 0, false, "", "translation along axes 1, 2, 3 (default x, y, z; m)"},
    {JointType::Translational2D, "translational2d", 2, 0, false, "", "translation along axes 1, 2 (default x, y; m)"},
    {JointType::Euler, "euler", 3, 0, false, "", "angles about axes 1, 2, 3 (default x, y, z; rad), applied in that order"},
}};

constexpr bool jointTypeTableInOrder() {
  for (std::size_t i = 0; i < kJointTypes.size(); ++i) {
    if (static_cast<std::size_t>(kJointTypes[i].type) != i) return false;
  }
  return true;
}
static_assert(jointTypeTableInOrder(), "kJointTypes is indexed by JointType");

inline const JointTypeInfo& jointTypeInfo(JointType type) { return kJointTypes[static_cast<std::size_t>(type)]; }

/// Number of position coordinates the joint contributes to the configuration vector.
inline int dofCount(JointType type) { return jointTypeInfo(type).dofCount; }

/// How many SDFormat axis elements (<axis>, <axis2>) the type uses: what readers require and
/// writers emit. Types SDFormat has no axis for (ball, free, DART's multi-axis joints) answer 0.
inline int sdformatAxisCount(JointType type) { return jointTypeInfo(type).sdformatAxisCount; }

inline std::string_view jointTypeName(JointType type) { return jointTypeInfo(type).name; }

/// Whether SDFormat 1.9 has the joint type.
inline bool isSdformatJointType(JointType type) { return jointTypeInfo(type).inSdformat; }

/// The type spelled `name` (as jointTypeName gives it), if any.
inline std::optional<JointType> jointTypeNamed(std::string_view name) {
  for (const JointTypeInfo& info : kJointTypes) {
    if (info.name == name) return info.type;
  }
  return std::nullopt;
}

/// What a joint's motion depends on besides its type: unit axes in the joint frame (missing ones
/// take the type's defaults), the screw pitch and the transmission ratio.
struct JointMotionParameters {
  std::vector<Vector3> axes;
  double screwThreadPitch = 0;   // metres per revolution
  double transmissionRatio = 1;  // single-axis joints move q / ratio
};

/// The two in-plane directions of a planar joint: the first two axes when given, a plane normal
/// when one is given (as SDFormat writes it), else x and y.
inline std::pair<Vector3, Vector3> planarDirections(const std::vector<Vector3>& axes) {
  if (axes.size() >= 2) return {axes[0], axes[1]};
  if (axes.size() == 1) {
    const Vector3 t1 = axes[0].unitOrthogonal();
    return {t1, axes[0].cross(t1)};
  }
  return {Vector3::UnitX(), Vector3::UnitY()};
}

/// X_JM(q): the child side's motion in the joint frame for the joint's `coordinates`
/// (dofCount(type) of them, meaning what JointTypeInfo::coordinates says).
inline Pose jointMotion(JointType type, const JointMotionParameters& p, const double* coordinates) {
  constexpr double kTwoPi = 6.283185307179586;
  Pose m = Pose::Identity();
  auto axis = [&](std::size_t i, const Vector3& fallback) { return i < p.axes.size() ? p.axes[i] : fallback; };
  auto rotation = [](const Vector3& a, double angle) { return Matrix3(Eigen::AngleAxisd(angle, a)); };
  auto rotationVector = [&](double x, double y, double z) {
    const Vector3 v(x, y, z);
    const double angle = v.norm();
    return angle > 0 ? rotation(v / angle, angle) : Matrix3(Matrix3::Identity());
  };
  // A transmission (HRDF gear_ratio) scales a single-axis joint's coordinate.
  const double single = coordinates && dofCount(type) == 1 && p.transmissionRatio != 0.0
                            ? coordinates[0] / p.transmissionRatio
                            : 0.0;
  const double* q = coordinates;
  switch (type) {
    case JointType::Fixed: break;
    case JointType::Revolute:
    case JointType::Continuous:
    case JointType::Gearbox: m.linear() = rotation(axis(0, Vector3::UnitZ()), single); break;
    case JointType::Prismatic: m.translation() = axis(0, Vector3::UnitZ()) * single; break;
    case JointType::Screw: {
      const Vector3 a = axis(0, Vector3::UnitZ());
      m.linear() = rotation(a, single);
      m.translation() = a * (single / kTwoPi * p.screwThreadPitch);
      break;
    }
    case JointType::Universal:
    case JointType::Revolute2:
      m.linear() = rotation(axis(0, Vector3::UnitX()), q[0]) * rotation(axis(1, Vector3::UnitY()), q[1]);
      break;
    case JointType::Ball: m.linear() = rotationVector(q[0], q[1], q[2]); break;
    case JointType::Planar: {
      const auto [t1, t2] = planarDirections(p.axes);
      m.translation() = t1 * q[0] + t2 * q[1];
      m.linear() = rotation(t1.cross(t2).normalized(), q[2]);
      break;
    }
    case JointType::Free:
      m.translation() = Vector3(q[0], q[1], q[2]);
      m.linear() = rotationVector(q[3], q[4], q[5]);
      break;
    case JointType::Translational:
      m.translation() = axis(0, Vector3::UnitX()) * q[0] + axis(1, Vector3::UnitY()) * q[1] + axis(2, Vector3::UnitZ()) * q[2];
      break;
    case JointType::Translational2D:
      m.translation() = axis(0, Vector3::UnitX()) * q[0] + axis(1, Vector3::UnitY()) * q[1];
      break;
    case JointType::Euler:
      m.linear() = rotation(axis(0, Vector3::UnitX()), q[0]) * rotation(axis(1, Vector3::UnitY()), q[1]) *
                   rotation(axis(2, Vector3::UnitZ()), q[2]);
      break;
  }
  return m;
}

namespace detail {
/// Left Jacobian of SO(3) at rotation vector r: the spatial angular velocity is J_l(r) * dr/dt.
inline Matrix3 leftJacobianSo3(const Vector3& r) {
  const double theta = r.norm();
  Matrix3 K;
  K << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  if (theta < 1e-6) return Matrix3::Identity() + 0.5 * K + K * K / 6.0;
  const double t2 = theta * theta;
  return Matrix3::Identity() + (1 - std::cos(theta)) / t2 * K + (theta - std::sin(theta)) / (t2 * theta) * K * K;
}
}  // namespace detail

/// One column of a joint's motion subspace: the child side's velocity per unit rate of one
/// coordinate, in the joint frame: angular, and linear of the child's point at the joint frame's
/// origin (d/dq of jointMotion: w = vee(dR R^T), v = dt - w x t).
struct MotionColumn {
  Vector3 angular = Vector3::Zero();
  Vector3 linear = Vector3::Zero();
};

/// Column `c` of the motion subspace of jointMotion(type, p, coordinates). Defined here, beside
/// jointMotion, with the same axis defaults and the same transmission ratio, so that the Jacobian
/// and forward kinematics cannot disagree (tests/interface_api checks every type against finite
/// differences of jointMotion).
inline MotionColumn jointMotionColumn(JointType type, const JointMotionParameters& p, const double* coordinates, int c) {
  constexpr double kTwoPi = 6.283185307179586;
  auto axis = [&](std::size_t i, const Vector3& fallback) { return i < p.axes.size() ? p.axes[i] : fallback; };
  auto rotation = [](const Vector3& a, double angle) { return Matrix3(Eigen::AngleAxisd(angle, a)); };
  // jointMotion moves a single-axis joint by q / ratio: its rate is 1 / ratio.
  const double rate = dofCount(type) == 1 && p.transmissionRatio != 0.0 ? 1.0 / p.transmissionRatio : 1.0;
  const double* q = coordinates;
  const Vector3 unit = Vector3::Unit(c % 3);
  MotionColumn m;
  switch (type) {
    case JointType::Fixed: break;
    case JointType::Revolute:
    case JointType::Continuous:
    case JointType::Gearbox: m.angular = axis(0, Vector3::UnitZ()) * rate; break;
    case JointType::Prismatic: m.linear = axis(0, Vector3::UnitZ()) * rate; break;
    case JointType::Screw:
      m.angular = axis(0, Vector3::UnitZ()) * rate;
      m.linear = m.angular * (p.screwThreadPitch / kTwoPi);
      break;
    case JointType::Universal:
    case JointType::Revolute2:
      m.angular = c == 0 ? axis(0, Vector3::UnitX())
                         : Vector3(rotation(axis(0, Vector3::UnitX()), q[0]) * axis(1, Vector3::UnitY()));
      break;
    case JointType::Euler: {
      Matrix3 before = Matrix3::Identity();
      const Vector3 fallback[3] = {Vector3::UnitX(), Vector3::UnitY(), Vector3::UnitZ()};
      for (int i = 0; i < c; ++i) before = before * rotation(axis(static_cast<std::size_t>(i), fallback[i]), q[i]);
      m.angular = before * axis(static_cast<std::size_t>(c), fallback[c]);
      break;
    }
    case JointType::Ball: m.angular = detail::leftJacobianSo3(Vector3(q[0], q[1], q[2])) * unit; break;
    case JointType::Planar: {
      const auto [t1, t2] = planarDirections(p.axes);
      if (c == 0) m.linear = t1;
      if (c == 1) m.linear = t2;
      if (c == 2) {
        m.angular = t1.cross(t2).normalized();
        m.linear = -m.angular.cross(t1 * q[0] + t2 * q[1]);
      }
      break;
    }
    case JointType::Free:
      if (c < 3) {
        m.linear = unit;
      } else {
        m.angular = detail::leftJacobianSo3(Vector3(q[3], q[4], q[5])) * unit;
        m.linear = -m.angular.cross(Vector3(q[0], q[1], q[2]));
      }
      break;
    case JointType::Translational: m.linear = axis(static_cast<std::size_t>(c), unit); break;
    case JointType::Translational2D: m.linear = axis(static_cast<std::size_t>(c), unit); break;
  }
  return m;
}

/// One single-coordinate motion: a rotation about or a translation along `direction`.
struct SingleAxisMotion {
  bool rotation = true;           // false: a translation
  Vector3 direction = Vector3::UnitZ();  // unit, in the joint frame
  int axis = -1;                  // the joint axis it comes from (limits, dynamics); -1: none
};

/// How a format without `type` writes it (URDF chains of massless links, MJCF hinges and slides):
/// single-axis motions in coordinate order, given the joint's axes in the joint frame (missing
/// ones take the type's defaults, as in jointMotion). `exact` says whether the chain moves the
/// child as the joint does for the same coordinates; it does not for a ball or free joint's
/// rotation vector (three rotations instead) and loses a screw's or gearbox's coupling.
struct SingleAxisChain {
  std::vector<SingleAxisMotion> motions;  // empty for a fixed joint
  bool exact = true;
};

inline SingleAxisChain singleAxisChain(JointType type, const std::vector<Vector3>& axes) {
  auto given = [&](std::size_t i, const Vector3& fallback) {
    return i < axes.size() && axes[i].norm() > 0 ? Vector3(axes[i].normalized()) : fallback;
  };
  auto rotation = [&](int i, const Vector3& fallback) {
    return SingleAxisMotion{true, given(static_cast<std::size_t>(i), fallback), i < static_cast<int>(axes.size()) ? i : -1};
  };
  auto translation = [&](int i, const Vector3& fallback) {
    return SingleAxisMotion{false, given(static_cast<std::size_t>(i), fallback), i < static_cast<int>(axes.size()) ? i : -1};
  };
  SingleAxisChain chain;
  auto& m = chain.motions;
  switch (type) {
    case JointType::Fixed: break;
    case JointType::Screw:
    case JointType::Gearbox:
      chain.exact = false;
      [[fallthrough]];
    case JointType::Revolute:
    case JointType::Continuous: m.push_back(rotation(0, Vector3::UnitZ())); break;
    case JointType::Prismatic: m.push_back(translation(0, Vector3::UnitZ())); break;
    case JointType::Universal:
    case JointType::Revolute2:
      m = {rotation(0, Vector3::UnitX()), rotation(1, Vector3::UnitY())};
      break;
    case JointType::Euler:
      m = {rotation(0, Vector3::UnitX()), rotation(1, Vector3::UnitY()), rotation(2, Vector3::UnitZ())};
      break;
    case JointType::Translational:
      m = {translation(0, Vector3::UnitX()), translation(1, Vector3::UnitY()), translation(2, Vector3::UnitZ())};
      break;
    case JointType::Translational2D: m = {translation(0, Vector3::UnitX()), translation(1, Vector3::UnitY())}; break;
    case JointType::Planar: {
      Vector3 t1 = Vector3::UnitX(), t2 = Vector3::UnitY();
      if (axes.size() >= 2) {
        t1 = given(0, t1);
        t2 = given(1, t2);
      } else if (axes.size() == 1) {  // SDFormat gives the plane normal
        const Vector3 normal = given(0, Vector3::UnitZ());
        t1 = normal.unitOrthogonal();
        t2 = normal.cross(t1);
      }
      m = {SingleAxisMotion{false, t1, -1}, SingleAxisMotion{false, t2, -1},
           SingleAxisMotion{true, Vector3(t1.cross(t2).normalized()), -1}};
      break;
    }
    case JointType::Free:
      m = {translation(-1, Vector3::UnitX()), translation(-1, Vector3::UnitY()), translation(-1, Vector3::UnitZ())};
      [[fallthrough]];
    case JointType::Ball:
      for (int k = 0; k < 3; ++k) m.push_back(SingleAxisMotion{true, Vector3::Unit(k), -1});
      chain.exact = false;
      break;
  }
  return chain;
}

}  // namespace interlink
