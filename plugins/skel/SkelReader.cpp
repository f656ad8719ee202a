#include "SkelReader.hpp"

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
#include "interlink/model/Names.hpp"

namespace interlink::skel::detail {
namespace {

using xml::Attribute;
using xml::XmlElement;

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

class Reader {
 public:
  Reader(const std::string& path, const plugin::HostServices* host, Diagnostics& diagnostics)
      : path_(path), host_(host), diagnostics_(diagnostics) {
    baseDirectory_ = std::filesystem::path(path).parent_path().string();
  }

  /// False when there is nothing to map (not XML, no <skel>, no <world>).
  bool read(std::string_view content, SkelFile& file);

 private:
  // --- diagnostics -------------------------------------------------------------------------
  void error(ErrorCode code, std::string message, const SourceLocation& where) {
    diagnostics_.error(code, std::move(message), where);
  }
  void warning(ErrorCode code, std::string message, const SourceLocation& where) {
    diagnostics_.warning(code, std::move(message), where);
  }
  void note(ErrorCode code, std::string message, const SourceLocation& where) {
    diagnostics_.add(Diagnostic{Severity::Note, code, std::move(message), where});
  }

  // --- values --------------------------------------------------------------------------------
  std::optional<double> number(const XmlElement& element, std::string_view what) {
    return parseDouble(element.text, element.where, what, diagnostics_);
  }
  /// A limit may be written as inf / -inf, as DART's reader (std::stod) accepts.
  std::optional<double> limit(const XmlElement& element, std::string_view what) {
    const std::string text = toLower(trim(element.text));
    if (text == "inf" || text == "+inf" || text == "infinity") return std::numeric_limits<double>::infinity();
    if (text == "-inf" || text == "-infinity") return -std::numeric_limits<double>::infinity();
    return number(element, what);
  }
  std::optional<std::vector<double>> numbers(const XmlElement& element, std::size_t count, std::string_view what) {
    return parseDoubles(element.text, element.where, what, diagnostics_, {count});
  }
  std::optional<Vector3> vector3(const XmlElement& element, std::string_view what) {
    const auto values = numbers(element, 3, what);
    if (!values) return std::nullopt;
    return Vector3((*values)[0], (*values)[1], (*values)[2]);
  }
  std::optional<bool> boolean(const XmlElement& element, std::string_view what) {
    return parseBool(trim(element.text), element.where, what, diagnostics_);
  }
  /// "x y z a b c": translation, then intrinsic X-Y'-Z'' angles in radians.
  std::optional<Pose> transformation(const XmlElement& element) {
    const auto values =
        parseDoubles(element.text, element.where, "<transformation> (x y z and intrinsic XYZ angles)", diagnostics_,
                     {6}, ErrorCode::POSE_FORMAT_INVALID);
    if (!values) return std::nullopt;
    const auto& v = *values;
    Pose pose = Pose::Identity();
    pose.linear() = rotationFromIntrinsicXyz(v[3], v[4], v[5]);
    pose.translation() = Vector3(v[0], v[1], v[2]);
    return pose;
  }
  /// A required child read with `read`; a missing one is an error naming what was expected.
  template <typename Read>
  auto required(const XmlElement& parent, std::string_view name, std::string_view what, Read read)
      -> decltype(read(parent)) {
    const XmlElement* child = parent.child(name);
    if (child == nullptr) {
      error(ErrorCode::ELEMENT_MISSING,
            "<" + parent.name + "> needs a <" + std::string(name) + "> element (" + std::string(what) + ")",
            parent.where);
      return std::nullopt;
    }
    return read(*child);
  }
  std::optional<double> requiredNumber(const XmlElement& parent, std::string_view name, std::string_view what) {
    return required(parent, name, what, [&](const XmlElement& e) { return number(e, what); });
  }
  std::optional<Vector3> requiredVector3(const XmlElement& parent, std::string_view name, std::string_view what) {
    return required(parent, name, what, [&](const XmlElement& e) { return vector3(e, what); });
  }
  void requirePositive(double value, const XmlElement& element, std::string_view what) {
    if (!(value > 0)) {
      error(ErrorCode::VALUE_INVALID,
            std::string(what) + " must be positive, got " + formatNumber(value) +
                " (DART 6.12 aborts on this value)",
            element.where);
    }
  }

