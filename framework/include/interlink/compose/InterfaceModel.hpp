#pragma once
// The minimal description of a model that a host's custom parser returns for an <include>:
// names and poses of its model frame, links, frames, joints and nested models.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "interlink/Pose.hpp"
#include "interlink/compose/InterfaceFrame.hpp"
#include "interlink/compose/InterfaceJoint.hpp"
#include "interlink/compose/InterfaceLink.hpp"
#include "interlink/compose/InterfaceModelPoseGraph.hpp"

namespace interlink {

class InterfaceModel;
using InterfaceModelPtr = std::shared_ptr<InterfaceModel>;
using InterfaceModelConstPtr = std::shared_ptr<const InterfaceModel>;
/// Called once the graphs are resolved so the host can move its own objects to match.
using RepostureFunction = std::function<void(const InterfaceModelPoseGraph&)>;

class InterfaceModel {
 public:
  /// `name` is the local name (no "::"). `poseInParentFrame` is used when the <include> has no pose.
  InterfaceModel(std::string name, RepostureFunction reposture, bool isStatic, std::string canonicalLinkName,
                 const Pose& poseInParentFrame = Pose::Identity())
      : name_(std::move(name)),
        reposture_(std::move(reposture)),
        static_(isStatic),
        canonicalLink_(std::move(canonicalLinkName)),
        pose_(poseInParentFrame) {}

  const std::string& Name() const { return name_; }
  const RepostureFunction& Reposture() const { return reposture_; }
  bool Static() const { return static_; }
  const std::string& CanonicalLinkName() const { return canonicalLink_; }
  const Pose& ModelFramePoseInParentFrame() const { return pose_; }

  void AddNestedModel(InterfaceModelConstPtr nested) { nested_.push_back(std::move(nested)); }
  const std::vector<InterfaceModelConstPtr>& NestedModels() const { return nested_; }
  void AddFrame(InterfaceFrame frame) { frames_.push_back(std::move(frame)); }
  const std::vector<InterfaceFrame>& Frames() const { return frames_; }
  void AddJoint(InterfaceJoint joint) { joints_.push_back(std::move(joint)); }
  const std::vector<InterfaceJoint>& Joints() const { return joints_; }
  void AddLink(InterfaceLink link) { links_.push_back(std::move(link)); }
  const std::vector<InterfaceLink>& Links() const { return links_; }

 private:
  std::string name_;
  RepostureFunction reposture_;
  bool static_;
  std::string canonicalLink_;
  Pose pose_;
  std::vector<InterfaceModelConstPtr> nested_;
  std::vector<InterfaceFrame> frames_;
  std::vector<InterfaceJoint> joints_;
  std::vector<InterfaceLink> links_;
};

}  // namespace interlink
