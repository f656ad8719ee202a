// The SKEL reader, joints: the eleven DART joint types, their axes, planes, initial values and
// dofs, as DART 6.12 reads them.
#include "SkelDocumentReader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "MeshReader.hpp"
#include "ShapeInertia.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/UniqueNames.hpp"
#include "interlink/xml/XmlParser.hpp"
#include "interlink/xml/XmlValues.hpp"

namespace interlink::skel::detail {
namespace {

/// The eleven SKEL joint types and what they become.
std::optional<JointType> jointTypeFromSkel(const std::string& type) {
  static const std::map<std::string, JointType> types = {
      {"weld", JointType::Fixed},
      {"revolute", JointType::Revolute},
      {"prismatic", JointType::Prismatic},
      {"screw", JointType::Screw},
      {"universal", JointType::Universal},
      {"ball", JointType::Ball},
      {"euler", JointType::Euler},
      {"translational", JointType::Translational},
      {"translational2d", JointType::Translational2D},
      {"planar", JointType::Planar},
      {"free", JointType::Free},
  };
  const auto found = types.find(type);
  if (found == types.end()) return std::nullopt;
  return found->second;
}

/// DART orders a free joint's coordinates [rotation vector, translation]; the core orders them
/// [translation, rotation vector]. Every other type keeps DART's order.
std::size_t coreDofIndex(JointType type, std::size_t dartIndex) {
  if (type == JointType::Free) return dartIndex < 3 ? dartIndex + 3 : dartIndex - 3;
  return dartIndex;
}

/// Joint types whose coordinates each have an axis in Joint::axes (same index as DART's dofs).
bool hasAxisPerDof(JointType type) {
  return type != JointType::Fixed && type != JointType::Ball && type != JointType::Free;
}

}  // namespace

std::optional<JointRecord> Reader::readJoint(const XmlElement& element,
                                             const std::unordered_map<std::string, std::size_t>& bodies,
                                             SkeletonRecord& model) {
  JointRecord record;
  Joint& joint = record.joint;
  joint.where = element.where;
  joint.pose.where = element.where;
  joint.name = element.attributeOr("name", "");
  record.dartType = element.attributeOr("type", "");

  const auto type = jointTypeFromSkel(record.dartType);
  if (!type) {
    error(record.dartType.empty() ? ErrorCode::ATTRIBUTE_MISSING : ErrorCode::ATTRIBUTE_INVALID,
          "joint '" + joint.name + "' has " +
              (record.dartType.empty() ? std::string("no type") : "unknown type '" + record.dartType + "'") +
              "; expected weld, revolute, prismatic, screw, universal, ball, euler, translational, "
              "translational2d, planar or free. The joint is left out",
          element.where);
    return std::nullopt;
  }
  joint.type = *type;

  // The document's default and spelling is "torque" (DART 6.12 reads it as its default, force).
  joint.actuator = "torque";
  if (const Attribute* actuator = element.attribute("actuator")) {
    static const std::set<std::string> known{"torque", "force",        "passive", "servo",
                                             "acceleration", "velocity", "locked"};
    joint.actuator = actuator->value;
    if (known.count(actuator->value) == 0) {
      warning(ErrorCode::ATTRIBUTE_INVALID,
              "actuator '" + actuator->value +
                  "' is not one of torque, force, passive, servo, acceleration, velocity, locked; DART falls back "
                  "to torque (force)",
              actuator->where);
    }
  }

  bool structureOk = true;
  const XmlElement* parentElement = element.child("parent");
  const XmlElement* childElement = element.child("child");
  if (parentElement == nullptr) {
    error(ErrorCode::ELEMENT_MISSING, "joint '" + joint.name + "' needs a <parent> (a body name or world)",
          element.where);
    structureOk = false;
  } else {
    joint.parent = trim(parentElement->text);
    if (joint.parent != "world" && bodies.count(joint.parent) == 0) {
      error(ErrorCode::JOINT_PARENT_LINK_INVALID,
            "joint '" + joint.name + "' names parent body '" + joint.parent +
                "', which this skeleton does not define (expected a body name or world). The joint is left out",
            parentElement->where);
      structureOk = false;
    }
  }
  if (childElement == nullptr) {
    error(ErrorCode::ELEMENT_MISSING, "joint '" + joint.name + "' needs a <child> body", element.where);
    structureOk = false;
  } else {
    joint.child = trim(childElement->text);
    if (bodies.count(joint.child) == 0) {
      error(ErrorCode::JOINT_CHILD_LINK_INVALID,
            "joint '" + joint.name + "' names child body '" + joint.child +
                "', which this skeleton does not define. The joint is left out",
            childElement->where);
      structureOk = false;
    }
  }
  if (structureOk && joint.parent == joint.child) {
    error(ErrorCode::JOINT_PARENT_SAME_AS_CHILD, "joint '" + joint.name + "' has body '" + joint.child +
                                                     "' as both parent and child. The joint is left out",
          element.where);
    structureOk = false;
  }

  const std::size_t dofs = static_cast<std::size_t>(dofCount(joint.type));
  std::vector<double> positions(dofs, 0.0);
  std::vector<double> velocities(dofs, 0.0);
  bool anyPosition = false;
  bool anyVelocity = false;

  readAxes(element, record);

  for (const auto& child : element.children) {
    const std::string& n = child.name;
    if (n == "parent" || n == "child" || n == "axis" || n == "axis2" || n == "axis3" || n == "plane" ||
        n == "axis_order" || n == "dof") {
      continue;  // read elsewhere
    } else if (n == "transformation") {
      if (const auto pose = transformation(child)) {
        joint.pose.pose = *pose;  // the joint frame in the child body frame
        joint.pose.where = child.where;
      }
    } else if (n == "init_pos" || n == "init_vel") {
      if (dofs == 0) {
        note(ErrorCode::ELEMENT_UNSUPPORTED, "<" + n + "> of a weld joint has nothing to set; ignored as DART does",
             child.where);
        continue;
      }
      readInitial(child, n, joint, n == "init_pos" ? positions : velocities);
      (n == "init_pos" ? anyPosition : anyVelocity) = true;
    } else {
      unsupported(model.kept, "skeleton/joint", child);
    }
  }

  const auto dofElements = element.childrenNamed("dof");
  if (!dofElements.empty()) {
    readDofs(element, record, positions, velocities, model);
    anyPosition = true;
    anyVelocity = true;
  }

  // Into the core's coordinate order.
  auto reorder = [&](const std::vector<double>& dart) {
    std::vector<double> core(dart.size());
    for (std::size_t i = 0; i < dart.size(); ++i) core[coreDofIndex(joint.type, i)] = dart[i];
    return core;
  };
  if (anyPosition) joint.initialPositions = reorder(positions);
  if (anyVelocity) joint.initialVelocities = reorder(velocities);

  if (!structureOk) return std::nullopt;
  return record;
}

void Reader::readInitial(const XmlElement& element, std::string_view tag, Joint& joint, std::vector<double>& values) {
  const std::size_t count = values.size();
  const std::string what = "<" + std::string(tag) + "> of " + std::string(jointTypeName(joint.type)) + " joint '" +
                           joint.name + "' (" + std::to_string(count) + (count == 1 ? " value" : " values") +
                           (joint.type == JointType::Free ? ": rotation vector, then translation" : "") +
                           (joint.type == JointType::Ball ? ": a rotation vector" : "") + ")";
  if (const auto parsed = numbers(element, count, what)) values = *parsed;
}

void Reader::readAxes(const XmlElement& element, JointRecord& record) {
  Joint& joint = record.joint;
  const std::size_t dofs = static_cast<std::size_t>(dofCount(joint.type));
  const bool axesFromFile =
      joint.type == JointType::Revolute || joint.type == JointType::Prismatic || joint.type == JointType::Screw ||
      joint.type == JointType::Universal;

  if (hasAxisPerDof(joint.type)) joint.axes.assign(dofs, JointAxis{});
  switch (joint.type) {
    case JointType::Euler: {
      std::string order = "xyz";
      if (const XmlElement* orderElement = element.child("axis_order")) {
        order = toLower(trim(orderElement->text));
        if (order != "xyz" && order != "zyx") {
          error(ErrorCode::VALUE_INVALID, "<axis_order> must be xyz or zyx, got '" + order + "'; using xyz",
                orderElement->where);
          order = "xyz";
        }
      } else {
        warning(ErrorCode::ELEMENT_MISSING, "euler joint '" + joint.name + "' without <axis_order>; using xyz",
                element.where);
      }
      const std::array<Vector3, 3> xyz{Vector3::UnitX(), Vector3::UnitY(), Vector3::UnitZ()};
      for (std::size_t i = 0; i < 3; ++i) joint.axes[i].xyz = order == "xyz" ? xyz[i] : xyz[2 - i];
      break;
    }
    case JointType::Translational:
      joint.axes[0].xyz = Vector3::UnitX();
      joint.axes[1].xyz = Vector3::UnitY();
      joint.axes[2].xyz = Vector3::UnitZ();
      break;
    case JointType::Planar:
    case JointType::Translational2D:
      readPlane(element, record);
      break;
    case JointType::Screw:
      joint.screwThreadPitch = 0.1;  // DART's default pitch
      break;
    default:
      break;
  }

  static const std::array<const char*, 3> axisNames{"axis", "axis2", "axis3"};
  for (std::size_t i = 0; i < axisNames.size(); ++i) {
    const XmlElement* axisElement = element.child(axisNames[i]);
    const bool needed = axesFromFile && i < dofs;
    if (axisElement == nullptr) {
      if (needed) {
        error(ErrorCode::ELEMENT_MISSING,
              std::string(jointTypeName(joint.type)) + " joint '" + joint.name + "' needs <" + axisNames[i] +
                  "><xyz>; using the z axis",
              element.where);
      }
      continue;
    }
    if (!hasAxisPerDof(joint.type) || i >= dofs) {
      note(ErrorCode::ELEMENT_UNSUPPORTED,
           std::string("<") + axisNames[i] + "> of " + std::string(jointTypeName(joint.type)) + " joint '" +
               joint.name + "' is ignored, as DART ignores it",
           axisElement->where);
      continue;
    }
    JointAxis& axis = joint.axes[i];
    axis.where = axisElement->where;
    if (const XmlElement* xyz = axisElement->child("xyz")) {
      if (!axesFromFile) {
        note(ErrorCode::ELEMENT_UNSUPPORTED,
             std::string("<xyz> of a ") + std::string(jointTypeName(joint.type)) +
                 " joint is ignored, as DART ignores it: the type fixes the axes",
             xyz->where);
      } else if (const auto value = vector3(*xyz, "axis <xyz>")) {
        if (value->norm() == 0) {
          error(ErrorCode::VALUE_INVALID, "axis <xyz> must not be the zero vector", xyz->where);
        } else {
          axis.xyz = value->normalized();  // DART normalises
        }
      }
    } else if (needed) {
      axis.xyz = Vector3::UnitX();  // the document's default
    }
    if (joint.type == JointType::Screw && i == 0) {
      if (const XmlElement* pitch = axisElement->child("pitch")) {
        if (const auto value = number(*pitch, "screw <pitch> (metres per revolution)")) joint.screwThreadPitch = *value;
      }
    }
    if (const XmlElement* damping = axisElement->child("damping")) {
      note(ErrorCode::ELEMENT_DEPRECATED, "<damping> belongs under <dynamics>", damping->where);
      if (const auto value = number(*damping, "<damping>")) axis.damping = *value;
    }
    if (const XmlElement* dynamics = axisElement->child("dynamics")) {
      for (const XmlElement& e : dynamics->children) {
        const std::string tag = "<" + e.name + ">";
        if (e.name == "sprint_rest_position" || e.name == "sprint_stiffness") {
          // The format document's spelling; DART reads spring_*.
          warning(ErrorCode::ELEMENT_DEPRECATED,
                  tag + " is read as <spring" + e.name.substr(6) + ">, the spelling DART reads", e.where);
        }
        if (e.name == "damping") {
          if (const auto value = number(e, tag)) axis.damping = *value;
        } else if (e.name == "friction") {
          if (const auto value = number(e, tag)) axis.friction = *value;
        } else if (e.name == "spring_rest_position" || e.name == "sprint_rest_position") {
          if (const auto value = number(e, tag)) axis.springReference = *value;
        } else if (e.name == "spring_stiffness" || e.name == "sprint_stiffness") {
          if (const auto value = number(e, tag)) axis.springStiffness = *value;
        } else {
          warning(ErrorCode::ELEMENT_UNSUPPORTED,
                  tag + " in <dynamics> is not a SKEL element (damping, friction, spring_rest_position, "
                        "spring_stiffness); ignored",
                  e.where);
        }
      }
    }
    if (const XmlElement* limitElement = axisElement->child("limit")) {
      for (const XmlElement& e : limitElement->children) {
        const std::string tag = "<" + e.name + ">";
        if (e.name == "lower") {
          if (const auto value = limit(e, tag)) axis.lower = *value;
        } else if (e.name == "upper") {
          if (const auto value = limit(e, tag)) axis.upper = *value;
        } else if (e.name == "effort") {
          if (const auto value = limit(e, tag)) axis.effort = *value;
        } else if (e.name == "velocity") {
          if (const auto value = limit(e, tag)) axis.velocity = *value;
        } else {
          warning(ErrorCode::ELEMENT_UNSUPPORTED,
                  tag + " in <limit> is not a SKEL element (lower, upper, effort, velocity); ignored", e.where);
        }
      }
    }
  }
}

void Reader::readPlane(const XmlElement& element, JointRecord& record) {
  Joint& joint = record.joint;
  Vector3 first = Vector3::UnitX();
  Vector3 second = Vector3::UnitY();
  const XmlElement* plane = element.child("plane");
  if (plane == nullptr) {
    warning(ErrorCode::ELEMENT_MISSING,
            std::string(jointTypeName(joint.type)) + " joint '" + joint.name + "' without <plane>; using xy as DART does",
            element.where);
  } else {
    const std::string type = plane->attributeOr("type", "");
    if (type == "xy") {
    } else if (type == "yz") {
      first = Vector3::UnitY();
      second = Vector3::UnitZ();
    } else if (type == "zx") {
      first = Vector3::UnitZ();
      second = Vector3::UnitX();
    } else if (type == "arbitrary") {
      const auto axis1 = required(*plane, "translation_axis1", "<xyz> of the first translation axis",
                                  [&](const XmlElement& e) { return requiredVector3(e, "xyz", "x y z"); });
      const auto axis2 = required(*plane, "translation_axis2", "<xyz> of the second translation axis",
                                  [&](const XmlElement& e) { return requiredVector3(e, "xyz", "x y z"); });
      if (axis1 && axis2) {
        // As DART: normalise, make the second orthogonal to the first.
        const Vector3 a = axis1->normalized();
        Vector3 b = axis2->normalized();
        const double dot = a.dot(b);
        if (axis1->norm() == 0 || axis2->norm() == 0 || std::abs(dot) > 1.0 - 1e-6) {
          error(ErrorCode::VALUE_INVALID, "the plane's translation axes must be non-zero and not parallel",
                plane->where);
        } else {
          if (std::abs(dot) > 1e-6) b = (b - dot * a).normalized();
          first = a;
          second = b;
        }
      }
    } else {
      error(ErrorCode::ATTRIBUTE_INVALID, "<plane type='" + type + "'> must be xy, yz, zx or arbitrary; using xy",
            plane->where);
    }
  }
  joint.axes[0].xyz = first;
  joint.axes[1].xyz = second;
  if (joint.type == JointType::Planar) joint.axes[2].xyz = first.cross(second).normalized();
}

void Reader::readDofs(const XmlElement& element, JointRecord& record, std::vector<double>& positions,
                      std::vector<double>& velocities, SkeletonRecord& model) {
  Joint& joint = record.joint;
  const std::size_t dofs = positions.size();
  for (const XmlElement* dof : element.childrenNamed("dof")) {
    keep(model.kept, "skeleton/joint[" + joint.name + "]", *dof);  // dof names and limits DART keeps
    std::size_t index = 0;
    if (const Attribute* localIndex = dof->attribute("local_index")) {
      const auto value = parseDouble(localIndex->value, localIndex->where, "dof local_index", diagnostics_);
      if (!value) continue;
      if (*value < 0 || *value >= static_cast<double>(dofs) || std::floor(*value) != *value) {
        error(ErrorCode::ATTRIBUTE_INVALID,
              "dof local_index " + localIndex->value + " is out of range: joint '" + joint.name + "' has " +
                  std::to_string(dofs) + " dofs",
              localIndex->where);
        continue;
      }
      index = static_cast<std::size_t>(*value);
    } else if (dofs != 1) {
      error(ErrorCode::ATTRIBUTE_MISSING,
            "<dof> of joint '" + joint.name + "' needs local_index: the joint has " + std::to_string(dofs) + " dofs",
            dof->where);
      continue;
    }
    JointAxis* axis = hasAxisPerDof(joint.type) ? &joint.axes[index] : nullptr;
    auto readRange = [&](const char* name, double* lower, double* upper, double* initial) {
      const XmlElement* range = dof->child(name);
      if (range == nullptr) return;
      auto attribute = [&](const char* attributeName, double* target) {
        const Attribute* a = range->attribute(attributeName);
        if (a == nullptr || target == nullptr) return;
        if (const auto value =
                xml::parseLimit(a->value, a->where, std::string("<") + name + "> " + attributeName, diagnostics_)) {
          *target = *value;
        }
      };
      attribute("lower", lower);
      attribute("upper", upper);
      attribute("initial", initial);
    };
    double ignoredLower = 0;
    double velocityUpper = std::numeric_limits<double>::quiet_NaN();
    double forceUpper = std::numeric_limits<double>::quiet_NaN();
    readRange("position", axis ? &axis->lower : &ignoredLower, axis ? &axis->upper : &ignoredLower, &positions[index]);
    readRange("velocity", &ignoredLower, &velocityUpper, &velocities[index]);
    readRange("acceleration", &ignoredLower, &ignoredLower, nullptr);
    readRange("force", &ignoredLower, &forceUpper, nullptr);
    if (axis != nullptr) {
      if (!std::isnan(velocityUpper)) axis->velocity = velocityUpper;
      if (!std::isnan(forceUpper)) axis->effort = forceUpper;
      if (const XmlElement* e = dof->child("damping")) {
        if (const auto value = number(*e, "<damping>")) axis->damping = *value;
      }
      if (const XmlElement* e = dof->child("friction")) {
        if (const auto value = number(*e, "<friction>")) axis->friction = *value;
      }
      if (const XmlElement* e = dof->child("spring_rest_position")) {
        if (const auto value = number(*e, "<spring_rest_position>")) axis->springReference = *value;
      }
      if (const XmlElement* e = dof->child("spring_stiffness")) {
        if (const auto value = number(*e, "<spring_stiffness>")) axis->springStiffness = *value;
      }
    }
  }
}

}  // namespace interlink::skel::detail
