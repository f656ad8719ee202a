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
#include "interlink/xml/XmlParser.hpp"

namespace interlink::sdformat {
namespace {

using xml::Attribute;
using xml::XmlElement;

constexpr const char* kPluginName = "sdformat";

struct Version {
  int major = 0;
  int minor = 0;
  bool below(int minorVersion) const { return major == 1 && minor < minorVersion; }
};

bool isDigits(const std::string& text) {
  if (text.empty() || text.size() > 3) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

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

/// A joint type SDFormat 1.9 has, by its SDFormat name.
std::optional<JointType> jointTypeFromName(const std::string& name) {
  const auto type = jointTypeNamed(name);
  if (!type || !isSdformatJointType(*type)) return std::nullopt;
  return type;
}


class Reader {
 public:
  Reader(const std::string& path, Diagnostics& diagnostics) : path_(path), diagnostics_(diagnostics) {}

  /// Step 1: the located XML tree of an <sdf> document of a supported version.
  bool readXml(std::string_view content, SdfXml& records) {
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
  void declareRules(FormatRules& rules) const {
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

  /// Step 2: the tree mapped onto the model, with libsdformat's schema checks.
  void map(const SdfXml& records, Document& document) {
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

 private:
  // --- diagnostics ---------------------------------------------------------------------------

  void fileReadError(const std::string& why, SourceLocation where = {}) {
    if (where.file.empty()) where.file = path_;
    diagnostics_.error(ErrorCode::FILE_READ, "unable to read '" + path_ + "' as SDFormat: " + why, where);
  }

  /// A problem libsdformat finds while reading the XML against its schema; counted for the
  /// ELEMENT_INVALID / FILE_READ summary.
  void schemaError(ErrorCode code, std::string message, const SourceLocation& where) {
    diagnostics_.error(code, std::move(message), where);
    ++schemaErrors_;
  }

  void finish(const SourceLocation& rootWhere) {
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

  std::string requiredName(const XmlElement& e) {
    const Attribute* name = e.attribute("name");
    if (!name) {
      schemaError(ErrorCode::ATTRIBUTE_MISSING, "required attribute 'name' of element " + tag(e) + " is missing",
                  e.where);
      return {};
    }
    return name->value;
  }

  /// libsdformat reserves "__root__" in every attribute that names a frame.
  void checkRootReference(const Attribute* attribute) {
    if (attribute && attribute->value == "__root__") {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                         "'__root__' is reserved; it cannot be used as a value of attribute '" + attribute->name + "'",
                         attribute->where);
    }
  }

  std::string frameReference(const XmlElement& e, const char* attributeName) {
    const Attribute* attribute = e.attribute(attributeName);
    checkRootReference(attribute);
    return attribute ? attribute->value : std::string();
  }

  // --- kept elements -------------------------------------------------------------------------

  static KeptNode keptNode(const XmlElement& e) {
    KeptNode node;
    node.name = e.name;
    node.attributes.reserve(e.attributes.size());
    for (const Attribute& attribute : e.attributes) node.attributes.emplace_back(attribute.name, attribute.value);
    node.text = e.trimmedText();
    node.children.reserve(e.children.size());
    for (const XmlElement& child : e.children) node.children.push_back(keptNode(child));
    return node;
  }

  /// The model or world whose kept list receives elements, and the named elements entered below it
  /// (link, visual, joint): a writer puts kept elements back in the same place.
  struct KeptScope {
    Reader& reader;
    std::string savedPath;
    std::vector<std::string> savedOwners;
    KeptScope(Reader& r, const std::string& path) : reader(r), savedPath(r.scopePath_), savedOwners(std::move(r.owners_)) {
      reader.scopePath_ = path;
      reader.owners_.clear();
    }
    ~KeptScope() {
      reader.scopePath_ = std::move(savedPath);
      reader.owners_ = std::move(savedOwners);
    }
  };
  struct KeptOwner {
    Reader& reader;
    KeptOwner(Reader& r, const std::string& name) : reader(r) { reader.owners_.push_back(name); }
    ~KeptOwner() { reader.owners_.pop_back(); }
  };

  void keep(const XmlElement& e, const std::string& parentPath, std::vector<KeptElement>& into) {
    std::string path = parentPath.empty() ? e.name : parentPath + "/" + e.name;
    KeptElement kept{path, e.toXml(), e.where};
    kept.element = keptNode(e);
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

  // --- values --------------------------------------------------------------------------------

  std::optional<double> number(const XmlElement& e) {
    if (isBlank(e.text)) return std::nullopt;  // an empty element keeps the default
    auto value = parseDouble(e.text, e.where, tag(e), diagnostics_);
    if (!value) ++schemaErrors_;
    return value;
  }

  void readNumber(const XmlElement& e, double& into) {
    if (auto value = number(e)) into = *value;
  }

  /// An axis with this file's version's defaults, declared at `where`.
  JointAxis defaultAxis(const SourceLocation& where) const {
    JointAxis axis;
    axis.where = where;
    axis.lower = defaultLower_;
    axis.upper = defaultUpper_;
    return axis;
  }

  /// The default of //joint/axis/limit/<bound> in this file's version. 1.0 is read as upgraded to
  /// 1.2, whose description gives it (1.0 wrote limits as attributes).
  double limitDefault(const char* bound, double fallback) const {
    const int minor = version_.minor == 0 ? 2 : version_.minor;
    const char* text = schema::defaultValue(version_.major, minor, {"model", "joint", "axis", "limit", bound});
    if (!text) return fallback;
    char* end = nullptr;
    const double value = std::strtod(text, &end);  // reads "-inf" as the description writes it
    return end != text ? value : fallback;
  }

  /// Joint limits: "inf" and "-inf" mean no limit (libsdformat accepts them); NaN stays an error.
  void readLimit(const XmlElement& e, double& into) {
    std::string value = toLower(trim(e.text));
    const bool negative = !value.empty() && value[0] == '-';
    if (!value.empty() && (value[0] == '-' || value[0] == '+')) value.erase(0, 1);
    if (value == "inf" || value == "infinity") {
      into = negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
      return;
    }
    readNumber(e, into);
  }

  std::optional<std::vector<double>> numbers(const XmlElement& e, std::size_t count) {
    if (isBlank(e.text)) return std::nullopt;
    auto values = parseDoubles(e.text, e.where, tag(e), diagnostics_, {count}, ErrorCode::VALUE_INVALID);
    if (!values) ++schemaErrors_;
    return values;
  }

  void readVector3(const XmlElement& e, Vector3& into) {
    if (auto values = numbers(e, 3)) into = Vector3((*values)[0], (*values)[1], (*values)[2]);
  }

  void readBool(const XmlElement& e, bool& into) {
    if (isBlank(e.text)) return;
    if (auto value = parseBool(e.text, e.where, tag(e), diagnostics_)) {
      into = *value;
    } else {
      ++schemaErrors_;
    }
  }

  std::string text(const XmlElement& e) { return e.trimmedText(); }

  /// //pose/@relative_to; before 1.7 also //pose/@frame, which wins when both are given:
  /// libsdformat converts such a file by renaming @frame to @relative_to (overwriting it) and then
  /// reads @relative_to, so Gazebo honours either spelling in 1.4-1.6 files.
  std::string poseRelativeTo(const XmlElement& e) {
    if (version_.below(7)) {
      if (const Attribute* frame = e.attribute("frame")) {
        checkRootReference(frame);
        return frame->value;
      }
    }
    return frameReference(e, "relative_to");
  }

  /// <pose> with @relative_to (@frame before 1.7), @degrees and @rotation_format.
  SemanticPose readPose(const XmlElement& e) {
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
    auto values = parseDoubles(e.text, e.where, what, diagnostics_, {expected}, ErrorCode::POSE_FORMAT_INVALID);
    if (!values) {
      ++schemaErrors_;
      return pose;
    }
    const std::vector<double>& v = *values;
    if (quaternion) {
      pose.pose = poseFromXyzQuat(v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
    } else {
      const double scale = degrees ? M_PI / 180.0 : 1.0;
      pose.pose = poseFromXyzRpy(v[0], v[1], v[2], v[3] * scale, v[4] * scale, v[5] * scale);
    }
    return pose;
  }

  // --- root ----------------------------------------------------------------------------------

  void readRoot(const XmlElement& root, Document& document) {
    std::map<std::string, SourceLocation> worldNames;
    const XmlElement* firstModel = nullptr;
    for (const XmlElement& child : root.children) {
      if (child.name == "world") {
        World world = readWorld(child);
        auto [it, inserted] = worldNames.emplace(world.name, world.where);
        if (!inserted) {
          diagnostics_.error(ErrorCode::DUPLICATE_NAME,
                             "world name '" + world.name + "' is already used by the world at line " +
                                 std::to_string(it->second.line) + "; each world needs a unique name",
                             world.where);
          continue;
        }
        document.worlds.push_back(std::move(world));
      } else if (child.name == "model") {
        if (!firstModel) {
          firstModel = &child;
          ModelContext context;
          context.topLevelOfFile = true;
          context.path = "model";
          document.model = readModel(child, context);
        } else if (child.attributeOr("name", "") == firstModel->attributeOr("name", "")) {
          diagnostics_.error(ErrorCode::DUPLICATE_NAME,
                             "model name '" + child.attributeOr("name", "") + "' is already used at line " +
                                 std::to_string(firstModel->where.line),
                             child.where);
        } else {
          diagnostics_.error(ErrorCode::ELEMENT_INCORRECT_TYPE,
                             "a model file can hold only one top-level <model>; this one ('" +
                                 child.attributeOr("name", "") + "') is not read",
                             child.where);
        }
      } else if (child.name == "light") {
        document.lights.push_back(readLight(child, "light", document.kept));
      } else {
        keep(child, "", document.kept);
      }
    }
  }

  // --- world ---------------------------------------------------------------------------------

  World readWorld(const XmlElement& e) {
    World world;
    world.where = e.where;
    world.name = requiredName(e);
    const std::string path = "world";
    KeptScope scope(*this, path);
    std::size_t modelCount = 0;
    for (const XmlElement& child : e.children) modelCount += child.name == "model" || child.name == "include";
    world.models.reserve(modelCount);
    bool physicsRead = false;
    bool gravityRead = false;
    for (const XmlElement& child : e.children) {
      const std::string_view n = child.name;  // a view: comparisons with literals stay inline
      if (n == "gravity") {
        readVector3(child, world.gravity);
        gravityRead = true;
      } else if (n == "physics") {
        // Several profiles may be given; the one marked default (or the first) is the one used.
        const bool isDefault = toLower(child.attributeOr("default", "false")) == "true";
        if (!physicsRead || isDefault) {
          world.physics = readPhysics(child, world, gravityRead, path, world.kept);
          physicsRead = true;
        } else {
          keep(child, path, world.kept);
        }
      } else if (n == "model") {
        ModelContext context;
        context.path = path + "/model";
        context.inWorld = true;
        if (version_.below(8) && hasFlattenedContent(child)) {
          XmlElement converted = child;
          unflattenModel(converted);
          world.models.push_back(readModel(converted, context));
        } else {
          world.models.push_back(readModel(child, context));
        }
      } else if (n == "include") {
        if (auto include = readInclude(child, world.models.size())) world.includes.push_back(std::move(*include));
      } else if (n == "frame") {
        world.frames.push_back(readFrame(child, path, world.kept));
      } else if (n == "joint" && !version_.below(10)) {  // world-level joints exist since 1.10
        world.joints.push_back(readJoint(child, path, world.kept, false));
      } else if (n == "light") {
        world.lights.push_back(readLight(child, path + "/light", world.kept));
      } else {
        keep(child, path, world.kept);
      }
    }
    return world;
  }

  Physics readPhysics(const XmlElement& e, World& world, bool gravityRead, const std::string& parentPath,
                      std::vector<KeptElement>& kept) {
    Physics physics;
    physics.name = e.attributeOr("name", "default_physics");
    physics.type = e.attributeOr("type", "ode");
    const std::string path = parentPath + "/physics";
    for (const XmlElement& child : e.children) {
      if (child.name == "max_step_size") {
        readNumber(child, physics.maxStepSize);
      } else if (child.name == "real_time_factor") {
        readNumber(child, physics.realTimeFactor);
      } else if (child.name == "gravity" && version_.below(6)) {
        // SDFormat 1.5 kept gravity here; 1.6 moved it to the world.
        if (!gravityRead) readVector3(child, world.gravity);
      } else if (child.isNamespaced() || child.name == "plugin") {
        keep(child, path, kept);
      } else {
        collectPhysicsValues(child, child.name, physics, path, kept);
      }
    }
    return physics;
  }

  /// Engine parameters are kept by path ("ode/solver/iters"); numbers go to Physics::values,
  /// anything else (solver type names, collision detector) to the kept list or the named field.
  void collectPhysicsValues(const XmlElement& e, const std::string& key, Physics& physics, const std::string& parentPath,
                            std::vector<KeptElement>& kept) {
    if (!e.children.empty()) {
      for (const XmlElement& child : e.children) {
        collectPhysicsValues(child, key + "/" + child.name, physics, parentPath + "/" + e.name, kept);
      }
      return;
    }
    if (e.name == "collision_detector") {
      physics.collisionDetector = text(e);
      return;
    }
    const std::string value = text(e);
    if (value.empty()) return;
    Diagnostics scratch;  // a non-number here is a name (solver type), not an error
    if (auto number = parseDouble(value, e.where, tag(e), scratch)) {
      physics.values[key] = *number;
    } else {
      keep(e, parentPath, kept);
    }
  }

  Light readLight(const XmlElement& e, const std::string& path, std::vector<KeptElement>& kept) {
    Light light;
    light.where = e.where;
    light.name = e.attributeOr("name", "");
    KeptOwner owner(*this, light.name);
    const std::string type = e.attributeOr("type", "point");
    if (type == "directional") {
      light.type = LightType::Directional;
    } else if (type == "spot") {
      light.type = LightType::Spot;
    } else if (type != "point") {
      schemaError(ErrorCode::ATTRIBUTE_INVALID,
                  "light type '" + type + "' is not one of point, directional, spot", e.where);
    }
    for (const XmlElement& child : e.children) {
      if (child.name == "pose") {
        light.pose = readPose(child);
      } else if (child.name == "direction") {
        readVector3(child, light.direction);
      } else if (child.name == "cast_shadows") {
        readBool(child, light.castShadows);
      } else if (child.name == "diffuse") {
        if (auto rgba = numbers(child, 4)) light.diffuse = Eigen::Vector4d((*rgba)[0], (*rgba)[1], (*rgba)[2], (*rgba)[3]);
      } else {
        keep(child, path, kept);
      }
    }
    return light;
  }

  // --- model ---------------------------------------------------------------------------------

  struct ModelContext {
    std::string path;
    bool topLevelOfFile = false;  // the root model of a model file
    bool inWorld = false;         // a direct child of //world
  };

  Model newModel(const SourceLocation& where) {
    Model model;
    model.where = where;
    return model;
  }

  Model readModel(const XmlElement& e, const ModelContext& context) {
    Model model = newModel(e.where);
    model.name = requiredName(e);
    model.pose.where = e.where;
    KeptScope scope(*this, context.path);
    model.canonicalLink = frameReference(e, "canonical_link");
    model.placementFrame = frameReference(e, "placement_frame");
    // SDFormat 1.4 files get //axis/use_parent_model_frame = true on the joints of top-level
    // models when libsdformat converts them to 1.5.
    const bool axesInModelFrame = version_.below(5) && (context.topLevelOfFile || context.inWorld);
    reserveFor(e, model);
    bool poseRead = false;
    for (const XmlElement& child : e.children) {
      const std::string_view n = child.name;  // a view: comparisons with literals stay inline
      if (n == "link") {
        model.links.push_back(readLink(child, model, context.path));
      } else if (n == "joint") {
        model.joints.push_back(readJoint(child, context.path, model.kept, axesInModelFrame));
      } else if (n == "frame") {
        model.frames.push_back(readFrame(child, context.path, model.kept));
      } else if (n == "model") {
        ModelContext nested;
        nested.path = context.path + "/model";
        model.models.push_back(readModel(child, nested));
      } else if (n == "include") {
        if (auto include = readInclude(child, model.models.size())) model.includes.push_back(std::move(*include));
      } else if (n == "pose" && !poseRead) {
        model.pose = readPose(child);
        poseRead = true;
        if (context.topLevelOfFile && !model.pose.relativeTo.empty()) {
          const Attribute* attribute = child.attribute("relative_to");
          if (version_.below(7) && child.attribute("frame")) attribute = child.attribute("frame");
          schemaError(ErrorCode::ATTRIBUTE_INVALID,
                      "the pose of the top-level model must not have relative_to (found '" + model.pose.relativeTo +
                          "'): it has no sibling frames",
                      attribute ? attribute->where : child.where);
          model.pose.relativeTo.clear();
        }
      } else if (n == "static") {
        readBool(child, model.isStatic);
      } else {
        keep(child, context.path, model.kept);
      }
    }
    return model;
  }

  /// Large models are common (generated chains): size the lists once instead of growing them.
  static void reserveFor(const XmlElement& e, Model& model) {
    std::size_t links = 0, joints = 0, frames = 0, models = 0;
    for (const XmlElement& child : e.children) {
      const std::string_view n = child.name;  // a view: comparisons with literals stay inline
      links += n == "link";
      joints += n == "joint";
      frames += n == "frame";
      models += n == "model" || n == "include";
    }
    model.links.reserve(links);
    model.joints.reserve(joints);
    model.frames.reserve(frames);
    model.models.reserve(models);
  }

  /// An <include>, placed after the models declared before it (`modelsBefore`).
  std::optional<Include> readInclude(const XmlElement& e, std::size_t modelsBefore) {
    Include include;
    include.where = e.where;
    include.elementText = e.toXml();
    if (const Attribute* merge = e.attribute("merge")) {
      const std::string value = toLower(trim(merge->value));
      if (value == "true" || value == "1") {
        include.merge = true;
      } else if (value != "false" && value != "0") {
        schemaError(ErrorCode::ATTRIBUTE_INVALID, "attribute 'merge' of <include> must be true or false, got '" +
                                                      merge->value + "'",
                    merge->where);
      }
    }
    bool hasUri = false;
    std::vector<KeptElement> includeKept;  // inside an added frame or joint; the include keeps its text
    for (const XmlElement& child : e.children) {
      if (child.name == "uri") {
        include.uri = text(child);
        hasUri = true;
      } else if (child.name == "name") {
        include.name = text(child);
      } else if (child.name == "static") {
        bool value = false;
        readBool(child, value);
        include.isStatic = value;
      } else if (child.name == "pose") {
        include.pose = readPose(child);
      } else if (child.name == "placement_frame") {
        include.placementFrame = text(child);
        if (*include.placementFrame == "__root__") {
          diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                             "'__root__' is reserved; it cannot be used as a value of <placement_frame>", child.where);
        }
      } else if (child.name == "frame") {
        include.frames.push_back(readFrame(child, "include", includeKept));
      } else if (child.name == "joint") {
        include.joints.push_back(readJoint(child, "include", includeKept, false));
      }
      // Everything else (plugins, custom elements) travels in elementText for the framework and
      // host parsers.
    }
    if (include.placementFrame && !include.pose) {
      // libsdformat checks this while reading the include (so ELEMENT_INVALID and FILE_READ follow).
      schemaError(ErrorCode::MODEL_PLACEMENT_FRAME_INVALID,
                  "<placement_frame> of an <include> requires a <pose> in the same <include>", e.where);
    }
    if (!hasUri || include.uri.empty()) {
      // libsdformat reports this outside its schema reader (no FILE_READ).
      diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<include> has no <uri>; expected the URI of the model to include",
                         e.where);
      return std::nullopt;
    }
    include.position = modelsBefore;
    return include;
  }

  Frame readFrame(const XmlElement& e, const std::string& scopePath, std::vector<KeptElement>& kept) {
    Frame frame;
    frame.where = e.where;
    frame.name = requiredName(e);
    frame.attachedTo = frameReference(e, "attached_to");
    frame.pose.where = e.where;
    KeptOwner owner(*this, frame.name);
    bool poseRead = false;
    for (const XmlElement& child : e.children) {
      if (std::string_view(child.name) == "pose" && !poseRead) {
        frame.pose = readPose(child);
        poseRead = true;
      } else {
        keep(child, scopePath + "/frame", kept);
      }
    }
    return frame;
  }

  // --- link ----------------------------------------------------------------------------------

  /// Seed 003 section 1.6 phase 2: the named children of a link (visuals, collisions, sensors,
  /// lights, ...) have unique names across every element type. Two of one type are an error in
  /// every version, as libsdformat's DUPLICATE_NAME (visuals and collisions are reported by the
  /// frame graph, the rest here). Two of different types are an error from SDFormat 1.7 on; files
  /// of 1.4-1.6, from before the frame semantics (Gazebo's own table model names a visual and a
  /// collision alike, and libsdformat loads it), get a located warning instead.
  void checkLinkChildNames(const XmlElement& link, const std::string& linkName) {
    std::map<std::string, const XmlElement*> seen;
    for (const XmlElement& child : link.children) {
      if (child.isNamespaced() || child.name == "plugin") continue;  // plugins may share a name
      const Attribute* name = child.attribute("name");
      if (!name) continue;
      auto [it, inserted] = seen.emplace(name->value, &child);
      if (inserted) continue;
      const XmlElement& first = *it->second;
      const std::string message = "<" + child.name + "> name '" + name->value + "' is already used by the <" +
                                  first.name + "> at line " + std::to_string(first.where.line) + " in link '" +
                                  linkName + "'; sibling names must be unique across every element type";
      if (first.name == child.name) {
        if (child.name != "visual" && child.name != "collision") {
          diagnostics_.error(ErrorCode::DUPLICATE_NAME, message, name->where);
        }
      } else if (version_.below(7)) {
        diagnostics_.warning(ErrorCode::DUPLICATE_NAME, message + " (an error from SDFormat 1.7 on)", name->where);
      } else {
        diagnostics_.error(ErrorCode::DUPLICATE_NAME, message, name->where);
      }
    }
  }

  Link readLink(const XmlElement& e, Model& model, const std::string& modelPath) {
    Link link;
    link.where = e.where;
    link.name = requiredName(e);
    link.pose.where = e.where;
    KeptOwner owner(*this, link.name);
    const std::string path = modelPath + "/link";
    checkLinkChildNames(e, link.name);
    bool poseRead = false;
    for (const XmlElement& child : e.children) {
      const std::string_view n = child.name;  // a view: comparisons with literals stay inline
      if (n == "pose" && !poseRead) {
        link.pose = readPose(child);
        poseRead = true;
      } else if (n == "inertial") {
        readInertial(child, link, path, model.kept);
      } else if (n == "visual") {
        link.visuals.push_back(readShape(child, path + "/visual", model.kept));
      } else if (n == "collision") {
        link.collisions.push_back(readShape(child, path + "/collision", model.kept));
      } else if (n == "gravity") {
        readBool(child, link.gravity);
      } else if (n == "self_collide") {
        readBool(child, link.selfCollide);
      } else if (n == "light") {
        Light light = readLight(child, path + "/light", model.kept);
        light.attachedTo = link.name;
        if (light.pose.relativeTo.empty()) light.pose.relativeTo = link.name;
        model.lights.push_back(std::move(light));
      } else {
        keep(child, path, model.kept);
      }
    }
    return link;
  }

  void readInertial(const XmlElement& e, Link& link, const std::string& linkPath, std::vector<KeptElement>& kept) {
    Inertial& inertial = link.inertial;
    link.hasInertial = true;
    inertial.where = e.where;
    const std::string path = linkPath + "/inertial";
    for (const XmlElement& child : e.children) {
      if (child.name == "mass") {
        readNumber(child, inertial.mass);
      } else if (child.name == "pose") {
        const SemanticPose pose = readPose(child);
        inertial.centerOfMass = pose.pose;
      } else if (child.name == "inertia") {
        double ixx = 1, iyy = 1, izz = 1, ixy = 0, ixz = 0, iyz = 0;
        for (const XmlElement& moment : child.children) {
          const std::string& m = moment.name;
          if (m == "ixx") readNumber(moment, ixx);
          else if (m == "iyy") readNumber(moment, iyy);
          else if (m == "izz") readNumber(moment, izz);
          else if (m == "ixy") readNumber(moment, ixy);
          else if (m == "ixz") readNumber(moment, ixz);
          else if (m == "iyz") readNumber(moment, iyz);
          else keep(moment, path + "/inertia", kept);
        }
        inertial.inertia << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
      } else {
        keep(child, path, kept);
      }
    }
  }

  Shape readShape(const XmlElement& e, const std::string& path, std::vector<KeptElement>& kept) {
    Shape shape;
    shape.where = e.where;
    shape.name = requiredName(e);
    shape.pose.where = e.where;
    KeptOwner owner(*this, shape.name);
    for (const XmlElement& child : e.children) {
      if (child.name == "pose") {
        shape.pose = readPose(child);
      } else if (child.name == "geometry") {
        readGeometry(child, shape.geometry, path + "/geometry", kept);
      } else if (child.name == "material") {
        readMaterial(child, shape);
        keep(child, path, kept);
      } else {
        keep(child, path, kept);
      }
    }
    return shape;
  }

  /// The colour and script name the model has room for; the whole element is kept as well.
  void readMaterial(const XmlElement& e, Shape& shape) {
    if (const XmlElement* diffuse = e.child("diffuse")) {
      Diagnostics scratch;  // reported through the kept element's consumers, not here
      if (auto rgba = parseDoubles(diffuse->text, diffuse->where, "<diffuse>", scratch, {4})) {
        shape.color = Eigen::Vector4d((*rgba)[0], (*rgba)[1], (*rgba)[2], (*rgba)[3]);
      }
    }
    if (const XmlElement* script = e.child("script")) {
      if (const XmlElement* name = script->child("name")) shape.material = text(*name);
    }
  }

  void readGeometry(const XmlElement& e, Geometry& geometry, const std::string& path, std::vector<KeptElement>& kept) {
    for (const XmlElement& shape : e.children) {
      const std::string& n = shape.name;
      const std::string shapePath = path + "/" + n;
      if (n == "box") {
        geometry.type = GeometryType::Box;
        geometry.size = Vector3::Ones();
        readShapeValues(shape, shapePath, kept, {{"size", [&](const XmlElement& v) { readVector3(v, geometry.size); }}});
      } else if (n == "sphere") {
        geometry.type = GeometryType::Sphere;
        geometry.radius = 1;
        readShapeValues(shape, shapePath, kept, {{"radius", [&](const XmlElement& v) { readNumber(v, geometry.radius); }}});
      } else if (n == "cylinder" || n == "capsule") {
        geometry.type = n == "cylinder" ? GeometryType::Cylinder : GeometryType::Capsule;
        geometry.radius = n == "cylinder" ? 1 : 0.5;
        geometry.length = 1;
        readShapeValues(shape, shapePath, kept,
                        {{"radius", [&](const XmlElement& v) { readNumber(v, geometry.radius); }},
                         {"length", [&](const XmlElement& v) { readNumber(v, geometry.length); }}});
      } else if (n == "ellipsoid") {
        geometry.type = GeometryType::Ellipsoid;
        geometry.radii = Vector3::Ones();
        readShapeValues(shape, shapePath, kept, {{"radii", [&](const XmlElement& v) { readVector3(v, geometry.radii); }}});
      } else if (n == "plane") {
        geometry.type = GeometryType::Plane;
        geometry.planeSize = Eigen::Vector2d::Ones();
        readShapeValues(shape, shapePath, kept,
                        {{"normal", [&](const XmlElement& v) { readVector3(v, geometry.normal); }},
                         {"size", [&](const XmlElement& v) {
                            if (auto size = numbers(v, 2)) geometry.planeSize = Eigen::Vector2d((*size)[0], (*size)[1]);
                          }}});
      } else if (n == "mesh") {
        geometry.type = GeometryType::Mesh;
        bool hasUri = false;
        readShapeValues(shape, shapePath, kept,
                        {{"uri", [&](const XmlElement& v) {
                            geometry.meshUri = text(v);
                            hasUri = true;
                          }},
                         {"scale", [&](const XmlElement& v) { readVector3(v, geometry.scale); }}});
        if (!hasUri) {
          schemaError(ErrorCode::ELEMENT_MISSING, "required element <uri> of <mesh> is missing", shape.where);
        }
      } else if (n == "empty") {
        geometry.type = GeometryType::Empty;
      } else if (n == "heightmap") {
        geometry.type = GeometryType::Heightmap;
        if (const XmlElement* uri = shape.child("uri")) geometry.meshUri = text(*uri);
        keep(shape, path, kept);
      } else {
        keep(shape, path, kept);
      }
    }
  }

  struct ValueReader {
    const char* name;
    std::function<void(const XmlElement&)> read;
  };

  void readShapeValues(const XmlElement& shape, const std::string& path, std::vector<KeptElement>& kept,
                       std::initializer_list<ValueReader> readers) {
    for (const XmlElement& child : shape.children) {
      bool known = false;
      for (const ValueReader& reader : readers) {
        if (child.name == reader.name) {
          reader.read(child);
          known = true;
          break;
        }
      }
      if (!known) keep(child, path, kept);
    }
  }

  // --- joint ---------------------------------------------------------------------------------

  Joint readJoint(const XmlElement& e, const std::string& scopePath, std::vector<KeptElement>& kept,
                  bool axesInModelFrame) {
    Joint joint;
    joint.where = e.where;
    joint.name = requiredName(e);
    joint.pose.where = e.where;
    KeptOwner owner(*this, joint.name);
    const std::string path = scopePath + "/joint";
    const Attribute* type = e.attribute("type");
    if (!type) {
      schemaError(ErrorCode::ATTRIBUTE_MISSING, "required attribute 'type' of element <joint> is missing", e.where);
    } else if (auto parsed = jointTypeFromName(trim(type->value))) {
      joint.type = *parsed;
    } else {
      // libsdformat finds this when it builds the joint, after the schema pass (no FILE_READ).
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                         "joint type '" + type->value +
                             "' is invalid; expected fixed, revolute, continuous, prismatic, ball, universal, screw, "
                             "gearbox or revolute2",
                         type->where);
    }
    const XmlElement* axisElements[2] = {nullptr, nullptr};
    bool hasParent = false;
    bool hasChild = false;
    bool poseRead = false;
    bool threadPitchRead = false;
    for (const XmlElement& child : e.children) {
      const std::string_view n = child.name;  // a view: comparisons with literals stay inline
      if (n == "parent") {
        joint.parent = text(child);
        hasParent = true;
      } else if (n == "child") {
        joint.child = text(child);
        hasChild = true;
      } else if (n == "pose" && !poseRead) {
        joint.pose = readPose(child);
        poseRead = true;
      } else if (n == "axis" && !axisElements[0]) {
        axisElements[0] = &child;
      } else if (n == "axis2" && !axisElements[1]) {
        axisElements[1] = &child;
      } else if (n == "thread_pitch") {
        readNumber(child, joint.screwThreadPitch);
        threadPitchRead = true;
      } else if (n == "screw_thread_pitch" && !version_.below(10)) {  // 1.10 replaced thread_pitch
        readNumber(child, joint.screwThreadPitch);
        threadPitchRead = true;
      } else if (n == "gearbox_ratio") {
        readNumber(child, joint.gearboxRatio);
      } else if (n == "interlink:transmission_ratio") {  // written by Interlink's SDFormat writer
        readNumber(child, joint.transmissionRatio);
      } else {
        keep(child, path, kept);
      }
    }
    if (!hasParent) {
      schemaError(ErrorCode::ELEMENT_MISSING, "required element <parent> of joint '" + joint.name + "' is missing",
                  e.where);
    }
    if (!hasChild) {
      schemaError(ErrorCode::ELEMENT_MISSING, "required element <child> of joint '" + joint.name + "' is missing",
                  e.where);
    }
    for (const std::string* name : {&joint.parent, &joint.child}) {
      if (*name == "__root__") {
        diagnostics_.error(ErrorCode::RESERVED_NAME,
                           "joint '" + joint.name + "' names '__root__' as its " +
                               (name == &joint.parent ? "parent" : "child") + "; '__root__' is reserved",
                           e.where);
      }
    }
    if (joint.type == JointType::Screw && !threadPitchRead) joint.screwThreadPitch = 1.0;  // SDFormat's default

    const int needed = sdformatAxisCount(joint.type);
    int count = needed;
    for (int i = 0; i < 2; ++i) {
      if (axisElements[i]) count = std::max(count, i + 1);
    }
    std::vector<double> initial(static_cast<std::size_t>(count), 0.0);
    bool anyInitial = false;
    for (int i = 0; i < count; ++i) {
      JointAxis axis = defaultAxis(e.where);
      if (axisElements[i]) {
        std::optional<double> initialPosition;
        axis = readAxis(*axisElements[i], path + "/" + axisElements[i]->name, kept, axesInModelFrame, initialPosition);
        if (const XmlElement* mimic = axisElements[i]->child("mimic"); mimic && !version_.below(11)) {
          joint.mimic = readMimic(*mimic);
        }
        if (initialPosition) {
          initial[static_cast<std::size_t>(i)] = *initialPosition;
          anyInitial = true;
        }
      } else if (axesInModelFrame) {
        axis.expressedIn = "__model__";
      }
      joint.axes.push_back(std::move(axis));
    }
    if (anyInitial) {
      initial.resize(static_cast<std::size_t>(dofCount(joint.type)), 0.0);
      joint.initialPositions = std::move(initial);
    }
    return joint;
  }

  /// //axis/mimic (1.11): follower = multiplier * (leader - reference) + offset.
  Mimic readMimic(const XmlElement& e) {
    Mimic mimic;
    mimic.joint = e.attributeOr("joint", "");
    double reference = 0;
    for (const XmlElement& child : e.children) {
      if (child.name == "multiplier") readNumber(child, mimic.multiplier);
      else if (child.name == "offset") readNumber(child, mimic.offset);
      else if (child.name == "reference") readNumber(child, reference);
    }
    mimic.offset -= mimic.multiplier * reference;
    return mimic;
  }

  JointAxis readAxis(const XmlElement& e, const std::string& path, std::vector<KeptElement>& kept,
                     bool axesInModelFrame, std::optional<double>& initialPosition) {
    JointAxis axis = defaultAxis(e.where);
    bool useParentModelFrame = axesInModelFrame;
    for (const XmlElement& child : e.children) {
      const std::string_view n = child.name;  // a view: comparisons with literals stay inline
      if (n == "xyz") {
        Vector3 xyz = axis.xyz;
        readVector3(child, xyz);
        axis.expressedIn = frameReference(child, "expressed_in");  // read in 1.4-1.6 files too, like libsdformat
        const double norm = xyz.norm();
        if (norm == 0) {
          // libsdformat reports this when it builds the axis, after the schema pass.
          diagnostics_.error(ErrorCode::ELEMENT_INVALID, "the norm of the <xyz> vector of the joint axis cannot be zero",
                             child.where);
        } else {
          axis.xyz = xyz / norm;
        }
      } else if (n == "use_parent_model_frame" && version_.below(7)) {
        readBool(child, useParentModelFrame);
      } else if (n == "initial_position") {
        if (auto value = number(child)) initialPosition = *value;
      } else if (n == "mimic" && !version_.below(11)) {
        // read by readMimic
      } else if (n == "limit") {
        for (const XmlElement& limit : child.children) {
          const std::string& l = limit.name;
          if (l == "lower") readLimit(limit, axis.lower);
          else if (l == "upper") readLimit(limit, axis.upper);
          else if (l == "effort") {
            readLimit(limit, axis.effort);
            if (axis.effort < 0) axis.effort = std::numeric_limits<double>::infinity();  // -1: no limit
          } else if (l == "velocity") {
            readLimit(limit, axis.velocity);
            if (axis.velocity < 0) axis.velocity = std::numeric_limits<double>::infinity();
          } else {
            keep(limit, path + "/limit", kept);
          }
        }
      } else if (n == "dynamics") {
        for (const XmlElement& dynamics : child.children) {
          const std::string& d = dynamics.name;
          if (d == "damping") readNumber(dynamics, axis.damping);
          else if (d == "friction") readNumber(dynamics, axis.friction);
          else if (d == "spring_reference") readNumber(dynamics, axis.springReference);
          else if (d == "spring_stiffness") readNumber(dynamics, axis.springStiffness);
          else keep(dynamics, path + "/dynamics", kept);
        }
      } else {
        keep(child, path, kept);
      }
    }
    if (version_.below(7) && useParentModelFrame) axis.expressedIn = "__model__";
    return axis;
  }

  struct UnsupportedWarning {
    std::size_t index = 0;
    int count = 1;
  };

  std::string path_;
  Diagnostics& diagnostics_;
  Version version_;
  // Joint limits an axis has when its file does not give them: ±1e16 up to SDFormat 1.9, ±inf
  // from 1.10 on (each version's joint.sdf description).
  double defaultLower_ = -std::numeric_limits<double>::infinity();
  double defaultUpper_ = std::numeric_limits<double>::infinity();
  int schemaErrors_ = 0;
  std::map<std::string, UnsupportedWarning> unsupported_;
  std::string scopePath_;
  std::vector<std::string> owners_;
};

}  // namespace

bool readSdformatXml(const plugin::LoadRequest& request, SdfXml& records, Diagnostics& diagnostics) {
  return Reader(request.path, diagnostics).readXml(request.content, records);
}

void mapSdformat(const SdfXml& records, const plugin::LoadRequest& request, Document& document,
                 Diagnostics& diagnostics) {
  Reader(request.path, diagnostics).map(records, document);
}

int sniffSdformat(const char* /*path*/, const char* head, std::size_t size) {
  const std::string_view text(head ? head : "", head ? size : 0);
  return text.find("<sdf") != std::string_view::npos ? 90 : 10;
}

}  // namespace interlink::sdformat
