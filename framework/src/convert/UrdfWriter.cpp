// Core model → URDF. URDF is one flat tree of links in which a joint's child link frame is the
// joint frame; everything else (nested models, explicit frames, joint frames apart from their
// child, multi-axis joints) is expressed with massless links and fixed joints named by the rules
// in docs/convert.md.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "MjcfKept.hpp"
#include "WriterSupport.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/convert/Writers.hpp"
#include "interlink/model/Names.hpp"

namespace interlink::convert {
namespace {

constexpr double kIdentityTolerance = 1e-12;
constexpr double kUnlimited = 1e16;  // URDF has no "unlimited"; SDFormat's magnitude stands in

bool isIdentity(const Pose& pose) { return pose.isApprox(Pose::Identity(), kIdentityTolerance); }

std::string originAttributes(const Pose& pose) {
  const Vector3 rpy = rpyFromRotation(pose.linear());
  return attr("xyz", numbers(pose.translation())) + attr("rpy", numbers(rpy));
}

using SubJoint = detail::TargetJoint;  // one URDF joint of the chain a core joint becomes

class UrdfWriter : XmlWriterBase {
 public:
  using XmlWriterBase::XmlWriterBase;

  std::optional<std::string> write() {
    const Document& document = loaded_.document;
    std::string robotName;
    if (document.isWorld()) {
      const World& world = document.worlds.front();
      robotName = world.name;
    } else {
      robotName = document.model->name;
    }
    if (!refuseLoops()) return std::nullopt;
    const auto& all = graph_.frames();
    if (std::none_of(all.begin(), all.end(), [](const FrameInfo& f) {
          return f.kind == FrameKind::Link || f.kind == FrameKind::Frame;
        })) {
      diagnostics_.error(ErrorCode::ELEMENT_MISSING, "a URDF robot needs at least one link, and the input has none",
                         SourceLocation{document.sourceFile, 0, 0});
      return std::nullopt;
    }

    const auto& frames = graph_.frames();
    indexKeptChildren(document);
    chooseFloatingBase();
    std::unordered_set<std::size_t> childLinks;
    for (const TreeJoint& joint : loaded_.kinematics.joints()) {
      if (&joint == unwrittenBase_) continue;
      childLinks.insert(joint.childLinkFrame);
      if (joint.parentLinkFrame < 0) needWorld_ = true;
    }
    std::vector<std::size_t> roots;
    for (std::size_t i = 0; i < frames.size(); ++i) {
      if (frames[i].kind == FrameKind::Link && !childLinks.count(i) && unwrittenWorld_ != static_cast<int>(i)) {
        roots.push_back(i);
      }
      if (frames[i].kind == FrameKind::Frame && frames[i].attachedLink.empty()) needWorld_ = true;
    }
    if (roots.size() != 1) needWorld_ = true;

    detail::TargetHolds holds{"URDF"};
    holds.urdfElements = true;  // a URDF source's <gazebo>, <transmission>, ... written back
    detail::warnWhatTargetCannotHold(document, holds, diagnostics_);
    out_.open("robot", attr("name", robotName));
    out_.comment("converted by interlink from " + detail::fileNameOf(document.sourceFile) + " (" + document.format +
                 "); scoped names use \"__\" for \"::\"");
    if (needWorld_) {
      addLinkName("world", SourceLocation{});
      out_.empty("link", attr("name", "world"));
    }
    for (std::size_t i = 0; i < frames.size(); ++i) {
      if (frames[i].kind == FrameKind::Link && unwrittenWorld_ != static_cast<int>(i)) writeLink(i);
    }
    if (needWorld_) {
      for (std::size_t root : roots) {
        const std::string& name = frames[root].name;
        const bool fixed = index_.staticLinks.count(root) > 0;
        writeJointElement(urdfName(name) + "__world_joint", fixed ? "fixed" : "floating", "world", urdfName(name),
                          frames[root].pose, nullptr, nullptr);
      }
    }
    for (const TreeJoint& joint : loaded_.kinematics.joints()) {
      if (&joint != unwrittenBase_) writeTreeJoint(joint);
    }
    for (std::size_t i = 0; i < frames.size(); ++i) {
      if (frames[i].kind == FrameKind::Frame) writeExplicitFrame(i);
    }
    if (document.model) {
      for (const KeptElement& kept : document.model->kept) {
        if (detail::isKeptUrdfElement(kept)) out_.raw(kept.text);
      }
    }
    out_.close("robot");
    if (diagnostics_.hasErrors()) return std::nullopt;
    return "<?xml version=\"1.0\"?>\n" + out_.str();
  }

