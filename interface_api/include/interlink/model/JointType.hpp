#pragma once
#include <string_view>

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
  Gearbox,      // SDFormat gearbox / revolute2 family: kept, no own DOF semantics beyond the axes
  Revolute2,
  Translational,    // 3 translations (DART)
  Translational2D,  // 2 translations in a plane (DART)
  Euler,            // 3 rotations about fixed axes (DART)
};

/// Number of position coordinates the joint contributes to the configuration vector.
/// Ball and the rotational part of Free use a rotation vector (axis * angle, radians).
inline int dofCount(JointType type) {
  switch (type) {
    case JointType::Fixed: return 0;
    case JointType::Revolute:
    case JointType::Continuous:
    case JointType::Prismatic:
    case JointType::Screw:
    case JointType::Gearbox: return 1;
    case JointType::Universal:
    case JointType::Revolute2:
    case JointType::Translational2D: return 2;
    case JointType::Ball:
    case JointType::Planar:
    case JointType::Translational:
    case JointType::Euler: return 3;
    case JointType::Free: return 6;
  }
  return 0;
}

/// How many SDFormat axis elements (<axis>, <axis2>) the type uses: what readers require and
/// writers emit. Types SDFormat has no axis for (ball, free, DART's multi-axis joints) answer 0.
inline int sdformatAxisCount(JointType type) {
  switch (type) {
    case JointType::Revolute:
    case JointType::Continuous:
    case JointType::Prismatic:
    case JointType::Screw:
    case JointType::Gearbox: return 1;
    case JointType::Universal:
    case JointType::Revolute2: return 2;
    default: return 0;
  }
}

inline std::string_view jointTypeName(JointType type) {
  switch (type) {
    case JointType::Fixed: return "fixed";
    case JointType::Revolute: return "revolute";
    case JointType::Continuous: return "continuous";
    case JointType::Prismatic: return "prismatic";
    case JointType::Ball: return "ball";
    case JointType::Universal: return "universal";
    case JointType::Screw: return "screw";
    case JointType::Planar: return "planar";
    case JointType::Free: return "free";
    case JointType::Gearbox: return "gearbox";
    case JointType::Revolute2: return "revolute2";
    case JointType::Translational: return "translational";
    case JointType::Translational2D: return "translational2d";
    case JointType::Euler: return "euler";
  }
  return "unknown";
}

}  // namespace interlink
