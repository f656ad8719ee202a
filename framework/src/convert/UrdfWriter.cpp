// Core model → URDF. URDF is one flat tree of links in which a joint's child link frame is the
// joint frame; everything else (nested models, explicit frames, joint frames apart from their
// child, multi-axis joints) is expressed with massless links and fixed joints named by the rules
// in docs/convert.md.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "WriterSupport.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink::convert {
namespace {

using detail::attr;
using detail::number;
using detail::numbers;
using detail::XmlOut;

constexpr double kIdentityTolerance = 1e-12;
constexpr double kUnlimited = 1e16;  // URDF has no "unlimited"; SDFormat's magnitude stands in

bool isIdentity(const Pose& pose) { return pose.isApprox(Pose::Identity(), kIdentityTolerance); }

std::string originAttributes(const Pose& pose) {
  const Vector3 rpy = rpyFromRotation(pose.linear());
  return attr("xyz", numbers(pose.translation())) + attr("rpy", numbers(rpy));
}

/// What the writer knows of each element of the document by scoped name.
struct Index {
  std::map<std::string, const Link*> links;
  std::map<std::string, const Joint*> joints;
  std::map<std::string, std::string> jointScope;  // scoped joint name -> prefix of its scope
  std::set<std::string> staticLinks;              // links inside a static model

  void addModel(const Model& model, const std::string& prefix, bool isStatic) {
    const bool staticHere = isStatic || model.isStatic;
    for (const Link& link : model.links) {
      links[prefix + link.name] = &link;
      if (staticHere) staticLinks.insert(prefix + link.name);
    }
    for (const Joint& joint : model.joints) {
      joints[prefix + joint.name] = &joint;
      jointScope[prefix + joint.name] = prefix;
    }
    for (const Model& nested : model.models) addModel(nested, prefix + nested.name + "::", staticHere);
  }
};

struct SubJoint {
  std::string type;  // URDF type
  Vector3 axis = Vector3::UnitX();
  const JointAxis* limits = nullptr;
};

class UrdfWriter {
 public:
  UrdfWriter(const LoadResult& loaded, Diagnostics& diagnostics)
      : loaded_(loaded), graph_(loaded.graph), diagnostics_(diagnostics) {}

