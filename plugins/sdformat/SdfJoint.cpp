// The SDFormat reader, joints: type, parent and child, axes with their limits and dynamics, mimic.
#include "SdfDocumentReader.hpp"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>


#include "Unflatten.hpp"
#include "schema/SchemaValidator.hpp"
#include "schema/Upgrade.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/xml/XmlParser.hpp"
#include "interlink/xml/XmlValues.hpp"

namespace interlink::sdformat::detail {

Joint Reader::readJoint(const XmlElement& e, const std::string& scopePath, std::vector<KeptElement>& kept,
                bool axesInModelFrame) {
  Joint joint = declaredAt<Joint>(e);
  KeptOwner owner(*this, joint.name);
  const std::string path = scopePath + "/joint";
  const Attribute* type = e.attribute("type");
  if (!type) {
    schemaError(ErrorCode::ATTRIBUTE_MISSING, "required attribute 'type' of element <joint> is missing", e.where);
  } else if (auto parsed = jointTypeFromName(trim(type->value))) {
    joint.type = *parsed;
  } else {
    // libsdformat finds this when it builds the joint, after the schema pass (no FILE_READ).
    diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                       "joint type '" + type->value +
                           "' is invalid; expected fixed, revolute, continuous, prismatic, ball, universal, screw, "
                           "gearbox or revolute2",
                       type->where);
  }
  const XmlElement* axisElements[2] = {nullptr, nullptr};
  bool hasParent = false;
  bool hasChild = false;
  bool poseRead = false;
  bool threadPitchRead = false;
  for (const XmlElement& child : e.children) {
    const std::string_view n = child.name;  // a view: comparisons with literals stay inline
    if (n == "parent") {
      joint.parent = text(child);
      hasParent = true;
    } else if (n == "child") {
      joint.child = text(child);
      hasChild = true;
    } else if (n == "pose" && !poseRead) {
      joint.pose = readPose(child);
      poseRead = true;
    } else if (n == "axis" && !axisElements[0]) {
      axisElements[0] = &child;
    } else if (n == "axis2" && !axisElements[1]) {
      axisElements[1] = &child;
    } else if (n == "thread_pitch") {
      readNumber(child, joint.screwThreadPitch);
      threadPitchRead = true;
    } else if (n == "screw_thread_pitch" && !version_.below(10)) {  // 1.10 replaced thread_pitch
      readNumber(child, joint.screwThreadPitch);
      threadPitchRead = true;
    } else if (n == "gearbox_ratio") {
      readNumber(child, joint.gearboxRatio);
    } else if (n == "interlink:transmission_ratio") {  // written by Interlink's SDFormat writer
      readNumber(child, joint.transmissionRatio);
    } else {
      keep(child, path, kept);
    }
  }
  if (!hasParent) {
    schemaError(ErrorCode::ELEMENT_MISSING, "required element <parent> of joint '" + joint.name + "' is missing",
                e.where);
  }
  if (!hasChild) {
    schemaError(ErrorCode::ELEMENT_MISSING, "required element <child> of joint '" + joint.name + "' is missing",
                e.where);
  }
  for (const std::string* name : {&joint.parent, &joint.child}) {
    if (*name == "__root__") {
      diagnostics_.error(ErrorCode::RESERVED_NAME,
                         "joint '" + joint.name + "' names '__root__' as its " +
                             (name == &joint.parent ? "parent" : "child") + "; '__root__' is reserved",
                         e.where);
    }
  }
  if (joint.type == JointType::Screw && !threadPitchRead) joint.screwThreadPitch = 1.0;  // SDFormat's default

