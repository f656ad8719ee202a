#pragma once
// A model: links, joints, frames and nested models. Every format fills this same structure.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interlink/SourceLocation.hpp"
#include "interlink/model/Extension.hpp"
#include "interlink/model/Frame.hpp"
#include "interlink/model/Include.hpp"
#include "interlink/model/Joint.hpp"
#include "interlink/model/KeptElement.hpp"
#include "interlink/model/Light.hpp"
#include "interlink/model/Link.hpp"
#include "interlink/model/SemanticPose.hpp"

namespace interlink {

struct Model {
  std::string name;
  SemanticPose pose;  // default relative to the enclosing model frame or the world
  bool isStatic = false;
  std::string canonicalLink;   // empty: the first link (or the first nested model's canonical link)
  std::string placementFrame;  // //model/@placement_frame
  std::vector<Link> links;
  std::vector<Joint> joints;
  std::vector<Frame> frames;
  std::vector<Model> models;  // nested models, in document order
  std::vector<Light> lights;
  /// When set, this entry is an include not yet resolved; the framework replaces it by the model.
  std::optional<Include> include;
  /// Format-specific parameters kept for the host (units, simulation settings, ...).
  std::map<std::string, std::string> parameters;
  std::vector<KeptElement> kept;
  /// Typed format-specific records (declared in the format plugin's public header).
  Extensions extensions;
  /// Built from a host parser's InterfaceModel: its joints name only a child frame, so they
  /// take part in the frame graph but not in the kinematic tree.
  bool fromInterfaceModel = false;
  std::string sourceFormat;  // plugin name that produced this model ("sdformat", "hrdf", ...)
  std::string sourceFile;    // file this model was read from (set for included models too)
  /// Keeps alive whatever code this model's data depends on (the plugin library that made it,
  /// a host parser's reposture callback). Owned by the framework; plugins leave it empty.
  std::shared_ptr<const void> keepAlive;
  SourceLocation where;
};

}  // namespace interlink
