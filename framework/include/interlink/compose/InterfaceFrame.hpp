#pragma once
#include <string>

#include "interlink/Pose.hpp"

namespace interlink {

/// An explicit frame exposed by a custom-parsed model.
class InterfaceFrame {
 public:
  /// `attachedTo` must not be empty; "__model__" names the model frame.
  InterfaceFrame(std::string name, std::string attachedTo, const Pose& poseInAttachedTo)
      : name_(std::move(name)), attachedTo_(std::move(attachedTo)), pose_(poseInAttachedTo) {}
  const std::string& Name() const { return name_; }
  const std::string& AttachedTo() const { return attachedTo_; }
  const Pose& PoseInAttachedToFrame() const { return pose_; }

 private:
  std::string name_;
  std::string attachedTo_;
  Pose pose_;
};

}  // namespace interlink