  std::optional<std::string> write() {
    const Document& document = loaded_.document;
    std::string robotName;
    if (document.isWorld()) {
      const World& world = document.worlds.front();
      robotName = world.name;
      for (const Model& model : world.models) index_.addModel(model, model.name + "::", false);
      for (const Joint& joint : world.joints) {
        index_.joints[joint.name] = &joint;
        index_.jointScope[joint.name] = "";
      }
    } else {
      robotName = document.model->name;
      index_.addModel(*document.model, "", false);
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
    std::set<std::string> childLinks;
    for (const TreeJoint& joint : loaded_.kinematics.joints()) {
      childLinks.insert(joint.childLink);
      if (joint.parentLink.empty()) needWorld_ = true;
    }
    std::vector<std::size_t> roots;
    for (std::size_t i = 0; i < frames.size(); ++i) {
      if (frames[i].kind == FrameKind::Link && !childLinks.count(frames[i].name)) roots.push_back(i);
      if (frames[i].kind == FrameKind::Frame && frames[i].attachedLink.empty()) needWorld_ = true;
    }
    if (roots.size() != 1) needWorld_ = true;

    out_.open("robot", attr("name", robotName));
    out_.comment("converted by interlink from " + document.sourceFile + " (" + document.format +
                 "); scoped names use \"__\" for \"::\"");
    if (needWorld_) {
      addLinkName("world", SourceLocation{});
      out_.empty("link", attr("name", "world"));
    }
    for (const FrameInfo& frame : frames) {
      if (frame.kind != FrameKind::Link) continue;
      writeLink(frame);
    }
    if (needWorld_) {
      for (std::size_t root : roots) {
        const std::string& name = frames[root].name;
        const bool fixed = index_.staticLinks.count(name) > 0;
        writeJointElement(urdfName(name) + "__world_joint", fixed ? "fixed" : "floating", "world", urdfName(name),
                          frames[root].pose, nullptr, nullptr);
      }
    }
    for (const TreeJoint& joint : loaded_.kinematics.joints()) writeTreeJoint(joint);
    for (std::size_t i = 0; i < frames.size(); ++i) {
      if (frames[i].kind == FrameKind::Frame) writeExplicitFrame(i);
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

  std::size_t frameIndex(const std::string& scopedName) const { return graph_.find(scopedName).value_or(0); }

  /// Pose of frame `frame` in the URDF frame of the parent: a link, or "world" (the root frame).
  Pose poseIn(const std::string& parentLink, std::size_t frame) const {
    if (parentLink.empty()) return graph_.frames()[frame].pose;
    return detail::relativePose(graph_, frameIndex(parentLink), frame);
  }

  void writeLink(const FrameInfo& frame) {
    const std::string name = urdfName(frame.name);
    addLinkName(name, frame.where);
    auto found = index_.links.find(frame.name);
    const Link* link = found == index_.links.end() ? nullptr : found->second;
    if (!link || (!link->hasInertial && link->visuals.empty() && link->collisions.empty())) {
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
    writeShapes(frame, link->visuals, "visual");
    writeShapes(frame, link->collisions, "collision");
    out_.close("link");
  }

  void writeShapes(const FrameInfo& frame, const std::vector<Shape>& shapes, const char* kind) {
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const Shape& shape = shapes[i];
      const std::string name = shape.name.empty() ? std::string(kind) + "_" + std::to_string(i) : shape.name;
      const std::string what = std::string(kind) + " '" + name + "' of link '" + frame.name + "'";
      const Geometry& g = shape.geometry;
      std::string geometry;
      switch (g.type) {
        case GeometryType::Box: geometry = "<box" + attr("size", numbers(g.size)) + "/>"; break;
        case GeometryType::Sphere: geometry = "<sphere" + attr("radius", number(g.radius)) + "/>"; break;
        case GeometryType::Cylinder:
          geometry = "<cylinder" + attr("radius", number(g.radius)) + attr("length", number(g.length)) + "/>";
          break;
        case GeometryType::Mesh:
          geometry = "<mesh" + attr("filename", g.meshResolvedPath.empty() ? g.meshUri : g.meshResolvedPath) +
                     attr("scale", numbers(g.scale)) + "/>";
          break;
        default:
          diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                               std::string("URDF has no ") + geometryTypeName(g.type) + " geometry; " + what +
                                   " is not written",
                               shape.where);
          continue;
      }
      Pose pose = shape.pose.pose;
      if (!shape.pose.relativeTo.empty()) {
        // A shape pose relative to another frame of the scope: re-expressed in the link frame.
        const auto linkIndex = graph_.find(frame.name);
        const auto reference = linkIndex ? graph_.resolveReference(*linkIndex, shape.pose.relativeTo) : std::nullopt;
        if (linkIndex && reference) pose = detail::relativePose(graph_, *linkIndex, *reference) * pose;
      }
      out_.open(kind, attr("name", name));
      out_.empty("origin", originAttributes(pose));
      out_.open("geometry");
      out_.raw(geometry);
      out_.close("geometry");
      if (shape.color && std::string(kind) == "visual") {
        const Eigen::Vector4d& c = *shape.color;
        const std::string material =
            shape.material.empty() ? urdfName(frame.name) + "__" + name + "__material" : shape.material;
        out_.open("material", attr("name", material));
        out_.empty("color", attr("rgba", number(c[0]) + " " + number(c[1]) + " " + number(c[2]) + " " + number(c[3])));
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
      const JointAxis* a = sub->limits;
      if (type == "revolute" || type == "prismatic") {
        const double lower = a && std::isfinite(a->lower) ? a->lower : -kUnlimited;
        const double upper = a && std::isfinite(a->upper) ? a->upper : kUnlimited;
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
      const std::string& prefix = index_.jointScope[currentJoint_];
      out_.empty("mimic", attr("joint", urdfName(prefix + joint->mimic->joint)) +
                              attr("multiplier", number(joint->mimic->multiplier)) +
                              attr("offset", number(joint->mimic->offset)));
    }
    out_.close("joint");
  }

  /// The axis of `axis` in the joint frame (URDF axes are in the joint frame = child link frame).
  std::vector<SubJoint> subJoints(const Joint& joint, std::size_t jointIndex, const std::string& scopedName) {
    auto axis = [&](std::size_t i, const Vector3& fallback) {
      SubJoint s;
      s.axis = i < joint.axes.size() ? detail::axisInJointFrame(graph_, jointIndex, joint.axes[i]) : fallback;
      s.limits = i < joint.axes.size() ? &joint.axes[i] : nullptr;
      return s;
    };
    auto approximate = [&](const std::string& how) {
      diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                           "URDF has no " + std::string(jointTypeName(joint.type)) + " joint; joint '" + scopedName +
                               "' is written as " + how,
                           joint.where);
    };
    std::vector<SubJoint> subs;
    switch (joint.type) {
      case JointType::Fixed: subs.push_back({"fixed", Vector3::UnitX(), nullptr}); break;
      case JointType::Free: subs.push_back({"floating", Vector3::UnitX(), nullptr}); break;
      case JointType::Planar: {
        SubJoint s = axis(0, Vector3::UnitZ());
        s.type = "planar";
        subs.push_back(s);
        break;
      }
      case JointType::Prismatic: {
        SubJoint s = axis(0, Vector3::UnitZ());
        s.type = "prismatic";
        subs.push_back(s);
        break;
      }
      case JointType::Screw:
      case JointType::Gearbox:
        approximate("a revolute joint (the coupling is not kept)");
        [[fallthrough]];
      case JointType::Revolute:
      case JointType::Continuous: {
        SubJoint s = axis(0, Vector3::UnitZ());
        const bool limited = s.limits && std::isfinite(s.limits->lower) && std::isfinite(s.limits->upper);
        s.type = joint.type != JointType::Continuous && limited ? "revolute" : "continuous";
        subs.push_back(s);
        break;
      }
      case JointType::Universal:
      case JointType::Revolute2:
      case JointType::Euler:
      case JointType::Translational:
      case JointType::Translational2D: {
        const bool prismatic = joint.type == JointType::Translational || joint.type == JointType::Translational2D;
        const std::size_t count = static_cast<std::size_t>(dofCount(joint.type));
        approximate(std::to_string(count) + " " + (prismatic ? "prismatic" : "revolute") +
                    " joints in a chain of massless links");
        const Vector3 units[] = {Vector3::UnitX(), Vector3::UnitY(), Vector3::UnitZ()};
        for (std::size_t i = 0; i < count; ++i) {
          SubJoint s = axis(i, units[i]);
          const bool limited = s.limits && std::isfinite(s.limits->lower) && std::isfinite(s.limits->upper);
          s.type = prismatic ? "prismatic" : limited ? "revolute" : "continuous";
          subs.push_back(s);
        }
        break;
      }
      case JointType::Ball:
        approximate("3 continuous joints about the joint frame's x, y and z axes in a chain of massless links");
        for (int k = 0; k < 3; ++k) subs.push_back({"continuous", Vector3::Unit(k), nullptr});
        break;
    }
    return subs;
  }

  void writeTreeJoint(const TreeJoint& tree) {
    auto found = index_.joints.find(tree.name);
    auto jointIndex = graph_.find(tree.name);
    if (found == index_.joints.end() || !jointIndex) {
      diagnostics_.error(ErrorCode::KINEMATICS_INVALID, "joint '" + tree.name + "' is not in the document",
                         SourceLocation{loaded_.document.sourceFile, 0, 0});
      return;
    }
    const Joint& joint = *found->second;
    currentJoint_ = tree.name;
    const std::string name = urdfName(tree.name);
    const std::string parent = tree.parentLink.empty() ? "world" : urdfName(tree.parentLink);
    const Pose X_PJ = poseIn(tree.parentLink, *jointIndex);
    const Pose X_JC = detail::relativePose(graph_, *jointIndex, frameIndex(tree.childLink));
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
    writeJointElement(name + "__frame_joint", "fixed", parent, name, poseIn(frame.attachedLink, index), nullptr,
                      nullptr);
  }

  const LoadResult& loaded_;
  const FrameGraph& graph_;
  Diagnostics& diagnostics_;
  Index index_;
  XmlOut out_;
  bool needWorld_ = false;
  std::set<std::string> linkNames_;
  std::set<std::string> jointNames_;
  const SubJoint* firstSub_ = nullptr;
  std::string currentJoint_;
};

}  // namespace

std::string urdfName(const std::string& scopedName) {
  std::string out;
  out.reserve(scopedName.size());
  for (std::size_t i = 0; i < scopedName.size(); ++i) {
    if (scopedName.compare(i, 2, "::") == 0) {
      out += "__";
      ++i;
    } else {
      out += scopedName[i];
    }
  }
  return out;
}

std::optional<std::string> writeUrdf(const LoadResult& loaded, Diagnostics& diagnostics) {
  if (!detail::writable(loaded, diagnostics)) return std::nullopt;
  return UrdfWriter(loaded, diagnostics).write();
}

}  // namespace interlink::convert
