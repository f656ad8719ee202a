// Core-model JSON -> records. Every member the writer writes is expected, with its JSON type; a
// missing or mistyped member is an error at the object or the value (line:column), an unknown one
// a warning, and reading goes on so that every problem is reported at once.
#include "CoreModelReader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "JsonDocument.hpp"
#include "interlink/model/JointType.hpp"

namespace interlink::core_model {
namespace {

using json::JsonDocument;

constexpr double kInfinity = std::numeric_limits<double>::infinity();
/// How far a recorded rotation may be from a rotation, and from its recorded quaternion.
constexpr double kRotationTolerance = 1e-9;

class Reader;

/// One JSON object being read: members are taken by name, and the ones never taken are reported
/// as unknown when the object is done.
class Object {
 public:
  Object(Reader& reader, const json_t* value, std::string what) : reader_(reader), value_(value), what_(std::move(what)) {}
  ~Object();
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  /// The member `key`, or null with an error naming what was expected.
  const json_t* member(const char* key, std::string_view expected);
  /// The member `key`, or null without a word: members files written before it existed lack.
  const json_t* optionalMember(const char* key) {
    taken_.insert(key);
    return json_object_get(value_, key);
  }
  /// Marks `key` as known without reading it (derived data the reader recomputes).
  void skip(const char* key) { taken_.insert(key); }

  void text(const char* key, std::string& out);
  /// `nullMeans`: the value null stands for (infinite limits); none: null is an error.
  void real(const char* key, double& out, std::optional<double> nullMeans = std::nullopt);
  void flag(const char* key, bool& out);
  void count(const char* key, std::size_t& out);
  void vector3(const char* key, Vector3& out);
  void reals(const char* key, double* out, std::size_t size, std::string_view expected);
  void realList(const char* key, std::vector<double>& out);
  void pose(const char* key, SemanticPose& out) { transform(key, out.pose, &out.relativeTo); }
  /// A pose object; with `relativeTo`, one that names its frame too.
  void transform(const char* key, Pose& out, std::string* relativeTo = nullptr);
  void where(SourceLocation& out);
  /// Calls `read(element, index)` for every element of the array `key`.
  template <typename Read>
  void each(const char* key, std::string_view expected, Read read);

  /// The object or null under `key` (`expected` names it): when it is an object, `read` gets it,
  /// named by `what` (given the object, for names it holds).
  template <typename Describe, typename Read>
  void objectOrNull(const char* key, std::string_view expected, Describe what, Read read);
  const json_t* value() const { return value_; }
  const std::string& what() const { return what_; }

 private:
  Reader& reader_;
  const json_t* value_;
  std::string what_;
  std::set<std::string, std::less<>> taken_;
};

std::string describe(std::string_view kind, const json_t* object, std::size_t index);

class Reader {
 public:
  Reader(const JsonDocument& json, Diagnostics& diagnostics) : json_(json), diagnostics_(diagnostics) {}

  void error(ErrorCode code, const std::string& message, const SourceLocation& where) {
    diagnostics_.error(code, message, where);
  }
  void warning(ErrorCode code, const std::string& message, const SourceLocation& where) {
    diagnostics_.warning(code, message, where);
  }
  SourceLocation where(const json_t* value) const { return json_.where(value); }
  SourceLocation where(const json_t* object, const char* key) const { return json_.where(object, key); }
  /// Checks that `value` is of `type`; reports what was expected otherwise.
  bool expect(const json_t* value, json_type type, const Object& in, const char* key, std::string_view expected) {
    const bool ok = json_typeof(value) == type || (type == JSON_REAL && json_is_number(value)) ||
                    (type == JSON_TRUE && json_is_boolean(value));
    if (!ok) {
      error(ErrorCode::ATTRIBUTE_INCORRECT_TYPE,
            "'" + std::string(key) + "' of " + in.what() + " is " + ::interlink::json::describeKind(value) + ", expected " +
                std::string(expected),
            where(in.value(), key));
    }
    return ok;
  }

  void document(const json_t* root, Document& out);

