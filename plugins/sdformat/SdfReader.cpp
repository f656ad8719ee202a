// SDFormat 1.4-1.9 into the format-neutral model. libsdformat converts older files to the newest
// version before reading them; the version-dependent rules that matter for the kinematic subset
// are applied here directly (see docs/sdformat.md):
//   1.4       joint axes of top-level models are expressed in the model frame
//   1.5, 1.6  //axis/use_parent_model_frame = true means expressed_in="__model__";
//             //physics/gravity is the world's gravity (1.5)
//   <= 1.6    //pose/@frame is //pose/@relative_to
//   <= 1.7    flattened world models ("a::b" names) are unflattened into nested models
//
// Schema problems are reported the way libsdformat's reader reports them, so that error code names
// compare: the precise finding (with Interlink's refined code where it has one), then one
// ELEMENT_INVALID and one FILE_READ for the document, as libsdformat ends such a read.
#include "SdfReader.hpp"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>


#include "Unflatten.hpp"
#include "schema/SchemaValidator.hpp"
#include "schema/Upgrade.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/xml/KeptNodes.hpp"
#include "interlink/xml/XmlParser.hpp"
#include "interlink/xml/XmlValues.hpp"
#include "SdfDocumentReader.hpp"

namespace interlink::sdformat {
namespace detail {

namespace {

bool isDigits(const std::string& text) {
  if (text.empty() || text.size() > 3) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

std::optional<Version> parseVersion(const std::string& text) {
  const std::size_t dot = text.find('.');
  if (dot == std::string::npos) return std::nullopt;
  const std::string major = text.substr(0, dot);
  const std::string minor = text.substr(dot + 1);
  if (!isDigits(major) || !isDigits(minor)) return std::nullopt;
  return Version{std::stoi(major), std::stoi(minor)};
}

bool isBlank(const std::string& text) {
  for (char c : text) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return false;
  }
  return true;
}

std::string tag(const XmlElement& e) { return "<" + e.name + ">"; }

std::optional<JointType> jointTypeFromName(const std::string& name) {
  const auto type = jointTypeNamed(name);
  if (!type || !isSdformatJointType(*type)) return std::nullopt;
  return type;
}

bool Reader::readXml(std::string_view content, SdfXml& records) {
  std::optional<XmlElement> root =
      xml::parse(content, path_, diagnostics_, xml::toleratingLike(xml::Tolerance::LikeTinyXml2));
  if (!root) {
    // The reader said why (XML_SYNTAX); libsdformat reports the same file as unreadable.
    fileReadError("the file is not well-formed XML");
    return false;
  }
  if (root->name != "sdf") {
    fileReadError("the root element is <" + root->name + ">, expected <sdf>", root->where);
    return false;
  }
  const Attribute* versionAttribute = root->attribute("version");
  if (!versionAttribute) {
    fileReadError("the <sdf> element has no 'version' attribute", root->where);
    return false;
  }
  const std::string versionText = trim(versionAttribute->value);
  const std::optional<Version> version = parseVersion(versionText);
  if (!version || !schema::hasSchema(version->major, version->minor)) {
    diagnostics_.error(ErrorCode::VERSION_UNSUPPORTED,
                       "SDFormat version '" + versionText +
                           "' is not supported; expected 1.0 or 1.2 to 1.12 (the published specifications)",
                       versionAttribute->where);
    return false;
  }
  records.version = versionText;
  records.root = std::move(*root);
  return true;
}

/// The rules of this file's version, as libsdformat 12 applies them: joints and links share one
/// namespace from 1.7, world frames and models from 1.8, and from 1.8 a name with "::" is
/// reserved; an invalid inertial is refused (gz-math MassMatrix3::IsValid).
void Reader::declareRules(FormatRules& rules) const {
  rules.versionMajor = static_cast<std::uint32_t>(version_.major);
  rules.versionMinor = static_cast<std::uint32_t>(version_.minor);
  const auto before = [&](int minor) { return version_.major < 1 || (version_.major == 1 && version_.minor < minor); };
  rules.jointsShareLinkNamespace = !before(7);
  rules.worldFramesShareModelNamespace = !before(8);
  rules.delimiterInNameIsReserved = !before(8);
  rules.inertia.checked = true;
  rules.inertia.severity = Severity::Error;
  rules.inertia.zeroMomentsAllowed = true;
  rules.inertia.tolerance = InertiaTolerance::GzMath;
  rules.setInertiaVerdict("libsdformat refuses it");
}

void Reader::map(const SdfXml& records, Document& document) {
  document.format = kPluginName;
  version_ = parseVersion(records.version).value_or(Version{1, 9});
  document.formatVersion = records.version;
  declareRules(document.rules);
  defaultLower_ = limitDefault("lower", -std::numeric_limits<double>::infinity());
  defaultUpper_ = limitDefault("upper", std::numeric_limits<double>::infinity());
  if (version_.major == 1 && version_.minor == 0) {
    XmlElement upgraded = records.root;
    schema::upgradeFrom1_0(upgraded);
    readRoot(upgraded, document);
  } else {
    readRoot(records.root, document);
  }
  // The whole document against its own version's schema, as written (after the reader, so that
  // what the reader already reported is not repeated).
  schemaErrors_ += schema::validateDocument(records.root, version_.major, version_.minor, diagnostics_).schemaErrors;
  finish(records.root.where);
}

void Reader::fileReadError(const std::string& why, SourceLocation where) {
  if (where.file.empty()) where.file = path_;
  diagnostics_.error(ErrorCode::FILE_READ, "unable to read '" + path_ + "' as SDFormat: " + why, where);
}

void Reader::schemaError(ErrorCode code, std::string message, const SourceLocation& where) {
  diagnostics_.error(code, std::move(message), where);
  ++schemaErrors_;
}

void Reader::finish(const SourceLocation& rootWhere) {
  if (schemaErrors_ > 0) {
    diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                       "errors were found when checking the XML of element <sdf> (" + std::to_string(schemaErrors_) +
                           (schemaErrors_ == 1 ? " error above)" : " errors above)"),
                       rootWhere);
    fileReadError("the document does not follow the SDFormat schema");
  }
  for (const auto& [path, warning] : unsupported_) {
    if (warning.count > 1) {
      diagnostics_.items()[warning.index].message +=
          " (" + std::to_string(warning.count) + " occurrences in this file, all kept)";
    }
  }
}

std::string Reader::requiredName(const XmlElement& e) {
  const Attribute* name = e.attribute("name");
  if (!name) {
    schemaError(ErrorCode::ATTRIBUTE_MISSING, "required attribute 'name' of element " + tag(e) + " is missing",
                e.where);
    return {};
  }
  return name->value;
}

void Reader::checkRootReference(const Attribute* attribute) {
  if (attribute && attribute->value == "__root__") {
    diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                       "'__root__' is reserved; it cannot be used as a value of attribute '" + attribute->name + "'",
                       attribute->where);
  }
}

std::string Reader::frameReference(const XmlElement& e, const char* attributeName) {
  const Attribute* attribute = e.attribute(attributeName);
  checkRootReference(attribute);
  return attribute ? attribute->value : std::string();
}

void Reader::keep(const XmlElement& e, const std::string& parentPath, std::vector<KeptElement>& into) {
  std::string path = parentPath.empty() ? e.name : parentPath + "/" + e.name;
  KeptElement kept{path, e.toXml(), e.where};
  kept.element = xml::keptNodeOf(e);
  if (parentPath == scopePath_) {
    kept.within.clear();
  } else if (parentPath.size() > scopePath_.size() && parentPath.compare(0, scopePath_.size(), scopePath_) == 0 &&
             parentPath[scopePath_.size()] == '/') {
    kept.within = parentPath.substr(scopePath_.size() + 1);
  } else {
    kept.within = parentPath;
  }
  kept.owners = owners_;
  into.push_back(std::move(kept));
  auto [it, inserted] = unsupported_.try_emplace(std::move(path));
  if (!inserted) {
    ++it->second.count;
    return;
  }
  it->second.index = diagnostics_.size();
  std::string message;
  if (e.isNamespaced()) {
    message = "custom element " + tag(e) + " (" + it->first + ") is kept as written and not interpreted";
  } else if (e.name == "plugin") {
    message = "plugin element (" + it->first + ") is kept as written and not interpreted";
  } else {
    message = "element " + tag(e) + " (" + it->first + ") is outside the kinematic subset; kept, not interpreted";
  }
  // A valid element of the format is not a warning (issue 26): a note, which the CLI lists under
  // --verbose and `check --explain`. Elements the schema does not define are warned about there.
  diagnostics_.add(Diagnostic{Severity::Note, ErrorCode::ELEMENT_UNSUPPORTED, std::move(message), e.where});
}

std::optional<double> Reader::number(const XmlElement& e) {
  if (isBlank(e.text)) return std::nullopt;  // an empty element keeps the default
  auto value = parseDouble(e.text, e.where, tag(e), diagnostics_);
  if (!value) ++schemaErrors_;
  return value;
}

void Reader::readNumber(const XmlElement& e, double& into) {
  if (auto value = number(e)) into = *value;
}

JointAxis Reader::defaultAxis(const SourceLocation& where) const {
  JointAxis axis;
  axis.where = where;
  axis.lower = defaultLower_;
  axis.upper = defaultUpper_;
  return axis;
}

double Reader::limitDefault(const char* bound, double fallback) const {
  const int minor = version_.minor == 0 ? 2 : version_.minor;
  const char* text = schema::defaultValue(version_.major, minor, {"model", "joint", "axis", "limit", bound});
  if (!text) return fallback;
  char* end = nullptr;
  const double value = std::strtod(text, &end);  // reads "-inf" as the description writes it
  return end != text ? value : fallback;
}

void Reader::readLimit(const XmlElement& e, double& into) {
  if (isBlank(e.text)) return;  // an empty element keeps the default
  if (auto value = xml::parseLimit(e.text, e.where, tag(e), diagnostics_)) {
    into = *value;
  } else {
    ++schemaErrors_;
  }
}

std::optional<std::vector<double>> Reader::numbers(const XmlElement& e, std::size_t count) {
  if (isBlank(e.text)) return std::nullopt;
  auto values = parseDoubles(e.text, e.where, tag(e), diagnostics_, {count}, ErrorCode::VALUE_INVALID);
  if (!values) ++schemaErrors_;
  return values;
}

void Reader::readVector3(const XmlElement& e, Vector3& into) {
  if (isBlank(e.text)) return;
  if (auto value = xml::parseVector3(e.text, e.where, tag(e), diagnostics_)) {
    into = *value;
  } else {
    ++schemaErrors_;
  }
}

void Reader::readBool(const XmlElement& e, bool& into) {
  if (isBlank(e.text)) return;
  if (auto value = parseBool(e.text, e.where, tag(e), diagnostics_)) {
    into = *value;
  } else {
    ++schemaErrors_;
  }
}

std::string Reader::poseRelativeTo(const XmlElement& e) {
  if (version_.below(7)) {
    if (const Attribute* frame = e.attribute("frame")) {
      checkRootReference(frame);
      return frame->value;
    }
  }
  return frameReference(e, "relative_to");
}

SemanticPose Reader::readPose(const XmlElement& e) {
  SemanticPose pose;
  pose.where = e.where;
  pose.relativeTo = poseRelativeTo(e);

  bool degrees = false;
  if (const Attribute* attribute = e.attribute("degrees")) {
    const std::string value = toLower(trim(attribute->value));
    if (value == "true" || value == "1") {
      degrees = true;
    } else if (value != "false" && value != "0") {
      schemaError(ErrorCode::ATTRIBUTE_INVALID,
                  "attribute 'degrees' of <pose> must be true or false, got '" + attribute->value + "'",
                  attribute->where);
    }
  }
  bool quaternion = false;
  if (const Attribute* attribute = e.attribute("rotation_format")) {
    const std::string value = trim(attribute->value);
    if (value == "quat_xyzw") {
      quaternion = true;
    } else if (value != "euler_rpy") {
      schemaError(ErrorCode::ELEMENT_INVALID,
                  "attribute 'rotation_format' of <pose> must be euler_rpy or quat_xyzw, got '" + attribute->value +
                      "'",
                  attribute->where);
      return pose;
    }
  }
  if (quaternion && degrees) {
    schemaError(ErrorCode::ELEMENT_INVALID,
                "attribute 'degrees' of <pose> does not apply to rotation_format quat_xyzw", e.where);
    return pose;
  }
  if (isBlank(e.text)) return pose;  // an empty pose is the identity
  const std::size_t expected = quaternion ? 7 : 6;
  const std::string_view what =
      quaternion ? "<pose> (x y z qx qy qz qw, rotation_format quat_xyzw)" : "<pose> (x y z roll pitch yaw)";
  double v[7];
  if (!parseFixedDoubles(e.text, e.where, what, diagnostics_, v, expected, ErrorCode::POSE_FORMAT_INVALID)) {
    ++schemaErrors_;
    return pose;
  }
  if (quaternion) {
    pose.pose = poseFromXyzQuat(v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
  } else {
    const double scale = degrees ? M_PI / 180.0 : 1.0;
    pose.pose = poseFromXyzRpy(v[0], v[1], v[2], v[3] * scale, v[4] * scale, v[5] * scale);
  }
  return pose;
}


}  // namespace detail

bool readSdformatXml(const plugin::LoadRequest& request, SdfXml& records, Diagnostics& diagnostics) {
  return detail::Reader(request.path, diagnostics).readXml(request.content, records);
}

void mapSdformat(const SdfXml& records, const plugin::LoadRequest& request, Document& document,
                 Diagnostics& diagnostics) {
  detail::Reader(request.path, diagnostics).map(records, document);
}

int sniffSdformat(const char* /*path*/, const char* head, std::size_t size) {
  return xml::headRootIs(head, size, "sdf") ? 90 : 10;
}

}  // namespace interlink::sdformat