 private:
  bool refuseLoops() {
    std::string names;
    for (const TreeJoint& joint : loaded_.kinematics.joints()) {
      if (joint.loopClosure) names += (names.empty() ? "'" : ", '") + joint.name + "'";
    }
    if (names.empty()) return true;
    diagnostics_.error(ErrorCode::KINEMATIC_LOOP,
                       "URDF can only describe a tree; the kinematic graph has loops closed by the joints " + names,
                       SourceLocation{loaded_.document.sourceFile, 0, 0});
    return false;
  }

  /// The kept children of links and joints (a URDF source's <calibration>, <safety_controller>,
  /// custom elements), by owner, written back into their owner.
  void indexKeptChildren(const Document& document) {
    if (!document.model) return;
    for (const KeptElement& kept : document.model->kept) {
      if (!detail::isKeptUrdfChild(kept)) continue;
      if (kept.within == "link/visual") {
        keptInVisual_[kept.owners[0] + "\n" + kept.owners[1]].push_back(&kept);
      } else {
        (kept.within == "link" ? keptInLink_ : keptInJoint_)[kept.owners.front()].push_back(&kept);
      }
    }
  }

  void writeKept(const std::map<std::string, std::vector<const KeptElement*>>& kept, const std::string& owner) {
    const auto found = kept.find(owner);
    if (found == kept.end()) return;
    for (const KeptElement* element : found->second) out_.raw(element->text);
  }

  /// Without WriteOptions::urdfFloatingJoint, the one floating base (detail::isFloatingBase) is not
  /// written as a joint: its child link is the URDF root, which Gazebo leaves free as MuJoCo's free
  /// joint does. Its parent, a link standing for the world, is not written either when nothing else
  /// is on it (planes, which URDF cannot hold, are warned). Only when that leaves one root link;
  /// otherwise the base is a `floating` joint like any other.
  void chooseFloatingBase() {
    if (options_.urdfFloatingJoint) return;
    const auto& joints = loaded_.kinematics.joints();
    const TreeJoint* base = nullptr;
    for (const TreeJoint& joint : joints) {
      if (!detail::isFloatingBase(graph_, index_, joint)) continue;
      if (base) return;  // several floating bases: URDF needs `world` and a joint to each
      base = &joint;
    }
    if (!base) return;
    const int world = base->parentLinkFrame;
    std::unordered_set<std::size_t> children;
    for (const TreeJoint& joint : joints) {
      if (&joint == base) continue;
      if (joint.parentLinkFrame < 0 || joint.parentLinkFrame == world) return;  // more hangs from the world
      children.insert(joint.childLinkFrame);
    }
    const auto& frames = graph_.frames();
    for (std::size_t i = 0; i < frames.size(); ++i) {
      if (frames[i].kind == FrameKind::Frame && (frames[i].attachedLink.empty() || frames[i].attachedLinkFrame == world)) {
        return;
      }
      if (frames[i].kind == FrameKind::Link && !children.count(i) && static_cast<int>(i) != world &&
          i != base->childLinkFrame) {
        return;  // another root
      }
    }
    const Link* worldLink = world >= 0 ? index_.link(static_cast<std::size_t>(world)) : nullptr;
    if (worldLink) {
      for (const auto* shapes : {&worldLink->visuals, &worldLink->collisions}) {
        for (const Shape& shape : *shapes) {
          if (shape.geometry.type != GeometryType::Plane) return;  // content URDF can hold
        }
      }
      if (keptInLink_.count(worldLink->name)) return;
      for (const auto* shapes : {&worldLink->visuals, &worldLink->collisions}) {
        for (const Shape& shape : *shapes) {
          diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                               "URDF has no plane geometry; " + std::string(shapes == &worldLink->visuals ? "visual" : "collision") +
                                   " '" + shape.name + "' of link '" + frames[static_cast<std::size_t>(world)].name +
                                   "' is not written",
                               shape.where);
        }
      }
      unwrittenWorld_ = world;
    }
    unwrittenBase_ = base;
    const Pose X_WC = frames[base->childLinkFrame].pose;
    std::string initial;
    if (!X_WC.isApprox(Pose::Identity(), kIdentityTolerance)) {
      initial = "; its initial pose (" + originAttributes(X_WC).substr(1) + ") is not kept";
    }
    const Joint* joint = index_.joint(base->frame);
    diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                         "URDF has no floating joint unless asked: the floating base '" + base->name +
                             "' is not written and its child '" + base->childLink +
                             "' is the root link, free in Gazebo" + initial +
                             " (WriteOptions::urdfFloatingJoint writes a `floating` joint from `world`)",
                         joint ? joint->where : SourceLocation{loaded_.document.sourceFile, 0, 0});
  }

