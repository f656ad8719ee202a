// Step 1 of the Shift plugin: Shift multibody JSON -> ShiftFile records (ShiftRecords.hpp).
//
// The JSON is read into records of assemblies, bodies, joints, restraints, fixed frames and
// lights, with every value in SI units and every name reference resolved to an index and checked;
// all problems go to the diagnostics with their line and column. ShiftMapping turns the records
// into the core model.
#include "ShiftReader.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "JsonDocument.hpp"
#include "MeshInfo.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"

namespace interlink::shift::detail {

namespace {

namespace fs = std::filesystem;

std::string describeKind(const json_t* value) {
  if (!value) return "nothing";
  switch (json_typeof(value)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
  }
  return "a value";
}

std::vector<std::string> splitPath(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(':', start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return parts;
}

/// The nearest rotation to a matrix that is almost one (files print 8 digits).
Matrix3 orthonormalized(const Matrix3& m) {
  Eigen::JacobiSVD<Matrix3> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
  return svd.matrixU() * svd.matrixV().transpose();
}

// ---------------------------------------------------------------------------------------------

class Reader {
 public:
  Reader(const plugin::LoadRequest& request, ShiftFile& file, Diagnostics& diagnostics)
      : request_(request), file_(file), diagnostics_(diagnostics) {}

  /// False when there is no usable document (not JSON, not an object at the top).
  bool run();

 private:
  // --- JSON access with diagnostics ---
  SourceLocation at(const json_t* value) const { return json_.where(value); }
  SourceLocation at(const json_t* object, const char* key) const { return json_.where(object, key); }
  void wrongType(const json_t* value, const SourceLocation& where, const std::string& what,
                 const std::string& expected) {
    diagnostics_.error(ErrorCode::ELEMENT_INCORRECT_TYPE,
                       what + ": expected " + expected + ", got " + describeKind(value), where);
  }
  std::optional<double> number(const json_t* value, const SourceLocation& where, const std::string& what);
  std::optional<Vector3> vector3(const json_t* value, const SourceLocation& where, const std::string& what);
  std::optional<Matrix3> rotation(const json_t* value, const SourceLocation& where, const std::string& what);
  std::optional<std::string> string(const json_t* object, const char* key, const std::string& what, bool required);
  std::optional<bool> flag(const json_t* object, const char* key, const std::string& what);
  /// An array member; null and absent give nothing without complaint, other kinds an error.
  const json_t* array(const json_t* object, const char* key, const std::string& what);
  std::optional<Pose> framePose(const json_t* object, const std::string& what);
  bool checkName(const std::string& name, const SourceLocation& where, const std::string& what, bool isFrame);
  void warnUnknownKeys(const json_t* object, std::initializer_list<const char*> known, const std::string& path,
                       std::vector<KeptElement>& kept);
  void keep(std::vector<KeptElement>& kept, const std::string& path, const json_t* value) {
    kept.push_back(KeptElement{path, json_.textOf(value), at(value)});
  }

  // --- reading ---
  void readParameters(const json_t* parameters);
  void flatten(const json_t* value, const std::string& key, std::map<std::string, std::string>& out);
  double unitFactor(const json_t* units, const char* key, const std::map<std::string, double>& known);
  void readFixed(const json_t* frames, const json_t* terrain);
  void readAssembly(const json_t* object, int parent, bool parentActive);
  void readBody(const json_t* object, int assembly, bool assemblyActive);
  void readInertia(const json_t* object, BodyRecord& body);
  void readGeometry(const json_t* object, BodyRecord& body);
  void addMesh(BodyRecord& body, const std::string& uri, const std::string& material, const SourceLocation& where);
  void readJoint(const json_t* object, int assembly);
  bool readJointType(const json_t* object, JointRecord& joint);
  void readInitialValues(const json_t* object, JointRecord& joint);
  void readRestraint(const json_t* object, const std::string& key, int assembly);
  void readLight(const json_t* object, const std::string& path);

  // --- references ---
  struct BodyLookup {
    int body = kFixedBody;
    bool found = false;
    bool inactive = false;
    std::string reason;
  };
  BodyLookup findBody(const std::vector<std::string>& path, int fromAssembly) const;
  std::optional<int> findAssembly(const std::vector<std::string>& path, int start) const;
  std::optional<EndPoint> endPoint(const json_t* pair, int assembly, ErrorCode code, const std::string& what,
                                   bool& inactive);
  std::optional<EndPoint> endPoint20(const json_t* bodyPath, const json_t* frame, const SourceLocation& where,
                                     int assembly, ErrorCode code, const std::string& what, bool& inactive);
  std::optional<EndPoint> resolve(const std::vector<std::string>& bodyPath, const std::string& frame,
                                  const SourceLocation& where, const SourceLocation& frameWhere, int assembly,
                                  ErrorCode code, const std::string& what, bool& inactive);
  std::string assemblyPath(int assembly) const { return file_.assemblyPath(assembly); }

  const plugin::LoadRequest& request_;
  ShiftFile& file_;
  Diagnostics& diagnostics_;
  JsonDocument json_;
  // The records being filled, by their reading names.
  std::string& version_ = file_.version;
  Units& units_ = file_.units;
  Vector3& gravity_ = file_.gravity;
  std::vector<std::string>& includeDirectories_ = file_.includeDirectories;
  std::map<std::string, std::string>& parameters_ = file_.parameters;
  Physics& physics_ = file_.physics;
  std::vector<FrameRecord>& fixedFrames_ = file_.fixedFrames;
  std::vector<LightRecord>& lights_ = file_.lights;
  std::vector<KeptElement>& worldKept_ = file_.kept;
  std::vector<AssemblyRecord>& assemblies_ = file_.assemblies;
  std::vector<BodyRecord>& bodies_ = file_.bodies;
  std::vector<JointRecord>& joints_ = file_.joints;
  std::vector<RestraintRecord>& restraints_ = file_.restraints;
  /// The JSON of each assembly, for its joints and restraints once every body is known.
  std::vector<const json_t*> assemblyJson_;
  MeshCache meshes_;
};

// ---------------------------------------------------------------------------------------------
// JSON access

std::optional<double> Reader::number(const json_t* value, const SourceLocation& where, const std::string& what) {
  if (!json_is_number(value)) {
    wrongType(value, where, what, "a number");
    return std::nullopt;
  }
  const double result = json_number_value(value);
  if (!std::isfinite(result)) {
    diagnostics_.error(ErrorCode::VALUE_INVALID, what + ": expected a finite number", where);
    return std::nullopt;
  }
  return result;
}

std::optional<Vector3> Reader::vector3(const json_t* value, const SourceLocation& where, const std::string& what) {
  if (!json_is_array(value) || json_array_size(value) != 3) {
    diagnostics_.error(json_is_array(value) ? ErrorCode::VALUE_INVALID : ErrorCode::ELEMENT_INCORRECT_TYPE,
                       what + ": expected an array of 3 numbers, got " +
                           (json_is_array(value) ? std::to_string(json_array_size(value)) + " entries"
                                                 : describeKind(value)),
                       where);
    return std::nullopt;
  }
  Vector3 out;
  for (std::size_t i = 0; i < 3; ++i) {
    const json_t* entry = json_array_get(value, i);
    auto n = number(entry, at(entry).line > 0 ? at(entry) : where, what + "[" + std::to_string(i) + "]");
    if (!n) return std::nullopt;
    out[static_cast<Eigen::Index>(i)] = *n;
  }
  return out;
}

std::optional<Matrix3> Reader::rotation(const json_t* value, const SourceLocation& where, const std::string& what) {
  if (!json_is_array(value) || json_array_size(value) != 3) {
    diagnostics_.error(ErrorCode::ELEMENT_INCORRECT_TYPE, what + ": expected 3 rows of 3 numbers (a rotation matrix)",
                       where);
    return std::nullopt;
  }
  Matrix3 m;
  for (std::size_t r = 0; r < 3; ++r) {
    const json_t* row = json_array_get(value, r);
    auto values = vector3(row, at(row).line > 0 ? at(row) : where, what + " row " + std::to_string(r + 1));
    if (!values) return std::nullopt;
    m.row(static_cast<Eigen::Index>(r)) = values->transpose();
  }
  const double orthogonality = (m.transpose() * m - Matrix3::Identity()).cwiseAbs().maxCoeff();
  if (orthogonality > 1e-3 || m.determinant() < 0) {
    diagnostics_.error(ErrorCode::VALUE_INVALID,
                       what + ": not a rotation matrix (rows must be orthonormal with determinant +1)", where);
    return std::nullopt;
  }
  return orthonormalized(m);
}

std::optional<std::string> Reader::string(const json_t* object, const char* key, const std::string& what,
                                          bool required) {
  const json_t* value = json_object_get(object, key);
  if (!value) {
    if (required)
      diagnostics_.error(ErrorCode::ELEMENT_MISSING, what + ": '" + key + "' is missing", at(object));
    return std::nullopt;
  }
  if (!json_is_string(value)) {
    wrongType(value, at(object, key), what + " '" + key + "'", "a string");
    return std::nullopt;
  }
  return std::string(json_string_value(value), json_string_length(value));
}

std::optional<bool> Reader::flag(const json_t* object, const char* key, const std::string& what) {
  const json_t* value = json_object_get(object, key);
  if (!value) return std::nullopt;
  if (!json_is_boolean(value)) {
    wrongType(value, at(object, key), what + " '" + key + "'", "true or false");
    return std::nullopt;
  }
  return json_is_true(value);
}

const json_t* Reader::array(const json_t* object, const char* key, const std::string& what) {
  const json_t* value = json_object_get(object, key);
  if (!value || json_is_null(value)) return nullptr;
  if (!json_is_array(value)) {
    wrongType(value, at(object, key), what + " '" + key + "'", "an array");
    return nullptr;
  }
  return value;
}

std::optional<Pose> Reader::framePose(const json_t* object, const std::string& what) {
  Pose pose = Pose::Identity();
  bool ok = true;
  if (const json_t* t = json_object_get(object, "T")) {
    if (auto v = vector3(t, at(t), what + " 'T'")) pose.translation() = *v * units_.length;
    else ok = false;
  }
  if (const json_t* r = json_object_get(object, "R")) {
    if (auto m = rotation(r, at(r), what + " 'R'")) pose.linear() = *m;
    else ok = false;
  }
  if (!ok) return std::nullopt;
  return pose;
}

bool Reader::checkName(const std::string& name, const SourceLocation& where, const std::string& what, bool isFrame) {
  if (name.empty()) {
    diagnostics_.error(ErrorCode::NAME_INVALID, what + " has an empty name", where);
    return false;
  }
  if (name.find(':') != std::string::npos) {
    diagnostics_.error(ErrorCode::NAME_INVALID,
                       what + " '" + name + "': ':' separates assembly paths and cannot be part of a name", where);
    return false;
  }
  if (isFrame && name == kOrigin) {
    diagnostics_.error(ErrorCode::RESERVED_NAME,
                       what + ": 'origin' is reserved (every body and the fixed frame have it implicitly)", where);
    return false;
  }
  return true;
}

void Reader::warnUnknownKeys(const json_t* object, std::initializer_list<const char*> known, const std::string& path,
                             std::vector<KeptElement>& kept) {
  const char* key = nullptr;
  json_t* value = nullptr;
  json_object_foreach(const_cast<json_t*>(object), key, value) {
    bool isKnown = std::string_view(key) == "comment";  // free text, meant for readers
    for (const char* k : known) isKnown = isKnown || std::string_view(key) == k;
    if (isKnown) continue;
    diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                         path + ": '" + key + "' is not interpreted by Interlink; kept as written", at(value));
    keep(kept, path + "/" + key, value);
  }
}

// ---------------------------------------------------------------------------------------------
// model_parameters

void Reader::flatten(const json_t* value, const std::string& key, std::map<std::string, std::string>& out) {
  switch (json_typeof(value)) {
    case JSON_OBJECT: {
      const char* k = nullptr;
      json_t* v = nullptr;
      json_object_foreach(const_cast<json_t*>(value), k, v) flatten(v, key.empty() ? k : key + "." + k, out);
      break;
    }
    case JSON_ARRAY:
      for (std::size_t i = 0; i < json_array_size(value); ++i)
        flatten(json_array_get(value, i), key + "[" + std::to_string(i) + "]", out);
      break;
    case JSON_STRING: out[key] = std::string(json_string_value(value), json_string_length(value)); break;
    case JSON_INTEGER:
    case JSON_REAL: out[key] = formatNumber(json_number_value(value)); break;
    case JSON_TRUE: out[key] = "true"; break;
    case JSON_FALSE: out[key] = "false"; break;
    case JSON_NULL: out[key] = "null"; break;
  }
}

double Reader::unitFactor(const json_t* units, const char* key, const std::map<std::string, double>& known) {
  const json_t* value = json_object_get(units, key);
  if (!value) return 1.0;
  if (!json_is_string(value)) {
    wrongType(value, at(units, key), std::string("model_parameters.units.") + key, "a string");
    return 1.0;
  }
  const std::string name = toLower(json_string_value(value));
  auto it = known.find(name);
  if (it != known.end()) return it->second;
  std::string expected;
  for (const auto& entry : known) expected += (expected.empty() ? "" : ", ") + entry.first;
  diagnostics_.warning(ErrorCode::VALUE_INVALID,
                       std::string("unknown ") + key + " unit '" + name + "' (expected one of " + expected +
                           "); values are read as SI",
                       at(value));
  return 1.0;
}

void Reader::readParameters(const json_t* parameters) {
  if (!parameters) {
    diagnostics_.warning(ErrorCode::ELEMENT_MISSING,
                         "'model_parameters' is missing: version 0.2 and SI units are assumed", at(json_.root()));
    version_ = "0.2";
    return;
  }
  if (!json_is_object(parameters)) {
    wrongType(parameters, at(parameters), "'model_parameters'", "an object");
    return;
  }
  flatten(parameters, "", parameters_);

  if (auto version = string(parameters, "version", "model_parameters", false)) {
    version_ = *version;
  } else {
    diagnostics_.warning(ErrorCode::ELEMENT_MISSING, "model_parameters: 'version' is missing; 0.2 is assumed",
                         at(parameters));
    version_ = "0.2";
  }
  if (version_ != "2.0" && version_ != "2.0.0" && version_ != "0.2" && version_ != "0.2.0") {
    diagnostics_.warning(ErrorCode::VERSION_UNSUPPORTED,
                         "Shift version '" + version_ + "' is not one this reader knows (0.2, 0.2.0, 2.0, 2.0.0); "
                         "both schema generations are accepted",
                         at(parameters, "version"));
  }

  if (const json_t* units = json_object_get(parameters, "units")) {
    if (!json_is_object(units)) {
      wrongType(units, at(units), "model_parameters.units", "an object");
    } else {
      units_.length = unitFactor(units, "length",
                                 {{"meters", 1.0}, {"m", 1.0}, {"metres", 1.0}, {"millimeters", 1e-3}, {"mm", 1e-3},
                                  {"centimeters", 1e-2}, {"cm", 1e-2}, {"inches", 0.0254}, {"feet", 0.3048}});
      units_.angle = unitFactor(units, "angle", {{"radians", 1.0}, {"rad", 1.0}, {"degrees", M_PI / 180.0},
                                                 {"deg", M_PI / 180.0}});
      units_.mass = unitFactor(units, "mass", {{"kilograms", 1.0}, {"kg", 1.0}, {"grams", 1e-3}, {"g", 1e-3},
                                               {"pounds", 0.45359237}});
      units_.time = unitFactor(units, "time", {{"seconds", 1.0}, {"s", 1.0}, {"milliseconds", 1e-3}, {"ms", 1e-3}});
    }
  }
  if (const json_t* gravity = json_object_get(parameters, "gravity")) {
    if (auto g = vector3(gravity, at(gravity), "model_parameters.gravity"))
      gravity_ = *g * units_.length / (units_.time * units_.time);
  }
  for (const char* key : {"include_dir", "include_directories"}) {
    const json_t* dirs = json_object_get(parameters, key);
    if (!dirs || json_is_null(dirs)) continue;
    if (json_is_string(dirs)) {
      includeDirectories_.emplace_back(json_string_value(dirs));
      continue;
    }
    if (!json_is_array(dirs)) {
      wrongType(dirs, at(dirs), std::string("model_parameters.") + key, "an array of directory names");
      continue;
    }
    for (std::size_t i = 0; i < json_array_size(dirs); ++i) {
      const json_t* dir = json_array_get(dirs, i);
      if (json_is_string(dir)) includeDirectories_.emplace_back(json_string_value(dir));
      else wrongType(dir, at(dir), std::string("model_parameters.") + key, "a directory name");
    }
  }

  // Simulation settings: 0.2 has one "simulation" object, later files lists of integrators and
  // solvers. The first integrator and solver describe the physics; every value stays in the
  // parameters as well.
  physics_.name = "shift";
  auto absorb = [this](const json_t* settings) {
    if (!json_is_object(settings)) return;
    const char* key = nullptr;
    json_t* value = nullptr;
    json_object_foreach(const_cast<json_t*>(settings), key, value) {
      const std::string name = key;
      if (json_is_number(value)) physics_.values[name] = json_number_value(value);
      if ((name == "integration_type" || name == "type") && json_is_string(value) && physics_.type.empty())
        physics_.type = json_string_value(value);
      if (name == "time_step" && json_is_number(value)) physics_.maxStepSize = json_number_value(value) * units_.time;
    }
  };
  absorb(json_object_get(parameters, "simulation"));
  for (const char* key : {"integrators", "integrator"}) {
    const json_t* list = json_object_get(parameters, key);
    if (json_is_array(list) && json_array_size(list) > 0) absorb(json_array_get(list, 0));
  }
  for (const char* key : {"solvers", "solver"}) {
    const json_t* list = json_object_get(parameters, key);
    if (json_is_array(list) && json_array_size(list) > 0) {
      const json_t* solver = json_array_get(list, 0);
      const char* key2 = nullptr;
      json_t* value = nullptr;
      json_object_foreach(const_cast<json_t*>(solver), key2, value) if (json_is_number(value))
          physics_.values["solver." + std::string(key2)] = json_number_value(value);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// fixed frames, lights, terrain

void Reader::readFixed(const json_t* frames, const json_t* terrain) {
  if (frames) {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < json_array_size(frames); ++i) {
      const json_t* object = json_array_get(frames, i);
      if (!json_is_object(object)) {
        wrongType(object, at(object), "fixed frame", "an object");
        continue;
      }
      auto name = string(object, "name", "fixed frame", true);
      if (!name || !checkName(*name, at(object, "name"), "fixed frame", true)) continue;
      if (!seen.insert(*name).second) {
        diagnostics_.error(ErrorCode::DUPLICATE_NAME, "fixed frame '" + *name + "' is defined twice",
                           at(object, "name"));
        continue;
      }
      warnUnknownKeys(object, {"name", "T", "R"}, "fixed/frames/" + *name, worldKept_);
      auto pose = framePose(object, "fixed frame '" + *name + "'");
      if (!pose) continue;
      fixedFrames_.push_back(FrameRecord{*name, *pose, at(object)});
    }
  }
  if (terrain) {
    diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                         "terrain is not interpreted by Interlink; kept as written", at(terrain));
    keep(worldKept_, "fixed/terrain", terrain);
  }
}

void Reader::readLight(const json_t* object, const std::string& path) {
  if (!json_is_object(object)) {
    wrongType(object, at(object), "light", "an object");
    return;
  }
  auto name = string(object, "name", "light", true);
  if (!name || !checkName(*name, at(object, "name"), "light", false)) return;
  const std::string what = "light '" + *name + "'";
  warnUnknownKeys(object, {"name", "type", "parent", "Ka", "Kd", "Ks"}, path + "/" + *name, worldKept_);
  LightRecord def;
  def.light.name = *name;
  def.light.where = at(object);
  const std::string type = toLower(string(object, "type", what, false).value_or("point"));
  if (type == "point") def.light.type = LightType::Point;
  else if (type == "spot") def.light.type = LightType::Spot;
  else if (type == "directional") def.light.type = LightType::Directional;
  else
    diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                         what + ": unknown type '" + type + "' (expected point, spot or directional); read as point",
                         at(object, "type"));
  // Shift lights shine along -z of their frame (the overhead frames of the samples turn z up).
  def.light.direction = -Vector3::UnitZ();
  if (const json_t* kd = json_object_get(object, "Kd")) {
    if (auto rgb = vector3(kd, at(kd), what + " 'Kd'")) def.light.diffuse = Eigen::Vector4d(rgb->x(), rgb->y(), rgb->z(), 1);
  }
  for (const char* key : {"Ka", "Ks"}) {
    if (const json_t* k = json_object_get(object, key)) {
      if (auto rgb = vector3(k, at(k), what + " '" + key + "'"))
        parameters_["light." + *name + "." + key] = joinNumbers({rgb->x(), rgb->y(), rgb->z()});
    }
  }
  const json_t* parent = json_object_get(object, "parent");
  if (parent) {
    bool inactive = false;
    auto point = endPoint(parent, 0, ErrorCode::FRAME_ATTACHED_TO_INVALID, what + " parent", inactive);
    if (!point) return;
    def.at = *point;
  }
  lights_.push_back(def);
}

// ---------------------------------------------------------------------------------------------
// assemblies and bodies

void Reader::readAssembly(const json_t* object, int parent, bool parentActive) {
  const int index = static_cast<int>(assemblies_.size());
  AssemblyRecord assembly;
  assembly.where = at(object);
  assembly.parent = parent;
  if (parent < 0) {
    assembly.name = fs::path(request_.path).stem().string();
    if (assembly.name.empty()) assembly.name = "shift";
  } else {
    auto name = string(object, "name", "assembly", true);
    if (!name || !checkName(*name, at(object, "name"), "assembly", false)) return;
    for (int sibling : assemblies_[static_cast<std::size_t>(parent)].children) {
      if (assemblies_[static_cast<std::size_t>(sibling)].name == *name) {
        diagnostics_.error(ErrorCode::DUPLICATE_NAME,
                           "assembly '" + *name + "' is defined twice in " + assemblyPath(parent),
                           at(object, "name"));
        return;
      }
    }
    assembly.name = *name;
  }
  const bool ownActive = parent < 0 ? true : flag(object, "active", "assembly '" + assembly.name + "'").value_or(true);
  assembly.active = parentActive && ownActive;
  assemblies_.push_back(assembly);
  assemblyJson_.push_back(object);
  if (parent >= 0) assemblies_[static_cast<std::size_t>(parent)].children.push_back(index);
  const std::string path = assemblyPath(index);
  if (parent >= 0 && parentActive && !ownActive)
    diagnostics_.add(Diagnostic{Severity::Note, ErrorCode::NONE,
                                path + " is switched off (active: false): its bodies, joints and subassemblies "
                                       "are left out",
                                at(object, "active")});

  if (parent >= 0) {
    std::vector<KeptElement> kept;
    warnUnknownKeys(object, {"name", "active", "bodies", "joints", "restraints", "assemblies"}, path, kept);
    for (auto& k : kept) assemblies_[static_cast<std::size_t>(index)].kept.push_back(std::move(k));
  }

  if (const json_t* bodies = array(object, "bodies", path)) {
    for (std::size_t i = 0; i < json_array_size(bodies); ++i)
      readBody(json_array_get(bodies, i), index, assemblies_[static_cast<std::size_t>(index)].active);
  }
  if (const json_t* children = array(object, "assemblies", path)) {
    for (std::size_t i = 0; i < json_array_size(children); ++i) {
      const json_t* child = json_array_get(children, i);
      if (!json_is_object(child)) {
        wrongType(child, at(child), path + " subassembly", "an object");
        continue;
      }
      readAssembly(child, index, assemblies_[static_cast<std::size_t>(index)].active);
    }
  }
}

void Reader::readBody(const json_t* object, int assembly, bool assemblyActive) {
  const std::string path = assemblyPath(assembly);
  if (!json_is_object(object)) {
    wrongType(object, at(object), "body in " + path, "an object");
    return;
  }
  auto name = string(object, "name", "body in " + path, true);
  if (!name || !checkName(*name, at(object, "name"), "body", false)) return;
  if (*name == kFixed) {
    diagnostics_.error(ErrorCode::RESERVED_NAME, "body name 'fixed' is reserved for the fixed inertial frame",
                       at(object, "name"));
    return;
  }
  auto& owner = assemblies_[static_cast<std::size_t>(assembly)];
  for (int other : owner.bodies) {
    if (bodies_[static_cast<std::size_t>(other)].name == *name) {
      diagnostics_.error(ErrorCode::DUPLICATE_NAME,
                         "body '" + *name + "' is defined twice in " + path + " (first at line " +
                             std::to_string(bodies_[static_cast<std::size_t>(other)].where.line) + ")",
                         at(object, "name"));
      return;
    }
  }
  BodyRecord body;
  body.name = *name;
  body.assembly = assembly;
  body.where = at(object);
  body.active = assemblyActive && flag(object, "active", "body '" + *name + "'").value_or(true);
  const std::string what = "body '" + *name + "'";
  body.link.name = *name;
  body.link.where = body.where;

  std::vector<KeptElement> kept;
  warnUnknownKeys(object,
                  {"name", "active", "definition", "geometry", "center_of_mass", "mass", "moment_of_inertia",
                   "inertia", "frames", "collision_geometry"},
                  path + "/" + *name, kept);
  for (auto& k : kept) owner.kept.push_back(std::move(k));

  if (body.active) {
    readInertia(object, body);
    readGeometry(object, body);
    if (auto collision = string(object, "collision_geometry", what, false))
      body.collisionGeometry = *collision;
  }
  if (const json_t* frames = array(object, "frames", what)) {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < json_array_size(frames); ++i) {
      const json_t* frame = json_array_get(frames, i);
      if (!json_is_object(frame)) {
        wrongType(frame, at(frame), what + " frame", "an object");
        continue;
      }
      auto frameName = string(frame, "name", what + " frame", true);
      if (!frameName || !checkName(*frameName, at(frame, "name"), what + " frame", true)) continue;
      if (!seen.insert(*frameName).second) {
        diagnostics_.error(ErrorCode::DUPLICATE_NAME, what + ": frame '" + *frameName + "' is defined twice",
                           at(frame, "name"));
        continue;
      }
      std::vector<KeptElement> frameKept;
      warnUnknownKeys(frame, {"name", "T", "R"}, path + "/" + *name + "/" + *frameName, frameKept);
      for (auto& k : frameKept) owner.kept.push_back(std::move(k));
      auto pose = framePose(frame, what + " frame '" + *frameName + "'");
      if (!pose) continue;
      body.frames.push_back(FrameRecord{*frameName, *pose, at(frame)});
    }
  }
  const int index = static_cast<int>(bodies_.size());
  bodies_.push_back(std::move(body));
  assemblies_[static_cast<std::size_t>(assembly)].bodies.push_back(index);
}

void Reader::readInertia(const json_t* object, BodyRecord& body) {
  const std::string what = "body '" + body.name + "'";
  // 0.2: mass and moment_of_inertia beside each other; 2.0: one "inertia" object with the mass.
  const json_t* moments = json_object_get(object, "moment_of_inertia");
  const json_t* inertia = json_object_get(object, "inertia");
  const json_t* tensor = moments ? moments : inertia;
  const json_t* mass = json_object_get(object, "mass");
  if (!mass && json_is_object(inertia)) mass = json_object_get(inertia, "mass");
  Inertial& inertial = body.link.inertial;
  inertial.where = at(tensor ? tensor : object);
  bool any = false;
  if (mass) {
    if (auto m = number(mass, at(mass), what + " mass")) {
      inertial.mass = *m * units_.mass;
      any = true;
      if (*m <= 0)
        diagnostics_.warning(ErrorCode::LINK_INERTIA_INVALID, what + ": mass " + formatNumber(*m) + " is not positive",
                             at(mass));
    }
  }
  if (const json_t* com = json_object_get(object, "center_of_mass")) {
    if (auto c = vector3(com, at(com), what + " center_of_mass")) {
      inertial.centerOfMass.translation() = *c * units_.length;
      any = true;
    }
  }
  if (tensor) {
    if (!json_is_object(tensor)) {
      wrongType(tensor, at(tensor), what + " inertia", "an object with Ixx, Iyy, Izz, Ixy, Iyz, Izx");
    } else {
      const double scale = units_.mass * units_.length * units_.length;
      auto entry = [&](const char* key) -> double {
        const json_t* value = json_object_get(tensor, key);
        if (!value) return 0.0;
        return number(value, at(value), what + " " + key).value_or(0.0) * scale;
      };
      Matrix3 I;
      const double ixy = entry("Ixy"), iyz = entry("Iyz"), izx = entry("Izx");
      I << entry("Ixx"), ixy, izx, ixy, entry("Iyy"), iyz, izx, iyz, entry("Izz");
      for (const char* key : {"Ixx", "Iyy", "Izz"})
        if (!json_object_get(tensor, key))
          diagnostics_.warning(ErrorCode::ELEMENT_MISSING, what + " inertia: '" + key + "' is missing; 0 is used",
                               at(tensor));
      inertial.inertia = I;
      any = true;
      Eigen::SelfAdjointEigenSolver<Matrix3> solver(I);
      const Vector3 principal = solver.eigenvalues();
      const bool triangle = principal[0] + principal[1] >= principal[2] * (1 - 1e-9);
      if (principal.minCoeff() < 0 || !triangle)
        diagnostics_.warning(ErrorCode::LINK_INERTIA_INVALID,
                             what + ": the inertia tensor is not physical (principal moments " +
                                 joinNumbers({principal[0], principal[1], principal[2]}) + ")",
                             at(tensor));
    }
  }
  body.link.hasInertial = any;
}

void Reader::addMesh(BodyRecord& body, const std::string& uri, const std::string& material,
                     const SourceLocation& where) {
  Shape shape;
  shape.name = body.link.visuals.empty() ? "visual" : "visual_" + std::to_string(body.link.visuals.size());
  shape.where = where;
  shape.material = material;
  shape.geometry.type = GeometryType::Mesh;
  shape.geometry.meshUri = uri;
  shape.geometry.scale = Vector3::Constant(units_.length);

  const fs::path base = fs::path(request_.path).parent_path();
  std::vector<fs::path> candidates;
  if (fs::path(uri).is_absolute()) candidates.emplace_back(uri);
  candidates.push_back(base / uri);
  for (const auto& dir : includeDirectories_) candidates.push_back(base / dir / uri);
  std::string found;
  std::error_code ec;
  for (const auto& candidate : candidates) {
    if (fs::is_regular_file(candidate, ec)) {
      found = fs::weakly_canonical(candidate, ec).string();
      break;
    }
  }
  if (found.empty() && request_.host && request_.host->size >= sizeof(plugin::HostServices) &&
      request_.host->resolveUri) {
    found = request_.host->resolveUri(request_.host->context, uri, request_.path);
  }
  if (found.empty()) {
    std::string searched;
    for (const auto& candidate : candidates) searched += (searched.empty() ? "" : ", ") + candidate.string();
    diagnostics_.warning(ErrorCode::URI_LOOKUP,
                         "body '" + body.name + "': mesh '" + uri + "' not found (searched " + searched +
                             "); the body keeps its mass properties, the mesh is not measured",
                         where);
  } else {
    shape.geometry.meshResolvedPath = found;
    const MeshReading& reading = meshes_.read(found);
    if (reading.info) {
      MeshInfo info = *reading.info;
      info.boundsMin *= units_.length;
      info.boundsMax *= units_.length;
      shape.geometry.mesh = info;
    } else {
      diagnostics_.warning(ErrorCode::FILE_READ,
                           "body '" + body.name + "': mesh '" + found + "' could not be read: " + reading.error, where);
    }
  }
  body.link.visuals.push_back(std::move(shape));
}

void Reader::readGeometry(const json_t* object, BodyRecord& body) {
  const std::string what = "body '" + body.name + "'";
  // A file list: [mesh, material] (material optional) or a single name.
  auto readFiles = [&](const json_t* files, const SourceLocation& where) {
    if (json_is_string(files)) {
      addMesh(body, json_string_value(files), "", where);
      return;
    }
    if (!json_is_array(files) || json_array_size(files) == 0 || !json_is_string(json_array_get(files, 0))) {
      wrongType(files, where, what + " mesh files", "[mesh file, material file]");
      return;
    }
    const json_t* material = json_array_get(files, 1);
    addMesh(body, json_string_value(json_array_get(files, 0)), json_is_string(material) ? json_string_value(material) : "",
            where);
  };
  if (const json_t* definition = json_object_get(object, "definition")) {
    if (!json_is_null(definition)) readFiles(definition, at(definition));
  }
  const json_t* geometry = json_object_get(object, "geometry");
  if (!geometry || json_is_null(geometry)) return;
  auto readOne = [&](const json_t* entry) {
    if (!json_is_object(entry)) {
      wrongType(entry, at(entry), what + " geometry", "an object with 'type' and 'filename'");
      return;
    }
    const std::string type = toLower(string(entry, "type", what + " geometry", false).value_or("mesh"));
    if (type != "mesh") {
      diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                           what + ": geometry type '" + type + "' is not known (expected mesh); kept as written",
                           at(entry, "type"));
      keep(assemblies_[static_cast<std::size_t>(body.assembly)].kept, "geometry", entry);
      return;
    }
    const json_t* files = json_object_get(entry, "filename");
    if (!files) {
      diagnostics_.error(ErrorCode::ELEMENT_MISSING, what + " geometry: 'filename' is missing", at(entry));
      return;
    }
    readFiles(files, at(files));
  };
  if (json_is_array(geometry)) {
    for (std::size_t i = 0; i < json_array_size(geometry); ++i) readOne(json_array_get(geometry, i));
  } else {
    readOne(geometry);
  }
}

