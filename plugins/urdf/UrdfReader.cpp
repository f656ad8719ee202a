// URDF → core model. URDF's frames: a joint's <origin> is the joint frame in the parent link
// frame, and the child link frame coincides with the joint frame. So a joint's pose is written
// relative to its parent link, and the child link's pose is the identity relative to the joint.
#include "UrdfReader.hpp"

#include "UrdfVocabulary.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "interlink/HugePages.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/xml/XmlParser.hpp"
#include "interlink/xml/XmlValues.hpp"

namespace interlink::urdf {
namespace {

using xml::XmlElement;

/// What a value is read for, in words ("joint 'elbow' limit lower"), kept as pieces and put
/// together only when a diagnostic needs them: building the words for every value read was about
/// 40% of the mapping of a URDF file without errors. The pieces must outlive the What (literals,
/// names held by the element or the model being built).
class What {
 public:
  What(std::string_view first) : pieces_{first}, count_(1) {}  // NOLINT: names convert
  What(const char* first) : What(std::string_view(first)) {}   // NOLINT: and literals
  What operator+(std::string_view piece) const {
    What longer = *this;
    if (longer.count_ < kMaxPieces) {
      longer.pieces_[longer.count_++] = piece;
    } else {
      longer.overflow_ = true;
    }
    return longer;
  }
  /// This, then every piece of `more`.
  What then(const What& more) const {
    What longer = *this;
    for (std::size_t i = 0; i < more.count_; ++i) longer = longer + more.pieces_[i];
    longer.overflow_ = longer.overflow_ || more.overflow_;
    return longer;
  }
  std::string str() const {
    std::string text;
    for (std::size_t i = 0; i < count_; ++i) text += pieces_[i];
    if (overflow_) text += "...";
    return text;
  }

 private:
  static constexpr std::size_t kMaxPieces = 12;
  std::array<std::string_view, kMaxPieces> pieces_{};
  std::size_t count_ = 0;
  bool overflow_ = false;
};

/// The common case of a number as URDF files write it ("0.01", "-1e-3": no sign '+', no white
/// space) read without the core's diagnostics; anything else (and every error) goes through the
/// core's reader, which reports it. fromChars is the core's reader too, so the values agree.
bool readPlainNumber(const char* begin, const char* end, double& value) {
  if (begin == end || *begin == '+') return false;
  const auto result = fromChars(begin, end, value);
  return result.ec == std::errc() && result.ptr == end && std::isfinite(value);
}

/// Three plain numbers separated by single spaces, as nearly every <origin> and <axis> is written.
bool readPlainVector3(std::string_view text, Vector3& value) {
  const char* at = text.data();
  const char* const end = text.data() + text.size();
  for (int i = 0; i < 3; ++i) {
    const char* stop = i < 2 ? std::find(at, end, ' ') : end;
    if (stop == end && i < 2) return false;
    if (!readPlainNumber(at, stop, value[i])) return false;
    at = stop + (i < 2 ? 1 : 0);
  }
  return true;
}

class UrdfReader {
 public:
  UrdfReader(const plugin::LoadRequest& request, Diagnostics& diagnostics)
      : request_(request), diagnostics_(diagnostics) {}

  /// Step 1: the located XML tree of a <robot> document (given already read when a macro
  /// language expanded it: LoadRequest::tree).
  bool readXml(XmlElement& robot) {
    std::optional<XmlElement> root;
    if (request_.tree) {
      root = std::move(*request_.tree);
    } else {
      root = xml::parse(request_.content, request_.path, diagnostics_, xml::toleratingLike(xml::Tolerance::LikeTinyXml));
    }
    if (!root) return false;
    if (root->name != "robot") {
      diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                         "a URDF file must have <robot> as its root element, found <" + root->name + ">", root->where);
      return false;
    }
    robot = std::move(*root);
    return true;
  }

