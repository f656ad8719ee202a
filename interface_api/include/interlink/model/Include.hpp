#pragma once
// An <include> (or another format's reference to a model in another file) not yet resolved.
// Format plugins record it; the framework resolves the file, loads it through the registry and
// puts the loaded model in its place.
#include <optional>
#include <string>
#include <vector>

#include "interlink/SourceLocation.hpp"
#include "interlink/model/Frame.hpp"
#include "interlink/model/Joint.hpp"
#include "interlink/model/SemanticPose.hpp"

namespace interlink {

struct Include {
  std::string uri;                            // as written
  std::optional<std::string> name;            // //include/name
  std::optional<bool> isStatic;               // //include/static
  std::optional<SemanticPose> pose;           // //include/pose
  std::optional<std::string> placementFrame;  // //include/placement_frame
  bool merge = false;                         // //include/@merge (SDFormat 1.9)
  /// //include/frame and //include/joint (composition proposal 1.4.1): added to the included
  /// model, their references read in its scope.
  std::vector<Frame> frames;
  std::vector<Joint> joints;
  std::string elementText;                    // the whole <include> element, custom elements kept
  SourceLocation where;
};

}  // namespace interlink
