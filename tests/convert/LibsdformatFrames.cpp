#include "LibsdformatFrames.hpp"

#include <sdf/Console.hh>
#include <sdf/Frame.hh>
#include <sdf/Joint.hh>
#include <sdf/Link.hh>
#include <sdf/Model.hh>
#include <sdf/Root.hh>
#include <sdf/SemanticPose.hh>
#include <sdf/World.hh>

namespace interlink::roundtrip {
namespace {

Pose toPose(const ignition::math::Pose3d& p) {
  Pose pose = Pose::Identity();
  pose.translation() = Vector3(p.Pos().X(), p.Pos().Y(), p.Pos().Z());
  pose.linear() = Quaternion(p.Rot().W(), p.Rot().X(), p.Rot().Y(), p.Rot().Z()).toRotationMatrix();
  return pose;
}

/// libsdformat resolves a pose only within its own scope, so each pose is resolved to its
/// scope's frame and composed with that scope's pose in the root frame.
class Collector {
 public:
  explicit Collector(LibsdformatFrames& out) : out_(out) {}

  bool add(const std::string& name, const sdf::SemanticPose& semantic, const std::string& scopeFrame,
           const Pose& X_root_scope) {
    ignition::math::Pose3d local;
    const sdf::Errors errors = semantic.Resolve(local, scopeFrame);
    for (const auto& e : errors) out_.errors.push_back(name + ": [" + std::to_string(static_cast<int>(e.Code())) + "] " + e.Message());
    if (!errors.empty()) return false;
    out_.frames[name] = X_root_scope * toPose(local);
    return true;
  }

  void contents(const sdf::Model& model, const std::string& prefix, const Pose& X_root_model) {
    for (uint64_t i = 0; i < model.LinkCount(); ++i) {
      const sdf::Link* l = model.LinkByIndex(i);
      add(prefix + l->Name(), l->SemanticPose(), "__model__", X_root_model);
    }
    for (uint64_t i = 0; i < model.JointCount(); ++i) {
      const sdf::Joint* j = model.JointByIndex(i);
      add(prefix + j->Name(), j->SemanticPose(), "__model__", X_root_model);
    }
    for (uint64_t i = 0; i < model.FrameCount(); ++i) {
      const sdf::Frame* f = model.FrameByIndex(i);
      add(prefix + f->Name(), f->SemanticPose(), "__model__", X_root_model);
    }
    for (uint64_t i = 0; i < model.ModelCount(); ++i) nested(*model.ModelByIndex(i), prefix, "__model__", X_root_model);
  }

  void nested(const sdf::Model& model, const std::string& prefix, const std::string& scopeFrame,
              const Pose& X_root_scope) {
    const std::string name = prefix + model.Name();
    if (!add(name, model.SemanticPose(), scopeFrame, X_root_scope)) return;
    contents(model, name + "::", out_.frames[name]);
  }

 private:
  LibsdformatFrames& out_;
};

}  // namespace

LibsdformatFrames loadWithLibsdformat(const std::string& path) {
  sdf::Console::Instance()->SetQuiet(true);
  LibsdformatFrames result;
  sdf::Root root;
  const sdf::Errors errors = root.Load(path);
  for (const auto& e : errors) result.errors.push_back("[" + std::to_string(static_cast<int>(e.Code())) + "] " + e.Message());
  result.valid = errors.empty();
  if (!result.valid) return result;
  Collector collector(result);
  if (root.WorldCount() > 0) {
    const sdf::World* world = root.WorldByIndex(0);
    for (uint64_t i = 0; i < world->ModelCount(); ++i) collector.nested(*world->ModelByIndex(i), "", "world", Pose::Identity());
    for (uint64_t i = 0; i < world->FrameCount(); ++i) {
      const sdf::Frame* f = world->FrameByIndex(i);
      collector.add(f->Name(), f->SemanticPose(), "world", Pose::Identity());
    }
  } else if (root.Model() != nullptr) {
    collector.contents(*root.Model(), "", Pose::Identity());
  }
  return result;
}

}  // namespace interlink::roundtrip
