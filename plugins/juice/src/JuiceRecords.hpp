#pragma once
// Juice components as read from the file, before they become links and joints. Internal to the
// plugin: shared by the reader and the symmetry check.
#include <map>
#include <string>

#include "JuiceConventions.hpp"
#include "interlink/juice/JuiceComponents.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/SourceLocation.hpp"

namespace interlink::xml {
class XmlElement;
}

namespace interlink::juice::detail {

using juice::JointKind;  // the public record's kinds (interlink/juice/JuiceComponents.hpp)

inline const char* jointElementName(JointKind kind) {
  switch (kind) {
    case JointKind::Revolute: return "RevoluteJoint";
    case JointKind::Prismatic: return "PrismaticJoint";
    case JointKind::Spherical: return "SphericalJoint";
  }
  return "Joint";
}

/// The word Juice's documentation uses for the joint.
inline const char* jointKindWord(JointKind kind) {
  switch (kind) {
    case JointKind::Revolute: return "hinge";
    case JointKind::Prismatic: return "slider";
    case JointKind::Spherical: return "ball joint";
  }
  return "joint";
}

inline const char* shapeName(int shape) {
  switch (shape) {
    case 1: return "box";
    case 2: return "capsule";
    case 3: return "sphere";
    case 4: return "cylinder";
    default: return "invalid";
  }
}

/// What every Juice component (body or joint) carries.
struct Component {
  std::string id;    // canonical (decimal without leading zeros, or the token as written)
  std::string name;  // Juice Name, not unique
  Vector3 position = Vector3::Zero();
  double yaw = 0, pitch = 0, roll = 0;  // degrees
  std::string twin;                     // canonical; "0" or empty means none
  std::string twinText;
  std::string serializationId;
  std::string scopedName;  // the link or joint name in the core model
  SourceLocation where, idWhere, twinWhere, positionWhere;
};

struct Body : Component {
  int shape = 1;  // Juice's default shape is a box
  bool shapeValid = true;
  Vector3 box = Vector3::Ones();
  bool boxWritten = false;
  double tubeLength = 1, tubeDiameter = 1, ballDiameter = 1, mass = 1;
};

struct JointRecord : Component {
  JointKind kind = JointKind::Revolute;
  std::string body1, body2;  // canonical
  std::string body1Text, body2Text;
  SourceLocation body1Where, body2Where;
  double gain = 0, maxForce = 0, loStop = 0, hiStop = 0;
  bool loFlag = false, hiFlag = false;
  double length = 1, diameter = 0.25;
  const xml::XmlElement* element = nullptr;
};

/// Two components whose Twin entries name each other.
struct BodyTwins {
  const Body* a;
  const Body* b;
};
struct JointTwins {
  const JointRecord* a;
  const JointRecord* b;
};

inline bool isNoReference(const std::string& canonicalId) { return canonicalId.empty() || canonicalId == "0"; }

/// The joint's axis in the model frame; hinges and sliders differ (see JuiceConventions.hpp).
inline Vector3 jointAxis(const JointRecord& j) {
  return j.kind == JointKind::Prismatic ? sliderAxis(j.yaw, j.pitch, j.roll) : hingeAxis(j.yaw, j.pitch, j.roll);
}

inline std::string formatVector(const Vector3& v) {
  return "(" + formatNumber(v.x()) + ", " + formatNumber(v.y()) + ", " + formatNumber(v.z()) + ")";
}

inline std::string inQuotes(const std::string& s) { return "'" + s + "'"; }

}  // namespace interlink::juice::detail
