#pragma once
#include <optional>
#include <string>
#include <vector>

#include "interlink/SourceLocation.hpp"
#include "interlink/model/JointAxis.hpp"
#include "interlink/model/JointType.hpp"
#include "interlink/model/SemanticPose.hpp"

namespace interlink {

struct Mimic {
  std::string joint;
  double multiplier = 1;
  double offset = 0;
};

struct Joint {
  std::string name;
  JointType type = JointType::Fixed;
  /// Frame names in the joint's scope. "world" is allowed as a parent.
  std::string parent;
  std::string child;
  SemanticPose pose;  // default relative to the child frame
  /// axes[0] is SDFormat's <axis>, axes[1] <axis2>, axes[2] a third axis (DART euler/planar).
  std::vector<JointAxis> axes;
  double screwThreadPitch = 0;  // metres of translation per revolution: z = q / (2 pi) * pitch
  /// SDFormat's <gearbox_ratio> of a Gearbox joint: how it couples its two bodies. Nothing else
  /// reads it; it does not change this joint's own motion.
  double gearboxRatio = 1;
  /// Transmission between the joint coordinate and the child's motion (HRDF's gear_ratio): the
  /// child turns (or slides) q / transmissionRatio along the axis. 1 is a direct drive. Applies to
  /// single-axis revolute, continuous and prismatic joints; SDFormat output carries it as
  /// <interlink:transmission_ratio>.
  double transmissionRatio = 1;
  /// One value per DOF (dofCount(type)); empty means zeros.
  std::vector<double> initialPositions;
  std::vector<double> initialVelocities;
  std::optional<Mimic> mimic;
  /// Set by formats that close kinematic loops (Shift): the joint is a constraint, not a tree edge.
  bool loopClosure = false;
  std::string actuator;  // hardware type that drives this joint, when the format names one
  SourceLocation where;
};

}  // namespace interlink