  /// Step 2: the tree onto the model.
  void map(const XmlElement& robot, Document& document) {
    document.format = "urdf";
    document.formatVersion = "1.0";
    // urdfdom's rules: joints have their own namespace and name links as their ends; a wrong
    // inertial loads (massless links are frames).
    document.rules.setVersion(document.formatVersion);
    document.rules.jointsShareLinkNamespace = false;
    document.rules.jointEndsAreLinks = true;
    document.rules.inertia.checked = true;
    document.rules.setInertiaVerdict("urdfdom loads it");
    checkVocabulary(robot, diagnostics_);
    const XmlElement* root = &robot;
    Model model;
    model.where = root->where;
    if (const xml::Attribute* name = root->attribute("name"); name && trim(name->value).empty()) {
      tolerate("urdf-robot-name", "<robot> has an empty 'name'", xml::attributeLocation(*root, "name"));
      model.name = name->value;
    } else {
      model.name = requiredAttribute(*root, "name", "<robot>");
    }

    readGlobalMaterials(*root);
    registerInlineMaterials(*root);
    // Sized once: grown by doubling, the lists of a 20 000-link robot held room for 32 768 links
    // and joints (about 17 MB unused at the peak of the load, while the XML tree is alive).
    std::size_t links = 0;
    std::size_t joints = 0;
    for (const XmlElement& child : root->children) {
      links += child.name == "link" ? 1 : 0;
      joints += child.name == "joint" ? 1 : 0;
    }
    reserveToFill(model.links, links);  // in huge pages when big: filled once, front to back
    reserveToFill(model.joints, joints);
    linkIndex_.reserve(links);
    jointNames_.reserve(joints);
    for (const XmlElement& child : root->children) {
      if (child.name == "link") {
        readLink(child, model);
      } else if (child.name == "joint") {
        readJoint(child, model);
      } else if (child.name != "material") {
        // <transmission>, <gazebo> and custom elements: not interpreted, kept for the host.
        model.kept.push_back(KeptElement{"robot/" + child.name, child.toXml(), child.where});
      }
    }
    // A robot without links is reported by the frame graph (MODEL_WITHOUT_LINK).
    checkTree(model);
    document.model = std::move(model);
  }

