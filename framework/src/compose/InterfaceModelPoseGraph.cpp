// The pose queries a host's reposture callback may make, confined to its own model.
#include "interlink/compose/InterfaceModelPoseGraph.hpp"

#include "interlink/FrameGraph.hpp"
#include "interlink/model/Names.hpp"

namespace interlink {

InterfaceModelPoseGraph::InterfaceModelPoseGraph(const FrameGraph& graph, std::string modelScopedName, bool worldRoot)
    : graph_(graph), model_(std::move(modelScopedName)), worldRoot_(worldRoot) {}

std::string InterfaceModelPoseGraph::scoped(const std::string& name) const {
  if (name == names::kModelFrame || name.empty()) return model_;
  return names::join(model_, name);
}

Diagnostics InterfaceModelPoseGraph::ResolveNestedModelFramePoseInWorldFrame(Pose& pose) const {
  Diagnostics diagnostics;
  auto index = graph_.find(model_);
  if (!index) {
    diagnostics.error(ErrorCode::POSE_RELATIVE_TO_GRAPH_ERROR, "model '" + model_ + "' is not in the resolved frame graph");
    return diagnostics;
  }
  pose = graph_.frames()[*index].pose;
  return diagnostics;
}

Diagnostics InterfaceModelPoseGraph::ResolveNestedFramePose(Pose& pose, const std::string& frameName,
                                                            const std::string& relativeTo) const {
  Diagnostics diagnostics;
  // "world" means the root of the document (the world, or the top model frame of a model file).
  const std::string target = relativeTo == "world" ? graph_.rootName() : scoped(relativeTo);
  const std::string frame = scoped(frameName);
  auto resolved = relativeTo == "world" && !worldRoot_ && graph_.find(frame)
                      ? std::optional<Pose>(graph_.frames()[*graph_.find(frame)].pose)
                      : graph_.pose(frame, target);
  if (!resolved) {
    diagnostics.error(ErrorCode::POSE_RELATIVE_TO_INVALID,
                      "cannot resolve frame '" + frameName + "' relative to '" + relativeTo + "' inside model '" + model_ + "'");
    return diagnostics;
  }
  pose = *resolved;
  return diagnostics;
}

}  // namespace interlink