 private:
  void model(Object& m, Model& out);
  void world(Object& w, World& out);
  void link(Object& l, Link& out);
  void joint(Object& j, Joint& out);
  void frame(Object& f, Frame& out);
  void shape(Object& s, Shape& out);
  void geometry(Object& g, Geometry& out);
  void light(Object& l, Light& out);
  void kept(Object& in, std::vector<KeptElement>& out);
  /// The array `key` of `in`: objects of `kind`, each read by `read`.
  template <typename T>
  void list(Object& in, const char* key, const char* kind, std::vector<T>& out, void (Reader::*read)(Object&, T&)) {
    in.each(key, std::string(kind) + " objects", [&](const json_t* e, std::size_t i) {
      Object element(*this, e, describe(kind, e, i) + " of " + in.what());
      (this->*read)(element, out.emplace_back());
    });
  }
  /// `key` of `in`, an object of strings; `optional`: files written before it existed lack it.
  void parameters(Object& in, const char* key, std::map<std::string, std::string>& out, bool optional = false);
  /// Model::gravity: [x, y, z] or null; files written before it existed lack it.
  void modelGravity(Object& in, std::optional<Vector3>& out);
  void rules(Object& in, const char* key, FormatRules& out);

  const JsonDocument& json_;
  Diagnostics& diagnostics_;
};

Object::~Object() {
  if (!json_is_object(value_)) return;
  const char* key = nullptr;
  json_t* member = nullptr;
  json_object_foreach(const_cast<json_t*>(value_), key, member) {
    if (taken_.count(std::string_view(key)) == 0) {
      reader_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                      "unknown member '" + std::string(key) + "' in " + what_ + " (not in schema version " +
                          std::to_string(kSchemaVersion) + "); ignored",
                      reader_.where(value_, key));
    }
  }
}

const json_t* Object::member(const char* key, std::string_view expected) {
  taken_.insert(key);
  const json_t* found = json_object_get(value_, key);
  if (!found) {
    reader_.error(ErrorCode::ELEMENT_MISSING,
                  what_ + " has no '" + key + "' (expected " + std::string(expected) + ")", reader_.where(value_));
  }
  return found;
}

void Object::text(const char* key, std::string& out) {
  const json_t* v = member(key, "a string");
  if (v && reader_.expect(v, JSON_STRING, *this, key, "a string")) out.assign(json_string_value(v), json_string_length(v));
}

void Object::real(const char* key, double& out, std::optional<double> nullMeans) {
  const std::string expected = nullMeans ? "a number or null" : "a number";
  const json_t* v = member(key, expected);
  if (!v) return;
  if (json_is_null(v) && nullMeans) {
    out = *nullMeans;
  } else if (reader_.expect(v, JSON_REAL, *this, key, expected)) {
    out = json_number_value(v);
  }
}

void Object::flag(const char* key, bool& out) {
  const json_t* v = member(key, "true or false");
  if (v && reader_.expect(v, JSON_TRUE, *this, key, "true or false")) out = json_is_true(v);
}

void Object::count(const char* key, std::size_t& out) {
  const json_t* v = member(key, "a count");
  if (!v || !reader_.expect(v, JSON_INTEGER, *this, key, "a whole number")) return;
  if (json_integer_value(v) < 0) {
    reader_.error(ErrorCode::VALUE_INVALID, "'" + std::string(key) + "' of " + what_ + " is negative, expected a count",
                  reader_.where(v));
    return;
  }
  out = static_cast<std::size_t>(json_integer_value(v));
}

void Object::reals(const char* key, double* out, std::size_t size, std::string_view expected) {
  const json_t* v = member(key, expected);
  if (!v || !reader_.expect(v, JSON_ARRAY, *this, key, expected)) return;
  bool ok = json_array_size(v) == size;
  for (std::size_t i = 0; ok && i < size; ++i) ok = json_is_number(json_array_get(v, i));
  if (!ok) {
    reader_.error(ErrorCode::ATTRIBUTE_INCORRECT_TYPE,
                  "'" + std::string(key) + "' of " + what_ + " is not " + std::string(expected), reader_.where(v));
    return;
  }
  for (std::size_t i = 0; i < size; ++i) out[i] = json_number_value(json_array_get(v, i));
}

void Object::vector3(const char* key, Vector3& out) { reals(key, out.data(), 3, "an array of 3 numbers"); }

void Object::realList(const char* key, std::vector<double>& out) {
  const json_t* v = member(key, "an array of numbers");
  if (!v || !reader_.expect(v, JSON_ARRAY, *this, key, "an array of numbers")) return;
  out.clear();
  for (std::size_t i = 0; i < json_array_size(v); ++i) {
    const json_t* e = json_array_get(v, i);
    if (!json_is_number(e)) {
      reader_.error(ErrorCode::ATTRIBUTE_INCORRECT_TYPE,
                    "element " + std::to_string(i) + " of '" + key + "' in " + what_ + " is " +
                        ::interlink::json::describeKind(e) + ", expected a number",
                    reader_.where(e).line > 0 ? reader_.where(e) : reader_.where(v));
      continue;
    }
    out.push_back(json_number_value(e));
  }
}

void Object::transform(const char* key, Pose& out, std::string* relativeTo) {
  const json_t* v = member(key, "a pose object");
  if (!v || !reader_.expect(v, JSON_OBJECT, *this, key, "a pose object")) return;
  Object p(reader_, v, "the pose '" + std::string(key) + "' of " + what_);
  if (relativeTo) p.text("relative_to", *relativeTo);
  Vector3 position = Vector3::Zero();
  Eigen::Vector4d wxyz(1, 0, 0, 0);
  p.vector3("position", position);
  p.reals("quaternion_wxyz", wxyz.data(), 4, "an array of 4 numbers");
  const Quaternion q(wxyz[0], wxyz[1], wxyz[2], wxyz[3]);
  if (!(std::abs(q.norm() - 1) < 1e-6)) {
    p.skip("rotation");
    reader_.error(ErrorCode::POSE_FORMAT_INVALID,
                  "'quaternion_wxyz' of " + p.what() + " is not a unit quaternion (norm " + std::to_string(q.norm()) + ")",
                  reader_.where(v, "quaternion_wxyz"));
    return;
  }
  Matrix3 rotation = q.normalized().toRotationMatrix();
  // The exact rotation, when recorded (the quaternion alone loses the last bits of a matrix).
  if (json_object_get(v, "rotation")) {
    double rows[9] = {};
    p.reals("rotation", rows, 9, "an array of 9 numbers (a 3x3 matrix by rows)");
    const Matrix3 exact = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(rows);
    const bool isRotation = (exact.transpose() * exact - Matrix3::Identity()).cwiseAbs().maxCoeff() < kRotationTolerance &&
                            exact.determinant() > 0;
    if (!isRotation) {
      reader_.error(ErrorCode::POSE_FORMAT_INVALID, "'rotation' of " + p.what() + " is not a rotation matrix",
                    reader_.where(v, "rotation"));
    } else if ((exact - rotation).cwiseAbs().maxCoeff() > kRotationTolerance) {
      reader_.error(ErrorCode::POSE_FORMAT_INVALID,
                    "'rotation' and 'quaternion_wxyz' of " + p.what() + " are different rotations",
                    reader_.where(v, "rotation"));
    } else {
      rotation = exact;
    }
  }
  out = Pose::Identity();
  out.linear() = rotation;
  out.translation() = position;
}

void Object::where(SourceLocation& out) {
  const json_t* v = member("where", "a location object");
  if (!v || !reader_.expect(v, JSON_OBJECT, *this, "where", "a location object")) return;
  Object w(reader_, v, "the location of " + what_);
  std::string file;
  std::size_t line = 0;
  std::size_t column = 0;
  w.text("file", file);
  w.count("line", line);
  w.count("column", column);
  constexpr std::size_t largest = static_cast<std::size_t>(std::numeric_limits<int>::max());
  out = SourceLocation{file, static_cast<int>(std::min(line, largest)), static_cast<int>(std::min(column, largest))};
}

template <typename Describe, typename Read>
void Object::objectOrNull(const char* key, std::string_view expected, Describe what, Read read) {
  const json_t* v = member(key, expected);
  if (!v || json_is_null(v) || !reader_.expect(v, JSON_OBJECT, *this, key, expected)) return;
  Object object(reader_, v, what(v));
  read(object);
}

template <typename Read>
void Object::each(const char* key, std::string_view expected, Read read) {
  const json_t* v = member(key, "an array of " + std::string(expected));
  if (!v || !reader_.expect(v, JSON_ARRAY, *this, key, "an array of " + std::string(expected))) return;
  for (std::size_t i = 0; i < json_array_size(v); ++i) {
    const json_t* e = json_array_get(v, i);
    if (!json_is_object(e)) {
      reader_.error(ErrorCode::ATTRIBUTE_INCORRECT_TYPE,
                    "element " + std::to_string(i) + " of '" + key + "' in " + what_ + " is " +
                        ::interlink::json::describeKind(e) + ", expected " + std::string(expected),
                    reader_.where(e).line > 0 ? reader_.where(e) : reader_.where(v));
      continue;
    }
    read(e, i);
  }
}

/// "link 'base'" or, before the name is known, "link 3".
std::string describe(std::string_view kind, const json_t* object, std::size_t index) {
  const json_t* name = json_object_get(object, "name");
  if (json_is_string(name)) return std::string(kind) + " '" + json_string_value(name) + "'";
  return std::string(kind) + " " + std::to_string(index);
}

void Reader::parameters(Object& in, const char* key, std::map<std::string, std::string>& out, bool optional) {
  const json_t* v = optional ? in.optionalMember(key) : in.member(key, "an object of strings");
  if (!v || !expect(v, JSON_OBJECT, in, key, "an object of strings")) return;
  const char* name = nullptr;
  json_t* value = nullptr;
  json_object_foreach(const_cast<json_t*>(v), name, value) {
    if (!json_is_string(value)) {
      error(ErrorCode::ATTRIBUTE_INCORRECT_TYPE,
            "'" + std::string(name) + "' in '" + key + "' of " + in.what() + " is " + ::interlink::json::describeKind(value) +
                ", expected a string",
            where(v, name));
      continue;
    }
    out[name] = std::string(json_string_value(value), json_string_length(value));
  }
}

void Reader::modelGravity(Object& in, std::optional<Vector3>& out) {
  const json_t* v = in.optionalMember("gravity");
  if (!v || json_is_null(v)) return;
  Vector3 gravity = Vector3::Zero();
  const std::size_t errorsBefore = diagnostics_.errorCount();
  in.vector3("gravity", gravity);
  if (diagnostics_.errorCount() == errorsBefore) out = gravity;
}

void Reader::kept(Object& in, std::vector<KeptElement>& out) {
  in.each("kept", "kept-element objects", [&](const json_t* e, std::size_t i) {
    Object k(*this, e, "kept element " + std::to_string(i) + " of " + in.what());
    KeptElement& element = out.emplace_back();
    k.text("path", element.path);
    k.text("text", element.text);
    k.where(element.where);
  });
}

void Reader::light(Object& l, Light& out) {
  l.text("name", out.name);
  std::string type;
  l.text("type", type);
  if (type == "point") {
    out.type = LightType::Point;
  } else if (type == "directional") {
    out.type = LightType::Directional;
  } else if (type == "spot") {
    out.type = LightType::Spot;
  } else if (json_is_string(json_object_get(l.value(), "type"))) {
    error(ErrorCode::VALUE_INVALID, "light type '" + type + "' of " + l.what() + ", expected point, directional or spot",
          where(l.value(), "type"));
  }
  l.pose("pose", out.pose);
  l.text("attached_to", out.attachedTo);
  l.vector3("direction", out.direction);
  l.reals("diffuse", out.diffuse.data(), 4, "an array of 4 numbers (rgba)");
  l.flag("cast_shadows", out.castShadows);
  l.where(out.where);
}

void Reader::frame(Object& f, Frame& out) {
  f.text("name", out.name);
  f.text("attached_to", out.attachedTo);
  f.pose("pose", out.pose);
  f.where(out.where);
}

void Reader::joint(Object& j, Joint& out) {
  j.text("name", out.name);
  std::string type;
  j.text("type", type);
  if (auto known = jointTypeNamed(type)) {
    out.type = *known;
  } else if (json_is_string(json_object_get(j.value(), "type"))) {
    std::string names;
    for (const auto& info : kJointTypes) names += (names.empty() ? "" : ", ") + std::string(info.name);
    error(ErrorCode::VALUE_INVALID, "joint type '" + type + "' of " + j.what() + ", expected one of " + names,
          where(j.value(), "type"));
  }
  j.text("parent", out.parent);
  j.text("child", out.child);
  j.pose("pose", out.pose);
  j.each("axes", "axis objects", [&](const json_t* e, std::size_t i) {
    Object a(*this, e, "axis " + std::to_string(i) + " of " + j.what());
    JointAxis& axis = out.axes.emplace_back();
    a.vector3("xyz", axis.xyz);
    a.text("expressed_in", axis.expressedIn);
    a.real("lower", axis.lower, -kInfinity);
    a.real("upper", axis.upper, kInfinity);
    a.real("effort", axis.effort, kInfinity);
    a.real("velocity", axis.velocity, kInfinity);
    a.real("damping", axis.damping);
    a.real("friction", axis.friction);
    a.real("spring_reference", axis.springReference);
    a.real("spring_stiffness", axis.springStiffness);
    a.where(axis.where);
  });
  j.real("screw_thread_pitch", out.screwThreadPitch);
  j.real("gearbox_ratio", out.gearboxRatio);
  j.real("transmission_ratio", out.transmissionRatio);
  j.realList("initial_positions", out.initialPositions);
  j.realList("initial_velocities", out.initialVelocities);
  j.objectOrNull("mimic", "an object or null", [&](const json_t*) { return "the mimic of " + j.what(); },
                 [&](Object& m) {
                   Mimic& value = out.mimic.emplace();
                   m.text("joint", value.joint);
                   m.real("multiplier", value.multiplier);
                   m.real("offset", value.offset);
                 });
  j.flag("loop_closure", out.loopClosure);
  j.text("actuator", out.actuator);
  j.where(out.where);
}

void Reader::geometry(Object& g, Geometry& out) {
  std::string type;
  g.text("type", type);
  bool known = false;
  for (int t = 0; t <= static_cast<int>(GeometryType::Heightmap); ++t) {
    if (type == geometryTypeName(static_cast<GeometryType>(t))) {
      out.type = static_cast<GeometryType>(t);
      known = true;
    }
  }
  if (!known && json_is_string(json_object_get(g.value(), "type"))) {
    error(ErrorCode::VALUE_INVALID, "geometry type '" + type + "' of " + g.what() + " is not a core geometry type",
          where(g.value(), "type"));
  }
  g.vector3("size", out.size);
  g.real("radius", out.radius);
  g.real("length", out.length);
  g.vector3("radii", out.radii);
  g.vector3("normal", out.normal);
  g.reals("plane_size", out.planeSize.data(), 2, "an array of 2 numbers");
  g.text("mesh_uri", out.meshUri);
  g.text("mesh_resolved_path", out.meshResolvedPath);
  g.vector3("scale", out.scale);
  g.objectOrNull("mesh_info", "an object or null", [&](const json_t*) { return "the mesh information of " + g.what(); },
                 [&](Object& m) {
                   MeshInfo& info = out.mesh.emplace();
                   m.count("vertex_count", info.vertexCount);
                   m.count("face_count", info.faceCount);
                   m.vector3("bounds_min", info.boundsMin);
                   m.vector3("bounds_max", info.boundsMax);
                 });
  g.each("spheres", "sphere objects", [&](const json_t* e, std::size_t i) {
    Object s(*this, e, "sphere " + std::to_string(i) + " of " + g.what());
    Sphere& sphere = out.spheres.emplace_back();
    s.real("radius", sphere.radius);
    s.vector3("center", sphere.center);
  });
}

void Reader::shape(Object& s, Shape& out) {
  s.text("name", out.name);
  s.pose("pose", out.pose);
  if (const json_t* g = s.member("geometry", "a geometry object"); g && expect(g, JSON_OBJECT, s, "geometry", "an object")) {
    Object geometryObject(*this, g, "the geometry of " + s.what());
    geometry(geometryObject, out.geometry);
  }
  if (const json_t* color = s.member("color", "an array of 4 numbers or null"); color && !json_is_null(color)) {
    s.reals("color", out.color.emplace().data(), 4, "an array of 4 numbers (rgba) or null");
  }
  s.text("material", out.material);
  s.where(out.where);
}

void Reader::link(Object& l, Link& out) {
  l.text("name", out.name);
  l.pose("pose", out.pose);
  l.flag("has_inertial", out.hasInertial);
  if (const json_t* i = l.member("inertial", "an object"); i && expect(i, JSON_OBJECT, l, "inertial", "an object")) {
    Object inertial(*this, i, "the inertial of " + l.what());
    inertial.real("mass", out.inertial.mass);
    inertial.transform("center_of_mass", out.inertial.centerOfMass);
    double rows[9] = {};
    const json_t* tensor = inertial.member("inertia", "a 3x3 array of numbers");
    bool ok = json_is_array(tensor) && json_array_size(tensor) == 3;
    for (std::size_t r = 0; ok && r < 3; ++r) {
      const json_t* row = json_array_get(tensor, r);
      ok = json_is_array(row) && json_array_size(row) == 3;
      for (std::size_t c = 0; ok && c < 3; ++c) {
        ok = json_is_number(json_array_get(row, c));
        if (ok) rows[3 * r + c] = json_number_value(json_array_get(row, c));
      }
    }
    if (tensor && !ok) {
      error(ErrorCode::ATTRIBUTE_INCORRECT_TYPE, "'inertia' of " + inertial.what() + " is not a 3x3 array of numbers",
            where(tensor));
    } else if (ok) {
      out.inertial.inertia = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(rows);
    }
  }
  l.flag("gravity", out.gravity);
  l.flag("self_collide", out.selfCollide);
  list(l, "visuals", "visual", out.visuals, &Reader::shape);
  list(l, "collisions", "collision", out.collisions, &Reader::shape);
  l.where(out.where);
}

// The rules the reading plugin declared. Optional: a model recorded before they were written keeps
// the defaults.
void Reader::rules(Object& in, const char* key, FormatRules& out) {
  const json_t* value = in.optionalMember(key);
  if (!value || !expect(value, JSON_OBJECT, in, key, "an object")) return;
  Object r(*this, value, "the rules of " + in.what());
  double version[3] = {0, 0, 0};
  r.reals("version", version, 3, "[major, minor, patch]");
  out.versionMajor = static_cast<std::uint32_t>(std::clamp(version[0], 0.0, 1e6));
  out.versionMinor = static_cast<std::uint32_t>(std::clamp(version[1], 0.0, 1e6));
  out.versionPatch = static_cast<std::uint32_t>(std::clamp(version[2], 0.0, 1e6));
  std::size_t count = 0;
  const FormatRules::Flag* flags = FormatRules::flags(count);
  for (std::size_t i = 0; i < count; ++i) r.flag(flags[i].name, out.*flags[i].rule);
  const FormatRules::InertiaFlag* inertiaFlags = FormatRules::inertiaFlags(count);
  for (std::size_t i = 0; i < count; ++i) r.flag(inertiaFlags[i].name, out.inertia.*inertiaFlags[i].rule);
  std::string severity;
  r.text("inertia_severity", severity);
  out.inertia.severity = severity == severityName(Severity::Error) ? Severity::Error : Severity::Warning;
  std::string tolerance;
  r.text("inertia_tolerance", tolerance);
  for (InertiaTolerance t : {InertiaTolerance::GzMath, InertiaTolerance::Rounded, InertiaTolerance::RoundOff}) {
    if (tolerance == inertiaToleranceName(t)) out.inertia.tolerance = t;
  }
  r.real("inertia_moving_body_minimum", out.inertia.movingBodyMinimum);
  std::string verdict;
  r.text("inertia_verdict", verdict);
  out.setInertiaVerdict(verdict);
}

void Reader::model(Object& m, Model& out) {
  m.text("name", out.name);
  m.pose("pose", out.pose);
  m.flag("static", out.isStatic);
  m.text("canonical_link", out.canonicalLink);
  m.text("placement_frame", out.placementFrame);
  list(m, "links", "link", out.links, &Reader::link);
  list(m, "joints", "joint", out.joints, &Reader::joint);
  list(m, "frames", "frame", out.frames, &Reader::frame);
  list(m, "models", "model", out.models, &Reader::model);
  list(m, "lights", "light", out.lights, &Reader::light);
  modelGravity(m, out.gravity);
  parameters(m, "parameters", out.parameters);
  parameters(m, "reading_notes", out.readingNotes, true);
  kept(m, out.kept);
  m.flag("from_interface_model", out.source.fromInterfaceModel);
  m.text("source_format", out.source.format);
  m.text("source_format_version", out.source.formatVersion);
  rules(m, "source_rules", out.source.rules);
  m.text("source_file", out.source.file);
  m.where(out.where);
}

void Reader::world(Object& w, World& out) {
  w.text("name", out.name);
  w.vector3("gravity", out.gravity);
  if (const json_t* p = w.member("physics", "an object"); p && expect(p, JSON_OBJECT, w, "physics", "an object")) {
    Object physics(*this, p, "the physics of " + w.what());
    physics.text("name", out.physics.name);
    physics.text("type", out.physics.type);
    physics.real("max_step_size", out.physics.maxStepSize);
    physics.real("real_time_factor", out.physics.realTimeFactor);
    physics.text("collision_detector", out.physics.collisionDetector);
    const json_t* values = physics.member("values", "an object of numbers");
    if (values && expect(values, JSON_OBJECT, physics, "values", "an object of numbers")) {
      const char* key = nullptr;
      json_t* value = nullptr;
      json_object_foreach(const_cast<json_t*>(values), key, value) {
        if (json_is_number(value)) {
          out.physics.values[key] = json_number_value(value);
        } else {
          error(ErrorCode::ATTRIBUTE_INCORRECT_TYPE,
                "physics value '" + std::string(key) + "' of " + w.what() + " is " + ::interlink::json::describeKind(value) +
                    ", expected a number",
                where(values, key));
        }
      }
    }
  }
  list(w, "models", "model", out.models, &Reader::model);
  list(w, "frames", "frame", out.frames, &Reader::frame);
  list(w, "joints", "joint", out.joints, &Reader::joint);
  list(w, "lights", "light", out.lights, &Reader::light);
  parameters(w, "parameters", out.parameters);
  parameters(w, "reading_notes", out.readingNotes, true);
  kept(w, out.kept);
  w.where(out.where);
}

void Reader::document(const json_t* root, Document& out) {
  Object top(*this, root, "the core model");
  top.skip("interlink_model");
  top.skip("resolved");  // derived: the loader resolves the document again
  const json_t* d = top.member("document", "an object");
  if (!d || !expect(d, JSON_OBJECT, top, "document", "an object")) return;
  Object doc(*this, d, "the document");
  doc.text("source_file", out.sourceFile);
  doc.text("format", out.format);
  doc.text("format_version", out.formatVersion);
  rules(doc, "rules", out.rules);
  list(doc, "worlds", "world", out.worlds, &Reader::world);
  doc.objectOrNull("model", "a model object or null", [&](const json_t* m) { return describe("model", m, 0); },
                   [&](Object& model) { this->model(model, out.model.emplace()); });
  list(doc, "lights", "light", out.lights, &Reader::light);
  kept(doc, out.kept);
}

}  // namespace