// ---------------------------------------------------------------------------------------------
// references

std::optional<int> Reader::findAssembly(const std::vector<std::string>& path, int start) const {
  int current = start;
  for (const auto& segment : path) {
    int next = -1;
    for (int child : assemblies_[static_cast<std::size_t>(current)].children)
      if (assemblies_[static_cast<std::size_t>(child)].name == segment) next = child;
    if (next < 0) return std::nullopt;
    current = next;
  }
  return current;
}

Reader::BodyLookup Reader::findBody(const std::vector<std::string>& path, int fromAssembly) const {
  BodyLookup result;
  if (path.size() == 1 && path[0] == kFixed) {
    result.found = true;
    return result;
  }
  auto bodyIn = [this](int assembly, const std::string& name) -> int {
    for (int body : assemblies_[static_cast<std::size_t>(assembly)].bodies)
      if (bodies_[static_cast<std::size_t>(body)].name == name) return body;
    return -1;
  };
  int body = -1;
  if (path.size() == 1) {
    // A bare name is looked up in the local assembly only.
    body = bodyIn(fromAssembly, path[0]);
    if (body < 0) result.reason = "no body '" + path[0] + "' in " + assemblyPath(fromAssembly);
  } else {
    const std::vector<std::string> assemblyPart(path.begin(), path.end() - 1);
    // A path is tried below the local assembly first, then from the top of the file.
    for (int start : {fromAssembly, 0}) {
      if (auto assembly = findAssembly(assemblyPart, start)) {
        body = bodyIn(*assembly, path.back());
        if (body >= 0) break;
      }
      if (start == 0) break;
    }
    if (body < 0) result.reason = "no body at path '" + joinPath(path, ":") + "'";
  }
  if (body < 0) return result;
  result.found = true;
  result.body = body;
  result.inactive = !bodies_[static_cast<std::size_t>(body)].active;
  return result;
}

