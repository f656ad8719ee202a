#include "ReferenceSdformat.hpp"

#include <filesystem>

#include <sdf/Console.hh>
#include <sdf/Error.hh>
#include <sdf/Frame.hh>
#include <sdf/Joint.hh>
#include <sdf/Link.hh>
#include <sdf/Model.hh>
#include <sdf/ParserConfig.hh>
#include <sdf/Root.hh>
#include <sdf/SemanticPose.hh>
#include <sdf/World.hh>

namespace interlink::conformance {
namespace {

// Written out by hand (not derived from Interlink's table) so that a renamed or missing code on
// either side shows up as a mismatch. -Wswitch flags an sdf::ErrorCode added upstream.
const char* codeName(sdf::ErrorCode code) {
  switch (code) {
    case sdf::ErrorCode::NONE: return "NONE";
    case sdf::ErrorCode::FILE_READ: return "FILE_READ";
    case sdf::ErrorCode::DUPLICATE_NAME: return "DUPLICATE_NAME";
    case sdf::ErrorCode::RESERVED_NAME: return "RESERVED_NAME";
    case sdf::ErrorCode::ATTRIBUTE_MISSING: return "ATTRIBUTE_MISSING";
    case sdf::ErrorCode::ATTRIBUTE_INVALID: return "ATTRIBUTE_INVALID";
    case sdf::ErrorCode::ATTRIBUTE_DEPRECATED: return "ATTRIBUTE_DEPRECATED";
    case sdf::ErrorCode::ATTRIBUTE_INCORRECT_TYPE: return "ATTRIBUTE_INCORRECT_TYPE";
    case sdf::ErrorCode::ELEMENT_MISSING: return "ELEMENT_MISSING";
    case sdf::ErrorCode::ELEMENT_INVALID: return "ELEMENT_INVALID";
    case sdf::ErrorCode::ELEMENT_DEPRECATED: return "ELEMENT_DEPRECATED";
    case sdf::ErrorCode::ELEMENT_INCORRECT_TYPE: return "ELEMENT_INCORRECT_TYPE";
    case sdf::ErrorCode::URI_INVALID: return "URI_INVALID";
    case sdf::ErrorCode::URI_LOOKUP: return "URI_LOOKUP";
    case sdf::ErrorCode::DIRECTORY_NONEXISTANT: return "DIRECTORY_NONEXISTANT";
    case sdf::ErrorCode::MODEL_CANONICAL_LINK_INVALID: return "MODEL_CANONICAL_LINK_INVALID";
    case sdf::ErrorCode::MODEL_WITHOUT_LINK: return "MODEL_WITHOUT_LINK";
    case sdf::ErrorCode::NESTED_MODELS_UNSUPPORTED: return "NESTED_MODELS_UNSUPPORTED";
    case sdf::ErrorCode::LINK_INERTIA_INVALID: return "LINK_INERTIA_INVALID";
    case sdf::ErrorCode::JOINT_CHILD_LINK_INVALID: return "JOINT_CHILD_LINK_INVALID";
    case sdf::ErrorCode::JOINT_PARENT_LINK_INVALID: return "JOINT_PARENT_LINK_INVALID";
    case sdf::ErrorCode::JOINT_PARENT_SAME_AS_CHILD: return "JOINT_PARENT_SAME_AS_CHILD";
    case sdf::ErrorCode::FRAME_ATTACHED_TO_INVALID: return "FRAME_ATTACHED_TO_INVALID";
    case sdf::ErrorCode::FRAME_ATTACHED_TO_CYCLE: return "FRAME_ATTACHED_TO_CYCLE";
    case sdf::ErrorCode::FRAME_ATTACHED_TO_GRAPH_ERROR: return "FRAME_ATTACHED_TO_GRAPH_ERROR";
    case sdf::ErrorCode::POSE_RELATIVE_TO_INVALID: return "POSE_RELATIVE_TO_INVALID";
    case sdf::ErrorCode::POSE_RELATIVE_TO_CYCLE: return "POSE_RELATIVE_TO_CYCLE";
    case sdf::ErrorCode::POSE_RELATIVE_TO_GRAPH_ERROR: return "POSE_RELATIVE_TO_GRAPH_ERROR";
    case sdf::ErrorCode::STRING_READ: return "STRING_READ";
    case sdf::ErrorCode::MODEL_PLACEMENT_FRAME_INVALID: return "MODEL_PLACEMENT_FRAME_INVALID";
    case sdf::ErrorCode::VERSION_DEPRECATED: return "VERSION_DEPRECATED";
    case sdf::ErrorCode::MERGE_INCLUDE_UNSUPPORTED: return "MERGE_INCLUDE_UNSUPPORTED";
  }
  return "UNKNOWN";
}

Pose toPose(const ignition::math::Pose3d& p) {
  Pose pose = Pose::Identity();
  pose.translation() = Vector3(p.Pos().X(), p.Pos().Y(), p.Pos().Z());
  // libsdformat keeps a written quaternion as is (quat_xyzw "0.7071068 0 0 0.7071068" has norm
  // 1 + 2.7e-8); ignition::math rotates with q v q^-1, where the inverse divides by the squared
  // norm, so the rotation it stands for is that of the normalised quaternion. Eigen's
  // toRotationMatrix() assumes a unit quaternion, hence normalized().
  pose.linear() = Quaternion(p.Rot().W(), p.Rot().X(), p.Rot().Y(), p.Rot().Z()).normalized().toRotationMatrix();
  return pose;
}

/// Collects the frames of one scope. libsdformat resolves a name only inside its own scope (a
/// link of model M cannot be resolved to "world"), so every pose is resolved to its scope's frame
/// and composed with the scope's pose in the root frame.
class FrameCollector {
 public:
  explicit FrameCollector(ReferenceResult& result) : result_(result) {}

