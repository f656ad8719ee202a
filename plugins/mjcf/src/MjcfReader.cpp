// MJCF XML -> MJCF records, following what MuJoCo 2.2.2's compiler does with each attribute
// (src/xml/xml_native_reader.cc and src/user/user_objects.cc of that release): <include> files
// spliced in place, <default> classes looked up through class/childclass, every orientation form
// turned into one quaternion, angles converted to radians, fromto turned into a frame and sizes.
#include "MjcfReader.hpp"

#include "MjcfMass.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "interlink/TextNumbers.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::mjcf {
namespace {

using xml::Attribute;
using xml::XmlElement;
namespace fs = std::filesystem;

// Included bytes spliced into one model, all includes together: a file including another many
// times at every level cannot grow the model exponentially (the include service bounds each file,
// the depth and the number of includes).
constexpr std::uintmax_t kMaxTotalIncludeBytes = 256ull << 20;
constexpr double kPi = 3.14159265358979323846;
constexpr double kEpsilon = 1e-14;  // MuJoCo's mjEPS (mjMINVAL is 1e-15)

SourceLocation locationOf(const XmlElement& e, const Attribute* a) {
  return a && a->where.line > 0 ? a->where : e.where;
}

/// MuJoCo's minimal rotation taking +z onto `vector` (mjuu_z2quat).
Quaternion quaternionFromZAxis(const Vector3& vector) {
  const Vector3 v = vector.normalized();
  Vector3 axis = Vector3::UnitZ().cross(v);
  const double s = axis.norm();
  if (s < 1e-10) {
    axis = Vector3::UnitX();
  } else {
    axis /= s;
  }
  const double angle = std::atan2(s, v.z());
  return Quaternion(std::cos(angle / 2), axis.x() * std::sin(angle / 2), axis.y() * std::sin(angle / 2),
                    axis.z() * std::sin(angle / 2));
}

/// The element kinds <default> holds whose attributes this reader looks up.
bool isDefaultableKind(const std::string& kind) {
  static const std::set<std::string> kinds = {"joint", "geom", "site", "camera", "light", "mesh", "material",
                                              "hfield", "texture", "equality", "tendon", "general", "motor",
                                              "position", "velocity", "intvelocity", "damper", "cylinder",
                                              "muscle", "adhesion", "pair"};
  return kinds.count(kind) > 0;
}

struct DefaultClass {
  std::string parent;
  std::map<std::string, const XmlElement*> elements;  // kind -> the element inside <default>
};

/// One element with the class its attributes fall back to.
struct Element {
  const XmlElement& xml;
  std::string kind;  // "joint", "geom", ... (the defaults kind)
  std::string cls;   // default class
};

class Reader {
 public:
  Reader(const std::string& path, const plugin::HostServices* host, MjcfModel& model, Diagnostics& diagnostics)
      : path_(path), host_(host), model_(model), diagnostics_(diagnostics) {}

  bool read(std::string_view content) {
    auto root = xml::parse(content, path_, diagnostics_);
    if (!root) return false;
    if (root->name != "mujoco") {
      diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                         "an MJCF file must have <mujoco> as its root element, found <" + root->name + ">", root->where);
      return false;
    }
    expandIncludes(*root);
    root_ = std::move(*root);
    model_.name = root_.attributeOr("model", "MuJoCo Model");
    model_.world.where = root_.where;

    // MuJoCo reads the sections in this order whatever their order in the file.
    for (const XmlElement* c : root_.childrenNamed("compiler")) readCompiler(*c);
    classes_["main"] = DefaultClass{};
    for (const XmlElement* d : root_.childrenNamed("default")) {
      readDefault(*d, "", true);
      // Also kept as written: an MJCF writer gives the kept actuators and sensors their classes.
      model_.kept.push_back(KeptElement{"mujoco/default", d->toXml(), d->where});
    }
    for (const XmlElement* a : root_.childrenNamed("asset")) readAssets(*a);
    for (const XmlElement* w : root_.childrenNamed("worldbody")) readBodyContent(*w, model_.world, "main", true);
    if (model_.compiler.globalCoordinates) {
      for (BodyRecord& body : model_.world.children) makeLocal(body, Pose::Identity());
    }
    for (const XmlElement* e : root_.childrenNamed("equality")) readEquality(*e);
    static const std::set<std::string> interpreted = {"compiler", "default", "asset", "worldbody", "equality"};
    static const std::set<std::string> keptSections = {"option", "size", "visual", "statistic", "contact", "tendon",
                                                       "actuator", "sensor", "keyframe", "custom", "extension"};
    for (const XmlElement& c : root_.children) {
      if (interpreted.count(c.name)) continue;
      if (keptSections.count(c.name)) {
        keep(model_.kept, "mujoco/" + c.name, c);
      } else {
        diagnostics_.error(ErrorCode::ELEMENT_INVALID, "unknown element <" + c.name + "> in <mujoco>", c.where);
      }
    }
    return true;
  }

 private:
  // --- includes ---------------------------------------------------------------------------------

  /// Replaces every <include file> below `e` by the children of the included file's <mujoco>.
  void expandIncludes(XmlElement& e) {
    XmlElement::Children children(e.children.get_allocator());
    children.reserve(e.children.size());
    for (XmlElement& c : e.children) {
      if (c.name != "include") {
        expandIncludes(c);
        children.push_back(std::move(c));
        continue;
      }
      for (XmlElement& included : readInclude(c)) children.push_back(std::move(included));
    }
    e.children = std::move(children);
  }