  void keep(std::vector<KeptElement>& kept, const std::string& scope, const XmlElement& element) {
    kept.push_back(KeptElement{scope + "/" + element.name, element.toXml(), element.where});
  }
  void unsupported(std::vector<KeptElement>& kept, const std::string& scope, const XmlElement& element) {
    warning(ErrorCode::ELEMENT_UNSUPPORTED,
            "<" + element.name + "> in <" + scope.substr(scope.find_last_of('/') + 1) +
                "> is not part of SKEL as DART 6.12 reads it; kept uninterpreted",
            element.where);
    keep(kept, scope, element);
  }

  // --- structure -----------------------------------------------------------------------------
  void readPhysics(const XmlElement& physics, World& world);
  void readSkeleton(const XmlElement& element, WorldRecord& world);
  void readBody(const XmlElement& element, SkeletonRecord& model, std::unordered_map<std::string, std::size_t>& bodies);
  void readInertia(const XmlElement& element, Link& link, bool& momentGiven);
  std::optional<Shape> readShape(const XmlElement& element, const std::string& bodyName, bool visual,
                                 SkeletonRecord& model);
  bool readGeometry(const XmlElement& geometryElement, Geometry& geometry, Pose& planeOffset);
  void readMesh(const XmlElement& mesh, Geometry& geometry);
  std::optional<JointRecord> readJoint(const XmlElement& element, const std::unordered_map<std::string, std::size_t>& bodies,
                                       SkeletonRecord& model);
  void readAxes(const XmlElement& element, JointRecord& record);
  void readPlane(const XmlElement& element, JointRecord& record);
  void readInitial(const XmlElement& element, std::string_view tag, Joint& joint,
                   std::vector<double>& values);
  void readDofs(const XmlElement& element, JointRecord& record, std::vector<double>& positions,
                std::vector<double>& velocities, SkeletonRecord& model);

