#pragma once
// What a reposture callback may ask about the resolved graph, scoped to its own model.
#include <string>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/Pose.hpp"

namespace interlink {

class FrameGraph;

class INTERLINK_API InterfaceModelPoseGraph {
 public:
  InterfaceModelPoseGraph(const FrameGraph& graph, std::string modelScopedName, bool worldRoot);

  /// X_WM: the model frame in the world (in the root model frame for a model file).
  Diagnostics ResolveNestedModelFramePoseInWorldFrame(Pose& pose) const;
  /// X_RF for a frame inside this model ("link", "nested::frame"); `relativeTo` is "world" or a
  /// frame inside this model.
  Diagnostics ResolveNestedFramePose(Pose& pose, const std::string& frameName,
                                     const std::string& relativeTo = "world") const;

 private:
  std::string scoped(const std::string& name) const;
  const FrameGraph& graph_;
  std::string model_;
  bool worldRoot_;
};

}  // namespace interlink
