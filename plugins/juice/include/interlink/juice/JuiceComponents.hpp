#pragma once
// What a Juice model says about its bodies and joints beyond links and joints, as a typed record
// on the model, so that a host can find a link by its Juice name and ID or read a joint's servo
// gain:
//
//   if (const auto* juice = model.extensions.find<interlink::juice::JuiceComponents>())
//     for (const interlink::juice::JuiceBody& body : juice->bodies) body.link;  // "<Name>_<ID>"
#include <string>
#include <vector>

#include "interlink/model/Extension.hpp"

namespace interlink::juice {

enum class BodyShape { Box, Capsule, Sphere, Cylinder, Invalid };
enum class JointKind { Revolute, Prismatic, Spherical };

struct JuiceBody {
  std::string link;             // the link's name in the model
  std::string name;             // Juice Name as written (not unique)
  std::string id;               // Juice ID as written
  BodyShape shape = BodyShape::Box;
  std::string serializationId;  // <SerializationID> of newer files; empty when absent
  std::string twin;             // the twin's link name (or the Twin text when it names nothing); empty: none
};

struct JuiceJoint {
  std::string joint;  // the joint's name in the model
  std::string name;   // Juice Name as written
  std::string id;     // Juice ID as written
  JointKind kind = JointKind::Revolute;
  std::string serializationId;
  std::string twinId;     // the Twin as written; empty: none
  double gain = 0;        // velocity gain of Juice's position servo
  double maxForce = 0;    // also JointAxis::effort
  double loStop = 0;      // as written (degrees for hinges), also for ball joints
  double hiStop = 0;
  bool loStopFlag = false;
  bool hiStopFlag = false;
  double length = 1;      // display sizes: Juice draws joints with them, no dynamics
  double diameter = 0.25;
};

struct JuiceComponents {
  static constexpr ExtensionKind kExtensionKind{"juice.components", 1};
  std::vector<JuiceBody> bodies;  // in file order
  std::vector<JuiceJoint> joints; // joints that became model joints, in file order
};

}  // namespace interlink::juice
