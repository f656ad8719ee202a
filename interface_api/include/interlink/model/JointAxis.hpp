#pragma once
#include <limits>
#include <string>

#include "interlink/Pose.hpp"
#include "interlink/SourceLocation.hpp"

namespace interlink {

struct JointAxis {
  Vector3 xyz = Vector3::UnitZ();  // unit vector
  /// Frame the axis is expressed in; empty means the joint frame.
  std::string expressedIn;
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  double effort = std::numeric_limits<double>::infinity();
  double velocity = std::numeric_limits<double>::infinity();
  double damping = 0;
  double friction = 0;
  double springReference = 0;
  double springStiffness = 0;
  SourceLocation where;
};

}  // namespace interlink
