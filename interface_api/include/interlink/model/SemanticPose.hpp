#pragma once
// A pose as written in a file: a transform and the name of the frame it is expressed in.
#include <string>

#include "interlink/Pose.hpp"
#include "interlink/SourceLocation.hpp"

namespace interlink {

struct SemanticPose {
  /// X_RF: this element's frame F in the frame R named by relativeTo.
  Pose pose = Pose::Identity();
  /// Empty means the element's default (its model frame, the world, or a joint's child frame).
  std::string relativeTo;
  SourceLocation where;
};

}  // namespace interlink
