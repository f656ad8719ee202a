#pragma once
// libsdformat 12.3's view of an SDFormat file: every named frame with its resolved pose in the
// root frame (the world, or the top model frame of a model file), scoped with "::" like
// Interlink's frame graph.
#include <map>
#include <string>
#include <vector>

#include "interlink/Pose.hpp"

namespace interlink::roundtrip {

struct LibsdformatFrames {
  bool valid = false;
  std::vector<std::string> errors;     // "[code] message" of load and resolve errors
  std::map<std::string, Pose> frames;  // scoped name -> pose in the root frame
};

LibsdformatFrames loadWithLibsdformat(const std::string& path);

}  // namespace interlink::roundtrip
