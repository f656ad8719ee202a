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
#include "HrdfRobot.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/plugin/HardwareServices.hpp"
#include "interlink/xml/XmlParser.hpp"
#include "interlink/model/Names.hpp"

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

namespace {

namespace fs = std::filesystem;
using hardware::ComponentKind;
using xml::Attribute;
using xml::XmlElement;

const std::vector<std::string> kVersions = {"1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.0"};

std::string versionName(int minor) { return "1." + std::to_string(minor) + ".0"; }

std::string lower(std::string_view text) { return toLower(text); }

std::optional<ElementKind> kindFromName(std::string_view name) {
  if (name == "actuator") return ElementKind::Actuator;
  if (name == "link") return ElementKind::Link;
  if (name == "bracket") return ElementKind::Bracket;
  if (name == "rigid-body") return ElementKind::RigidBody;
  if (name == "joint") return ElementKind::Joint;
  if (name == "end-effector") return ElementKind::EndEffector;
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

/// Attributes of an element and the minor version that introduced each.
using AttributeRules = std::vector<std::pair<const char*, int>>;

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

/// One file being read: its path and bytes, for locations inside attribute values.
struct SourceFile {
  std::string path;
  std::string_view content;
  std::vector<std::size_t> lineStarts;

  SourceFile(std::string p, std::string_view c) : path(std::move(p)), content(c) {
    lineStarts.push_back(0);
    for (std::size_t i = 0; i < content.size(); ++i)
      if (content[i] == '\n') lineStarts.push_back(i + 1);
  }

  /// Location of the character `offset` bytes into the value of attribute `a`.
  SourceLocation valueLocation(const Attribute& a, std::size_t offset) const {
    SourceLocation where = a.where;
    if (where.file.empty()) where.file = path;
    if (a.where.line <= 0 || static_cast<std::size_t>(a.where.line) > lineStarts.size()) return where;
    std::size_t i = lineStarts[static_cast<std::size_t>(a.where.line - 1)] + static_cast<std::size_t>(std::max(0, a.where.column - 1));
    while (i < content.size() && content[i] != '=') ++i;
    while (i < content.size() && content[i] != '"' && content[i] != '\'') ++i;
    if (i >= content.size()) return where;
    i += 1 + offset;
    if (i > content.size()) return where;
    const auto line = std::upper_bound(lineStarts.begin(), lineStarts.end(), i) - lineStarts.begin();
    where.line = static_cast<int>(line);
    where.column = static_cast<int>(i - lineStarts[static_cast<std::size_t>(line - 1)]) + 1;
    return where;
  }
};

/// Where the next element of a chain attaches.
struct Attach {
  int element = -1;  // -1: the robot's base frame
  int output = 0;
  bool valid = true;  // false after an error made the chain unknowable (no cascaded errors)
};

class Reader {
 public:
  Reader(const plugin::HostServices* host, Robot& robot, Diagnostics& diagnostics)
      : host_(host),
        hardware_(plugin::hostHas(host, offsetof(plugin::HostServices, hardware)) && host->hardware &&
                          host->hardware->size >= sizeof(plugin::HardwareServices)
                      ? host->hardware
                      : nullptr),
        robot_(robot),
        diagnostics_(diagnostics) {}

  bool read(std::string_view content, const std::string& path);

 private:
  void readRobotAttributes(const XmlElement& root);
  Attach readChain(const XmlElement& container, Attach attach);
  void readInclude(const XmlElement& include, Attach& attach);
  int readElement(const XmlElement& xml, ElementKind kind, const Attach& attach);
  bool readBuiltIn(const XmlElement& xml, Element& e, ComponentKind catalogKind);
  void applyOverrides(const XmlElement& xml, Element& e);
  void readOutputs(const XmlElement& xml, int index);
  bool attachTo(Element& e, const Attach& attach, const XmlElement& xml);
  void addImplicitEndEffector(const Attach& attach);

  // Attribute helpers: each reports its own errors at the offending column.
  bool checkAttributes(const XmlElement& xml, const AttributeRules& rules);
  std::optional<double> formula(const Attribute& a, const XmlElement& xml);
  std::optional<Matrix3> rotation(const Attribute& a, const XmlElement& xml);
  std::optional<Vector3> translation(const Attribute& a, const XmlElement& xml);
  std::optional<std::string> enumValue(const Attribute& a, const XmlElement& xml, const std::vector<std::string>& allowed);
  const Attribute* required(const XmlElement& xml, const char* name);

  SourceLocation at(const SourceLocation& where) const {
    SourceLocation w = where;
    if (w.file.empty()) w.file = file().path;
    return w;
  }
  const SourceFile& file() const { return files_.back(); }
  void error(ErrorCode code, std::string message, const SourceLocation& where) {
    diagnostics_.error(code, std::move(message), at(where));
  }
  void warning(ErrorCode code, std::string message, const SourceLocation& where) {
    diagnostics_.warning(code, std::move(message), at(where));
  }

  std::string describeFamilies() const {
    return hardware_ && hardware_->describeFamilies ? hardware_->describeFamilies(hardware_->context)
                                                    : std::string("none (the host offers no hardware catalogs)");
  }

  const plugin::HostServices* host_;
  const plugin::HardwareServices* hardware_;  // null: no catalogs
  Robot& robot_;
  Diagnostics& diagnostics_;
  std::deque<SourceFile> files_;            // the include stack, root first
  struct ParsedInclude {
    std::string_view content;
    XmlElement root;
  };
  std::map<std::string, ParsedInclude> parsedIncludes_;
  std::map<ElementKind, int> counters_;
  std::map<std::string, SourceLocation> tags_;
  std::set<std::string> approximateWarned_;
  std::vector<std::vector<bool>> outputUsed_;  // per element, per output
  bool baseUsed_ = false;
};

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

bool Reader::checkAttributes(const XmlElement& xml, const AttributeRules& rules) {
  bool ok = true;
  for (const Attribute& a : xml.attributes) {
    auto rule = std::find_if(rules.begin(), rules.end(), [&](const auto& r) { return a.name == r.first; });
    if (rule == rules.end()) {
      std::vector<std::string> allowed;
      for (const auto& r : rules)
        if (r.second <= robot_.minor) allowed.push_back(r.first);
      error(ErrorCode::ATTRIBUTE_INVALID,
            "attribute '" + a.name + "' is not allowed on <" + xml.name + ">" +
                (allowed.empty() ? std::string("; it takes no attributes") : "; allowed: " + joinList(allowed)),
            a.where);
      ok = false;
    } else if (rule->second > robot_.minor) {
      error(ErrorCode::ATTRIBUTE_INVALID,
            "attribute '" + a.name + "' on <" + xml.name + "> needs HRDF " + versionName(rule->second) +
                " or later (this file is " + robot_.version + ")",
            a.where);
      ok = false;
    }
  }
  return ok;
}

const Attribute* Reader::required(const XmlElement& xml, const char* name) {
  const Attribute* a = xml.attribute(name);
  if (!a) error(ErrorCode::ATTRIBUTE_MISSING, "<" + xml.name + "> needs the attribute '" + name + "'", xml.where);
  return a;
}

std::optional<double> Reader::formula(const Attribute& a, const XmlElement& xml) {
  // Formulas arrived in HRDF 1.1.0; 1.0.0 fields are plain floating point values.
  const bool plain = robot_.minor == 0;
  auto result = plain ? grammar::parseFloat(a.value) : grammar::parseFormula(a.value);
  if (result.ok()) return result.value;
  error(ErrorCode::VALUE_INVALID,
        "invalid value for <" + xml.name + "> attribute '" + a.name + "' (" +
            (plain ? "a floating point value; formulas need HRDF 1.1.0" : "a floating point formula") +
            "): " + result.error.message,
        file().valueLocation(a, result.error.offset));
  return std::nullopt;
}

std::optional<Matrix3> Reader::rotation(const Attribute& a, const XmlElement& xml) {
  if (robot_.minor == 0) {
    // Rx/Ry/Rz products arrived in HRDF 1.1.0.
    const std::string value = trim(a.value);
    if (!value.empty() && value.front() == 'R') {
      error(ErrorCode::VALUE_INVALID,
            "invalid value for <" + xml.name + "> attribute '" + a.name +
                "': HRDF 1.0.0 takes 9 numbers; Rx/Ry/Rz products need HRDF 1.1.0",
            file().valueLocation(a, a.value.find('R')));
      return std::nullopt;
    }
  }
  auto result = grammar::parseRotation(a.value);
  if (result.ok()) return result.value;
  error(ErrorCode::VALUE_INVALID,
        "invalid value for <" + xml.name + "> attribute '" + a.name + "' (a rotation matrix): " + result.error.message,
        file().valueLocation(a, result.error.offset));
  return std::nullopt;
}

std::optional<Vector3> Reader::translation(const Attribute& a, const XmlElement& xml) {
  auto result = grammar::parseTranslation(a.value);
  if (result.ok()) return result.value;
  error(ErrorCode::VALUE_INVALID,
        "invalid value for <" + xml.name + "> attribute '" + a.name + "' (a translation vector): " +
            result.error.message,
        file().valueLocation(a, result.error.offset));
  return std::nullopt;
}

std::optional<std::string> Reader::enumValue(const Attribute& a, const XmlElement& xml,
                                             const std::vector<std::string>& allowed) {
  const std::string written = trim(a.value);
  for (const auto& value : allowed) {
    if (value == written) return value;
  }
  for (const auto& value : allowed) {
    if (lower(value) == lower(written)) {
      warning(ErrorCode::ATTRIBUTE_INVALID,
              "<" + xml.name + "> attribute '" + a.name + "' value '" + written + "' has non-matching case; write '" +
                  value + "'",
              file().valueLocation(a, 0));
      return value;
    }
  }
  error(ErrorCode::ATTRIBUTE_INVALID,
        "invalid value '" + written + "' for <" + xml.name + "> attribute '" + a.name + "'; expected one of " +
            joinList(allowed),
        file().valueLocation(a, 0));
  return std::nullopt;
}

}  // namespace

bool readRobot(std::string_view content, const std::string& path, const plugin::HostServices* host, Robot& robot,
               Diagnostics& diagnostics) {
  Reader reader(host, robot, diagnostics);
  return reader.read(content, path);
}

}  // namespace interlink::hrdf
