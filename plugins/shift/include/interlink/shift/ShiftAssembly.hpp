#pragma once
// What a Shift assembly says beyond links, joints and frames, as a typed record on its model:
//
//   if (const auto* shift = model.extensions.find<interlink::shift::ShiftAssembly>()) {
//     for (const interlink::shift::Restraint& r : shift->restraints) r.function(x);
//   }
//
// Names of joints and frames are those of the loaded model: a restraint names its joint or its
// two frames scoped from the world ("robot::arm::elbow", "robot::arm::body1:tip"), a joint record
// its two frames scoped from its own model ("rod:2h_plus", "world").
#include <string>
#include <vector>

#include "interlink/model/Extension.hpp"
#include "interlink/shift/Piecewise.hpp"

namespace interlink::shift {

enum class RestraintType { Spring, Damper, Friction };
/// What the function is of: a spring acts on the displacement, dampers and friction on its rate.
enum class RestraintVariable { Displacement, Velocity };
/// The distance between the two frames of a frame-pair restraint.
enum class Distance { Euclidean, Tx, Ty, Tz };

/// A spring, damper or friction law: a piecewise polynomial of one joint variable or of a
/// distance between two frames (then `joint` is empty).
struct Restraint {
  std::string name;
  RestraintType type = RestraintType::Spring;
  RestraintVariable variable = RestraintVariable::Displacement;
  std::string joint;        // scoped joint name; empty for a frame pair
  std::string firstFrame;   // scoped frame names of a frame pair ("world" for the fixed origin)
  std::string secondFrame;
  Distance distance = Distance::Euclidean;
  PiecewisePolynomial function;
};

/// How the spanning tree from the fixed frame took a joint.
enum class JointSense { Forward, Reversed, LoopClosure };

/// A joint as written: its Shift type, the body-frame pair and its spring/damper constants.
struct ShiftJoint {
  std::string name;         // the joint's name in the model
  std::string type;         // as written: "Rz", "rigid", "float", "revolute", ...
  std::string parentFrame;  // the pair as written, scoped from the model
  std::string childFrame;
  JointSense sense = JointSense::Forward;
  std::vector<double> stiffness;
  std::vector<double> damping;
  std::vector<double> dampingCoefficients;
};

/// A body's Shift-only data.
struct ShiftBody {
  std::string name;  // the link's name in the model
  std::string collisionGeometry;
};

/// The record of one assembly's model (and of the root model for the file's top level).
struct ShiftAssembly {
  static constexpr ExtensionKind kExtensionKind{"shift.assembly", 1};
  std::vector<ShiftJoint> joints;
  std::vector<ShiftBody> bodies;  // bodies with a collision geometry
  std::vector<Restraint> restraints;
  std::vector<std::string> includeDirectories;  // model_parameters include_dir (root model)
};

}  // namespace interlink::shift