  /// One <include file>, read through the host's include service (its depth, cycle, count and path
  /// policy and file checks). MuJoCo resolves include paths against the main model file's directory.
  std::vector<XmlElement> readInclude(const XmlElement& include) {
    const Attribute* file = include.attribute("file");
    if (!file || trim(file->value).empty()) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<include> needs the attribute 'file'", include.where);
      return {};
    }
    if (!plugin::hostHas(host_, offsetof(plugin::HostServices, endInclude)) || !host_->beginInclude || !host_->endInclude) {
      diagnostics_.error(ErrorCode::FILE_READ,
                         "cannot read included file '" + file->value + "': the host offers no include service",
                         locationOf(include, file));
      return {};
    }
    const std::string requested = (fs::path(path_).parent_path() / file->value).lexically_normal().string();
    plugin::IncludedFile included;
    if (!host_->beginInclude(host_->context, requested, path_, locationOf(include, file), included, diagnostics_)) return {};
    struct EndInclude {
      const plugin::HostServices* host;
      ~EndInclude() { host->endInclude(host->context); }
    } endInclude{host_};
    includedBytes_ += included.content.size();
    if (includedBytes_ > kMaxTotalIncludeBytes) {
      if (!includeBudgetReported_) {  // once, not per include
        diagnostics_.error(ErrorCode::INCLUDE_LIMIT, "the model's includes splice more than 256 MiB in all",
                           locationOf(include, file));
      }
      includeBudgetReported_ = true;
      return {};
    }
    auto root = xml::parse(included.content, included.path, diagnostics_);
    if (!root) return {};
    if (root->name != "mujoco") {
      diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                         "an included MJCF file must have <mujoco> as its root element, found <" + root->name + ">",
                         root->where);
      return {};
    }
    expandIncludes(*root);
    // Moved out: the lists keep the included tree's memory alive (see xml::detail::TreeAllocator).
    return std::vector<XmlElement>(std::make_move_iterator(root->children.begin()),
                                   std::make_move_iterator(root->children.end()));
  }

  // --- attribute access ---------------------------------------------------------------------------

  /// The attribute on the element, else on its default class and the classes above it.
  const Attribute* lookup(const Element& e, const char* name) const {
    if (const Attribute* a = e.xml.attribute(name)) return a;
    std::string cls = e.cls;
    for (std::size_t guard = 0; guard <= classes_.size() && !cls.empty(); ++guard) {
      auto found = classes_.find(cls);
      if (found == classes_.end()) break;
      auto kind = found->second.elements.find(e.kind);
      if (kind != found->second.elements.end()) {
        if (const Attribute* a = kind->second->attribute(name)) return a;
      }
      cls = found->second.parent;
    }
    return nullptr;
  }

  std::string what(const Element& e) const {
    const Attribute* name = e.xml.attribute("name");
    return "<" + e.xml.name + ">" + (name ? " '" + name->value + "'" : std::string());
  }

  std::optional<std::vector<double>> numbers(const Element& e, const char* name, std::vector<std::size_t> counts) {
    const Attribute* a = lookup(e, name);
    if (!a) return std::nullopt;
    return parseDoubles(a->value, locationOf(e.xml, a), std::string(name) + " of " + what(e), diagnostics_,
                        std::move(counts), ErrorCode::ATTRIBUTE_INVALID);
  }

  std::optional<double> number(const Element& e, const char* name) {
    const Attribute* a = lookup(e, name);
    if (!a) return std::nullopt;
    return parseDouble(a->value, locationOf(e.xml, a), std::string(name) + " of " + what(e), diagnostics_);
  }

  std::optional<Vector3> vector3(const Element& e, const char* name) {
    auto v = numbers(e, name, {3});
    if (!v) return std::nullopt;
    return Vector3((*v)[0], (*v)[1], (*v)[2]);
  }

  std::optional<int> integer(const Element& e, const char* name) {
    auto v = number(e, name);
    if (!v) return std::nullopt;
    if (*v != std::floor(*v)) {
      const Attribute* a = lookup(e, name);
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, std::string(name) + " of " + what(e) + " must be an integer",
                         locationOf(e.xml, a));
      return std::nullopt;
    }
    return static_cast<int>(*v);
  }

  /// One of `choices` (the value's index), or nothing after an error naming them.
  std::optional<std::size_t> keyword(const Element& e, const char* name, const std::vector<std::string>& choices) {
    const Attribute* a = lookup(e, name);
    if (!a) return std::nullopt;
    for (std::size_t i = 0; i < choices.size(); ++i) {
      if (a->value == choices[i]) return i;
    }
    std::string expected;
    for (const std::string& c : choices) expected += (expected.empty() ? "'" : ", '") + c + "'";
    diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                       std::string(name) + " of " + what(e) + " is '" + a->value + "'; expected one of " + expected,
                       locationOf(e.xml, a));
    return std::nullopt;
  }

  std::optional<bool> boolean(const Element& e, const char* name) {
    auto v = keyword(e, name, {"false", "true"});
    if (!v) return std::nullopt;
    return *v == 1;
  }

  double angle(double value) const { return model_.compiler.degrees ? value * kPi / 180.0 : value; }

  /// The element's frame orientation from quat, axisangle, xyaxes, zaxis or euler (one at most).
  Quaternion orientation(const Element& e) {
    static const char* forms[] = {"quat", "axisangle", "xyaxes", "zaxis", "euler"};
    const Attribute* given = nullptr;
    const char* form = nullptr;
    for (const char* f : forms) {
      const Attribute* a = lookup(e, f);
      if (!a) continue;
      if (given) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                           what(e) + " gives its orientation twice ('" + form + "' and '" + f + "'); use one",
                           locationOf(e.xml, a));
        continue;
      }
      given = a;
      form = f;
    }
    Quaternion q = Quaternion::Identity();
    if (!given) return q;
    const std::string formName = form;
    const SourceLocation at = locationOf(e.xml, given);
    auto fail = [&](const std::string& message) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, formName + " of " + what(e) + ": " + message, at);
      return Quaternion::Identity();
    };
    if (formName == "quat") {
      auto v = numbers(e, "quat", {4});
      if (!v) return q;
      q = Quaternion((*v)[0], (*v)[1], (*v)[2], (*v)[3]);
      if (q.norm() < kEpsilon) return fail("the quaternion is zero");
      return q.normalized();
    }
    if (formName == "axisangle") {
      auto v = numbers(e, "axisangle", {4});
      if (!v) return q;
      Vector3 axis((*v)[0], (*v)[1], (*v)[2]);
      if (axis.norm() < kEpsilon) return fail("the axis is too small");
      return Quaternion(Eigen::AngleAxisd(angle((*v)[3]), axis.normalized()));
    }
    if (formName == "xyaxes") {
      auto v = numbers(e, "xyaxes", {6});
      if (!v) return q;
      Vector3 x((*v)[0], (*v)[1], (*v)[2]), y((*v)[3], (*v)[4], (*v)[5]);
      if (x.norm() < kEpsilon) return fail("the x axis is too small");
      x.normalize();
      y -= x * x.dot(y);
      if (y.norm() < kEpsilon) return fail("the y axis is too small or parallel to x");
      y.normalize();
      Matrix3 r;
      r.col(0) = x;
      r.col(1) = y;
      r.col(2) = x.cross(y).normalized();
      return Quaternion(r).normalized();
    }
    if (formName == "zaxis") {
      auto v = vector3(e, "zaxis");
      if (!v) return q;
      if (v->norm() < kEpsilon) return fail("the z axis is too small");
      return quaternionFromZAxis(*v);
    }
    auto v = numbers(e, "euler", {3});
    if (!v) return q;
    const std::string& sequence = model_.compiler.eulerSequence;
    for (int i = 0; i < 3; ++i) {
      const char axisName = static_cast<char>(std::tolower(static_cast<unsigned char>(sequence[i])));
      const Vector3 axis = axisName == 'x' ? Vector3::UnitX() : axisName == 'y' ? Vector3::UnitY() : Vector3::UnitZ();
      const Quaternion r(Eigen::AngleAxisd(angle((*v)[i]), axis));
      // Lower case: axes that move with the frame (post-multiply); upper case: fixed axes.
      q = std::islower(static_cast<unsigned char>(sequence[i])) ? q * r : r * q;
    }
    return q.normalized();
  }

  /// pos + orientation of a body, site, geom, camera or inertial frame.
  Pose frame(const Element& e) {
    Pose pose = Pose::Identity();
    pose.linear() = orientation(e).toRotationMatrix();
    pose.translation() = vector3(e, "pos").value_or(Vector3::Zero());
    return pose;
  }

  std::string className(const XmlElement& e, const std::string& inherited) {
    const Attribute* cls = e.attribute("class");
    if (!cls) return inherited;
    if (!classes_.count(cls->value)) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "<" + e.name + "> names the unknown default class '" + cls->value + "'",
                         locationOf(e, cls));
      return inherited;
    }
    return cls->value;
  }

  void keep(std::vector<KeptElement>& kept, const std::string& path, const XmlElement& e) {
    kept.push_back(KeptElement{path, e.toXml(), e.where});
    // Reported once per kind of element, never dropped silently.
    if (reportedKinds_.insert(e.name).second) {
      diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                           "<" + e.name + "> is kept as data but not interpreted by Interlink (reported once)", e.where);
    }
  }

  /// Name (as written), MuJoCo id (the next of its kind) and location of a record; a name used
  /// twice within one kind is an error, as in MuJoCo.
  template <class Record>
  void identify(Record& record, const XmlElement& e, int& counter, std::set<std::string>& names, const char* kind) {
    record.name = e.attributeOr("name", "");
    record.id = counter++;
    record.where = e.where;
    if (!record.name.empty() && !names.insert(record.name).second) {
      diagnostics_.error(ErrorCode::DUPLICATE_NAME, std::string(kind) + " name '" + record.name + "' is used twice",
                         locationOf(e, e.attribute("name")));
    }
  }

  // --- sections -----------------------------------------------------------------------------------

  void readCompiler(const XmlElement& c) {
    Compiler& compiler = model_.compiler;
    const Element e{c, "compiler", ""};
    if (auto v = keyword(e, "angle", {"radian", "degree"})) compiler.degrees = *v == 1;
    if (const Attribute* a = c.attribute("eulerseq")) {
      const bool valid = a->value.size() == 3 && a->value.find_first_not_of("xyzXYZ") == std::string::npos;
      if (valid) {
        compiler.eulerSequence = a->value;
      } else {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                           "eulerseq of <compiler> is '" + a->value + "'; expected 3 of x, y, z, X, Y, Z",
                           locationOf(c, a));
      }
    }
    if (auto v = keyword(e, "inertiafromgeom", {"false", "true", "auto"})) {
      compiler.inertiaFromGeom = static_cast<InertiaFromGeom>(*v);
    }
    if (auto v = numbers(e, "inertiagrouprange", {2})) {
      compiler.inertiaGroupLow = static_cast<int>((*v)[0]);
      compiler.inertiaGroupHigh = static_cast<int>((*v)[1]);
    }
    if (auto v = number(e, "boundmass")) compiler.boundMass = *v;
    if (auto v = number(e, "boundinertia")) compiler.boundInertia = *v;
    if (auto v = number(e, "settotalmass")) compiler.setTotalMass = *v;
    if (auto v = boolean(e, "balanceinertia")) compiler.balanceInertia = *v;
    if (auto v = boolean(e, "autolimits")) compiler.autoLimits = *v;
    if (auto v = boolean(e, "exactmeshinertia")) compiler.exactMeshInertia = *v;
    if (auto v = boolean(e, "fitaabb")) compiler.fitAabb = *v;
    if (auto v = boolean(e, "convexhull")) compiler.convexHull = *v;
    if (auto v = keyword(e, "coordinate", {"local", "global"})) compiler.globalCoordinates = *v == 1;
    if (auto v = boolean(e, "fusestatic"); v && *v) {
      diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                           "<compiler fusestatic=\"true\">: Interlink keeps static bodies as links (MuJoCo fuses them)",
                           locationOf(c, c.attribute("fusestatic")));
    }
    const fs::path base = fs::path(path_).parent_path();
    if (const Attribute* a = c.attribute("assetdir")) {
      compiler.meshDir = compiler.textureDir = (base / a->value).lexically_normal().string();
    }
    if (const Attribute* a = c.attribute("meshdir")) compiler.meshDir = (base / a->value).lexically_normal().string();
    if (const Attribute* a = c.attribute("texturedir")) compiler.textureDir = (base / a->value).lexically_normal().string();
  }

  void readDefault(const XmlElement& d, const std::string& parent, bool topLevel) {
    std::string name = "main";
    if (const Attribute* cls = d.attribute("class")) {
      name = cls->value;
    } else if (!topLevel) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "a nested <default> needs the attribute 'class'", d.where);
      return;
    }
    if (name != "main" || !topLevel) {
      if (classes_.count(name)) {
        diagnostics_.error(ErrorCode::DUPLICATE_NAME, "default class '" + name + "' is defined twice", d.where);
        return;
      }
      classes_[name].parent = parent;
    }
    for (const XmlElement& c : d.children) {
      if (c.name == "default") {
        readDefault(c, name, false);
      } else if (isDefaultableKind(c.name)) {
        if (!classes_[name].elements.emplace(c.name, &c).second) {
          diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                             "default class '" + name + "' has a second <" + c.name + ">", c.where);
        }
      } else {
        diagnostics_.error(ErrorCode::ELEMENT_INVALID, "unknown element <" + c.name + "> in <default>", c.where);
      }
    }
  }

  struct MeshAsset {
    std::string file;
    std::string resolved;
    Vector3 scale = Vector3::Ones();
    std::optional<MeshInertia> inertia;  // when the mesh compiled and can give a mass
    std::string problem;                 // else MuJoCo's reason, for the geoms that need its mass
    bool hull = true;                    // qhull builds the vertices' convex hull
    SourceLocation where;
  };

  void readAssets(const XmlElement& asset) {
    for (const XmlElement& c : asset.children) {
      if (c.name != "mesh" && c.name != "hfield") {
        if (c.name != "texture" && c.name != "material") {
          diagnostics_.error(ErrorCode::ELEMENT_INVALID, "unknown element <" + c.name + "> in <asset>", c.where);
        }
        continue;  // textures and materials are appearance; geoms keep their material name
      }
      const Element e{c, c.name, className(c, "main")};
      const Attribute* file = lookup(e, "file");
      std::string name = c.attributeOr("name", "");
      if (name.empty() && file) name = fs::path(file->value).stem().string();
      if (name.empty()) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<" + c.name + "> needs a 'name' or a 'file'", c.where);
        continue;
      }
      MeshAsset mesh;
      mesh.where = c.where;
      if (file) {
        mesh.file = file->value;
        const std::string& dir = model_.compiler.meshDir.empty() ? fs::path(path_).parent_path().string() : model_.compiler.meshDir;
        const fs::path resolved = fs::path(file->value).is_absolute() ? fs::path(file->value) : fs::path(dir) / file->value;
        std::error_code ec;
        if (fs::is_regular_file(resolved, ec)) {
          mesh.resolved = resolved.lexically_normal().string();
        } else {
          // MuJoCo compiles the asset, so a missing file refuses the model there too.
          diagnostics_.error(ErrorCode::URI_LOOKUP, c.name + " file '" + file->value + "' not found (looked for " +
                                                        resolved.lexically_normal().string() + ")", locationOf(c, file));
        }
      }
      if (auto s = vector3(e, "scale")) mesh.scale = *s;
      if (c.name == "mesh") compileMesh(e, mesh);
      auto& table = c.name == "mesh" ? meshes_ : hfields_;
      if (!table.emplace(name, mesh).second) {
        diagnostics_.error(ErrorCode::DUPLICATE_NAME, c.name + " asset '" + name + "' is defined twice", c.where);
      }
    }
  }

  /// MuJoCo compiles every mesh asset: its triangles (file or inline vertex/face) must load, else
  /// the model is refused. Whether the mesh can give a mass is only known, and only matters, when a
  /// geom takes its mass from it.
  void compileMesh(const Element& e, MeshAsset& mesh) {
    std::optional<MeshTriangles> triangles;
    std::string error;
    if (!mesh.resolved.empty()) {
      triangles = readMeshFile(mesh.resolved, mesh.scale, error);
      if (!triangles) {
        diagnostics_.error(ErrorCode::FILE_READ, "mesh file '" + mesh.file + "': " + error, locationOf(e.xml, lookup(e, "file")));
        return;
      }
    } else if (!mesh.file.empty()) {
      return;  // not found: reported above
    }
    auto inlineValues = [&](const char* name, std::size_t least) -> std::optional<std::vector<double>> {
      auto values = numbers(e, name, {});
      if (values && (values->size() % 3 != 0 || values->size() < least)) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, std::string(name) + " of " + what(e) + " needs a multiple of 3 numbers" +
                                                             (least ? " (4 vertices at least)" : ""),
                           locationOf(e.xml, lookup(e, name)));
        return std::nullopt;
      }
      return values;
    };
    const auto vertices = inlineValues("vertex", 12);
    const auto faces = inlineValues("face", 0);
    if ((vertices && triangles) || (faces && triangles)) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, what(e) + " has both a file and inline vertex or face data", e.xml.where);
      return;
    }
    if (!triangles) {
      if (!vertices) {
        if (!lookup(e, "vertex")) diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, what(e) + " needs a 'file' or 'vertex'", e.xml.where);
        return;
      }
      triangles.emplace();
      for (double v : *vertices) triangles->vertices.push_back(static_cast<float>(v));
      const int count = static_cast<int>(vertices->size() / 3);
      for (double f : faces.value_or(std::vector<double>{})) {
        if (f != std::floor(f) || f < 0 || f >= count) {
          diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "face of " + what(e) + " names a vertex that does not exist",
                             locationOf(e.xml, lookup(e, "face")));
          return;
        }
        triangles->faces.push_back(static_cast<int>(f));
      }
    }
    // MuJoCo builds the hull for colliding geoms (marked later, see readGeom) and for a mesh without faces.
    mesh.hull = convexHull(*triangles);
    if (!mesh.hull && triangles->faces.empty()) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                         what(e) + " has no faces and its vertices have no convex hull (qhull fails: flat or too few)",
                         e.xml.where);
      return;
    }
    Vector3 refPos = vector3(e, "refpos").value_or(Vector3::Zero());
    Quaternion refQuat = Quaternion::Identity();
    if (auto q = numbers(e, "refquat", {4})) refQuat = Quaternion((*q)[0], (*q)[1], (*q)[2], (*q)[3]);
    const double density = number(Element{e.xml, "geom", e.cls}, "density").value_or(1000);
    mesh.inertia = meshInertia(std::move(*triangles), mesh.scale, refPos, refQuat, density,
                               model_.compiler.exactMeshInertia, mesh.problem);
  }

  // --- bodies -------------------------------------------------------------------------------------

  /// Everything inside <worldbody> or a <body>: its joints, geoms, sites, cameras, inertial and
  /// child bodies. `cls` is the childclass in force.
  void readBodyContent(const XmlElement& xml, BodyRecord& body, const std::string& cls, bool isWorld) {
    for (const XmlElement& c : xml.children) {
      if (c.name == "body") {
        BodyRecord child;
        readBody(c, child, cls);
        body.children.push_back(std::move(child));
      } else if (c.name == "geom") {
        readGeom(Element{c, "geom", className(c, cls)}, body);
      } else if (c.name == "site") {
        readSite(Element{c, "site", className(c, cls)}, body);
      } else if (c.name == "camera") {
        FrameRecord camera;
        const Element e{c, "camera", className(c, cls)};
        identify(camera, c, model_.cameraCount, cameraNames_, "camera");
        camera.pose = frame(e);
        body.cameras.push_back(std::move(camera));
      } else if (!isWorld && (c.name == "joint" || c.name == "freejoint")) {
        readJoint(Element{c, "joint", c.name == "joint" ? className(c, cls) : std::string()}, body);
      } else if (!isWorld && c.name == "inertial") {
        readInertial(Element{c, "inertial", ""}, body);
      } else if (c.name == "light") {
        keep(body.kept, "body/light", c);
      } else if (c.name == "composite") {
        // A composite generates bodies, joints and tendons by MuJoCo's own rules.
        diagnostics_.error(ErrorCode::ELEMENT_UNSUPPORTED,
                           "<composite> (bodies generated by MuJoCo) is not supported by Interlink", c.where);
      } else {
        diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                           "unknown element <" + c.name + "> in <" + xml.name + ">; expected body, joint, freejoint, "
                           "geom, site, camera, light or inertial", c.where);
      }
    }
  }

  void readBody(const XmlElement& xml, BodyRecord& body, const std::string& inherited) {
    identify(body, xml, model_.bodyCount, bodyNames_, "body");
    if (body.name == "world") {
      diagnostics_.error(ErrorCode::RESERVED_NAME, "body name 'world' is reserved for the world body",
                         locationOf(xml, xml.attribute("name")));
    }
    std::string cls = inherited;
    if (const Attribute* childclass = xml.attribute("childclass")) {
      if (classes_.count(childclass->value)) {
        cls = childclass->value;
      } else {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                           "<body> names the unknown default class '" + childclass->value + "' as childclass",
                           locationOf(xml, childclass));
      }
    }
    body.pose = frame(Element{xml, "body", ""});
    if (model_.compiler.globalCoordinates && !xml.attribute("pos")) unplaced_.insert(body.id);
    readBodyContent(xml, body, cls, false);
  }

  /// <compiler coordinate="global">: every frame was read in world coordinates; make each relative
  /// to its body, and each body relative to its parent, as MuJoCo's MakeLocal does. A body without
  /// pos takes its inertial frame (given, or from its geoms) as its own frame.
  void makeLocal(BodyRecord& body, const Pose& parentGlobal) {
    Pose global = body.pose;
    // MuJoCo weighs the geoms in world coordinates; its principal axes (mju_eig3, which stops early)
    // then depend on that frame, so the mass is computed here, before the geoms move to the body.
    const InertiaFromGeom fromGeom = model_.compiler.inertiaFromGeom;
    std::optional<MassProperties> geoms;
    const bool weighGeoms = fromGeom == InertiaFromGeom::True || (!body.inertial && fromGeom == InertiaFromGeom::Auto);
    if (weighGeoms) {
      const bool anyGeom = std::any_of(body.geoms.begin(), body.geoms.end(), [&](const GeomRecord& g) {
        return g.group >= model_.compiler.inertiaGroupLow && g.group <= model_.compiler.inertiaGroupHigh;
      });
      if (anyGeom) geoms = geomFrame(body.geoms, model_.compiler);
    }
    if (unplaced_.count(body.id)) {
      if (geoms) {
        global = geoms->frame;
      } else if (body.inertial && !weighGeoms) {
        global = body.inertial->frame;
      } else {
        diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING,
                           "with <compiler coordinate=\"global\"> a <body> needs a pos, an <inertial> or geoms to take its "
                           "frame from",
                           body.where);
      }
    }
    const Pose toBody = global.inverse();
    body.pose = parentGlobal.inverse() * global;
    for (GeomRecord& g : body.geoms) g.pose = toBody * g.pose;
    for (FrameRecord& site : body.sites) site.pose = toBody * site.pose;
    for (FrameRecord& camera : body.cameras) camera.pose = toBody * camera.pose;
    for (JointRecord& joint : body.joints) {
      if (joint.kind != JointKind::Free) joint.pos = toBody * joint.pos;
      joint.axis = toBody.linear() * joint.axis;
    }
    if (geoms) {
      InertialRecord weighed;
      weighed.frame = toBody * geoms->frame;
      weighed.mass = geoms->mass;
      weighed.inertia = geoms->inertia;
      weighed.fromGeoms = true;
      weighed.where = body.where;
      body.inertial = weighed;
    } else if (body.inertial) {
      body.inertial->frame = toBody * body.inertial->frame;
    }
    for (BodyRecord& child : body.children) makeLocal(child, global);
  }

  void readJoint(const Element& e, BodyRecord& body) {
    JointRecord joint;
    identify(joint, e.xml, model_.jointCount, jointNames_, "joint");
    if (e.xml.name == "freejoint") {
      joint.kind = JointKind::Free;
      body.joints.push_back(std::move(joint));
      return;
    }
    if (auto v = keyword(e, "type", {"free", "ball", "slide", "hinge"})) {
      static const JointKind kinds[] = {JointKind::Free, JointKind::Ball, JointKind::Slide, JointKind::Hinge};
      joint.kind = kinds[*v];
    }
    joint.pos = vector3(e, "pos").value_or(Vector3::Zero());
    if (auto axis = vector3(e, "axis")) {
      if (axis->norm() < kEpsilon) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "axis of " + what(e) + " is zero",
                           locationOf(e.xml, lookup(e, "axis")));
      } else {
        joint.axis = axis->normalized();
      }
    }
    const bool angular = joint.kind == JointKind::Hinge || joint.kind == JointKind::Ball;
    auto value = [&](const char* name) {
      const double v = number(e, name).value_or(0.0);
      return angular ? angle(v) : v;
    };
    joint.ref = joint.kind == JointKind::Ball ? 0.0 : value("ref");
    joint.springRef = joint.kind == JointKind::Ball ? 0.0 : value("springref");
    joint.stiffness = number(e, "stiffness").value_or(0.0);
    joint.damping = number(e, "damping").value_or(0.0);
    joint.armature = number(e, "armature").value_or(0.0);
    joint.frictionLoss = number(e, "frictionloss").value_or(0.0);
    double range[2] = {0, 0};
    if (auto r = numbers(e, "range", {2})) {
      range[0] = angular ? angle((*r)[0]) : (*r)[0];
      range[1] = angular ? angle((*r)[1]) : (*r)[1];
    }
    const bool hasRange = !(range[0] == 0 && range[1] == 0);
    const std::optional<std::size_t> limited = keyword(e, "limited", {"false", "true", "auto"});
    if (!limited || *limited == 2) {
      if (hasRange && !model_.compiler.autoLimits) {
        // MuJoCo 2.2.2 refuses the ambiguity rather than guessing.
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                           what(e) + " has a range but 'limited' is auto; set limited=\"true\" or "
                           "<compiler autolimits=\"true\">", locationOf(e.xml, lookup(e, "range")));
      }
      joint.limited = hasRange;
    } else {
      joint.limited = *limited == 1;
    }
    if (joint.limited) {
      if (range[0] >= range[1] && joint.kind != JointKind::Ball) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "range of " + what(e) + " is empty (lower >= upper)",
                           locationOf(e.xml, lookup(e, "range")));
      }
      joint.lower = range[0];
      joint.upper = range[1];
    }
    body.joints.push_back(std::move(joint));
  }

  void readInertial(const Element& e, BodyRecord& body) {
    if (body.inertial) {
      diagnostics_.error(ErrorCode::ELEMENT_INVALID, "<body> has a second <inertial>", e.xml.where);
      return;
    }
    InertialRecord inertial;
    inertial.where = e.xml.where;
    if (!e.xml.attribute("pos")) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<inertial> needs the attribute 'pos'", e.xml.where);
    }
    inertial.frame = frame(e);
    if (auto mass = number(e, "mass")) {
      inertial.mass = *mass;
    } else if (!e.xml.attribute("mass")) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<inertial> needs the attribute 'mass'", e.xml.where);
    }
    const bool diagonal = e.xml.attribute("diaginertia") != nullptr;
    const bool full = e.xml.attribute("fullinertia") != nullptr;
    if (diagonal == full) {
      diagnostics_.error(diagonal ? ErrorCode::ATTRIBUTE_INVALID : ErrorCode::ATTRIBUTE_MISSING,
                         "<inertial> needs exactly one of 'diaginertia' and 'fullinertia'", e.xml.where);
    }
    if (diagonal) {
      if (auto d = vector3(e, "diaginertia")) inertial.inertia = d->asDiagonal();
    } else if (full) {
      if (auto f = numbers(e, "fullinertia", {6})) {
        const auto& v = *f;  // ixx iyy izz ixy ixz iyz
        inertial.inertia << v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2];
        // MuJoCo stores principal moments about its own (approximate) principal axes.
        const PrincipalAxes principal = principalAxesAsMujoco(inertial.inertia);
        inertial.frame.linear() = principal.axes;
        inertial.inertia = principal.moments.asDiagonal();
        if (e.xml.attribute("quat") || e.xml.attribute("axisangle") || e.xml.attribute("xyaxes") ||
            e.xml.attribute("zaxis") || e.xml.attribute("euler")) {
          diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "<inertial> with 'fullinertia' cannot also give an orientation",
                             e.xml.where);
        }
      }
    }
    // A negative mass is not refused here: MuJoCo raises it to <compiler boundmass> (0 by default)
    // first; what is still invalid then is the core inertia check's (check/InertiaCheck.cpp).
    body.inertial = inertial;
  }

  /// fromto: the frame sits at the midpoint with +z along (from - to), as MuJoCo places it.
  bool applyFromTo(const Element& e, Pose& pose, Vector3& size, bool boxLike) {
    auto v = numbers(e, "fromto", {6});
    if (!v) return false;
    if (e.xml.attribute("pos")) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, what(e) + " gives both 'pos' and 'fromto'",
                         locationOf(e.xml, e.xml.attribute("pos")));
    }
    const Vector3 from((*v)[0], (*v)[1], (*v)[2]), to((*v)[3], (*v)[4], (*v)[5]);
    const Vector3 direction = from - to;
    const double halfLength = direction.norm() / 2;
    if (halfLength < kEpsilon) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "fromto points of " + what(e) + " are too close",
                         locationOf(e.xml, lookup(e, "fromto")));
      return false;
    }
    if (boxLike) {
      size[2] = halfLength;
      size[1] = size[0];
    } else {
      size[1] = halfLength;
    }
    pose = Pose::Identity();
    pose.translation() = (from + to) / 2;
    pose.linear() = quaternionFromZAxis(direction).toRotationMatrix();
    return true;
  }

  void readGeom(const Element& e, BodyRecord& body) {
    GeomRecord geom;
    identify(geom, e.xml, model_.geomCount, geomNames_, "geom");
    static const std::vector<std::string> types = {"plane", "hfield", "sphere", "capsule", "ellipsoid",
                                                   "cylinder", "box", "mesh"};
    geom.typeName = types[keyword(e, "type", types).value_or(2)];
    if (auto s = numbers(e, "size", {1, 2, 3})) {
      for (std::size_t i = 0; i < s->size(); ++i) geom.size[static_cast<int>(i)] = (*s)[i];
    }
    const bool boxLike = geom.typeName == "box" || geom.typeName == "ellipsoid";
    const bool fromTo = lookup(e, "fromto") != nullptr;
    if (fromTo && !boxLike && geom.typeName != "capsule" && geom.typeName != "cylinder") {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                         "fromto of " + what(e) + " needs a capsule, cylinder, box or ellipsoid, not a " + geom.typeName,
                         locationOf(e.xml, lookup(e, "fromto")));
    } else if (!fromTo || !applyFromTo(e, geom.pose, geom.size, boxLike)) {
      geom.pose = frame(e);
    }
    if (geom.typeName != "mesh" && geom.typeName != "plane" && geom.typeName != "hfield") fitToMesh(e, geom);
    if (auto m = number(e, "mass")) geom.mass = *m;
    if (auto d = number(e, "density")) geom.density = *d;
    geom.group = integer(e, "group").value_or(0);
    geom.contype = integer(e, "contype").value_or(1);
    geom.conaffinity = integer(e, "conaffinity").value_or(1);
    if (auto c = numbers(e, "rgba", {4})) geom.rgba = Eigen::Vector4d((*c)[0], (*c)[1], (*c)[2], (*c)[3]);
    if (const Attribute* m = lookup(e, "material")) geom.material = m->value;
    if ((geom.mass && *geom.mass < 0) || geom.density < 0) {
      diagnostics_.error(ErrorCode::LINK_INERTIA_INVALID, "mass or density of " + what(e) + " is negative", e.xml.where);
    }

    // Sizes each type needs (MuJoCo's checksize): positive half-sizes.
    const Vector3& s = geom.size;
    Geometry& g = geom.geometry;
    auto needPositive = [&](int count) {
      for (int i = 0; i < count; ++i) {
        if (!(s[i] > 0)) {
          diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                             "size of " + what(e) + " (a " + geom.typeName + ") needs " + std::to_string(count) +
                                 " positive values", locationOf(e.xml, lookup(e, "size")));
          return;
        }
      }
    };
    if (geom.typeName == "sphere") {
      needPositive(1);
      g.type = GeometryType::Sphere;
      g.radius = s[0];
    } else if (geom.typeName == "capsule" || geom.typeName == "cylinder") {
      needPositive(2);
      g.type = geom.typeName == "capsule" ? GeometryType::Capsule : GeometryType::Cylinder;
      g.radius = s[0];
      g.length = 2 * s[1];
    } else if (geom.typeName == "box") {
      needPositive(3);
      g.type = GeometryType::Box;
      g.size = 2 * s;
    } else if (geom.typeName == "ellipsoid") {
      needPositive(3);
      g.type = GeometryType::Ellipsoid;
      g.radii = s;
    } else if (geom.typeName == "plane") {
      g.type = GeometryType::Plane;
      g.normal = Vector3::UnitZ();
      g.planeSize = Eigen::Vector2d(2 * s[0], 2 * s[1]);  // 0: infinite, as MuJoCo draws it
      if (body.id != 0) {
        diagnostics_.error(ErrorCode::ELEMENT_INVALID, "plane " + what(e) + " must be in <worldbody> (planes are static)",
                           e.xml.where);
      }
    } else {
      const bool mesh = geom.typeName == "mesh";
      const char* reference = mesh ? "mesh" : "hfield";
      g.type = mesh ? GeometryType::Mesh : GeometryType::Heightmap;
      const Attribute* asset = lookup(e, reference);
      const auto& table = mesh ? meshes_ : hfields_;
      if (!asset) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, what(e) + " of type " + geom.typeName + " needs the attribute '" +
                                                             reference + "'", e.xml.where);
      } else if (auto found = table.find(asset->value); found == table.end()) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, what(e) + " names the unknown " + reference + " '" + asset->value + "'",
                           locationOf(e.xml, asset));
      } else {
        g.meshUri = found->second.file;
        g.meshResolvedPath = found->second.resolved;
        g.scale = found->second.scale;
        geom.meshInertia = found->second.inertia;
        geom.meshProblem = found->second.problem;
        // MuJoCo builds the convex hull of every mesh a colliding geom uses, and qhull fails on flat ones.
        if (!found->second.hull && model_.compiler.convexHull && (geom.contype != 0 || geom.conaffinity != 0)) {
          diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                             what(e) + " collides with mesh '" + asset->value +
                                 "', whose vertices are flat: MuJoCo's convex hull (qhull) cannot be built; set "
                                 "contype and conaffinity to 0 or <compiler convexhull=\"false\">",
                             locationOf(e.xml, asset));
        }
      }
    }
    body.geoms.push_back(std::move(geom));
  }

  /// A primitive geom naming a mesh takes the shape of the mesh's equivalent inertia box (MuJoCo's
  /// FitGeom), scaled by fitscale, at the mesh's centre and principal axes.
  void fitToMesh(const Element& e, GeomRecord& geom) {
    const Attribute* name = lookup(e, "mesh");
    if (!name) return;
    auto found = meshes_.find(name->value);
    if (found == meshes_.end()) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, what(e) + " names the unknown mesh '" + name->value + "'",
                         locationOf(e.xml, name));
      return;
    }
    if (lookup(e, "fromto")) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "fromto cannot be used with a mesh in " + what(e),
                         locationOf(e.xml, lookup(e, "fromto")));
      return;
    }
    if (model_.compiler.fitAabb) {
      diagnostics_.error(ErrorCode::ELEMENT_UNSUPPORTED,
                         what(e) + " is fitted to a mesh's bounding box (<compiler fitaabb=\"true\">), which Interlink "
                                   "does not compute; fitting to the inertia box is supported",
                         locationOf(e.xml, name));
      return;
    }
    const auto& inertia = found->second.inertia;
    if (!inertia) {
      diagnostics_.error(ErrorCode::LINK_INERTIA_INVALID,
                         what(e) + " cannot be fitted to mesh '" + name->value + "': " + found->second.problem,
                         locationOf(e.xml, name));
      return;
    }
    const Vector3& b = inertia->box;
    Vector3& size = geom.size;
    if (geom.typeName == "sphere") {
      size[0] = (b[0] + b[1] + b[2]) / 3;
    } else if (geom.typeName == "capsule") {
      size[0] = (b[0] + b[1]) / 2;
      size[1] = std::max(0.0, b[2] - size[0] / 2);
    } else if (geom.typeName == "cylinder") {
      size[0] = (b[0] + b[1]) / 2;
      size[1] = b[2];
    } else {
      size = b;
    }
    size *= number(e, "fitscale").value_or(1);
    geom.pose = geom.pose * inertia->frame;
  }

  void readSite(const Element& e, BodyRecord& body) {
    FrameRecord site;
    identify(site, e.xml, model_.siteCount, siteNames_, "site");
    const std::string type = e.xml.attributeOr("type", "sphere");
    Vector3 size = Vector3::Zero();
    if (!lookup(e, "fromto") || !applyFromTo(e, site.pose, size, type == "box" || type == "ellipsoid")) {
      site.pose = frame(e);
    }
    body.sites.push_back(std::move(site));
  }

  // --- equality -----------------------------------------------------------------------------------

  void readEquality(const XmlElement& section) {
    for (const XmlElement& c : section.children) {
      if (c.name != "weld" && c.name != "connect") {
        keep(model_.kept, "mujoco/equality/" + c.name, c);
        continue;
      }
      const Element e{c, "equality", className(c, "main")};
      EqualityRecord eq;
      eq.kind = c.name == "weld" ? EqualityKind::Weld : EqualityKind::Connect;
      identify(eq, c, model_.equalityCount, equalityNames_, "equality");
      eq.body1 = c.attributeOr("body1", "");
      eq.body2 = c.attributeOr("body2", "");
      if (eq.body1.empty()) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<" + c.name + "> needs the attribute 'body1'", c.where);
        continue;
      }
      for (const std::string* b : {&eq.body1, &eq.body2}) {
        if (!b->empty() && *b != "world" && !bodyNames_.count(*b)) {
          diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "<" + c.name + "> names the unknown body '" + *b + "'", c.where);
        }
      }
      if (eq.body2 == "world") eq.body2.clear();
      if (eq.kind == EqualityKind::Connect) {
        if (auto anchor = vector3(e, "anchor")) {
          eq.anchor = *anchor;
        } else {
          diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<connect> needs the attribute 'anchor'", c.where);
        }
      }
      model_.equalities.push_back(std::move(eq));
    }
  }


  std::string path_;
  const plugin::HostServices* host_;
  MjcfModel& model_;
  Diagnostics& diagnostics_;
  XmlElement root_;
  bool includeBudgetReported_ = false;
  std::uintmax_t includedBytes_ = 0;
  std::map<std::string, DefaultClass> classes_;
  std::map<std::string, MeshAsset> meshes_, hfields_;
  std::set<std::string> bodyNames_, jointNames_, geomNames_, siteNames_, cameraNames_, equalityNames_;
  std::set<std::string> reportedKinds_;
  std::set<int> unplaced_;  // bodies without pos under coordinate="global" (makeLocal)
};

}  // namespace

bool readMjcf(std::string_view content, const std::string& path, const plugin::HostServices* host, MjcfModel& model,
              Diagnostics& diagnostics) {
  return Reader(path, host, model, diagnostics).read(content);
}

}  // namespace interlink::mjcf