  void add(const std::string& name, const char* kind, const sdf::SemanticPose& semantic,
           const std::string& resolveTo, const Pose& X_root_scope) {
    ignition::math::Pose3d local;
    const sdf::Errors errors = semantic.Resolve(local, resolveTo);
    for (const auto& e : errors) {
      result_.resolveErrors.push_back(name + ": [" + codeName(e.Code()) + "] " + e.Message());
    }
    if (errors.empty()) result_.frames.push_back({name, kind, X_root_scope * toPose(local)});
  }

  /// The contents of `model`, whose frame is at X_root_model; names are prefixed with `prefix`.
  void addModelContents(const sdf::Model& model, const std::string& prefix, const Pose& X_root_model) {
    for (uint64_t i = 0; i < model.LinkCount(); ++i) {
      const sdf::Link* link = model.LinkByIndex(i);
      add(prefix + link->Name(), "link", link->SemanticPose(), "__model__", X_root_model);
    }
    for (uint64_t i = 0; i < model.JointCount(); ++i) {
      const sdf::Joint* joint = model.JointByIndex(i);
      add(prefix + joint->Name(), "joint", joint->SemanticPose(), "__model__", X_root_model);
    }
    for (uint64_t i = 0; i < model.FrameCount(); ++i) {
      const sdf::Frame* frame = model.FrameByIndex(i);
      add(prefix + frame->Name(), "frame", frame->SemanticPose(), "__model__", X_root_model);
    }
    for (uint64_t i = 0; i < model.ModelCount(); ++i) {
      addModel(*model.ModelByIndex(i), prefix, "__model__", X_root_model);
    }
  }

  /// A model in a scope whose frame (`scopeFrame`) is at X_root_scope, then its contents.
  void addModel(const sdf::Model& model, const std::string& prefix, const std::string& scopeFrame,
                const Pose& X_root_scope) {
    const std::string name = prefix + model.Name();
    const std::size_t before = result_.frames.size();
    add(name, "model", model.SemanticPose(), scopeFrame, X_root_scope);
    if (result_.frames.size() == before) return;  // unresolved; its contents cannot be placed
    const Pose X_root_model = result_.frames.back().pose;
    addModelContents(model, name + "::", X_root_model);
  }

 private:
  ReferenceResult& result_;
};

}  // namespace

std::string libsdformatCodeName(int code) { return codeName(static_cast<sdf::ErrorCode>(code)); }

bool isLibsdformatCodeName(const std::string& name) {
  for (int value = 0; libsdformatCodeName(value) != "UNKNOWN"; ++value) {
    if (libsdformatCodeName(value) == name) return true;
  }
  return false;
}

namespace {

ReferenceResult loadWithConfig(const std::string& path, const sdf::ParserConfig& config);

}  // namespace

ReferenceResult loadWithLibsdformat(const std::string& path, const std::string& modelDirectory) {
  sdf::ParserConfig config;
  config.SetFindCallback([modelDirectory](const std::string& file) -> std::string {
    const std::filesystem::path candidate = std::filesystem::path(modelDirectory) / file;
    return std::filesystem::exists(candidate) ? candidate.string() : std::string();
  });
  return loadWithConfig(path, config);
}

ReferenceResult loadWithLibsdformat(const std::string& path, const std::vector<std::string>& searchDirectories) {
  sdf::ParserConfig config;
  std::string joined;
  for (const auto& dir : searchDirectories) joined += (joined.empty() ? "" : ":") + dir;
  if (!joined.empty()) config.AddURIPath("model://", joined);
  config.SetFindCallback([searchDirectories](const std::string& uri) -> std::string {
    std::string name = uri;
    for (const char* scheme : {"model://", "file://"}) {
      if (name.rfind(scheme, 0) == 0) name = name.substr(std::string(scheme).size());
    }
    if (name.find("://") != std::string::npos) return {};  // Fuel and other remote URIs: not fetched
    if (std::filesystem::path(name).is_absolute()) return std::filesystem::exists(name) ? name : std::string();
    for (const auto& dir : searchDirectories) {
      const std::filesystem::path candidate = std::filesystem::path(dir) / name;
      if (std::filesystem::exists(candidate)) return candidate.string();
    }
    return {};
  });
  return loadWithConfig(path, config);
}

namespace {

ReferenceResult loadWithConfig(const std::string& path, const sdf::ParserConfig& config) {
  sdf::Console::Instance()->SetQuiet(true);
  ReferenceResult result;
  sdf::Root root;
  const sdf::Errors errors = root.Load(path, config);
  for (const auto& e : errors) {
    if (result.codes.empty()) result.firstCode = codeName(e.Code());
    result.codes.insert(codeName(e.Code()));
    result.messages.push_back(std::string("[") + codeName(e.Code()) + "] " + e.Message());
  }
  result.valid = errors.empty();
  if (!result.valid) return result;

  FrameCollector collector(result);
  if (root.WorldCount() > 0) {
    const sdf::World* world = root.WorldByIndex(0);
    for (uint64_t i = 0; i < world->ModelCount(); ++i) {
      collector.addModel(*world->ModelByIndex(i), "", "world", Pose::Identity());
    }
    for (uint64_t i = 0; i < world->FrameCount(); ++i) {
      const sdf::Frame* frame = world->FrameByIndex(i);
      collector.add(frame->Name(), "frame", frame->SemanticPose(), "world", Pose::Identity());
    }
  } else if (root.Model() != nullptr) {
    collector.addModelContents(*root.Model(), "", Pose::Identity());
  }
  return result;
}

}  // namespace
}  // namespace interlink::conformance