  const int needed = sdformatAxisCount(joint.type);
  int count = needed;
  for (int i = 0; i < 2; ++i) {
    if (axisElements[i]) count = std::max(count, i + 1);
  }
  std::vector<double> initial(static_cast<std::size_t>(count), 0.0);
  bool anyInitial = false;
  for (int i = 0; i < count; ++i) {
    JointAxis axis = defaultAxis(e.where);
    if (axisElements[i]) {
      std::optional<double> initialPosition;
      axis = readAxis(*axisElements[i], path + "/" + axisElements[i]->name, kept, axesInModelFrame, initialPosition);
      if (const XmlElement* mimic = axisElements[i]->child("mimic"); mimic && !version_.below(11)) {
        joint.mimic = readMimic(*mimic);
      }
      if (initialPosition) {
        initial[static_cast<std::size_t>(i)] = *initialPosition;
        anyInitial = true;
      }
    } else if (axesInModelFrame) {
      axis.expressedIn = "__model__";
    }
    joint.axes.push_back(std::move(axis));
  }
  if (anyInitial) {
    initial.resize(static_cast<std::size_t>(dofCount(joint.type)), 0.0);
    joint.initialPositions = std::move(initial);
  }
  return joint;
}

Mimic Reader::readMimic(const XmlElement& e) {
  Mimic mimic;
  mimic.joint = e.attributeOr("joint", "");
  double reference = 0;
  for (const XmlElement& child : e.children) {
    if (child.name == "multiplier") readNumber(child, mimic.multiplier);
    else if (child.name == "offset") readNumber(child, mimic.offset);
    else if (child.name == "reference") readNumber(child, reference);
  }
  mimic.offset -= mimic.multiplier * reference;
  return mimic;
}

JointAxis Reader::readAxis(const XmlElement& e, const std::string& path, std::vector<KeptElement>& kept,
                   bool axesInModelFrame, std::optional<double>& initialPosition) {
  JointAxis axis = defaultAxis(e.where);
  bool useParentModelFrame = axesInModelFrame;
  for (const XmlElement& child : e.children) {
    const std::string_view n = child.name;  // a view: comparisons with literals stay inline
    if (n == "xyz") {
      Vector3 xyz = axis.xyz;
      readVector3(child, xyz);
      axis.expressedIn = frameReference(child, "expressed_in");  // read in 1.4-1.6 files too, like libsdformat
      const double norm = xyz.norm();
      if (norm == 0) {
        // libsdformat reports this when it builds the axis, after the schema pass.
        diagnostics_.error(ErrorCode::ELEMENT_INVALID, "the norm of the <xyz> vector of the joint axis cannot be zero",
                           child.where);
      } else {
        axis.xyz = xyz / norm;
      }
    } else if (n == "use_parent_model_frame" && version_.below(7)) {
      readBool(child, useParentModelFrame);
    } else if (n == "initial_position") {
      if (auto value = number(child)) initialPosition = *value;
    } else if (n == "mimic" && !version_.below(11)) {
      // read by readMimic
    } else if (n == "limit") {
      for (const XmlElement& limit : child.children) {
        const std::string& l = limit.name;
        if (l == "lower") readLimit(limit, axis.lower);
        else if (l == "upper") readLimit(limit, axis.upper);
        else if (l == "effort") {
          readLimit(limit, axis.effort);
          if (axis.effort < 0) axis.effort = std::numeric_limits<double>::infinity();  // -1: no limit
        } else if (l == "velocity") {
          readLimit(limit, axis.velocity);
          if (axis.velocity < 0) axis.velocity = std::numeric_limits<double>::infinity();
        } else {
          keep(limit, path + "/limit", kept);
        }
      }
    } else if (n == "dynamics") {
      for (const XmlElement& dynamics : child.children) {
        const std::string& d = dynamics.name;
        if (d == "damping") readNumber(dynamics, axis.damping);
        else if (d == "friction") readNumber(dynamics, axis.friction);
        else if (d == "spring_reference") readNumber(dynamics, axis.springReference);
        else if (d == "spring_stiffness") readNumber(dynamics, axis.springStiffness);
        else keep(dynamics, path + "/dynamics", kept);
      }
    } else {
      keep(child, path, kept);
    }
  }
  if (version_.below(7) && useParentModelFrame) axis.expressedIn = "__model__";
  return axis;
}

}  // namespace interlink::sdformat::detail
