// MJCF records -> core model. MuJoCo's world body becomes the static link "worldbody" (the model's
// canonical link, so that including the model places the whole MuJoCo world); every other body a
// link. A body's joints act in order on the body frame (MuJoCo composes them about their anchors),
// so a body with n joints becomes a chain of n joints through n-1 massless links; a body without
// joints is welded to its parent by a fixed joint. Interlink's coordinate of a hinge or slide is
// MuJoCo's qpos (the file's body pose holds at qpos = ref). Full rules: docs/mjcf.md.
#include "MjcfMapping.hpp"

#include "MjcfMass.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <Eigen/Eigenvalues>

#include "interlink/PoseMath.hpp"
#include "interlink/xml/XmlElement.hpp"
#include "interlink/TextNumbers.hpp"

namespace interlink::mjcf {
namespace {

constexpr double kMinValue = 1e-15;  // MuJoCo's mjMINVAL

const char* const kWorldLink = "worldbody";

class Mapper {
 public:
  Mapper(const MjcfModel& mjcf, const std::string& path, Diagnostics& diagnostics)
      : mjcf_(mjcf), path_(path), diagnostics_(diagnostics) {}

  void map(Document& document) {
    document.sourceFile = path_;
    document.format = "mjcf";
    document.formatVersion = "2.2.2";
    // MuJoCo 2.2.2 refuses negative values and moments that break the triangle inequality (exact
    // comparisons, mjCBody::Compile) and a moving body lighter than mjMINVAL (mjCModel::Compile),
    // after the <compiler> options have changed them (this mapping applies those). A missing mesh
    // asset is refused at the asset, by the reader, which alone knows <compiler meshdir>.
    document.rules.setVersion(document.formatVersion);
    document.rules.inertia.checked = true;
    document.rules.inertia.severity = Severity::Error;
    document.rules.inertia.zeroMomentsAllowed = true;
    document.rules.inertia.tolerance = InertiaTolerance::RoundOff;
    document.rules.inertia.movingBodyMinimum = 1e-15;  // mjMINVAL
    document.rules.setInertiaVerdict("MuJoCo 2.2.2 refuses it");
    document.rules.readerReportsMissingMeshes = true;
    document.rules.shapeNamesUniqueInModel = true;  // geom names
    Model model;
    model.name = mjcf_.name;
    model.where = mjcf_.world.where;
    model.canonicalLink = kWorldLink;
    model.kept = mjcf_.kept;
    model.readingNotes["mjcf.angle"] = mjcf_.compiler.degrees ? "degree" : "radian";
    model.readingNotes["mjcf.eulerseq"] = mjcf_.compiler.eulerSequence;

    reserveNames(mjcf_.world);

    Link world;
    world.name = kWorldLink;
    world.where = mjcf_.world.where;
    world.hasInertial = true;
    world.inertial.mass = 0;
    world.inertial.inertia = Matrix3::Zero();
    addShapes(mjcf_.world, world);
    model.links.push_back(std::move(world));
    addFrames(mjcf_.world, kWorldLink, model);
    keepBodyElements(mjcf_.world, kWorldLink, model);

    for (const BodyRecord& child : mjcf_.world.children) mapBody(child, kWorldLink, model);
    applyTotalMass(model);
    mapEqualities(model);
    document.model = std::move(model);
  }

 private:
  // --- names --------------------------------------------------------------------------------------

  static std::string orGenerated(const std::string& name, const char* kind, int id) {
    return name.empty() ? std::string(kind) + "_" + std::to_string(id) : name;
  }

  /// Body names first: they are the links every other name must not collide with. A body named
  /// like the world body's link ("worldbody", as an MJCF file written by Interlink has) is renamed.
  void reserveNames(const BodyRecord& body) {
    for (const BodyRecord& child : body.children) {
      const std::string& link = linkNames_[child.id] =
          unique(orGenerated(child.name, "body", child.id), "__body", child.where);
      if (!child.name.empty()) linkOfBody_[child.name] = link;
      reserveNames(child);
    }
  }

  const std::string& linkName(const BodyRecord& body) const { return linkNames_.at(body.id); }

  /// `wanted`, or `wanted + suffix` when a frame of the model already has that name (MuJoCo keeps
  /// one namespace per kind of element, Interlink one per model).
  std::string unique(const std::string& wanted, const std::string& suffix, const SourceLocation& where) {
    std::string name = wanted;
    if (used_.count(name)) {
      name = wanted + suffix;
      for (int k = 2; used_.count(name); ++k) name = wanted + suffix + std::to_string(k);
      diagnostics_.warning(ErrorCode::DUPLICATE_NAME,
                           "'" + wanted + "' names another frame of the model too; Interlink calls this one '" + name + "'",
                           where);
    }
    used_.insert(name);
    return name;
  }

