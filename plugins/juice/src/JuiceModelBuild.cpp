// The Juice reader, step 2 after reading: IDs and twins checked, unique names assigned, and the
// bodies and joints built into links and joints of the model.
#include "JuiceDocumentReader.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "JuiceConventions.hpp"
#include "JuiceRecords.hpp"
#include "JuiceSymmetry.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/UniqueNames.hpp"
#include "interlink/xml/XmlParser.hpp"
#include "interlink/xml/XmlValues.hpp"

namespace interlink::juice::detail {

void Reader::checkDuplicateIds() {
  // Juice IDs are object addresses, unique within a file; a repeat makes references ambiguous.
  std::map<std::string, std::pair<std::string, SourceLocation>> firstUse;
  auto visit = [&](const Component& c, const std::string& what) {
    if (c.id.empty()) return;
    auto [it, inserted] = firstUse.emplace(c.id, std::make_pair(what, c.idWhere));
    if (inserted) return;
    diagnostics_.error(ErrorCode::DUPLICATE_NAME,
                       "ID " + c.id + " of " + what + " is already used by " + it->second.first + " (line " +
                           std::to_string(it->second.second.line) + "); expected IDs unique within the file",
                       c.idWhere.line > 0 ? c.idWhere : c.where);
  };
  for (const Body& b : bodies_) visit(b, "body " + inQuotes(b.name));
  for (const JointRecord& j : joints_) visit(j, std::string(jointKindWord(j.kind)) + " " + inQuotes(j.name));
}

void Reader::assignNames() {
  UniqueNames used("_", "", 2);
  auto unique = [&](Component& c, const char* fallback, std::size_t index) {
    c.scopedName = used.unique(sanitizeName(c.name.empty() ? fallback : c.name) + "_" +
                               (c.id.empty() ? "noid" + std::to_string(index) : sanitizeName(c.id)));
  };
  for (std::size_t i = 0; i < bodies_.size(); ++i) unique(bodies_[i], "body", i);
  for (std::size_t i = 0; i < joints_.size(); ++i) unique(joints_[i], "joint", i);
  for (std::size_t i = 0; i < bodies_.size(); ++i)
    if (!bodies_[i].id.empty()) bodyById_.emplace(bodies_[i].id, i);
}

void Reader::checkTwins() {
  checkTwinsOf<Body>(
      bodies_, "Bodies", [](const Body&) { return true; }, [](const Body&) { return std::string("body"); });
  for (JointKind kind : {JointKind::Revolute, JointKind::Prismatic, JointKind::Spherical}) {
    checkTwinsOf<JointRecord>(
        joints_, std::string(jointElementName(kind)) + "s",
        [kind](const JointRecord& j) { return j.kind == kind; },
        [](const JointRecord& j) { return std::string(jointKindWord(j.kind)); });
  }
}

Pose Reader::bodyPose(const Body& b) {
  Pose pose = Pose::Identity();
  pose.translation() = b.position;
  pose.linear() = bodyOrientation(b.yaw, b.pitch, b.roll).toRotationMatrix();
  return pose;
}

void Reader::buildLinks() {
  for (const Body& b : bodies_) {
    Link link;
    link.name = b.scopedName;
    link.where = b.where;
    link.pose.pose = bodyPose(b);
    link.pose.where = b.positionWhere.line > 0 ? b.positionWhere : b.where;
    link.hasInertial = true;
    link.inertial.mass = b.mass;
    link.inertial.where = b.where;
    Geometry geometry;
    Vector3 moments = Vector3::Ones();
    if (b.shapeValid) {
      switch (b.shape) {
        case 1:
          geometry.type = GeometryType::Box;
          geometry.size = b.box;
          moments = boxInertia(b.mass, b.box);
          break;
        case 2:  // a tube: capsule (2) or cylinder (4), of one diameter and length
        case 4:
          geometry.type = b.shape == 2 ? GeometryType::Capsule : GeometryType::Cylinder;
          geometry.radius = b.tubeDiameter / 2;
          geometry.length = b.tubeLength;
          moments = b.shape == 2 ? capsuleInertia(b.mass, geometry.radius, geometry.length)
                                 : cylinderInertia(b.mass, geometry.radius, geometry.length);
          break;
        case 3:
          geometry.type = GeometryType::Sphere;
          geometry.radius = b.ballDiameter / 2;
          moments = sphereInertia(b.mass, b.ballDiameter / 2);
          break;
        default:
          break;
      }
    }
    link.inertial.inertia = moments.asDiagonal();
    if (geometry.type != GeometryType::Empty) {
      Shape visual;
      visual.name = "visual";
      visual.geometry = geometry;
      visual.where = b.where;
      Shape collision = visual;
      collision.name = "collision";
      link.visuals.push_back(visual);
      link.collisions.push_back(collision);
    }
    JuiceBody record;
    record.link = link.name;
    record.name = b.name;
    record.id = b.id;
    record.shape = b.shapeValid && b.shape >= 1 && b.shape <= 4 ? static_cast<BodyShape>(b.shape - 1) : BodyShape::Invalid;
    record.serializationId = b.serializationId;
    if (!isNoReference(b.twin)) {
      auto it = bodyById_.find(b.twin);
      record.twin = it != bodyById_.end() ? bodies_[it->second].scopedName : b.twinText;
    }
    components_.bodies.push_back(std::move(record));
    model_.links.push_back(std::move(link));
  }
}

std::optional<std::size_t> Reader::resolveBody(const JointRecord& j, bool first) {
  const std::string& id = first ? j.body1 : j.body2;
  const std::string& text = first ? j.body1Text : j.body2Text;
  const SourceLocation& where = first ? j.body1Where : j.body2Where;
  const char* element = first ? "Body1" : "Body2";
  ErrorCode code = first ? ErrorCode::JOINT_PARENT_LINK_INVALID : ErrorCode::JOINT_CHILD_LINK_INVALID;
  std::string what = std::string(jointKindWord(j.kind)) + " " + inQuotes(j.name) + " (ID " + j.id + ")";
  if (isNoReference(id)) {
    diagnostics_.warning(code,
                         std::string(element) + " of " + what + " is " + (text.empty() ? "missing" : text) +
                             "; expected the ID of a body. Juice attaches this joint to nothing, so it is left "
                             "out of the model and kept as data",
                         where);
    return std::nullopt;
  }
  auto it = bodyById_.find(id);
  if (it == bodyById_.end()) {
    diagnostics_.warning(code,
                         std::string(element) + " " + text + " of " + what +
                             " names no body in <Bodies>; expected the ID of a body. Juice attaches this joint to "
                             "nothing, so it is left out of the model and kept as data",
                         where);
    return std::nullopt;
  }
  return it->second;
}

void Reader::buildJoints() {
  // Body1 is the parent, Body2 the child. Juice bodies are free, and its joints may form loops
  // or give a body two parents: such joints become loop closures so the tree stays a tree.
  std::vector<int> parentOf(bodies_.size(), -1);
  for (const JointRecord& j : joints_) {
    std::optional<std::size_t> parent = resolveBody(j, true);
    std::optional<std::size_t> child = resolveBody(j, false);
    if (parent && child && *parent == *child) {
      diagnostics_.warning(ErrorCode::JOINT_PARENT_SAME_AS_CHILD,
                           std::string(jointKindWord(j.kind)) + " " + inQuotes(j.name) + " (ID " + j.id +
                               ") joins body " + inQuotes(bodies_[*parent].name) +
                               " to itself; expected two different bodies. Juice attaches this joint to nothing, "
                               "so it is left out of the model and kept as data",
                           j.body2Where);
      parent.reset();
    }
    if (!parent || !child) {
      model_.kept.push_back(KeptElement{std::string("Model/") + jointElementName(j.kind) + "s/" +
                                            jointElementName(j.kind),
                                        j.element ? j.element->toXml() : std::string(), j.where});
      continue;
    }
    Joint joint;
    joint.name = j.scopedName;
    joint.where = j.where;
    joint.parent = bodies_[*parent].scopedName;
    joint.child = bodies_[*child].scopedName;
    joint.loopClosure = parentOf[*child] >= 0 || isAncestor(parentOf, *child, *parent);
    if (!joint.loopClosure) parentOf[*child] = static_cast<int>(*parent);
    // Anchor at Position with axes parallel to the model frame, written relative to the child.
    Pose anchor = Pose::Identity();
    anchor.translation() = j.position;
    joint.pose.pose = bodyPose(bodies_[*child]).inverse() * anchor;
    joint.pose.where = j.positionWhere.line > 0 ? j.positionWhere : j.where;
    if (j.kind == JointKind::Spherical) {
      joint.type = JointType::Ball;  // Juice uses only the anchor; stops are unused
    } else {
      JointAxis axis;
      axis.where = j.where;
      axis.xyz = jointAxis(j);
      axis.effort = j.maxForce;
      const double unit = j.kind == JointKind::Revolute ? kPi / 180.0 : 1.0;
      if (j.loFlag) axis.lower = j.loStop * unit;
      if (j.hiFlag) axis.upper = j.hiStop * unit;
      joint.type = j.kind == JointKind::Revolute ? JointType::Revolute : JointType::Prismatic;
      joint.axes.push_back(axis);
    }
    JuiceJoint record;
    record.joint = joint.name;
    record.name = j.name;
    record.id = j.id;
    record.kind = j.kind;
    record.serializationId = j.serializationId;
    if (!isNoReference(j.twin)) record.twinId = j.twinText;
    record.gain = j.gain;
    record.maxForce = j.maxForce;
    record.loStop = j.loStop;
    record.hiStop = j.hiStop;
    record.loStopFlag = j.loFlag;
    record.hiStopFlag = j.hiFlag;
    record.length = j.length;
    record.diameter = j.diameter;
    components_.joints.push_back(std::move(record));
    model_.joints.push_back(std::move(joint));
  }
}

bool Reader::isAncestor(const std::vector<int>& parentOf, std::size_t candidate, std::size_t of) {
  // Walks up from `of`; bounded by the number of bodies so a malformed chain cannot hang.
  int current = static_cast<int>(of);
  for (std::size_t steps = 0; current >= 0 && steps <= parentOf.size(); ++steps) {
    if (static_cast<std::size_t>(current) == candidate) return true;
    current = parentOf[static_cast<std::size_t>(current)];
  }
  return false;
}

}  // namespace interlink::juice::detail