std::optional<EndPoint> Reader::resolve(const std::vector<std::string>& bodyPath, const std::string& frame,
                                        const SourceLocation& where, const SourceLocation& frameWhere, int assembly,
                                        ErrorCode code, const std::string& what, bool& inactive) {
  for (const auto& segment : bodyPath) {
    if (segment.empty()) {
      diagnostics_.error(code, what + ": empty name in path '" + joinPath(bodyPath, ":") + "'", where);
      return std::nullopt;
    }
  }
  BodyLookup lookup = findBody(bodyPath, assembly);
  if (!lookup.found) {
    diagnostics_.error(code, what + ": " + lookup.reason, where);
    return std::nullopt;
  }
  if (lookup.inactive) {
    inactive = true;
    return std::nullopt;
  }
  EndPoint point;
  point.body = lookup.body;
  point.frame = frame;
  point.where = where;
  if (frame == kOrigin) return point;
  const auto& frames = lookup.body == kFixedBody ? fixedFrames_ : bodies_[static_cast<std::size_t>(lookup.body)].frames;
  for (const auto& f : frames) {
    if (f.name == frame) {
      point.frameInBody = f.pose;
      return point;
    }
  }
  std::string available = "origin";
  for (const auto& f : frames) available += ", " + f.name;
  const std::string owner =
      lookup.body == kFixedBody ? std::string("the fixed frame") : "body '" + joinPath(bodyPath, ":") + "'";
  diagnostics_.error(code, what + ": " + owner + " has no frame '" + frame + "' (it has: " + available + ")",
                     frameWhere.line > 0 ? frameWhere : where);
  return std::nullopt;
}

