#pragma once
// Mass properties of a link. Defaults are SDFormat's (mass 1, unit inertia) so that an absent
// <inertial> means the same as in libsdformat.
#include "interlink/Pose.hpp"
#include "interlink/SourceLocation.hpp"

namespace interlink {

struct Inertial {
  double mass = 1.0;
  /// X_LC: centre-of-mass frame C in the link frame L. The inertia tensor is expressed in C.
  Pose centerOfMass = Pose::Identity();
  Matrix3 inertia = Matrix3::Identity();
  SourceLocation where;
};

}  // namespace interlink
