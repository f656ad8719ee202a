#include "JuiceReader.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "JuiceConventions.hpp"
#include "JuiceRecords.hpp"
#include "JuiceSymmetry.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/UniqueNames.hpp"
#include "interlink/xml/XmlParser.hpp"
#include "interlink/xml/XmlValues.hpp"
#include "JuiceDocumentReader.hpp"
#include "interlink/model/Names.hpp"

namespace interlink::juice {
namespace detail {

std::string canonicalId(const std::string& text) {
  std::string t = trim(text);
  if (t.empty()) return t;
  std::size_t start = (t[0] == '-' || t[0] == '+') ? 1 : 0;
  if (start == t.size()) return t;
  for (std::size_t i = start; i < t.size(); ++i)
    if (t[i] < '0' || t[i] > '9') return t;
  std::size_t firstNonZero = t.find_first_not_of('0', start);
  if (firstNonZero == std::string::npos) return "0";
  return (t[0] == '-' ? "-" : "") + t.substr(firstNonZero);
}

std::string sanitizeName(std::string name) {
  // The scope delimiter separates scopes in Interlink names; a Juice name may not introduce one.
  return names::replaceDelimiters(name, "_");
}

void Reader::map(const XmlElement& modelElement) {
  document_.format = "juice";
  const XmlElement* root = &modelElement;
  model_.name = sanitizeName(std::filesystem::path(path_).stem().string());
  if (model_.name.empty()) model_.name = "juice_model";
  model_.where = at(*root);
  readVersion(*root);
  for (const XmlElement& c : root->children) checkNoAttributes(c, "Model");
  readModelParameters(*root);
  readComponents(*root);
  checkDuplicateIds();
  assignNames();
  checkTwins();
  checkSymmetry(bodyTwins_, jointTwins_, diagnostics_);
  buildLinks();
  buildJoints();
  model_.extensions.set(std::move(components_));
  // A file without bodies is a valid, empty Juice model; nothing in it can move.
  if (model_.links.empty()) model_.isStatic = true;
  document_.model = std::move(model_);
}

SourceLocation Reader::at(const XmlElement& e) const {
  SourceLocation where = e.where;
  if (where.file.empty()) where.file = path_;
  return where;
}

void Reader::readVersion(const XmlElement& root) {
  const xml::Attribute* version = root.attribute("FileVersion");
  if (!version) {
    version = root.attribute("FileVersionAttribute");
    if (version) model_.readingNotes["juice.file_version_attribute"] = "FileVersionAttribute";
  }
  if (!version) {
    diagnostics_.warning(ErrorCode::ATTRIBUTE_MISSING,
                         "<Model> has no FileVersion attribute; expected FileVersion=\"1\", reading as version 1",
                         at(root));
    document_.formatVersion = "1";
  } else {
    document_.formatVersion = trim(version->value);
    if (document_.formatVersion != "1")
      diagnostics_.warning(ErrorCode::VERSION_UNSUPPORTED,
                           "Juice file version '" + version->value + "' is not 1, the only version Juice writes; "
                           "reading it as version 1",
                           version->where.line > 0 ? version->where : at(root));
  }
  model_.readingNotes["juice.file_version"] = document_.formatVersion;
  // Juice uses massless links for frames and loads a wrong inertial.
  document_.rules.setVersion(document_.formatVersion);
  document_.rules.inertia.checked = true;
  document_.rules.setInertiaVerdict("Juice loads it");
  for (const xml::Attribute& a : root.attributes) {
    if (a.name == "FileVersion" || a.name == "FileVersionAttribute") continue;
    diagnostics_.warning(ErrorCode::ATTRIBUTE_INVALID,
                         "unknown attribute '" + a.name + "' on <Model>; expected only FileVersion",
                         a.where.line > 0 ? a.where : at(root));
  }
}

void Reader::checkNoAttributes(const XmlElement& e, const std::string& parentPath) {
  if (e.name == "Behaviors") return;
  const std::string path = parentPath + "/" + e.name;
  for (const xml::Attribute& a : e.attributes)
    diagnostics_.warning(ErrorCode::ATTRIBUTE_INVALID,
                         "unknown attribute '" + a.name + "' on <" + path + ">; expected none (ignored)",
                         a.where.line > 0 ? a.where : at(e));
  for (const XmlElement& c : e.children) checkNoAttributes(c, path);
}

void Reader::reportUnknown(const XmlElement& child, const std::string& parentPath, const std::string& expected) {
  diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                       "unknown element <" + child.name + "> in <" + parentPath + ">; expected one of " + expected +
                           " (kept as data)",
                       at(child));
  model_.kept.push_back(KeptElement{parentPath + "/" + child.name, child.toXml(), at(child)});
}

std::optional<double> Reader::number(const XmlElement& e, const std::string& what) {
  return parseDouble(e.trimmedText(), at(e), what, diagnostics_);
}

void Reader::readNumber(const XmlElement& e, const std::string& what, double& into) {
  if (auto v = number(e, what)) into = *v;
}

void Reader::readFlag(const XmlElement& e, const std::string& what, bool& into) {
  if (auto v = parseBool(e.trimmedText(), at(e), what + " (0 or 1)", diagnostics_)) into = *v;
}

void Reader::readTriple(const XmlElement& e, const std::string& path, const char* const names[3], double* into[3]) {
  std::string expected = std::string(names[0]) + ", " + names[1] + ", " + names[2];
  bool seen[3] = {false, false, false};
  checkNoText(e, path);
  for (const XmlElement& c : e.children) {
    int index = -1;
    for (int i = 0; i < 3; ++i)
      if (c.name == names[i]) index = i;
    if (index < 0) {
      reportUnknown(c, path, expected);
      continue;
    }
    if (seen[index]) {
      diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                           "<" + c.name + "> appears again in <" + path + ">; expected it once, the first one is used",
                           at(c));
      continue;
    }
    seen[index] = true;
    readNumber(c, path + "/" + c.name, *into[index]);
  }
  for (int i = 0; i < 3; ++i)
    if (!seen[i])
      diagnostics_.warning(ErrorCode::ELEMENT_MISSING,
                           "<" + path + "> has no <" + names[i] + ">; expected " + expected + " (using 0)", at(e));
}