std::optional<EndPoint> Reader::endPoint(const json_t* pair, int assembly, ErrorCode code, const std::string& what,
                                         bool& inactive) {
  const SourceLocation where = at(pair);
  if (!json_is_array(pair) || json_array_size(pair) != 2) {
    diagnostics_.error(ErrorCode::ELEMENT_INCORRECT_TYPE, what + ": expected [body, frame]", where);
    return std::nullopt;
  }
  const json_t* body = json_array_get(pair, 0);
  const json_t* frame = json_array_get(pair, 1);
  if (json_is_array(body)) return endPoint20(body, frame, where, assembly, code, what, inactive);
  if (!json_is_string(body) || !json_is_string(frame)) {
    diagnostics_.error(ErrorCode::ELEMENT_INCORRECT_TYPE, what + ": expected [body, frame] as two names", where);
    return std::nullopt;
  }
  const SourceLocation bodyWhere = at(body).line > 0 ? at(body) : where;
  return resolve(splitPath(json_string_value(body)), json_string_value(frame), bodyWhere, at(frame), assembly, code,
                 what, inactive);
}

std::optional<EndPoint> Reader::endPoint20(const json_t* bodyPath, const json_t* frame, const SourceLocation& where,
                                           int assembly, ErrorCode code, const std::string& what, bool& inactive) {
  // 2.0: [[assembly, ..., body], frame]
  std::vector<std::string> path;
  for (std::size_t i = 0; i < json_array_size(bodyPath); ++i) {
    const json_t* segment = json_array_get(bodyPath, i);
    if (!json_is_string(segment)) {
      diagnostics_.error(ErrorCode::ELEMENT_INCORRECT_TYPE, what + ": the body path holds names only", where);
      return std::nullopt;
    }
    for (auto& part : splitPath(json_string_value(segment))) path.push_back(part);
  }
  if (path.empty() || !json_is_string(frame)) {
    diagnostics_.error(ErrorCode::ELEMENT_INCORRECT_TYPE, what + ": expected [[assembly, ..., body], frame]", where);
    return std::nullopt;
  }
  return resolve(path, json_string_value(frame), at(bodyPath).line > 0 ? at(bodyPath) : where, at(frame), assembly,
                 code, what, inactive);
}