 private:
  std::string requiredAttribute(const XmlElement& e, const char* attributeName, const What& what) {
    const xml::Attribute* a = e.attribute(attributeName);
    if (!a) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, what.str() + " needs the attribute '" + attributeName + "'", e.where);
      return {};
    }
    if (a->value.empty() || trim(a->value).empty()) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, what.str() + " has an empty '" + attributeName + "'",
                         xml::attributeLocation(e, attributeName));
    }
    return a->value;
  }

  /// A deviation from the URDF document that urdfdom (check_urdf) logs and loads: a warning naming
  /// the rule, which LoadOptions::strict (--strict) makes an error.
  void tolerate(const char* rule, const std::string& what, const SourceLocation& where) {
    diagnostics_.warning(ErrorCode::DEVIATION_TOLERATED,
                         what + " [rule " + rule + ": loaded as urdfdom loads it; --strict refuses it]", where);
  }

  std::optional<double> number(const XmlElement& e, const char* attributeName, const What& what) {
    const xml::Attribute* a = e.attribute(attributeName);
    if (!a) return std::nullopt;
    double value = 0;
    if (readPlainNumber(a->value.data(), a->value.data() + a->value.size(), value)) return value;
    return xml::attributeNumber(e, attributeName, what.str(), diagnostics_);
  }

  std::optional<Vector3> vector3(const XmlElement& e, const char* attributeName, const What& what) {
    const xml::Attribute* a = e.attribute(attributeName);
    if (!a) return std::nullopt;
    Vector3 value;
    if (readPlainVector3(a->value, value)) return value;
    return xml::attributeVector3(e, attributeName, what.str() + " (x y z)", diagnostics_);
  }

  /// <origin xyz rpy>: the identity when absent.
  Pose origin(const XmlElement* parent, const What& what) {
    const XmlElement* o = parent ? parent->child("origin") : nullptr;
    if (!o) return Pose::Identity();
    const Vector3 xyz = vector3(*o, "xyz", what + " origin xyz").value_or(Vector3::Zero());
    const Vector3 rpy = vector3(*o, "rpy", what + " origin rpy").value_or(Vector3::Zero());
    return poseFromXyzRpy(xyz.x(), xyz.y(), xyz.z(), rpy.x(), rpy.y(), rpy.z());
  }

  std::optional<Eigen::Vector4d> rgba(const XmlElement& color, const What& what) {
    const xml::Attribute* a = color.attribute("rgba");
    if (!a) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, what.str() + " <color> needs the attribute 'rgba'", color.where);
      return std::nullopt;
    }
    auto values = parseDoubles(a->value, xml::attributeLocation(color, "rgba"), what.str() + " color (r g b a)", diagnostics_, {4});
    if (!values) return std::nullopt;
    return Eigen::Vector4d((*values)[0], (*values)[1], (*values)[2], (*values)[3]);
  }

  void readGlobalMaterials(const XmlElement& robot) {
    for (const XmlElement* m : robot.childrenNamed("material")) {
      const std::string name = requiredAttribute(*m, "name", "<material>");
      Material material;
      if (const XmlElement* c = m->child("color")) material.color = rgba(*c, What("material '") + name + "'");
      if (const XmlElement* t = m->child("texture")) material.texture = t->toXml();
      if (!materials_.emplace(name, material).second) {
        diagnostics_.error(ErrorCode::DUPLICATE_NAME, "material '" + name + "' is defined twice", m->where);
      }
    }
  }

  /// urdfdom registers a material defined inside a visual (with a color or texture) for the whole
  /// robot, so a later visual may name it alone. The robot-level definition wins; then the first.
  void registerInlineMaterials(const XmlElement& robot) {
    for (const XmlElement* link : robot.childrenNamed("link")) {
      for (const XmlElement* visual : link->childrenNamed("visual")) {
        const XmlElement* m = visual->child("material");
        if (!m || !m->attribute("name") || (!m->child("color") && !m->child("texture"))) continue;
        Material material;
        if (const XmlElement* t = m->child("texture")) material.texture = t->toXml();
        std::optional<Eigen::Vector4d>& color = material.color;
        if (const XmlElement* c = m->child("color")) {
          Diagnostics ignored;  // reported when the visual itself is read
          if (const xml::Attribute* a = c->attribute("rgba")) {
            if (auto v = parseDoubles(a->value, c->where, "color", ignored, {4})) {
              color = Eigen::Vector4d((*v)[0], (*v)[1], (*v)[2], (*v)[3]);
            }
          }
        }
        materials_.emplace(m->attribute("name")->value, material);
      }
    }
  }

  /// False when urdfdom would stop reading the link here (its later visuals and collisions are
  /// then ignored, as urdfdom ignores them).
  bool readInertial(const XmlElement& e, Link& link) {
    link.hasInertial = true;
    link.inertial.where = e.where;
    link.inertial.centerOfMass = origin(&e, What("inertial of link '") + link.name + "'");
    const What what = What("link '") + link.name + "' inertial";
    if (const XmlElement* mass = e.child("mass")) {
      if (!mass->attribute("value")) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<mass> of " + what.str() + " needs the attribute 'value'", mass->where);
      } else if (auto value = number(*mass, "value", what + " mass")) {
        link.inertial.mass = *value;  // its sign is checked by the core's inertia check, as for every format
      }
    } else {
      diagnostics_.error(ErrorCode::ELEMENT_MISSING, what.str() + " needs <mass>", e.where);
    }
    link.inertial.inertia = Matrix3::Zero();
    const XmlElement* inertia = e.child("inertia");
    if (!inertia) {
      tolerate("urdf-inertial-inertia", what.str() + " has no <inertia>: its moments of inertia are zero and the link's later "
                                               "visuals and collisions are ignored",
               e.where);
      return false;
    }
    const char* names[] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
    std::string missing;
    for (const char* name : names) {
      if (!inertia->attribute(name)) missing += (missing.empty() ? "'" : ", '") + std::string(name) + "'";
    }
    if (!missing.empty()) {
      tolerate("urdf-inertia-attributes", "<inertia> of " + what.str() + " lacks " + missing +
                                              ": its moments of inertia are zero and the link's later visuals and "
                                              "collisions are ignored",
               inertia->where);
      return false;
    }
    const int rows[] = {0, 0, 0, 1, 1, 2};
    const int cols[] = {0, 1, 2, 1, 2, 2};
    Matrix3 I = Matrix3::Zero();
    for (int k = 0; k < 6; ++k) {
      const double v = number(*inertia, names[k], what + " " + names[k]).value_or(0.0);
      I(rows[k], cols[k]) = v;
      I(cols[k], rows[k]) = v;
    }
    link.inertial.inertia = I;
    return true;
  }

  /// False when the shape is dropped as urdfdom drops it (urdfdom then stops reading the link).
  bool readGeometry(const XmlElement* parent, Shape& shape, const What& what) {
    const XmlElement* g = parent->child("geometry");
    if (!g) {
      tolerate("urdf-shape-geometry", what.str() + " has no <geometry>: it is dropped with the link's later visuals and collisions",
               parent->where);
      return false;
    }
    if (g->children.empty()) {
      diagnostics_.error(ErrorCode::ELEMENT_MISSING, "<geometry> of " + what.str() + " has no shape", g->where);
      return true;
    }
    // urdfdom reads the first element of <geometry> as the shape and nothing after it.
    const XmlElement* kind = &g->children.front();
    if (g->children.size() > 1) {
      tolerate("urdf-geometry-one-shape", "<geometry> of " + what.str() + " holds <" + g->children[1].name + "> after its <" +
                                              kind->name + ">: only the first element is read",
               g->children[1].where);
    }
    Geometry& geometry = shape.geometry;
    auto needNumber = [&](const char* attributeName) -> double {
      if (!kind->attribute(attributeName)) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING,
                           "<" + kind->name + "> of " + what.str() + " needs the attribute '" + attributeName + "'",
                           kind->where);
        return 0.0;
      }
      return number(*kind, attributeName, what + " " + kind->name + " " + attributeName).value_or(0.0);
    };
    if (kind->name == "box") {
      geometry.type = GeometryType::Box;
      if (!kind->attribute("size")) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<box> of " + what.str() + " needs the attribute 'size'", kind->where);
      }
      geometry.size = vector3(*kind, "size", what + " box size").value_or(Vector3::Zero());
    } else if (kind->name == "sphere") {
      geometry.type = GeometryType::Sphere;
      geometry.radius = needNumber("radius");
    } else if (kind->name == "cylinder") {
      geometry.type = GeometryType::Cylinder;
      geometry.radius = needNumber("radius");
      geometry.length = needNumber("length");
    } else if (kind->name == "capsule") {  // urdfdom 1.x extension
      geometry.type = GeometryType::Capsule;
      geometry.radius = needNumber("radius");
      geometry.length = needNumber("length");
    } else if (kind->name == "mesh") {
      geometry.type = GeometryType::Mesh;
      geometry.meshUri = requiredAttribute(*kind, "filename", What("<mesh> of ").then(what));
      geometry.scale = vector3(*kind, "scale", what + " mesh scale").value_or(Vector3::Ones());
      // Looked up (and a missing file reported) by the core's mesh check, as for every format.
    } else {
      tolerate("urdf-known-geometry", "unknown geometry <" + kind->name + "> in " + what.str() +
                                          " (expected box, cylinder, sphere or mesh): it is dropped with the link's "
                                          "later visuals and collisions",
               kind->where);
      return false;
    }
    return true;
  }

  /// False when the shape was dropped and urdfdom stops reading the link.
  bool readShape(const XmlElement& e, Link& link, std::vector<Shape>& into, const char* kind) {
    Shape shape;
    shape.where = e.where;
    shape.name = e.attributeOr("name", "");
    if (shape.name.empty()) shape.name = std::string(kind) + "_" + std::to_string(into.size());
    const What what = What(kind) + " '" + shape.name + "' of link '" + link.name + "'";
    shape.pose.pose = origin(&e, what);
    shape.pose.where = e.where;
    if (!readGeometry(&e, shape, what)) return false;
    if (const XmlElement* m = e.child("material")) {
      shape.material = m->attributeOr("name", "");
      if (const XmlElement* c = m->child("color")) {
        shape.color = rgba(*c, what);
      } else if (!shape.material.empty()) {
        auto it = materials_.find(shape.material);
        if (it != materials_.end()) {
          shape.color = it->second.color;
        } else if (!m->child("texture")) {
          // urdfdom accepts the file; the visual keeps its name and has no color.
          diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                               "material '" + shape.material + "' of " + what.str() +
                                   " is defined neither at the robot level nor in any visual; it has no color",
                               xml::attributeLocation(*m, "name"));
        }
      }
    }
    into.push_back(std::move(shape));
    return true;
  }

  std::string textureOf(const XmlElement& visual) const {
    const XmlElement* m = visual.child("material");
    if (!m) return {};
    if (const XmlElement* t = m->child("texture")) return t->toXml();
    const auto known = materials_.find(m->attributeOr("name", ""));
    return known == materials_.end() ? std::string() : known->second.texture;
  }

  void readLink(const XmlElement& e, Model& model) {
    Link link;
    link.where = e.where;
    link.pose.where = e.where;
    link.name = requiredAttribute(e, "name", "<link>");
    if (link.name == "world") {
      // URDF's conventional fixed root: joints to it are joints to the world.
      sawWorldLink_ = true;
      // Said on every load (check, frames, ...), so that a user looking for the link learns where it went.
      diagnostics_.add(Diagnostic{Severity::Note, ErrorCode::NONE,
                                  "link 'world' is the world: it becomes the model frame '" + model.name +
                                      "', and joints from it fix the robot there",
                                  e.where});
      if (e.child("inertial") || e.child("visual") || e.child("collision")) {
        diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                             "link 'world' stands for the world; its inertial, visuals and collisions are ignored", e.where);
      }
      return;
    }
    if (!linkIndex_.emplace(link.name, model.links.size()).second) {
      diagnostics_.error(ErrorCode::DUPLICATE_NAME, "link '" + link.name + "' is defined twice", e.where);
      return;
    }
    // In urdfdom's order (the inertial, then visuals, then collisions): where urdfdom stops reading
    // a link it tolerates, so do we.
    bool reading = true;
    if (const XmlElement* inertial = e.child("inertial")) reading = readInertial(*inertial, link);
    for (const XmlElement* visual : e.childrenNamed("visual")) {
      reading = reading && readShape(*visual, link, link.visuals, "visual");
    }
    for (const XmlElement* collision : e.childrenNamed("collision")) {
      reading = reading && readShape(*collision, link, link.collisions, "collision");
    }
    // A visual's texture (its material's, inline or at the robot level): the core model has no
    // place for it, so it is kept, by link and visual, for URDF output.
    std::size_t visualIndex = 0;
    for (const XmlElement* visual : e.childrenNamed("visual")) {
      if (visualIndex >= link.visuals.size()) break;
      const std::string texture = textureOf(*visual);
      if (!texture.empty()) {
        model.kept.push_back(KeptElement{"robot/link/visual/texture", texture, visual->where, {}, "link/visual",
                                         {link.name, link.visuals[visualIndex].name}});
      }
      ++visualIndex;
    }
    for (const XmlElement& c : e.children) {
      if (c.name != "inertial" && c.name != "visual" && c.name != "collision") {
        model.kept.push_back(KeptElement{"robot/link/" + c.name, c.toXml(), c.where, {}, "link", {link.name}});
      }
    }
    model.links.push_back(std::move(link));
  }

  void readAxisLimits(const XmlElement& e, Joint& joint, JointAxis& axis, bool needsLimit) {
    const What what = What("joint '") + joint.name + "'";
    const XmlElement* limit = e.child("limit");
    if (limit) {
      if (auto v = number(*limit, "lower", what + " limit lower")) axis.lower = *v;
      if (auto v = number(*limit, "upper", what + " limit upper")) axis.upper = *v;
      if (auto v = number(*limit, "effort", what + " limit effort")) axis.effort = *v;
      if (auto v = number(*limit, "velocity", what + " limit velocity")) axis.velocity = *v;
      for (const char* required : {"effort", "velocity"}) {
        if (!limit->attribute(required)) {
          diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING,
                             "<limit> of " + what.str() + " needs the attribute '" + required + "'", limit->where);
        }
      }
      if (needsLimit) {
        // URDF: an absent lower or upper limit is 0.
        if (!limit->attribute("lower")) axis.lower = 0;
        if (!limit->attribute("upper")) axis.upper = 0;
      } else {
        axis.lower = -std::numeric_limits<double>::infinity();
        axis.upper = std::numeric_limits<double>::infinity();
      }
    } else if (needsLimit) {
      diagnostics_.error(ErrorCode::ELEMENT_MISSING,
                         what.str() + " of type " + std::string(jointTypeName(joint.type)) + " needs <limit>", e.where);
    }
    if (const XmlElement* dynamics = e.child("dynamics")) {
      if (auto v = number(*dynamics, "damping", what + " damping")) axis.damping = *v;
      if (auto v = number(*dynamics, "friction", what + " friction")) axis.friction = *v;
    }
  }

  void readJoint(const XmlElement& e, Model& model) {
    Joint joint;
    joint.where = e.where;
    joint.name = requiredAttribute(e, "name", "<joint>");
    const What what = What("joint '") + joint.name + "'";
    const std::string type = e.attributeOr("type", "");
    if (!e.attribute("type")) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, what.str() + " needs the attribute 'type'", e.where);
      return;
    }
    // URDF's joint types are the core table's URDF names.
    const JointTypeInfo* found = nullptr;
    for (const JointTypeInfo& info : kJointTypes) {
      if (!info.urdfName.empty() && info.urdfName == type) found = &info;
    }
    if (!found) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                         what.str() + " has the unknown type '" + type +
                             "'; expected revolute, continuous, prismatic, fixed, floating or planar",
                         xml::attributeLocation(e, "type"));
      return;
    }
    joint.type = found->type;
    for (std::string* side : {&joint.parent, &joint.child}) {
      const char* sideName = side == &joint.parent ? "parent" : "child";
      const XmlElement* s = e.child(sideName);
      if (!s) {
        diagnostics_.error(ErrorCode::ELEMENT_MISSING, what.str() + " needs <" + sideName + " link=\"...\">", e.where);
      } else {
        *side = requiredAttribute(*s, "link", (What("<") + sideName + "> of ").then(what));
      }
    }
    joint.pose.pose = origin(&e, what);
    // URDF's "world" link is the model frame here (a model cannot name the world in relative_to).
    joint.pose.relativeTo = joint.parent == "world" ? "__model__" : joint.parent;
    joint.pose.where = e.child("origin") ? e.child("origin")->where : e.where;

    const bool hasAxis = joint.type == JointType::Revolute || joint.type == JointType::Continuous ||
                         joint.type == JointType::Prismatic || joint.type == JointType::Planar;
    if (hasAxis) {
      JointAxis axis;
      axis.xyz = Vector3::UnitX();  // URDF's default axis
      axis.where = e.where;
      if (const XmlElement* a = e.child("axis")) {
        axis.where = a->where;
        if (auto xyz = vector3(*a, "xyz", what + " axis")) {
          if (xyz->norm() < 1e-12) {
            diagnostics_.error(ErrorCode::VALUE_INVALID, "the axis of " + what.str() + " is the zero vector",
                               xml::attributeLocation(*a, "xyz"));
          } else {
            axis.xyz = xyz->normalized();
          }
        }
      }
      readAxisLimits(e, joint, axis, joint.type == JointType::Revolute || joint.type == JointType::Prismatic);
      joint.axes.push_back(axis);
    } else if (const XmlElement* limit = e.child("limit")) {
      diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                           "<limit> does not apply to joint '" + joint.name + "' of type " + type + "; ignored",
                           limit->where);
    }
    if (const XmlElement* m = e.child("mimic")) {
      Mimic mimic;
      mimic.joint = requiredAttribute(*m, "joint", What("<mimic> of ").then(what));
      mimic.multiplier = number(*m, "multiplier", what + " mimic multiplier").value_or(1.0);
      mimic.offset = number(*m, "offset", what + " mimic offset").value_or(0.0);
      mimicWhere_[joint.name] = m->where;
      joint.mimic = mimic;
    }
    for (const XmlElement& c : e.children) {
      // <calibration>, <safety_controller> and custom elements: kept for the host and URDF output.
      static constexpr std::string_view read[] = {"origin", "parent", "child", "axis", "limit", "dynamics", "mimic"};
      if (std::find(std::begin(read), std::end(read), c.name) == std::end(read)) {
        model.kept.push_back(KeptElement{"robot/joint/" + c.name, c.toXml(), c.where, {}, "joint", {joint.name}});
      }
    }
    if (!jointNames_.insert(joint.name).second) {
      diagnostics_.error(ErrorCode::DUPLICATE_NAME, "joint '" + joint.name + "' is defined twice", e.where);
      return;
    }
    model.joints.push_back(std::move(joint));
  }

  /// URDF is a tree: every link but one (the root) is the child of exactly one joint.
  void checkTree(Model& model) {
    // Per link, by its index (linkIndex_ and model.links agree: one entry per name, "world"
    // in neither), the joint whose child it is. Arrays rather than tables of names: a 20 000-link
    // chain is walked in order instead of by hash look-ups.
    const std::size_t links = model.links.size();
    const auto indexOf = [&](const std::string& name) {
      const auto it = linkIndex_.find(name);
      return it == linkIndex_.end() ? links : it->second;
    };
    std::vector<const Joint*> parentJoint(links, nullptr);
    // Undefined parent or child links, a parent that is the child and the world as a child are
    // reported by the frame graph's joint phase (once); here they only stay out of the tree.
    for (Joint& joint : model.joints) {
      if (joint.parent.empty() || joint.child.empty()) continue;
      if (joint.parent == "world" && !sawWorldLink_) {
        // The core model accepts "world" as a parent; URDF only when the robot defines it.
        diagnostics_.error(ErrorCode::JOINT_PARENT_LINK_INVALID,
                           "joint '" + joint.name + "' names the parent link 'world', which the robot does not define",
                           joint.where);
      } else if (joint.parent != "world" && indexOf(joint.parent) == links) {
        joint.pose.relativeTo = "__model__";  // no second error for the same unknown name
      }
      if (joint.child == "world") continue;
      const std::size_t child = indexOf(joint.child);
      if (child == links || joint.parent == joint.child) continue;
      if (const Joint* first = parentJoint[child]) {
        diagnostics_.error(ErrorCode::KINEMATIC_LOOP,
                           "link '" + joint.child + "' is the child of two joints, '" + first->name + "' (line " +
                               std::to_string(first->where.line) + ") and '" + joint.name +
                               "'; a URDF model must be a tree",
                           joint.where);
      } else {
        parentJoint[child] = &joint;
      }
    }
    // Child link poses: the child frame is the joint frame, so the link takes the joint's origin
    // in the parent link. (Not "relative to the joint" by name: a joint may share a link's name,
    // and only the frame graph knows what its frame is called.)
    for (std::size_t i = 0; i < links; ++i) {
      if (const Joint* joint = parentJoint[i]) {
        model.links[i].pose.pose = joint->pose.pose;
        model.links[i].pose.relativeTo = joint->pose.relativeTo;
      }
    }
    // Cycles: walking up from any link must end at a root. Each link is walked over once (links
    // already known to reach a root, or already reported, end a walk), so a long chain costs
    // linear time, not the square of its length.
    enum class Walk : unsigned char { Unvisited, OnPath, Done };
    std::vector<Walk> state(links, Walk::Unvisited);
    std::vector<std::size_t> path;
    std::vector<const Joint*> brokenCycles;
    for (std::size_t start = 0; start < links; ++start) {
      path.clear();
      std::size_t current = start;
      while (true) {
        Walk& mark = state[current];
        if (mark == Walk::Done) break;
        if (mark == Walk::OnPath) {
          // The links from `current` to the end of the path form the cycle.
          const auto first = std::find(path.begin(), path.end(), current);
          std::string names;
          for (auto it = first; it != path.end(); ++it) {
            names += (names.empty() ? "'" : ", '") + parentJoint[*it]->name + "'";
          }
          diagnostics_.error(ErrorCode::KINEMATIC_LOOP,
                             "the joints " + names + " form a cycle through link '" + model.links[current].name +
                                 "'; a URDF model must be a tree",
                             parentJoint[*first]->where);
          // Reported here in URDF's words: the frame graph must not report it again as a pose cycle.
          brokenCycles.push_back(parentJoint[*first]);
          break;
        }
        mark = Walk::OnPath;
        path.push_back(current);
        const Joint* joint = parentJoint[current];
        if (!joint) break;
        const std::size_t parent = indexOf(joint->parent);
        if (parent == links) break;  // the world, or a link the robot does not define
        current = parent;
      }
      for (std::size_t walked : path) state[walked] = Walk::Done;
    }
    for (const Joint* joint : brokenCycles) {
      model.links[linkIndex_.at(joint->child)].pose.relativeTo = "__model__";
    }
    std::vector<std::string> roots;
    for (std::size_t i = 0; i < links; ++i) {
      if (!parentJoint[i]) roots.push_back(model.links[i].name);
    }
    if (roots.size() > 1) {
      std::string names;
      for (const auto& r : roots) names += (names.empty() ? "'" : ", '") + r + "'";
      diagnostics_.error(ErrorCode::KINEMATICS_INVALID,
                         "a URDF model has exactly one root link; these links have no parent joint: " + names,
                         model.links[linkIndex_.at(roots[1])].where);
    }
    if (roots.size() == 1) model.canonicalLink = roots.front();
    for (const Joint& joint : model.joints) {
      if (joint.mimic && !jointNames_.count(joint.mimic->joint)) {
        // urdfdom and libsdformat accept the file; the joint then moves on its own.
        diagnostics_.warning(ErrorCode::JOINT_AXIS_MIMIC_INVALID,
                             "joint '" + joint.name + "' mimics '" + joint.mimic->joint +
                                 "', which is not a joint of the robot; the joint moves on its own",
                             mimicWhere_.count(joint.name) ? mimicWhere_.at(joint.name) : joint.where);
      }
    }
  }

  const plugin::LoadRequest& request_;
  Diagnostics& diagnostics_;
  /// A material URDF lets visuals name: its colour and texture image (either may be absent).
  struct Material {
    std::optional<Eigen::Vector4d> color;
    std::string texture;  // the <texture> element as written; empty: none
  };
  std::map<std::string, Material> materials_;
  std::unordered_map<std::string, std::size_t> linkIndex_;
  std::unordered_set<std::string> jointNames_;
  std::map<std::string, SourceLocation> mimicWhere_;
  bool sawWorldLink_ = false;
};

}  // namespace

bool readUrdfXml(const plugin::LoadRequest& request, xml::XmlElement& robot, Diagnostics& diagnostics) {
  return UrdfReader(request, diagnostics).readXml(robot);
}

void mapUrdf(const xml::XmlElement& robot, const plugin::LoadRequest& request, Document& document,
             Diagnostics& diagnostics) {
  UrdfReader(request, diagnostics).map(robot, document);
}

int sniffUrdf(const char* /*path*/, const char* head, std::size_t size) {
  return xml::headRootIs(head, size, "robot") ? 90 : 10;
}

}  // namespace interlink::urdf