void Reader::readVector(const XmlElement& e, const std::string& path, Vector3& into) {
  static const char* const kNames[3] = {"X", "Y", "Z"};
  double* targets[3] = {&into.x(), &into.y(), &into.z()};
  readTriple(e, path, kNames, targets);
}

void Reader::readModelParameters(const XmlElement& root) {
  static const std::set<std::string> kParameters = {"Gravity",       "Friction",    "ERP",       "CFM",
                                                    "StandardSpeed", "SpeedFactor", "PoseDelay", "PosePhase"};
  double gravity = kDefaultGravity;
  bool gravityWritten = false;
  std::map<std::string, SourceLocation> seen;
  for (const XmlElement& e : root.children) {
    if (!kParameters.count(e.name)) continue;
    std::optional<double> v = number(e, "Model/" + e.name);
    auto [first, inserted] = seen.emplace(e.name, at(e));
    if (!inserted) {
      diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                           "<" + e.name + "> appears again (first on line " + std::to_string(first->second.line) +
                               "); expected it once, the first one is used",
                           at(e));
      continue;
    }
    if (!v) continue;
    if (e.name == "Gravity") {
      gravity = *v;
      gravityWritten = true;
    } else {
      model_.parameters["juice." + e.name] = e.trimmedText();
    }
  }
  // Juice's gravity is a positive magnitude pulling along -Z.
  model_.gravity = Vector3(0, 0, -gravity);
  model_.readingNotes["juice.gravity_source"] = gravityWritten ? "file" : "default (Juice preference 9.81)";
}