// ---------------------------------------------------------------------------------------------
// joints

bool Reader::readJointType(const json_t* object, JointRecord& joint) {
  const std::string what = "joint '" + joint.name + "'";
  auto type = string(object, "type", what, true);
  if (!type) return false;
  joint.typeName = *type;
  const std::string t = toLower(*type);
  const std::map<std::string, std::pair<JointType, Vector3>> primitives = {
      {"rx", {JointType::Revolute, Vector3::UnitX()}},  {"ry", {JointType::Revolute, Vector3::UnitY()}},
      {"rz", {JointType::Revolute, Vector3::UnitZ()}},  {"tx", {JointType::Prismatic, Vector3::UnitX()}},
      {"ty", {JointType::Prismatic, Vector3::UnitY()}}, {"tz", {JointType::Prismatic, Vector3::UnitZ()}}};
  if (auto it = primitives.find(t); it != primitives.end()) {
    joint.type = it->second.first;
    joint.axis = it->second.second;
    return true;
  }
  if (t == "rigid") joint.type = JointType::Fixed;
  else if (t == "float") joint.type = JointType::Free;
  else if (t == "spherical") joint.type = JointType::Ball;
  else if (t == "revolute") joint.type = JointType::Revolute;
  else if (t == "prismatic") joint.type = JointType::Prismatic;
  else {
    diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                       what + ": unknown joint type '" + *type +
                           "' (expected Rx, Ry, Rz, Tx, Ty, Tz, rigid, float, spherical, revolute or prismatic)",
                       at(object, "type"));
    return false;
  }
  if (t == "revolute" || t == "prismatic") {
    const json_t* axis = json_object_get(object, "axis");
    if (!axis) {
      diagnostics_.error(ErrorCode::ELEMENT_MISSING, what + ": a " + t + " joint needs 'axis'", at(object));
      return false;
    }
    if (json_is_string(axis)) {
      std::string name = toLower(json_string_value(axis));
      double sign = 1;
      if (!name.empty() && (name[0] == '-' || name[0] == '+')) {
        sign = name[0] == '-' ? -1 : 1;
        name.erase(0, 1);
      }
      if (name == "x") joint.axis = sign * Vector3::UnitX();
      else if (name == "y") joint.axis = sign * Vector3::UnitY();
      else if (name == "z") joint.axis = sign * Vector3::UnitZ();
      else {
        diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                           what + ": axis '" + name + "' is not x, y, z or a vector of 3 numbers", at(axis));
        return false;
      }
    } else {
      auto v = vector3(axis, at(axis), what + " axis");
      if (!v) return false;
      if (v->norm() < 1e-12) {
        diagnostics_.error(ErrorCode::VALUE_INVALID, what + ": the axis is the zero vector", at(axis));
        return false;
      }
      joint.axis = v->normalized();
    }
  }
  return true;
}

