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
#include "interlink/model/Names.hpp"

namespace interlink::juice {

namespace {

using namespace detail;
using xml::XmlElement;

constexpr double kPi = 3.14159265358979323846;
/// Juice's application preference when a file has no <Gravity> (UserPreferences: 9.81).
constexpr double kDefaultGravity = 9.81;

/// Juice stores IDs as 32-bit integers written in decimal; newer files use hexadecimal
/// serialization IDs. Decimal ones are compared by value ("00000000" is 0), others as written.
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

class Reader {
 public:
  Reader(std::string path, Document& document, Diagnostics& diagnostics)
      : path_(std::move(path)), document_(document), diagnostics_(diagnostics) {}

  /// Step 2: the components read and checked (IDs, twins, symmetry), then mapped onto the model.
  void map(const XmlElement& modelElement) {
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

 private:
  SourceLocation at(const XmlElement& e) const {
    SourceLocation where = e.where;
    if (where.file.empty()) where.file = path_;
    return where;
  }

  // ---------------------------------------------------------------- reading
  void readVersion(const XmlElement& root) {
    const xml::Attribute* version = root.attribute("FileVersion");
    if (!version) {
      version = root.attribute("FileVersionAttribute");
      if (version) model_.parameters["juice.file_version_attribute"] = "FileVersionAttribute";
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
    model_.parameters["juice.file_version"] = document_.formatVersion;
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

  /// Juice writes no attributes below <Model>; any found is reported (behaviours are opaque).
  void checkNoAttributes(const XmlElement& e, const std::string& parentPath) {
    if (e.name == "Behaviors") return;
    const std::string path = parentPath + "/" + e.name;
    for (const xml::Attribute& a : e.attributes)
      diagnostics_.warning(ErrorCode::ATTRIBUTE_INVALID,
                           "unknown attribute '" + a.name + "' on <" + path + ">; expected none (ignored)",
                           a.where.line > 0 ? a.where : at(e));
    for (const XmlElement& c : e.children) checkNoAttributes(c, path);
  }

  /// Unknown children are reported and kept (never dropped silently).
  void reportUnknown(const XmlElement& child, const std::string& parentPath, const std::string& expected) {
    diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                         "unknown element <" + child.name + "> in <" + parentPath + ">; expected one of " + expected +
                             " (kept as data)",
                         at(child));
    model_.kept.push_back(KeptElement{parentPath + "/" + child.name, child.toXml(), at(child)});
  }

  std::optional<double> number(const XmlElement& e, const std::string& what) {
    return parseDouble(e.trimmedText(), at(e), what, diagnostics_);
  }

  void readNumber(const XmlElement& e, const std::string& what, double& into) {
    if (auto v = number(e, what)) into = *v;
  }

  void readFlag(const XmlElement& e, const std::string& what, bool& into) {
    if (auto v = parseBool(e.trimmedText(), at(e), what + " (0 or 1)", diagnostics_)) into = *v;
  }

  /// <X>, <Y>, <Z> children (or Y, P, R for rotations).
  void readTriple(const XmlElement& e, const std::string& path, const char* const names[3], double* into[3]) {
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

  void readVector(const XmlElement& e, const std::string& path, Vector3& into) {
    static const char* const kNames[3] = {"X", "Y", "Z"};
    double* targets[3] = {&into.x(), &into.y(), &into.z()};
    readTriple(e, path, kNames, targets);
  }

  void readModelParameters(const XmlElement& root) {
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
      model_.parameters["juice." + e.name] = e.trimmedText();
      if (e.name == "Gravity") {
        gravity = *v;
        gravityWritten = true;
      }
    }
    // Juice's gravity is a positive magnitude pulling along -Z.
    model_.parameters["gravity"] = formatNumber(0.0) + " " + formatNumber(0.0) + " " + formatNumber(-gravity);
    model_.parameters["gravity.source"] = gravityWritten ? "file" : "default (Juice preference 9.81)";
  }

  void readComponents(const XmlElement& root) {
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

  template <typename ReadOne>
  void readList(const XmlElement& list, const std::string& itemName, ReadOne readOne) {
    checkNoText(list, "Model/" + list.name);
    for (const XmlElement& c : list.children) {
      if (c.name == itemName)
        readOne(c);
      else
        reportUnknown(c, "Model/" + list.name, "<" + itemName + ">");
    }
  }

  /// A child that may appear once: later repeats are reported and skipped (the first counts).
  bool firstOccurrence(const XmlElement& c, std::set<std::string>& seen, const std::string& path) {
    const std::string key = c.name == "Dimensions" ? "BoxDimensions" : c.name;
    if (seen.insert(key).second) return true;
    diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                         "<" + c.name + "> appears again in <" + path + ">; expected it once, the first one is used",
                         at(c));
    return false;
  }

  /// Containers hold elements only; stray text is reported rather than dropped silently.
  void checkNoText(const XmlElement& e, const std::string& path) {
    std::string text = trim(e.text);
    if (text.empty()) return;
    if (text.size() > 40) text = text.substr(0, 40) + "...";
    diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                         "unexpected text '" + text + "' in <" + path + ">; expected only child elements (ignored)",
                         at(e));
  }

  void checkMissing(const std::set<std::string>& seen, const Component& c, const std::string& path,
                    std::initializer_list<const char*> names) {
    for (const char* name : names) {
      if (seen.count(name)) continue;
      diagnostics_.warning(ErrorCode::ELEMENT_MISSING,
                           "<" + path + "> " + inQuotes(c.name) + " has no <" + name + ">; expected one (using " +
                               (std::string_view(name) == "Mass" ? "1" : "0 0 0") + ", Juice's default)",
                           c.where);
    }
  }

  /// IDs are decimal integers, or hexadecimal serialization IDs in newer files.
  void checkIdText(const XmlElement& c, const std::string& path) {
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

  /// Reads a child shared by bodies and joints; false when the child is not one of them.
  bool readComponentChild(const XmlElement& c, const std::string& path, Component& component) {
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

  void readBody(const XmlElement& e) {
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

  void checkBodySizes(const Body& body, const XmlElement& e) {
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

  void readJoint(const XmlElement& e, JointKind kind) {
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

  // ---------------------------------------------------------------- checks
  void checkDuplicateIds() {
    // Juice IDs are object addresses, unique within a file; a repeat makes references ambiguous.
    std::map<std::string, std::pair<std::string, SourceLocation>> firstUse;
    auto visit = [&](const Component& c, const std::string& what) {
      if (c.id.empty()) return;
      auto [it, inserted] = firstUse.emplace(c.id, std::make_pair(what, c.idWhere));
      if (inserted) return;
      diagnostics_.error(ErrorCode::DUPLICATE_NAME,
                         "ID " + c.id + " of " + what + " is already used by " + it->second.first + " (line " +
                             std::to_string(it->second.second.line) + "); expected IDs unique within the file",
                         c.idWhere.line > 0 ? c.idWhere : c.where);
    };
    for (const Body& b : bodies_) visit(b, "body " + inQuotes(b.name));
    for (const JointRecord& j : joints_) visit(j, std::string(jointKindWord(j.kind)) + " " + inQuotes(j.name));
  }

  /// Core names: "<Name>_<ID>" (Juice names repeat, IDs do not). See docs/juice.md.
  void assignNames() {
    UniqueNames used("_", "", 2);
    auto unique = [&](Component& c, const char* fallback, std::size_t index) {
      c.scopedName = used.unique(sanitizeName(c.name.empty() ? fallback : c.name) + "_" +
                                 (c.id.empty() ? "noid" + std::to_string(index) : sanitizeName(c.id)));
    };
    for (std::size_t i = 0; i < bodies_.size(); ++i) unique(bodies_[i], "body", i);
    for (std::size_t i = 0; i < joints_.size(); ++i) unique(joints_[i], "joint", i);
    for (std::size_t i = 0; i < bodies_.size(); ++i)
      if (!bodies_[i].id.empty()) bodyById_.emplace(bodies_[i].id, i);
  }

  /// Juice resolves a twin within its own list (bodies among bodies, hinges among hinges, ...).
  template <typename Item>
  void checkTwinsOf(const std::vector<Item>& items, const std::string& listName,
                    const std::function<bool(const Item&)>& sameList, const std::function<std::string(const Item&)>& word) {
    std::map<std::string, std::size_t> byId;
    for (std::size_t i = 0; i < items.size(); ++i)
      if (sameList(items[i]) && !items[i].id.empty()) byId.emplace(items[i].id, i);
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Item& item = items[i];
      if (!sameList(item) || isNoReference(item.twin)) continue;
      SourceLocation where = item.twinWhere.line > 0 ? item.twinWhere : item.where;
      auto it = byId.find(item.twin);
      if (it == byId.end()) {
        diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                             "Twin " + item.twinText + " of " + word(item) + " " + inQuotes(item.name) +
                                 " names nothing in <" + listName + ">; expected the ID of its mirror partner or 0",
                             where);
        continue;
      }
      const Item& twin = items[it->second];
      if (twin.twin != item.id) {
        diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                             "Twin of " + word(item) + " " + inQuotes(item.name) + " (ID " + item.id + ") is " +
                                 inQuotes(twin.name) + " (ID " + twin.id + "), whose Twin is " +
                                 (twin.twinText.empty() ? std::string("missing") : twin.twinText) +
                                 "; expected twins to point back to each other",
                             where);
        continue;
      }
      if (it->second > i) recordTwins(item, twin);
    }
  }

  void recordTwins(const Body& a, const Body& b) { bodyTwins_.push_back({&a, &b}); }
  void recordTwins(const JointRecord& a, const JointRecord& b) { jointTwins_.push_back({&a, &b}); }

  void checkTwins() {
    checkTwinsOf<Body>(
        bodies_, "Bodies", [](const Body&) { return true; }, [](const Body&) { return std::string("body"); });
    for (JointKind kind : {JointKind::Revolute, JointKind::Prismatic, JointKind::Spherical}) {
      checkTwinsOf<JointRecord>(
          joints_, std::string(jointElementName(kind)) + "s",
          [kind](const JointRecord& j) { return j.kind == kind; },
          [](const JointRecord& j) { return std::string(jointKindWord(j.kind)); });
    }
  }

  // ---------------------------------------------------------------- mapping
  static Pose bodyPose(const Body& b) {
    Pose pose = Pose::Identity();
    pose.translation() = b.position;
    pose.linear() = bodyOrientation(b.yaw, b.pitch, b.roll).toRotationMatrix();
    return pose;
  }

  void buildLinks() {
    for (const Body& b : bodies_) {
      Link link;
      link.name = b.scopedName;
      link.where = b.where;
      link.pose.pose = bodyPose(b);
      link.pose.where = b.positionWhere.line > 0 ? b.positionWhere : b.where;
      link.hasInertial = true;
      link.inertial.mass = b.mass;
      link.inertial.where = b.where;
      Geometry geometry;
      Vector3 moments = Vector3::Ones();
      if (b.shapeValid) {
        switch (b.shape) {
          case 1:
            geometry.type = GeometryType::Box;
            geometry.size = b.box;
            moments = boxInertia(b.mass, b.box);
            break;
          case 2:
            geometry.type = GeometryType::Capsule;
            geometry.radius = b.tubeDiameter / 2;
            geometry.length = b.tubeLength;
            moments = capsuleInertia(b.mass, b.tubeDiameter / 2, b.tubeLength);
            break;
          case 3:
            geometry.type = GeometryType::Sphere;
            geometry.radius = b.ballDiameter / 2;
            moments = sphereInertia(b.mass, b.ballDiameter / 2);
            break;
          case 4:
            geometry.type = GeometryType::Cylinder;
            geometry.radius = b.tubeDiameter / 2;
            geometry.length = b.tubeLength;
            moments = cylinderInertia(b.mass, b.tubeDiameter / 2, b.tubeLength);
            break;
          default:
            break;
        }
      }
      link.inertial.inertia = moments.asDiagonal();
      if (geometry.type != GeometryType::Empty) {
        Shape visual;
        visual.name = "visual";
        visual.geometry = geometry;
        visual.where = b.where;
        Shape collision = visual;
        collision.name = "collision";
        link.visuals.push_back(visual);
        link.collisions.push_back(collision);
      }
      JuiceBody record;
      record.link = link.name;
      record.name = b.name;
      record.id = b.id;
      record.shape = b.shapeValid && b.shape >= 1 && b.shape <= 4 ? static_cast<BodyShape>(b.shape - 1) : BodyShape::Invalid;
      record.serializationId = b.serializationId;
      if (!isNoReference(b.twin)) {
        auto it = bodyById_.find(b.twin);
        record.twin = it != bodyById_.end() ? bodies_[it->second].scopedName : b.twinText;
      }
      components_.bodies.push_back(std::move(record));
      model_.links.push_back(std::move(link));
    }
  }

  /// Returns the body index, or reports why the reference is unusable.
  std::optional<std::size_t> resolveBody(const JointRecord& j, bool first) {
    const std::string& id = first ? j.body1 : j.body2;
    const std::string& text = first ? j.body1Text : j.body2Text;
    const SourceLocation& where = first ? j.body1Where : j.body2Where;
    const char* element = first ? "Body1" : "Body2";
    ErrorCode code = first ? ErrorCode::JOINT_PARENT_LINK_INVALID : ErrorCode::JOINT_CHILD_LINK_INVALID;
    std::string what = std::string(jointKindWord(j.kind)) + " " + inQuotes(j.name) + " (ID " + j.id + ")";
    if (isNoReference(id)) {
      diagnostics_.warning(code,
                           std::string(element) + " of " + what + " is " + (text.empty() ? "missing" : text) +
                               "; expected the ID of a body. Juice attaches this joint to nothing, so it is left "
                               "out of the model and kept as data",
                           where);
      return std::nullopt;
    }
    auto it = bodyById_.find(id);
    if (it == bodyById_.end()) {
      diagnostics_.warning(code,
                           std::string(element) + " " + text + " of " + what +
                               " names no body in <Bodies>; expected the ID of a body. Juice attaches this joint to "
                               "nothing, so it is left out of the model and kept as data",
                           where);
      return std::nullopt;
    }
    return it->second;
  }

  void buildJoints() {
    // Body1 is the parent, Body2 the child. Juice bodies are free, and its joints may form loops
    // or give a body two parents: such joints become loop closures so the tree stays a tree.
    std::vector<int> parentOf(bodies_.size(), -1);
    for (const JointRecord& j : joints_) {
      std::optional<std::size_t> parent = resolveBody(j, true);
      std::optional<std::size_t> child = resolveBody(j, false);
      if (parent && child && *parent == *child) {
        diagnostics_.warning(ErrorCode::JOINT_PARENT_SAME_AS_CHILD,
                             std::string(jointKindWord(j.kind)) + " " + inQuotes(j.name) + " (ID " + j.id +
                                 ") joins body " + inQuotes(bodies_[*parent].name) +
                                 " to itself; expected two different bodies. Juice attaches this joint to nothing, "
                                 "so it is left out of the model and kept as data",
                             j.body2Where);
        parent.reset();
      }
      if (!parent || !child) {
        model_.kept.push_back(KeptElement{std::string("Model/") + jointElementName(j.kind) + "s/" +
                                              jointElementName(j.kind),
                                          j.element ? j.element->toXml() : std::string(), j.where});
        continue;
      }
      Joint joint;
      joint.name = j.scopedName;
      joint.where = j.where;
      joint.parent = bodies_[*parent].scopedName;
      joint.child = bodies_[*child].scopedName;
      joint.loopClosure = parentOf[*child] >= 0 || isAncestor(parentOf, *child, *parent);
      if (!joint.loopClosure) parentOf[*child] = static_cast<int>(*parent);
      // Anchor at Position with axes parallel to the model frame, written relative to the child.
      Pose anchor = Pose::Identity();
      anchor.translation() = j.position;
      joint.pose.pose = bodyPose(bodies_[*child]).inverse() * anchor;
      joint.pose.where = j.positionWhere.line > 0 ? j.positionWhere : j.where;
      if (j.kind == JointKind::Spherical) {
        joint.type = JointType::Ball;  // Juice uses only the anchor; stops are unused
      } else {
        JointAxis axis;
        axis.where = j.where;
        axis.xyz = jointAxis(j);
        axis.effort = j.maxForce;
        const double unit = j.kind == JointKind::Revolute ? kPi / 180.0 : 1.0;
        if (j.loFlag) axis.lower = j.loStop * unit;
        if (j.hiFlag) axis.upper = j.hiStop * unit;
        joint.type = j.kind == JointKind::Revolute ? JointType::Revolute : JointType::Prismatic;
        joint.axes.push_back(axis);
      }
      JuiceJoint record;
      record.joint = joint.name;
      record.name = j.name;
      record.id = j.id;
      record.kind = j.kind;
      record.serializationId = j.serializationId;
      if (!isNoReference(j.twin)) record.twinId = j.twinText;
      record.gain = j.gain;
      record.maxForce = j.maxForce;
      record.loStop = j.loStop;
      record.hiStop = j.hiStop;
      record.loStopFlag = j.loFlag;
      record.hiStopFlag = j.hiFlag;
      record.length = j.length;
      record.diameter = j.diameter;
      components_.joints.push_back(std::move(record));
      model_.joints.push_back(std::move(joint));
    }
  }

  static bool isAncestor(const std::vector<int>& parentOf, std::size_t candidate, std::size_t of) {
    // Walks up from `of`; bounded by the number of bodies so a malformed chain cannot hang.
    int current = static_cast<int>(of);
    for (std::size_t steps = 0; current >= 0 && steps <= parentOf.size(); ++steps) {
      if (static_cast<std::size_t>(current) == candidate) return true;
      current = parentOf[static_cast<std::size_t>(current)];
    }
    return false;
  }

  std::string path_;
  Document& document_;
  Diagnostics& diagnostics_;
  Model model_;
  JuiceComponents components_;
  std::vector<Body> bodies_;
  std::vector<JointRecord> joints_;
  std::map<std::string, std::size_t> bodyById_;
  std::vector<BodyTwins> bodyTwins_;
  std::vector<JointTwins> jointTwins_;
};

}  // namespace

bool readJuiceXml(const plugin::LoadRequest& request, xml::XmlElement& model, Diagnostics& diagnostics) {
  std::optional<XmlElement> root = xml::parse(request.content, request.path, diagnostics);
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
  Reader(request.path, document, diagnostics).map(model);
}

int sniffJuiceHead(std::string_view head) {
  std::size_t i = 0;
  if (head.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  auto skipSpace = [&] {
    while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) ++i;
  };
  // Skip the XML declaration, processing instructions and comments before the root.
  for (;;) {
    skipSpace();
    if (head.substr(i, 2) == "<?") {
      std::size_t end = head.find("?>", i);
      if (end == std::string_view::npos) return 0;
      i = end + 2;
    } else if (head.substr(i, 4) == "<!--") {
      std::size_t end = head.find("-->", i);
      if (end == std::string_view::npos) return 0;
      i = end + 3;
    } else {
      break;
    }
  }
  if (head.substr(i, 6) != "<Model") return 0;
  i += 6;
  if (i >= head.size() || !(head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) return 0;
  std::size_t tagEnd = head.find('>', i);
  std::string_view tag = head.substr(i, tagEnd == std::string_view::npos ? std::string_view::npos : tagEnd - i);
  return tag.find("FileVersion") != std::string_view::npos ? 95 : 0;
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
