// Core model → SDFormat 1.9. Poses come from the resolved frame graph, so a model read from any
// format (with its own pose conventions) re-resolves to the same frames in libsdformat.
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include <Eigen/Eigenvalues>

#include "GazeboExtensions.hpp"
#include "MjcfKept.hpp"
#include "WriterSupport.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/UniqueNames.hpp"
#include "interlink/convert/Writers.hpp"
#include "interlink/model/Names.hpp"

namespace interlink::convert {
namespace {

/// "x y z qx qy qz qw" for rotation_format="quat_xyzw": no precision lost to Euler angles.
std::string quaternionPoseText(const Pose& pose) {
  const Eigen::Vector4d wxyz = quaternionWxyz(pose);
  return numbers(pose.translation()) + " " + number(wxyz[1]) + " " + number(wxyz[2]) + " " + number(wxyz[3]) + " " +
         number(wxyz[0]);
}

class SdformatWriter : XmlWriterBase {
 public:
  using XmlWriterBase::XmlWriterBase;

  std::string write() {
    const Document& document = loaded_.document;
    out_.open("sdf", attr("version", "1.9") + attr("xmlns:interlink", "https://interlink.invalid/sdformat") +
                         keptNamespaces(document));
    if (!document.sourceFile.empty()) {
      out_.comment("converted by interlink from " + detail::fileNameOf(document.sourceFile) + " (" + document.format + ")");
    }
    detail::TargetHolds holds{"SDFormat 1.9"};
    holds.keptTrees = holds.worldLights = holds.worldGravity = holds.worldPhysics = holds.nestedModelFrames = true;
    holds.linkFlags = holds.jointSprings = true;
    holds.gazeboBlocks = true;  // placed as libsdformat places them (GazeboExtensions.hpp)
    detail::warnWhatTargetCannotHold(document, holds, diagnostics_);
    if (document.isWorld()) {
      if (document.worlds.size() > 1) {
        diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                             "SDFormat allows one world per file; only the first world ('" + document.worlds[0].name +
                                 "') is written",
                             document.worlds[1].where);
      }
      writeWorld(document.worlds.front());
    } else if (document.model) {
      writeModelElement(*document.model, "", 0, document.model->pose.pose);
    }
    if (document.isWorld() || document.model) {
      for (const Light& light : document.lights) {
        diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                             "SDFormat allows a root-level light only in a file without a model or world; light '" +
                                 light.name + "' is not written",
                             light.where);
      }
    } else if (!document.lights.empty()) {
      for (std::size_t i = 1; i < document.lights.size(); ++i) {
        diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                             "SDFormat allows one root-level light; light '" + document.lights[i].name + "' is not written",
                             document.lights[i].where);
      }
      writeLights({document.lights.front()}, "");
    }
    out_.close("sdf");
    return "<?xml version=\"1.0\"?>\n" + out_.str();
  }

 private:
  // --- kept elements: what the reader kept as data goes back where it was read ---------------

  static void collectPrefixes(const KeptNode& node, std::set<std::string>& prefixes) {
    const std::size_t colon = node.name.find(':');
    if (colon != std::string::npos) prefixes.insert(node.name.substr(0, colon));
    for (const KeptNode& child : node.children) collectPrefixes(child, prefixes);
  }
  static void collectPrefixes(const Model& model, std::set<std::string>& prefixes) {
    for (const KeptElement& kept : model.kept) collectPrefixes(kept.element, prefixes);
    for (const Model& nested : model.models) collectPrefixes(nested, prefixes);
  }

  /// Kept custom elements keep their prefixes; the source's namespace URIs are not part of the
  /// model, so each prefix is declared with a placeholder (libsdformat ignores namespaces).
  static std::string keptNamespaces(const Document& document) {
    std::set<std::string> prefixes;
    if (document.model) collectPrefixes(*document.model, prefixes);
    for (const World& world : document.worlds) {
      for (const KeptElement& kept : world.kept) collectPrefixes(kept.element, prefixes);
      for (const Model& model : world.models) collectPrefixes(model, prefixes);
    }
    std::string attributes;
    for (const std::string& prefix : prefixes) {
      if (prefix != "interlink" && prefix != "xmlns") {
        attributes += attr("xmlns:" + prefix, "https://interlink.invalid/kept/" + prefix);
      }
    }
    return attributes;
  }

  bool keptHere(const KeptElement& kept, std::string_view within, const std::vector<std::string>& owners) const {
    return !kept.element.name.empty() && kept.within == within && kept.owners == owners;
  }

  bool hasKept(std::string_view within, const std::vector<std::string>& owners, std::string_view name) const {
    if (!kept_) return false;
    for (const KeptElement& kept : *kept_) {
      if (keptHere(kept, within, owners) && kept.element.name == name) return true;
    }
    return false;
  }

  void writeKept(std::string_view within, const std::vector<std::string>& owners) {
    if (!kept_) return;
    for (const KeptElement& kept : *kept_) {
      if (keptHere(kept, within, owners)) writeNode(kept.element);
    }
  }


  void writeNode(const KeptNode& node) {
    std::string attributes;
    for (const auto& [name, value] : node.attributes) attributes += attr(name, value);
    if (node.children.empty()) {
      if (node.text.empty()) {
        out_.empty(node.name, attributes);
      } else {
        out_.leaf(node.name, node.text, attributes);
      }
      return;
    }
    out_.open(node.name, attributes);
    for (const KeptNode& child : node.children) writeNode(child);
    out_.close(node.name);
  }

  /// The engine parameters the reader kept by path (numbers in Physics::values, names such as
  /// solver types as kept elements under "physics/..."), as the nested elements they were.
  void writePhysicsParameters(const Physics& physics) {
    KeptNode root;
    const auto at = [&root](std::string_view path) -> KeptNode& {
      KeptNode* node = &root;
      while (!path.empty()) {
        const std::size_t slash = path.find('/');
        const std::string_view name = path.substr(0, slash);
        path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
        auto child = std::find_if(node->children.begin(), node->children.end(),
                                  [&](const KeptNode& c) { return c.name == name; });
        if (child == node->children.end()) {
          node->children.push_back(KeptNode{std::string(name), {}, {}, {}});
          node = &node->children.back();
        } else {
          node = &*child;
        }
      }
      return *node;
    };
    for (const auto& [key, value] : physics.values) at(key).text = number(value);
    if (kept_) {
      for (const KeptElement& kept : *kept_) {
        if (kept.element.name.empty() || !kept.owners.empty()) continue;
        if (kept.within == "physics") {
          root.children.push_back(kept.element);
        } else if (kept.within.rfind("physics/", 0) == 0) {
          at(std::string_view(kept.within).substr(8)).children.push_back(kept.element);
        }
      }
    }
    for (const KeptNode& child : root.children) writeNode(child);
  }

  /// Sets the kept list of the model or world being written, restoring the enclosing one.
  struct KeptScope {
    const std::vector<KeptElement>*& current;
    const std::vector<KeptElement>* saved;
    KeptScope(const std::vector<KeptElement>*& c, const std::vector<KeptElement>& kept) : current(c), saved(c) {
      current = &kept;
    }
    ~KeptScope() { current = saved; }
  };

  std::string poseAttributes(const std::string& relativeTo) {
    return (relativeTo.empty() ? std::string() : attr("relative_to", relativeTo)) + attr("rotation_format", "quat_xyzw");
  }

  void writePose(const Pose& pose, const std::string& relativeTo = {}) {
    out_.leaf("pose", quaternionPoseText(pose), poseAttributes(relativeTo));
  }

  /// The pose of frame `scopedName` relative to the scope frame `scopeIndex`, or the pose as
  /// written (with a warning) when the graph did not resolve it.
  void writeResolvedPose(std::optional<std::size_t> index, std::size_t scopeIndex, const SemanticPose& written,
                         const std::string& relativeTo, const std::string& what) {
    if (index) {
      writePose(detail::relativePose(graph_, scopeIndex, *index), relativeTo);
    } else {
      diagnostics_.warning(ErrorCode::POSE_RELATIVE_TO_GRAPH_ERROR,
                           what + " has no resolved pose; its pose is written as read", written.where);
      writePose(written.pose, written.relativeTo);
    }
  }

  void writeWorld(const World& world) {
    KeptScope scope(kept_, world.kept);
    out_.open("world", attr("name", world.name));
    out_.leaf("gravity", numbers(world.gravity));
    out_.open("physics", attr("name", world.physics.name.empty() ? "default_physics" : world.physics.name) +
                             attr("type", world.physics.type.empty() ? "ode" : world.physics.type));
    out_.leaf("max_step_size", number(world.physics.maxStepSize));
    out_.leaf("real_time_factor", number(world.physics.realTimeFactor));
    writePhysicsParameters(world.physics);
    out_.close("physics");
    for (const Model& model : world.models) {
      auto index = graph_.frameOf(model);
      if (!index) {
        diagnostics_.warning(ErrorCode::POSE_RELATIVE_TO_GRAPH_ERROR,
                             "model '" + model.name + "' has no resolved frame; it is not written", model.where);
        continue;
      }
      writeModelElement(model, names::scopePrefix(model.name), *index, graph_.frames()[*index].pose);
    }
    for (const Frame& frame : world.frames) {
      // SDFormat 1.7 let a world frame share a model's name; the graph (like libsdformat) calls
      // it "<name>_frame", and so does the output.
      const std::optional<std::size_t> index = graph_.frameOf(frame);
      const std::string name = index ? graph_.frames()[*index].name : frame.name;
      out_.open("frame", attr("name", name) +
                             (frame.attachedTo.empty() ? std::string() : attr("attached_to", frame.attachedTo)));
      writeResolvedPose(index, 0, frame.pose, "world", "frame '" + name + "'");
      writeKept("frame", {frame.name});
      out_.close("frame");
    }
    writeLights(world.lights, "");
    for (const Joint& joint : world.joints) writeJoint(joint, "", 0, "world", false);
    writeKept("", {});
    out_.close("world");
  }

  /// `linkName`: the link the lights are written in ("" for a world or the document).
  void writeLights(const std::vector<Light>& lights, const std::string& linkName) {
    for (const Light& light : lights) {
      const char* type = light.type == LightType::Point ? "point" : light.type == LightType::Directional ? "directional" : "spot";
      out_.open("light", attr("name", light.name) + attr("type", type));
      writePose(light.pose.pose, light.pose.relativeTo);
      out_.leaf("cast_shadows", light.castShadows ? "true" : "false");
      const Eigen::Vector4d& d = light.diffuse;
      out_.leaf("diffuse", number(d[0]) + " " + number(d[1]) + " " + number(d[2]) + " " + number(d[3]));
      if (light.type != LightType::Point) out_.leaf("direction", numbers(light.direction));
      if (linkName.empty()) {
        writeKept("light", {light.name});
      } else {
        writeKept("link/light", {linkName, light.name});
      }
      out_.close("light");
    }
  }

  /// libsdformat 12.3 refuses an inertia whose principal moments break the triangle inequality
  /// (or are negative) with LINK_INERTIA_INVALID. Such a tensor is written with its moments
  /// moved to the nearest valid ones (a warning names the link) and kept as written in
  /// <interlink:inertia>.
  bool validInertia(const Matrix3& inertia, Matrix3& repaired) {
    Eigen::SelfAdjointEigenSolver<Matrix3> solver(inertia);
    Vector3 m = solver.eigenvalues();  // ascending
    // gz-math's test: moments non-negative and the triangle inequality, within 10 machine
    // epsilons of half the moments' sum.
    const double epsilon = 10 * std::numeric_limits<double>::epsilon() * 0.5 * std::abs(m.sum());
    if (m[0] + epsilon >= 0 && m[0] + m[1] + epsilon >= m[2]) return true;
    // Mix with the isotropic tensor of the same trace just enough to be inside by a margin;
    // this keeps the principal axes and the trace.
    m = m.cwiseMax(0.0);
    const double mean = m.sum() / 3;
    const double violation = m[2] - m[0] - m[1];
    const double t = violation > 0 ? std::min(1.0, (violation + 1e-9 * mean) / (violation + mean)) : 0.0;
    m = (1 - t) * m + Vector3::Constant(t * mean);
    repaired = solver.eigenvectors() * m.asDiagonal() * solver.eigenvectors().transpose();
    return false;
  }

  /// `prefix` scopes the model's contents ("arm::" or "" for the top model of a model file);
  /// `modelIndex` is the model frame in the graph; `pose` the model's pose in its parent scope.
  void writeModelElement(const Model& model, const std::string& prefix, std::size_t modelIndex, const Pose& pose) {
    std::string attributes = attr("name", model.name);
    if (!model.canonicalLink.empty()) attributes += attr("canonical_link", model.canonicalLink);
    KeptScope scope(kept_, model.kept);
    const detail::GazeboExtensions outer = std::move(gazebo_);
    gazebo_ = detail::gazeboExtensions(model, diagnostics_);
    out_.open("model", attributes);
    if (model.isStatic || gazebo_.isStatic.value_or(false)) out_.leaf("static", "true");
    writePose(pose);
    writeModelContents(model, prefix, modelIndex);
    for (const KeptNode& element : gazebo_.model) writeNode(element);
    out_.close("model");
    gazebo_ = outer;
  }

  void writeModelContents(const Model& model, const std::string& prefix, std::size_t modelIndex) {
    for (const Link& link : model.links) {
      out_.open("link", attr("name", link.name));
      // A link's pose defaults to the model frame.
      writeResolvedPose(graph_.frameOf(link), modelIndex, link.pose, {}, "link '" + prefix + link.name + "'");
      writeLinkBody(link, prefix);
      std::vector<Light> lights;
      for (const Light& light : model.lights) {
        if (light.attachedTo == link.name) lights.push_back(light);
      }
      writeLights(lights, link.name);
      writeKept("link", {link.name});
      out_.close("link");
    }
    for (const Joint& joint : model.joints) writeJoint(joint, prefix, modelIndex, "__model__", model.source.fromInterfaceModel);
    for (const Frame& frame : model.frames) {
      out_.open("frame", attr("name", frame.name) +
                             (frame.attachedTo.empty() ? std::string() : attr("attached_to", frame.attachedTo)));
      writeResolvedPose(graph_.frameOf(frame), modelIndex, frame.pose, "__model__",
                        "frame '" + prefix + frame.name + "'");
      writeKept("frame", {frame.name});
      out_.close("frame");
    }
    for (const Model& nested : model.models) {
      auto index = graph_.frameOf(nested);
      const Pose pose = index ? detail::relativePose(graph_, modelIndex, *index) : nested.pose.pose;
      writeModelElement(nested, prefix + names::scopePrefix(nested.name), index.value_or(modelIndex), pose);
    }
    writeKept("", {});
  }

  void writeLinkBody(const Link& link, const std::string& prefix) {
    const auto gazebo = gazebo_.links.find(link.name);
    const detail::GazeboLink* extension = gazebo == gazebo_.links.end() ? nullptr : &gazebo->second;
    const bool gravity = extension && extension->gravity ? *extension->gravity : link.gravity;
    const bool selfCollide = extension && extension->selfCollide ? *extension->selfCollide : link.selfCollide;
    if (!gravity) out_.leaf("gravity", "false");
    if (selfCollide) out_.leaf("self_collide", "true");
    if (extension) {
      for (const KeptNode& element : extension->elements) writeNode(element);
    }
    if (link.hasInertial) {
      const Inertial& inertial = link.inertial;
      out_.open("inertial");
      writePose(inertial.centerOfMass);
      out_.leaf("mass", number(inertial.mass));
      out_.open("inertia");
      Matrix3 I = inertial.inertia;
      if (!validInertia(inertial.inertia, I)) {
        diagnostics_.warning(ErrorCode::LINK_INERTIA_INVALID,
                             "the inertia of link '" + prefix + link.name +
                                 "' is not physically valid (principal moments break the triangle inequality); it is "
                                 "written with the nearest valid moments, and as read in <interlink:inertia>",
                             inertial.where);
      }
      out_.leaf("ixx", number(I(0, 0)));
      out_.leaf("ixy", number(I(0, 1)));
      out_.leaf("ixz", number(I(0, 2)));
      out_.leaf("iyy", number(I(1, 1)));
      out_.leaf("iyz", number(I(1, 2)));
      out_.leaf("izz", number(I(2, 2)));
      out_.close("inertia");
      writeKept("link/inertial", {link.name});
      if (!I.isApprox(inertial.inertia)) {
        const Matrix3& A = inertial.inertia;
        out_.empty("interlink:inertia", attr("ixx", number(A(0, 0))) + attr("ixy", number(A(0, 1))) +
                                            attr("ixz", number(A(0, 2))) + attr("iyy", number(A(1, 1))) +
                                            attr("iyz", number(A(1, 2))) + attr("izz", number(A(2, 2))));
      }
      out_.close("inertial");
    }
    // SDFormat wants a link's visuals and collisions named apart (MJCF names a geom once for both).
    UniqueNames shapeNames("_", "", 1);
    writeShapes(link.visuals, "visual", prefix, link.name, shapeNames);
    writeShapes(link.collisions, "collision", prefix, link.name, shapeNames);
  }

  void writeShapes(const std::vector<Shape>& shapes, const char* kind, const std::string& prefix,
                   const std::string& linkName, UniqueNames& shapeNames) {
    const std::string within = std::string("link/") + kind;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const Shape& shape = shapes[i];
      std::string name = shape.name.empty() ? std::string(kind) + "_" + std::to_string(i) : shape.name;
      if (shapeNames.taken(name)) name += std::string("_") + kind;
      name = shapeNames.unique(name);
      out_.open(kind, attr("name", name));
      writePose(shape.pose.pose, shape.pose.relativeTo);
      writeGeometry(shape.geometry, std::string(kind) + " '" + name + "' of link '" + prefix + linkName + "'",
                    shape.where);
      const std::vector<std::string> owners = {linkName, shape.name};
      const auto gazebo = gazebo_.links.find(linkName);
      const detail::GazeboLink* extension = gazebo == gazebo_.links.end() ? nullptr : &gazebo->second;
      const bool visual = std::string(kind) == "visual";
      const bool script = visual && extension && !extension->materialScript.empty();
      if ((shape.color || script) && visual && !hasKept(within, owners, "material")) {
        out_.open("material");
        if (script) {
          // libsdformat's URDF parser: a Gazebo material name is a script of gazebo.material.
          out_.open("script");
          out_.leaf("uri", "file://media/materials/scripts/gazebo.material");
          out_.leaf("name", extension->materialScript);
          out_.close("script");
        }
        if (shape.color) {
          const Eigen::Vector4d& c = *shape.color;
          const std::string rgba = number(c[0]) + " " + number(c[1]) + " " + number(c[2]) + " " + number(c[3]);
          out_.leaf("ambient", rgba);
          out_.leaf("diffuse", rgba);
        }
        out_.close("material");
      }
      if (!visual && extension) {
        for (const KeptNode& element : extension->collision) writeNode(element);
      }
      writeKept(within, owners);
      out_.close(kind);
    }
  }

  /// <name> holding one leaf element per (element, text) pair, in order.
  void writeLeaves(const char* name, std::initializer_list<std::pair<const char*, std::string>> leaves) {
    out_.open(name);
    for (const auto& [element, text] : leaves) out_.leaf(element, text);
    out_.close(name);
  }

  void writeGeometry(const Geometry& g, const std::string& what, const SourceLocation& where) {
    out_.open("geometry");
    switch (g.type) {
      case GeometryType::Box: writeLeaves("box", {{"size", numbers(g.size)}}); break;
      case GeometryType::Sphere: writeLeaves("sphere", {{"radius", number(g.radius)}}); break;
      case GeometryType::Cylinder:
      case GeometryType::Capsule:
        writeLeaves(g.type == GeometryType::Cylinder ? "cylinder" : "capsule",
                    {{"radius", number(g.radius)}, {"length", number(g.length)}});
        break;
      case GeometryType::Ellipsoid: writeLeaves("ellipsoid", {{"radii", numbers(g.radii)}}); break;
      case GeometryType::Plane:
        writeLeaves("plane", {{"normal", numbers(g.normal)},
                              {"size", number(g.planeSize.x()) + " " + number(g.planeSize.y())}});
        break;
      case GeometryType::Mesh:
        if (g.meshUri.empty() && g.meshResolvedPath.empty()) {
          // MJCF's <mesh vertex face>: the vertices are in the model file, not in a mesh file.
          diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                               "SDFormat 1.9 has no place for a mesh given inline in its source (no mesh file to name); " +
                                   what + " is written with <empty/>",
                               where, what);
          out_.empty("empty");
          break;
        }
        writeLeaves("mesh", {{"uri", detail::meshUriFor(g.meshUri, g.meshResolvedPath, {true, true}, options_)},
                             {"scale", numbers(g.scale)}});
        break;
      case GeometryType::Empty: out_.empty("empty"); break;
      default:
        diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                             std::string("SDFormat 1.9 has no ") + geometryTypeName(g.type) + " geometry; " + what +
                                 " is written with <empty/>",
                             where, what);
        out_.empty("empty");
    }
    out_.close("geometry");
  }

  void writeAxis(const char* element, const JointAxis& axisAsRead, const std::string& jointName) {
    JointAxis axis = axisAsRead;
    const auto gazebo = gazebo_.joints.find(jointName);
    if (gazebo != gazebo_.joints.end() && std::string_view(element) == "axis") {
      axis.springReference = gazebo->second.springReference.value_or(axis.springReference);
      axis.springStiffness = gazebo->second.springStiffness.value_or(axis.springStiffness);
    }
    if (!std::isfinite(axis.effort) && std::string_view(element) == "axis") {
      const auto actuated = actuatorEfforts_.find(jointName);
      if (actuated != actuatorEfforts_.end()) axis.effort = actuated->second;
    }
    out_.open(element);
    out_.leaf("xyz", numbers(axis.xyz), axis.expressedIn.empty() ? std::string() : attr("expressed_in", axis.expressedIn));
    const bool limited = boundsMotion(axis.lower) || boundsMotion(axis.upper) || std::isfinite(axis.effort) ||
                         std::isfinite(axis.velocity);
    if (limited) {
      out_.open("limit");
      // SDFormat's "unlimited": +-1e16 for positions, -1 for effort and velocity.
      out_.leaf("lower", number(boundsMotion(axis.lower) ? axis.lower : -1e16));
      out_.leaf("upper", number(boundsMotion(axis.upper) ? axis.upper : 1e16));
      out_.leaf("effort", number(std::isfinite(axis.effort) ? axis.effort : -1));
      out_.leaf("velocity", number(std::isfinite(axis.velocity) ? axis.velocity : -1));
      out_.close("limit");
    }
    if (axis.damping != 0 || axis.friction != 0 || axis.springReference != 0 || axis.springStiffness != 0) {
      out_.open("dynamics");
      out_.leaf("damping", number(axis.damping));
      out_.leaf("friction", number(axis.friction));
      out_.leaf("spring_reference", number(axis.springReference));
      out_.leaf("spring_stiffness", number(axis.springStiffness));
      out_.close("dynamics");
    }
    writeKept("joint/" + std::string(element), {jointName});
    out_.close(element);
  }

  bool isFloatingBase(std::optional<std::size_t> jointFrame) const {
    if (!jointFrame) return false;  // linear in the joints; called for the few non-SDFormat joints
    for (const TreeJoint& tree : loaded_.kinematics.joints()) {
      if (tree.frame == *jointFrame) return detail::isFloatingBase(graph_, index_, tree);
    }
    return false;
  }

  void writeJoint(const Joint& joint, const std::string& prefix, std::size_t scopeIndex, const std::string& scopeFrame,
                  bool childOnly) {
    const auto index = graph_.frameOf(joint);
    // The graph's name: "<name>_joint" when an SDFormat < 1.7 joint shared a link's name.
    const std::string name = index ? graph_.frames()[*index].name.substr(prefix.size()) : joint.name;
    const std::string what = "joint '" + prefix + name + "'";
    if (index && !graph_.frames()[*index].ownName.empty()) {
      // SDFormat >= 1.7 has one namespace; libsdformat 12 keeps a URDF joint's name and refuses the
      // model (a joint and a link of the same name), so the written joint takes its frame's name.
      diagnostics_.warning(ErrorCode::DUPLICATE_NAME,
                           "joint '" + prefix + joint.name + "' is named like a link; SDFormat 1.9 gives links and joints one "
                           "namespace, so it is written as '" + name + "' (positions by name follow the new name)",
                           joint.where);
    }
    if (childOnly || !isSdformatJointType(joint.type)) {
      // Kept as a frame on its child so that its name and pose survive. A floating base loses
      // nothing: the model, with no joint to the world, is free in a simulator.
      if (!childOnly && !isFloatingBase(index)) {
        diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                             "SDFormat 1.9 has no " + std::string(jointTypeName(joint.type)) + " joint; " + what +
                                 " is written as a frame attached to its child '" + joint.child + "' (its " +
                                 std::to_string(dofCount(joint.type)) + " DOFs are not kept)",
                             joint.where, what);
      }
      out_.open("frame", attr("name", name) + attr("attached_to", joint.child));
      writeResolvedPose(index, scopeIndex, joint.pose, scopeFrame, what);
      out_.close("frame");
      return;
    }
    out_.open("joint", attr("name", name) + attr("type", std::string(jointTypeName(joint.type))));
    out_.leaf("parent", joint.parent);
    out_.leaf("child", joint.child);
    writeResolvedPose(index, scopeIndex, joint.pose, scopeFrame, what);
    if (joint.type == JointType::Screw) out_.leaf("thread_pitch", number(joint.screwThreadPitch));
    if (joint.type == JointType::Gearbox) out_.leaf("gearbox_ratio", number(joint.gearboxRatio));
    // SDFormat has no transmission between a joint's coordinate and its motion (HRDF gear ratios);
    // a namespaced element keeps it, libsdformat copies it through and Interlink reads it back.
    if (joint.transmissionRatio != 1.0) out_.leaf("interlink:transmission_ratio", number(joint.transmissionRatio));
    const auto axisCount = static_cast<std::size_t>(sdformatAxisCount(joint.type));
    for (std::size_t i = 0; i < axisCount; ++i) {
      writeAxis(i == 0 ? "axis" : "axis2", i < joint.axes.size() ? joint.axes[i] : JointAxis{}, joint.name);
    }
    if (joint.mimic) {
      // SDFormat 1.9 has no mimic; a namespaced element keeps it (libsdformat copies it through).
      out_.empty("interlink:mimic", attr("joint", joint.mimic->joint) + attr("multiplier", number(joint.mimic->multiplier)) +
                                        attr("offset", number(joint.mimic->offset)));
    }
    writeKept("joint", {joint.name});
    if (const auto gazebo = gazebo_.joints.find(joint.name); gazebo != gazebo_.joints.end()) {
      for (const KeptNode& element : gazebo->second.elements) writeNode(element);
    }
    out_.close("joint");
  }

  // An MJCF source's actuator force limits, by joint (MjcfKept.hpp).
  const std::map<std::string, double> actuatorEfforts_ =
      loaded_.document.model ? detail::mjcfActuatorEffortLimits(*loaded_.document.model) : std::map<std::string, double>{};
  const std::vector<KeptElement>* kept_ = nullptr;  // of the model or world being written
  detail::GazeboExtensions gazebo_;  // the <gazebo> blocks of the model being written (URDF)
};

}  // namespace

std::optional<std::string> writeSdformat(const LoadResult& loaded, Diagnostics& diagnostics) {
  return writeSdformat(loaded, WriteOptions{}, diagnostics);
}

std::optional<std::string> writeSdformat(const LoadResult& loaded, const WriteOptions& options, Diagnostics& diagnostics) {
  if (!loaded.ok()) {
    diagnostics.error(ErrorCode::ELEMENT_ERROR, "the input has errors; nothing is written",
                      SourceLocation{loaded.document.sourceFile, 0, 0});
    return std::nullopt;
  }
  return SdformatWriter(loaded, options, diagnostics).write();
}

}  // namespace interlink::convert
