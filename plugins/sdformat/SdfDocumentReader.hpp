#pragma once
// The SDFormat reader's state and steps, shared by its source files: SdfReader.cpp (the entry
// points, diagnostics, kept elements and values), SdfWorld.cpp (the root and worlds),
// SdfModel.cpp (models, includes, frames, links and their shapes) and SdfJoint.cpp (joints).
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "SdfReader.hpp"
#include "interlink/model/FormatRules.hpp"
#include "interlink/model/JointType.hpp"

namespace interlink::sdformat::detail {

using xml::Attribute;
using xml::XmlElement;

inline constexpr const char* kPluginName = "sdformat";

struct Version {
  int major = 0;
  int minor = 0;
  bool below(int minorVersion) const { return major == 1 && minor < minorVersion; }
};

/// "major.minor" with one to three digits each.
std::optional<Version> parseVersion(const std::string& text);
/// Only white space.
bool isBlank(const std::string& text);
/// "<name>" of an element, as messages name it.
std::string tag(const XmlElement& e);
/// A joint type SDFormat 1.9 has, by its SDFormat name.
std::optional<JointType> jointTypeFromName(const std::string& name);

class Reader {
 public:
  Reader(const std::string& path, Diagnostics& diagnostics) : path_(path), diagnostics_(diagnostics) {}

  /// Step 1: the located XML tree of an <sdf> document of a supported version.
  bool readXml(std::string_view content, SdfXml& records);

  /// Step 2: the tree mapped onto the model, with libsdformat's schema checks.
  void map(const SdfXml& records, Document& document);

 private:
  /// The rules of this file's version, declared as data for the core.
  void declareRules(FormatRules& rules) const;

  // --- diagnostics ---------------------------------------------------------------------------

  void fileReadError(const std::string& why, SourceLocation where = {});

  /// A problem libsdformat finds while reading the XML against its schema; counted for the
  /// ELEMENT_INVALID / FILE_READ summary.
  void schemaError(ErrorCode code, std::string message, const SourceLocation& where);

  void finish(const SourceLocation& rootWhere);

  std::string requiredName(const XmlElement& e);

  /// A named element (link, joint, visual, collision) declared at `e`, its pose declared there too.
  template <typename Element>
  Element declaredAt(const XmlElement& e) {
    Element element;
    element.where = e.where;
    element.name = requiredName(e);
    element.pose.where = e.where;
    return element;
  }

  /// libsdformat reserves "__root__" in every attribute that names a frame.
  void checkRootReference(const Attribute* attribute);

  std::string frameReference(const XmlElement& e, const char* attributeName);

  // --- kept elements -------------------------------------------------------------------------

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

  void keep(const XmlElement& e, const std::string& parentPath, std::vector<KeptElement>& into);

  // --- values --------------------------------------------------------------------------------

  std::optional<double> number(const XmlElement& e);

  void readNumber(const XmlElement& e, double& into);

  /// An axis with this file's version's defaults, declared at `where`.
  JointAxis defaultAxis(const SourceLocation& where) const;

  /// The default of //joint/axis/limit/<bound> in this file's version. 1.0 is read as upgraded to
  /// 1.2, whose description gives it (1.0 wrote limits as attributes).
  double limitDefault(const char* bound, double fallback) const;

  /// Joint limits: "inf" and "-inf" mean no limit (libsdformat accepts them); NaN stays an error.
  void readLimit(const XmlElement& e, double& into);

  std::optional<std::vector<double>> numbers(const XmlElement& e, std::size_t count);

  void readVector3(const XmlElement& e, Vector3& into);

  void readBool(const XmlElement& e, bool& into);

  std::string text(const XmlElement& e) { return e.trimmedText(); }

  /// //pose/@relative_to; before 1.7 also //pose/@frame, which wins when both are given:
  /// libsdformat converts such a file by renaming @frame to @relative_to (overwriting it) and then
  /// reads @relative_to, so Gazebo honours either spelling in 1.4-1.6 files.
  std::string poseRelativeTo(const XmlElement& e);

  /// <pose> with @relative_to (@frame before 1.7), @degrees and @rotation_format.
  SemanticPose readPose(const XmlElement& e);

  // --- root ----------------------------------------------------------------------------------

  void readRoot(const XmlElement& root, Document& document);

  // --- world ---------------------------------------------------------------------------------

  World readWorld(const XmlElement& e);

  Physics readPhysics(const XmlElement& e, World& world, bool gravityRead, const std::string& parentPath,
                      std::vector<KeptElement>& kept);

  /// Engine parameters are kept by path ("ode/solver/iters"); numbers go to Physics::values,
  /// anything else (solver type names, collision detector) to the kept list or the named field.
  void collectPhysicsValues(const XmlElement& e, const std::string& key, Physics& physics, const std::string& parentPath,
                            std::vector<KeptElement>& kept);

  Light readLight(const XmlElement& e, const std::string& path, std::vector<KeptElement>& kept);

  // --- model ---------------------------------------------------------------------------------

  struct ModelContext {
    std::string path;
    bool topLevelOfFile = false;  // the root model of a model file
    bool inWorld = false;         // a direct child of //world
  };

  Model newModel(const SourceLocation& where);

  Model readModel(const XmlElement& e, const ModelContext& context);

  /// Large models are common (generated chains): size the lists once instead of growing them.
  static void reserveFor(const XmlElement& e, Model& model);

  /// An <include>, placed after the models declared before it (`modelsBefore`).
  std::optional<Include> readInclude(const XmlElement& e, std::size_t modelsBefore);

  Frame readFrame(const XmlElement& e, const std::string& scopePath, std::vector<KeptElement>& kept);

  // --- link ----------------------------------------------------------------------------------

  /// Seed 003 section 1.6 phase 2: the named children of a link (visuals, collisions, sensors,
  /// lights, ...) have unique names across every element type. Two of one type are an error in
  /// every version, as libsdformat's DUPLICATE_NAME (visuals and collisions are reported by the
  /// frame graph, the rest here). Two of different types are an error from SDFormat 1.7 on; files
  /// of 1.4-1.6, from before the frame semantics (Gazebo's own table model names a visual and a
  /// collision alike, and libsdformat loads it), get a located warning instead.
  void checkLinkChildNames(const XmlElement& link, const std::string& linkName);

  Link readLink(const XmlElement& e, Model& model, const std::string& modelPath);

  void readInertial(const XmlElement& e, Link& link, const std::string& linkPath, std::vector<KeptElement>& kept);

  Shape readShape(const XmlElement& e, const std::string& path, std::vector<KeptElement>& kept);

  /// The colour and script name the model has room for; the whole element is kept as well.
  void readMaterial(const XmlElement& e, Shape& shape);

  void readGeometry(const XmlElement& e, Geometry& geometry, const std::string& path, std::vector<KeptElement>& kept);

  struct ValueReader {
    const char* name;
    std::function<void(const XmlElement&)> read;
  };

  void readShapeValues(const XmlElement& shape, const std::string& path, std::vector<KeptElement>& kept,
                       std::initializer_list<ValueReader> readers);

  // --- joint ---------------------------------------------------------------------------------

  Joint readJoint(const XmlElement& e, const std::string& scopePath, std::vector<KeptElement>& kept,
                  bool axesInModelFrame);

  /// //axis/mimic (1.11): follower = multiplier * (leader - reference) + offset.
  Mimic readMimic(const XmlElement& e);

  JointAxis readAxis(const XmlElement& e, const std::string& path, std::vector<KeptElement>& kept,
                     bool axesInModelFrame, std::optional<double>& initialPosition);

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

}  // namespace interlink::sdformat::detail