  const std::string& path_;
  const plugin::HostServices* host_;
  Diagnostics& diagnostics_;
  std::string baseDirectory_;
  mesh::MeshReader meshReader_{host_};
};

bool Reader::read(std::string_view content, SkelFile& file) {
  const auto root = xml::parse(content, path_, diagnostics_);
  if (!root) return false;
  if (root->name != "skel") {
    error(ErrorCode::ELEMENT_MISSING, "expected <skel> as the root element, found <" + root->name + ">",
          root->where);
    return false;
  }
  file.version = root->attributeOr("version", "1.0");

  const XmlElement* worldElement = nullptr;
  for (const auto& child : root->children) {
    if (child.name == "world") {
      if (worldElement == nullptr) {
        worldElement = &child;
      } else {
        warning(ErrorCode::ELEMENT_UNSUPPORTED,
                "a second <world>: DART reads only the first one; kept uninterpreted", child.where);
        keep(file.kept, "skel", child);
      }
    } else {
      unsupported(file.kept, "skel", child);
    }
  }
  if (worldElement == nullptr) {
    error(ErrorCode::ELEMENT_MISSING, "<skel> needs a <world> element", root->where);
    return false;
  }

  WorldRecord& record = file.world.emplace();
  World& world = record.settings;
  world.name = worldElement->attributeOr("name", "Unknown world");  // the document's default
  world.where = worldElement->where;
  world.physics.type = "dart";
  for (const auto& child : worldElement->children) {
    if (child.name == "physics") {
      readPhysics(child, world);
    } else if (child.name == "skeleton") {
      readSkeleton(child, record);
    } else {
      unsupported(world.kept, "skel/world", child);
    }
  }
  return true;
}

void Reader::readPhysics(const XmlElement& physics, World& world) {
  for (const auto& child : physics.children) {
    if (child.name == "time_step") {
      if (const auto step = number(child, "<time_step> (seconds)")) {
        requirePositive(*step, child, "<time_step>");
        world.physics.maxStepSize = *step;
      }
    } else if (child.name == "gravity") {
      if (const auto gravity = vector3(child, "<gravity> (x y z)")) world.gravity = *gravity;
    } else if (child.name == "collision_detector") {
      world.physics.collisionDetector = trim(child.text);
    } else {
      unsupported(world.kept, "skel/world/physics", child);
    }
  }
}

void Reader::readSkeleton(const XmlElement& element, WorldRecord& world) {
  SkeletonRecord model;
  model.where = element.where;
  model.pose.where = element.where;

  std::string name = element.attributeOr("name", "");
  if (name.empty()) {
    warning(ErrorCode::ATTRIBUTE_MISSING, "<skeleton> without a name; named 'Unknown skeleton' as the document says",
            element.where);
    name = "Unknown skeleton";
  }
  if (names::isReserved(name) || names::containsDelimiter(name)) {
    error(ErrorCode::NAME_INVALID, "skeleton name '" + name + "' is reserved or contains '::'", element.where);
    return;
  }
  model.name = name;

  std::unordered_map<std::string, std::size_t> bodies;  // name -> index in model.bodies
  std::vector<const XmlElement*> jointElements;
  for (const auto& child : element.children) {
    if (child.name == "body") {
      readBody(child, model, bodies);
    } else if (child.name == "joint") {
      jointElements.push_back(&child);
    } else if (child.name == "transformation") {
      if (const auto pose = transformation(child)) {
        model.pose.pose = *pose;
        model.pose.where = child.where;
      }
    } else if (child.name == "mobile") {
      // What DART 6.12 actually reads.
      if (const auto mobile = boolean(child, "<mobile>")) model.isStatic = !*mobile;
    } else if (child.name == "immobile") {
      // What the format document names; DART 6.12 ignores it, we honour it.
      if (const auto immobile = boolean(child, "<immobile>")) model.isStatic = *immobile;
    } else {
      unsupported(model.kept, "skeleton", child);
    }
  }

  for (std::size_t i = 0; i < jointElements.size(); ++i) {
    if (auto record = readJoint(*jointElements[i], bodies, model)) {
      record->documentIndex = i;
      model.joints.push_back(std::move(*record));
    }
  }
  world.skeletons.push_back(std::move(model));
}

void Reader::readBody(const XmlElement& element, SkeletonRecord& model,
                      std::unordered_map<std::string, std::size_t>& bodies) {
  Link link;
  link.where = element.where;
  link.pose.where = element.where;
  link.name = element.attributeOr("name", "");
  if (link.name.empty()) {
    warning(ErrorCode::ATTRIBUTE_MISSING, "<body> without a name; named 'Unknown body' as the document says",
            element.where);
    link.name = "Unknown body";
  }
  if (names::isReserved(link.name) || names::containsDelimiter(link.name)) {
    error(ErrorCode::NAME_INVALID, "body name '" + link.name + "' is reserved or contains '::'; body left out",
          element.where);
    return;
  }
  if (bodies.count(link.name) != 0) {
    error(ErrorCode::DUPLICATE_NAME,
          "body '" + link.name + "' is defined before (line " +
              std::to_string(model.bodies[bodies[link.name]].where.line) +
              "); this one is left out, as DART discards repeated body names",
          element.where);
    return;
  }

  bool inertiaGiven = false;
  bool momentGiven = false;
  std::vector<const XmlElement*> visuals;
  std::vector<const XmlElement*> collisions;
  for (const auto& child : element.children) {
    if (child.name == "gravity") {
      if (const auto gravity = boolean(child, "<gravity>")) link.gravity = *gravity;
    } else if (child.name == "self_collide") {
      if (const auto selfCollide = boolean(child, "<self_collide>")) link.selfCollide = *selfCollide;
    } else if (child.name == "transformation") {
      if (const auto pose = transformation(child)) {
        link.pose.pose = *pose;  // relative to the skeleton frame, which is the model frame
        link.pose.where = child.where;
      }
    } else if (child.name == "inertia") {
      inertiaGiven = true;
      readInertia(child, link, momentGiven);
    } else if (child.name == "visualization_shape") {
      visuals.push_back(&child);
    } else if (child.name == "collision_shape") {
      collisions.push_back(&child);
    } else if (child.name == "marker") {
      MarkerRecord marker;
      marker.name = child.attributeOr("name", "");
      marker.body = link.name;
      marker.where = child.where;
      if (marker.name.empty()) {
        error(ErrorCode::ATTRIBUTE_MISSING, "<marker> needs a name attribute", child.where);
        continue;
      }
      if (const XmlElement* offset = child.child("offset")) {
        if (const auto value = vector3(*offset, "marker <offset> (x y z)")) marker.offset = *value;
      }
      model.markers.push_back(std::move(marker));
    } else if (child.name == "soft_shape") {
      // A soft body: its point masses and springs are outside the core model; kept whole.
      const XmlElement* geometry = child.child("geometry");
      if (child.child("total_mass") == nullptr) {
        warning(ErrorCode::ELEMENT_MISSING, "<soft_shape> without <total_mass>", child.where);
      }
      if (geometry == nullptr) {
        error(ErrorCode::ELEMENT_MISSING, "<soft_shape> needs a <geometry> (box, sphere, ellipsoid or cylinder)",
              child.where);
      } else if (const XmlElement* box = geometry->child("box"); box != nullptr && box->child("frags") == nullptr) {
        warning(ErrorCode::ELEMENT_MISSING,
                "soft <box> without <frags> (point counts per axis): DART 6.12 crashes on this; the soft shape is "
                "kept as written and the rigid body loads normally",
                box->where);
      }
      keep(model.kept, "skeleton/body[" + link.name + "]", child);
    } else if (child.name == "soft") {
      note(ErrorCode::ELEMENT_UNSUPPORTED, "<soft> is an old spelling of <soft_shape> that DART 6.12 ignores; kept",
           child.where);
      keep(model.kept, "skeleton/body[" + link.name + "]", child);
    } else {
      unsupported(model.kept, "skeleton/body", child);
    }
  }
  link.hasInertial = inertiaGiven;

  // DART creates every visualization shape, then every collision shape.
  for (const XmlElement* visual : visuals) {
    if (auto shape = readShape(*visual, link.name, true, model)) {
      shape->name = "visual_" + std::to_string(link.visuals.size());
      link.visuals.push_back(std::move(*shape));
    }
  }
  for (const XmlElement* collision : collisions) {
    if (auto shape = readShape(*collision, link.name, false, model)) {
      shape->name = "collision_" + std::to_string(link.collisions.size());
      link.collisions.push_back(std::move(*shape));
    }
  }

  // DART: an <inertia> without <moment_of_inertia> takes the moment of the body's first shape.
  if (inertiaGiven && !momentGiven) {
    const Shape* first = !link.visuals.empty() ? &link.visuals.front()
                                               : (!link.collisions.empty() ? &link.collisions.front() : nullptr);
    if (first != nullptr) {
      if (const auto moment = dartShapeInertia(first->geometry, link.inertial.mass)) {
        link.inertial.inertia = *moment;
      } else if (first->geometry.type == GeometryType::Mesh) {
        // The one place a mesh's content is needed: without it the body has no moment of inertia.
        error(ErrorCode::FILE_READ,
              "body '" + link.name + "' takes its moment of inertia from mesh '" + first->geometry.meshUri +
                  "', which could not be read (missing, refused or broken; see the mesh's warning)",
              first->where);
      }
    }
  }

  bodies.emplace(link.name, model.bodies.size());
  model.bodies.push_back(BodyRecord{std::move(link), element.where});
}

void Reader::readInertia(const XmlElement& element, Link& link, bool& momentGiven) {
  link.inertial.where = element.where;
  for (const auto& child : element.children) {
    if (child.name == "mass") {
      if (const auto mass = number(child, "<mass> (kg)")) {
        requirePositive(*mass, child, "<mass>");
        link.inertial.mass = *mass;
      }
    } else if (child.name == "offset") {
      if (const auto offset = vector3(child, "inertia <offset> (x y z)")) {
        link.inertial.centerOfMass.translation() = *offset;  // wins over a <transformation>'s translation
      }
    } else if (child.name == "transformation") {
      // The document's inertial frame (DART 6.12 reads only <offset>): the tensor is written in it.
      if (const auto pose = transformation(child)) {
        const Vector3 offset = link.inertial.centerOfMass.translation();
        link.inertial.centerOfMass = *pose;
        if (element.child("offset") != nullptr) link.inertial.centerOfMass.translation() = offset;
      }
    } else if (child.name == "moment_of_inertia") {
      momentGiven = true;
      // Defaults as the format document gives them; DART requires all six.
      std::array<double, 6> moment{1, 1, 1, 0, 0, 0};
      static const std::array<const char*, 6> names{"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
      for (std::size_t i = 0; i < names.size(); ++i) {
        const XmlElement* component = child.child(names[i]);
        if (component == nullptr) {
          warning(ErrorCode::ELEMENT_MISSING,
                  std::string("<moment_of_inertia> without <") + names[i] + ">; using " + formatNumber(moment[i]),
                  child.where);
          continue;
        }
        if (const auto value = number(*component, names[i])) moment[i] = *value;
      }
      Matrix3 inertia;
      inertia << moment[0], moment[3], moment[4], moment[3], moment[1], moment[5], moment[4], moment[5], moment[2];
      link.inertial.inertia = inertia;
    } else {
      warning(ErrorCode::ELEMENT_UNSUPPORTED, "<" + child.name + "> in <inertia> is not read by DART; ignored",
              child.where);
    }
  }
  if (element.child("mass") == nullptr) {
    warning(ErrorCode::ELEMENT_MISSING, "<inertia> without <mass>; using 1 kg", element.where);
  }
}

std::optional<Shape> Reader::readShape(const XmlElement& element, const std::string& bodyName, bool visual,
                                       SkeletonRecord& model) {
  Shape shape;
  shape.where = element.where;
  shape.pose.where = element.where;
  Pose planeOffset = Pose::Identity();
  bool geometryRead = false;
  bool notCollidable = false;
  for (const auto& child : element.children) {
    if (child.name == "transformation") {
      if (const auto pose = transformation(child)) {
        shape.pose.pose = *pose;
        shape.pose.where = child.where;
      }
    } else if (child.name == "geometry") {
      geometryRead = readGeometry(child, shape.geometry, planeOffset);
    } else if (visual && child.name == "color") {
      const auto values = parseDoubles(child.text, child.where, "<color> (r g b or r g b a)", diagnostics_, {3, 4});
      if (values) {
        shape.color = Eigen::Vector4d((*values)[0], (*values)[1], (*values)[2], values->size() == 4 ? (*values)[3] : 1.0);
      }
    } else if (!visual && child.name == "collidable") {
      // Default true. A shape that does not collide is no collision shape (DART gives it no collision aspect).
      if (const auto collidable = boolean(child, "<collidable>")) notCollidable = !*collidable;
    } else {
      unsupported(model.kept, visual ? "skeleton/body/visualization_shape" : "skeleton/body/collision_shape", child);
    }
  }
  if (element.child("geometry") == nullptr) {
    error(ErrorCode::ELEMENT_MISSING, "<" + element.name + "> of body '" + bodyName + "' needs a <geometry>",
          element.where);
    return std::nullopt;
  }
  if (!geometryRead) return std::nullopt;
  if (notCollidable) {
    note(ErrorCode::NONE, "collision shape of body '" + bodyName + "' has <collidable> false; it is left out of the collisions",
         element.where);
    return std::nullopt;
  }
  shape.pose.pose = shape.pose.pose * planeOffset;
  return shape;
}

bool Reader::readGeometry(const XmlElement& geometryElement, Geometry& geometry, Pose& planeOffset) {
  // DART looks for the kinds in this order and takes the first it finds.
  static const std::array<const char*, 10> kinds{"sphere", "box",   "ellipsoid",    "cylinder", "capsule",
                                                 "cone",   "pyramid", "plane", "multi_sphere", "mesh"};
  const XmlElement* shapeElement = nullptr;
  for (const char* kind : kinds) {
    if ((shapeElement = geometryElement.child(kind)) != nullptr) break;
  }
  if (shapeElement == nullptr) {
    error(ErrorCode::ELEMENT_INVALID,
          "<geometry> needs one of sphere, box, ellipsoid, cylinder, capsule, cone, pyramid, plane, multi_sphere, "
          "mesh",
          geometryElement.where);
    return false;
  }
  for (const auto& other : geometryElement.children) {
    if (&other != shapeElement) {
      warning(ErrorCode::ELEMENT_UNSUPPORTED,
              "<" + other.name + "> in <geometry> is ignored: DART uses only <" + shapeElement->name + ">",
              other.where);
    }
  }
  const XmlElement& e = *shapeElement;
  const std::string& kind = e.name;
  auto positive = [&](const char* child, const char* what) -> std::optional<double> {
    const auto value = requiredNumber(e, child, what);
    if (value) requirePositive(*value, *e.child(child), std::string("<") + kind + "> " + child);
    return value;
  };
  // The document's defaults: <size> 1 1 1, cylinder radius 0.5 and height 1.
  auto positiveOr = [&](const char* child, const char* what, double fallback) -> std::optional<double> {
    if (e.child(child) == nullptr) return fallback;
    return positive(child, what);
  };
  auto positiveSize = [&]() -> std::optional<Vector3> {
    if (e.child("size") == nullptr) return Vector3::Ones();
    const auto size = requiredVector3(e, "size", "x y z");
    if (size) {
      for (int i = 0; i < 3; ++i) requirePositive((*size)[i], *e.child("size"), "<" + kind + "> size");
    }
    return size;
  };

  if (kind == "sphere") {
    geometry.type = GeometryType::Sphere;
    const auto radius = positive("radius", "radius");
    if (!radius) return false;
    geometry.radius = *radius;
  } else if (kind == "box") {
    geometry.type = GeometryType::Box;
    const auto size = positiveSize();
    if (!size) return false;
    geometry.size = *size;
  } else if (kind == "ellipsoid") {
    // DART 6.12's <size> holds the diameters.
    geometry.type = GeometryType::Ellipsoid;
    const auto size = positiveSize();
    if (!size) return false;
    geometry.size = *size;
    geometry.radii = *size / 2.0;
  } else if (kind == "cylinder" || kind == "capsule" || kind == "cone") {
    geometry.type = kind == "cylinder" ? GeometryType::Cylinder
                                       : (kind == "capsule" ? GeometryType::Capsule : GeometryType::Cone);
    const bool cylinder = kind == "cylinder";
    const auto radius = cylinder ? positiveOr("radius", "radius", 0.5) : positive("radius", "radius");
    // The document's hierarchy spells a collision cylinder's height <length>.
    const char* heightName = e.child("height") == nullptr && e.child("length") != nullptr ? "length" : "height";
    const auto height = cylinder ? positiveOr(heightName, "height along z", 1.0) : positive(heightName, "height along z");
    if (!radius || !height) return false;
    geometry.radius = *radius;
    geometry.length = *height;
  } else if (kind == "pyramid") {
    geometry.type = GeometryType::Pyramid;
    const auto width = positive("base_width", "base width along x");
    const auto depth = positive("base_depth", "base depth along y");
    const auto height = positive("height", "height along z");
    if (!width || !depth || !height) return false;
    geometry.size = Vector3(*width, *depth, *height);
  } else if (kind == "plane") {
    geometry.type = GeometryType::Plane;
    const auto normal = requiredVector3(e, "normal", "x y z");
    if (!normal) return false;
    if (normal->norm() == 0) {
      error(ErrorCode::VALUE_INVALID, "plane <normal> must not be the zero vector", e.child("normal")->where);
      return false;
    }
    geometry.normal = normal->normalized();
    // The core's plane passes through its shape frame: DART's offset moves the frame along the normal.
    double offset = 0;
    if (const XmlElement* offsetElement = e.child("offset")) {
      if (const auto value = number(*offsetElement, "plane <offset>")) offset = *value;
    } else if (const XmlElement* point = e.child("point")) {
      note(ErrorCode::ELEMENT_DEPRECATED, "plane <point> is deprecated since DART 4.3; use <offset>", point->where);
      if (const auto value = vector3(*point, "plane <point> (x y z)")) offset = geometry.normal.dot(*value);
    }
    planeOffset.translation() = geometry.normal * offset;
  } else if (kind == "multi_sphere") {
    geometry.type = GeometryType::MultiSphere;
    for (const XmlElement* sphereElement : e.childrenNamed("sphere")) {
      const auto radius = requiredNumber(*sphereElement, "radius", "radius");
      const auto position = requiredVector3(*sphereElement, "position", "x y z");
      if (!radius || !position) continue;
      requirePositive(*radius, *sphereElement->child("radius"), "multi_sphere sphere radius");
      geometry.spheres.push_back(Sphere{*radius, *position});
    }
    if (geometry.spheres.empty()) {
      error(ErrorCode::ELEMENT_MISSING, "<multi_sphere> needs at least one <sphere>", e.where);
      return false;
    }
  } else {
    readMesh(e, geometry);
  }
  return true;
}

void Reader::readMesh(const XmlElement& mesh, Geometry& geometry) {
  geometry.type = GeometryType::Mesh;
  const XmlElement* fileName = mesh.child("file_name");
  if (fileName == nullptr) {
    error(ErrorCode::ELEMENT_MISSING, "<mesh> needs a <file_name>", mesh.where);
    return;
  }
  geometry.meshUri = trim(fileName->text);
  if (const XmlElement* scale = mesh.child("scale")) {
    if (const auto value = vector3(*scale, "mesh <scale> (x y z)")) geometry.scale = *value;
  }

  // DART resolves the name relative to the .skel file.
  std::string resolved;
  std::string uri = geometry.meshUri;
  if (uri.rfind("file://", 0) == 0) uri = uri.substr(7);
  if (uri.find("://") == std::string::npos) {
    const std::filesystem::path candidate =
        std::filesystem::path(uri).is_absolute() ? std::filesystem::path(uri) : std::filesystem::path(baseDirectory_) / uri;
    std::error_code ignored;
    if (std::filesystem::is_regular_file(candidate, ignored)) resolved = candidate.lexically_normal().string();
  }
  if (resolved.empty() && host_ != nullptr && host_->resolveUri != nullptr) {
    resolved = host_->resolveUri(host_->context, geometry.meshUri, path_);
  }
  // A missing or refused mesh is reported by the core's mesh check (check/MeshCheck.cpp), as for
  // every format; a refused one is not opened here.
  if (resolved.empty()) return;
  geometry.meshResolvedPath = resolved;
  if (host_ != nullptr && host_->size >= sizeof(plugin::HostServices) && host_->checkPath != nullptr &&
      !host_->checkPath(host_->context, resolved).empty()) {
    return;
  }

  // Measured the way DART 6.12's MeshShape imports it, so that vertex counts and bounds (and the
  // bounding-box inertia DART derives from them) agree; each file once.
  mesh::MeshError problem;
  auto info = meshReader_.measure(resolved, mesh::MeshMeasure::AsDart, problem);
  if (!info) {
    // A warning: kinematics does not need the mesh (an inertia taken from it is an error there).
    warning(problem.code, "mesh '" + resolved + "' could not be read: " + problem.message, fileName->where);
    return;
  }
  geometry.mesh = info;
}

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
        const std::string text = toLower(trim(a->value));
        if (text == "inf" || text == "+inf") {
          *target = std::numeric_limits<double>::infinity();
        } else if (text == "-inf") {
          *target = -std::numeric_limits<double>::infinity();
        } else if (const auto value =
                       parseDouble(a->value, a->where, std::string("<") + name + "> " + attributeName, diagnostics_)) {
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

}  // namespace

bool readSkelFile(const plugin::LoadRequest& request, SkelFile& file, Diagnostics& diagnostics) {
  return Reader(request.path, request.host, diagnostics).read(request.content, file);
}

int sniffSkel(const char* /*path*/, const char* head, std::size_t headSize) {
  const std::string_view text(head, headSize);
  // Only the extension speaks for a file without <skel>: claim it weakly, so that the reader can
  // say what is wrong with it instead of "no parser".
  return text.find("<skel") != std::string_view::npos ? 90 : 10;
}

}  // namespace interlink::skel::detail