  // --- bodies -------------------------------------------------------------------------------------

  void addShapes(const BodyRecord& body, Link& link) {
    for (const GeomRecord& g : body.geoms) {
      Shape shape;
      shape.name = orGenerated(g.name, "geom", g.id);
      shape.pose.pose = g.pose;
      shape.geometry = g.geometry;
      shape.color = g.rgba;
      shape.material = g.material;
      shape.where = g.where;
      // Every geom is drawn; one that collides with nothing (contype = conaffinity = 0) is visual only.
      if (g.contype != 0 || g.conaffinity != 0) link.collisions.push_back(shape);
      link.visuals.push_back(std::move(shape));
    }
  }

  void addFrames(const BodyRecord& body, const std::string& link, Model& model) {
    auto add = [&](const FrameRecord& r, const char* kind) {
      Frame frame;
      frame.name = unique(orGenerated(r.name, kind, r.id), std::string("__") + kind, r.where);
      frame.attachedTo = link;
      frame.pose.pose = r.pose;
      frame.pose.relativeTo = link;
      frame.pose.where = r.where;
      frame.where = r.where;
      // A camera's optics (fovy, mode, ...) are kept as written for an MJCF writer, by frame.
      if (!r.element.empty()) model.kept.push_back(KeptElement{"body/camera", r.element, r.where, {}, "camera", {link, frame.name}});
      keepMujocoParameters("site", r.mujoco, r.where, {link, frame.name}, model);
      model.frames.push_back(std::move(frame));
    };
    for (const FrameRecord& site : body.sites) add(site, "site");
    for (const FrameRecord& camera : body.cameras) add(camera, "camera");
  }

  void mapBody(const BodyRecord& body, const std::string& parent, Model& model) {
    const std::string name = linkName(body);
    Link link;
    link.name = name;
    link.where = body.where;
    link.hasInertial = true;
    const MassProperties mass = massProperties(body);
    link.inertial.mass = mass.mass;
    link.inertial.centerOfMass = mass.frame;
    link.inertial.inertia = mass.inertia;
    link.inertial.where = body.inertial ? body.inertial->where : body.where;
    addShapes(body, link);

    // Joints in order, each moving what follows it about its anchor in the body frame.
    std::string previous = parent;
    Pose previousFromParent = body.pose;  // pose of the next link relative to `previous`
    if (body.joints.empty()) {
      Joint weld;
      weld.name = unique(name + "__fixed", "", body.where);
      weld.type = JointType::Fixed;
      weld.parent = parent;
      weld.child = name;
      weld.where = body.where;
      model.joints.push_back(std::move(weld));
    }
    for (std::size_t k = 0; k < body.joints.size(); ++k) {
      const JointRecord& record = body.joints[k];
      const bool last = k + 1 == body.joints.size();
      const std::string jointName = unique(orGenerated(record.name, "joint", record.id), "__joint", record.where);
      const std::string child = last ? name : unique(name + "__" + jointName, "", record.where);
      if (record.kind == JointKind::Free && (parent != kWorldLink || body.joints.size() > 1)) {
        diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                           "a free joint must be the only joint of a body in <worldbody> (joint '" + jointName + "')",
                           record.where);
      }
      // The child sits where the file puts it when qpos = ref: M = T(p) R(a, -ref) T(-p).
      Pose atZero = Pose::Identity();
      if (record.kind == JointKind::Hinge) {
        atZero.translation() = record.pos;
        atZero.rotate(Eigen::AngleAxisd(-record.ref, record.axis));
        atZero.translate(-record.pos);
      } else if (record.kind == JointKind::Slide) {
        atZero.translation() = -record.ref * record.axis;
      }
      const Pose linkPose = previousFromParent * atZero;
      if (!last) {
        Link intermediate;
        intermediate.name = child;
        intermediate.where = record.where;
        intermediate.hasInertial = true;
        intermediate.inertial.mass = 0;
        intermediate.inertial.inertia = Matrix3::Zero();
        intermediate.pose.pose = linkPose;
        intermediate.pose.relativeTo = previous;
        model.links.push_back(std::move(intermediate));
      } else {
        link.pose.pose = linkPose;
        link.pose.relativeTo = previous;
      }
      model.joints.push_back(mapJoint(record, jointName, previous, child));
      keepMujocoParameters("joint", record.mujoco, record.where, {jointName}, model);
      previous = child;
      previousFromParent = Pose::Identity();
    }
    if (body.joints.empty()) {
      link.pose.pose = body.pose;
      link.pose.relativeTo = parent;
    }
    model.links.push_back(std::move(link));
    keepMujocoParameters("body", body.mujoco, body.where, {name}, model);
    addFrames(body, name, model);
    keepBodyElements(body, name, model);
    for (const BodyRecord& child : body.children) mapBody(child, name, model);
  }