void Reader::readInitialValues(const json_t* object, JointRecord& joint) {
  const std::string what = "joint '" + joint.name + "'";
  const json_t* displacement = json_object_get(object, "initial_displacement");
  const json_t* velocity = json_object_get(object, "initial_velocity");
  const int dofs = dofCount(joint.type);
  const double scale = joint.type == JointType::Revolute ? units_.angle : units_.length;

  if (joint.type == JointType::Revolute || joint.type == JointType::Prismatic) {
    if (displacement && !json_is_null(displacement)) {
      if (auto q = number(displacement, at(displacement), what + " initial_displacement"))
        joint.initialPositions = {*q * scale};
    }
  } else if (displacement && !json_is_null(displacement)) {
    // rigid, float and spherical: {R, T}, X_PC of the joint's child frame in its parent frame.
    if (json_is_number(displacement) && json_number_value(displacement) == 0.0) {
      // 0 means "no displacement", as some files write it
    } else if (!json_is_object(displacement)) {
      wrongType(displacement, at(displacement), what + " initial_displacement", "an object {R, T}");
    } else if (auto pose = framePose(displacement, what + " initial_displacement")) {
      joint.offset = *pose;
      if (joint.type == JointType::Ball && pose->translation().norm() > 1e-12)
        diagnostics_.warning(ErrorCode::VALUE_INVALID,
                             what + ": a spherical joint cannot translate; 'T' of initial_displacement is ignored",
                             at(displacement));
      if (joint.type == JointType::Ball) joint.offset.translation().setZero();
    }
  }

  if (velocity && !json_is_null(velocity) && dofs > 0) {
    const double vscale = scale / units_.time;
    if (json_is_number(velocity)) {
      const double v = json_number_value(velocity);
      if (dofs == 1) joint.initialVelocities = {v * vscale};
      else if (v != 0.0)
        diagnostics_.error(ErrorCode::VALUE_INVALID,
                           what + ": initial_velocity of a " + std::string(jointTypeName(joint.type)) +
                               " joint needs " + std::to_string(dofs) + " numbers, not one",
                           at(velocity));
    } else if (json_is_array(velocity) && json_array_size(velocity) == static_cast<std::size_t>(dofs)) {
      std::vector<double> values;
      for (std::size_t i = 0; i < json_array_size(velocity); ++i) {
        const json_t* entry = json_array_get(velocity, i);
        auto v = number(entry, at(entry), what + " initial_velocity");
        if (!v) return;
        values.push_back(*v / units_.time);
      }
      joint.initialVelocities = values;
    } else if (json_is_object(velocity)) {
      wrongType(velocity, at(velocity), what + " initial_velocity", "a number or an array of numbers");
    } else {
      diagnostics_.error(ErrorCode::VALUE_INVALID,
                         what + ": initial_velocity needs " + std::to_string(dofs) + " number(s)", at(velocity));
    }
  }
}

