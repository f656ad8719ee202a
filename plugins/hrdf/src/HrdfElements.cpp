// The HRDF reader, elements: actuators, links, brackets, rigid bodies, joints and end effectors,
// their built-in hardware, overrides and outputs, and the implicit end effector.
#include "HrdfDocumentReader.hpp"

#include <algorithm>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <map>
#include <set>

#include <Eigen/Geometry>

#include "HrdfGrammar.hpp"
#include "HrdfRobot.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/plugin/HardwareServices.hpp"
#include "interlink/xml/XmlParser.hpp"
#include "interlink/model/Names.hpp"

namespace interlink::hrdf::detail {

int Reader::readElement(const XmlElement& xml, ElementKind kind, const Attach& attach) {
  Element e;
  e.kind = kind;
  e.where = at(xml.where);
  bool ok = true;
  if (kind == ElementKind::EndEffector && robot_.minor < 2) {
    error(ErrorCode::ELEMENT_INVALID, "<end-effector> needs HRDF 1.2.0 or later (this file is " + robot_.version + ")",
          xml.where);
    ok = false;
  }
  ok = checkAttributes(xml, rulesFor(kind)) && ok;

  // Name: the tag (globally unique), else <kind>_<k> in depth-first document order.
  const int k = ++counters_[kind];
  e.name = std::string(kindStem(kind)) + "_" + std::to_string(k);
  if (const Attribute* tag = xml.attribute("tag"); tag && robot_.minor >= 4) {
    const SourceLocation where = file().valueLocation(*tag, 0);
    if (tag->value.empty() || names::containsDelimiter(tag->value)) {
      error(ErrorCode::NAME_INVALID, "tag '" + tag->value + "' must be non-empty and must not contain '::'", where);
      ok = false;
    } else if (auto seen = tags_.find(tag->value); seen != tags_.end()) {
      error(ErrorCode::DUPLICATE_NAME,
            "tag '" + tag->value + "' is already used at " + seen->second.file + ":" +
                std::to_string(seen->second.line) + "; tags must be unique in the whole robot",
            where);
      ok = false;
    } else {
      tags_.emplace(tag->value, at(where));
      e.name = tag->value;
    }
  }

  switch (kind) {
    case ElementKind::Actuator: ok = readBuiltIn(xml, e, ComponentKind::Actuator) && ok; break;
    case ElementKind::Link: ok = readBuiltIn(xml, e, ComponentKind::Link) && ok; break;
    case ElementKind::Bracket: ok = readBuiltIn(xml, e, ComponentKind::Bracket) && ok; break;
    case ElementKind::EndEffector: {
      const Attribute* type = xml.attribute("type");
      std::string canonical = "Custom";
      if (type) {
        const std::string lowered = lower(trim(type->value));
        if (lowered == "custom") {
          if (trim(type->value) != "Custom")
            warning(ErrorCode::ATTRIBUTE_INVALID, "end-effector type '" + type->value + "' should be written 'Custom'",
                    file().valueLocation(*type, 0));
        } else {
          canonical.clear();
        }
      }
      if (canonical == "Custom") {
        // A Custom end effector is a rigid body of mass 0 unless its attributes say otherwise.
        e.type = "Custom";
        e.body.outputs = {Pose::Identity()};
        applyOverrides(xml, e);
      } else {
        ok = readBuiltIn(xml, e, ComponentKind::EndEffector) && ok;
      }
      if (e.body.outputs.empty()) e.body.outputs.push_back(Pose::Identity());
      Pose& out = e.body.outputs.front();
      if (const Attribute* a = xml.attribute("output_rot")) {
        if (auto r = rotation(*a, xml)) out.linear() = *r; else ok = false;
      }
      if (const Attribute* a = xml.attribute("output_trans")) {
        if (auto t = translation(*a, xml)) out.translation() = *t; else ok = false;
      }
      e.outputInterfaces.clear();  // an end effector has an output frame but no output interface
      break;
    }
    case ElementKind::RigidBody: {
      if (const Attribute* mass = required(xml, "mass")) {
        if (auto m = formula(*mass, xml)) {
          if (*m < 0) {
            error(ErrorCode::VALUE_INVALID, "rigid-body mass must not be negative", file().valueLocation(*mass, 0));
            ok = false;
          }
          e.body.mass = *m;
        } else {
          ok = false;
        }
      } else {
        ok = false;
      }
      applyOverrides(xml, e);
      if (const Attribute* path = xml.attribute("mesh_path"); path && !path->value.empty()) {
        Mesh mesh;
        mesh.path = path->value;
        mesh.where = file().valueLocation(*path, 0);
        const bool web = mesh.path.rfind("http://", 0) == 0 || mesh.path.rfind("https://", 0) == 0;
        if (web && robot_.minor < 4) {
          // HEBI's own 1.3.0 kits (Tready) use them, and its tools load them: a deviation, not a fault.
          warning(ErrorCode::DEVIATION_TOLERATED,
                  "web URLs for mesh_path need HRDF 1.4.0 or later (this file is 1." + std::to_string(robot_.minor) +
                      ".0) [rule hrdf-mesh-path-web-url: loaded as HEBI's tools load it; --strict refuses it]",
                  mesh.where);
        } else if (!web && (mesh.path.front() == '/' || mesh.path.find("://") != std::string::npos ||
                            (mesh.path.size() > 1 && mesh.path[1] == ':'))) {
          error(ErrorCode::URI_INVALID, "mesh_path '" + mesh.path + "' must be a relative path or a web URL",
                mesh.where);
          ok = false;
        } else if (!web) {
          std::error_code ec;
          const fs::path resolved = (fs::path(file().path).parent_path() / mesh.path).lexically_normal();
          if (fs::is_regular_file(resolved, ec)) mesh.resolvedPath = resolved.string();
        }
        Matrix3 r = Matrix3::Identity();
        Vector3 t = Vector3::Zero();
        if (const Attribute* a = xml.attribute("mesh_rot")) {
          if (auto v = rotation(*a, xml)) r = *v; else ok = false;
        }
        if (const Attribute* a = xml.attribute("mesh_trans")) {
          if (auto v = translation(*a, xml)) t = *v; else ok = false;
        }
        mesh.pose = makePose(r, t);
        e.mesh = mesh;
      } else if (!path) {
        for (const char* name : {"mesh_rot", "mesh_trans"}) {
          if (const Attribute* a = xml.attribute(name)) {
            error(ErrorCode::ATTRIBUTE_INVALID, std::string(name) + " needs a mesh_path", at(a->where));
            ok = false;
          }
        }
      }
      break;
    }
    case ElementKind::Joint: {
      if (const Attribute* axis = required(xml, "axis")) {
        if (auto value = enumValue(*axis, xml, {"rx", "ry", "rz", "tx", "ty", "tz"})) {
          e.prismatic = (*value)[0] == 't';
          e.jointAxis = (*value)[1] == 'x' ? Vector3::UnitX() : (*value)[1] == 'y' ? Vector3::UnitY() : Vector3::UnitZ();
          e.type = *value;
        } else {
          ok = false;
        }
      } else {
        ok = false;
      }
      if (const Attribute* ratio = xml.attribute("gear_ratio")) {
        if (auto value = formula(*ratio, xml)) {
          if (*value == 0) {
            error(ErrorCode::VALUE_INVALID, "gear_ratio must not be 0", file().valueLocation(*ratio, 0));
            ok = false;
          }
          e.gearRatio = *value;
        } else {
          ok = false;
        }
      }
      e.body.outputs = {Pose::Identity()};
      break;
    }
  }

  if (!xml.trimmedText().empty()) {
    error(ErrorCode::ELEMENT_INVALID, "<" + xml.name + "> takes no text content; found '" + xml.trimmedText() + "'",
          xml.where);
    ok = false;
  }
  // Children: only <output>, and only for rigid bodies and brackets.
  const bool outputsAllowed = kind == ElementKind::RigidBody || kind == ElementKind::Bracket;
  std::size_t outputChildren = 0;
  for (const XmlElement& child : xml.children) {
    if (child.name == "output" && outputsAllowed) {
      if (robot_.minor < 3) {
        error(ErrorCode::ELEMENT_INVALID, "<output> needs HRDF 1.3.0 or later (this file is " + robot_.version + ")",
              child.where);
        ok = false;
      }
      ++outputChildren;
      continue;
    }
    error(ErrorCode::ELEMENT_INVALID,
          "<" + xml.name + "> cannot contain <" + child.name + ">" +
              (outputsAllowed ? "; only <output> elements are allowed here" : "; it has no child elements"),
          child.where);
    ok = false;
  }
  if (kind == ElementKind::RigidBody) {
    // One output per <output> child (one if there are none), each defaulting to output_rot/trans.
    Matrix3 r = Matrix3::Identity();
    Vector3 t = Vector3::Zero();
    if (const Attribute* a = xml.attribute("output_rot")) {
      if (auto v = rotation(*a, xml)) r = *v; else ok = false;
    }
    if (const Attribute* a = xml.attribute("output_trans")) {
      if (auto v = translation(*a, xml)) t = *v; else ok = false;
    }
    e.body.outputs.clear();
    for (const XmlElement* out : xml.childrenNamed("output")) {
      Matrix3 ro = r;
      Vector3 to = t;
      if (!checkAttributes(*out, {{"rot", 3}, {"trans", 3}})) ok = false;
      if (const Attribute* a = out->attribute("rot")) {
        if (auto v = rotation(*a, *out)) ro = *v; else ok = false;
      }
      if (const Attribute* a = out->attribute("trans")) {
        if (auto v = translation(*a, *out)) to = *v; else ok = false;
      }
      e.body.outputs.push_back(makePose(ro, to));
    }
    if (e.body.outputs.empty()) e.body.outputs.push_back(makePose(r, t));
    e.outputInterfaces.assign(e.body.outputs.size(), hardware::InterfaceSpec{});
  } else if (kind == ElementKind::Bracket && !e.body.outputs.empty()) {
    if (outputChildren > e.body.outputs.size()) {
      error(ErrorCode::ELEMENT_INVALID,
            "bracket '" + e.type + "' has " + std::to_string(e.body.outputs.size()) + " output(s) but " +
                std::to_string(outputChildren) + " <output> elements are given",
            xml.childrenNamed("output")[e.body.outputs.size()]->where);
      ok = false;
    }
    for (const XmlElement* out : xml.childrenNamed("output")) {
      for (const Attribute& a : out->attributes) {
        error(ErrorCode::ATTRIBUTE_INVALID,
              "attribute '" + a.name + "' is not allowed on the <output> of a bracket: its outputs are fixed",
              at(a.where));
        ok = false;
      }
    }
  } else if (kind == ElementKind::Joint) {
    e.outputInterfaces = {hardware::InterfaceSpec{}};
  }

  if (!ok || !attachTo(e, attach, xml)) {
    // Still read what hangs below, for its own errors.
    for (const XmlElement* out : xml.childrenNamed("output")) readChain(*out, Attach{-1, 0, false});
    return -1;
  }
  robot_.elements.push_back(std::move(e));
  outputUsed_.emplace_back(robot_.elements.back().outputInterfaces.size(), false);
  const int index = static_cast<int>(robot_.elements.size() - 1);
  readOutputs(xml, index);
  return index;
}

void Reader::readOutputs(const XmlElement& xml, int index) {
  int j = 0;
  for (const XmlElement* out : xml.childrenNamed("output")) {
    readChain(*out, Attach{index, j, true});
    ++j;
  }
}

bool Reader::readBuiltIn(const XmlElement& xml, Element& e, ComponentKind catalogKind) {
  const Attribute* type = required(xml, "type");
  bool ok = type != nullptr;
  hardware::ComponentParameters parameters;
  if (e.kind == ElementKind::Link) {
    for (const char* name : {"extension", "twist"}) {
      const Attribute* a = required(xml, name);
      std::optional<double> value = a ? formula(*a, xml) : std::nullopt;
      if (!value) {
        ok = false;
        continue;
      }
      (std::string(name) == "extension" ? parameters.extension : parameters.twist) = *value;
    }
  }
  if (!type) return false;
  const std::string written = trim(type->value);
  const SourceLocation typeAt = file().valueLocation(*type, 0);
  bool exactCase = false;
  const hardware::CatalogEntry* found =
      hardware_ && hardware_->find
          ? hardware_->find(hardware_->context, catalogKind, written.data(), written.size(), &exactCase)
          : nullptr;
  if (!found) {
    error(ErrorCode::HARDWARE_UNKNOWN,
          std::string("unknown ") + kindElementName(e.kind) + " type '" + written +
              "'; no hardware plugin provides it. Known families: " + describeFamilies(),
          typeAt);
    return false;
  }
  const hardware::CatalogEntry& entry = *found;
  if (!exactCase) {
    warning(ErrorCode::ATTRIBUTE_INVALID,
            std::string(kindElementName(e.kind)) + " type '" + written + "' has non-matching case; the type is '" +
                entry.type + "'",
            typeAt);
  }
  if (const int minimum = minimumVersionOf(e.kind, entry.type); robot_.minor < minimum) {
    error(ErrorCode::VERSION_UNSUPPORTED,
          std::string(kindElementName(e.kind)) + " type '" + entry.type + "' needs HRDF " + versionName(minimum) +
              " or later (this file is " + robot_.version + ")",
          typeAt);
    ok = false;
  }
  if (entry.approximate && approximateWarned_.insert(entry.type).second) {
    warning(ErrorCode::HARDWARE_APPROXIMATE,
            std::string(kindElementName(e.kind)) + " type '" + entry.type + "' has approximate figures: " +
                entry.approximateNote,
            typeAt);
  }
  if (entry.parameterised) {
    if (const Attribute* a = xml.attribute("input"); a && robot_.minor >= 2) {
      if (auto v = enumValue(*a, xml, {"RightAngle", "Inline"})) parameters.inputStyle = *v; else ok = false;
    }
    if (const Attribute* a = xml.attribute("output"); a && robot_.minor >= 2) {
      if (auto v = enumValue(*a, xml, {"RightAngle", "Inline"})) parameters.outputStyle = *v; else ok = false;
    }
  }
  e.type = entry.type;
  e.input = entry.input;
  e.outputInterfaces = entry.outputs;
  e.motion = entry.motion;
  e.limits = entry.limits;
  if (!ok) return false;
  Diagnostics evaluation;
  if (!hardware_->evaluate || !hardware_->evaluate(hardware_->context, found, parameters, e.body, evaluation)) {
    for (Diagnostic d : evaluation) {
      if (d.where.file.empty()) d.where = typeAt;
      diagnostics_.add(std::move(d));
    }
    return false;
  }
  applyOverrides(xml, e);
  return true;
}

void Reader::applyOverrides(const XmlElement& xml, Element& e) {
  const bool builtIn = e.kind != ElementKind::RigidBody;
  if (builtIn) {
    for (const auto& [value, offset] : {std::pair{"mass", "mass_offset"}, std::pair{"com_trans", "com_trans_offset"}}) {
      if (xml.attribute(value) && xml.attribute(offset)) {
        error(ErrorCode::ATTRIBUTE_INVALID,
              std::string("<") + xml.name + "> cannot have both '" + value + "' and '" + offset + "'",
              xml.attribute(offset)->where);
      }
    }
    if (const Attribute* a = xml.attribute("mass")) {
      if (auto m = formula(*a, xml)) e.body.mass = *m;
    }
    if (const Attribute* a = xml.attribute("mass_offset")) {
      if (auto m = formula(*a, xml)) e.body.mass += *m;
    }
    if (e.body.mass < 0) error(ErrorCode::VALUE_INVALID, "mass of '" + e.name + "' is negative", xml.where);
  }
  if (const Attribute* a = xml.attribute("com_rot")) {
    if (auto r = rotation(*a, xml)) e.body.centerOfMass.linear() = *r;
  }
  if (const Attribute* a = xml.attribute("com_trans")) {
    if (auto t = translation(*a, xml)) e.body.centerOfMass.translation() = *t;
  }
  if (const Attribute* a = xml.attribute("com_trans_offset"); a && builtIn) {
    if (auto t = translation(*a, xml)) e.body.centerOfMass.translation() += *t;
  }
  const std::pair<const char*, std::pair<int, int>> terms[] = {{"ixx", {0, 0}}, {"iyy", {1, 1}}, {"izz", {2, 2}},
                                                               {"ixy", {0, 1}}, {"ixz", {0, 2}}, {"iyz", {1, 2}}};
  for (const auto& [name, index] : terms) {
    if (const Attribute* a = xml.attribute(name)) {
      if (auto v = formula(*a, xml)) {
        e.body.inertia(index.first, index.second) = *v;
        e.body.inertia(index.second, index.first) = *v;
      }
    }
  }
}

void Reader::addImplicitEndEffector(const Attach& attach) {
  Element e;
  e.kind = ElementKind::EndEffector;
  e.type = "Custom";
  e.implicitEndEffector = true;
  e.name = std::string(kindStem(e.kind)) + "_" + std::to_string(++counters_[e.kind]);
  e.body.outputs = {Pose::Identity()};
  e.where = SourceLocation{files_.front().path, 0, 0};
  XmlElement placeholder;
  placeholder.name = "end-effector";
  if (attach.element >= 0) {
    const Element& parent = robot_.elements[static_cast<std::size_t>(attach.element)];
    if (parent.outputInterfaces.empty()) return;  // nothing can follow (cannot happen before 1.2.0)
  }
  if (!attachTo(e, attach, placeholder)) return;
  robot_.elements.push_back(std::move(e));
  outputUsed_.emplace_back();
}

}  // namespace interlink::hrdf::detail
