// Step 1 of the Shift plugin: references to bodies and frames, joints and restraints into
// ShiftFile records.
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
    const auto found = bodyByName_.find({assembly, name});
    return found == bodyByName_.end() ? -1 : found->second;
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
  std::string named = frame;
  if (!lookup.found && bodyPath.size() >= 2) {
    // "factory:workcell1:robot2:body1:frame1" names frame1 of body1, as the document's example says.
    const BodyLookup owner = findBody({bodyPath.begin(), bodyPath.end() - 1}, assembly);
    if (owner.found && findFrame(owner.body, bodyPath.back())) {
      if (frame != kOrigin) {
        diagnostics_.error(code,
                           what + ": '" + joinPath(bodyPath, ":") + "' already names frame '" + bodyPath.back() +
                               "'; the frame entry after it must be 'origin', not '" + frame + "'",
                           frameWhere.line > 0 ? frameWhere : where);
        return std::nullopt;
      }
      lookup = owner;
      named = bodyPath.back();
    }
  }
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
  point.frame = named;
  point.where = where;
  if (named == kOrigin) return point;
  if (const FrameRecord* found = findFrame(lookup.body, named)) {
    point.frameInBody = found->pose;
    return point;
  }
  const auto& frames = lookup.body == kFixedBody ? fixedFrames_ : bodies_[static_cast<std::size_t>(lookup.body)].frames;
  std::string available = "origin";
  for (const auto& f : frames) available += ", " + f.name;
  const std::string owner =
      lookup.body == kFixedBody ? std::string("the fixed frame") : "body '" + joinPath(bodyPath, ":") + "'";
  diagnostics_.error(code, what + ": " + owner + " has no frame '" + frame + "' (it has: " + available + ")",
                     frameWhere.line > 0 ? frameWhere : where);
  return std::nullopt;
}

const FrameRecord* Reader::findFrame(int body, const std::string& name) const {
  const auto& frames = body == kFixedBody ? fixedFrames_ : bodies_[static_cast<std::size_t>(body)].frames;
  for (const auto& f : frames)
    if (f.name == name) return &f;
  return nullptr;
}

std::optional<EndPoint> Reader::endPoint(const json_t* pair, int assembly, ErrorCode code, const std::string& what,
                                         bool& inactive) {
  const SourceLocation where = at(pair);
  // One path string names a body's origin or, ending in a frame, that frame.
  if (json_is_string(pair))
    return resolve(splitPath(json_string_value(pair)), kOrigin, where, where, assembly, code, what, inactive);
  if (!json_is_array(pair) || json_array_size(pair) != 2) {
    diagnostics_.error(ErrorCode::ELEMENT_INCORRECT_TYPE, what + ": expected [body, frame] or an 'assembly:body:frame' path",
                       where);
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
  auto name = entryName(object, "joint", path);
  if (!name) return;
  auto& owner = assemblies_[static_cast<std::size_t>(assembly)];
  // Joint names are unique in their assembly (the document): a second one would leave a restraint
  // naming it to hit either joint.
  if (auto first = jointLineByName_.emplace(std::make_pair(assembly, *name), at(object, "name").line); !first.second) {
    diagnostics_.error(ErrorCode::DUPLICATE_NAME,
                       "joint '" + *name + "' is defined twice in " + path + " (first at line " +
                           std::to_string(first.first->second) + "); joint names are unique in an assembly",
                       at(object, "name"));
    return;
  }
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
    if (!values || json_is_null(values)) continue;
    std::vector<double> numbers;
    numberList(values, what + " " + key, numbers);
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
    if (!numberList(k, what + " knot_points", knots)) {
      ok = false;
    } else {
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
      if (!json_is_number(polynomial) && (!json_is_array(polynomial) || json_array_size(polynomial) == 0)) {
        diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                           what + ": coefficient array " + std::to_string(i + 1) + " must hold at least one number",
                           at(polynomial).line > 0 ? at(polynomial) : at(coefficients));
        ok = false;
      } else if (!numberList(polynomial, what + " coefficient", values)) {
        ok = false;
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

}  // namespace interlink::shift::detail
