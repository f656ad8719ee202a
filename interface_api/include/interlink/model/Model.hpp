#pragma once
// A model: links, joints, frames and nested models. Every format fills this same structure.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "interlink/SourceLocation.hpp"
#include "interlink/Pose.hpp"
#include "interlink/model/Extension.hpp"
#include "interlink/model/Frame.hpp"
#include "interlink/model/Include.hpp"
#include "interlink/model/Joint.hpp"
#include "interlink/model/KeptElement.hpp"
#include "interlink/model/Light.hpp"
#include "interlink/model/Link.hpp"
#include "interlink/model/ModelSource.hpp"
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
  /// References to models in other files, as the plugin read them. The framework's include
  /// step replaces each by the model it names (at Include::position among `models`), so a
  /// composed document never holds one.
  std::vector<Include> includes;
  /// The gravity this model declares for itself, in its model frame (Juice's `Gravity`), when its
  /// format gives a model one; a world's gravity is World::gravity.
  std::optional<Vector3> gravity;
  /// Format-specific settings the model has no field for, kept as written: content a writer
  /// carries where its target has a place for it and reports otherwise. Keys are the format's
  /// plugin name, a dot and the setting as the file spells it ("juice.Friction",
  /// "shift.loggers[0].csv_logfile"). Structured data goes into `extensions` instead.
  std::map<std::string, std::string> parameters;
  /// How the file was read, for the host to show: facts already applied to the model (the
  /// source's version, the units and angle conventions values were converted from, where a
  /// default came from). Keys as in `parameters`. Writers never carry them: they are not content.
  std::map<std::string, std::string> readingNotes;
  std::vector<KeptElement> kept;
  /// Typed format-specific records (declared in the format plugin's public header).
  Extensions extensions;
  /// Set by the framework (a recorded core model keeps its own): where it was read, its rules.
  ModelSource source;
  SourceLocation where;
};

}  // namespace interlink
