#pragma once
// An <include> (or another format's reference to a model in another file) not yet resolved.
// Format plugins record it in Model::includes / World::includes; the framework's include step
// resolves the file, loads it with the plugin of its format and puts the model in its place.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "interlink/SourceLocation.hpp"
#include "interlink/model/Frame.hpp"
#include "interlink/model/Joint.hpp"
#include "interlink/model/KeptElement.hpp"
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
  /// The whole <include> element as a tree, custom elements kept (what a host's custom model
  /// parser receives as NestedInclude::IncludeElement); an empty name when the format has none.
  KeptNode element;
  /// Where the included model goes among the enclosing element's models: the number of models
  /// declared before the include in the file (document order is DOF and frame order).
  std::size_t position = 0;
  SourceLocation where;
};

}  // namespace interlink
