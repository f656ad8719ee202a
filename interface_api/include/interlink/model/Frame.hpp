#pragma once
#include <string>

#include "interlink/SourceLocation.hpp"
#include "interlink/model/SemanticPose.hpp"

namespace interlink {

/// An explicit frame. Attached to a link, joint, frame or model of its scope; empty means the
/// enclosing model frame (or the world at world scope).
struct Frame {
  std::string name;
  std::string attachedTo;
  SemanticPose pose;  // default relative to attachedTo
  SourceLocation where;
};

}  // namespace interlink
