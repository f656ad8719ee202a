#pragma once
// What a format plugin produces from one file: a world, or a single top-level model.
#include <optional>
#include <string>
#include <vector>

#include "interlink/model/FormatRules.hpp"
#include "interlink/model/KeptElement.hpp"
#include "interlink/model/Light.hpp"
#include "interlink/model/Model.hpp"
#include "interlink/model/World.hpp"

namespace interlink {

struct Document {
  std::string sourceFile;
  std::string format;         // plugin name
  std::string formatVersion;  // e.g. "1.9" for SDFormat, "1.2.0" for HRDF
  std::vector<World> worlds;  // SDFormat allows one; kept a list for formats that allow more
  std::optional<Model> model; // a file whose root is a model
  std::vector<Light> lights;  // root-level lights
  std::vector<KeptElement> kept;
  /// The rules the file was read under, declared by the plugin (interlink/model/FormatRules.hpp).
  FormatRules rules;

  bool isWorld() const { return !worlds.empty(); }
};

}  // namespace interlink