void Reader::readJoint(const json_t* object, int assembly) {
  const std::string path = assemblyPath(assembly);
  if (!json_is_object(object)) {
    wrongType(object, at(object), "joint in " + path, "an object");
    return;
  }
  auto name = string(object, "name", "joint in " + path, true);
  if (!name || !checkName(*name, at(object, "name"), "joint", false)) return;
  auto& owner = assemblies_[static_cast<std::size_t>(assembly)];
  if (!flag(object, "active", "joint '" + *name + "'").value_or(true)) {
    keep(owner.kept, "joint/" + *name, object);
    return;
  }
  JointRecord joint;
  joint.name = *name;
  joint.assembly = assembly;
  joint.where = at(object);
  const std::string what = "joint '" + *name + "'";
  std::vector<KeptElement> kept;
  warnUnknownKeys(object,
                  {"name", "type", "active", "body_frame_pairs", "parent", "child", "axis", "initial_displacement",
                   "initial_velocity", "stiffness", "damping", "damping_coefficients"},
                  path + "/" + *name, kept);
  for (auto& k : kept) owner.kept.push_back(std::move(k));

  bool ok = readJointType(object, joint);
  // Endpoints: 0.2 body_frame_pairs [[parent body, frame], [child body, frame]]; 2.0 parent/child.
  bool inactive = false;
  std::optional<EndPoint> parent;
  std::optional<EndPoint> child;
  if (const json_t* pairs = json_object_get(object, "body_frame_pairs")) {
    if (!json_is_array(pairs) || json_array_size(pairs) != 2) {
      diagnostics_.error(ErrorCode::ELEMENT_INCORRECT_TYPE,
                         what + ": body_frame_pairs must be [[parent body, frame], [child body, frame]]", at(pairs));
      ok = false;
    } else {
      parent = endPoint(json_array_get(pairs, 0), assembly, ErrorCode::JOINT_PARENT_LINK_INVALID, what + " parent",
                        inactive);
      child = endPoint(json_array_get(pairs, 1), assembly, ErrorCode::JOINT_CHILD_LINK_INVALID, what + " child",
                       inactive);
    }
  } else if (json_object_get(object, "parent") || json_object_get(object, "child")) {
    const json_t* p = json_object_get(object, "parent");
    const json_t* c = json_object_get(object, "child");
    if (!p || !c) {
      diagnostics_.error(ErrorCode::ELEMENT_MISSING, what + ": needs both 'parent' and 'child'", at(object));
      ok = false;
    } else {
      parent = endPoint(p, assembly, ErrorCode::JOINT_PARENT_LINK_INVALID, what + " parent", inactive);
      child = endPoint(c, assembly, ErrorCode::JOINT_CHILD_LINK_INVALID, what + " child", inactive);
    }
  } else {
    diagnostics_.error(ErrorCode::ELEMENT_MISSING, what + ": 'body_frame_pairs' (or 'parent' and 'child') is missing",
                       at(object));
    ok = false;
  }
  if (inactive) {
    diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                         what + " connects a body that is switched off (active: false); the joint is left out",
                         at(object));
    keep(owner.kept, "joint/" + *name, object);
    return;
  }
  if (!parent || !child || !ok) return;
  if (parent->body == child->body) {
    diagnostics_.error(ErrorCode::JOINT_PARENT_SAME_AS_CHILD,
                       what + ": parent and child are the same " +
                           (parent->body == kFixedBody ? std::string("fixed frame")
                                                       : "body '" + bodies_[static_cast<std::size_t>(parent->body)].name + "'"),
                       at(object));
    return;
  }
  joint.parent = *parent;
  joint.child = *child;
  readInitialValues(object, joint);
  for (const char* key : {"stiffness", "damping", "damping_coefficients"}) {
    const json_t* values = json_object_get(object, key);
    if (!values) continue;
    std::vector<double> numbers;
    if (json_is_number(values)) numbers.push_back(json_number_value(values));
    for (std::size_t i = 0; json_is_array(values) && i < json_array_size(values); ++i) {
      const json_t* entry = json_array_get(values, i);
      if (auto n = number(entry, at(entry), what + " " + key)) numbers.push_back(*n);
    }
    if (std::string(key) == "stiffness") joint.stiffness = numbers;
    else if (std::string(key) == "damping") joint.damping = numbers;
    else joint.dampingCoefficients = numbers;
  }
  const int index = static_cast<int>(joints_.size());
  joints_.push_back(std::move(joint));
  owner.joints.push_back(index);
}

void Reader::readRestraint(const json_t* object, const std::string& key, int assembly) {
  AssemblyRecord& owner = assemblies_[static_cast<std::size_t>(assembly)];
  const std::string path = assemblyPath(assembly);
  if (!json_is_object(object)) {
    wrongType(object, at(object), "restraint in " + path, "an object");
    return;
  }
  std::string name = key;
  if (name.empty()) {
    auto written = string(object, "name", "restraint in " + path, true);
    if (!written) return;
    name = *written;
  }
  if (!checkName(name, at(object, "name"), "restraint", false)) return;
  const std::string what = "restraint '" + name + "'";
  bool defined = false;
  for (int r : owner.restraints) defined = defined || restraints_[static_cast<std::size_t>(r)].name == name;
  if (defined) {
    diagnostics_.error(ErrorCode::DUPLICATE_NAME, what + " is defined twice in " + path, at(object, "name"));
    return;
  }
  std::vector<KeptElement> kept;
  warnUnknownKeys(object,
                  {"name", "type", "joint", "body_frame_pair", "body_frame_pairs", "distance_type", "knot_points",
                   "coefficients", "active"},
                  path + "/restraint/" + name, kept);
  if (!flag(object, "active", what).value_or(true)) {
    keep(owner.kept, "restraint/" + name, object);
    return;
  }
  bool ok = true;
  RestraintRecord out;
  out.name = name;
  out.assembly = assembly;
  out.where = at(object);
  auto type = string(object, "type", what, true);
  if (!type) {
    ok = false;
  } else {
    const std::string t = toLower(*type);
    if (t == "spring") out.type = RestraintType::Spring;
    else if (t == "damper") out.type = RestraintType::Damper;
    else if (t == "friction") out.type = RestraintType::Friction;
    else {
      diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                         what + ": unknown type '" + *type + "' (expected spring, damper or friction)",
                         at(object, "type"));
      ok = false;
    }
  }

  const json_t* jointRef = json_object_get(object, "joint");
  const json_t* pair = json_object_get(object, "body_frame_pair");
  if (!pair) pair = json_object_get(object, "body_frame_pairs");
  if (jointRef && pair) {
    diagnostics_.error(ErrorCode::ELEMENT_INVALID, what + ": give either 'joint' or 'body_frame_pair', not both",
                       at(object));
    ok = false;
  } else if (!jointRef && !pair) {
    diagnostics_.error(ErrorCode::ELEMENT_MISSING, what + ": needs 'joint' or 'body_frame_pair'", at(object));
    ok = false;
  } else if (jointRef) {
    if (!json_is_string(jointRef)) {
      wrongType(jointRef, at(jointRef), what + " 'joint'", "a joint name or path");
      ok = false;
    } else {
      const std::vector<std::string> parts = splitPath(json_string_value(jointRef));
      std::optional<int> in = parts.size() == 1 ? std::optional<int>(assembly)
                                                : findAssembly({parts.begin(), parts.end() - 1}, assembly);
      if (!in && parts.size() > 1) in = findAssembly({parts.begin(), parts.end() - 1}, 0);
      int found = -1;
      if (in)
        for (int j : assemblies_[static_cast<std::size_t>(*in)].joints)
          if (joints_[static_cast<std::size_t>(j)].name == parts.back() && found < 0) found = j;
      if (found < 0) {
        diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                           what + ": no joint '" + json_string_value(jointRef) + "' in " + path, at(jointRef));
        ok = false;
      } else {
        const JointRecord& joint = joints_[static_cast<std::size_t>(found)];
        out.joint = found;
        if (joint.type != JointType::Revolute && joint.type != JointType::Prismatic) {
          diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                             what + ": joint '" + joint.name + "' is a " + joint.typeName +
                                 " joint; a restraint needs one joint variable (Rx..Tz, revolute, prismatic)",
                             at(jointRef));
          ok = false;
        }
      }
    }
    if (json_object_get(object, "distance_type"))
      diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                           what + ": 'distance_type' only applies to a body_frame_pair; ignored",
                           at(object, "distance_type"));
  } else {
    if (!json_is_array(pair) || json_array_size(pair) != 2) {
      diagnostics_.error(ErrorCode::ELEMENT_INCORRECT_TYPE, what + ": body_frame_pair must be [[body, frame], [body, frame]]",
                         at(pair));
      ok = false;
    } else {
      bool inactive = false;
      auto first = endPoint(json_array_get(pair, 0), assembly, ErrorCode::ELEMENT_INVALID, what + " first frame", inactive);
      auto second = endPoint(json_array_get(pair, 1), assembly, ErrorCode::ELEMENT_INVALID, what + " second frame", inactive);
      if (inactive) {
        diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                             what + " acts on a body that is switched off (active: false); the restraint is left out",
                             at(object));
        keep(owner.kept, "restraint/" + name, object);
        return;
      }
      if (!first || !second) {
        ok = false;
      } else {
        out.first = *first;
        out.second = *second;
      }
    }
    if (auto distance = string(object, "distance_type", what, false)) {
      if (*distance == "Tx") out.distance = Distance::Tx;
      else if (*distance == "Ty") out.distance = Distance::Ty;
      else if (*distance == "Tz") out.distance = Distance::Tz;
      else if (toLower(*distance) == "euclidean") out.distance = Distance::Euclidean;
      else {
        diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                           what + ": distance_type '" + *distance + "' is not Tx, Ty, Tz or euclidean",
                           at(object, "distance_type"));
        ok = false;
      }
    }
  }

  // Piecewise polynomial: n knots, n + 1 coefficient arrays (highest power first).
  std::vector<double> knots;
  if (const json_t* k = json_object_get(object, "knot_points")) {
    if (json_is_number(k)) {
      knots.push_back(json_number_value(k));
    } else if (!json_is_array(k)) {
      wrongType(k, at(k), what + " knot_points", "an array of numbers");
      ok = false;
    } else {
      for (std::size_t i = 0; i < json_array_size(k); ++i) {
        const json_t* entry = json_array_get(k, i);
        if (auto n = number(entry, at(entry), what + " knot_points")) knots.push_back(*n);
        else ok = false;
      }
      for (std::size_t i = 1; i < knots.size(); ++i) {
        if (!(knots[i - 1] < knots[i])) {
          diagnostics_.error(ErrorCode::ELEMENT_INVALID, what + ": knot_points must increase strictly", at(k));
          ok = false;
          break;
        }
      }
    }
  }
  const json_t* coefficients = json_object_get(object, "coefficients");
  if (!coefficients) {
    diagnostics_.error(ErrorCode::ELEMENT_MISSING, what + ": 'coefficients' is missing", at(object));
    ok = false;
  } else if (!json_is_array(coefficients)) {
    wrongType(coefficients, at(coefficients), what + " coefficients", "an array of coefficient arrays");
    ok = false;
  } else {
    if (json_array_size(coefficients) != knots.size() + 1) {
      diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                         what + ": " + std::to_string(knots.size()) + " knot point(s) need " +
                             std::to_string(knots.size() + 1) + " coefficient arrays (one per interval), got " +
                             std::to_string(json_array_size(coefficients)),
                         at(coefficients));
      ok = false;
    }
    for (std::size_t i = 0; i < json_array_size(coefficients); ++i) {
      const json_t* polynomial = json_array_get(coefficients, i);
      std::vector<double> values;
      if (json_is_number(polynomial)) {
        values.push_back(json_number_value(polynomial));
      } else if (!json_is_array(polynomial) || json_array_size(polynomial) == 0) {
        diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                           what + ": coefficient array " + std::to_string(i + 1) + " must hold at least one number",
                           at(polynomial).line > 0 ? at(polynomial) : at(coefficients));
        ok = false;
      } else {
        for (std::size_t c = 0; c < json_array_size(polynomial); ++c) {
          const json_t* entry = json_array_get(polynomial, c);
          if (auto n = number(entry, at(entry), what + " coefficient")) values.push_back(*n);
          else ok = false;
        }
      }
      out.function.coefficients.push_back(std::move(values));
    }
  }
  if (!ok) return;
  out.function.knots = std::move(knots);
  owner.restraints.push_back(static_cast<int>(restraints_.size()));
  restraints_.push_back(std::move(out));
  for (auto& k : kept) owner.kept.push_back(std::move(k));
  keep(owner.kept, "restraint/" + name, object);
}

