#pragma once
#include <string>

#include "interlink/Pose.hpp"

namespace interlink {

/// A joint exposed by a custom-parsed model: its child frame and its pose in that frame.
class InterfaceJoint {
 public:
  InterfaceJoint(std::string name, std::string childName, const Pose& poseInChildFrame)
      : name_(std::move(name)), childName_(std::move(childName)), pose_(poseInChildFrame) {}
  const std::string& Name() const { return name_; }
  const std::string& ChildName() const { return childName_; }
  const Pose& PoseInChildFrame() const { return pose_; }

 private:
  std::string name_;
  std::string childName_;
  Pose pose_;
};

}  // namespace interlink