  /// A body's kept elements (<light>, <plugin>) name the link they belong to, so that an MJCF
  /// writer puts them back into that body.
  static void keepBodyElements(const BodyRecord& body, const std::string& link, Model& model) {
    for (KeptElement k : body.kept) {
      k.within = "link";
      k.owners = {link};
      model.kept.push_back(std::move(k));
    }
    for (const GeomRecord& g : body.geoms) {
      keepMujocoParameters("geom", g.mujoco, g.where, {link, orGenerated(g.name, "geom", g.id)}, model);
    }
  }

  /// MuJoCo's own parameters of a geom (owners: link and geom) or joint (owner: joint) as an
  /// empty element of that name, for an MJCF writer (MjcfKept.hpp).
  static void keepMujocoParameters(const std::string& kind, const std::vector<std::pair<std::string, std::string>>& values,
                                   const SourceLocation& where, std::vector<std::string> owners, Model& model) {
    if (values.empty()) return;
    xml::XmlElement element;
    element.name = kind;
    for (const auto& [name, value] : values) element.attributes.push_back(xml::Attribute{name, value, where});
    model.kept.push_back(KeptElement{"body/" + kind, element.toXml(), where, {}, kind, std::move(owners)});
  }

  Joint mapJoint(const JointRecord& record, const std::string& name, const std::string& parent, const std::string& child) {
    Joint joint;
    joint.name = name;
    joint.parent = parent;
    joint.child = child;
    joint.where = record.where;
    // The joint frame: at the anchor, axes of the body frame (a free joint at the body origin).
    if (record.kind != JointKind::Free) joint.pose.pose.translation() = record.pos;
    JointAxis axis;
    axis.xyz = record.axis;
    axis.damping = record.damping;
    axis.friction = record.frictionLoss;
    axis.springStiffness = record.stiffness;
    axis.springReference = record.springRef;
    axis.where = record.where;
    switch (record.kind) {
      case JointKind::Hinge:
        joint.type = record.limited ? JointType::Revolute : JointType::Continuous;
        break;
      case JointKind::Slide: joint.type = JointType::Prismatic; break;
      case JointKind::Ball: joint.type = JointType::Ball; break;
      case JointKind::Free: joint.type = JointType::Free; break;
    }
    if (record.limited && (record.kind == JointKind::Hinge || record.kind == JointKind::Slide)) {
      axis.lower = record.lower;
      axis.upper = record.upper;
    }
    if (record.forceLimited) {
      // The core keeps one effort limit per axis; an asymmetric actuatorfrcrange keeps its larger bound.
      axis.effort = std::max(std::abs(record.forceLower), std::abs(record.forceUpper));
      if (record.forceLower != -record.forceUpper) {
        diagnostics_.warning(ErrorCode::ATTRIBUTE_INVALID,
                             "actuatorfrcrange of joint '" + name + "' is not symmetric; its effort limit is the larger "
                             "magnitude, " + formatNumber(axis.effort),
                             record.where);
      }
    }
    if (record.kind == JointKind::Hinge || record.kind == JointKind::Slide) {
      joint.axes.push_back(axis);
      joint.initialPositions = {record.ref};
    }
    return joint;
  }

  // --- mass ---------------------------------------------------------------------------------------

  MassProperties massProperties(const BodyRecord& body) {
    const Compiler& compiler = mjcf_.compiler;
    MassProperties result;
    checkMeshMasses(body);
    const bool weighed = body.inertial && body.inertial->fromGeoms;
    const bool fromGeoms = !weighed && (compiler.inertiaFromGeom == InertiaFromGeom::True ||
                                        (!body.inertial && compiler.inertiaFromGeom == InertiaFromGeom::Auto));
    if (fromGeoms) {
      result = geomMassProperties(body);
    } else if (body.inertial) {
      result.mass = body.inertial->mass;
      result.frame = body.inertial->frame;
      result.inertia = body.inertial->inertia;
    }
    // <compiler boundmass boundinertia balanceinertia> act on the principal moments, as in MuJoCo's
    // mjCBody::Compile; what is still invalid after them is refused by the core's inertia check,
    // with MuJoCo's rules (check/InertiaCheck.cpp).
    result.mass = std::max(result.mass, compiler.boundMass);
    Eigen::SelfAdjointEigenSolver<Matrix3> eigen(result.inertia);
    Vector3 moments = eigen.eigenvalues().cwiseMax(compiler.boundInertia);
    const double a = moments[0], b = moments[1], c = moments[2];
    const bool negative = result.mass < 0 || moments.minCoeff() < 0;  // MuJoCo refuses before balancing
    if (compiler.balanceInertia && !negative && (a + b < c || a + c < b || b + c < a)) {
      moments.setConstant((a + b + c) / 3);
    }
    result.inertia = eigen.eigenvectors() * moments.asDiagonal() * eigen.eigenvectors().transpose();
    return result;
  }

