#pragma once
#include <map>
#include <string>
#include <vector>

#include "interlink/SourceLocation.hpp"
#include "interlink/model/Frame.hpp"
#include "interlink/model/Include.hpp"
#include "interlink/model/Joint.hpp"
#include "interlink/model/KeptElement.hpp"
#include "interlink/model/Light.hpp"
#include "interlink/model/Model.hpp"
#include "interlink/model/Physics.hpp"

namespace interlink {

struct World {
  std::string name;
  Vector3 gravity{0, 0, -9.8};
  Physics physics;
  std::vector<Model> models;
  /// Includes as read; the framework's include step puts the models they name into `models`.
  std::vector<Include> includes;
  std::vector<Frame> frames;
  std::vector<Joint> joints;  // //world/joint (SDFormat 1.8+)
  std::vector<Light> lights;
  /// As Model::parameters and Model::readingNotes.
  std::map<std::string, std::string> parameters;
  std::map<std::string, std::string> readingNotes;
  std::vector<KeptElement> kept;
  SourceLocation where;
};

}  // namespace interlink
