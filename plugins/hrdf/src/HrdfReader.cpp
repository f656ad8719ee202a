// Reads HRDF 1.0.0–1.6.0 (FORMAT.md and CHANGELOG.md of HebiRobotics/hebi-hrdf): element and
// attribute rules per version, includes, outputs, tags, offsets and overrides, interface checks.
#include <algorithm>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <map>
#include <set>

#include <Eigen/Geometry>

#include "HrdfGrammar.hpp"
#include "HrdfDocumentReader.hpp"
#include "HrdfRobot.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/plugin/HardwareServices.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::hrdf {

const char* kindStem(ElementKind kind) {
  switch (kind) {
    case ElementKind::Actuator: return "actuator";
    case ElementKind::Link: return "link";
    case ElementKind::Bracket: return "bracket";
    case ElementKind::RigidBody: return "rigid_body";
    case ElementKind::Joint: return "joint";
    case ElementKind::EndEffector: return "end_effector";
  }
  return "element";
}

const char* kindElementName(ElementKind kind) {
  switch (kind) {
    case ElementKind::Actuator: return "actuator";
    case ElementKind::Link: return "link";
    case ElementKind::Bracket: return "bracket";
    case ElementKind::RigidBody: return "rigid-body";
    case ElementKind::Joint: return "joint";
    case ElementKind::EndEffector: return "end-effector";
  }
  return "element";
}

