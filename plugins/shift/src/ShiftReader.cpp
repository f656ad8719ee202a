// Step 1 of the Shift plugin: Shift multibody JSON -> ShiftFile records (ShiftRecords.hpp).
//
// The JSON is read into records of assemblies, bodies, joints, restraints, fixed frames and
// lights, with every value in SI units and every name reference resolved to an index and checked;
// all problems go to the diagnostics with their line and column. ShiftMapping turns the records
// into the core model. This file: JSON access, model_parameters, fixed frames, lights and the
// order of reading.
#include "ShiftReader.hpp"

#include <Eigen/SVD>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ShiftFileReader.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"

namespace interlink::shift::detail {

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

namespace {

/// The nearest rotation to a matrix that is almost one (files print 8 digits).
Matrix3 orthonormalized(const Matrix3& m) {
  Eigen::JacobiSVD<Matrix3> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
  return svd.matrixU() * svd.matrixV().transpose();
}

}  // namespace

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

std::optional<std::string> Reader::entryName(const json_t* object, const std::string& kind, const std::string& path) {
  if (!json_is_object(object)) {
    wrongType(object, at(object), kind + " in " + path, "an object");
    return std::nullopt;
  }
  auto name = string(object, "name", kind + " in " + path, true);
  if (!name || !checkName(*name, at(object, "name"), kind, false)) return std::nullopt;
  return name;
}

bool Reader::numberList(const json_t* value, const std::string& what, std::vector<double>& out) {
  if (json_is_number(value)) {
    out.push_back(json_number_value(value));
    return true;
  }
  if (!json_is_array(value)) {
    wrongType(value, at(value), what, "a number or an array of numbers");
    return false;
  }
  bool ok = true;
  for (std::size_t i = 0; i < json_array_size(value); ++i) {
    const json_t* entry = json_array_get(value, i);
    if (auto n = number(entry, at(entry), what)) out.push_back(*n);
    else ok = false;
  }
  return ok;
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
    if (holder == fixed) {
      // The fixed frame holds frames, lights and terrain; bodies there would silently vanish.
      for (const char* key : {"bodies", "joints"}) {
        if (const json_t* misplaced = json_object_get(fixed, key)) {
          diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                             std::string("'") + key + "' inside 'fixed': the fixed frame holds frames, lights and "
                                                      "terrain; bodies and joints belong in an assembly or at the top level",
                             at(misplaced));
        }
      }
      warnUnknownKeys(fixed, {"frames", "lights", "terrain", "bodies", "joints"}, "fixed", worldKept_);
    }
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

bool readShiftFile(const plugin::LoadRequest& request, ShiftFile& file, Diagnostics& diagnostics) {
  return Reader(request, file, diagnostics).run();
}

int sniffShift(const char* /*path*/, const char* head, std::size_t size) {
  if (!head || size == 0) return 0;
  const std::string_view text(head, size);
  auto has = [&text](std::string_view key) { return text.find(key) != std::string_view::npos; };
  // Interlink's own core-model JSON also has joints, frames and lights: its reader takes it.
  if (has("\"interlink_model\"")) return 0;
  if (has("\"model_parameters\"")) return 95;
  if (has("\"body_frame_pairs\"")) return 90;
  if (has("\"assemblies\"") && (has("\"bodies\"") || has("\"fixed\"") || has("\"joints\""))) return 85;
  if (has("\"bodies\"") && has("\"joints\"")) return 70;
  if (has("\"fixed\"") && (has("\"frames\"") || has("\"lights\""))) return 60;
  return 0;
}

}  // namespace interlink::shift::detail