  void addLinkName(const std::string& name, const SourceLocation& where) {
    if (!linkNames_.insert(name).second) {
      diagnostics_.error(ErrorCode::NAME_INVALID,
                         "two elements map to the URDF link name '" + name + "' (\"::\" is written as \"__\")", where);
    }
  }

  void addJointName(const std::string& name, const SourceLocation& where) {
    if (!jointNames_.insert(name).second) {
      diagnostics_.error(ErrorCode::NAME_INVALID,
                         "two elements map to the URDF joint name '" + name + "' (\"::\" is written as \"__\")", where);
    }
  }

  /// Pose of frame `frame` in the URDF frame of the parent: a link frame, or -1 for "world" (the
  /// root frame).
  Pose poseIn(int parentLink, std::size_t frame) const {
    if (parentLink < 0) return graph_.frames()[frame].pose;
    return detail::relativePose(graph_, static_cast<std::size_t>(parentLink), frame);
  }

  void writeLink(std::size_t index) {
    const FrameInfo& frame = graph_.frames()[index];
    const std::string name = urdfName(frame.name);
    addLinkName(name, frame.where);
    auto found = index_.links.find(index);
    const Link* link = found == index_.links.end() ? nullptr : found->second;
    if (!link || (!link->hasInertial && link->visuals.empty() && link->collisions.empty() && !keptInLink_.count(link->name))) {
      out_.empty("link", attr("name", name));
      return;
    }
    out_.open("link", attr("name", name));
    if (link->hasInertial) {
      const Inertial& inertial = link->inertial;
      out_.open("inertial");
      out_.empty("origin", originAttributes(inertial.centerOfMass));
      out_.empty("mass", attr("value", number(inertial.mass)));
      const Matrix3& I = inertial.inertia;
      out_.empty("inertia", attr("ixx", number(I(0, 0))) + attr("ixy", number(I(0, 1))) + attr("ixz", number(I(0, 2))) +
                                attr("iyy", number(I(1, 1))) + attr("iyz", number(I(1, 2))) +
                                attr("izz", number(I(2, 2))));
      out_.close("inertial");
    }
    writeShapes(index, link->visuals, "visual");
    writeShapes(index, link->collisions, "collision");
    writeKept(keptInLink_, link->name);
    out_.close("link");
  }

