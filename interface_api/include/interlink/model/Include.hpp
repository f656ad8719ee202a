#pragma once
// An <include> (or another format's reference to a model in another file) not yet resolved.
// Format plugins record it in Model::includes / World::includes; the framework's include step
// resolves the file, loads it with the plugin of its format and puts the model in its place.
#include <cstddef>
#include <optional>
#include <string>

#include "interlink/SourceLocation.hpp"
#include "interlink/model/SemanticPose.hpp"

namespace interlink {

struct Include {
  std::string uri;                            // as written
  std::optional<std::string> name;            // //include/name
  std::optional<bool> isStatic;               // //include/static
  std::optional<SemanticPose> pose;           // //include/pose
  std::optional<std::string> placementFrame;  // //include/placement_frame
  bool merge = false;                         // //include/@merge (SDFormat 1.9)
  std::string elementText;                    // the whole <include> element, custom elements kept
  /// Where the included model goes among the enclosing element's models: the number of models
  /// declared before the include in the file (document order is DOF and frame order).
  std::size_t position = 0;
  SourceLocation where;
};

}  // namespace interlink