int sniffCoreModel(const char* /*path*/, const char* head, std::size_t size) {
  if (!head || size == 0) return 0;
  // The writer puts the key first; a hand-made file may put it anywhere in the head.
  return std::string_view(head, size).find("\"interlink_model\"") != std::string_view::npos ? 100 : 0;
}

bool readCoreModel(const plugin::LoadRequest& request, CoreModelFile& file, Diagnostics& diagnostics) {
  JsonDocument json;
  if (!json.parse(request.content, request.path, diagnostics)) return false;
  const json_t* root = json.root();
  if (!json_is_object(root)) {
    diagnostics.error(ErrorCode::ELEMENT_INCORRECT_TYPE,
                      "the file is " + ::interlink::json::describeKind(root) + ", expected a core-model object",
                      json.where(root));
    return false;
  }
  const json_t* version = json_object_get(root, "interlink_model");
  if (!version) {
    diagnostics.error(ErrorCode::ELEMENT_MISSING,
                      "no \"interlink_model\" schema version: not a core-model file (expected \"interlink_model\": " +
                          std::to_string(kSchemaVersion) + ")",
                      json.where(root));
    return false;
  }
  if (!json_is_integer(version) || json_integer_value(version) != kSchemaVersion) {
    const std::string written = json.textOf(version);
    diagnostics.error(ErrorCode::VERSION_UNSUPPORTED,
                      "core-model schema version " + written + " is not supported: this reader reads version " +
                          std::to_string(kSchemaVersion) + " (written by an Interlink of the same schema)",
                      json.where(root, "interlink_model"));
    return false;
  }
  file.schemaVersion = kSchemaVersion;
  Reader reader(json, diagnostics);
  const std::size_t errorsBefore = diagnostics.errorCount();
  reader.document(root, file.document);
  // A document with errors is not handed on: a half-read model would resolve to wrong frames.
  return diagnostics.errorCount() == errorsBefore;
}

}  // namespace interlink::core_model