  /// MuJoCo weighs every geom of a body that has no <inertial> (or always with inertiafromgeom
  /// "true"), outside the inertia groups too, and refuses the model when a mesh cannot give a mass.
  void checkMeshMasses(const BodyRecord& body) {
    const bool weighed = body.id > 0 && (mjcf_.compiler.inertiaFromGeom == InertiaFromGeom::True || !body.inertial ||
                                         body.inertial->fromGeoms);
    if (!weighed) return;
    for (const GeomRecord& g : body.geoms) {
      if (g.typeName != "mesh" || g.meshInertia || g.meshProblem.empty() || (g.mass && *g.mass == 0)) continue;
      diagnostics_.error(ErrorCode::LINK_INERTIA_INVALID,
                         "mesh geom '" + orGenerated(g.name, "geom", g.id) + "' cannot give its body a mass: " + g.meshProblem,
                         g.where);
    }
  }

  /// MuJoCo's mjCBody::GeomFrame: mass, centre and inertia of the geoms in the inertia groups.
  MassProperties geomMassProperties(const BodyRecord& body) {
    if (auto frame = geomFrame(body.geoms, mjcf_.compiler)) return *frame;
    diagnostics_.error(ErrorCode::LINK_INERTIA_INVALID,
                       "the geoms of body '" + orGenerated(body.name, "body", body.id) +
                           "' have too small a mass to place its centre of mass", body.where);
    return MassProperties{};
  }

  /// <compiler settotalmass>: scale every mass and inertia so that the bodies weigh that much.
  void applyTotalMass(Model& model) {
    const double wanted = mjcf_.compiler.setTotalMass;
    if (wanted <= 0) return;
    double total = 0;
    for (const Link& link : model.links) total += link.inertial.mass;
    if (total < kMinValue) return;
    const double scale = wanted / total;
    for (Link& link : model.links) {
      link.inertial.mass *= scale;
      link.inertial.inertia *= scale;
    }
  }

  // --- equality -----------------------------------------------------------------------------------

  /// weld and connect close kinematic loops: a fixed or ball joint marked as a loop closure,
  /// at body1's frame (weld) or at the anchor in body1's frame (connect).
  void mapEqualities(Model& model) {
    for (const EqualityRecord& eq : mjcf_.equalities) {
      Joint joint;
      joint.name = unique(orGenerated(eq.name, "equality", eq.id), "__equality", eq.where);
      joint.type = eq.kind == EqualityKind::Weld ? JointType::Fixed : JointType::Ball;
      auto link = [&](const std::string& body) {
        auto found = linkOfBody_.find(body);
        return found == linkOfBody_.end() ? body : found->second;
      };
      joint.parent = eq.body2.empty() ? std::string(kWorldLink) : link(eq.body2);
      joint.child = link(eq.body1);
      joint.loopClosure = true;
      joint.where = eq.where;
      if (eq.kind == EqualityKind::Connect) joint.pose.pose.translation() = eq.anchor;
      model.joints.push_back(std::move(joint));
    }
  }

  const MjcfModel& mjcf_;
  std::string path_;
  Diagnostics& diagnostics_;
  // Hashed, not ordered: they are only looked up (ordered, with the reader's name sets, they made
  // frames --json of 8 000 bodies cost 97.5 K instructions a body, 87.9 K hashed).
  std::unordered_set<std::string> used_ = {kWorldLink};
  std::unordered_map<int, std::string> linkNames_;           // body id -> link name
  std::unordered_map<std::string, std::string> linkOfBody_;  // body name -> link name
};

}  // namespace

void mapModel(const MjcfModel& mjcf, const std::string& path, Document& document, Diagnostics& diagnostics) {
  Mapper(mjcf, path, diagnostics).map(document);
}

}  // namespace interlink::mjcf
