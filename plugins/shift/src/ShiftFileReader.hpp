#pragma once
// Step 1 of the Shift plugin, internal: the reader that fills ShiftFile records from the JSON.
// Its work is split along the file's own seams: JSON access, model_parameters, fixed frames and
// lights (ShiftReader.cpp), assemblies and bodies (ShiftBodyReader.cpp), references, joints and
// restraints (ShiftJointReader.cpp).
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "JsonDocument.hpp"  // framework/json: shared with the core-model reader
#include "MeshInfo.hpp"
#include "ShiftRecords.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::shift::detail {

using json::JsonDocument;
using json::JsonPtr;
using json::TextPosition;

/// "an object", "a number", ...: what a JSON value is, for messages.
using ::interlink::json::describeKind;
/// "arm:wrist:link" -> {"arm", "wrist", "link"}.
std::vector<std::string> splitPath(const std::string& text);

class Reader {
 public:
  Reader(const plugin::LoadRequest& request, ShiftFile& file, Diagnostics& diagnostics)
      : request_(request), file_(file), diagnostics_(diagnostics) {}

  /// False when there is no usable document (not JSON, not an object at the top).
  bool run();

 private:
  // --- JSON access with diagnostics ---
  SourceLocation at(const json_t* value) const { return json_.where(value); }
  SourceLocation at(const json_t* object, const char* key) const { return json_.where(object, key); }
  void wrongType(const json_t* value, const SourceLocation& where, const std::string& what,
                 const std::string& expected) {
    diagnostics_.error(ErrorCode::ELEMENT_INCORRECT_TYPE,
                       what + ": expected " + expected + ", got " + describeKind(value), where);
  }
  std::optional<double> number(const json_t* value, const SourceLocation& where, const std::string& what);
  std::optional<Vector3> vector3(const json_t* value, const SourceLocation& where, const std::string& what);
  std::optional<Matrix3> rotation(const json_t* value, const SourceLocation& where, const std::string& what);
  std::optional<std::string> string(const json_t* object, const char* key, const std::string& what, bool required);
  std::optional<bool> flag(const json_t* object, const char* key, const std::string& what);
  /// An array member; null and absent give nothing without complaint, other kinds an error.
  const json_t* array(const json_t* object, const char* key, const std::string& what);
  std::optional<Pose> framePose(const json_t* object, const std::string& what);
  bool checkName(const std::string& name, const SourceLocation& where, const std::string& what, bool isFrame);
  /// The checked name of an entry of `path` that must be an object with a "name" ("body", "joint");
  /// nothing after reporting why.
  std::optional<std::string> entryName(const json_t* object, const std::string& kind, const std::string& path);
  /// A number or an array of numbers appended to `out`; false after reporting a wrong entry.
  bool numberList(const json_t* value, const std::string& what, std::vector<double>& out);
  void warnUnknownKeys(const json_t* object, std::initializer_list<const char*> known, const std::string& path,
                       std::vector<KeptElement>& kept);
  void keep(std::vector<KeptElement>& kept, const std::string& path, const json_t* value) {
    kept.push_back(KeptElement{path, json_.textOf(value), at(value)});
  }

  // --- reading ---
  void readParameters(const json_t* parameters);
  void flatten(const json_t* value, const std::string& key, std::map<std::string, std::string>& out);
  double unitFactor(const json_t* units, const char* key, const std::map<std::string, double>& known);
  void readFixed(const json_t* frames, const json_t* terrain);
  void readAssembly(const json_t* object, int parent, bool parentActive);
  void readBody(const json_t* object, int assembly, bool assemblyActive);
  void readInertia(const json_t* object, BodyRecord& body);
  void readGeometry(const json_t* object, BodyRecord& body);
  void addMesh(BodyRecord& body, const std::string& uri, const std::string& material, const SourceLocation& where);
  void readJoint(const json_t* object, int assembly);
  bool readJointType(const json_t* object, JointRecord& joint);
  void readInitialValues(const json_t* object, JointRecord& joint);
  void readRestraint(const json_t* object, const std::string& key, int assembly);
  void readLight(const json_t* object, const std::string& path);

  // --- references ---
  struct BodyLookup {
    int body = kFixedBody;
    bool found = false;
    bool inactive = false;
    std::string reason;
  };
  BodyLookup findBody(const std::vector<std::string>& path, int fromAssembly) const;
  std::optional<int> findAssembly(const std::vector<std::string>& path, int start) const;
  /// The frame `name` of a body (kFixedBody: a fixed frame), or null; `origin` is implicit, not listed.
  const FrameRecord* findFrame(int body, const std::string& name) const;
  std::optional<EndPoint> endPoint(const json_t* pair, int assembly, ErrorCode code, const std::string& what,
                                   bool& inactive);
  std::optional<EndPoint> endPoint20(const json_t* bodyPath, const json_t* frame, const SourceLocation& where,
                                     int assembly, ErrorCode code, const std::string& what, bool& inactive);
  std::optional<EndPoint> resolve(const std::vector<std::string>& bodyPath, const std::string& frame,
                                  const SourceLocation& where, const SourceLocation& frameWhere, int assembly,
                                  ErrorCode code, const std::string& what, bool& inactive);
  std::string assemblyPath(int assembly) const { return file_.assemblyPath(assembly); }

  const plugin::LoadRequest& request_;
  ShiftFile& file_;
  Diagnostics& diagnostics_;
  JsonDocument json_;
  // The records being filled, by their reading names.
  std::string& version_ = file_.version;
  Units& units_ = file_.units;
  Vector3& gravity_ = file_.gravity;
  std::vector<std::string>& includeDirectories_ = file_.includeDirectories;
  std::map<std::string, std::string>& parameters_ = file_.parameters;
  Physics& physics_ = file_.physics;
  std::vector<FrameRecord>& fixedFrames_ = file_.fixedFrames;
  std::vector<LightRecord>& lights_ = file_.lights;
  std::vector<KeptElement>& worldKept_ = file_.kept;
  std::vector<AssemblyRecord>& assemblies_ = file_.assemblies;
  std::vector<BodyRecord>& bodies_ = file_.bodies;
  std::vector<JointRecord>& joints_ = file_.joints;
  std::vector<RestraintRecord>& restraints_ = file_.restraints;
  /// The JSON of each assembly, for its joints and restraints once every body is known.
  std::vector<const json_t*> assemblyJson_;
  std::map<std::pair<int, std::string>, int> bodyByName_;  // (assembly, body name) -> index in bodies_
  std::map<std::pair<int, std::string>, int> jointLineByName_;  // (assembly, joint name) -> line of its first definition
  MeshCache meshes_{request_.host};
};

}  // namespace interlink::shift::detail
