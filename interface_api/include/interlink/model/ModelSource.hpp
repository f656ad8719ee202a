#pragma once
// Where a model was read from and the rules it was read under. The framework stamps it on every
// model of the document a plugin returns (plugins leave it alone), so each included file keeps its
// own format, version and rules (SDFormat 1.6 name rules apply to a 1.6 file even inside a 1.9
// world). A recorded core model (the interlink_model plugin) brings its models' sources, and keeps them.
#include <string>

#include "interlink/model/FormatRules.hpp"

namespace interlink {

struct ModelSource {
  std::string file;           // absolute path (empty for text loaded without a file)
  std::string format;         // plugin name, for messages; the core decides by `rules`, never by this
  std::string formatVersion;  // the file's own version as written ("1.6"); empty when none
  /// Built from a host parser's InterfaceModel: its joints name only a child frame, so they take
  /// part in the frame graph but not in the kinematic tree.
  bool fromInterfaceModel = false;
  /// The rules the plugin declared for this file (Document::rules).
  FormatRules rules;
};

}  // namespace interlink