namespace detail {

const std::vector<std::string> kVersions = {"1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.0"};

std::string versionName(int minor) { return "1." + std::to_string(minor) + ".0"; }

std::string lower(std::string_view text) { return toLower(text); }

std::optional<ElementKind> kindFromName(std::string_view name) {
  for (ElementKind kind : {ElementKind::Actuator, ElementKind::Link, ElementKind::Bracket, ElementKind::RigidBody,
                           ElementKind::Joint, ElementKind::EndEffector}) {
    if (name == kindElementName(kind)) return kind;
  }
  return std::nullopt;
}

/// The HRDF version that introduced a built-in type (format knowledge, not physics). Types this
/// table does not know (drop-in hardware) are accepted in every version.
int minimumVersionOf(ElementKind kind, const std::string& type) {
  auto starts = [&](const char* prefix) { return type.rfind(prefix, 0) == 0; };
  switch (kind) {
    case ElementKind::Actuator:
      if (starts("R25-") || starts("T25-")) return 6;
      if (starts("T5-") || starts("T8-")) return 4;
      if (starts("R8-")) return 2;
      return 0;
    case ElementKind::Link:
      if (starts("R25")) return 6;
      if (type == "R8") return 2;
      return 0;
    case ElementKind::Bracket:
      if (starts("R25")) return 6;
      if (starts("R8")) return 2;
      return 0;
    default: return 0;
  }
}

const AttributeRules kOverrideAttributes = {{"mass_offset", 1}, {"com_trans_offset", 1}, {"mass", 1},
                                            {"com_rot", 1},     {"com_trans", 1},        {"ixx", 1},
                                            {"iyy", 1},         {"izz", 1},              {"ixy", 1},
                                            {"ixz", 1},         {"iyz", 1}};

AttributeRules rulesFor(ElementKind kind) {
  AttributeRules rules;
  auto add = [&](const AttributeRules& more) { rules.insert(rules.end(), more.begin(), more.end()); };
  switch (kind) {
    case ElementKind::Actuator:
      rules = {{"type", 0}};
      add(kOverrideAttributes);
      break;
    case ElementKind::Link:
      rules = {{"type", 0}, {"extension", 0}, {"twist", 0}, {"input", 2}, {"output", 2}};
      add(kOverrideAttributes);
      break;
    case ElementKind::Bracket:
      rules = {{"type", 0}};
      add(kOverrideAttributes);
      break;
    case ElementKind::EndEffector:
      rules = {{"type", 2}, {"output_rot", 2}, {"output_trans", 2}};
      add(kOverrideAttributes);
      break;
    case ElementKind::RigidBody:
      rules = {{"mass", 0},       {"com_rot", 0},   {"com_trans", 0},  {"output_rot", 0}, {"output_trans", 0},
               {"ixx", 1},        {"iyy", 1},       {"izz", 1},        {"ixy", 1},        {"ixz", 1},
               {"iyz", 1},        {"mesh_path", 3}, {"mesh_rot", 3},   {"mesh_trans", 3}};
      break;
    case ElementKind::Joint:
      rules = {{"axis", 0}, {"gear_ratio", 5}};
      break;
  }
  rules.push_back({"tag", 4});
  return rules;
}

std::string joinList(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out;
}

Pose makePose(const Matrix3& rotation, const Vector3& translation) {
  Pose pose = Pose::Identity();
  pose.linear() = rotation;
  pose.translation() = translation;
  return pose;
}

bool Reader::read(std::string_view content, const std::string& path) {
  const std::size_t errorsBefore = diagnostics_.errorCount();
  auto root = xml::parse(content, path, diagnostics_);
  if (!root) return false;
  files_.emplace_back(path, content);
  if (root->name != "robot") {
    error(ErrorCode::ELEMENT_INVALID, "the root element of an HRDF file must be <robot>, not <" + root->name + ">",
          root->where);
    return false;
  }
  readRobotAttributes(*root);
  const Attach end = readChain(*root, Attach{});
  // HRDF <= 1.1.0 has no end effectors: the API appends an implicit one to the end of the chain.
  if (robot_.minor <= 1 && end.valid) addImplicitEndEffector(end);
  return diagnostics_.errorCount() == errorsBefore;
}

void Reader::readRobotAttributes(const XmlElement& root) {
  if (const Attribute* v = root.attribute("version")) {
    auto it = std::find(kVersions.begin(), kVersions.end(), trim(v->value));
    if (it == kVersions.end()) {
      error(ErrorCode::VERSION_UNSUPPORTED,
            "unsupported HRDF version '" + v->value + "'; supported: " + joinList(kVersions), file().valueLocation(*v, 0));
    } else {
      robot_.minor = static_cast<int>(it - kVersions.begin());
      robot_.version = *it;
    }
  }
  checkAttributes(root, {{"version", 0}, {"rot", 0}, {"trans", 0}, {"description", 2}});
  Matrix3 r = Matrix3::Identity();
  Vector3 t = Vector3::Zero();
  if (const Attribute* a = root.attribute("rot"))
    if (auto value = rotation(*a, root)) r = *value;
  if (const Attribute* a = root.attribute("trans"))
    if (auto value = translation(*a, root)) t = *value;
  robot_.base = makePose(r, t);
  robot_.description = root.attributeOr("description", "");
}

Attach Reader::readChain(const XmlElement& container, Attach attach) {
  for (const XmlElement& child : container.children) {
    if (child.name == "include") {
      readInclude(child, attach);
      continue;
    }
    auto kind = kindFromName(child.name);
    if (!kind) {
      if (child.name == "output") {
        error(ErrorCode::ELEMENT_INVALID, "<output> is only allowed inside a <rigid-body> or a <bracket>", child.where);
      } else {
        std::string hint;
        if (kindFromName(lower(child.name)) || lower(child.name) == "include")
          hint = " (element names are case-sensitive: write <" + lower(child.name) + ">)";
        error(ErrorCode::ELEMENT_INVALID,
              "unknown element <" + child.name + "> in <" + container.name +
                  ">; expected actuator, link, bracket, rigid-body, joint, end-effector or include" + hint,
              child.where);
      }
      continue;
    }
    const int index = readElement(child, *kind, attach);
    if (index < 0) {
      attach.valid = false;
      continue;
    }
    attach = Attach{index, 0, true};
  }
  return attach;
}

void Reader::readInclude(const XmlElement& include, Attach& attach) {
  if (robot_.minor < 3) {
    error(ErrorCode::ELEMENT_INVALID, "<include> needs HRDF 1.3.0 or later (this file is " + robot_.version + ")",
          include.where);
    return;
  }
  if (!checkAttributes(include, {{"path", 3}})) return;
  if (!include.children.empty()) {
    error(ErrorCode::ELEMENT_INVALID, "<include> has no child elements", include.children.front().where);
    return;
  }
  const Attribute* pathAttribute = required(include, "path");
  if (!pathAttribute) return;
  const std::string written = pathAttribute->value;
  const SourceLocation where = file().valueLocation(*pathAttribute, 0);
  if (written.empty() || written.front() == '/' || written.front() == '\\' || written.find("://") != std::string::npos ||
      (written.size() > 1 && written[1] == ':')) {
    error(ErrorCode::URI_INVALID, "include path '" + written + "' must be a relative path", where);
    return;
  }
  // HRDF paths are relative to the including file only; the host's include service applies the
  // load's cycle and depth policy and reads the file with the loader's checks.
  if (!plugin::hostHas(host_, offsetof(plugin::HostServices, endInclude)) || !host_->beginInclude || !host_->endInclude) {
    error(ErrorCode::FILE_READ, "cannot read included file '" + written + "': the host offers no include service", where);
    return;
  }
  const std::string requested = fs::absolute(fs::path(file().path).parent_path() / written).lexically_normal().string();
  plugin::IncludedFile included;
  if (!host_->beginInclude(host_->context, requested, file().path, where, included, diagnostics_)) return;
  struct EndInclude {
    const plugin::HostServices* host;
    ~EndInclude() { host->endInclude(host->context); }
  } endInclude{host_};
  const std::string& key = included.path;
  // A file included several times (the legs of a hexapod) is parsed once per load.
  auto cached = parsedIncludes_.find(key);
  if (cached == parsedIncludes_.end()) {
    auto parsed = xml::parse(included.content, key, diagnostics_);
    if (!parsed) return;
    cached = parsedIncludes_.emplace(key, ParsedInclude{included.content, std::move(*parsed)}).first;
  }
  const std::string_view content = cached->second.content;
  const XmlElement* root = &cached->second.root;
  files_.emplace_back(key, content);
  if (root->name != "robot") {
    error(ErrorCode::ELEMENT_INVALID, "an included HRDF file must have a <robot> root, not <" + root->name + ">",
          root->where);
  } else {
    // The robot attributes of an included file are ignored, except that its version must match.
    const std::string version = trim(root->attributeOr("version", "1.0.0"));
    if (version != robot_.version) {
      error(ErrorCode::VERSION_UNSUPPORTED,
            "included file is HRDF " + version + " but the including file is " + robot_.version +
                "; included files must have the same version",
            root->where);
    } else {
      attach = readChain(*root, attach);
    }
  }
  files_.pop_back();
}

bool Reader::attachTo(Element& e, const Attach& attach, const XmlElement& xml) {
  if (!attach.valid) return false;
  e.parent = attach.element;
  e.parentOutput = attach.output;
  if (attach.element < 0) {
    if (baseUsed_) {
      error(ErrorCode::ELEMENT_INVALID, "the robot's base frame already has an element attached", xml.where);
      return false;
    }
    baseUsed_ = true;
    return true;
  }
  const Element& parent = robot_.elements[static_cast<std::size_t>(attach.element)];
  auto& used = outputUsed_[static_cast<std::size_t>(attach.element)];
  if (parent.outputInterfaces.empty() && parent.kind == ElementKind::EndEffector) {
    error(ErrorCode::ELEMENT_INVALID,
          "cannot add <" + xml.name + "> after end effector '" + parent.name + "': an end effector has no output",
          xml.where);
    return false;
  }
  if (static_cast<std::size_t>(attach.output) >= used.size()) {
    error(ErrorCode::ELEMENT_INVALID, "'" + parent.name + "' has no output " + std::to_string(attach.output + 1),
          xml.where);
    return false;
  }
  if (used[static_cast<std::size_t>(attach.output)]) {
    error(ErrorCode::ELEMENT_INVALID,
          "output " + std::to_string(attach.output + 1) + " of '" + parent.name +
              "' already has an element attached; put <" + xml.name + "> inside an <output>",
          xml.where);
    return false;
  }
  const auto& out = parent.outputInterfaces[static_cast<std::size_t>(attach.output)];
  if (!out.matesWith(e.input)) {
    error(ErrorCode::INTERFACE_MISMATCH,
          "<" + xml.name + "> '" + e.name + "' (input " + e.input.toString() + ") cannot be attached to '" +
              parent.name + "' (output " + out.toString() + "): interfaces must have the same type and opposite polarity",
          xml.where);
    return false;
  }
  used[static_cast<std::size_t>(attach.output)] = true;
  return true;
}

}  // namespace detail

bool readRobot(std::string_view content, const std::string& path, const plugin::HostServices* host, Robot& robot,
               Diagnostics& diagnostics) {
  detail::Reader reader(host, robot, diagnostics);
  return reader.read(content, path);
}

}  // namespace interlink::hrdf
