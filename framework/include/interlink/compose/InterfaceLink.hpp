#pragma once
#include <string>

#include "interlink/Pose.hpp"

namespace interlink {

/// A link exposed by a custom-parsed model: a name and its pose in the model frame.
class InterfaceLink {
 public:
  InterfaceLink(std::string name, const Pose& poseInModelFrame) : name_(std::move(name)), pose_(poseInModelFrame) {}
  const std::string& Name() const { return name_; }
  const Pose& PoseInModelFrame() const { return pose_; }

 private:
  std::string name_;
  Pose pose_;
};

}  // namespace interlink