bool Reader::run() {
  if (!json_.parse(request_.content, request_.path, diagnostics_)) return false;
  const json_t* root = json_.root();
  if (!json_is_object(root)) {
    wrongType(root, at(root), "a Shift file", "a JSON object at the top");
    return false;
  }
  file_.where = at(root);
  warnUnknownKeys(root,
                  {"model_parameters", "fixed", "frames", "lights", "terrain", "assemblies", "bodies", "joints",
                   "restraints"},
                  "top level", worldKept_);
  readParameters(json_object_get(root, "model_parameters"));

  // Fixed frames and lights: 0.2 keeps them in "fixed", 2.0 at the top level.
  const json_t* fixed = json_object_get(root, "fixed");
  if (fixed && !json_is_object(fixed)) {
    wrongType(fixed, at(fixed), "'fixed'", "an object with frames and lights");
    fixed = nullptr;
  }
  std::vector<const json_t*> lightLists;
  for (const json_t* holder : {fixed, root}) {
    if (!holder) continue;
    const std::string where = holder == fixed ? "fixed" : "top level";
    if (holder == fixed) warnUnknownKeys(fixed, {"frames", "lights", "terrain"}, "fixed", worldKept_);
    const json_t* frames = array(holder, "frames", where);
    const json_t* terrain = json_object_get(holder, "terrain");
    readFixed(frames, terrain);
    if (const json_t* lights = array(holder, "lights", where)) lightLists.push_back(lights);
  }

  if (!json_object_get(root, "assemblies") && !json_object_get(root, "bodies"))
    diagnostics_.warning(ErrorCode::ELEMENT_MISSING, "no 'assemblies' (nor top-level 'bodies'): nothing moves",
                         at(root));
  readAssembly(root, -1, true);

  // Joints and restraints once every body is known: they may name bodies anywhere by path.
  struct PendingRestraint {
    const json_t* object;
    std::string key;
    int assembly;
  };
  std::vector<PendingRestraint> restraints;
  for (std::size_t a = 0; a < assemblies_.size(); ++a) {
    AssemblyRecord& assembly = assemblies_[a];
    const std::string path = assemblyPath(static_cast<int>(a));
    if (!assembly.active) {
      if (assembly.parent >= 0 && assemblies_[static_cast<std::size_t>(assembly.parent)].active)
        keep(assemblies_[static_cast<std::size_t>(assembly.parent)].kept, "assembly/" + assembly.name, assemblyJson_[a]);
      continue;
    }
    if (const json_t* joints = array(assemblyJson_[a], "joints", path)) {
      for (std::size_t i = 0; i < json_array_size(joints); ++i) readJoint(json_array_get(joints, i), static_cast<int>(a));
    }
    const json_t* list = json_object_get(assemblyJson_[a], "restraints");
    if (json_is_array(list)) {
      for (std::size_t i = 0; i < json_array_size(list); ++i)
        restraints.push_back({json_array_get(list, i), "", static_cast<int>(a)});
    } else if (json_is_object(list)) {
      const char* key = nullptr;
      json_t* value = nullptr;
      json_object_foreach(const_cast<json_t*>(list), key, value) restraints.push_back({value, key, static_cast<int>(a)});
    } else if (list && !json_is_null(list)) {
      wrongType(list, at(list), path + " restraints", "an array or an object of restraints");
    }
  }
  for (const json_t* lights : lightLists)
    for (std::size_t i = 0; i < json_array_size(lights); ++i) readLight(json_array_get(lights, i), "lights");
  // A restraint may name a joint of any assembly.
  for (const auto& pending : restraints) readRestraint(pending.object, pending.key, pending.assembly);
  return true;
}

}  // namespace

bool readShiftFile(const plugin::LoadRequest& request, ShiftFile& file, Diagnostics& diagnostics) {
  return Reader(request, file, diagnostics).run();
}

int sniffShift(const char* /*path*/, const char* head, std::size_t size) {
  if (!head || size == 0) return 0;
  const std::string_view text(head, size);
  auto has = [&text](std::string_view key) { return text.find(key) != std::string_view::npos; };
  if (has("\"model_parameters\"")) return 95;
  if (has("\"body_frame_pairs\"")) return 90;
  if (has("\"assemblies\"") && (has("\"bodies\"") || has("\"fixed\"") || has("\"joints\""))) return 85;
  if (has("\"bodies\"") && has("\"joints\"")) return 70;
  if (has("\"fixed\"") && (has("\"frames\"") || has("\"lights\""))) return 60;
  return 0;
}

}  // namespace interlink::shift::detail