void Reader::readComponents(const XmlElement& root) {
  static const std::string kModelChildren =
      "Gravity, Friction, ERP, CFM, StandardSpeed, SpeedFactor, PoseDelay, PosePhase, Bodies, RevoluteJoints, "
      "PrismaticJoints, SphericalJoints, Behaviors";
  static const std::set<std::string> kParameters = {"Gravity",       "Friction",    "ERP",       "CFM",
                                                    "StandardSpeed", "SpeedFactor", "PoseDelay", "PosePhase"};
  checkNoText(root, "Model");
  std::set<std::string> seen;
  for (const XmlElement& c : root.children) {
    if (kParameters.count(c.name)) continue;
    if (!firstOccurrence(c, seen, "Model")) continue;
    if (c.name == "Bodies") {
      readList(c, "Body", [this](const XmlElement& e) { readBody(e); });
    } else if (c.name == "RevoluteJoints") {
      readList(c, "RevoluteJoint", [this](const XmlElement& e) { readJoint(e, JointKind::Revolute); });
    } else if (c.name == "PrismaticJoints") {
      readList(c, "PrismaticJoint", [this](const XmlElement& e) { readJoint(e, JointKind::Prismatic); });
    } else if (c.name == "SphericalJoints") {
      readList(c, "SphericalJoint", [this](const XmlElement& e) { readJoint(e, JointKind::Spherical); });
    } else if (c.name == "Behaviors") {
      // Behaviours (clockwork motors, networks) drive joints at run time: kept opaque.
      model_.kept.push_back(KeptElement{"Model/Behaviors", c.toXml(), at(c)});
    } else {
      reportUnknown(c, "Model", kModelChildren);
    }
  }
}

bool Reader::firstOccurrence(const XmlElement& c, std::set<std::string>& seen, const std::string& path) {
  const std::string key = c.name == "Dimensions" ? "BoxDimensions" : c.name;
  if (seen.insert(key).second) return true;
  diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                       "<" + c.name + "> appears again in <" + path + ">; expected it once, the first one is used",
                       at(c));
  return false;
}

void Reader::checkNoText(const XmlElement& e, const std::string& path) {
  std::string text = trim(e.text);
  if (text.empty()) return;
  if (text.size() > 40) text = text.substr(0, 40) + "...";
  diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                       "unexpected text '" + text + "' in <" + path + ">; expected only child elements (ignored)",
                       at(e));
}

void Reader::checkMissing(const std::set<std::string>& seen, const Component& c, const std::string& path,
                  std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (seen.count(name)) continue;
    diagnostics_.warning(ErrorCode::ELEMENT_MISSING,
                         "<" + path + "> " + inQuotes(c.name) + " has no <" + name + ">; expected one (using " +
                             (std::string_view(name) == "Mass" ? "1" : "0 0 0") + ", Juice's default)",
                         c.where);
  }
}