  void writeShapes(std::size_t linkIndex, const std::vector<Shape>& shapes, const char* kind) {
    const FrameInfo& frame = graph_.frames()[linkIndex];
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const Shape& shape = shapes[i];
      const std::string name = shape.name.empty() ? std::string(kind) + "_" + std::to_string(i) : shape.name;
      // The subject is the shape's names only: visuals and collisions stay two kinds of warning.
      const std::string subject = "'" + name + "' of link '" + frame.name + "'";
      const std::string what = std::string(kind) + " " + subject;
      const Geometry& g = shape.geometry;
      std::string geometry;
      switch (g.type) {
        case GeometryType::Box: geometry = "<box" + attr("size", numbers(g.size)) + "/>"; break;
        case GeometryType::Sphere: geometry = "<sphere" + attr("radius", number(g.radius)) + "/>"; break;
        case GeometryType::Cylinder:
          geometry = "<cylinder" + attr("radius", number(g.radius)) + attr("length", number(g.length)) + "/>";
          break;
        case GeometryType::Mesh:
          if (g.meshUri.empty() && g.meshResolvedPath.empty()) {
            // MJCF's <mesh vertex face>: the vertices are in the model file, not in a mesh file.
            diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                                 "URDF has no place for a mesh given inline in its source (no mesh file to name); " +
                                     what + " is not written",
                                 shape.where, subject);
            continue;
          }
          geometry = "<mesh" +
                     attr("filename", detail::meshUriFor(g.meshUri, g.meshResolvedPath, {true, false}, options_)) +
                     attr("scale", numbers(g.scale)) + "/>";
          break;
        default:
          diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                               std::string("URDF has no ") + geometryTypeName(g.type) + " geometry; " + what +
                                   " is not written",
                               shape.where, subject);
          continue;
      }
      Pose pose = shape.pose.pose;
      if (!shape.pose.relativeTo.empty()) {
        // A shape pose relative to another frame of the scope: re-expressed in the link frame.
        const auto reference = graph_.resolveReference(linkIndex, shape.pose.relativeTo);
        if (reference) pose = detail::relativePose(graph_, linkIndex, *reference) * pose;
      }
      out_.open(kind, attr("name", name));
      out_.empty("origin", originAttributes(pose));
      out_.open("geometry");
      out_.raw(geometry);
      out_.close("geometry");
      const Link* owner = index_.link(linkIndex);
      const std::string visualKey = owner ? owner->name + "\n" + shape.name : std::string();
      const bool textured = std::string(kind) == "visual" && keptInVisual_.count(visualKey);
      if ((shape.color || textured) && std::string(kind) == "visual") {
        const std::string material =
            shape.material.empty() ? urdfName(frame.name) + "__" + name + "__material" : shape.material;
        out_.open("material", attr("name", material));
        if (shape.color) {
          const Eigen::Vector4d& c = *shape.color;
          out_.empty("color", attr("rgba", number(c[0]) + " " + number(c[1]) + " " + number(c[2]) + " " + number(c[3])));
        }
        if (textured) writeKept(keptInVisual_, visualKey);
        out_.close("material");
      }
      out_.close(kind);
    }
  }

  void writeJointElement(const std::string& name, const std::string& type, const std::string& parent,
                         const std::string& child, const Pose& origin, const SubJoint* sub, const Joint* joint) {
    addJointName(name, joint ? joint->where : SourceLocation{});
    out_.open("joint", attr("name", name) + attr("type", type));
    out_.empty("origin", originAttributes(origin));
    out_.empty("parent", attr("link", parent));
    out_.empty("child", attr("link", child));
    if (sub && type != "fixed" && type != "floating") {
      out_.empty("axis", attr("xyz", numbers(sub->axis)));
      // A URDF joint's coordinate is the output's motion: with a transmission (the output moves
      // q / ratio) the limits are the output's, and the ratio itself goes to a <transmission>.
      JointAxis limits = sub->limits ? *sub->limits : JointAxis{};
      if (joint && sub == firstSub_ && !std::isfinite(limits.effort)) {
        const auto actuated = actuatorEfforts_.find(joint->name);
        if (actuated != actuatorEfforts_.end()) limits.effort = actuated->second;
      }
      const double ratio = joint && sub == firstSub_ ? joint->transmissionRatio : 1.0;
      if (ratio != 1.0 && ratio != 0.0) {
        const double lower = limits.lower / ratio;
        const double upper = limits.upper / ratio;
        limits.lower = std::min(lower, upper);
        limits.upper = std::max(lower, upper);
        limits.velocity /= std::abs(ratio);
        limits.effort *= std::abs(ratio);
      }
      const JointAxis* a = sub->limits ? &limits : nullptr;
      if (type == "revolute" || type == "prismatic") {
        const double lower = a && boundsMotion(a->lower) ? a->lower : -kUnlimited;
        const double upper = a && boundsMotion(a->upper) ? a->upper : kUnlimited;
        const double effort = a && std::isfinite(a->effort) ? a->effort : kUnlimited;
        const double velocity = a && std::isfinite(a->velocity) ? a->velocity : kUnlimited;
        out_.empty("limit", attr("lower", number(lower)) + attr("upper", number(upper)) + attr("effort", number(effort)) +
                                attr("velocity", number(velocity)));
      } else if (type == "continuous" && a && (std::isfinite(a->effort) || std::isfinite(a->velocity))) {
        out_.empty("limit", attr("effort", number(std::isfinite(a->effort) ? a->effort : kUnlimited)) +
                                attr("velocity", number(std::isfinite(a->velocity) ? a->velocity : kUnlimited)));
      }
      if (a && (a->damping != 0 || a->friction != 0)) {
        out_.empty("dynamics", attr("damping", number(a->damping)) + attr("friction", number(a->friction)));
      }
    }
    if (joint && joint->mimic && sub == firstSub_) {
      out_.empty("mimic", attr("joint", urdfName(scopedName(graph_.scopeOf(currentJoint_), joint->mimic->joint))) +
                              attr("multiplier", number(joint->mimic->multiplier)) +
                              attr("offset", number(joint->mimic->offset)));
    }
    if (joint && sub == firstSub_) writeKept(keptInJoint_, joint->name);
    out_.close("joint");
    if (joint && sub && sub == firstSub_ && joint->transmissionRatio != 1.0 && joint->transmissionRatio != 0.0) {
      // ROS's SimpleTransmission: actuator = joint * mechanicalReduction.
      out_.open("transmission", attr("name", name + "__transmission"));
      out_.leaf("type", "transmission_interface/SimpleTransmission");
      out_.open("joint", attr("name", name));
      out_.leaf("hardwareInterface", "hardware_interface/PositionJointInterface");
      out_.close("joint");
      out_.open("actuator", attr("name", name + "__actuator"));
      out_.leaf("mechanicalReduction", number(joint->transmissionRatio));
      out_.close("actuator");
      out_.close("transmission");
    }
  }

  /// The URDF joints that move the child as `joint` does (URDF axes are in the joint frame): the
  /// joint itself when URDF has its type, else its single-axis chain through massless links.
  std::vector<SubJoint> subJoints(const Joint& joint, std::size_t jointIndex, const std::string& scopedName) {
    const SingleAxisChain chain = detail::singleAxisChainOf(graph_, jointIndex, joint);
    auto sub = [&](const SingleAxisMotion& motion) {
      SubJoint s;
      s.axis = motion.direction;
      s.limits = motion.axis >= 0 ? &joint.axes[static_cast<std::size_t>(motion.axis)] : nullptr;
      const bool limited = s.limits && boundsMotion(s.limits->lower) && boundsMotion(s.limits->upper);
      s.type = !motion.rotation ? "prismatic" : joint.type != JointType::Continuous && limited ? "revolute" : "continuous";
      return s;
    };
    switch (joint.type) {
      case JointType::Fixed: return {{"fixed", Vector3::UnitX(), nullptr}};
      case JointType::Free: return {{"floating", Vector3::UnitX(), nullptr}};
      case JointType::Planar: {
        // URDF's planar joint moves in the plane normal to its axis.
        SubJoint s = sub(chain.motions.back());
        s.type = "planar";
        return {s};
      }
      default: break;
    }
    if (chain.motions.size() > 1 || !chain.exact) {
      const bool translations =
          std::none_of(chain.motions.begin(), chain.motions.end(), [](const SingleAxisMotion& m) { return m.rotation; });
      const std::string count = std::to_string(chain.motions.size());
      const std::string how =
          chain.motions.size() == 1 ? "a revolute joint (the coupling is not kept)"
          : !chain.exact ? count + " continuous joints about the joint frame's x, y and z axes in a chain of massless links"
                         : count + (translations ? " prismatic" : " revolute") + " joints in a chain of massless links";
      diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                           "URDF has no " + std::string(jointTypeName(joint.type)) + " joint; joint '" + scopedName +
                               "' is written as " + how,
                           joint.where, scopedName);
    }
    std::vector<SubJoint> subs;
    for (const SingleAxisMotion& motion : chain.motions) subs.push_back(sub(motion));
    return subs;
  }

  void writeTreeJoint(const TreeJoint& tree) {
    auto found = index_.joints.find(tree.frame);
    const std::optional<std::size_t> jointIndex = tree.frame;
    if (found == index_.joints.end()) {
      diagnostics_.error(ErrorCode::KINEMATICS_INVALID, "joint '" + tree.name + "' is not in the document",
                         SourceLocation{loaded_.document.sourceFile, 0, 0});
      return;
    }
    const Joint& joint = *found->second;
    currentJoint_ = tree.frame;
    const std::string name = urdfName(tree.name);
    const std::string parent = tree.parentLink.empty() ? "world" : urdfName(tree.parentLink);
    const Pose X_PJ = poseIn(tree.parentLinkFrame, *jointIndex);
    const Pose X_JC = detail::relativePose(graph_, *jointIndex, tree.childLinkFrame);
    const std::vector<SubJoint> subs = subJoints(joint, *jointIndex, tree.name);
    firstSub_ = &subs.front();
    // The last moving joint ends at the child link, or at a massless link standing for the joint
    // frame when the child link frame is elsewhere.
    const bool jointFrameLink = !isIdentity(X_JC);
    const std::string end = jointFrameLink ? name + "__joint_frame" : urdfName(tree.childLink);
    std::string from = parent;
    for (std::size_t i = 0; i < subs.size(); ++i) {
      const bool last = i + 1 == subs.size();
      const std::string to = last ? end : name + "__link" + std::to_string(i + 1);
      if (!last || jointFrameLink) {
        addLinkName(to, joint.where);
        out_.empty("link", attr("name", to));
      }
      writeJointElement(i == 0 ? name : name + "__axis" + std::to_string(i + 1), subs[i].type, from, to,
                        i == 0 ? X_PJ : Pose::Identity(), &subs[i], &joint);
      from = to;
    }
    if (jointFrameLink) {
      writeJointElement(name + "__child", "fixed", end, urdfName(tree.childLink), X_JC, nullptr, nullptr);
    }
    firstSub_ = nullptr;
  }

  void writeExplicitFrame(std::size_t index) {
    const FrameInfo& frame = graph_.frames()[index];
    const std::string name = urdfName(frame.name);
    addLinkName(name, frame.where);
    out_.empty("link", attr("name", name));
    const std::string parent = frame.attachedLink.empty() ? "world" : urdfName(frame.attachedLink);
    writeJointElement(name + "__frame_joint", "fixed", parent, name, poseIn(frame.attachedLinkFrame, index), nullptr,
                      nullptr);
  }

  // An MJCF source's actuator force limits, by joint (MjcfKept.hpp).
  const std::map<std::string, double> actuatorEfforts_ =
      loaded_.document.model ? detail::mjcfActuatorEffortLimits(*loaded_.document.model) : std::map<std::string, double>{};
  bool needWorld_ = false;
  const TreeJoint* unwrittenBase_ = nullptr;  // chooseFloatingBase
  int unwrittenWorld_ = -1;                    // the link standing for the world it hangs from, if not written
  std::map<std::string, std::vector<const KeptElement*>> keptInLink_, keptInJoint_;
  std::map<std::string, std::vector<const KeptElement*>> keptInVisual_;  // by "<link>\n<visual>": textures
  std::set<std::string> linkNames_;
  std::set<std::string> jointNames_;
  const SubJoint* firstSub_ = nullptr;
  std::size_t currentJoint_ = 0;  // frame of the joint being written
};

}  // namespace

std::string urdfName(const std::string& scopedName) { return names::replaceDelimiters(scopedName, "__"); }

std::optional<std::string> writeUrdf(const LoadResult& loaded, Diagnostics& diagnostics) {
  return writeUrdf(loaded, WriteOptions{}, diagnostics);
}

std::optional<std::string> writeUrdf(const LoadResult& loaded, const WriteOptions& options, Diagnostics& diagnostics) {
  return detail::writeWith<UrdfWriter>(loaded, options, diagnostics);
}

}  // namespace interlink::convert