void Reader::checkIdText(const XmlElement& c, const std::string& path) {
  const std::string text = trim(c.text);
  bool decimal = !text.empty(), hex = !text.empty();
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    const bool digit = ch >= '0' && ch <= '9';
    if (!(digit || ((ch == '-' || ch == '+') && i == 0 && text.size() > 1))) decimal = false;
    if (!(digit || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F'))) hex = false;
  }
  if (text.empty() || decimal || hex) return;
  diagnostics_.error(ErrorCode::VALUE_INVALID,
                     "expected an ID (a decimal integer, or hexadecimal) for " + path + ", got '" + text + "'",
                     at(c));
}

bool Reader::readComponentChild(const XmlElement& c, const std::string& path, Component& component) {
  if (c.name == "ID") {
    checkIdText(c, path + "/ID");
    component.id = canonicalId(c.trimmedText());
    component.idWhere = at(c);
    if (component.id.empty())
      diagnostics_.error(ErrorCode::VALUE_INVALID, "<" + path + "/ID> is empty; expected the component's ID",
                         at(c));
  } else if (c.name == "Name") {
    component.name = trim(c.text);
  } else if (c.name == "Position") {
    component.positionWhere = at(c);
    readVector(c, path + "/Position", component.position);
  } else if (c.name == "Rotation") {
    static const char* const kNames[3] = {"Y", "P", "R"};
    double* targets[3] = {&component.yaw, &component.pitch, &component.roll};
    readTriple(c, path + "/Rotation", kNames, targets);
  } else if (c.name == "Twin") {
    checkIdText(c, path + "/Twin");
    component.twinText = trim(c.text);
    component.twin = canonicalId(component.twinText);
    component.twinWhere = at(c);
  } else if (c.name == "SerializationID") {
    component.serializationId = trim(c.text);
  } else {
    return false;
  }
  return true;
}

void Reader::readBody(const XmlElement& e) {
  static const std::string kExpected =
      "SerializationID, ID, Name, Position, Rotation, Twin, BoxDimensions (or Dimensions), TubeLength, "
      "TubeDiameter, BallDiameter, Shape, Mass";
  const std::string path = "Model/Bodies/Body";
  Body body;
  body.where = at(e);
  bool hasId = false;
  const XmlElement* shapeElement = nullptr;
  std::set<std::string> seen;
  checkNoText(e, path);
  for (const XmlElement& c : e.children) {
    if (c.name == "ID") hasId = true;
    if (!firstOccurrence(c, seen, path)) continue;
    if (readComponentChild(c, path, body)) continue;
    if (c.name == "BoxDimensions" || c.name == "Dimensions") {
      // Older files name the box size <Dimensions>; Juice reads either.
      body.boxWritten = true;
      readVector(c, path + "/" + c.name, body.box);
    } else if (c.name == "TubeLength") {
      readNumber(c, path + "/TubeLength", body.tubeLength);
    } else if (c.name == "TubeDiameter") {
      readNumber(c, path + "/TubeDiameter", body.tubeDiameter);
    } else if (c.name == "BallDiameter") {
      readNumber(c, path + "/BallDiameter", body.ballDiameter);
    } else if (c.name == "Mass") {
      readNumber(c, path + "/Mass", body.mass);
    } else if (c.name == "Shape") {
      shapeElement = &c;
    } else {
      reportUnknown(c, path, kExpected);
    }
  }
  if (!hasId)
    diagnostics_.error(ErrorCode::ELEMENT_MISSING, "<Body> has no <ID>; expected the ID joints and twins refer to",
                       body.where);
  checkMissing(seen, body, path, {"Position", "Rotation", "Mass"});
  if (shapeElement) {
    std::optional<double> v = number(*shapeElement, "Body/Shape");
    if (!v) {
      body.shapeValid = false;
    } else if (*v != std::floor(*v) || *v < 1 || *v > 4) {
      body.shapeValid = false;
      diagnostics_.error(ErrorCode::VALUE_INVALID,
                         "Shape " + inQuotes(shapeElement->trimmedText()) + " of body " + inQuotes(body.name) +
                             " is out of range; expected 1 (box), 2 (capsule), 3 (sphere) or 4 (cylinder)",
                         at(*shapeElement));
    } else {
      body.shape = static_cast<int>(*v);
    }
  }
  checkBodySizes(body, e);
  bodies_.push_back(std::move(body));
}

void Reader::checkBodySizes(const Body& body, const XmlElement& e) {
  auto positive = [&](double value, const std::string& what) {
    if (value > 0) return;
    diagnostics_.error(ErrorCode::VALUE_INVALID,
                       what + " of body " + inQuotes(body.name) + " is " + formatNumber(value) +
                           "; expected a positive number",
                       at(e));
  };
  positive(body.mass, "Mass");
  if (!body.shapeValid) return;
  switch (body.shape) {
    case 1:
      if (!body.boxWritten)
        diagnostics_.warning(ErrorCode::ELEMENT_MISSING,
                             "box body " + inQuotes(body.name) + " has no <BoxDimensions>; expected X, Y, Z (using 1 1 1)",
                             at(e));
      positive(body.box.x(), "BoxDimensions/X");
      positive(body.box.y(), "BoxDimensions/Y");
      positive(body.box.z(), "BoxDimensions/Z");
      break;
    case 2:
    case 4:
      positive(body.tubeDiameter, "TubeDiameter");
      if (body.tubeLength < 0)
        diagnostics_.error(ErrorCode::VALUE_INVALID,
                           "TubeLength of body " + inQuotes(body.name) + " is " + formatNumber(body.tubeLength) +
                               "; expected a length >= 0",
                           at(e));
      break;
    case 3:
      positive(body.ballDiameter, "BallDiameter");
      break;
    default:
      break;
  }
}

void Reader::readJoint(const XmlElement& e, JointKind kind) {
  const std::string path = std::string("Model/") + jointElementName(kind) + "s/" + jointElementName(kind);
  std::string expected =
      "SerializationID, ID, Name, Position, Rotation, Twin, Body1, Body2, Gain, MaxForce, LoStopValue, "
      "HiStopValue, LoStopFlag, HiStopFlag, ";
  expected += kind == JointKind::Spherical ? "Diameter" : "Length, Diameter";
  JointRecord joint;
  joint.kind = kind;
  joint.where = at(e);
  joint.element = &e;
  bool hasId = false, hasBody1 = false, hasBody2 = false;
  std::set<std::string> seen;
  checkNoText(e, path);
  for (const XmlElement& c : e.children) {
    if (c.name == "ID") hasId = true;
    if (!firstOccurrence(c, seen, path)) continue;
    if (readComponentChild(c, path, joint)) continue;
    const std::string childPath = path + "/" + c.name;
    if (c.name == "Body1") {
      checkIdText(c, childPath);
      hasBody1 = true;
      joint.body1Text = trim(c.text);
      joint.body1 = canonicalId(joint.body1Text);
      joint.body1Where = at(c);
    } else if (c.name == "Body2") {
      checkIdText(c, childPath);
      hasBody2 = true;
      joint.body2Text = trim(c.text);
      joint.body2 = canonicalId(joint.body2Text);
      joint.body2Where = at(c);
    } else if (c.name == "Gain") {
      readNumber(c, childPath, joint.gain);
    } else if (c.name == "MaxForce") {
      readNumber(c, childPath, joint.maxForce);
    } else if (c.name == "LoStopValue") {
      readNumber(c, childPath, joint.loStop);
    } else if (c.name == "HiStopValue") {
      readNumber(c, childPath, joint.hiStop);
    } else if (c.name == "LoStopFlag") {
      readFlag(c, childPath, joint.loFlag);
    } else if (c.name == "HiStopFlag") {
      readFlag(c, childPath, joint.hiFlag);
    } else if (c.name == "Length" && kind != JointKind::Spherical) {
      readNumber(c, childPath, joint.length);
    } else if (c.name == "Diameter") {
      readNumber(c, childPath, joint.diameter);
    } else {
      reportUnknown(c, path, expected);
    }
  }
  if (!hasId)
    diagnostics_.error(ErrorCode::ELEMENT_MISSING, "<" + path + "> has no <ID>; expected the joint's ID",
                       joint.where);
  checkMissing(seen, joint, path, {"Position", "Rotation"});
  if (!hasBody1) joint.body1Where = joint.where;
  if (!hasBody2) joint.body2Where = joint.where;
  joints_.push_back(std::move(joint));
}

}  // namespace detail

bool readJuiceXml(const plugin::LoadRequest& request, xml::XmlElement& model, Diagnostics& diagnostics) {
  std::optional<xml::XmlElement> root = xml::parse(request.content, request.path, diagnostics);
  if (!root) return false;  // the XML reader reported the syntax error with its line and column
  if (root->name != "Model") {
    SourceLocation where = root->where;
    if (where.file.empty()) where.file = request.path;
    diagnostics.error(ErrorCode::ELEMENT_INVALID,
                      "expected the root element <Model FileVersion=\"1\"> of a Juice model, found <" + root->name +
                          ">",
                      where);
    return false;
  }
  model = std::move(*root);
  return true;
}

void mapJuice(const xml::XmlElement& model, const plugin::LoadRequest& request, Document& document,
              Diagnostics& diagnostics) {
  detail::Reader(request.path, document, diagnostics).map(model);
}

/// A <Model> root with a FileVersion attribute.
int sniffJuiceHead(std::string_view head) {
  const auto root = xml::sniffRootElement(head);
  return root && root->name == "Model" && root->startTag.find("FileVersion") != std::string_view::npos ? 95 : 0;
}

/// .jm is Juice's own extension; .xml is shared, so there only a <Model FileVersion=...> root counts.
int sniffJuice(const char* path, const char* head, std::size_t headSize) {
  const int score = sniffJuiceHead(std::string_view(head ? head : "", head ? headSize : 0));
  const std::string lowerPath = toLower(path ? path : "");
  const std::string_view jm = ".jm";
  const bool ownExtension = lowerPath.size() >= jm.size() && lowerPath.compare(lowerPath.size() - jm.size(), jm.size(), jm) == 0;
  if (ownExtension) return score > 0 ? 100 : 50;
  return score;
}

}  // namespace interlink::juice
